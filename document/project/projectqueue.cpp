// Work queues of a project (projectqueue.h): schema 6's queues and queue_items tables.
#include "document/project/projectqueue.h"

#include "document/project/projectprivate.h"

#include <QRandomGenerator>
#include <QRegularExpression>

#include <map>

namespace folio {

namespace {

constexpr int kQueueSchema = 6;

QString randomToken()
{
    const quint64 a = QRandomGenerator::system()->generate64(), b = QRandomGenerator::system()->generate64();
    return QString::number(a, 16) + QString::number(b, 16);
}

} // namespace

ProjectQueue::ProjectQueue(Project &project, const QString &name) : m_project(project), m_name(name) {}

bool ProjectQueue::isValidName(const QString &name)
{
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9._:-]{1,100}$"));
    return valid.match(name).hasMatch();
}

bool ProjectQueue::checkSchema(QString *error) const
{
    Project::Private &d = *m_project.d;
    if (d.schemaVersion < kQueueSchema)
        return d.setError(error, d.fail(QStringLiteral("schema version %1 has no work queues (open it read-write to "
                                                       "upgrade it to version %2)")
                                            .arg(d.schemaVersion)
                                            .arg(kQueueSchema)));
    if (!isValidName(m_name))
        return d.setError(error, d.fail(QStringLiteral("'%1' is not a queue name (1-100 letters, digits, '.', '_', "
                                                       "'-', ':')")
                                            .arg(m_name)));
    return d.revive(error);
}

QStringList ProjectQueue::names(Project &project, QString *error)
{
    Project::Private &d = *project.d;
    QStringList out;
    if (d.schemaVersion < kQueueSchema || !d.revive(error))
        return out;
    QSqlQuery q(d.db);
    if (!q.exec(QStringLiteral("SELECT name FROM queues ORDER BY name"))) {
        d.setError(error, d.failSql(q));
        return out;
    }
    while (q.next())
        out << q.value(0).toString();
    return out;
}

bool ProjectQueue::exists(QString *command, QString *error) const
{
    if (!checkSchema(error))
        return false;
    Project::Private &d = *m_project.d;
    QSqlQuery q(d.db);
    q.prepare(QStringLiteral("SELECT command FROM queues WHERE name = ?"));
    q.addBindValue(m_name);
    if (!q.exec())
        return d.setError(error, d.failSql(q));
    if (!q.next())
        return false;
    *command = q.value(0).toString();
    return true;
}

