// Kill -9 during an edit burst: every save that returned before the kill survives reopening.
// On SQLite and (FOLIO_PROJECT_BACKEND=postgres, tst_projectcrash_postgres) on a PostgreSQL server.
#include "document/project/project.h"
#include "projectbackend.h"
#include "projecttestdata.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

class TestProjectCrash : public QObject
{
    Q_OBJECT

    test::ProjectBackend backend;

private Q_SLOTS:
    void initTestCase() { FOLIO_INIT_PROJECT_BACKEND(backend); }

    void killDuringEditBurst_data()
    {
        QTest::addColumn<int>("killAfter");
        QTest::newRow("early") << 3;
        QTest::newRow("middle") << 40;
        QTest::newRow("late") << 150;
    }
    void killDuringEditBurst()
    {
        QFETCH(int, killAfter);
        const QString path = backend.newLocation(QStringLiteral("crash"));
        QString error;
        {
            auto p = Project::create(path, &error);
            QVERIFY2(p, qPrintable(error));
            QCOMPARE(p->addDocument(test::makeDocument(QStringLiteral("a"), 500), {}, &error), qint64(1));
        }
        QProcess helper;
        helper.start(QStringLiteral(FOLIO_CRASH_HELPER), {path, QStringLiteral("100000")});
        QVERIFY(helper.waitForStarted());
        int confirmed = 0;
        QByteArray pending;
        while (confirmed < killAfter) {
            QVERIFY2(helper.state() == QProcess::Running || helper.bytesAvailable() > 0,
                     helper.readAllStandardError().constData());
            helper.waitForReadyRead(2000);
            pending += helper.readAllStandardOutput();
            int nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
                const QByteArray line = pending.left(nl);
                pending.remove(0, nl + 1);
                if (line.startsWith("saved "))
                    confirmed = line.mid(6).toInt();
            }
        }
        helper.kill(); // SIGKILL on Unix: no destructors, no flush, mid-transaction
        QVERIFY(helper.waitForFinished());
        QCOMPARE(helper.exitStatus(), QProcess::CrashExit);
        // Lines the helper printed before it died are confirmations too.
        pending += helper.readAllStandardOutput();
        for (const QByteArray &line : pending.split('\n'))
            if (line.startsWith("saved "))
                confirmed = line.mid(6).toInt();

        auto p = Project::open(path, &error);
        QVERIFY2(p, qPrintable(error));
        Annotations a;
        QVERIFY2(p->loadAnnotations(1, &a, &error), qPrintable(error));
        const int stored = int(a.entities.size());
        QVERIFY2(stored >= confirmed, qPrintable(QStringLiteral("stored %1 < confirmed %2").arg(stored).arg(confirmed)));
        QVERIFY(stored <= confirmed + 1); // at most the save in flight
        ProjectDocument info;
        QVERIFY(p->documentInfo(1, &info, &error));
        QCOMPARE(info.annotationRevision, stored + 1); // revision 1 came with addDocument
        // The project is still writable after recovery.
        Document doc;
        QVERIFY(p->loadDocument(1, &doc, nullptr, &error));
        QVERIFY2(p->saveAnnotations(1, test::makeAnnotations(doc, 1), &error), qPrintable(error));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestProjectCrash)
#include "tst_projectcrash.moc"
