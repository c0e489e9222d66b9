// folio-cli hub download ORG/NAME[@REVISION] [--include PATTERN]...: a model repo from the Hugging
// Face Hub into the cache Python's huggingface_hub shares (pipeline/hub/hubdownloader.h); prints the
// snapshot folder (what --checkpoint, predict and Choose Model take), progress on stderr.
// folio-cli hub list [--all]: the checkpoints already in that cache that Folio can run, by repo id.
// HF_ENDPOINT, HF_HOME / HF_HUB_CACHE, HF_TOKEN (or the `huggingface-cli login` token file) and
// HF_HUB_OFFLINE are read as huggingface_hub reads them.
//
// Compiled twice (issue 46): into folio-cli-engine, and with FOLIO_CLI_FRONT into folio-cli-front,
// which the launcher runs for `hub` so that a download does not wait for LibTorch to load. The
// front describes the snapshot with describeCheckpointWithoutLibTorch; a folder that needs one of
// describeCheckpoint's LibTorch-linked checks (an ensemble, a drafter, a BART, a model_type no task
// runs) is handed to folio-cli-engine (`hub describe-download`, hidden), which says what it says
// today; `hub list` is run again by the engine for the same reason.
#include "app/cli/commands.h"
#include "pipeline/checkpointinfo.h"
#include "pipeline/hubmodels.h"
#include "pipeline/hub/hubdownloader.h"
#include "pipeline/hub/huberror.h"
#include "pipeline/hub/hubnames.h"

#include <CLI/CLI.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <thread>
#include <vector>

#include <unistd.h>

