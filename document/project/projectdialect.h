#pragma once
// ProjectDialect: every piece of SQL that is specific to one database engine.
//
// The project store (project.h) speaks portable SQL (plain CREATE TABLE / INSERT / UPDATE /
// SELECT, ON CONFLICT upserts and RETURNING, which SQLite >= 3.35 and PostgreSQL share). What
// differs between engines lives behind this interface: the Qt SQL driver name, the connection
// options, the pragmas that make a file durable (WAL, synchronous, foreign keys), column types,
// how to recognise a foreign database, and how errors map to "disk full" / "read only".
//
// Two implementations: SQLite (projectdialectsqlite.cpp) and PostgreSQL through Qt's QPSQL driver
// (projectdialectpostgres.cpp); createProjectDialect() picks one by name, projectDialectFor() by
// the project's location (projectlocation.h).

#include <QSqlDatabase>
#include <QSqlError>
#include <QString>
#include <QStringList>

#include <memory>

class QSqlDatabase;

namespace folio {

struct ProjectLocation;

class ProjectDialect
{
public:
    virtual ~ProjectDialect() = default;

    virtual QString name() const = 0;        // "sqlite" | "postgresql"
    virtual QString driverName() const = 0;  // Qt SQL driver, e.g. "QSQLITE"

    // Starts a transaction that will write. SQLite takes the write lock at once (BEGIN IMMEDIATE):
    // a deferred transaction that read first could not wait for another writer and would fail
    // at its first write with "database is locked" whatever the busy timeout; this one waits.
    // False + *error (the driver's error) when it cannot start.
    virtual bool beginWrite(QSqlDatabase &db, QSqlError *error) const
    {
        if (db.transaction())
            return true;
        *error = db.lastError();
        return false;
    }

    // Checks, before any connection is opened, that `location` can hold a project (the file looks
    // like this engine's database, or does not exist yet). Returns an empty string when fine,
    // otherwise a message naming the problem. Never modifies anything.
    virtual QString precheckExisting(const QString &location) const = 0;

    // Sets database name, host, user, connect options... of `db` for `location`, read-write or
    // read-only (read-only use of a location that cannot be written may need a special form).
    virtual void configureConnection(QSqlDatabase &db, const ProjectLocation &location, bool readOnly) const = 0;
    // Whether a project is created in a temporary file renamed into place (files) or inside one
    // transaction of an existing database (servers, whose DDL is transactional).
    virtual bool isFileBased() const = 0;

    // Statements run once after connecting, before anything is read. Must not write to the
    // database (so a foreign or newer file stays untouched until it has been validated).
    virtual QStringList sessionStatements(bool readOnly) const = 0;
    // Statements that switch an already-validated project to its durable mode (WAL, ...). Run
    // after validation; may write the file header.
    virtual QStringList durabilityStatements() const = 0;

    // Marks a fresh database as a Folio project / reads that mark back (SQLite: application_id).
    virtual QStringList stampStatements() const = 0;
    // Returns true when the database carries this engine's Folio mark, or no mark and no tables
    // (an empty database being created). `*empty` tells which.
    virtual bool isFolioDatabase(QSqlDatabase &db, bool *empty, QString *error) const = 0;

    // Column types.
    virtual QString autoIdColumn() const = 0; // "INTEGER PRIMARY KEY AUTOINCREMENT" / "BIGSERIAL PRIMARY KEY"
    virtual QString blobType() const = 0;     // "BLOB" / "BYTEA"
    virtual QString realType() const = 0;     // "REAL" / "DOUBLE PRECISION"

    // Work queues (projectqueue.h). The server's clock as milliseconds since 1970 (an SQL
    // expression), so leases of workers on machines with skewed clocks compare on one clock; and
    // the clause that makes a SELECT lock the rows it returns while skipping rows another
    // transaction holds (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: empty, its write
    // transaction already excludes every other writer).
    virtual QString nowMillisSql() const = 0;
    virtual QString lockSkippingLockedSql() const = 0;

    // Cheap consistency check run when a project is opened; empty string when sound.
    virtual QString integrityCheck(QSqlDatabase &db) const = 0;

    // A human message for a failed statement: recognises disk full, read-only, locked and corrupt.
    virtual QString describeError(const QSqlError &error) const = 0;
    // True when the error means the connection is gone (server restarted, network): the project
    // reconnects before its next operation.
    virtual bool isConnectionLost(const QSqlError &error) const = 0;

    // Test hook: cap the database size (in pages) so "disk full" can be simulated. Returns false
    // when the engine cannot do it.
    virtual bool limitSizeForTesting(QSqlDatabase &db, int pages) const = 0;
};

// "sqlite" (the default) or "postgresql". Returns nullptr for an unknown name.
std::unique_ptr<ProjectDialect> createProjectDialect(const QString &name = QStringLiteral("sqlite"));
// The dialect for a parsed location.
std::unique_ptr<ProjectDialect> projectDialectFor(const ProjectLocation &location);

} // namespace folio
