// One worker of a batch shared through a project's queue (batch.h: --project URL --queue NAME).
//
// The worker fills the queue with its inputs (the ones not queued yet: size, mtime and SHA-256
// recorded), then claims one input at a time (ProjectQueue::claim: a short transaction, row
// locks that skip the rows other workers hold) under a lease that a heartbeat thread renews
// every lease/3 s on its own connection while the input runs. Before running, the input is
// checked against its fingerprint: one that vanished or changed since it was queued fails with
// that message instead of giving a result for other content. The outcome is recorded in the
// queue only while the claim is still this worker's, then written as the input's line (stdout
// or --out). The worker ends when nothing is pending and nothing is claimed: while other
// workers hold claims it waits, so the claims of a worker that dies return (after their lease)
// to one that is still running.
//
// A lost project connection (the project layer reconnects once; then it gives up) stops the
// worker with exit 1 and a message naming the input whose claim will expire and return.
#include "app/cli/batch.h"
#include "app/cli/batchjournal.h"
#include "app/cli/batchworkers.h"
#include "app/cli/commands.h"

#include "document/project/project.h"
#include "document/project/projectlocation.h"
#include "document/project/projectqueue.h"

#include <CLI/CLI.hpp>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QSysInfo>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace folio::cli {

namespace {

// The queue's project. An empty database becomes a project only for a worker that brings inputs
// (the first one); one that comes to join is told how to start, and changes nothing.
std::unique_ptr<Project> openQueueProject(const std::string &command, const std::string &location, bool mayCreate)
{
    QString error;
    const QString where = QString::fromStdString(location);
    auto p = Project::open(where, &error);
    if (!p && isEmptyDatabaseError(error)) {
        if (!mayCreate)
            throw CliError(command + ": " + error.toStdString() +
                           "; a worker without inputs only joins an existing queue (the first worker, given the inputs, "
                           "makes an empty database a project)");
        p = Project::openOrCreate(where, &error);
    }
    if (!p)
        throw CliError(error.toStdString());
    return p;
}

QString absoluteInput(const std::string &argument)
{
    return QDir::cleanPath(QFileInfo(QFile::decodeName(QByteArray::fromStdString(argument))).absoluteFilePath());
}

// Size, modification time and SHA-256 of a file; size -1 and `error` when it cannot be read.
QueueInput fingerprint(const QString &path)
{
    QueueInput in;
    in.input = path;
    const QFileInfo info(path);
    if (!info.exists()) {
        in.error = QStringLiteral("no such file");
        return in;
    }
    if (!info.isFile()) {
        in.error = QStringLiteral("not a regular file");
        return in;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        in.error = QStringLiteral("cannot be read (%1)").arg(f.errorString());
        return in;
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&f)) {
        in.error = QStringLiteral("cannot be read (%1)").arg(f.errorString());
        return in;
    }
    in.size = info.size();
    in.mtimeMs = info.lastModified().toMSecsSinceEpoch();
    in.sha256 = QString::fromLatin1(hash.result().toHex());
    return in;
}

QString describeTime(qint64 ms) { return QDateTime::fromMSecsSinceEpoch(ms).toUTC().toString(Qt::ISODate); }

// Empty when the claimed input is the file that was queued, else why it is not.
QString changedSinceQueued(const QueueClaim &c, const QueueInput &now)
{
    if (now.size < 0)
        return QStringLiteral("%1: vanished since it was queued (%2)").arg(c.input, now.error);
    if (now.sha256 != c.sha256)
        return QStringLiteral("%1: changed since it was queued (%2 -> %3 bytes, modified %4 -> %5, SHA-256 differs); "
                              "not run")
            .arg(c.input)
            .arg(c.size)
            .arg(now.size)
            .arg(describeTime(c.mtimeMs), describeTime(now.mtimeMs));
    return QString();
}

// Renews the current claim every lease/3 s on its own connection (a Qt SQL connection belongs
// to the thread that opened it).
class Heartbeat
{
public:
    Heartbeat(std::string project, const QString &queue, int leaseSeconds)
        : m_project(std::move(project)), m_queue(queue), m_lease(leaseSeconds)
    {
        m_thread = std::thread([this] { loop(); });
    }
    ~Heartbeat()
    {
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
        m_thread.join();
    }
    void hold(const QueueClaim &claim)
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_claim = claim;
        m_lost = false;
    }
    void drop()
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_claim = QueueClaim();
    }
    QString error() const
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        return m_error;
    }
    bool claimLost() const
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        return m_lost;
    }

