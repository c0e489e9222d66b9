// The PostgreSQL dialect of the project store (Qt SQL's QPSQL driver, Debian libqt6sql6-psql):
// the only file with PostgreSQL-specific SQL.
//
// A project is one database (created by an administrator: `createdb forms`); Project::create
// fills an empty database inside one transaction (PostgreSQL's DDL is transactional, so a half
// created project never exists). A table folio_project marks the database as Folio's, the way
// SQLite's application_id does. Commits are durable when they return (synchronous_commit on).
// Every session sets lock_timeout (30 s) and statement_timeout (10 min), so a table another
// connection keeps locked gives an error naming the project instead of a silent wait.
#include "document/project/projectdialect.h"
#include "document/project/projectlocation.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStringList>
#include <QVariant>
#include <QtGlobal>

namespace folio {

class PostgresProjectDialect : public ProjectDialect
{
public:
    QString name() const override { return QStringLiteral("postgresql"); }
    QString driverName() const override { return QStringLiteral("QPSQL"); }
    bool isFileBased() const override { return false; }

    QString precheckExisting(const QString &) const override { return {}; }

    void configureConnection(QSqlDatabase &db, const ProjectLocation &location, bool) const override
    {
        if (!location.host.isEmpty())
            db.setHostName(location.host);
        if (location.port > 0)
            db.setPort(location.port);
        if (!location.user.isEmpty())
            db.setUserName(location.user);
        if (!location.password.isEmpty())
            db.setPassword(location.password);
        db.setDatabaseName(location.database);
        QString options = QStringLiteral("application_name=folio");
        if (!location.options.contains(QLatin1String("connect_timeout=")))
            options += QStringLiteral(";connect_timeout=10");
        if (!location.options.isEmpty())
            options += QLatin1Char(';') + location.options;
        db.setConnectOptions(options);
    }

