#pragma once
// A real, private PostgreSQL server for tests: initdb in a temporary folder, pg_ctl start on a
// unix socket in that folder (no TCP port), stopped and deleted when the object goes away.
//
//   folio::test::PostgresServer pg;
//   if (!pg.start(&error)) ...                  // binaries missing: missingBinaries() is true
//   const QString url = pg.createDatabase("t1", &error);  // postgresql://folio@/t1?host=<dir>
//   pg.restart(&error);                          // pg_ctl restart -m fast (tests reconnecting)
//
// The binaries come from $FOLIO_PG_BIN, else /usr/lib/postgresql/<newest>/bin. PostgreSQL refuses
// to run as root, so when the tests run as root (CI) initdb / pg_ctl run as `nobody` through
// runuser, in a folder that user owns; the superuser of the cluster is "folio", trusted on the
// socket.
//
// Tests run against PostgreSQL when FOLIO_PROJECT_BACKEND=postgres (projectBackendIsPostgres());
// CTest registers those runs with the label `postgres`.

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace folio::test {

// True when $FOLIO_PROJECT_BACKEND is "postgres" / "postgresql".
bool projectBackendIsPostgres();

class PostgresServer
{
public:
    PostgresServer();
    ~PostgresServer();
    PostgresServer(const PostgresServer &) = delete;
    PostgresServer &operator=(const PostgresServer &) = delete;

    // initdb + start. False with a message; missingBinaries() tells a skip from a failure.
    bool start(QString *error);
    bool missingBinaries() const { return m_missing; }
    bool isRunning() const { return m_running; }
    void stop();
    bool restart(QString *error);               // pg_ctl restart -m fast
    bool stopServer(QString *error);            // pg_ctl stop -m fast (keeps the data)
    bool startServer(QString *error);           // pg_ctl start again after stopServer

    QString socketDir() const { return m_socketDir; }
    // postgresql://folio@/NAME?host=<socket dir>
    QString url(const QString &database) const;
    // CREATE DATABASE name; returns its URL (empty on failure).
    QString createDatabase(const QString &name, QString *error);
    // A fresh database with a unique name ("<prefix>_<n>").
    QString freshDatabase(const QString &prefix, QString *error);
    // Runs SQL statements in `database` as the superuser (psql -v ON_ERROR_STOP=1). Returns psql's output.
    bool psql(const QString &database, const QStringList &statements, QString *output, QString *error);

private:
    bool run(const QString &program, const QStringList &args, QString *output, QString *error, int timeoutMs = 120000);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_bin;
    QString m_root;      // owned by the server's user
    QString m_data;
    QString m_socketDir;
    QString m_runAs;     // "nobody" when running as root, else empty
    bool m_missing = false;
    bool m_running = false;
    int m_counter = 0;
};

} // namespace folio::test
