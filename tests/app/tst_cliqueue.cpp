// Batch across machines (issue 35): folio-cli ocr workers, several processes of the real CLI,
// share one batch through a project's queue on a real PostgreSQL server (label `postgres`):
//  - three workers finish a batch with every input exactly once (one attempt each); queue status;
//  - a worker stopped (SIGSTOP) while it holds a claim: the claim expires and another worker
//    takes the input; killed afterwards (SIGKILL) or resumed (SIGCONT: its late result is
//    dropped), the input is recorded once;
//  - inputs that vanish or change after they were queued fail with that message;
//  - same queue name: other inputs add only the new ones, another command is refused;
//  - a worker whose database connection drops for good exits with a clear error, its claim
//    returns to the others;
//  - a worker whose model (here: its OCR language) fails to load claims nothing.
// The same queue on a SQLite project (one machine) with two workers. Issue 51: inputs that fail
// while being queued get their line and a failing exit; two workers started together on an
// empty database make one project; a worker joining an empty database says how to start and
// changes nothing; `--queue ''` is refused instead of running locally.
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
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>
#include <map>
#include <memory>

class TestCliQueue : public QObject
{
    Q_OBJECT

    folio::test::PostgresServer m_pg;
    QTemporaryDir m_dir;
    int m_folders = 0;

    static folio::test::CliRun cli(const QStringList &args) { return folio::test::runCli(QStringList{QStringLiteral("-q")} + args); }

    static QString database(const QString &url) { return url.section(QLatin1Char('/'), 3).section(QLatin1Char('?'), 0, 0); }

    // `copies` copies of three small Tesseract test pages in a fresh folder; their paths.
    QStringList scans(int copies)
    {
        const QString dir = m_dir.filePath(QStringLiteral("scans%1").arg(++m_folders));
        QDir().mkpath(dir);
        QStringList out;
        for (int c = 0; c < copies; ++c)
            for (const char *name : {"phototest.tif", "trainingital.tif", "trainingtimes.tif"}) {
                const QString to = QStringLiteral("%1/%2_%3").arg(dir).arg(c).arg(QLatin1String(name));
                QFile::copy(folio::test::sharedPath(QStringLiteral("data/tesseract-testing/testing/") + QLatin1String(name)), to);
                QFile(to).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
                out << to;
            }
        return out;
    }

    // `count` small product pages in a fresh folder (extract --structured-only reads them quickly).
    QStringList pages(int count)
    {
        const QString dir = m_dir.filePath(QStringLiteral("pages%1").arg(++m_folders));
        QDir().mkpath(dir);
        QStringList out;
        for (int i = 0; i < count; ++i) {
            out << QStringLiteral("%1/p%2.html").arg(dir).arg(i);
            QFile f(out.last());
            if (!f.open(QIODevice::WriteOnly))
                qWarning("cannot write %s", qPrintable(out.last()));
            f.write("<html><body><h1>Lamp " + QByteArray::number(i) + "</h1></body></html>");
        }
        return out;
    }

    QString project(const QString &prefix)
    {
        QString error;
        const QString url = m_pg.freshDatabase(prefix, &error);
        if (url.isEmpty())
            qWarning("%s", qPrintable(error));
        else if (cli({QStringLiteral("project"), QStringLiteral("create"), url}).code != 0)
            return {};
        return url;
    }

    QString sql(const QString &url, const QString &statement)
    {
        QString out, error;
        if (!m_pg.psql(database(url), {statement}, &out, &error))
            qWarning("%s", qPrintable(error));
        return out.trimmed();
    }

    static QStringList workerArgs(const QString &url, const QString &queue, const QString &name, const QString &out,
                                  int lease = 2)
    {
        return {QStringLiteral("ocr"), QStringLiteral("--project"), url, QStringLiteral("--queue"), queue,
                QStringLiteral("--worker-name"), name, QStringLiteral("--lease"), QString::number(lease),
                QStringLiteral("--out"), out};
    }