private:
    void loop()
    {
        std::unique_ptr<Project> project;
        QString error;
        project = Project::open(QString::fromStdString(m_project), &error);
        std::unique_lock<std::mutex> lock(m_mutex);
        if (!project)
            m_error = error;
        const auto period = std::chrono::milliseconds(std::max(200, m_lease * 1000 / 3));
        while (!m_stop && project) {
            m_wake.wait_for(lock, period, [this] { return m_stop; });
            if (m_stop || m_claim.id < 0)
                continue;
            const QueueClaim claim = m_claim;
            lock.unlock();
            ProjectQueue queue(*project, m_queue);
            bool mine = false;
            QString e;
            const bool ok = queue.extend(claim, m_lease, &mine, &e);
            lock.lock();
            if (m_claim.token != claim.token)
                continue;
            if (!ok)
                m_error = e;
            else if (!mine)
                m_lost = true;
        }
    }

    std::string m_project;
    QString m_queue;
    int m_lease;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    QueueClaim m_claim;
    QString m_error;
    bool m_lost = false, m_stop = false;
    std::thread m_thread;
};

[[noreturn]] void connectionLost(const std::string &command, const QString &queue, const QString &error,
                                 const QueueClaim *claim, int lease)
{
    std::string message = command + ": queue " + queue.toStdString() + ": lost the project: " + error.toStdString() +
                          "; this worker stops";
    if (claim && claim->id >= 0)
        message += " (its claim on " + claim->input.toStdString() + " expires within " + std::to_string(lease) +
                   " s and returns to the queue)";
    throw CliError(message);
}

// Queues the inputs not queued yet. Returns those of them that failed at once (they could not be
// read): no worker claims them, so this worker writes their lines.
std::vector<QueueInput> enqueueInputs(const std::string &command, const std::vector<std::string> &given, ProjectQueue &queue)
{
    QString error, existing;
    if (given.empty()) {
        if (!queue.exists(&existing, &error)) {
            if (!error.isEmpty())
                throw CliError(error.toStdString());
            throw CliError(command + ": queue " + queue.name().toStdString() +
                               " does not exist: give the first worker the inputs (files, folders, @list.txt)",
                           ExitUsage);
        }
        if (existing.toStdString() != command)
            throw CliError(command + ": queue " + queue.name().toStdString() + " holds '" + existing.toStdString() +
                               "' inputs: a '" + command + "' worker cannot join it (choose another --queue name)",
                           ExitUsage);
        return {};
    }
    QStringList known;
    if (!queue.queuedInputs(&known, &error))
        throw CliError(error.toStdString());
    const QSet<QString> queued(known.begin(), known.end());
    std::vector<QueueInput> fresh;
    for (const std::string &in : given) {
        const QString path = absoluteInput(in);
        if (queued.contains(path))
            continue;
        if (const std::string refused = refusedBatchInput(in); !refused.empty()) {
            // A link out of the folder given, a FIFO...: fails without being opened (issue 51).
            QueueInput never;
            never.input = path;
            never.error = QFile::decodeName(QByteArray::fromStdString(refused));
            fresh.push_back(std::move(never));
            continue;
        }
        QueueInput fp = fingerprint(path);
        if (fp.size < 0)
            fp.error = QStringLiteral("%1: %2 when it was queued").arg(path, fp.error);
        fresh.push_back(std::move(fp));
    }
    int added = 0;
    QStringList failedAdded;
    if (!queue.enqueue(QString::fromStdString(command), fresh, &added, &error, &failedAdded)) {
        const bool otherCommand = error.contains(QLatin1String("cannot join it"));
        throw CliError(error.toStdString(), otherCommand ? ExitUsage : ExitFailure);
    }
    if (!quiet())
        std::fprintf(stderr, "%s: queue %s: %d new input(s) added, %lld already queued\n", command.c_str(),
                     qPrintable(queue.name()), added, static_cast<long long>(given.size()) - added);
    const QSet<QString> failedHere(failedAdded.begin(), failedAdded.end());
    std::vector<QueueInput> failed;
    for (QueueInput &in : fresh)
        if (in.size < 0 && failedHere.contains(in.input))
            failed.push_back(std::move(in));
    return failed;
}

} // namespace

