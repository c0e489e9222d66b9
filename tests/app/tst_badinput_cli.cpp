// The bad-input catalogue of folio-cli (issue 18): per entry (entry point, input made at test time)
// the expected exit code, a message fragment, that the message names the input, and the peak
// memory of the children so far (getrusage RUSAGE_CHILDREN: an upper bound for this entry). Then
// what a row cannot say alone: SIGINT / SIGTERM during a multi-page `ocr` end it with exit 3.
#include "clirunner.h"
#include "tests/common/testdata.h"
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {

using Run = folio::test::CliRun;

Run cli(const QStringList &args, int timeoutMs = 120000)
{
    return folio::test::runCli(args, timeoutMs);
}

// Largest resident set (MiB) of any child reaped so far.
long childrenPeakMiB()
{
    rusage ru{};
    getrusage(RUSAGE_CHILDREN, &ru);
    return ru.ru_maxrss / 1024;
}

// `pages` pages, each a few lines of large text (enough for Tesseract to take a while per page).
bool writeTextPdf(const QString &path, int pages)
{
    QPdfWriter writer(path);
    writer.setResolution(150);
    writer.setPageSize(QPageSize(QPageSize::A4));
    QPainter painter(&writer);
    QFont font = painter.font();
    font.setPointSize(14);
    painter.setFont(font);
    for (int page = 0; page < pages; ++page) {
        if (page > 0 && !writer.newPage())
            return false;
        for (int line = 0; line < 40; ++line)
            painter.drawText(QPoint(60, 80 + line * 40),
                             QStringLiteral("Page %1 line %2: the quick brown fox jumps over the lazy dog").arg(page + 1).arg(line + 1));
    }
    return painter.end();
}

} // namespace

class TestBadInputCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes) { return folio::test::writeTestFile(m_dir, name, bytes); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void catalogue_data()
    {
        QTest::addColumn<QStringList>("args"); // "%1" is replaced by the input's path
        QTest::addColumn<QString>("name");     // input file name in the temp dir ("" = none made)
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("fragment");
        QTest::addColumn<int>("peakMiB"); // cap on the children's peak memory
        const QStringList ocr{QStringLiteral("-q"), QStringLiteral("ocr"), QStringLiteral("%1")};
        const QStringList dom{QStringLiteral("-q"), QStringLiteral("dom"), QStringLiteral("%1")};
        QTest::newRow("ocr missing file") << ocr << QStringLiteral("missing.png") << QByteArray() << 1
                                          << QStringLiteral("missing.png") << 1024;
        QTest::newRow("ocr truncated png") << ocr << QStringLiteral("cut.png")
                                           << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << 1
                                           << QStringLiteral("cut.png") << 1024;
        QTest::newRow("ocr text file") << ocr << QStringLiteral("notes.png") << QByteArray("hello\n") << 1
                                       << QStringLiteral("notes.png") << 1024;
        QTest::newRow("ocr usage: no file") << QStringList{QStringLiteral("ocr")} << QString() << QByteArray() << 2
                                            << QStringLiteral("FILE is required") << 1024;
        QTest::newRow("dom missing file") << dom << QStringLiteral("missing.html") << QByteArray() << 1
                                          << QStringLiteral("missing.html") << 1024;
        QTest::newRow("dom binary junk") << dom << QStringLiteral("junk.html") << QByteArray(4096, '\x01') << 1
                                         << QStringLiteral("does not look like HTML") << 1024;
        // 100,000 unclosed <div><span>x (1.2 MB): 2.8 GB and 480 MB of JSON when node ids were
        // whole XPaths; linear now (ids "h<index>", XPaths on demand).
        QByteArray unclosed = "<html><body>";
        for (int i = 0; i < 100000; ++i)
            unclosed += "<div><span>x";
        QTest::newRow("dom 100k unclosed elements") << dom << QStringLiteral("unclosed.html") << unclosed << 0 << QString() << 1024;
        QByteArray deep;
        for (int i = 0; i < 100000; ++i)
            deep += "<div>";
        QTest::newRow("dom 100k-deep nesting") << dom << QStringLiteral("deep.html") << deep + "x" << 0 << QString() << 1024;
        // The project opener: files that are not (or no longer) Folio projects.
        const QStringList list{QStringLiteral("-q"), QStringLiteral("project"), QStringLiteral("list"), QStringLiteral("%1")};
        QTest::newRow("project: empty file") << list << QStringLiteral("empty.folio") << QByteArray(" ") << 1
                                             << QStringLiteral("empty.folio") << 1024;
        QTest::newRow("project: text file") << list << QStringLiteral("text.folio") << QByteArray("not a database\n") << 1
                                            << QStringLiteral("text.folio") << 1024;
        QTest::newRow("project: cut SQLite header") << list << QStringLiteral("cut.folio") << QByteArray("SQLite format 3\0", 16) << 1
                                                    << QStringLiteral("cut.folio") << 1024;
    }

