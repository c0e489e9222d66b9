// A project whose tables another connection keeps locked (issue 36): listing it never waits
// forever. On PostgreSQL another session holds `LOCK TABLE documents IN ACCESS EXCLUSIVE MODE`;
// the listing gives up after the lock_timeout (FOLIO_PG_LOCK_TIMEOUT_MS, 1.5 s here) with a
// message naming the project and what to do, and works again once the lock is released. On
// SQLite (WAL) another connection's exclusive write transaction does not block the listing at all.
// Runs on SQLite and, as tst_projectlocks_postgres, on a private PostgreSQL server.
#include "document/project/project.h"
#include "document/project/projectlocation.h"
#include "projectbackend.h"
#include "projecttestdata.h"

#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace folio;

class TestProjectLocks : public QObject
{
    Q_OBJECT

    test::ProjectBackend backend;

    // A second connection to the project's store, outside Folio.
    QSqlDatabase rawConnection(const QString &location)
    {
        if (!backend.isPostgres()) {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("holder"));
            db.setDatabaseName(location);
            return db;
        }
        ProjectLocation loc;
        QString error;
        if (!parseProjectLocation(location, &loc, &error))
            qWarning("%s", qPrintable(error));
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("holder"));
        db.setHostName(backend.server()->socketDir());
        db.setUserName(QStringLiteral("folio"));
        db.setDatabaseName(loc.database);
        return db;
    }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("FOLIO_PG_LOCK_TIMEOUT_MS", "1500");
        FOLIO_INIT_PROJECT_BACKEND(backend);
    }

    void listingATableAnotherConnectionLocks()
    {
        const QString path = backend.newLocation(QStringLiteral("locked"));
        QString error;
        {
            auto p = Project::create(path, &error);
            QVERIFY2(p, qPrintable(error));
            QVERIFY2(p->addDocument(test::makeDocument(QStringLiteral("a.png"), 12), {}, &error) > 0, qPrintable(error));
        }
        {
            QSqlDatabase holder = rawConnection(path);
            QVERIFY2(holder.open(), qPrintable(holder.lastError().text()));
            QSqlQuery q(holder);
            if (backend.isPostgres()) {
                QVERIFY(holder.transaction());
                QVERIFY2(q.exec(QStringLiteral("LOCK TABLE documents IN ACCESS EXCLUSIVE MODE")), qPrintable(q.lastError().text()));
            } else {
                QVERIFY2(q.exec(QStringLiteral("BEGIN EXCLUSIVE")), qPrintable(q.lastError().text()));
            }

            QElapsedTimer t;
            t.start();
            error.clear();
            auto p = Project::open(path, &error);
            std::vector<ProjectDocument> docs;
            if (p)
                docs = p->documents(DocumentOrder::Position, &error);
            const qint64 ms = t.elapsed();
            QVERIFY2(ms < 20000, qPrintable(QStringLiteral("waited %1 ms").arg(ms)));
            if (backend.isPostgres()) {
                QVERIFY2(docs.empty(), "listed a table another connection holds locked");
                QVERIFY2(!error.isEmpty(), "no message");
                QVERIFY2(error.contains(path), qPrintable(error));
                QVERIFY2(error.contains(QLatin1String("lock_timeout")) && error.contains(QLatin1String("try again")), qPrintable(error));
                qInfo("after %lld ms: %s", ms, qPrintable(error));
                QVERIFY2(ms >= 1000, qPrintable(QStringLiteral("gave up after %1 ms, before the 1.5 s lock_timeout").arg(ms)));
                holder.rollback();
            } else {
                QVERIFY2(error.isEmpty(), qPrintable(error));
                QCOMPARE(docs.size(), size_t(1));
                QSqlQuery(holder).exec(QStringLiteral("ROLLBACK"));
            }
            holder.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("holder"));
        // Released: the listing works again, with a fresh project object and with the one that failed.
        error.clear();
        auto p = Project::open(path, &error);
        QVERIFY2(p, qPrintable(error));
        QCOMPARE(p->documents(DocumentOrder::Position, &error).size(), size_t(1));
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestProjectLocks)
#include "tst_projectlocks.moc"
