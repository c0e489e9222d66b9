#pragma once
// Internal to the project store (document/project/*.cpp): the state behind a Project and the
// helpers every part of it uses (transactions, error messages, reconnecting, annotation writes).
#include "document/documentjson.h"
#include "document/project/project.h"
#include "document/project/projectdialect.h"
#include "document/project/projectlocation.h"
#include "document/project/projectschema.h"

#include <QAtomicInt>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace folio {

// A null QString binds as SQL NULL; the text columns are NOT NULL.
inline QString sqlText(const QString &s) { return s.isNull() ? QStringLiteral("") : s; }

inline QString projectNow() { return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs); }

struct Project::Private
{
    ProjectLocation location;
    QString path; // location.display: what messages name
    QString connectionName;
    QSqlDatabase db;
    std::unique_ptr<ProjectDialect> dialect;
    bool readOnly = false;
    int schemaVersion = 0;
    bool connectionLost = false; // a statement failed because the server went away
    QString user;                // who edits (history, versions, presence); Project::defaultUser()

    ~Private() { close(); }
    void close()
    {
        if (connectionName.isEmpty())
            return;
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(connectionName);
        connectionName.clear();
    }

    QString fail(const QString &what) const { return QStringLiteral("%1: %2").arg(path, what); }
    QString failSql(const QSqlQuery &q) { return failError(q.lastError()); }
    QString failError(const QSqlError &e)
    {
        if (dialect->isConnectionLost(e))
            connectionLost = true;
        return fail(dialect->describeError(e));
    }
    // Reconnects when the last statement lost the connection (a restarted server). False (with
    // a message) when the server is still unreachable.
    bool revive(QString *error)
    {
        if (!connectionLost)
            return true;
        close();
        if (!connect(error))
            return false;
        connectionLost = false;
        return true;
    }
    bool setError(QString *error, const QString &message) const
    {
        if (error)
            *error = message;
        return false;
    }

    bool begin(QString *error)
    {
        if (readOnly)
            return setError(error, fail(QStringLiteral("project is open read-only")));
        if (!revive(error))
            return false;
        QSqlError beginError;
        if (dialect->beginWrite(db, &beginError))
            return true;
        // The server may have restarted since the last statement: nothing is lost by
        // reconnecting before the transaction starts.
        const QString first = failError(beginError);
        if (!connectionLost)
            return setError(error, first);
        if (!revive(error))
            return false;
        if (!dialect->beginWrite(db, &beginError))
            return setError(error, failError(beginError));
        return true;
    }
    // Commits; changes of a schema-4 project bump the change counter (in the same transaction)
    // unless `bump` is false (heartbeats).
    bool commit(QString *error, bool bump = true)
    {
        if (bump && hasTeams()) {
            QSqlQuery q(db);
            if (!q.exec(QStringLiteral("UPDATE changes SET counter = counter + 1 WHERE id = 1")))
                return rollbackWith(error, failSql(q));
        }
        if (!db.commit()) {
            const QString message = failError(db.lastError());
            db.rollback();
            return setError(error, message);
        }
        return true;
    }
    bool rollbackWith(QString *error, const QString &message)
    {
        db.rollback();
        return setError(error, message);
    }

    bool connect(QString *error)
    {
        static QAtomicInt counter;
        connectionName = QStringLiteral("folio-project-%1").arg(counter.fetchAndAddRelaxed(1));
        db = QSqlDatabase::addDatabase(dialect->driverName(), connectionName);
        if (!db.isValid())
            return setError(error, fail(QStringLiteral("the Qt SQL driver %1 is not available (install %2)")
                                            .arg(dialect->driverName(),
                                                 dialect->isFileBased() ? QStringLiteral("libqt6sql6-sqlite")
                                                                        : QStringLiteral("libqt6sql6-psql"))));
        dialect->configureConnection(db, location, readOnly);
        if (!db.open())
            return setError(error, fail(dialect->describeError(db.lastError())));
        for (const QString &sql : dialect->sessionStatements(readOnly)) {
            QSqlQuery q(db);
            if (!q.exec(sql))
                return setError(error, failSql(q));
        }
        return true;
    }