    void catalogue()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(int, exitCode);
        QFETCH(QString, fragment);
        QFETCH(int, peakMiB);
        QString path = m_dir.filePath(name);
        if (!name.isEmpty() && !content.isEmpty())
            QVERIFY(!(path = write(name, content)).isEmpty());
        args.replaceInStrings(QStringLiteral("%1"), path);
        const Run r = cli(args);
        QVERIFY2(r.code == exitCode, qPrintable(QStringLiteral("exit %1, stderr: %2").arg(r.code).arg(QString::fromUtf8(r.err))));
        QVERIFY2(QString::fromUtf8(r.err).contains(fragment), r.err.constData());
        if (exitCode == 0 && args.contains(QStringLiteral("dom"))) // output linear in the input too
            QVERIFY2(r.out.size() < 100 * qMax<qsizetype>(content.size(), 1024), qPrintable(QString::number(r.out.size())));
        qInfo("exit %d, children's peak so far %ld MiB", r.code, childrenPeakMiB());
        if (exitCode == 1)
            QVERIFY2(r.err.startsWith("folio-cli: "), r.err.constData());
        QVERIFY2(childrenPeakMiB() <= peakMiB, qPrintable(QString::number(childrenPeakMiB())));
    }

    // A 1x1 image has no words: ocr and predict agree (exit 0, an empty result), predict says why.
    void onePixelImage()
    {
        const QString png = m_dir.filePath(QStringLiteral("one.png"));
        QImage one(1, 1, QImage::Format_RGB32);
        one.fill(Qt::white);
        QVERIFY(one.save(png));
        const Run o = cli({QStringLiteral("-q"), QStringLiteral("ocr"), png});
        QVERIFY2(o.code == 0, o.err.constData());
        const Run p = cli({QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"),
                           QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading"), png});
        QVERIFY2(p.code == 0, p.err.constData());
        QVERIFY2(p.err.contains("no words found on 1 page"), p.err.constData());
        QVERIFY2(p.out.contains("\"words\": 0") && p.out.contains("\"entities\": []"), p.out.constData());
    }

    // A file name with byte 0xff (not UTF-8) opens in ocr, dom and predict.
    void nonUtf8FileName()
    {
        const QImage form(QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png"));
        QVERIFY(!form.isNull());
        const QByteArray dir = QFile::encodeName(m_dir.path());
        const QByteArray png = dir + "/scan-\xff.png", html = dir + "/page-\xff.html";
        QVERIFY(form.save(QFile::decodeName(dir + "/tmp.png")));
        QVERIFY(::rename((dir + "/tmp.png").constData(), png.constData()) == 0);
        FILE *f = std::fopen(html.constData(), "wb");
        QVERIFY(f);
        std::fputs("<html><body><p>Hello bytes</p></body></html>", f);
        std::fclose(f);
        // QProcess takes QString arguments, which cannot hold the byte: posix_spawn with raw argv.
        const QByteArray outPath = dir + "/raw.out", errPath = dir + "/raw.err";
        auto rawCli = [&](QList<QByteArray> args) {
            args.prepend(QByteArray(FOLIO_CLI_PATH));
            std::vector<char *> argv;
            for (QByteArray &arg : args)
                argv.push_back(arg.data());
            argv.push_back(nullptr);
            posix_spawn_file_actions_t actions;
            posix_spawn_file_actions_init(&actions);
            posix_spawn_file_actions_addopen(&actions, 1, outPath.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            posix_spawn_file_actions_addopen(&actions, 2, errPath.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            pid_t pid = 0;
            Run r;
            int status = 0;
            if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0 && waitpid(pid, &status, 0) == pid)
                r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            posix_spawn_file_actions_destroy(&actions);
            QFile out(QFile::decodeName(outPath)), err(QFile::decodeName(errPath));
            if (out.open(QIODevice::ReadOnly))
                r.out = out.readAll();
            if (err.open(QIODevice::ReadOnly))
                r.err = err.readAll();
            return r;
        };
        const QByteArray model(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading");
        const Run d = rawCli({"-q", "dom", html});
        QVERIFY2(d.code == 0 && d.out.contains("Hello"), d.err.constData());
        const Run o = rawCli({"-q", "ocr", "--psm", "6", png});
        QVERIFY2(o.code == 0 && o.out.contains("\"words\""), o.err.constData());
        const Run p = rawCli({"-q", "predict", "--checkpoint", model, png});
        QVERIFY2(p.code == 0 && p.out.contains("\"entities\""), p.err.constData());
        // The raw name is really not UTF-8, and a missing raw name is still named in the message.
        QVERIFY(!QFile::exists(QString::fromUtf8(png)));
        const Run missing = rawCli({"-q", "ocr", dir + "/gone-\xff.png"});
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains("gone-") && missing.err.contains("no such file"), missing.err.constData());
        // QTemporaryDir cannot remove names QString cannot hold.
        ::unlink(png.constData());
        ::unlink(html.constData());
    }

    // Ctrl-C (and SIGTERM from a supervisor) during a multi-page OCR: exit 3, "cancelled" named,
    // no result on stdout, well before the pages could have been read.
    void signalCancelsOcr_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGTERM") << int(SIGTERM);
    }

    void signalCancelsOcr()
    {
        QFETCH(int, signal);
        const QString pdf = m_dir.filePath(QStringLiteral("pages.pdf"));
        if (!QFile::exists(pdf))
            QVERIFY(writeTextPdf(pdf, 30));
        QProcess p;
        p.start(QStringLiteral(FOLIO_CLI_PATH),
                {QStringLiteral("ocr"), QStringLiteral("--jobs"), QStringLiteral("1"), QStringLiteral("--dpi"),
                 QStringLiteral("200"), QStringLiteral("--no-text-layer"), pdf});
        QVERIFY(p.waitForStarted());
        QByteArray err;
        QElapsedTimer clock;
        clock.start();
        while (!err.contains(": 0/30") && clock.elapsed() < 60000 && p.state() == QProcess::Running) {
            p.waitForReadyRead(200);
            err += p.readAllStandardError();
        }
        QVERIFY2(err.contains(": 0/30"), err.constData()); // the OCR has started
        QVERIFY(::kill(pid_t(p.processId()), signal) == 0);
        QVERIFY(p.waitForFinished(20000));
        err += p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit); // not killed by the signal
        QCOMPARE(p.exitCode(), 3);
        QVERIFY2(err.contains("cancelled"), err.constData());
        QVERIFY(p.readAllStandardOutput().isEmpty());
        QVERIFY2(!err.contains(": 30/30"), err.constData());
    }
};

FOLIO_TEST_MAIN(TestBadInputCli)
#include "tst_badinput_cli.moc"
