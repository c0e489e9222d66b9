#pragma once
// ProjectQueue: a named work queue inside a project (schema 6), shared by folio-cli workers on
// several machines through a PostgreSQL project (`folio-cli ocr --project URL --queue NAME ...`).
//
//   folio::ProjectQueue queue(*project, "scans-2026-11");
//   queue.enqueue("ocr", inputs, &added, &error);          // idempotent: known inputs are kept
//   QueueClaim c;
//   while (queue.claim(worker, 60, 3, &c, &error) && c.id >= 0) {
//       ... extend(c, 60, ...) every lease/3 s while it runs ...
//       queue.finish(c, ok, line, message, &stillMine, &error);
//   }
//
// Claims: one short transaction selects the first pending input (or one whose claim expired)
// with the dialect's row lock that skips rows others hold (PostgreSQL: FOR UPDATE SKIP LOCKED)
// and sets claimed_by, a fresh claim token and claim_expires (server clock + lease). finish()
// writes only while the token is still the claim's: a worker whose lease ran out (stopped,
// partitioned) and whose input another worker took records nothing, so every input ends exactly
// once. An input whose claims expired `maxAttempts` times (its workers keep dying on it) is
// failed with a message instead of being handed out forever.
//
// Same name, other inputs: enqueue() adds only the inputs not queued yet (an input already
// queued keeps its first fingerprint). Same name, other command: refused.
// SQLite projects work too (one machine: workers are processes sharing the file; BEGIN IMMEDIATE
// serialises the claims).
#include <QByteArray>
#include <QString>
#include <QStringList>

#include <vector>

namespace folio {

class Project;

// An input as enqueued: absolute path and its fingerprint (size -1: could not be read; then
// `error` says why and the input is recorded as failed at once).
struct QueueInput
{
    QString input;
    qint64 size = -1;
    qint64 mtimeMs = 0;
    QString sha256;
    QString error;
};

struct QueueClaim
{
    qint64 id = -1; // -1: nothing to claim now
    QString input;
    qint64 size = -1;
    qint64 mtimeMs = 0;
    QString sha256;
    QString token;
    QString previousWorker; // when this claim took over an expired one
    int attempts = 0;       // including this one
};

struct QueueWorkerCounts
{
    QString worker;
    qint64 claimed = 0, done = 0, failed = 0;
};

struct QueueItemInfo
{
    qint64 position = 0;
    QString input, state, worker, error;
    int attempts = 0;
};

struct QueueStatus
{
    QString name, command, createdBy, created;
    qint64 pending = 0, claimed = 0, expired = 0, done = 0, failed = 0; // expired: claimed, lease over
    std::vector<QueueWorkerCounts> workers;                              // by worker name
    qint64 total() const { return pending + claimed + done + failed; }
    bool finished() const { return pending == 0 && claimed == 0; }
};

class ProjectQueue
{
public:
    // `project` must outlive the queue. Names: 1-100 characters of letters, digits, . _ - :
    ProjectQueue(Project &project, const QString &name);

    static bool isValidName(const QString &name);
    // Names of the project's queues (empty before schema 6).
    static QStringList names(Project &project, QString *error);

    QString name() const { return m_name; }

    // The command of an existing queue; false (no error) when there is no such queue.
    bool exists(QString *command, QString *error) const;
    // The inputs already queued (to skip fingerprinting them again).
    bool queuedInputs(QStringList *inputs, QString *error) const;
    // Creates the queue for `command` when new, adds the inputs it does not hold yet (in one
    // transaction). Refuses a queue of another command. `*added` counts the new inputs;
    // `*failedAdded` (optional) gets those of them recorded as failed at once (size -1): the
    // caller that queued them reports them, no worker ever claims them.
    bool enqueue(const QString &command, const std::vector<QueueInput> &inputs, int *added, QString *error,
                 QStringList *failedAdded = nullptr);

    // Claims the next input for `worker` for `leaseSeconds`; claim->id is -1 when none is free
    // (all done, failed or held by live claims). First fails the expired claims that reached
    // `maxAttempts`.
    bool claim(const QString &worker, int leaseSeconds, int maxAttempts, QueueClaim *claim, QString *error);
    // Heartbeat: pushes the claim's expiry to now + lease. *stillMine false: the lease had run out
    // and another worker took the input.
    bool extend(const QueueClaim &claim, int leaseSeconds, bool *stillMine, QString *error);
    // Records the outcome (state done / failed, the JSON line, the error message). *stillMine
    // false: the claim was lost, nothing written.
    bool finish(const QueueClaim &claim, bool ok, const QByteArray &line, const QString &message, bool *stillMine,
                QString *error);
    // Gives a claim back unrun (a cancelled worker): pending again, the attempt not counted.
    bool release(const QueueClaim &claim, QString *error);

    bool status(QueueStatus *status, QString *error) const;
    // Every input with its state, in queue order; only failed ones when `failedOnly`.
    bool items(std::vector<QueueItemInfo> *items, bool failedOnly, QString *error) const;

private:
    bool checkSchema(QString *error) const;

    Project &m_project;
    QString m_name;
};

} // namespace folio