    bool makeDurable(QString *error)
    {
        for (const QString &sql : dialect->durabilityStatements()) {
            QSqlQuery q(db);
            if (!q.exec(sql))
                return setError(error, failSql(q));
        }
        return true;
    }

    QByteArray annotationsJson(const Annotations &a) const
    {
        return detail::packJson(QJsonDocument(annotationsToJsonObject(a)).toJson(QJsonDocument::Compact));
    }

    qint64 insertDocument(const Document &doc, const Annotations &ann, const QString &name, QString *error)
    {
        QSqlQuery pos(db);
        if (!pos.exec(QStringLiteral("SELECT coalesce(max(position), 0) + 1 FROM documents")) || !pos.next()) {
            setError(error, failSql(pos));
            return -1;
        }
        const qint64 position = pos.value(0).toLongLong();
        const QString now = projectNow();
        QSqlQuery q(db);
        q.prepare(QStringLiteral("INSERT INTO documents (position, name, source_path, kind, status, document_json, "
                                 "modified) VALUES (?, ?, ?, ?, 'todo', ?, ?) RETURNING id"));
        q.addBindValue(position);
        q.addBindValue(name.isEmpty() ? QFileInfo(doc.sourcePath).fileName() : name);
        q.addBindValue(doc.sourcePath);
        q.addBindValue(sourceKindName(doc.kind));
        q.addBindValue(detail::packJson(documentToJson(doc, nullptr, /*indented=*/false)));
        q.addBindValue(now);
        if (!q.exec() || !q.next()) {
            setError(error, failSql(q));
            return -1;
        }
        const qint64 id = q.value(0).toLongLong();
        q.finish();
        if (!writeAnnotations(id, ann, error, QStringLiteral("add")))
            return -1;
        return id;
    }

    bool hasTeams() const { return schemaVersion >= 4; }

    // The stored annotations of a document and who saved them (revision 0: none stored).
    bool readAnnotations(qint64 id, Annotations *annotations, int *revision, QString *by, QDateTime *at,
                         QString *error) const;

    // Writes the annotations of document `id` (inside the caller's transaction): the JSON row
    // (revision + 1), the item rows, the history line (`action`: "add" | "save" | "import") and,
    // when `asVersion`, the acting user's version. `expected` >= 0: only when the stored revision
    // is still `expected`, else false with *conflict = true and nothing written.
    bool writeAnnotations(qint64 id, const Annotations &ann, QString *error, const QString &action = QStringLiteral("add"),
                          int expected = -1, bool *conflict = nullptr, bool asVersion = false);

    bool recordHistory(qint64 id, int revision, const QString &action, const QString &detail, QString *error);

    bool exists(qint64 id, QString *error)
    {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("SELECT 1 FROM documents WHERE id = ?"));
        q.addBindValue(id);
        if (!q.exec())
            return setError(error, failSql(q));
        if (!q.next())
            return setError(error, fail(QStringLiteral("no document with id %1").arg(id)));
        return true;
    }

    // UPDATE documents SET <column> = value WHERE id = ?, in its own transaction.
    // A history line ("status", "document", ...) is recorded when `action` is not empty.
    bool updateColumn(qint64 id, const char *column, const QVariant &value, QString *error,
                      const QString &action = QString(), const QString &detail = QString())
    {
        if (!begin(error))
            return false;
        QSqlQuery q(db);
        q.prepare(QStringLiteral("UPDATE documents SET %1 = ?, modified = ? WHERE id = ?").arg(QLatin1String(column)));
        q.addBindValue(value);
        q.addBindValue(projectNow());
        q.addBindValue(id);
        if (!q.exec())
            return rollbackWith(error, failSql(q));
        if (q.numRowsAffected() == 0)
            return rollbackWith(error, fail(QStringLiteral("no document with id %1").arg(id)));
        QString e;
        if (!action.isEmpty() && !recordHistory(id, 0, action, detail, &e))
            return rollbackWith(error, e);
        return commit(error);
    }
};

// "+2 entities, -1 entity, 1 relabelled; links +1" (projectteam.cpp); "no change" when equal.
QString annotationChangeSummary(const Annotations &before, const Annotations &after);

} // namespace folio
