#pragma once
// Batch runs for folio-cli's per-file commands (ocr, predict, extract, qs generate).
//
// A command becomes a batch when it is given more than one input, a folder (expanded recursively
// to the files it accepts, sorted), a list (`@list.txt` or --files-from FILE: one path per line),
// or --out. Each input then gives exactly one JSON line, naming it:
//   {"input": "...", "ok": true, "result": {...the command's usual JSON...}}
//   {"input": "...", "ok": false, "exit": 1, "error": "..."}
// A failing input is a line, never the end of the batch; the exit code is 1 when any failed.
//
// --jobs N (N > 1) runs N worker processes: the same folio-cli command line with --batch-worker,
// which reads paths on stdin and answers one line per path, so a model is loaded once per worker
// and an input that crashes its worker only fails that input (the worker is restarted). Workers
// use one torch thread each unless --threads is given.
//
// --manifest FILE makes the run resumable: after each input its line is appended to --out and
// flushed to disk, then the manifest records the input and the out file's length. A restarted run
// skips the inputs the manifest names and first cuts --out back to the recorded length, so a run
// killed at any moment (kill -9 included) finishes with every input exactly once.
//
// --project URL --queue NAME shares one batch among workers on several machines (batchqueue.cpp,
// document/project/projectqueue.h): the inputs go into the project's queue NAME once (a worker
// arriving later with other inputs adds only the new ones; with no inputs it joins), then each
// worker claims one input at a time under a lease it renews while running, records the outcome
// in the queue and writes its line as above; it ends when no input is pending or claimed.
#include <nlohmann/json.hpp>

#include <QString>
#include <QStringList>

#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}

namespace folio::cli {

struct BatchOptions
{
    std::vector<std::string> inputs; // the command's positional FILE arguments
    std::string filesFrom, out, manifest;
    int jobs = 1;
    bool worker = false;          // --batch-worker: the child side of --jobs
    // --queue (batchqueue.cpp). `project` is the command's own --project (ocr, predict: results go
    // into the project too) or &ownProject, the --project addBatchOptions adds.
    std::string queue, ownProject, workerName;
    const std::string *project = nullptr;
    int lease = 60, maxAttempts = 3;
    bool enqueueOnly = false;
    CLI::Option *jobsOption = nullptr;
    CLI::Option *threadsOption = nullptr; // the command's --threads, when it has one
    CLI::Option *queueOption = nullptr;   // --queue: given at all (`--queue ''` is refused, not local)
};

// Adds --files-from, --out, --manifest, the --queue options and the hidden --batch-worker. --jobs
// is added unless the command already has one (ocr: there it also means OCR worker processes for
// a single input); --project unless the command has its own (`commandProject`).
void addBatchOptions(CLI::App *cmd, BatchOptions *batch, bool addJobs = true, const std::string *commandProject = nullptr);

// True when the command may run without FILE arguments: a --queue worker joining a queue (--queue
// given, even empty: runBatch then refuses the empty name instead of running locally).
bool joinsQueue(const BatchOptions &batch);

// True when the command line asks for a batch (see the top of this file) or this is a worker.
bool isBatch(const BatchOptions &batch);

// Torch threads a command should use: its --threads when given, 1 in a worker of a --jobs run,
// else the command's default.
int batchThreads(const BatchOptions &batch, int commandThreads);

// The work for one input: the JSON the command prints for it, or a thrown CliError / exception.
using BatchItemRunner = std::function<nlohmann::json(const QString &path, const std::string &argument)>;

// Expands the inputs, runs them (in this process, or in --jobs workers), writes the lines and the
// manifest, reports progress; throws CliError with exit 1 when some inputs failed and exit 3 when
// cancelled (the manifest then lets the run resume). `extensions` are the lower-case suffixes a
// folder is searched for ("png", "html.gz", ...).
void runBatch(const std::string &command, const BatchOptions &batch, const QStringList &extensions,
              const BatchItemRunner &runOne);

// runBatch for --queue (batchqueue.cpp).
void runQueueBatch(const std::string &command, const BatchOptions &batch, const QStringList &extensions,
                   const BatchItemRunner &runOne);

// The batch's inputs in order, folders and lists expanded, duplicates (same absolute path)
// removed. Throws CliError for a list file or folder that cannot be read. (batchinputs.cpp)
std::vector<std::string> expandBatchInputs(const BatchOptions &batch, const QStringList &extensions);
// Why an input that expandBatchInputs found in a folder must not be read ("" when it may): a link
// that leads outside the folder given, to nothing or in a loop, a FIFO or a device (issue 51). The
// batch gives such an input a failing line without opening it.
std::string refusedBatchInput(const std::string &input);

} // namespace folio::cli
