#pragma once
// The parent side of `--jobs N` (batch.h): N folio-cli worker processes fed one path at a time.
#include "app/cli/batch.h"

#include "app/cli/commands.h"

#include <chrono>
#include <string>
#include <vector>

namespace folio::cli {

class BatchJournal;

struct BatchTally
{
    long total = 0, done = 0, ok = 0, failed = 0;
    void count(bool success)
    {
        ++done;
        ++(success ? ok : failed);
    }
    // Progress on stderr at most once a second, and at the last input.
    void report(const std::string &label)
    {
        const auto now = std::chrono::steady_clock::now();
        if (done < total && now - lastReport < std::chrono::seconds(1))
            return;
        lastReport = now;
        reportProgress(label, done, total);
    }
    std::chrono::steady_clock::time_point lastReport{};
};

// An input's line: {"input", "ok": true, "result"} or {"input", "ok": false, "exit", "error"}.
std::string batchLine(const std::string &input, const nlohmann::json *result, int exitCode, const std::string &error);

// One input's JSON line, run in this process (a CliError with ExitCancelled passes through).
std::string runBatchItem(const BatchItemRunner &runOne, const std::string &input, bool *ok);

// Runs `pending` on `jobs` workers (this executable, same arguments, --batch-worker), recording
// each line as it arrives. A worker that dies fails only its current input and is replaced.
// Throws CliError(ExitCancelled) on Ctrl-C after stopping the workers.
void runWithWorkers(const std::vector<std::string> &pending, int jobs, BatchJournal *journal, BatchTally *tally,
                    const std::string &progressLabel);

} // namespace folio::cli
