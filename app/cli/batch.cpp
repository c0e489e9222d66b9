// Batch runs (batch.h): options, one input's line, the in-process loop and the worker side of
// --jobs. The process pool that feeds the workers is in batchworkers.cpp.
#include "app/cli/batch.h"
#include "app/cli/batchjournal.h"
#include "app/cli/batchworkers.h"
#include "app/cli/commands.h"

#include <CLI/CLI.hpp>
#include <QFile>
#include <QFileInfo>

#include <cstdio>
#include <iostream>

namespace folio::cli {

void addBatchOptions(CLI::App *cmd, BatchOptions *batch, bool addJobs, const std::string *commandProject)
{
    batch->project = commandProject ? commandProject : &batch->ownProject;
    if (!commandProject)
        cmd->add_option("--project", batch->ownProject, "Batch: the project (postgresql://...) that holds --queue");
    batch->queueOption =
        cmd->add_option("--queue", batch->queue, "Batch: share the inputs with other workers through this queue of --project");
    cmd->add_option("--lease", batch->lease, "Batch: --queue claim lease in seconds, renewed while an input runs")
        ->check(CLI::Range(1, 86400))->capture_default_str();
    cmd->add_option("--max-attempts", batch->maxAttempts,
                    "Batch: an input whose --queue workers died this many times on it fails")
        ->check(CLI::Range(1, 1000))->capture_default_str();
    cmd->add_option("--worker-name", batch->workerName, "Batch: this --queue worker's name (default: host:pid)");
    cmd->add_flag("--enqueue-only", batch->enqueueOnly, "Batch: fill the --queue and exit without running anything");
    cmd->add_option("--files-from", batch->filesFrom, "Batch: read input paths from this file, one per line");
    cmd->add_option("--out", batch->out, "Batch: write one JSON line per input to this file (default: stdout)");
    cmd->add_option("--manifest", batch->manifest, "Batch: resumable manifest; a restarted run skips what it names");
    if (addJobs)
        batch->jobsOption = cmd->add_option("--jobs,-j", batch->jobs, "Batch: worker processes")->check(CLI::Range(1, 256));
    cmd->add_flag("--batch-worker", batch->worker, "(internal) serve a --jobs batch: paths on stdin, JSON lines out")
        ->group("");
}

bool joinsQueue(const BatchOptions &batch)
{
    return !batch.queue.empty() || (batch.queueOption && batch.queueOption->count() > 0);
}

bool isBatch(const BatchOptions &batch)
{
    if (batch.worker || joinsQueue(batch) || batch.inputs.size() > 1 || !batch.filesFrom.empty() || !batch.out.empty() || !batch.manifest.empty())
        return true;
    for (const std::string &a : batch.inputs)
        if ((a.size() > 1 && a[0] == '@') || QFileInfo(QFile::decodeName(QByteArray::fromStdString(a))).isDir())
            return true;
    return false;
}

int batchThreads(const BatchOptions &batch, int commandThreads)
{
    const bool given = batch.threadsOption && batch.threadsOption->count() > 0;
    return batch.worker && !given ? 1 : commandThreads;
}

std::string batchLine(const std::string &input, const nlohmann::json *result, int exitCode, const std::string &error)
{
    // Written by hand so "input" and "ok" lead the line (nlohmann::json sorts its keys).
    const auto text = [](const nlohmann::json &j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); };
    std::string line = "{\"input\":" + text(BatchJournal::key(input));
    if (result)
        return line + ",\"ok\":true,\"result\":" + text(*result) + "}";
    return line + ",\"ok\":false,\"exit\":" + std::to_string(exitCode) + ",\"error\":" + text(error) + "}";
}

std::string runBatchItem(const BatchItemRunner &runOne, const std::string &input, bool *ok)
{
    *ok = false;
    try {
        const nlohmann::json result = runOne(inputPath(input), input);
        *ok = true;
        return batchLine(input, &result, 0, std::string());
    } catch (const CliError &e) {
        if (e.code() == ExitCancelled)
            throw;
        return batchLine(input, nullptr, e.code(), e.what());
    } catch (const std::exception &e) {
        return batchLine(input, nullptr, ExitFailure, e.what());
    }
}

namespace {

// The child side of --jobs: a path per stdin line, a JSON line per path on stdout.
void serveAsWorker(const BatchItemRunner &runOne)
{
    std::string input;
    while (std::getline(std::cin, input)) {
        if (input.empty())
            continue;
        bool ok = false;
        const std::string line = runBatchItem(runOne, input, &ok) + '\n';
        std::fwrite(line.data(), 1, line.size(), stdout);
        std::fflush(stdout);
    }
}

} // namespace

void runBatch(const std::string &command, const BatchOptions &batch, const QStringList &extensions,
              const BatchItemRunner &runOne)
{
    if (batch.worker) {
        setQuiet(true);
        serveAsWorker(runOne);
        return;
    }
    if (joinsQueue(batch)) {
        if (batch.queue.empty())
            throw CliError(command + ": --queue needs a name (1-100 letters, digits, '.', '_', '-', ':'); without "
                                     "--queue the inputs run here, unshared",
                           ExitUsage);
        runQueueBatch(command, batch, extensions, runOne);
        return;
    }
    const std::vector<std::string> inputs = expandBatchInputs(batch, extensions);
    if (inputs.empty())
        throw CliError(command + ": no inputs to run", ExitUsage);
    BatchJournal journal(command, batch.out, batch.manifest, inputs);
    std::vector<std::string> pending;
    for (const std::string &in : inputs)
        if (!journal.done(in))
            pending.push_back(in);
    BatchTally tally;
    tally.total = long(inputs.size());
    tally.done = long(inputs.size() - pending.size());
    const std::string label = command + ": inputs";
    // Folder entries that must not be read (links out of the folder, FIFOs...) fail without a reader.
    std::vector<std::string> runnable;
    for (const std::string &in : pending) {
        const std::string refused = refusedBatchInput(in);
        if (refused.empty()) {
            runnable.push_back(in);
            continue;
        }
        journal.record(in, batchLine(in, nullptr, ExitFailure, refused), false);
        tally.count(false);
    }
    pending.swap(runnable);
    const CancelScope scope;
    if (batch.jobs <= 1 || pending.size() <= 1) {
        for (const std::string &in : pending) {
            if (cancelRequested())
                throw CliError(command + ": cancelled; the manifest lets a rerun resume", ExitCancelled);
            bool ok = false;
            const std::string line = runBatchItem(runOne, in, &ok);
            journal.record(in, line, ok);
            tally.count(ok);
            tally.report(label);
        }
    } else {
        runWithWorkers(pending, batch.jobs, &journal, &tally, label);
    }
    if (!quiet())
        std::fprintf(stderr, "%s: %ld input(s): %ld ok, %ld failed this run%s%s\n", command.c_str(), tally.total,
                     tally.ok, tally.failed, batch.out.empty() ? "" : "; lines in ", batch.out.c_str());
    if (tally.failed > 0)
        throw CliError(command + ": " + std::to_string(tally.failed) + " input(s) failed (their lines say why)");
}

} // namespace folio::cli