    // A lock another connection holds (LOCK ... ACCESS EXCLUSIVE, a long migration) or a
    // statement that never returns is given up after a while with a message (describeError)
    // instead of waiting forever. $FOLIO_PG_LOCK_TIMEOUT_MS / $FOLIO_PG_STATEMENT_TIMEOUT_MS
    // change the limits (tests, very slow servers); 0 waits forever, as PostgreSQL does by default.
    static int timeoutMs(const char *variable, int fallback)
    {
        bool ok = false;
        const int v = qEnvironmentVariableIntValue(variable, &ok);
        return ok && v >= 0 ? v : fallback;
    }
    static int lockTimeoutMs() { return timeoutMs("FOLIO_PG_LOCK_TIMEOUT_MS", 30'000); }
    static int statementTimeoutMs() { return timeoutMs("FOLIO_PG_STATEMENT_TIMEOUT_MS", 600'000); }
    // Every Folio transaction is a few statements in one call; a session idle inside one for a
    // minute belongs to a frozen process (a stopped queue worker, a cut-off machine): the server
    // ends it, so the row locks it holds do not block the other workers for ever.
    static int idleInTransactionMs() { return timeoutMs("FOLIO_PG_IDLE_IN_TRANSACTION_MS", 60'000); }

    QStringList sessionStatements(bool readOnly) const override
    {
        QStringList s = {QStringLiteral("SET client_min_messages = warning"),
                         QStringLiteral("SET synchronous_commit = on"),
                         QStringLiteral("SET lock_timeout = %1").arg(lockTimeoutMs()),
                         QStringLiteral("SET statement_timeout = %1").arg(statementTimeoutMs()),
                         QStringLiteral("SET idle_in_transaction_session_timeout = %1").arg(idleInTransactionMs())};
        if (readOnly)
            s << QStringLiteral("SET default_transaction_read_only = on");
        return s;
    }

    QStringList durabilityStatements() const override { return {}; }

    QStringList stampStatements() const override
    {
        return {QStringLiteral("CREATE TABLE folio_project (application TEXT NOT NULL)"),
                QStringLiteral("INSERT INTO folio_project VALUES ('folio')")};
    }

    bool isFolioDatabase(QSqlDatabase &db, bool *empty, QString *error) const override
    {
        *empty = false;
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("SELECT count(*), count(*) FILTER (WHERE table_name = 'folio_project') "
                                   "FROM information_schema.tables WHERE table_schema = current_schema()"))
            || !q.next()) {
            *error = describeError(q.lastError());
            return false;
        }
        const int tables = q.value(0).toInt();
        if (q.value(1).toInt() == 1)
            return true;
        if (tables == 0) {
            *empty = true;
            return true;
        }
        *error = QStringLiteral("a PostgreSQL database of another application (%1 tables, no folio_project)").arg(tables);
        return false;
    }

    QString autoIdColumn() const override { return QStringLiteral("BIGSERIAL PRIMARY KEY"); }
    QString blobType() const override { return QStringLiteral("BYTEA"); }
    QString realType() const override { return QStringLiteral("DOUBLE PRECISION"); }
    // clock_timestamp(): the time now, not the transaction's start (now()).
    QString nowMillisSql() const override
    {
        return QStringLiteral("CAST(floor(extract(epoch FROM clock_timestamp()) * 1000) AS BIGINT)");
    }
    QString lockSkippingLockedSql() const override { return QStringLiteral(" FOR UPDATE SKIP LOCKED"); }

    QString integrityCheck(QSqlDatabase &db) const override
    {
        // The server keeps its pages consistent; check that the tables every version has are there.
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() "
                                   "AND table_name IN ('schema_version', 'settings', 'documents', 'annotations')"))
            || !q.next())
            return describeError(q.lastError());
        return q.value(0).toInt() == 4 ? QString() : QStringLiteral("database is damaged (project tables missing)");
    }

    QString describeError(const QSqlError &error) const override
    {
        const QString state = error.nativeErrorCode();
        const QString text = error.text().simplified();
        if (state == QLatin1String("53100"))
            return QStringLiteral("disk full on the database server (%1)").arg(text);
        if (state == QLatin1String("25006"))
            return QStringLiteral("read-only (%1)").arg(text);
        if (state == QLatin1String("55P03") && text.contains(QLatin1String("lock timeout"), Qt::CaseInsensitive))
            return QStringLiteral("waited %1 s for a lock another connection holds on the project's tables (lock_timeout); "
                                  "try again when it is released (pg_locks / pg_stat_activity show who holds it), "
                                  "or raise FOLIO_PG_LOCK_TIMEOUT_MS (%2)")
                .arg(lockTimeoutMs() / 1000.0)
                .arg(text);
        if (state == QLatin1String("57014") && text.contains(QLatin1String("statement timeout"), Qt::CaseInsensitive))
            return QStringLiteral("a statement ran longer than %1 s and was cancelled (statement_timeout); the server may be "
                                  "overloaded: try again, or raise FOLIO_PG_STATEMENT_TIMEOUT_MS (%2)")
                .arg(statementTimeoutMs() / 1000.0)
                .arg(text);
        if (state == QLatin1String("55P03") || state == QLatin1String("40P01") || state == QLatin1String("40001"))
            return QStringLiteral("project is locked by another writer, try again (%1)").arg(text);
        if (state == QLatin1String("3D000")
            || (text.contains(QLatin1String("database \"")) && text.contains(QLatin1String("does not exist"))))
            return QStringLiteral("no such database on the server (create it first: createdb NAME) (%1)").arg(text);
        if (state == QLatin1String("28P01") || state == QLatin1String("28000")
            || text.contains(QLatin1String("authentication failed")))
            return QStringLiteral("the server refused the login (%1)").arg(text);
        if (error.type() == QSqlError::ConnectionError)
            return QStringLiteral("cannot connect to the PostgreSQL server (%1)").arg(text);
        if (isConnectionLost(error))
            return QStringLiteral("lost the connection to the PostgreSQL server; the next operation reconnects (%1)")
                .arg(text);
        return text.isEmpty() ? QStringLiteral("unknown database error") : text;
    }

    bool isConnectionLost(const QSqlError &error) const override
    {
        const QString state = error.nativeErrorCode();
        if (state.startsWith(QLatin1String("08")) || state.startsWith(QLatin1String("57P")))
            return true;
        const QString text = error.text();
        return text.contains(QLatin1String("server closed the connection"), Qt::CaseInsensitive)
               || text.contains(QLatin1String("no connection to the server"), Qt::CaseInsensitive)
               || text.contains(QLatin1String("terminating connection"), Qt::CaseInsensitive)
               || text.contains(QLatin1String("connection to server"), Qt::CaseInsensitive);
    }

    bool limitSizeForTesting(QSqlDatabase &, int) const override { return false; }
};

std::unique_ptr<ProjectDialect> createPostgresProjectDialect() { return std::make_unique<PostgresProjectDialect>(); }

} // namespace folio
