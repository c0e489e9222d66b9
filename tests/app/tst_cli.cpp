// folio-cli as a script sees it: help without a display, JSON on stdout, exit codes, messages.
#include "clirunner.h"
#include "tests/common/testdata.h"
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestCli : public QObject
{
    Q_OBJECT

    using Run = folio::test::CliRun;

    // Without any display: folio-cli must not need one.
    static Run run(const QStringList &args)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        return folio::test::runCli(args, 120000, env);
    }

private Q_SLOTS:
    void helpWorksWithoutDisplay()
    {
        const Run r = run({QStringLiteral("--help")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("Subcommands:"));
    }

    void everySubcommandHasHelp()
    {
        const Run top = run({QStringLiteral("--help")});
        const QList<QByteArray> lines = top.out.split('\n');
        bool inSubcommands = false;
        QMap<QString, QString> descriptions; // subcommand -> its line in the listing
        for (const QByteArray &line : lines) {
            if (line.startsWith("Subcommands:")) { inSubcommands = true; continue; }
            if (inSubcommands && line.startsWith("  ")) {
                const QString text = QString::fromUtf8(line).trimmed();
                const int gap = text.indexOf(QLatin1Char(' '));
                if (gap > 0)
                    descriptions.insert(text.left(gap), text.mid(gap).trimmed());
            }
        }
        // Every subcommand, in every build (attention needs no GUI build).
        const QStringList expected{"info", "doc", "dom", "ocr", "train", "eval", "train-links", "pretrain", "predict", "vocab", "run", "extract",
                                   "extract-score", "rank-swde", "train-rankers", "train-product", "train-webformer", "project", "import", "export", "attention", "explain", "qs", "hub",
                                   "simulate-labelling"};
        QCOMPARE(QStringList(descriptions.keys()).join(' '), [&] { QStringList e = expected; e.sort(); return e.join(' '); }());
        for (const QString &sub : expected) {
            const Run r = run({sub, QStringLiteral("--help")});
            QVERIFY2(r.code == 0, qPrintable(sub + QStringLiteral(": ") + QString::fromUtf8(r.err)));
            // Its own help: its description first, then its own usage line.
            const QStringList help = QString::fromUtf8(r.out).split(QLatin1Char('\n'));
            QCOMPARE(help.value(0).trimmed(), descriptions.value(sub));
            QVERIFY2(QString::fromUtf8(r.out).contains(QStringLiteral("folio-cli %1 [OPTIONS]").arg(sub)), qPrintable(sub));
        }
    }

    void usageErrorsExitTwo()
    {
        QCOMPARE(run({}).code, 2);
        QCOMPARE(run({QStringLiteral("no-such-command")}).code, 2);
    }

    void infoPrintsJson()
    {
        const Run r = run({QStringLiteral("info")});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(o.value(QStringLiteral("tesseract")).toString().startsWith(QLatin1Char('5')));
        QVERIFY(!o.value(QStringLiteral("libtorch")).toString().isEmpty());
    }

    void badDocumentFileNamesFileAndProblem()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\":\"folio.document\",\"version\":1,\"pages\":[],\"nodes\":[{\"id\":1}],\"words\":[]}");
        f.close();
        const Run r = run({QStringLiteral("doc"), path});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(path.toUtf8()) && r.err.contains("nodes[0]"), r.err.constData());
        const Run missing = run({QStringLiteral("doc"), dir.filePath(QStringLiteral("nope.json"))});
        QCOMPARE(missing.code, 1);
        QVERIFY(missing.err.contains("no such file"));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