bool ProjectQueue::queuedInputs(QStringList *inputs, QString *error) const
{
    if (!checkSchema(error))
        return false;
    Project::Private &d = *m_project.d;
    QSqlQuery q(d.db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT input FROM queue_items WHERE queue_name = ?"));
    q.addBindValue(m_name);
    if (!q.exec())
        return d.setError(error, d.failSql(q));
    while (q.next())
        *inputs << q.value(0).toString();
    return true;
}

bool ProjectQueue::enqueue(const QString &command, const std::vector<QueueInput> &inputs, int *added, QString *error,
                           QStringList *failedAdded)
{
    *added = 0;
    QStringList failedNow;
    if (!checkSchema(error))
        return false;
    Project::Private &d = *m_project.d;
    if (!d.begin(error))
        return false;
    const QString now = projectNow();
    QSqlQuery q(d.db);
    // Two workers arriving at once: PostgreSQL makes the second wait for the first's row.
    q.prepare(QStringLiteral("INSERT INTO queues (name, command, created_by, created) VALUES (?, ?, ?, ?) "
                             "ON CONFLICT (name) DO NOTHING"));
    q.addBindValue(m_name);
    q.addBindValue(command);
    q.addBindValue(d.user);
    q.addBindValue(now);
    if (!q.exec())
        return d.rollbackWith(error, d.failSql(q));
    q.prepare(QStringLiteral("SELECT command FROM queues WHERE name = ?"));
    q.addBindValue(m_name);
    if (!q.exec() || !q.next())
        return d.rollbackWith(error, d.failSql(q));
    const QString existing = q.value(0).toString();
    if (existing != command)
        return d.rollbackWith(error, d.fail(QStringLiteral("queue '%1' holds '%2' inputs: a '%3' worker cannot join it "
                                                           "(choose another --queue name)")
                                                .arg(m_name, existing, command)));
    q.prepare(QStringLiteral("SELECT coalesce(max(position), 0) FROM queue_items WHERE queue_name = ?"));
    q.addBindValue(m_name);
    if (!q.exec() || !q.next())
        return d.rollbackWith(error, d.failSql(q));
    qint64 position = q.value(0).toLongLong();
    QSqlQuery ins(d.db);
    ins.prepare(QStringLiteral("INSERT INTO queue_items (queue_name, position, input, size, mtime_ms, sha256, state, "
                               "error, finished_by, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                               "ON CONFLICT (queue_name, input) DO NOTHING"));
    for (const QueueInput &in : inputs) {
        const bool unreadable = in.size < 0;
        ins.bindValue(0, m_name);
        ins.bindValue(1, ++position);
        ins.bindValue(2, in.input);
        ins.bindValue(3, in.size);
        ins.bindValue(4, in.mtimeMs);
        ins.bindValue(5, sqlText(in.sha256));
        ins.bindValue(6, unreadable ? QStringLiteral("failed") : QStringLiteral("pending"));
        ins.bindValue(7, unreadable ? sqlText(in.error) : QString(QLatin1String("")));
        ins.bindValue(8, unreadable ? d.user : QString(QLatin1String("")));
        ins.bindValue(9, unreadable ? now : QString(QLatin1String("")));
        if (!ins.exec())
            return d.rollbackWith(error, d.failSql(ins));
        if (ins.numRowsAffected() > 0) {
            ++*added;
            if (unreadable)
                failedNow << in.input;
        }
    }
    if (!d.commit(error, false))
        return false;
    if (failedAdded)
        *failedAdded = failedNow;
    return true;
}

bool ProjectQueue::claim(const QString &worker, int leaseSeconds, int maxAttempts, QueueClaim *claim, QString *error)
{
    *claim = QueueClaim();
    if (!checkSchema(error))
        return false;
    Project::Private &d = *m_project.d;
    const QString now = d.dialect->nowMillisSql();
    if (!d.begin(error))
        return false;
    QSqlQuery q(d.db);
    // Inputs whose workers died on them maxAttempts times: failed, not handed out again (rows
    // another transaction holds are skipped: never wait for a frozen worker's lock).
    q.prepare(QStringLiteral("UPDATE queue_items SET state = 'failed', finished = ?, finished_by = claimed_by, "
                             "error = 'its workers stopped (killed, crashed or cut off) ' || CAST(attempts AS TEXT) || "
                             "' times while on this input; last: ' || claimed_by "
                             "WHERE id IN (SELECT id FROM queue_items WHERE queue_name = ? AND state = 'claimed' "
                             "AND claim_expires < %1 AND attempts >= ?%2)")
                  .arg(now, d.dialect->lockSkippingLockedSql()));
    q.addBindValue(projectNow());
    q.addBindValue(m_name);
    q.addBindValue(maxAttempts);
    if (!q.exec())
        return d.rollbackWith(error, d.failSql(q));
    q.prepare(QStringLiteral("SELECT id, input, size, mtime_ms, sha256, attempts, state, claimed_by FROM queue_items "
                             "WHERE queue_name = ? AND (state = 'pending' OR (state = 'claimed' AND claim_expires < %1)) "
                             "ORDER BY position, id LIMIT 1%2")
                  .arg(now, d.dialect->lockSkippingLockedSql()));
    q.addBindValue(m_name);
    if (!q.exec())
        return d.rollbackWith(error, d.failSql(q));
    if (!q.next()) {
        d.db.rollback();
        return true;
    }
    QueueClaim c;
    c.id = q.value(0).toLongLong();
    c.input = q.value(1).toString();
    c.size = q.value(2).toLongLong();
    c.mtimeMs = q.value(3).toLongLong();
    c.sha256 = q.value(4).toString();
    c.attempts = q.value(5).toInt() + 1;
    if (q.value(6).toString() == QLatin1String("claimed"))
        c.previousWorker = q.value(7).toString();
    c.token = randomToken();
    q.finish();
    QSqlQuery u(d.db);
    u.prepare(QStringLiteral("UPDATE queue_items SET state = 'claimed', claimed_by = ?, claim_token = ?, "
                             "claim_expires = %1 + ?, attempts = attempts + 1 WHERE id = ?")
                  .arg(now));
    u.addBindValue(worker);
    u.addBindValue(c.token);
    u.addBindValue(qint64(leaseSeconds) * 1000);
    u.addBindValue(c.id);
    if (!u.exec())
        return d.rollbackWith(error, d.failSql(u));
    if (!d.commit(error, false))
        return false;
    *claim = c;
    return true;
}

bool ProjectQueue::extend(const QueueClaim &claim, int leaseSeconds, bool *stillMine, QString *error)
{
    *stillMine = false;
    if (!checkSchema(error))
        return false;
    Project::Private &d = *m_project.d;
    if (!d.begin(error))
        return false;
    QSqlQuery q(d.db);
    q.prepare(QStringLiteral("UPDATE queue_items SET claim_expires = %1 + ? WHERE id = ? AND claim_token = ? "
                             "AND state = 'claimed'")
                  .arg(d.dialect->nowMillisSql()));
    q.addBindValue(qint64(leaseSeconds) * 1000);
    q.addBindValue(claim.id);
    q.addBindValue(claim.token);
    if (!q.exec())
        return d.rollbackWith(error, d.failSql(q));
    *stillMine = q.numRowsAffected() > 0;
    return d.commit(error, false);
}

bool ProjectQueue::finish(const QueueClaim &claim, bool ok, const QByteArray &line, const QString &message,
                          bool *stillMine, QString *error)
{
    *stillMine = false;
    if (!checkSchema(error))
        return false;
    Project::Private &d = *m_project.d;
    if (!d.begin(error))
        return false;
    QSqlQuery q(d.db);
    q.prepare(QStringLiteral("UPDATE queue_items SET state = ?, error = ?, result = ?, finished_by = claimed_by, "
                             "finished = ? WHERE id = ? AND claim_token = ? AND state = 'claimed'"));
    q.addBindValue(ok ? QStringLiteral("done") : QStringLiteral("failed"));
    q.addBindValue(sqlText(message));
    q.addBindValue(detail::packJson(line));
    q.addBindValue(projectNow());
    q.addBindValue(claim.id);
    q.addBindValue(claim.token);
    if (!q.exec())
        return d.rollbackWith(error, d.failSql(q));
    *stillMine = q.numRowsAffected() > 0;
    return d.commit(error, false);
}

bool ProjectQueue::release(const QueueClaim &claim, QString *error)
{
    if (!checkSchema(error))
        return false;
    Project::Private &d = *m_project.d;
    if (!d.begin(error))
        return false;
    QSqlQuery q(d.db);
    q.prepare(QStringLiteral("UPDATE queue_items SET state = 'pending', claimed_by = '', claim_token = '', "
                             "claim_expires = 0, attempts = attempts - 1 WHERE id = ? AND claim_token = ? "
                             "AND state = 'claimed'"));
    q.addBindValue(claim.id);
    q.addBindValue(claim.token);
    if (!q.exec())
        return d.rollbackWith(error, d.failSql(q));
    return d.commit(error, false);
}

bool ProjectQueue::status(QueueStatus *status, QString *error) const
{
    *status = QueueStatus();
    Project::Private &d = *m_project.d;
    QString command, e;
    if (!exists(&command, &e))
        return d.setError(error, e.isEmpty() ? d.fail(QStringLiteral("no queue named '%1'").arg(m_name)) : e);
    status->name = m_name;
    status->command = command;
    QSqlQuery q(d.db);
    q.prepare(QStringLiteral("SELECT created_by, created FROM queues WHERE name = ?"));
    q.addBindValue(m_name);
    if (!q.exec() || !q.next())
        return d.setError(error, d.failSql(q));
    status->createdBy = q.value(0).toString();
    status->created = q.value(1).toString();
    // State per worker: claimed rows count for their holder, finished ones for who finished them.
    q.prepare(QStringLiteral("SELECT state, CASE WHEN state = 'claimed' THEN claimed_by ELSE finished_by END, "
                             "CASE WHEN state = 'claimed' AND claim_expires < %1 THEN 1 ELSE 0 END, count(*) "
                             "FROM queue_items WHERE queue_name = ? GROUP BY 1, 2, 3")
                  .arg(d.dialect->nowMillisSql()));
    q.addBindValue(m_name);
    if (!q.exec())
        return d.setError(error, d.failSql(q));
    std::map<QString, QueueWorkerCounts> workers;
    while (q.next()) {
        const QString state = q.value(0).toString(), worker = q.value(1).toString();
        const qint64 n = q.value(3).toLongLong();
        QueueWorkerCounts *w = worker.isEmpty() ? nullptr : &workers[worker];
        if (w)
            w->worker = worker;
        if (state == QLatin1String("pending")) {
            status->pending += n;
        } else if (state == QLatin1String("claimed")) {
            status->claimed += n;
            if (q.value(2).toInt() == 1)
                status->expired += n;
            if (w)
                w->claimed += n;
        } else if (state == QLatin1String("done")) {
            status->done += n;
            if (w)
                w->done += n;
        } else {
            status->failed += n;
            if (w)
                w->failed += n;
        }
    }
    for (auto &[name, counts] : workers)
        status->workers.push_back(counts);
    return true;
}

bool ProjectQueue::items(std::vector<QueueItemInfo> *items, bool failedOnly, QString *error) const
{
    items->clear();
    if (!checkSchema(error))
        return false;
    Project::Private &d = *m_project.d;
    QSqlQuery q(d.db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT position, input, state, CASE WHEN state = 'claimed' THEN claimed_by "
                             "ELSE finished_by END, error, attempts FROM queue_items WHERE queue_name = ?%1 "
                             "ORDER BY position, id")
                  .arg(failedOnly ? QStringLiteral(" AND state = 'failed'") : QString()));
    q.addBindValue(m_name);
    if (!q.exec())
        return d.setError(error, d.failSql(q));
    while (q.next())
        items->push_back({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
                          q.value(4).toString(), q.value(5).toInt()});
    return true;
}

} // namespace folio