    static void start(QProcess &p, const QStringList &args)
    {
        p.setProcessEnvironment(folio::test::cliEnvironment());
        p.start(QStringLiteral(FOLIO_CLI_PATH), args);
    }

    static QJsonObject queueStatus(const QString &url, const QString &queue, bool items = false)
    {
        QStringList args{QStringLiteral("project"), QStringLiteral("queue"), QStringLiteral("status"),
                         QStringLiteral("--project"), url, QStringLiteral("--queue"), queue};
        if (items)
            args << QStringLiteral("--items");
        const folio::test::CliRun r = cli(args);
        return QJsonDocument::fromJson(r.out).object().value(QStringLiteral("queues")).toArray().at(0).toObject();
    }

    // input -> ok, over the JSON lines of the given out files; a second line of one input fails.
    static std::map<QString, bool> lines(const QStringList &outFiles)
    {
        std::map<QString, bool> seen;
        for (const QString &path : outFiles) {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly))
                continue;
            for (const QByteArray &line : f.readAll().split('\n')) {
                if (line.trimmed().isEmpty())
                    continue;
                const QJsonObject o = QJsonDocument::fromJson(line).object();
                const QString input = o.value(QStringLiteral("input")).toString();
                if (seen.count(input))
                    qWarning("%s: a second line", qPrintable(input));
                seen[input] = seen.count(input) ? false : o.value(QStringLiteral("ok")).toBool();
            }
        }
        return seen;
    }

    // Enqueues `inputs` (creating the project in an empty database) without running them.
    static void enqueue(const QString &url, const QString &queue, const QStringList &inputs)
    {
        const folio::test::CliRun r = cli(QStringList{QStringLiteral("ocr"), QStringLiteral("--project"), url, QStringLiteral("--queue"),
                                                      queue, QStringLiteral("--enqueue-only")} + inputs);
        QVERIFY2(r.code == 0, r.err.constData());
    }

    // Waits until worker `name` holds a claim; returns its input (empty on timeout).
    QString waitForClaim(const QString &url, const QString &name, int timeoutMs = 120000)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            const QString input =
                sql(url, QStringLiteral("SELECT input FROM queue_items WHERE claimed_by = '%1' AND state = 'claimed'").arg(name));
            if (!input.isEmpty())
                return input;
            QThread::msleep(30);
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        if (!QFile::exists(folio::test::sharedPath(QStringLiteral("data/tesseract-testing/testing/phototest.tif"))))
            FOLIO_DATA_MISSING(QStringLiteral("../shared/data/tesseract-testing is missing"));
        QString error;
        if (!m_pg.start(&error)) {
            if (m_pg.missingBinaries())
                FOLIO_DATA_MISSING(error);
            QFAIL(qPrintable(error));
        }
    }

    void severalWorkersEachInputOnce()
    {
        const QString url = project(QStringLiteral("qmany"));
        QVERIFY(!url.isEmpty());
        const QStringList inputs = scans(3); // 9 inputs
        enqueue(url, QStringLiteral("scans"), inputs);
        QProcess workers[3];
        QStringList outs;
        for (int i = 0; i < 3; ++i) {
            outs << m_dir.filePath(QStringLiteral("many%1.jsonl").arg(i));
            start(workers[i], QStringList{QStringLiteral("-q")}
                                  + workerArgs(url, QStringLiteral("scans"), QStringLiteral("w%1").arg(i), outs.last(), 30));
        }
        for (QProcess &w : workers) {
            QVERIFY(w.waitForFinished(600000));
            QVERIFY2(w.exitCode() == 0, w.readAllStandardError().constData());
        }
        const std::map<QString, bool> seen = lines(outs);
        QCOMPARE(int(seen.size()), inputs.size());
        for (const QString &in : inputs) {
            QVERIFY2(seen.count(in) && seen.at(in), qPrintable(in));
        }
        QCOMPARE(sql(url, QStringLiteral("SELECT count(*) FROM queue_items WHERE state = 'done' AND attempts = 1")),
                 QStringLiteral("9"));

        const QJsonObject st = queueStatus(url, QStringLiteral("scans"));
        QCOMPARE(st.value(QStringLiteral("command")).toString(), QStringLiteral("ocr"));
        QCOMPARE(st.value(QStringLiteral("total")).toInt(), 9);
        QCOMPARE(st.value(QStringLiteral("done")).toInt(), 9);
        QCOMPARE(st.value(QStringLiteral("pending")).toInt(), 0);
        QCOMPARE(st.value(QStringLiteral("failed")).toInt(), 0);
        QVERIFY(st.value(QStringLiteral("finished")).toBool());
        int perWorker = 0;
        for (const QJsonValue &w : st.value(QStringLiteral("workers")).toArray())
            perWorker += w.toObject().value(QStringLiteral("done")).toInt();
        QCOMPARE(perWorker, 9);
        const QJsonArray items = queueStatus(url, QStringLiteral("scans"), true).value(QStringLiteral("items")).toArray();
        QCOMPARE(items.size(), 9);
        QCOMPARE(items.at(0).toObject().value(QStringLiteral("state")).toString(), QStringLiteral("done"));

        // A worker arriving after the end finds nothing to do; an unknown queue is an error.
        const folio::test::CliRun late =
            cli(workerArgs(url, QStringLiteral("scans"), QStringLiteral("late"), m_dir.filePath(QStringLiteral("late.jsonl"))));
        QCOMPARE(late.code, 0);
        const folio::test::CliRun unknown = cli({QStringLiteral("project"), QStringLiteral("queue"), QStringLiteral("status"),
                                                 QStringLiteral("--project"), url, QStringLiteral("--queue"), QStringLiteral("nope")});
        QCOMPARE(unknown.code, 1);
        QVERIFY2(unknown.err.contains("no queue named 'nope'"), unknown.err.constData());
        const folio::test::CliRun join = cli(workerArgs(url, QStringLiteral("nope"), QStringLiteral("x"), m_dir.filePath(QStringLiteral("x.jsonl"))));
        QCOMPARE(join.code, 2);
        QVERIFY2(join.err.contains("give the first worker the inputs"), join.err.constData());
    }

    void stoppedWorkersClaimReturns_data()
    {
        QTest::addColumn<bool>("resume");
        QTest::newRow("killed") << false;
        QTest::newRow("resumed after the lease") << true;
    }
    void stoppedWorkersClaimReturns()
    {
        QFETCH(bool, resume);
        const QString url = project(QStringLiteral("qkill"));
        QVERIFY(!url.isEmpty());
        const QStringList inputs = scans(2); // 6 inputs
        enqueue(url, QStringLiteral("k"), inputs);
        const QString outA = m_dir.filePath(QStringLiteral("a%1.jsonl").arg(m_folders)),
                      outB = m_dir.filePath(QStringLiteral("b%1.jsonl").arg(m_folders));
        QProcess a;
        start(a, workerArgs(url, QStringLiteral("k"), QStringLiteral("A"), outA));
        QString held;
        for (int tries = 0; tries < 20 && held.isEmpty(); ++tries) {
            const QString claim = waitForClaim(url, QStringLiteral("A"));
            QVERIFY2(!claim.isEmpty(), "worker A never claimed an input");
            ::kill(pid_t(a.processId()), SIGSTOP);
            // Still A's after the stop (it may have finished that one in between): hold it.
            held = sql(url, QStringLiteral("SELECT input FROM queue_items WHERE claimed_by = 'A' AND state = 'claimed'"));
            if (held.isEmpty())
                ::kill(pid_t(a.processId()), SIGCONT);
        }
        QVERIFY(!held.isEmpty());
        const folio::test::CliRun b = cli(workerArgs(url, QStringLiteral("k"), QStringLiteral("B"), outB));
        QVERIFY2(b.code == 0, b.err.constData());
        if (resume) {
            ::kill(pid_t(a.processId()), SIGCONT);
        } else {
            ::kill(pid_t(a.processId()), SIGKILL);
        }
        QVERIFY(a.waitForFinished(120000));
        const QByteArray errA = a.readAllStandardError();
        if (resume) {
            QCOMPARE(a.exitCode(), 0);
            QVERIFY2(errA.contains("lease ran out and another worker took the input"), errA.constData());
        }
        QCOMPARE(sql(url, QStringLiteral("SELECT finished_by || ' ' || attempts FROM queue_items WHERE input = '%1'").arg(held)),
                 QStringLiteral("B 2"));
        QCOMPARE(sql(url, QStringLiteral("SELECT count(*) FROM queue_items WHERE state = 'done'")), QStringLiteral("6"));
        const std::map<QString, bool> seen = lines({outA, outB});
        QCOMPARE(int(seen.size()), 6);
        QVERIFY(seen.count(held) && seen.at(held));
        QVERIFY(!lines({outA}).count(held));
        // The status names both workers; nothing is left claimed.
        const QJsonObject st = queueStatus(url, QStringLiteral("k"));
        QCOMPARE(st.value(QStringLiteral("claimed")).toInt(), 0);
        QCOMPARE(st.value(QStringLiteral("done")).toInt(), 6);
    }

    void inputsThatVanishOrChange()
    {
        const QString url = project(QStringLiteral("qchange"));
        QVERIFY(!url.isEmpty());
        const QStringList inputs = scans(1);
        const QString missing = m_dir.filePath(QStringLiteral("never-there.tif"));
        enqueue(url, QStringLiteral("c"), inputs);
        QVERIFY(QFile::remove(inputs[1]));
        {
            QFile f(inputs[2]);
            QVERIFY(f.open(QIODevice::Append));
            f.write("x");
        }
        const QString out = m_dir.filePath(QStringLiteral("change.jsonl"));
        // The worker brings one more input, missing: it fails while being queued (issue 51: it had
        // no line and did not count for the exit code).
        const folio::test::CliRun r = cli(workerArgs(url, QStringLiteral("c"), QStringLiteral("w"), out) + QStringList{missing});
        QCOMPARE(r.code, 1); // some inputs failed
        const QJsonObject st = queueStatus(url, QStringLiteral("c"));
        QCOMPARE(st.value(QStringLiteral("done")).toInt(), 1);
        QCOMPARE(st.value(QStringLiteral("failed")).toInt(), 3);
        std::map<QString, QString> errors;
        for (const QJsonValue &v : st.value(QStringLiteral("failed_inputs")).toArray())
            errors[v.toObject().value(QStringLiteral("input")).toString()] = v.toObject().value(QStringLiteral("error")).toString();
        QVERIFY2(errors[inputs[1]].contains(QStringLiteral("vanished since it was queued")), qPrintable(errors[inputs[1]]));
        QVERIFY2(errors[inputs[2]].contains(QStringLiteral("changed since it was queued (1488 -> 1489 bytes")),
                 qPrintable(errors[inputs[2]]));
        QVERIFY2(errors[missing].contains(QStringLiteral("no such file when it was queued")), qPrintable(errors[missing]));
        // Every input has its line, the missing one from the worker that queued it.
        const std::map<QString, bool> seen = lines({out});
        QCOMPARE(int(seen.size()), 4);
        QVERIFY(seen.at(inputs[0]));
        QVERIFY(!seen.at(inputs[1]) && !seen.at(inputs[2]) && !seen.at(missing));
        // --enqueue-only: the same line on stdout and exit 1.
        const QString alsoMissing = m_dir.filePath(QStringLiteral("also-missing.tif"));
        const folio::test::CliRun only = cli({QStringLiteral("ocr"), QStringLiteral("--project"), url, QStringLiteral("--queue"),
                                              QStringLiteral("c"), QStringLiteral("--enqueue-only"), alsoMissing});
        QCOMPARE(only.code, 1);
        const QJsonObject line = QJsonDocument::fromJson(only.out.trimmed()).object();
        QCOMPARE(line.value(QStringLiteral("input")).toString(), alsoMissing);
        QCOMPARE(line.value(QStringLiteral("ok")).toBool(true), false);
        QVERIFY2(line.value(QStringLiteral("error")).toString().contains(QStringLiteral("no such file when it was queued")), only.out.constData());
        QVERIFY2(only.err.contains("1 input(s) failed when they were queued"), only.err.constData());
    }

    // Issue 51: two workers started together on an empty database both made it a project; one
    // died on the catalogue's duplicate key (4 of 4 tries). Schema changes wait for each other
    // now (an advisory lock): both queue their inputs, one project, every input once.
    void workersStartedTogetherOnAnEmptyDatabase()
    {
        const QStringList inputs = pages(3);
        const QStringList images = scans(1);
        // extract: the queue opens the project; ocr: its --project sink does, before the queue.
        for (int round = 0; round < 6; ++round) {
            QString error;
            const QString url = m_pg.freshDatabase(QStringLiteral("qrace"), &error);
            QVERIFY2(!url.isEmpty(), qPrintable(error));
            const bool ocr = round >= 4;
            const QStringList &in = ocr ? images : inputs;
            QProcess workers[2];
            for (int i = 0; i < 2; ++i)
                start(workers[i], QStringList{QStringLiteral("-q")}
                                      + (ocr ? QStringList{QStringLiteral("ocr")} : QStringList{QStringLiteral("extract"), QStringLiteral("--structured-only")})
                                      + QStringList{QStringLiteral("--project"), url, QStringLiteral("--queue"), QStringLiteral("r"),
                                                    QStringLiteral("--enqueue-only"), in[i], in[2]});
            for (QProcess &w : workers) {
                QVERIFY(w.waitForFinished(120000));
                QVERIFY2(w.exitStatus() == QProcess::NormalExit && w.exitCode() == 0,
                         qPrintable(QStringLiteral("round %1: %2").arg(round).arg(QString::fromUtf8(w.readAllStandardError()))));
            }
            QCOMPARE(sql(url, QStringLiteral("SELECT count(*) FROM folio_project")), QStringLiteral("1"));
            QCOMPARE(queueStatus(url, QStringLiteral("r")).value(QStringLiteral("total")).toInt(), 3);
        }
    }

    // Issue 51: a worker without inputs on a database that is not a project yet was told "the
    // database is empty" and nothing more (and made it a project on its way); it now says how to
    // start and leaves the database as it was. `--queue ''` ran the batch locally: refused.
    void joiningAnEmptyDatabaseAndEmptyQueueName()
    {
        QString error;
        const QString url = m_pg.freshDatabase(QStringLiteral("qempty"), &error);
        QVERIFY2(!url.isEmpty(), qPrintable(error));
        const QStringList extract{QStringLiteral("extract"), QStringLiteral("--structured-only"), QStringLiteral("--project"), url};
        const folio::test::CliRun join = cli(extract + QStringList{QStringLiteral("--queue"), QStringLiteral("j")});
        QCOMPARE(join.code, 1);
        QVERIFY2(join.err.contains("the database is empty (make it one with `folio-cli project create ")
                     && join.err.contains("a worker without inputs only joins an existing queue"),
                 join.err.constData());
        QCOMPARE(sql(url, QStringLiteral("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()")),
                 QStringLiteral("0"));
        const folio::test::CliRun status = cli({QStringLiteral("project"), QStringLiteral("queue"), QStringLiteral("status"),
                                                QStringLiteral("--project"), url});
        QCOMPARE(status.code, 1);
        QVERIFY2(status.err.contains("`folio-cli project create "), status.err.constData());
        // An ocr worker joining (its --project also receives the documents) says the same.
        const folio::test::CliRun ocrJoin = cli(workerArgs(url, QStringLiteral("j"), QStringLiteral("w"), m_dir.filePath(QStringLiteral("oj.jsonl"))));
        QCOMPARE(ocrJoin.code, 1);
        QVERIFY2(ocrJoin.err.contains("the database is empty (make it one with `folio-cli project create "), ocrJoin.err.constData());

        const QStringList inputs = pages(1);
        const folio::test::CliRun local = cli(extract + QStringList{QStringLiteral("--queue"), QString(), inputs[0]});
        QCOMPARE(local.code, 2);
        QVERIFY2(local.err.contains("--queue needs a name"), local.err.constData());
        QVERIFY2(local.out.isEmpty(), local.out.left(200).constData()); // nothing was run
        const folio::test::CliRun joinEmpty = cli(extract + QStringList{QStringLiteral("--queue"), QString()});
        QCOMPARE(joinEmpty.code, 2);
        QVERIFY2(joinEmpty.err.contains("--queue needs a name"), joinEmpty.err.constData());
        QCOMPARE(sql(url, QStringLiteral("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()")),
                 QStringLiteral("0"));
    }

    void sameNameOtherInputsOrCommand()
    {
        const QString url = project(QStringLiteral("qname"));
        QVERIFY(!url.isEmpty());
        const QStringList inputs = scans(1);
        enqueue(url, QStringLiteral("n"), inputs.mid(0, 2));
        const folio::test::CliRun more = folio::test::runCli(QStringList{QStringLiteral("ocr"), QStringLiteral("--project"), url,
                                                                         QStringLiteral("--queue"), QStringLiteral("n"),
                                                                         QStringLiteral("--enqueue-only")} + inputs);
        QCOMPARE(more.code, 0);
        QVERIFY2(more.err.contains("1 new input(s) added, 2 already queued"), more.err.constData());
        QCOMPARE(queueStatus(url, QStringLiteral("n")).value(QStringLiteral("total")).toInt(), 3);
        // Another command on the same name is refused before anything is queued or claimed.
        const QString page = m_dir.filePath(QStringLiteral("page.html"));
        {
            QFile f(page);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("<html><body><h1>Lamp</h1></body></html>");
        }
        const folio::test::CliRun other = cli({QStringLiteral("extract"), QStringLiteral("--structured-only"), QStringLiteral("--project"),
                                               url, QStringLiteral("--queue"), QStringLiteral("n"), page});
        QCOMPARE(other.code, 2);
        QVERIFY2(other.err.contains("queue 'n' holds 'ocr' inputs: a 'extract' worker cannot join it"), other.err.constData());
        QCOMPARE(queueStatus(url, QStringLiteral("n")).value(QStringLiteral("total")).toInt(), 3);
        // --queue without --project, with --manifest or --jobs: usage errors.
        QCOMPARE(cli({QStringLiteral("ocr"), QStringLiteral("--queue"), QStringLiteral("n"), inputs[0]}).code, 2);
        QCOMPARE(cli({QStringLiteral("ocr"), QStringLiteral("--project"), url, QStringLiteral("--queue"), QStringLiteral("n"),
                      QStringLiteral("--manifest"), m_dir.filePath(QStringLiteral("m.json")), inputs[0]})
                     .code,
                 2);
        QCOMPARE(cli({QStringLiteral("ocr"), QStringLiteral("--project"), url, QStringLiteral("--queue"), QStringLiteral("bad name")}).code, 2);
    }

    void workerWhoseConnectionDrops()
    {
        const QString url = project(QStringLiteral("qdrop"));
        QVERIFY(!url.isEmpty());
        const QStringList inputs = scans(2);
        enqueue(url, QStringLiteral("d"), inputs);
        QString out, error;
        QVERIFY2(m_pg.psql(QStringLiteral("postgres"), {QStringLiteral("CREATE ROLE workera LOGIN SUPERUSER")}, &out, &error),
                 qPrintable(error));
        QString urlA = url;
        urlA.replace(QStringLiteral("folio@"), QStringLiteral("workera@"));
        const QString outA = m_dir.filePath(QStringLiteral("dropA.jsonl")), outB = m_dir.filePath(QStringLiteral("dropB.jsonl"));
        QProcess a;
        start(a, workerArgs(urlA, QStringLiteral("d"), QStringLiteral("A"), outA));
        QVERIFY(!waitForClaim(url, QStringLiteral("A")).isEmpty());
        QVERIFY2(m_pg.psql(QStringLiteral("postgres"),
                           {QStringLiteral("ALTER ROLE workera NOLOGIN"),
                            QStringLiteral("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = 'workera'")},
                           &out, &error),
                 qPrintable(error));
        QVERIFY(a.waitForFinished(120000));
        const QByteArray errA = a.readAllStandardError();
        QCOMPARE(a.exitCode(), 1);
        QVERIFY2(errA.contains("queue d: lost the project") && errA.contains("this worker stops"), errA.constData());
        const folio::test::CliRun b = cli(workerArgs(url, QStringLiteral("d"), QStringLiteral("B"), outB));
        QVERIFY2(b.code == 0, b.err.constData());
        QCOMPARE(sql(url, QStringLiteral("SELECT count(*) FROM queue_items WHERE state = 'done'")), QStringLiteral("6"));
        const std::map<QString, bool> seen = lines({outA, outB});
        QCOMPARE(int(seen.size()), 6);
    }

    void workerWhoseModelFailsToLoad()
    {
        const QString url = project(QStringLiteral("qmodel"));
        QVERIFY(!url.isEmpty());
        const QStringList inputs = scans(1);
        enqueue(url, QStringLiteral("m"), inputs);
        const folio::test::CliRun bad = cli(workerArgs(url, QStringLiteral("m"), QStringLiteral("bad"), m_dir.filePath(QStringLiteral("bad.jsonl")))
                                            + QStringList{QStringLiteral("--lang"), QStringLiteral("zzz")});
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.contains("zzz"), bad.err.constData());
        QCOMPARE(sql(url, QStringLiteral("SELECT count(*) FROM queue_items WHERE state = 'pending' AND attempts = 0")),
                 QStringLiteral("3"));
        const folio::test::CliRun good = cli(workerArgs(url, QStringLiteral("m"), QStringLiteral("good"), m_dir.filePath(QStringLiteral("good.jsonl"))));
        QVERIFY2(good.code == 0, good.err.constData());
        QCOMPARE(queueStatus(url, QStringLiteral("m")).value(QStringLiteral("done")).toInt(), 3);
    }

    void sqliteProjectOnOneMachine()
    {
        const QString path = m_dir.filePath(QStringLiteral("one.folio"));
        QCOMPARE(cli({QStringLiteral("project"), QStringLiteral("create"), path}).code, 0);
        const QStringList inputs = scans(1);
        enqueue(path, QStringLiteral("s"), inputs);
        QProcess workers[2];
        QStringList outs;
        for (int i = 0; i < 2; ++i) {
            outs << m_dir.filePath(QStringLiteral("sqlite%1.jsonl").arg(i));
            start(workers[i], QStringList{QStringLiteral("-q")} + workerArgs(path, QStringLiteral("s"), QStringLiteral("s%1").arg(i), outs.last(), 30));
        }
        for (QProcess &w : workers) {
            QVERIFY(w.waitForFinished(300000));
            QVERIFY2(w.exitCode() == 0, w.readAllStandardError().constData());
        }
        QCOMPARE(int(lines(outs).size()), 3);
        QCOMPARE(queueStatus(path, QStringLiteral("s")).value(QStringLiteral("done")).toInt(), 3);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliQueue)
#include "tst_cliqueue.moc"
