// Two writers on one project at the same time (issue 17, reliability): two processes save
// annotation bursts to two documents of one project concurrently, while this process adds
// documents. Every writer either finishes or stops with a clear message (never a crash); every
// save a writer confirmed is stored; the store passes its integrity check afterwards
// (SQLite: PRAGMA integrity_check; PostgreSQL: the tables' rows are all readable). Runs on SQLite
// and, as tst_projectconcurrency_postgres, on a private PostgreSQL server.
#include "document/project/project.h"
#include "projectbackend.h"
#include "projecttestdata.h"

#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>

#include <memory>

using namespace folio;

namespace {

// The last "saved <n>" line of a writer's output, 0 when none.
int lastConfirmed(const QByteArray &out)
{
    int n = 0;
    for (const QByteArray &line : out.split('\n'))
        if (line.startsWith("saved "))
            n = line.mid(6).toInt();
    return n;
}

// Waits for a writer (true when it has ended, also when it ended before the call).
bool finished(QProcess &w)
{
    return w.state() == QProcess::NotRunning || w.waitForFinished(240000);
}

} // namespace

class TestProjectConcurrency : public QObject
{
    Q_OBJECT

    test::ProjectBackend backend;

private Q_SLOTS:
    void initTestCase() { FOLIO_INIT_PROJECT_BACKEND(backend); }

    void twoWritersAndAnAdder()
    {
        const QString path = backend.newLocation(QStringLiteral("concurrent"));
        QString error;
        {
            auto p = Project::create(path, &error);
            QVERIFY2(p, qPrintable(error));
            QCOMPARE(p->addDocument(test::makeDocument(QStringLiteral("a"), 400), {}, &error), qint64(1));
            QCOMPARE(p->addDocument(test::makeDocument(QStringLiteral("b"), 400), {}, &error), qint64(2));
        }
        const int saves = 120;
        QProcess first, second;
        first.start(QStringLiteral(FOLIO_CRASH_HELPER), {path, QString::number(saves), QStringLiteral("1")});
        second.start(QStringLiteral(FOLIO_CRASH_HELPER), {path, QString::number(saves), QStringLiteral("2")});
        QVERIFY(first.waitForStarted() && second.waitForStarted());

        // A third writer in this process adds documents meanwhile.
        int added = 0;
        QStringList addErrors;
        {
            auto p = Project::open(path, &error);
            QVERIFY2(p, qPrintable(error));
            for (int i = 0; i < 30; ++i) {
                if (p->addDocument(test::makeDocument(QStringLiteral("extra-%1").arg(i), 50), {}, &error) > 0)
                    ++added;
                else
                    addErrors << error;
                QTest::qWait(5);
            }
        }
        QVERIFY(finished(first) && finished(second));
        for (QProcess *w : {&first, &second}) {
            QCOMPARE(w->exitStatus(), QProcess::NormalExit); // never a crash
            const QByteArray err = w->readAllStandardError();
            // finished, or stopped with a message that says why
            QVERIFY2(w->exitCode() == 0 || (w->exitCode() == 1 && !err.trimmed().isEmpty()), err.constData());
        }
        for (const QString &e : addErrors)
            QVERIFY2(!e.trimmed().isEmpty(), "an add failed without a message");
        qInfo("%s: writer 1 confirmed %d, writer 2 %d, adds %d/30 (exits %d, %d)", qPrintable(backend.name()),
              lastConfirmed(first.readAllStandardOutput()), lastConfirmed(second.readAllStandardOutput()), added,
              first.exitCode(), second.exitCode());
    }

    // Both writers confirmed saves are all there, and the store is intact.
    void confirmedSavesSurviveAndTheStoreIsIntact()
    {
        const QString path = backend.newLocation(QStringLiteral("intact"));
        QString error;
        {
            auto p = Project::create(path, &error);
            QVERIFY2(p, qPrintable(error));
            QCOMPARE(p->addDocument(test::makeDocument(QStringLiteral("a"), 400), {}, &error), qint64(1));
            QCOMPARE(p->addDocument(test::makeDocument(QStringLiteral("b"), 400), {}, &error), qint64(2));
        }
        const int saves = 100;
        QProcess first, second;
        first.start(QStringLiteral(FOLIO_CRASH_HELPER), {path, QString::number(saves), QStringLiteral("1")});
        second.start(QStringLiteral(FOLIO_CRASH_HELPER), {path, QString::number(saves), QStringLiteral("2")});
        QVERIFY(finished(first) && finished(second));
        const int confirmed1 = lastConfirmed(first.readAllStandardOutput());
        const int confirmed2 = lastConfirmed(second.readAllStandardOutput());
        QVERIFY(first.exitStatus() == QProcess::NormalExit && second.exitStatus() == QProcess::NormalExit);
        // With the store's busy wait neither writer should have had to give up on this small burst.
        QVERIFY2(first.exitCode() == 0, first.readAllStandardError().constData());
        QVERIFY2(second.exitCode() == 0, second.readAllStandardError().constData());
        QCOMPARE(confirmed1, saves);
        QCOMPARE(confirmed2, saves);

        auto p = Project::open(path, &error);
        QVERIFY2(p, qPrintable(error));
        for (const auto &[id, confirmed] : {std::pair<qint64, int>{1, confirmed1}, {2, confirmed2}}) {
            Annotations a;
            QVERIFY2(p->loadAnnotations(id, &a, &error), qPrintable(error));
            QCOMPARE(int(a.entities.size()), confirmed);
            ProjectDocument info;
            QVERIFY(p->documentInfo(id, &info, &error));
            QCOMPARE(info.annotationRevision, confirmed + 1); // revision 1 came with addDocument
        }
        p.reset();
        if (!backend.isPostgres()) {
            const QString name = QStringLiteral("integrity-check");
            {
                QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
                db.setDatabaseName(path);
                QVERIFY(db.open());
                QSqlQuery q(db);
                QVERIFY(q.exec(QStringLiteral("PRAGMA integrity_check")));
                QVERIFY(q.next());
                QCOMPARE(q.value(0).toString(), QStringLiteral("ok"));
            }
            QSqlDatabase::removeDatabase(name);
        }
    }
};

FOLIO_TEST_GUILESS_MAIN(TestProjectConcurrency)
#include "tst_projectconcurrency.moc"
