// The SQLite dialect of the project store: the only file with SQLite-specific SQL.
#include "document/project/projectdialect.h"
#include "document/project/projectlocation.h"
#include "common/regularfile.h"

#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QUrl>
#include <QVariant>

namespace folio {

// "FOLI" as a big-endian int: PRAGMA application_id marks a database as a Folio project, so a
// foreign SQLite file (a browser history, another app's store) is recognised before it is touched.
static const int kFolioApplicationId = 0x464F4C49;

class SqliteProjectDialect : public ProjectDialect
{
public:
    QString name() const override { return QStringLiteral("sqlite"); }
    QString driverName() const override { return QStringLiteral("QSQLITE"); }

    QString precheckExisting(const QString &location) const override
    {
        QFileInfo info(location);
        if (!info.exists())
            return {};
        if (info.isDir())
            return QStringLiteral("%1: is a directory, not a Folio project").arg(location);
        // A FIFO would block the open, a device never end it (issue 51): named, never opened.
        std::string notAFile;
        if (regularFileSize(QFile::encodeName(location).toStdString(), -1, "the project file", &notAFile) < 0)
            return QFile::decodeName(QByteArray::fromStdString(notAFile));
        QFile f(location);
        if (!f.open(QIODevice::ReadOnly))
            return QStringLiteral("%1: cannot read (%2)").arg(location, f.errorString());
        const QByteArray head = f.read(16);
        if (head.size() == 0)
            return QStringLiteral("%1: empty file, not a Folio project").arg(location);
        if (head != QByteArray("SQLite format 3\0", 16))
            return QStringLiteral("%1: not a Folio project (not an SQLite database; corrupt or foreign file)")
                .arg(location);
        return {};
    }

    bool isFileBased() const override { return true; }

    bool beginWrite(QSqlDatabase &db, QSqlError *error) const override
    {
        QSqlQuery q(db);
        if (q.exec(QStringLiteral("BEGIN IMMEDIATE")))
            return true;
        *error = q.lastError();
        return false;
    }

    void configureConnection(QSqlDatabase &db, const ProjectLocation &location, bool readOnly) const override
    {
        db.setDatabaseName(databaseName(location.filePath, readOnly));
        db.setConnectOptions(connectOptions(readOnly));
    }

    QString connectOptions(bool readOnly) const
    {
        // Busy timeout: a second Folio (or folio-cli) on the same project waits instead of failing.
        return readOnly ? QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI;QSQLITE_BUSY_TIMEOUT=5000")
                        : QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000");
    }

    QString databaseName(const QString &location, bool readOnly) const
    {
        const QFileInfo file(location);
        const QFileInfo folder(file.absolutePath());
        if (!readOnly || (file.isWritable() && folder.isWritable()))
            return location;
        // A WAL database opened read-only still needs its -shm (and -wal) files, which cannot be
        // created on read-only media ("unable to open database file"). Nothing can write there,
        // so the file is opened as immutable: no locks, no -shm. A project closed by Folio has
        // its WAL checkpointed into the file (SQLite does it when the last connection closes).
        return QUrl::fromLocalFile(file.absoluteFilePath()).toString(QUrl::FullyEncoded) + QStringLiteral("?immutable=1");
    }

    QStringList sessionStatements(bool) const override
    {
        return {QStringLiteral("PRAGMA foreign_keys = ON")};
    }

    QStringList durabilityStatements() const override
    {
        // WAL: readers never block the writer, a commit is one append. synchronous=NORMAL: a
        // commit is in the WAL file when it returns, so it survives the application crashing or
        // being killed; only a power loss or an operating-system crash can roll back the last
        // commits (never corrupt the file: the WAL is fsynced at each checkpoint). FULL would fsync
        // every commit, and an annotation edit is saved from the GUI thread: on a busy disk one
        // fsync took 30-180 ms there (issue 34, FOLIO_STALL_TRACE), over the 50 ms a click may take.
        return {QStringLiteral("PRAGMA journal_mode = WAL"), QStringLiteral("PRAGMA synchronous = NORMAL")};
    }

    QStringList stampStatements() const override
    {
        return {QStringLiteral("PRAGMA application_id = %1").arg(kFolioApplicationId)};
    }

    bool isFolioDatabase(QSqlDatabase &db, bool *empty, QString *error) const override
    {
        *empty = false;
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("PRAGMA application_id")) || !q.next()) {
            *error = describeError(q.lastError());
            return false;
        }
        const int appId = q.value(0).toInt();
        if (appId == kFolioApplicationId)
            return true;
        QSqlQuery t(db);
        if (!t.exec(QStringLiteral("SELECT count(*) FROM sqlite_master")) || !t.next()) {
            *error = describeError(t.lastError());
            return false;
        }
        if (appId == 0 && t.value(0).toInt() == 0) {
            *empty = true;
            return true;
        }
        *error = QStringLiteral("an SQLite database of another application (application_id %1, %2 tables)")
                     .arg(appId)
                     .arg(t.value(0).toInt());
        return false;
    }

    QString autoIdColumn() const override { return QStringLiteral("INTEGER PRIMARY KEY AUTOINCREMENT"); }
    QString blobType() const override { return QStringLiteral("BLOB"); }
    QString realType() const override { return QStringLiteral("REAL"); }
    QString nowMillisSql() const override
    {
        return QStringLiteral("CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)");
    }
    // Writes run in BEGIN IMMEDIATE transactions: one writer at a time, so no row lock is needed.
    QString lockSkippingLockedSql() const override { return QString(); }

    QString integrityCheck(QSqlDatabase &db) const override
    {
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("PRAGMA quick_check(1)")) || !q.next())
            return describeError(q.lastError());
        const QString r = q.value(0).toString();
        return r == QLatin1String("ok") ? QString() : QStringLiteral("database is damaged (%1)").arg(r);
    }

    QString describeError(const QSqlError &error) const override
    {
        const int code = error.nativeErrorCode().toInt() & 0xff; // primary result code
        const QString text = error.text();
        switch (code) {
        case 13: return QStringLiteral("disk full (%1)").arg(text);                         // SQLITE_FULL
        case 8: return QStringLiteral("read-only location or file (%1)").arg(text);         // SQLITE_READONLY
        case 5: case 6: return QStringLiteral("project is locked by another process (%1)").arg(text);
        case 11: case 26: return QStringLiteral("corrupt or foreign file (%1)").arg(text);  // CORRUPT, NOTADB
        case 14: return QStringLiteral("cannot open the file (%1)").arg(text);              // CANTOPEN
        case 10: return QStringLiteral("I/O error (%1)").arg(text);                         // IOERR
        default: break;
        }
        if (text.contains(QLatin1String("full"), Qt::CaseInsensitive))
            return QStringLiteral("disk full (%1)").arg(text);
        return text.isEmpty() ? QStringLiteral("unknown database error") : text;
    }

    bool isConnectionLost(const QSqlError &) const override { return false; } // a file does not go away

    bool limitSizeForTesting(QSqlDatabase &db, int pages) const override
    {
        QSqlQuery q(db);
        return q.exec(QStringLiteral("PRAGMA max_page_count = %1").arg(pages));
    }
};

std::unique_ptr<ProjectDialect> createSqliteProjectDialect() { return std::make_unique<SqliteProjectDialect>(); }

} // namespace folio
