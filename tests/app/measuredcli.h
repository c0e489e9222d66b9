#pragma once
// folio-cli run for the hostile-input tests (tst_clihostile, tst_clihostile3): exit code, stdout,
// stderr, wall time and the child's own peak resident set (wait4's rusage), with a deadline: a run
// still going after `timeoutMs` (a FIFO that blocks an open) is killed and reported as timedOut,
// so such a case fails instead of hanging the suite. Arguments are passed as raw bytes
// (QFile::encodeName), so names that are not UTF-8 reach the CLI as they are on disk.

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QString>
#include <QStringList>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <vector>

extern char **environ;

namespace folio::test {

struct MeasuredRun
{
    int code = -1;
    QByteArray out, err;
    long peakMiB = 0; // this child's largest resident set
    qint64 ms = 0;
    bool timedOut = false; // killed at the deadline
};

// folio-cli with `args` (each already bytes: use QFile::encodeName for paths), stdout and stderr
// to files in `dir`.
inline MeasuredRun measuredCliBytes(const QString &dir, const std::vector<QByteArray> &args, int timeoutMs = 300000)
{
    std::vector<QByteArray> bytes{QByteArray(FOLIO_CLI_PATH)};
    bytes.insert(bytes.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (QByteArray &b : bytes)
        argv.push_back(b.data());
    argv.push_back(nullptr);
    const QByteArray outPath = QFile::encodeName(dir + QStringLiteral("/run.out"));
    const QByteArray errPath = QFile::encodeName(dir + QStringLiteral("/run.err"));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, outPath.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, errPath.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    QByteArray blas("OPENBLAS_NUM_THREADS=1");
    std::vector<char *> env{blas.data()};
    for (char **e = environ; *e; ++e)
        env.push_back(*e);
    env.push_back(nullptr);
    // wait4's peak starts from this process's own high-water mark (posix_spawn's child shares our
    // memory until exec): reset it (Linux: clear_refs 5) so the run measures the CLI, not the test
    // that generated its input.
    if (QFile refs(QStringLiteral("/proc/self/clear_refs")); refs.open(QIODevice::WriteOnly))
        refs.write("5");
    MeasuredRun r;
    QElapsedTimer clock;
    clock.start();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), env.data()) == 0) {
        int status = 0;
        rusage ru{};
        for (;;) {
            const pid_t done = wait4(pid, &status, WNOHANG, &ru);
            if (done == pid) {
                r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
                r.peakMiB = ru.ru_maxrss / 1024;
                break;
            }
            if (done < 0)
                break;
            if (clock.elapsed() > timeoutMs) {
                ::kill(pid, SIGKILL);
                wait4(pid, &status, 0, &ru);
                r.timedOut = true;
                r.peakMiB = ru.ru_maxrss / 1024;
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
    r.ms = clock.elapsed();
    posix_spawn_file_actions_destroy(&actions);
    QFile out(QFile::decodeName(outPath)), err(QFile::decodeName(errPath));
    if (out.open(QIODevice::ReadOnly))
        r.out = out.readAll();
    if (err.open(QIODevice::ReadOnly))
        r.err = err.readAll();
    return r;
}

inline MeasuredRun measuredCli(const QString &dir, const QStringList &args, int timeoutMs = 300000)
{
    std::vector<QByteArray> bytes;
    for (const QString &a : args)
        bytes.push_back(QFile::encodeName(a));
    return measuredCliBytes(dir, bytes, timeoutMs);
}

} // namespace folio::test
