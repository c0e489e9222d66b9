#pragma once
// The backend a project test runs against: SQLite files in a temporary folder, or databases on a
// private PostgreSQL server (tests/common/postgresserver.h) when FOLIO_PROJECT_BACKEND=postgres.
// The same test functions run on both; CTest registers the PostgreSQL run with label `postgres`.
//
//   ProjectBackend backend;                      // a member of the test object
//   void initTestCase() { FOLIO_INIT_PROJECT_BACKEND(backend); }
//   const QString where = backend.newLocation("p");   // x/p.folio or postgresql://.../p_3
//   backend.rawExec(where, {"INSERT ..."});      // SQL around the store (old / newer / foreign)
#include "document/project/projectlocation.h"
#include "tests/common/postgresserver.h"
#include "tests/common/testdata.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <memory>

namespace folio::test {

class ProjectBackend
{
public:
    bool init(QString *error)
    {
        if (!projectBackendIsPostgres())
            return m_dir.isValid();
        m_server = std::make_unique<PostgresServer>();
        return m_server->start(error);
    }
    bool missingBinaries() const { return m_server && m_server->missingBinaries(); }
    bool isPostgres() const { return bool(m_server); }
    PostgresServer *server() const { return m_server.get(); }
    QString name() const { return isPostgres() ? QStringLiteral("postgresql") : QStringLiteral("sqlite"); }

    // A location where no project exists yet (an empty database on PostgreSQL).
    QString newLocation(const QString &stem)
    {
        if (!isPostgres())
            return m_dir.filePath(QStringLiteral("%1-%2.folio").arg(stem).arg(++m_counter));
        QString error;
        const QString url = m_server->freshDatabase(stem.toLower(), &error);
        if (url.isEmpty())
            qWarning("%s", qPrintable(error));
        return url;
    }

    // A literal for a BLOB / BYTEA column holding `text` (quotes doubled).
    QString blobLiteral(const QString &text) const
    {
        QString quoted = text;
        quoted.replace(QLatin1Char('\''), QStringLiteral("''"));
        return isPostgres() ? QStringLiteral("convert_to('%1', 'UTF8')").arg(quoted) : QStringLiteral("'%1'").arg(quoted);
    }

    // Runs SQL on a raw connection (to build foreign, old or newer projects).
    bool rawExec(const QString &location, const QStringList &statements)
    {
        if (isPostgres()) {
            ProjectLocation loc;
            QString out, error;
            if (!parseProjectLocation(location, &loc, &error) || !m_server->psql(loc.database, statements, &out, &error)) {
                qWarning("%s", qPrintable(error));
                return false;
            }
            return true;
        }
        bool ok = true;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
            db.setDatabaseName(location);
            ok = db.open();
            for (const QString &s : statements) {
                QSqlQuery q(db);
                if (!q.exec(s)) {
                    qWarning() << s << q.lastError().text();
                    ok = false;
                }
            }
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("raw"));
        return ok;
    }

    // A checksum of every row of every table of a PostgreSQL project (rows compared as text, in
    // text order; sequences left out: a rolled-back insert still advances them). Empty on failure.
    QByteArray postgresChecksum(const QString &location)
    {
        ProjectLocation loc;
        QString out, error;
        if (!parseProjectLocation(location, &loc, &error)
            || !m_server->psql(loc.database,
                               {QStringLiteral("SELECT string_agg(table_name, ' ' ORDER BY table_name) FROM "
                                               "information_schema.tables WHERE table_schema = 'public'")},
                               &out, &error))
            return {};
        QStringList statements;
        for (const QString &table : out.trimmed().split(QLatin1Char(' '), Qt::SkipEmptyParts))
            statements << QStringLiteral("SELECT '%1', md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) "
                                         "FROM \"%1\" t").arg(table);
        if (!m_server->psql(loc.database, statements, &out, &error))
            return {};
        return out.toUtf8();
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<PostgresServer> m_server;
    int m_counter = 0;
};

} // namespace folio::test

// In initTestCase: starts the backend; PostgreSQL binaries missing: the test is skipped (a
// failure with CI=true, like missing data); any other failure fails.
#define FOLIO_INIT_PROJECT_BACKEND(backend)                                                            \
    do {                                                                                               \
        QString folioBackendError_;                                                                    \
        if (!(backend).init(&folioBackendError_)) {                                                    \
            if ((backend).missingBinaries())                                                           \
                FOLIO_DATA_MISSING(folioBackendError_);                                                \
            QFAIL(qPrintable(folioBackendError_));                                                     \
        }                                                                                              \
    } while (false)