namespace folio::cli {

namespace {

struct HubDownloadArgs
{
    std::string spec;
    std::vector<std::string> include;
};

#ifdef FOLIO_CLI_FRONT
bool describeHere(const QString &dir, nlohmann::json *info)
{
    bool complete = false;
    *info = pipeline::describeCheckpointWithoutLibTorch(dir, &complete);
    return complete;
}
#else
bool describeHere(const QString &dir, nlohmann::json *info)
{
    *info = pipeline::describeCheckpoint(dir);
    return true;
}
#endif

// folio-cli-engine (beside this program) with `args`, argv[0] kept; returns only on failure.
[[noreturn]] void runEngine(const std::vector<std::string> &args)
{
    const QByteArray engine = QFile::encodeName(QCoreApplication::applicationDirPath() + QStringLiteral("/folio-cli-engine"));
    const QByteArray self = QFile::encodeName(QCoreApplication::arguments().value(0, QStringLiteral("folio-cli")));
    std::vector<char *> argv{const_cast<char *>(self.constData())};
    for (const std::string &a : args)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    std::cout.flush();
    std::cerr.flush();
    ::execv(engine.constData(), argv.data());
    throw CliError("cannot start " + engine.toStdString() + ": " + std::strerror(errno));
}

// The downloaded snapshot described as `info --checkpoint` does; a folder Folio cannot run is an
// error for a whole repo and a warning for --include files. Prints the snapshot folder.
void finishDownload(const QString &snapshotDir, bool fromCacheOnly, bool partial)
{
    nlohmann::json info;
    if (!describeHere(snapshotDir, &info)) {
        std::vector<std::string> args{"hub", "describe-download", snapshotDir.toStdString()};
        if (fromCacheOnly)
            args.push_back("--from-cache");
        if (partial)
            args.push_back("--partial");
        runEngine(args);
    }
    if (!info.value("runnable", false)) {
        const auto &problems = info["problems"];
        const std::string problem = problems.empty() ? std::string("no task") : problems[0].get<std::string>();
        if (!partial)
            throw CliError(snapshotDir.toStdString() + (fromCacheOnly ? ": in the cache" : ": downloaded")
                           + ", but Folio cannot run this folder: " + problem
                           + " (the files stay in the cache, as huggingface_hub would leave them)");
        std::cerr << "folio-cli: warning: " << snapshotDir.toStdString() << " (only the --include files) is not runnable: " << problem
                  << std::endl;
    }
    std::cout << snapshotDir.toStdString() << std::endl;
}

std::string megabytes(qint64 bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", double(bytes) / 1e6);
    return text;
}

hub::DownloadResult download(const HubDownloadArgs &a)
{
    QString repoId, revision, why;
    if (!hub::parseRepoSpec(QString::fromStdString(a.spec), &repoId, &revision, &why))
        throw CliError("hub download: " + why.toStdString(), ExitUsage);
    hub::DownloadRequest request{repoId, revision, {}};
    for (const std::string &p : a.include)
        request.include << QString::fromStdString(p);

    const hub::HubSettings settings = hub::HubSettings::fromEnvironment();
    hub::HubDownloader downloader(settings);
    std::atomic<bool> cancel{false}, done{false};
    CancelScope scope; // Ctrl-C stops the transfer; the partial blob stays for a later resume
    std::thread watcher([&] {
        while (!done.load()) {
            if (cancelRequested())
                cancel = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    });
    struct Join
    {
        std::atomic<bool> &done;
        std::thread &t;
        ~Join()
        {
            done = true;
            t.join();
        }
    } join{done, watcher};
    downloader.setCancelFlag(&cancel);
    downloader.setConfigCheck(pipeline::hubConfigProblem);
    downloader.setMessageHandler([](const QString &m) { std::cerr << "folio-cli: " << m.toStdString() << std::endl; });
    QElapsedTimer lastReport;
    lastReport.start();
    QString lastFile, lastFinished;
    QElapsedTimer fileClock;
    fileClock.start();
    qint64 fileStart = 0;
    downloader.setProgressHandler([&](const hub::DownloadProgress &p) {
        if (quiet())
            return;
        const bool finished = p.fileDone == p.fileTotal;
        if (p.file != lastFile) { // a new file: its line when done, or after half a second
            lastFile = p.file;
            lastReport.restart();
            fileClock.restart();
            fileStart = p.fileDone; // a resumed file starts where its partial blob ends
        }
        if (finished ? lastFinished == p.file : lastReport.elapsed() < 500)
            return;
        if (finished)
            lastFinished = p.file;
        lastReport.restart();
        std::string rate;
        const double seconds = fileClock.elapsed() / 1000.0;
        if (seconds > 0.2 && p.fileDone > fileStart) {
            const double perSecond = double(p.fileDone - fileStart) / seconds;
            rate = ", " + megabytes(qint64(perSecond)) + "/s";
            if (!finished)
                rate += ", " + std::to_string(int(double(p.fileTotal - p.fileDone) / perSecond + 0.5)) + " s left";
        }
        std::cerr << "hub: [" << p.fileIndex << "/" << p.fileCount << "] " << p.file.toStdString() << " "
                  << megabytes(p.fileDone) << " / " << megabytes(p.fileTotal)
                  << (p.fileTotal > 0 ? " (" + std::to_string(int(100.0 * double(p.fileDone) / double(p.fileTotal))) + "%" + rate + ")" : std::string())
                  << std::endl;
    });

    hub::DownloadResult result;
    QElapsedTimer clock;
    clock.start();
    try {
        result = downloader.download(request);
    } catch (const hub::HubError &e) {
        throw CliError(e.message().toStdString(), e.kind() == hub::HubError::Cancelled ? ExitCancelled : ExitFailure);
    }
    if (!quiet()) {
        const double seconds = std::max(1e-3, clock.elapsed() / 1000.0);
        std::cerr << "hub: " << repoId.toStdString() << "@" << revision.toStdString() << " = " << result.commit.toStdString() << ", "
                  << result.files.size() << " file(s), " << megabytes(result.bytesDownloaded) << " fetched"
                  << (result.bytesDownloaded > 0 ? " at " + megabytes(qint64(double(result.bytesDownloaded) / seconds)) + "/s" : std::string())
                  << (result.fromCacheOnly ? " (from the cache only)" : "") << std::endl;
    }
    return result;
}

void runDownload(const HubDownloadArgs &a)
{
    const hub::DownloadResult result = download(a); // the Ctrl-C watcher has stopped
    finishDownload(result.snapshotDir, result.fromCacheOnly, !a.include.empty());
}

void runList(bool all)
{
    const hub::HubSettings settings = hub::HubSettings::fromEnvironment();
    nlohmann::json out = nlohmann::json::array();
    bool complete = true;
    const QList<pipeline::CachedCheckpoint> checkpoints = pipeline::cachedCheckpoints(settings.cacheDir, all, describeHere, &complete);
    if (!complete)
        runEngine(all ? std::vector<std::string>{"hub", "list", "--all"} : std::vector<std::string>{"hub", "list"});
    for (const pipeline::CachedCheckpoint &c : checkpoints) {
        nlohmann::json refs = nlohmann::json::array();
        for (const QString &r : c.revisions)
            refs.push_back(r.toStdString());
        nlohmann::json entry = {{"repo_id", c.repoId.toStdString()}, {"revisions", refs}, {"commit", c.commit.toStdString()},
                                {"snapshot", c.snapshotDir.toStdString()}, {"model_type", c.modelType.toStdString()},
                                {"task", c.task.toStdString()}, {"runnable", c.runnable}};
        if (!c.runnable) {
            nlohmann::json problems = nlohmann::json::array();
            for (const QString &p : c.problems)
                problems.push_back(p.toStdString());
            entry["problems"] = problems;
        }
        out.push_back(entry);
    }
    std::cout << nlohmann::json{{"cache", settings.cacheDir.toStdString()}, {"checkpoints", out}}.dump(2) << std::endl;
}

} // namespace

void registerHubCommand(CLI::App &app)
{
    auto *hub = app.add_subcommand("hub", "The Hugging Face Hub: download a model repo into the cache Python shares "
                                          "(HF_HOME / HF_HUB_CACHE), list the runnable checkpoints in that cache");
    hub->require_subcommand(1);
    auto args = std::make_shared<HubDownloadArgs>();
    auto *download = hub->add_subcommand("download", "Download ORG/NAME[@REVISION] (branch, tag or commit; main by default) "
                                                     "into the Hub cache and print its snapshot folder; resumes a partial "
                                                     "download; HF_TOKEN or the huggingface-cli login token for private and gated repos");
    download->add_option("repo", args->spec, "ORG/NAME[@REVISION]")->required();
    download->add_option("--include", args->include, "Only files matching this pattern (fnmatch, as huggingface_hub's "
                                                      "allow_patterns: '*' also crosses '/'); repeat for more");
    download->callback([args] { runDownload(*args); });
    auto all = std::make_shared<bool>(false);
    auto *list = hub->add_subcommand("list", "The checkpoints in the Hub cache Folio can run, by repo id, newest first (JSON)");
    list->add_flag("--all", *all, "Also the snapshots Folio cannot run, with their problems");
    list->callback([all] { runList(*all); });
    // Hidden: folio-cli-front hands a downloaded snapshot it cannot describe without LibTorch to
    // folio-cli-engine with this (the end of `hub download`: its message, its exit status, the folder).
    struct Finish
    {
        std::string snapshot;
        bool fromCache = false, partial = false;
    };
    auto finish = std::make_shared<Finish>();
    auto *describe = hub->add_subcommand("describe-download", "The end of hub download in folio-cli-engine (internal)");
    describe->group("");
    describe->add_option("snapshot", finish->snapshot, "The snapshot folder")->required();
    describe->add_flag("--from-cache", finish->fromCache, "The download came from the cache only");
    describe->add_flag("--partial", finish->partial, "Only --include files were fetched");
    describe->callback([finish] { finishDownload(QString::fromStdString(finish->snapshot), finish->fromCache, finish->partial); });
}

} // namespace folio::cli
