// folio-cli writing to a project on a real PostgreSQL server (issue 17, reliability), killed with
// SIGKILL in the middle: an import is all or nothing (its one transaction either committed or
// left no row), and a batch OCR run into the project loses no document it had confirmed; resuming
// it with its manifest adds each remaining scan once. Then the server is restarted under a
// running batch's feet: the next command reconnects. Label `postgres`.
#include "clirunner.h"
#include "tests/common/postgresserver.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

static const QString kForm = QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png");

class TestCliPostgres : public QObject
{
    Q_OBJECT

    folio::test::PostgresServer m_pg;
    QTemporaryDir m_dir;
    qint64 m_importMs = 0; // a whole import of FUNSD test, timed once

    static folio::test::CliRun cli(const QStringList &args) { return folio::test::runCli(QStringList{QStringLiteral("-q")} + args); }

    // Source paths of the project's documents ("project list").
    static QStringList documents(const QString &project)
    {
        const folio::test::CliRun r = cli({QStringLiteral("project"), QStringLiteral("list"), project});
        QStringList out;
        for (const QJsonValue &v : QJsonDocument::fromJson(r.out).array())
            out << v.toObject().value(QStringLiteral("source")).toString();
        return out;
    }

    static QStringList funsdFiles()
    {
        const QDir dir(folio::test::sharedPath(QStringLiteral("data/funsd/dataset/testing_data/annotations")));
        QStringList files;
        for (const QString &f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            files << dir.filePath(f);
        return files;
    }

    // Starts a folio-cli that the test will kill.
    static void start(QProcess &p, const QStringList &args)
    {
        p.setProcessEnvironment(folio::test::cliEnvironment());
        p.start(QStringLiteral(FOLIO_CLI_PATH), QStringList{QStringLiteral("-q")} + args);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        if (!m_pg.start(&error)) {
            if (m_pg.missingBinaries())
                FOLIO_DATA_MISSING(error);
            QFAIL(qPrintable(error));
        }
    }

    void importKilledIsAllOrNothing_data()
    {
        QTest::addColumn<double>("killAt"); // fraction of a whole import's time
        QTest::newRow("early") << 0.1;
        QTest::newRow("middle") << 0.5;
        QTest::newRow("late") << 0.9;
        QTest::newRow("at the commit") << 0.98;
    }
    void importKilledIsAllOrNothing()
    {
        QFETCH(double, killAt);
        FOLIO_REQUIRE_DATA(folio::test::sharedPath(QStringLiteral("data/funsd/dataset/testing_data")));
        QString error;
        if (m_importMs == 0) {
            const QString timing = m_pg.freshDatabase(QStringLiteral("timing"), &error);
            QVERIFY2(!timing.isEmpty(), qPrintable(error));
            QCOMPARE(cli({QStringLiteral("project"), QStringLiteral("create"), timing}).code, 0);
            QElapsedTimer t;
            t.start();
            QCOMPARE(cli(QStringList{QStringLiteral("import"), QStringLiteral("--format"), QStringLiteral("funsd"),
                                     QStringLiteral("--project"), timing} + funsdFiles()).code, 0);
            m_importMs = t.elapsed();
        }
        const int killAfterMs = int(killAt * double(m_importMs));
        const QString project = m_pg.freshDatabase(QStringLiteral("imp"), &error);
        QVERIFY2(!project.isEmpty(), qPrintable(error));
        QCOMPARE(cli({QStringLiteral("project"), QStringLiteral("create"), project}).code, 0);
        const QStringList files = funsdFiles();
        QCOMPARE(files.size(), 50);
        QProcess import;
        start(import, QStringList{QStringLiteral("import"), QStringLiteral("--format"), QStringLiteral("funsd"),
                                  QStringLiteral("--project"), project} + files);
        QVERIFY(import.waitForStarted());
        QThread::msleep(killAfterMs);
        import.kill();
        import.waitForFinished();
        const qsizetype stored = documents(project).size();
        qInfo("killed after %d of ~%lld ms (%s): %lld documents stored", killAfterMs, (long long)m_importMs,
              import.exitStatus() == QProcess::CrashExit ? "killed" : "had finished", (long long)stored);
        QVERIFY2(stored == 0 || stored == 50, qPrintable(QStringLiteral("%1 documents: a partial import").arg(stored)));
        // The project takes the whole import afterwards, and a second import updates instead of adding.
        for (int round = 0; round < 2; ++round) {
            const folio::test::CliRun r = cli(QStringList{QStringLiteral("import"), QStringLiteral("--format"), QStringLiteral("funsd"),
                                                          QStringLiteral("--project"), project} + files);
            QVERIFY2(r.code == 0, r.err.constData());
            QCOMPARE(documents(project).size(), qsizetype(50));
        }
    }

    // ocr --project with a manifest, killed after its first confirmed line, then resumed.
    void batchKilledLosesNoConfirmedDocument()
    {
        QString error;
        const QString project = m_pg.freshDatabase(QStringLiteral("batch"), &error);
        QVERIFY2(!project.isEmpty(), qPrintable(error));
        QCOMPARE(cli({QStringLiteral("project"), QStringLiteral("create"), project}).code, 0);
        const QString scans = m_dir.filePath(QStringLiteral("scans"));
        QVERIFY(QDir().mkpath(scans));
        QStringList inputs;
        for (int i = 0; i < 4; ++i) {
            const QString copy = QDir(scans).filePath(QStringLiteral("form-%1.png").arg(i));
            QVERIFY(QFile::copy(kForm, copy));
            inputs << copy;
        }
        const QString out = m_dir.filePath(QStringLiteral("ocr.jsonl")), manifest = m_dir.filePath(QStringLiteral("ocr.manifest"));
        const QStringList args{QStringLiteral("ocr"), scans, QStringLiteral("--project"), project, QStringLiteral("--out"), out,
                               QStringLiteral("--manifest"), manifest};
        QProcess batch;
        start(batch, args);
        QVERIFY(batch.waitForStarted());
        QElapsedTimer clock;
        clock.start();
        auto confirmedLines = [&] {
            QFile f(out);
            return f.open(QIODevice::ReadOnly) ? int(f.readAll().count('\n')) : 0;
        };
        while (confirmedLines() < 1 && batch.state() == QProcess::Running && clock.elapsed() < 240000)
            QThread::msleep(20);
        batch.kill();
        batch.waitForFinished();
        QVERIFY2(batch.exitStatus() == QProcess::CrashExit, "the batch ended before the kill (too fast to test)");
        const int confirmed = confirmedLines();
        QVERIFY(confirmed >= 1);
        const QStringList afterKill = documents(project);
        // every line written had its document committed first; at most the input in flight more
        QVERIFY2(afterKill.size() >= confirmed && afterKill.size() <= confirmed + 1,
                 qPrintable(QStringLiteral("%1 documents for %2 confirmed lines").arg(afterKill.size()).arg(confirmed)));

        const folio::test::CliRun resumed = cli(args);
        QVERIFY2(resumed.code == 0, resumed.err.constData());
        const QStringList all = documents(project);
        QCOMPARE(all.size(), inputs.size()); // each scan once, none skipped
        QCOMPARE(QSet<QString>(all.begin(), all.end()).size(), inputs.size());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(int(f.readAll().count('\n')), inputs.size());
    }

    // The server restarts between two commands and while one waits: the next command reconnects.
    void serverRestartIsSurvived()
    {
        QString error;
        const QString project = m_pg.freshDatabase(QStringLiteral("restart"), &error);
        QVERIFY2(!project.isEmpty(), qPrintable(error));
        QCOMPARE(cli({QStringLiteral("project"), QStringLiteral("create"), project}).code, 0);
        QVERIFY2(m_pg.restart(&error), qPrintable(error));
        QCOMPARE(cli({QStringLiteral("project"), QStringLiteral("status"), project}).code, 0);
        QVERIFY2(m_pg.stopServer(&error), qPrintable(error));
        const folio::test::CliRun down = cli({QStringLiteral("project"), QStringLiteral("list"), project});
        QCOMPARE(down.code, 1); // a clear failure, not a crash or a hang
        QVERIFY2(!down.err.trimmed().isEmpty(), "no message when the server is down");
        qInfo("server down: %s", down.err.trimmed().constData());
        QVERIFY2(m_pg.startServer(&error), qPrintable(error));
        QCOMPARE(cli({QStringLiteral("project"), QStringLiteral("list"), project}).code, 0);
    }

    // README: "An empty database becomes a project on first use" (issue 36: `project add` was
    // refused until `project create`). Reading does not create; a failed import --create leaves
    // the database empty.
    void emptyDatabaseBecomesAProjectOnFirstUse()
    {
        QString error;
        const QString project = m_pg.freshDatabase(QStringLiteral("firstuse"), &error);
        QVERIFY2(!project.isEmpty(), qPrintable(error));
        const folio::test::CliRun list = cli({QStringLiteral("project"), QStringLiteral("list"), project});
        QCOMPARE(list.code, 1);
        QVERIFY2(list.err.contains("the database is empty"), list.err.constData());
        const QString broken = m_dir.filePath(QStringLiteral("broken.qs.jsonl"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"id\":\"fresh-record\",\"summary\":\"R\",\"hierarchy\":[{\"question\":\"Q?\",\"summary\":\"S\",\"evidence\":[],"
                "\"children\":[],\"spans\":[{\"first\":\"w1\",\"last\":\"w1\",\"text\":\"x\"}]}]}\n");
        f.close();
        const folio::test::CliRun failed = cli({QStringLiteral("import"), QStringLiteral("--format"), QStringLiteral("qs"), broken,
                                                QStringLiteral("--project"), project, QStringLiteral("--create")});
        QCOMPARE(failed.code, 1);
        QVERIFY2(failed.err.contains("broken.qs.jsonl"), failed.err.constData());
        QVERIFY2(cli({QStringLiteral("project"), QStringLiteral("list"), project}).err.contains("the database is empty"),
                 "a failed import --create left a project behind");
        const QString page = m_dir.filePath(QStringLiteral("first.html"));
        QFile html(page);
        QVERIFY(html.open(QIODevice::WriteOnly));
        html.write("<html><body><p>First use</p></body></html>");
        html.close();
        const folio::test::CliRun add = cli({QStringLiteral("project"), QStringLiteral("add"), project, page});
        QVERIFY2(add.code == 0, add.err.constData());
        QCOMPARE(documents(project).size(), 1);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliPostgres)
#include "tst_clipostgres.moc"