void runQueueBatch(const std::string &command, const BatchOptions &batch, const QStringList &extensions,
                   const BatchItemRunner &runOne)
{
    const std::string project = batch.project ? *batch.project : std::string();
    if (project.empty())
        throw CliError(command + ": --queue needs --project (the postgresql://... project that holds the queue)", ExitUsage);
    if (!batch.manifest.empty())
        throw CliError(command + ": --queue and --manifest do not go together: the queue records what is done", ExitUsage);
    if (batch.jobsOption && batch.jobsOption->count() > 0 && batch.jobs > 1)
        throw CliError(command + ": --queue runs one input at a time per process: start several workers (on this "
                                 "machine or others) instead of --jobs",
                       ExitUsage);
    const QString queueName = QString::fromStdString(batch.queue);
    if (!ProjectQueue::isValidName(queueName))
        throw CliError(command + ": '" + batch.queue + "' is not a queue name (1-100 letters, digits, '.', '_', '-', ':')",
                       ExitUsage);
    const std::vector<std::string> given = expandBatchInputs(batch, extensions);
    std::unique_ptr<Project> store = openQueueProject(command, project, !given.empty());
    ProjectQueue queue(*store, queueName);
    const std::vector<QueueInput> failedWhenQueued = enqueueInputs(command, given, queue);
    BatchJournal journal(command, batch.out, std::string(), {});
    BatchTally tally;
    // Inputs that failed while being queued (missing, unreadable): their lines come from here,
    // and they count as failed for this worker's exit code.
    for (const QueueInput &in : failedWhenQueued) {
        const std::string input = QFile::encodeName(in.input).toStdString();
        journal.record(input, batchLine(input, nullptr, ExitFailure, in.error.toStdString()), false);
        ++tally.total;
        tally.count(false);
    }
    if (batch.enqueueOnly) {
        if (tally.failed > 0)
            throw CliError(command + ": queue " + batch.queue + ": " + std::to_string(tally.failed) +
                           " input(s) failed when they were queued (their lines say why)");
        return;
    }

    const QString worker = batch.workerName.empty()
                               ? QSysInfo::machineHostName() + QLatin1Char(':') + QString::number(::getpid())
                               : QString::fromStdString(batch.workerName);
    const std::string label = command + ": queue " + batch.queue;
    const CancelScope scope;
    Heartbeat heartbeat(project, queueName, batch.lease);
    const auto idle = std::chrono::milliseconds(std::clamp(batch.lease * 100, 100, 500));
    QString error;
    for (;;) {
        if (cancelRequested())
            throw CliError(command + ": cancelled; the queue keeps the inputs not done", ExitCancelled);
        QueueClaim claim;
        if (!queue.claim(worker, batch.lease, batch.maxAttempts, &claim, &error))
            connectionLost(command, queueName, error, nullptr, batch.lease);
        if (claim.id < 0) {
            QueueStatus st;
            if (!queue.status(&st, &error))
                connectionLost(command, queueName, error, nullptr, batch.lease);
            if (st.finished())
                break;
            std::this_thread::sleep_for(idle); // others hold claims: theirs may expire and return
            continue;
        }
        if (!claim.previousWorker.isEmpty() && !quiet())
            std::fprintf(stderr, "%s: %s: taken over from %s, whose claim expired (attempt %d)\n", command.c_str(),
                         qPrintable(claim.input), qPrintable(claim.previousWorker), claim.attempts);
        const std::string input = QFile::encodeName(claim.input).toStdString();
        const QueueInput before = fingerprint(claim.input);
        QString problem = changedSinceQueued(claim, before);
        std::string line;
        bool ok = false;
        if (problem.isEmpty()) {
            heartbeat.hold(claim);
            try {
                line = runBatchItem(runOne, input, &ok);
            } catch (const CliError &) { // cancelled: give the input back unrun
                heartbeat.drop();
                QString ignored;
                queue.release(claim, &ignored);
                throw;
            }
            heartbeat.drop();
            if (!heartbeat.error().isEmpty())
                connectionLost(command, queueName, heartbeat.error(), &claim, batch.lease);
            const QFileInfo after(claim.input); // size and mtime: hashing again would cost a read
            if (!after.exists() || after.size() != before.size || after.lastModified().toMSecsSinceEpoch() != before.mtimeMs) {
                problem = QStringLiteral("%1: changed while it was being processed; its result is not kept").arg(claim.input);
                ok = false;
            }
        }
        if (!problem.isEmpty())
            line = batchLine(input, nullptr, ExitFailure, problem.toStdString());
        QString message;
        if (!ok) {
            const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
            message = j.is_object() ? QString::fromStdString(j.value("error", std::string())) : QString();
        }
        bool mine = false;
        if (!queue.finish(claim, ok, QByteArray::fromStdString(line), message, &mine, &error))
            connectionLost(command, queueName, error, &claim, batch.lease);
        if (!mine) {
            if (!quiet())
                std::fprintf(stderr, "%s: %s: this worker's lease ran out and another worker took the input: "
                                     "this result is dropped (the other worker's counts)\n",
                             command.c_str(), qPrintable(claim.input));
            continue;
        }
        journal.record(input, line, ok);
        ++tally.total;
        tally.count(ok);
    }
    QueueStatus st;
    if (!queue.status(&st, &error))
        connectionLost(command, queueName, error, nullptr, batch.lease);
    if (!quiet())
        std::fprintf(stderr,
                     "%s: queue %s: this worker (%s) ran %ld input(s): %ld ok, %ld failed; the queue: %lld done, "
                     "%lld failed of %lld\n",
                     command.c_str(), qPrintable(queueName), qPrintable(worker), tally.done, tally.ok, tally.failed,
                     static_cast<long long>(st.done), static_cast<long long>(st.failed),
                     static_cast<long long>(st.total()));
    if (tally.failed > 0)
        throw CliError(command + ": " + std::to_string(tally.failed) + " input(s) failed (their lines say why)");
}

} // namespace folio::cli
