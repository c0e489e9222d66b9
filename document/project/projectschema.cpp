// The project schema, one migration per version. A migration never edits an older one: a change
// to the schema is a new entry at the end of the list (and a test that opens the older file).
#include "document/project/projectschema.h"

#include "document/documentjson.h"
#include "document/project/projectdialect.h"

#include <QByteArray>
#include <QDateTime>
#include <QtEndian>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>
#include <QVariant>

namespace folio::detail {

static bool execAll(QSqlDatabase &db, const ProjectDialect &dialect, const QStringList &statements, QString *error)
{
    for (const QString &sql : statements) {
        QSqlQuery q(db);
        if (!q.exec(sql)) {
            *error = dialect.describeError(q.lastError());
            return false;
        }
    }
    return true;
}

// Version 1: documents with their JSON, status and ordering; annotations as JSON per document.
static bool migrateTo1(QSqlDatabase &db, const ProjectDialect &d, QString *error)
{
    return execAll(db, d,
                   {QStringLiteral("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, "
                                   "description TEXT NOT NULL, applied_at TEXT NOT NULL)"),
                    QStringLiteral("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
                    QStringLiteral("CREATE TABLE documents (id %1, position INTEGER NOT NULL, name TEXT NOT NULL, "
                                   "source_path TEXT NOT NULL, kind TEXT NOT NULL, "
                                   "status TEXT NOT NULL DEFAULT 'todo', uncertainty %2, "
                                   "document_json %3 NOT NULL, modified TEXT NOT NULL)")
                        .arg(d.autoIdColumn(), d.realType(), d.blobType()),
                    QStringLiteral("CREATE INDEX documents_position ON documents (position)"),
                    QStringLiteral("CREATE INDEX documents_source ON documents (source_path)"),
                    QStringLiteral("CREATE TABLE annotations (document_id INTEGER PRIMARY KEY "
                                   "REFERENCES documents (id) ON DELETE CASCADE, revision INTEGER NOT NULL, "
                                   "annotations_json %1 NOT NULL, modified TEXT NOT NULL)")
                        .arg(d.blobType())},
                   error);
}

// Version 2: one row per entity / link / field with its source and confidence, so counts and
// "suggestions of checkpoint X" are queries, not JSON scans. Back-filled from the JSON.
static bool migrateTo2(QSqlDatabase &db, const ProjectDialect &d, QString *error)
{
    if (!execAll(db, d,
                 {QStringLiteral("CREATE TABLE annotation_items (document_id INTEGER NOT NULL "
                                 "REFERENCES documents (id) ON DELETE CASCADE, kind TEXT NOT NULL, "
                                 "item_id TEXT NOT NULL, label TEXT NOT NULL, source TEXT NOT NULL, "
                                 "checkpoint TEXT NOT NULL, confidence %1 NOT NULL, state TEXT NOT NULL)")
                      .arg(d.realType()),
                  QStringLiteral("CREATE INDEX annotation_items_document ON annotation_items (document_id)")},
                 error))
        return false;
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT document_id, annotations_json FROM annotations"))) {
        *error = d.describeError(q.lastError());
        return false;
    }
    while (q.next()) {
        const qint64 id = q.value(0).toLongLong();
        Annotations a;
        QString parseError;
        QByteArray bytes;
        if (!unpackJson(q.value(1).toByteArray(), &bytes, &parseError)) {
            *error = QStringLiteral("annotations of document %1: %2").arg(id).arg(parseError);
            return false;
        }
        const QJsonObject o = QJsonDocument::fromJson(bytes).object();
        if (!annotationsFromJsonObject(o, &a, &parseError)) {
            *error = QStringLiteral("annotations of document %1: %2").arg(id).arg(parseError);
            return false;
        }
        if (!writeAnnotationItems(db, d, id, a, error))
            return false;
    }
    return true;
}

QByteArray packJson(const QByteArray &json) { return qCompress(json, 6); }

bool unpackJson(const QByteArray &stored, QByteArray *json, QString *error)
{
    if (stored.startsWith('{')) {
        *json = stored; // plain JSON (written before schema 3)
        return true;
    }
    if (stored.size() < 5) {
        *error = QStringLiteral("stored value is %1 bytes: neither JSON nor compressed JSON").arg(stored.size());
        return false;
    }
    const quint32 size = qFromBigEndian<quint32>(stored.constData());
    if (size > (quint32(1) << 30)) {
        *error = QStringLiteral("stored value claims %1 bytes (more than 1 GiB)").arg(size);
        return false;
    }
    *json = qUncompress(stored);
    if (json->isEmpty()) {
        *error = QStringLiteral("stored value is damaged (does not decompress)");
        return false;
    }
    return true;
}

// Version 3: document_json is stored compressed (packJson); existing rows are packed.
static bool packColumn(QSqlDatabase &db, const ProjectDialect &d, const char *table, const char *key, const char *column,
                       QString *error)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT %1, %2 FROM %3").arg(QLatin1String(key), QLatin1String(column), QLatin1String(table)))) {
        *error = d.describeError(q.lastError());
        return false;
    }
    std::vector<std::pair<qint64, QByteArray>> packed;
    while (q.next()) {
        const QByteArray stored = q.value(1).toByteArray();
        if (stored.startsWith('{'))
            packed.emplace_back(q.value(0).toLongLong(), packJson(stored));
    }
    QSqlQuery u(db);
    u.prepare(QStringLiteral("UPDATE %1 SET %2 = ? WHERE %3 = ?").arg(QLatin1String(table), QLatin1String(column), QLatin1String(key)));
    for (const auto &[id, bytes] : packed) {
        u.bindValue(0, bytes);
        u.bindValue(1, id);
        if (!u.exec()) {
            *error = d.describeError(u.lastError());
            return false;
        }
    }
    return true;
}

