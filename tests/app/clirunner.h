#pragma once
// Runs the folio-cli built beside the tests (FOLIO_CLI_PATH) and collects exit code, stdout and
// stderr: the one runner the CLI tests share. A run that crashes or outlives its timeout (it is
// then killed) has code -1.

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

namespace folio::test {

struct CliRun
{
    int code = -1;
    QByteArray out, err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

// The test's environment with one OpenBLAS thread (several CLI children must not fight for the cores).
inline QProcessEnvironment cliEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OPENBLAS_NUM_THREADS"), QStringLiteral("1"));
    return env;
}

inline CliRun runCli(const QStringList &args, int timeoutMs = 300000, const QProcessEnvironment &env = cliEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(FOLIO_CLI_PATH), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return CliRun{};
    }
    return CliRun{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                  p.readAllStandardError()};
}

} // namespace folio::test
