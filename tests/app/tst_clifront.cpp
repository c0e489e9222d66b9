// folio-cli is a launcher, a front without LibTorch and folio-cli-engine (app/cli/clirun.h, issue 35):
// the launcher loads nothing but the C/C++ runtime, the front no LibTorch; the model-free commands run
// without the engine, every other command line reaches the engine (OpenMP wait policy set there),
// and a missing program is named.
#include "clirunner.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

class TestCliFront : public QObject
{
    Q_OBJECT

    using Run = folio::test::CliRun;

    static QString sibling(const char *name) { return QFileInfo(QStringLiteral(FOLIO_CLI_PATH)).dir().filePath(QString::fromLatin1(name)); }

    // What the dynamic loader maps for `program` (LD_TRACE_LOADED_OBJECTS: ldd's listing, nothing runs).
    static QByteArray loadedLibraries(const QString &program)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LD_TRACE_LOADED_OBJECTS"), QStringLiteral("1"));
        p.setProcessEnvironment(env);
        p.start(program, {});
        if (!p.waitForFinished(60000))
            return {};
        return p.readAllStandardOutput();
    }

    // Copies of the launcher and the front in a folder, no engine beside them: the launcher's path.
    static QString lonelyFront(const QTemporaryDir &dir)
    {
        for (const char *name : {"folio-cli", "folio-cli-front"}) {
            const QString copy = dir.filePath(QString::fromLatin1(name));
            if (!QFile::copy(sibling(name), copy))
                return {};
            QFile::setPermissions(copy, QFile::permissions(copy) | QFile::ExeOwner);
        }
        return dir.filePath(QStringLiteral("folio-cli"));
    }

    static Run runProgram(const QString &program, const QStringList &args, const QProcessEnvironment &env = folio::test::cliEnvironment())
    {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(program, args);
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            return Run{};
        }
        return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
    }

private Q_SLOTS:
    void frontDoesNotLoadLibTorch()
    {
        const QByteArray launcher = loadedLibraries(QStringLiteral(FOLIO_CLI_PATH));
        QVERIFY2(launcher.contains("libc.so") && !launcher.contains("libQt6"), launcher.constData());
        const QByteArray front = loadedLibraries(sibling("folio-cli-front"));
        QVERIFY2(front.contains("libQt6Core"), front.constData()); // the listing worked
        QVERIFY2(!front.contains("libtorch") && !front.contains("libc10"), front.constData()); // libgomp: Tesseract's
        const QByteArray engine = loadedLibraries(sibling("folio-cli-engine"));
        QVERIFY2(engine.contains("libtorch_cpu"), engine.constData()); // the check sees LibTorch where it is
    }

    void modelFreeCommandsNeedNoEngine()
    {
        QTemporaryDir dir;
        const QString front = lonelyFront(dir);
        QVERIFY(!front.isEmpty());
        const Run version = runProgram(front, {QStringLiteral("--version")});
        QCOMPARE(version.code, 0);
        QVERIFY(!version.out.trimmed().isEmpty());
        const QString project = dir.filePath(QStringLiteral("p.folio"));
        const Run created = runProgram(front, {QStringLiteral("-q"), QStringLiteral("project"), QStringLiteral("create"), project});
        QVERIFY2(created.code == 0, created.err.constData());
        const Run listed = runProgram(front, {QStringLiteral("project"), QStringLiteral("list"), project});
        QVERIFY2(listed.code == 0, listed.err.constData());
        const Run help = runProgram(front, {QStringLiteral("export"), QStringLiteral("--help")});
        QCOMPARE(help.code, 0);
        // Bad input in a front command: its own message, not the engine's absence.
        const Run missing = runProgram(front, {QStringLiteral("doc"), dir.filePath(QStringLiteral("nope.json"))});
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains("no such file") && !missing.err.contains("folio-cli-engine"), missing.err.constData());
    }

    void otherCommandLinesReachTheEngine()
    {
        QProcessEnvironment env = folio::test::cliEnvironment();
        env.remove(QStringLiteral("OMP_WAIT_POLICY"));
        env.insert(QStringLiteral("OMP_DISPLAY_ENV"), QStringLiteral("true"));
        const Run info = runProgram(QStringLiteral(FOLIO_CLI_PATH), {QStringLiteral("info")}, env);
        QVERIFY2(info.code == 0, info.err.constData());
        QVERIFY(!info.json().value(QStringLiteral("libtorch")).toString().isEmpty());
        // libgomp's own report: the engine set the passive wait policy before libgomp read it.
        QVERIFY2(info.err.contains("OMP_WAIT_POLICY = 'PASSIVE'"), info.err.constData());
        const Run help = runProgram(QStringLiteral(FOLIO_CLI_PATH), {QStringLiteral("--help")});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.contains("predict") && help.out.contains("project"));
        // Usage still names folio-cli (the engine runs with the front's argv[0]).
        const Run usage = runProgram(QStringLiteral(FOLIO_CLI_PATH), {QStringLiteral("predict"), QStringLiteral("--help")});
        QCOMPARE(usage.code, 0);
        QVERIFY2(usage.out.contains("folio-cli predict [OPTIONS]") && !usage.out.contains("folio-cli-engine"), usage.out.constData());
    }

    void missingEngineIsNamed()
    {
        QTemporaryDir dir;
        const QString front = lonelyFront(dir);
        QVERIFY(!front.isEmpty());
        const QByteArray engine = QDir(dir.path()).filePath(QStringLiteral("folio-cli-engine")).toUtf8();
        const Run r = runProgram(front, {QStringLiteral("info")}); // the launcher's choice
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("cannot start") && r.err.contains(engine), r.err.constData());
        // The front run directly with a model command hands it to the engine too.
        const Run direct = runProgram(dir.filePath(QStringLiteral("folio-cli-front")), {QStringLiteral("predict"), QStringLiteral("--help")});
        QCOMPARE(direct.code, 1);
        QVERIFY2(direct.err.contains("cannot start") && direct.err.contains(engine), direct.err.constData());
        // Without the front, a model-free command names the front.
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("folio-cli-front"))));
        const Run noFront = runProgram(front, {QStringLiteral("--version")});
        QCOMPARE(noFront.code, 1);
        QVERIFY2(noFront.err.contains("cannot start") && noFront.err.contains("folio-cli-front"), noFront.err.constData());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliFront)
#include "tst_clifront.moc"
