#include "document/project/project.h"

#include "document/project/projectprivate.h"
#include "document/project/projectlocation.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

namespace folio {

QString documentStatusName(DocumentStatus status)
{
    switch (status) {
    case DocumentStatus::ToDo: return QStringLiteral("todo");
    case DocumentStatus::InProgress: return QStringLiteral("in-progress");
    case DocumentStatus::Done: return QStringLiteral("done");
    }
    return QStringLiteral("todo");
}

DocumentStatus documentStatusFromName(const QString &name, bool *ok)
{
    if (ok)
        *ok = true;
    if (name == QLatin1String("todo"))
        return DocumentStatus::ToDo;
    if (name == QLatin1String("in-progress"))
        return DocumentStatus::InProgress;
    if (name == QLatin1String("done"))
        return DocumentStatus::Done;
    if (ok)
        *ok = false;
    return DocumentStatus::ToDo;
}

Project::Project(std::unique_ptr<Private> dd) : d(std::move(dd)) {}
Project::~Project() = default;

int Project::currentSchemaVersion() { return detail::latestProjectSchemaVersion(); }

// Schema changes on a server database (creating the project, migrating it) take this lock for
// their transaction, so processes that start together (queue workers: "machine 2..n: join") wait
// for the first instead of racing it into a duplicate-key error; the waiter then finds the work
// done. The key is any constant of Folio's own.
static bool lockSchemaChanges(QSqlDatabase &db, QString *error)
{
    QSqlQuery q(db);
    if (q.exec(QStringLiteral("SELECT pg_advisory_xact_lock(7318420561)")))
        return true;
    *error = q.lastError().text();
    return false;
}

// A server database: filled inside one transaction (PostgreSQL's DDL is transactional), so it
// is either empty or a complete project. Emptiness is checked again under the schema lock: two
// processes creating at once make one project, the second finds it ("already exists").
QString Project::createInDatabase(const ProjectLocation &location, int version)
{
    auto p = std::make_unique<Project::Private>();
    p->location = location;
    p->path = location.display;
    p->dialect = projectDialectFor(location);
    QString e;
    if (!p->connect(&e))
        return e;
    bool empty = false;
    if (!p->dialect->isFolioDatabase(p->db, &empty, &e))
        return p->fail(QStringLiteral("the database is not empty: %1").arg(e));
    if (!empty)
        return p->fail(QStringLiteral("already exists (open it, or choose another database)"));
    if (!p->db.transaction())
        return p->failError(p->db.lastError());
    if (!lockSchemaChanges(p->db, &e)) {
        p->db.rollback();
        return p->fail(e);
    }
    if (!p->dialect->isFolioDatabase(p->db, &empty, &e) || !empty) {
        p->db.rollback();
        return e.isEmpty() ? p->fail(QStringLiteral("already exists (open it, or choose another database)"))
                           : p->fail(QStringLiteral("the database is not empty: %1").arg(e));
    }
    for (const QString &sql : p->dialect->stampStatements()) {
        QSqlQuery q(p->db);
        if (!q.exec(sql)) {
            e = p->failSql(q);
            p->db.rollback();
            return e;
        }
    }
    if (!detail::migrateProject(p->db, *p->dialect, 0, version, &e)) {
        p->db.rollback();
        return p->fail(e);
    }
    if (!p->db.commit()) {
        e = p->failError(p->db.lastError());
        p->db.rollback();
        return e;
    }
    return QString();
}

std::unique_ptr<Project> Project::createAt(const QString &path, int version, bool openCurrent, QString *error)
{
    auto setErr = [error](const QString &m) {
        if (error)
            *error = m;
        return std::unique_ptr<Project>();
    };
    ProjectLocation location;
    QString e;
    if (!parseProjectLocation(path, &location, &e))
        return setErr(e);
    if (location.kind == ProjectLocation::Kind::Postgres) {
        e = createInDatabase(location, version);
        if (!e.isEmpty())
            return setErr(e);
        return openCurrent ? open(path, error, Mode::ReadWrite) : openWithoutMigrating(path, error);
    }
    const QFileInfo info(path);
    if (info.exists())
        return setErr(QStringLiteral("%1: already exists (open it, or choose another name)").arg(path));
    const QDir dir = info.absoluteDir();
    if (!dir.exists())
        return setErr(QStringLiteral("%1: folder %2 does not exist").arg(path, dir.path()));

    // Build the project in a temporary file next to the target, then rename it into place: the
    // target path either does not exist or holds a complete project.
    const QString temp = QStringLiteral("%1.creating-%2").arg(info.absoluteFilePath()).arg(QCoreApplication::applicationPid());
    {
        QFile probe(temp);
        if (!probe.open(QIODevice::WriteOnly))
            return setErr(QStringLiteral("%1: cannot create a file in %2 (%3; read-only location?)")
                              .arg(path, dir.path(), probe.errorString()));
        probe.close();
        probe.remove();
    }
    {
        auto p = std::make_unique<Project::Private>();
        parseProjectLocation(temp, &p->location, nullptr);
        p->path = temp;
        p->dialect = createProjectDialect();
        bool ok = p->connect(&e);
        if (ok) {
            // Rollback-journal while building: the file is renamed afterwards, and a -wal file
            // would not follow the rename.
            ok = p->db.transaction();
            if (!ok)
                e = p->fail(p->dialect->describeError(p->db.lastError()));
        }
        if (ok) {
            for (const QString &sql : p->dialect->stampStatements()) {
                QSqlQuery q(p->db);
                if (!q.exec(sql)) {
                    e = p->failSql(q);
                    ok = false;
                    break;
                }
            }
        }
        if (ok && !detail::migrateProject(p->db, *p->dialect, 0, version, &e))
            ok = false;
        if (ok && !p->db.commit()) {
            e = p->fail(p->dialect->describeError(p->db.lastError()));
            ok = false;
        }
        p->close();
        if (!ok) {
            QFile::remove(temp);
            return setErr(e.replace(temp, path));
        }
    }
    if (!QFile::rename(temp, path)) {
        QFile::remove(temp);
        return setErr(QStringLiteral("%1: could not move the new project into place").arg(path));
    }
    return openCurrent ? open(path, error, Mode::ReadWrite) : openWithoutMigrating(path, error);
}

std::unique_ptr<Project> Project::create(const QString &path, QString *error)
{
    return createAt(path, currentSchemaVersion(), /*openCurrent=*/true, error);
}

std::unique_ptr<Project> Project::createAtVersionForTesting(const QString &path, int version, QString *error)
{
    return createAt(path, version, /*openCurrent=*/false, error);
}

// Opens the old schema as it is (the migration tests need a project at an older version).
std::unique_ptr<Project> Project::openWithoutMigrating(const QString &path, QString *error)
{
    auto d = std::make_unique<Private>();
    if (!parseProjectLocation(path, &d->location, error))
        return nullptr;
    d->path = d->location.display;
    d->dialect = projectDialectFor(d->location);
    d->user = defaultUser();
    if (!d->connect(error) || !d->makeDurable(error))
        return nullptr;
    if (!detail::readSchemaVersion(d->db, *d->dialect, &d->schemaVersion, error))
        return nullptr;
    return std::unique_ptr<Project>(new Project(std::move(d)));
}

std::unique_ptr<Project> Project::open(const QString &path, QString *error, Mode mode)
{
    auto d = std::make_unique<Private>();
    d->readOnly = mode == Mode::ReadOnly;
    auto setErr = [error](const QString &m) {
        if (error)
            *error = m;
        return std::unique_ptr<Project>();
    };
    QString e;
    if (!parseProjectLocation(path, &d->location, &e))
        return setErr(e);
    d->path = d->location.display;
    d->dialect = projectDialectFor(d->location);
    d->user = defaultUser();
    if (d->dialect->isFileBased()) {
        if (!QFileInfo::exists(path))
            return setErr(QStringLiteral("%1: no such project file").arg(path));
        const QString pre = d->dialect->precheckExisting(path);
        if (!pre.isEmpty())
            return setErr(pre);
    }
    if (!d->connect(&e))
        return setErr(e);
    bool empty = false;
    if (!d->dialect->isFolioDatabase(d->db, &empty, &e))
        return setErr(d->fail(QStringLiteral("not a Folio project: %1").arg(e)));
    if (empty)
        return setErr(d->fail(QStringLiteral("not a Folio project: the database is empty (make it one with "
                                             "`folio-cli project create %1`)")
                                  .arg(d->path)));
    int version = 0;
    if (!detail::readSchemaVersion(d->db, *d->dialect, &version, &e))
        return setErr(d->fail(e));
    if (version <= 0)
        return setErr(d->fail(QStringLiteral("not a Folio project: no schema version")));
    const int latest = currentSchemaVersion();
    if (version > latest)
        return setErr(d->fail(QStringLiteral("schema version %1 is newer than this Folio supports (%2); "
                                             "open it with a newer Folio")
                                  .arg(version)
                                  .arg(latest)));
    const QString integrity = d->dialect->integrityCheck(d->db);
    if (!integrity.isEmpty())
        return setErr(d->fail(integrity));
    if (version < latest) {
        if (d->readOnly)
            return setErr(d->fail(QStringLiteral("schema version %1 needs an upgrade to %2; open it read-write")
                                      .arg(version)
                                      .arg(latest)));
        // All migrations in one transaction: a failure leaves the file at its old version.
        QSqlError beginError;
        if (!d->dialect->beginWrite(d->db, &beginError))
            return setErr(d->fail(d->dialect->describeError(beginError)));
        // A server database: another process may be migrating it right now; wait for it, then
        // migrate from the version it left.
        if (!d->dialect->isFileBased()
            && (!lockSchemaChanges(d->db, &e) || !detail::readSchemaVersion(d->db, *d->dialect, &version, &e))) {
            d->db.rollback();
            return setErr(d->fail(e));
        }
        if (version < latest && !detail::migrateProject(d->db, *d->dialect, version, latest, &e)) {
            d->db.rollback();
            return setErr(d->fail(e));
        }
        if (!d->db.commit()) {
            e = d->dialect->describeError(d->db.lastError());
            d->db.rollback();
            return setErr(d->fail(e));
        }
        version = latest;
    }
    if (!d->readOnly && !d->makeDurable(&e))
        return setErr(e);
    d->schemaVersion = version;
    return std::unique_ptr<Project>(new Project(std::move(d)));
}

QString Project::path() const { return d->path; }
QString Project::backend() const { return d->dialect->name(); }

QString Project::defaultUser()
{
    for (const char *var : {"FOLIO_USER", "USER", "LOGNAME"}) {
        const QString v = qEnvironmentVariable(var).trimmed();
        if (!v.isEmpty())
            return v;
    }
    return QStringLiteral("user");
}

std::unique_ptr<Project> Project::openOrCreate(const QString &path, QString *error)
{
    ProjectLocation location;
    if (!parseProjectLocation(path, &location, error))
        return nullptr;
    if (location.kind == ProjectLocation::Kind::File)
        return QFileInfo::exists(path) ? open(path, error) : create(path, error);
    QString openError;
    auto p = open(path, &openError);
    if (p)
        return p;
    if (!isEmptyDatabaseError(openError)) {
        if (error)
            *error = openError;
        return nullptr;
    }
    QString createError;
    if (auto created = create(path, &createError))
        return created;
    // Another process made it a project between our look and our create (two queue workers
    // started together): open theirs.
    if (auto theirs = open(path, &openError))
        return theirs;
    if (error)
        *error = createError;
    return nullptr;
}
bool Project::isReadOnly() const { return d->readOnly; }
int Project::schemaVersion() const { return d->schemaVersion; }

qint64 Project::addDocument(const Document &document, const Annotations &annotations, QString *error,
                            const QString &name)
{
    std::vector<NewProjectDocument> one(1);
    one[0].document = document;
    one[0].annotations = annotations;
    one[0].name = name;
    std::vector<qint64> ids;
    if (!addDocuments(one, &ids, error))
        return -1;
    return ids.front();
}

bool Project::addDocuments(const std::vector<NewProjectDocument> &documents, std::vector<qint64> *ids, QString *error)
{
    ProjectBatch batch;
    batch.newDocuments = documents;
    return applyBatch(batch, ids, error);
}

bool Project::applyBatch(const ProjectBatch &batch, std::vector<qint64> *newIds, QString *error)
{
    if (!d->begin(error))
        return false;
    QString e;
    for (const auto &[id, annotations] : batch.annotationUpdates)
        if (!d->exists(id, &e) || !d->writeAnnotations(id, annotations, &e, QStringLiteral("import")))
            return d->rollbackWith(error, e);
    std::vector<qint64> added;
    for (const NewProjectDocument &nd : batch.newDocuments) {
        const qint64 id = d->insertDocument(nd.document, nd.annotations, nd.name, &e);
        if (id < 0)
            return d->rollbackWith(error, e);
        added.push_back(id);
    }
    if (!d->commit(error))
        return false;
    if (newIds)
        *newIds = std::move(added);
    return true;
}

bool Project::removeDocument(qint64 id, QString *error)
{
    if (!d->begin(error))
        return false;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("DELETE FROM documents WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return d->rollbackWith(error, d->failSql(q));
    if (q.numRowsAffected() == 0)
        return d->rollbackWith(error, d->fail(QStringLiteral("no document with id %1").arg(id)));
    return d->commit(error);
}

static const char *kListColumns =
    "SELECT d.id, d.position, d.name, d.source_path, d.kind, d.status, d.uncertainty, d.modified, "
    "coalesce(a.revision, 0), "
    "(SELECT count(*) FROM annotation_items i WHERE i.document_id = d.id AND i.kind = 'entity' AND i.state = 'accepted'), "
    "(SELECT count(*) FROM annotation_items i WHERE i.document_id = d.id AND i.state = 'suggested') "
    "FROM documents d LEFT JOIN annotations a ON a.document_id = d.id ";

static ProjectDocument rowToInfo(const QSqlQuery &q)
{
    ProjectDocument p;
    p.id = q.value(0).toLongLong();
    p.position = q.value(1).toLongLong();
    p.name = q.value(2).toString();
    p.sourcePath = q.value(3).toString();
    p.kind = sourceKindFromName(q.value(4).toString());
    p.status = documentStatusFromName(q.value(5).toString());
    p.uncertainty = q.value(6).isNull() ? -1.0 : q.value(6).toDouble();
    p.modified = QDateTime::fromString(q.value(7).toString(), Qt::ISODateWithMs);
    p.annotationRevision = q.value(8).toInt();
    p.entityCount = q.value(9).toInt();
    p.suggestionCount = q.value(10).toInt();
    return p;
}

std::vector<ProjectDocument> Project::documents(DocumentOrder order, QString *error) const
{
    std::vector<ProjectDocument> out;
    if (!d->revive(error))
        return out;
    QSqlQuery q(d->db);
    q.setForwardOnly(true);
    const QString orderBy = order == DocumentOrder::Uncertainty
                                ? QStringLiteral("ORDER BY (d.uncertainty IS NULL), d.uncertainty DESC, d.position, d.id")
                                : QStringLiteral("ORDER BY d.position, d.id");
    if (!q.exec(QLatin1String(kListColumns) + orderBy)) {
        d->setError(error, d->failSql(q));
        return out;
    }
    while (q.next())
        out.push_back(rowToInfo(q));
    return out;
}

bool Project::documentInfo(qint64 id, ProjectDocument *info, QString *error) const
{
    if (!d->revive(error))
        return false;
    QSqlQuery q(d->db);
    q.prepare(QLatin1String(kListColumns) + QStringLiteral("WHERE d.id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return d->setError(error, d->failSql(q));
    if (!q.next())
        return d->setError(error, d->fail(QStringLiteral("no document with id %1").arg(id)));
    *info = rowToInfo(q);
    return true;
}

int Project::documentCount() const
{
    if (!d->revive(nullptr))
        return 0;
    QSqlQuery q(d->db);
    if (!q.exec(QStringLiteral("SELECT count(*) FROM documents")) || !q.next())
        return 0;
    return q.value(0).toInt();
}

qint64 Project::findDocument(const QString &sourcePath) const
{
    if (!d->revive(nullptr))
        return -1;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("SELECT id FROM documents WHERE source_path = ? ORDER BY id"));
    q.addBindValue(sourcePath);
    if (!q.exec() || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

bool Project::loadDocument(qint64 id, Document *document, Annotations *annotations, QString *error) const
{
    if (!d->revive(error))
        return false;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("SELECT document_json FROM documents WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return d->setError(error, d->failSql(q));
    if (!q.next())
        return d->setError(error, d->fail(QStringLiteral("no document with id %1").arg(id)));
    QString e;
    QByteArray json;
    if (document && (!detail::unpackJson(q.value(0).toByteArray(), &json, &e)
                     || !documentFromJson(json, document, nullptr, &e)))
        return d->setError(error, d->fail(QStringLiteral("document %1: %2").arg(id).arg(e)));
    return annotations ? loadAnnotations(id, annotations, error) : true;
}

bool Project::loadAnnotations(qint64 id, Annotations *annotations, QString *error) const
{
    return loadAnnotations(id, annotations, nullptr, error);
}

bool Project::loadAnnotations(qint64 id, Annotations *annotations, int *revision, QString *error) const
{
    if (!d->revive(error))
        return false;
    return d->readAnnotations(id, annotations, revision, nullptr, nullptr, error);
}

bool Project::saveAnnotations(qint64 id, const Annotations &annotations, QString *error)
{
    return saveAnnotations(id, annotations, -1, nullptr, error);
}

bool Project::saveAnnotations(qint64 id, const Annotations &annotations, int baseRevision, SaveConflict *conflict,
                              QString *error)
{
    if (!d->begin(error))
        return false;
    QString e;
    if (!d->exists(id, &e))
        return d->rollbackWith(error, e);
    if (d->hasTeams()) {
        // An annotator does not edit a document someone else has.
        UserRole role;
        DocumentAssignment who;
        if (userRole(d->user, &role) && role == UserRole::Annotator && documentAssignment(id, &who, &e)
            && !who.user.isEmpty() && who.user != d->user)
            return d->rollbackWith(error, d->fail(QStringLiteral("document %1 is %2 %3, not to you (%4)")
                                                      .arg(id)
                                                      .arg(who.how == QLatin1String("claimed") ? QStringLiteral("claimed by")
                                                                                             : QStringLiteral("assigned to"),
                                                           who.user, d->user)));
    }
    bool stale = false;
    if (!d->writeAnnotations(id, annotations, &e, QStringLiteral("save"), baseRevision, &stale, /*asVersion=*/true)) {
        if (!stale)
            return d->rollbackWith(error, e);
        d->db.rollback();
        SaveConflict c;
        c.documentId = id;
        c.baseRevision = baseRevision;
        d->readAnnotations(id, nullptr, &c.storedRevision, &c.changedBy, &c.changedAt, nullptr);
        if (conflict)
            *conflict = c;
        return d->setError(error, d->fail(QStringLiteral("document %1 was changed by %2 at %3 (revision %4; your edit is "
                                                         "based on revision %5): reload it and merge your changes")
                                              .arg(id)
                                              .arg(c.changedBy.isEmpty() ? QStringLiteral("someone") : c.changedBy,
                                                   c.changedAt.toLocalTime().toString(Qt::ISODate))
                                              .arg(c.storedRevision)
                                              .arg(baseRevision)));
    }
    return d->commit(error);
}

bool Project::saveDocument(qint64 id, const Document &document, QString *error)
{
    return d->updateColumn(id, "document_json", detail::packJson(documentToJson(document, nullptr, /*indented=*/false)),
                           error, QStringLiteral("document"), QStringLiteral("words or boxes corrected"));
}

bool Project::setStatus(qint64 id, DocumentStatus status, QString *error)
{
    return d->updateColumn(id, "status", documentStatusName(status), error, QStringLiteral("status"),
                           documentStatusName(status));
}

bool Project::setUncertainty(qint64 id, double uncertainty, QString *error)
{
    return d->updateColumn(id, "uncertainty", uncertainty < 0 ? QVariant() : QVariant(uncertainty), error);
}

bool Project::setName(qint64 id, const QString &name, QString *error)
{
    return d->updateColumn(id, "name", name, error);
}

QStringList Project::labels() const
{
    const QString text = setting(QStringLiteral("labels"));
    return text.isEmpty() ? QStringList() : text.split(QLatin1Char('\n'));
}

bool Project::setLabels(const QStringList &labels, QString *error)
{
    for (const QString &l : labels)
        if (l.isEmpty() || l.contains(QLatin1Char('\n')))
            return d->setError(error, d->fail(QStringLiteral("invalid label name \"%1\"").arg(l)));
    return setSetting(QStringLiteral("labels"), labels.join(QLatin1Char('\n')), error);
}

QString Project::setting(const QString &key, const QString &fallback) const
{
    if (!d->revive(nullptr))
        return fallback;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("SELECT value FROM settings WHERE key = ?"));
    q.addBindValue(key);
    if (!q.exec() || !q.next())
        return fallback;
    return q.value(0).toString();
}

bool Project::setSetting(const QString &key, const QString &value, QString *error)
{
    if (!d->begin(error))
        return false;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("INSERT INTO settings (key, value) VALUES (?, ?) "
                             "ON CONFLICT (key) DO UPDATE SET value = excluded.value"));
    q.addBindValue(key);
    q.addBindValue(value);
    if (!q.exec())
        return d->rollbackWith(error, d->failSql(q));
    return d->commit(error);
}

bool Project::limitSizeForTesting(int pages) { return d->dialect->limitSizeForTesting(d->db, pages); }

} // namespace folio