static bool migrateTo3(QSqlDatabase &db, const ProjectDialect &d, QString *error)
{
    return packColumn(db, d, "documents", "id", "document_json", error)
           && packColumn(db, d, "annotations", "document_id", "annotations_json", error);
}

// Version 4: several annotators. Users with roles, who has a document, review states, the
// who-changed-what history, who saved the stored annotations, and a change counter that every
// write bumps (clients poll it to refresh).
static bool migrateTo4(QSqlDatabase &db, const ProjectDialect &d, QString *error)
{
    return execAll(db, d,
                   {QStringLiteral("CREATE TABLE users (name TEXT PRIMARY KEY, role TEXT NOT NULL, added TEXT NOT NULL)"),
                    QStringLiteral("CREATE TABLE assignments (document_id INTEGER PRIMARY KEY REFERENCES documents (id) "
                                   "ON DELETE CASCADE, user_name TEXT NOT NULL, how TEXT NOT NULL, by_user TEXT NOT NULL, "
                                   "at TEXT NOT NULL)"),
                    QStringLiteral("CREATE INDEX assignments_user ON assignments (user_name)"),
                    QStringLiteral("CREATE TABLE reviews (document_id INTEGER PRIMARY KEY REFERENCES documents (id) "
                                   "ON DELETE CASCADE, state TEXT NOT NULL, by_user TEXT NOT NULL, note TEXT NOT NULL, "
                                   "at TEXT NOT NULL)"),
                    QStringLiteral("CREATE TABLE history (id %1, document_id INTEGER NOT NULL REFERENCES documents (id) "
                                   "ON DELETE CASCADE, revision INTEGER NOT NULL, user_name TEXT NOT NULL, "
                                   "action TEXT NOT NULL, detail TEXT NOT NULL, at TEXT NOT NULL)")
                        .arg(d.autoIdColumn()),
                    QStringLiteral("CREATE INDEX history_document ON history (document_id)"),
                    QStringLiteral("ALTER TABLE annotations ADD COLUMN modified_by TEXT NOT NULL DEFAULT ''"),
                    QStringLiteral("CREATE TABLE changes (id INTEGER PRIMARY KEY, counter BIGINT NOT NULL)"),
                    QStringLiteral("INSERT INTO changes (id, counter) VALUES (1, 0)")},
                   error);
}

// Version 5: each annotator's last saved annotations per document (agreement between two
// annotators of one document) and presence heartbeats.
static bool migrateTo5(QSqlDatabase &db, const ProjectDialect &d, QString *error)
{
    return execAll(db, d,
                   {QStringLiteral("CREATE TABLE annotator_versions (document_id INTEGER NOT NULL REFERENCES documents (id) "
                                   "ON DELETE CASCADE, user_name TEXT NOT NULL, revision INTEGER NOT NULL, "
                                   "annotations_json %1 NOT NULL, modified TEXT NOT NULL, "
                                   "PRIMARY KEY (document_id, user_name))")
                        .arg(d.blobType()),
                    QStringLiteral("CREATE TABLE presence (user_name TEXT PRIMARY KEY, document_id INTEGER, "
                                   "heartbeat TEXT NOT NULL)")},
                   error);
}

