#include "tests/common/postgresserver.h"

#include <QCollator>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace folio::test {

bool projectBackendIsPostgres()
{
    const QString b = qEnvironmentVariable("FOLIO_PROJECT_BACKEND").toLower();
    return b == QLatin1String("postgres") || b == QLatin1String("postgresql");
}

static QString findBinDir()
{
    const QString fromEnv = qEnvironmentVariable("FOLIO_PG_BIN");
    if (!fromEnv.isEmpty())
        return fromEnv;
    QDir root(QStringLiteral("/usr/lib/postgresql"));
    QStringList versions = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCollator numeric;
    numeric.setNumericMode(true);
    std::sort(versions.begin(), versions.end(), [&](const QString &a, const QString &b) { return numeric.compare(a, b) > 0; });
    for (const QString &v : versions) {
        const QString bin = root.filePath(v + QStringLiteral("/bin"));
        if (QFileInfo(bin + QStringLiteral("/initdb")).isExecutable())
            return bin;
    }
    return {};
}

PostgresServer::PostgresServer() = default;
PostgresServer::~PostgresServer() { stop(); }

bool PostgresServer::run(const QString &program, const QStringList &args, QString *output, QString *error, int timeoutMs)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.setWorkingDirectory(m_root.isEmpty() ? QDir::tempPath() : m_root);
    if (m_runAs.isEmpty() || program.endsWith(QLatin1String("/psql")))
        p.start(program, args);
    else
        p.start(QStringLiteral("runuser"), QStringList{QStringLiteral("-u"), m_runAs, QStringLiteral("--"), program} + args);
    if (!p.waitForStarted(10000)) {
        *error = QStringLiteral("%1: cannot start (%2)").arg(program, p.errorString());
        return false;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        *error = QStringLiteral("%1: no answer after %2 s").arg(program).arg(timeoutMs / 1000);
        return false;
    }
    const QString out = QString::fromLocal8Bit(p.readAll());
    if (output)
        *output = out;
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *error = QStringLiteral("%1 %2 failed (exit %3): %4")
                     .arg(QFileInfo(program).fileName(), args.value(0))
                     .arg(p.exitCode())
                     .arg(out.trimmed());
        return false;
    }
    return true;
}

bool PostgresServer::start(QString *error)
{
    m_bin = findBinDir();
    if (m_bin.isEmpty() || !QFileInfo(m_bin + QStringLiteral("/pg_ctl")).isExecutable()) {
        m_missing = true;
        *error = QStringLiteral("PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin or $FOLIO_PG_BIN; "
                                "Debian package postgresql)");
        return false;
    }
    // As root the folder must be reachable by nobody: /tmp, whatever $TMPDIR says (it may be
    // under /root). Short, too: a unix socket path has at most 107 bytes.
    const QString base = ::geteuid() == 0 ? QStringLiteral("/tmp") : QDir::tempPath();
    m_dir = std::make_unique<QTemporaryDir>(base + QStringLiteral("/folio-pg-XXXXXX"));
    if (!m_dir->isValid()) {
        *error = QStringLiteral("cannot create a temporary folder: %1").arg(m_dir->errorString());
        return false;
    }
    m_root = m_dir->path() + QStringLiteral("/pg");
    if (!QDir().mkpath(m_root)) {
        *error = QStringLiteral("%1: cannot create").arg(m_root);
        return false;
    }
    if (::geteuid() == 0) {
        // PostgreSQL refuses to run as root: the cluster belongs to nobody.
        const passwd *pw = ::getpwnam("nobody");
        if (!pw) {
            *error = QStringLiteral("running as root and there is no user 'nobody' to run PostgreSQL as");
            return false;
        }
        m_runAs = QStringLiteral("nobody");
        ::chmod(QFile::encodeName(m_dir->path()).constData(), 0711);
        if (::chown(QFile::encodeName(m_root).constData(), pw->pw_uid, pw->pw_gid) != 0) {
            *error = QStringLiteral("%1: cannot give the folder to nobody").arg(m_root);
            return false;
        }
    }
    m_data = m_root + QStringLiteral("/data");
    m_socketDir = m_root;
    QString out;
    if (!run(m_bin + QStringLiteral("/initdb"),
             {QStringLiteral("-D"), m_data, QStringLiteral("-U"), QStringLiteral("folio"), QStringLiteral("-A"),
              QStringLiteral("trust"), QStringLiteral("-E"), QStringLiteral("UTF8"), QStringLiteral("--locale=C"),
              QStringLiteral("-N")},
             &out, error))
        return false;
    return startServer(error);
}

// No TCP port; the socket lives in our folder. fsync off: the tests kill clients and restart the
// server cleanly, never the machine, and the machine running them is shared.
static QString serverOptions(const QString &socketDir)
{
    return QStringLiteral("-k %1 -c listen_addresses='' -c fsync=off -c max_connections=40").arg(socketDir);
}

bool PostgresServer::startServer(QString *error)
{
    QString out;
    if (!run(m_bin + QStringLiteral("/pg_ctl"),
             {QStringLiteral("start"), QStringLiteral("-D"), m_data, QStringLiteral("-w"), QStringLiteral("-t"),
              QStringLiteral("60"), QStringLiteral("-l"), m_root + QStringLiteral("/server.log"), QStringLiteral("-o"),
              serverOptions(m_socketDir)},
             &out, error))
        return false;
    m_running = true;
    return true;
}

bool PostgresServer::stopServer(QString *error)
{
    QString out;
    if (!run(m_bin + QStringLiteral("/pg_ctl"),
             {QStringLiteral("stop"), QStringLiteral("-D"), m_data, QStringLiteral("-w"), QStringLiteral("-m"),
              QStringLiteral("fast")},
             &out, error))
        return false;
    m_running = false;
    return true;
}

bool PostgresServer::restart(QString *error) { return stopServer(error) && startServer(error); }

void PostgresServer::stop()
{
    if (m_running) {
        QString out, error;
        run(m_bin + QStringLiteral("/pg_ctl"),
            {QStringLiteral("stop"), QStringLiteral("-D"), m_data, QStringLiteral("-w"), QStringLiteral("-m"),
             QStringLiteral("immediate")},
            &out, &error);
        m_running = false;
    }
    m_dir.reset();
}

QString PostgresServer::url(const QString &database) const
{
    return QStringLiteral("postgresql://folio@/%1?host=%2").arg(database, m_socketDir);
}

bool PostgresServer::psql(const QString &database, const QStringList &statements, QString *output, QString *error)
{
    QStringList args = {QStringLiteral("-h"), m_socketDir, QStringLiteral("-U"), QStringLiteral("folio"),
                        QStringLiteral("-d"), database, QStringLiteral("-X"), QStringLiteral("-q"),
                        QStringLiteral("-A"), QStringLiteral("-t"), QStringLiteral("-v"), QStringLiteral("ON_ERROR_STOP=1")};
    for (const QString &s : statements)
        args << QStringLiteral("-c") << s;
    return run(m_bin + QStringLiteral("/psql"), args, output, error);
}

QString PostgresServer::createDatabase(const QString &name, QString *error)
{
    QString out;
    if (!psql(QStringLiteral("postgres"), {QStringLiteral("CREATE DATABASE \"%1\"").arg(name)}, &out, error))
        return {};
    return url(name);
}

QString PostgresServer::freshDatabase(const QString &prefix, QString *error)
{
    return createDatabase(QStringLiteral("%1_%2").arg(prefix).arg(++m_counter), error);
}

} // namespace folio::test