// Version 6: work queues shared by folio-cli workers on several machines (projectqueue.h). One
// row per queue (the command it runs) and one per input: its fingerprint at enqueue time, its
// state (pending | claimed | done | failed), who holds the claim and until when (server clock,
// ms since 1970), how many claims it has had, and the outcome (the worker's JSON line, packed).
static bool migrateTo6(QSqlDatabase &db, const ProjectDialect &d, QString *error)
{
    return execAll(db, d,
                   {QStringLiteral("CREATE TABLE queues (name TEXT PRIMARY KEY, command TEXT NOT NULL, "
                                   "created_by TEXT NOT NULL, created TEXT NOT NULL)"),
                    QStringLiteral("CREATE TABLE queue_items (id %1, queue_name TEXT NOT NULL REFERENCES queues (name) "
                                   "ON DELETE CASCADE, position BIGINT NOT NULL, input TEXT NOT NULL, "
                                   "size BIGINT NOT NULL, mtime_ms BIGINT NOT NULL, sha256 TEXT NOT NULL, "
                                   "state TEXT NOT NULL DEFAULT 'pending', claimed_by TEXT NOT NULL DEFAULT '', "
                                   "claim_token TEXT NOT NULL DEFAULT '', claim_expires BIGINT NOT NULL DEFAULT 0, "
                                   "attempts INTEGER NOT NULL DEFAULT 0, finished_by TEXT NOT NULL DEFAULT '', "
                                   "error TEXT NOT NULL DEFAULT '', result %2, finished TEXT NOT NULL DEFAULT '', "
                                   "UNIQUE (queue_name, input))")
                        .arg(d.autoIdColumn(), d.blobType()),
                    QStringLiteral("CREATE INDEX queue_items_state ON queue_items (queue_name, state, position)")},
                   error);
}

const std::vector<ProjectMigration> &projectMigrations()
{
    static const std::vector<ProjectMigration> migrations = {
        {1, "documents, status, annotations as JSON", &migrateTo1},
        {2, "annotation_items: per-item source and confidence", &migrateTo2},
        {3, "document_json and annotations_json stored zlib-compressed", &migrateTo3},
        {4, "users, assignments, reviews, history, modified_by, change counter", &migrateTo4},
        {5, "annotator versions and presence", &migrateTo5},
        {6, "work queues shared by folio-cli workers", &migrateTo6},
    };
    return migrations;
}

int latestProjectSchemaVersion() { return projectMigrations().back().version; }

bool readSchemaVersion(QSqlDatabase &db, const ProjectDialect &dialect, int *version, QString *error)
{
    *version = 0;
    if (!db.tables().contains(QStringLiteral("schema_version")))
        return true;
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT max(version) FROM schema_version"))) {
        *error = dialect.describeError(q.lastError());
        return false;
    }
    if (q.next())
        *version = q.value(0).toInt();
    return true;
}

bool migrateProject(QSqlDatabase &db, const ProjectDialect &dialect, int from, int to, QString *error)
{
    for (const ProjectMigration &m : projectMigrations()) {
        if (m.version <= from || m.version > to)
            continue;
        if (!m.apply(db, dialect, error)) {
            *error = QStringLiteral("migration to schema version %1 failed: %2").arg(m.version).arg(*error);
            return false;
        }
        QSqlQuery q(db);
        q.prepare(QStringLiteral("INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)"));
        q.addBindValue(m.version);
        q.addBindValue(QString::fromUtf8(m.description));
        q.addBindValue(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
        if (!q.exec()) {
            *error = dialect.describeError(q.lastError());
            return false;
        }
    }
    return true;
}

// A null QString binds as SQL NULL; the item columns are NOT NULL.
static QString nonNull(const QString &s) { return s.isNull() ? QStringLiteral("") : s; }

static QString sourceName(const AnnotationSource &s)
{
    return s.kind == AnnotationSource::User ? QStringLiteral("user") : QStringLiteral("model");
}

bool writeAnnotationItems(QSqlDatabase &db, const ProjectDialect &dialect, qint64 documentId,
                          const Annotations &a, QString *error)
{
    QSqlQuery del(db);
    del.prepare(QStringLiteral("DELETE FROM annotation_items WHERE document_id = ?"));
    del.addBindValue(documentId);
    if (!del.exec()) {
        *error = dialect.describeError(del.lastError());
        return false;
    }
    QSqlQuery ins(db);
    ins.prepare(QStringLiteral("INSERT INTO annotation_items (document_id, kind, item_id, label, source, "
                               "checkpoint, confidence, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
    auto add = [&](const char *kind, const QString &itemId, const QString &label, const AnnotationSource &src,
                   double confidence, ReviewState state) {
        ins.bindValue(0, documentId);
        ins.bindValue(1, QString::fromLatin1(kind));
        ins.bindValue(2, nonNull(itemId));
        ins.bindValue(3, nonNull(label));
        ins.bindValue(4, sourceName(src));
        ins.bindValue(5, nonNull(src.checkpoint));
        ins.bindValue(6, confidence);
        ins.bindValue(7, reviewStateName(state));
        if (!ins.exec()) {
            *error = dialect.describeError(ins.lastError());
            return false;
        }
        return true;
    };
    for (const Entity &e : a.entities)
        if (!add("entity", e.id, e.label, e.source, e.confidence, e.state))
            return false;
    for (const Link &l : a.links)
        if (!add("link", l.id, l.from + QLatin1String("->") + l.to, l.source, l.confidence, l.state))
            return false;
    for (const FieldValue &f : a.fields)
        if (!add("field", f.field, f.field, f.source, f.confidence, f.state))
            return false;
    return true;
}

} // namespace folio::detail
