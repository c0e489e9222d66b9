#pragma once
// Project: one `.folio` file holding a set of documents, their annotations and review status.
//
// Usage:
//   QString error;
//   auto project = folio::Project::create("/data/forms.folio", &error);   // or Project::open(...)
//   if (!project) { show(error); return; }
//   qint64 id = project->addDocument(doc, annotations, &error);            // -1 on failure
//   for (const folio::ProjectDocument &d : project->documents()) ...       // cheap: no JSON parsed
//   project->loadDocument(id, &doc, &annotations, &error);
//   project->saveAnnotations(id, edited, &error);   // one transaction, safe from a crash when it returns
//   project->setStatus(id, folio::DocumentStatus::Done, &error);
//
// Storage: SQLite through Qt SQL (WAL, synchronous=NORMAL: see projectdialectsqlite.cpp) or a PostgreSQL database (QPSQL), a
// schema_version table and ordered migrations (projectschema.cpp); all engine-specific SQL sits
// in the dialect (projectdialect.h). A PostgreSQL connection lost mid-session (server restart)
// fails the statement in flight with a message saying so and reconnects before the next one. The Document and the Annotations
// of a document are stored as their JSON form (documentjson.h); every entity/link/field is also
// indexed as a row (source, checkpoint, confidence, state) for queries and counts.
//
// Failure: every call returns false / -1 / an empty value and fills *error with a message that
// starts with the project path; the project is left as it was (each write is one transaction,
// an import's writes together are one: applyBatch).
//
// Read-only: Mode::ReadOnly opens with SQLite's read-only flag; when the file or its folder
// cannot be written (read-only media, permissions) it opens the file as immutable (no -wal/-shm
// files are needed), so list/status/export work there. A read-write project is checkpointed
// when closed, so its file alone holds everything (the state an immutable open reads).
// Creating refuses an existing file and writes to a temporary file renamed into place, so a
// half-created project never exists. Opening refuses corrupt or foreign files and newer schema
// versions without writing to them.
//
// Threading: a Project is used from the thread that created it (a Qt SQL connection rule). Not a
// QObject; move-only through std::unique_ptr.

#include "document/annotations.h"
#include "document/document.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace folio {

class ProjectDialect;
struct ProjectLocation;

enum class DocumentStatus { ToDo, InProgress, Done };
QString documentStatusName(DocumentStatus status);             // "todo" | "in-progress" | "done"
DocumentStatus documentStatusFromName(const QString &name, bool *ok = nullptr);

// One row of the document list (no Document JSON is parsed to produce it).
struct ProjectDocument
{
    qint64 id = -1;
    qint64 position = 0;        // user order
    QString name;               // display name (file name by default)
    QString sourcePath;
    SourceKind kind = SourceKind::Unknown;
    DocumentStatus status = DocumentStatus::ToDo;
    double uncertainty = -1;    // model uncertainty for active learning; -1 = not scored
    int entityCount = 0;        // accepted entities
    int suggestionCount = 0;    // model suggestions still to review
    int annotationRevision = 0; // bumps on every saveAnnotations
    QDateTime modified;
};

enum class DocumentOrder {
    Position,    // the user's order
    Uncertainty, // most uncertain first (unscored last), then position
};

// ---- several annotators (schema 4 and 5) ----
enum class UserRole { Annotator, Reviewer, Admin };
QString userRoleName(UserRole role);                            // "annotator" | "reviewer" | "admin"
UserRole userRoleFromName(const QString &name, bool *ok = nullptr);

enum class ReviewStatus { None, Submitted, Accepted, SentBack };
QString reviewStatusName(ReviewStatus status);                  // "none" | "submitted" | "accepted" | "sent-back"
ReviewStatus reviewStatusFromName(const QString &name, bool *ok = nullptr);

struct ProjectUser
{
    QString name;
    UserRole role = UserRole::Annotator;
};

// Who has a document: assigned by a reviewer/admin, or claimed by an annotator.
struct DocumentAssignment
{
    qint64 documentId = -1;
    QString user;   // empty: nobody
    QString how;    // "assigned" | "claimed"
    QString by;     // who assigned it
    QDateTime at;
};

struct DocumentReview
{
    ReviewStatus status = ReviewStatus::None;
    QString by;     // who submitted / accepted / sent back
    QString note;
    QDateTime at;
};

// One line of a document's who-changed-what history.
struct HistoryEntry
{
    qint64 documentId = -1;
    int revision = 0;  // the annotations' revision after the change (0: not an annotation change)
    QString user;
    QString action;    // "add" | "save" | "import" | "status" | "review" | "assign" | "claim" | "document"
    QString detail;    // e.g. "+2 entities, -1 entity, 1 relabelled; links +1"
    QDateTime at;
};

// Someone is looking at a document (a heartbeat refreshed every few seconds).
struct PresenceEntry
{
    QString user;
    qint64 documentId = -1;
    QDateTime heartbeat;
};

// A refused save: someone else saved the document after the editor loaded it.
struct SaveConflict
{
    qint64 documentId = -1;
    int baseRevision = 0;    // what the refused edit started from
    int storedRevision = 0;  // what is stored now
    QString changedBy;       // who saved the stored revision
    QDateTime changedAt;
};

// A document to add in bulk.
struct NewProjectDocument
{
    Document document;
    Annotations annotations;
    QString name; // empty: the source file name
};

// Several writes that succeed or fail together (an import): annotations of existing documents
// replaced (as the user's), then new documents added.
struct ProjectBatch
{
    std::vector<std::pair<qint64, Annotations>> annotationUpdates;
    std::vector<NewProjectDocument> newDocuments;
};

class Project
{
public:
    enum class Mode { ReadWrite, ReadOnly };

    static int currentSchemaVersion();

    // `path` is a project location (projectlocation.h): a .folio file, a postgresql:// URL or a
    // .folio-pg connection file.
    // Creates a new project. A file: fails when `path` exists or its folder is not writable. A
    // PostgreSQL database: it must exist and be empty (createdb NAME); filled in one transaction.
    static std::unique_ptr<Project> create(const QString &path, QString *error);
    // Opens an existing project, migrating an older schema (read-write only).
    static std::unique_ptr<Project> open(const QString &path, QString *error, Mode mode = Mode::ReadWrite);
    // open(), or create() when the file does not exist / the database is empty.
    static std::unique_ptr<Project> openOrCreate(const QString &path, QString *error);
    // Who edits, unless Project::setUser says otherwise: $FOLIO_USER, else $USER, else "user".
    static QString defaultUser();

    ~Project();
    Project(const Project &) = delete;
    Project &operator=(const Project &) = delete;

    QString path() const;   // the file, or the URL without its password, or the connection file
    QString backend() const; // "sqlite" | "postgresql"
    bool isReadOnly() const;
    int schemaVersion() const;

    // ---- documents ----
    qint64 addDocument(const Document &document, const Annotations &annotations, QString *error,
                       const QString &name = QString());
    // All in one transaction; returns false (and adds nothing) on any failure.
    bool addDocuments(const std::vector<NewProjectDocument> &documents, std::vector<qint64> *ids, QString *error);
    // One transaction for the whole batch: on any failure (a missing document, a full disk) the
    // project is left exactly as it was. `newIds` gets the ids of batch.newDocuments.
    bool applyBatch(const ProjectBatch &batch, std::vector<qint64> *newIds, QString *error);
    bool removeDocument(qint64 id, QString *error);

    std::vector<ProjectDocument> documents(DocumentOrder order = DocumentOrder::Position,
                                           QString *error = nullptr) const;
    bool documentInfo(qint64 id, ProjectDocument *info, QString *error) const;
    int documentCount() const;
    // Looks a document up by its source path; -1 when absent.
    qint64 findDocument(const QString &sourcePath) const;

    bool loadDocument(qint64 id, Document *document, Annotations *annotations, QString *error) const;
    bool loadAnnotations(qint64 id, Annotations *annotations, QString *error) const;

    // The annotations and their revision (0: never saved), in one read.
    bool loadAnnotations(qint64 id, Annotations *annotations, int *revision, QString *error) const;

    // One transaction; the annotations survive a crash of the application once this returns true
    // (SQLite: an OS crash or power loss may roll back the last commits). Recorded in the
    // history and as the acting user's version of the document (user()).
    bool saveAnnotations(qint64 id, const Annotations &annotations, QString *error);
    // Optimistic version check: saves only when the stored revision is still `baseRevision` (the
    // one the editor loaded). Otherwise nothing is written, *conflict says who changed it, and
    // *error reads "<project>: document 3 was changed by bob at ... (revision 5; your edit is based
    // on revision 4): reload it and merge". Also refused: an annotator saving a document assigned
    // to someone else.
    bool saveAnnotations(qint64 id, const Annotations &annotations, int baseRevision, SaveConflict *conflict,
                         QString *error);
    // Replaces the Document (e.g. after the user corrected a word's text).
    bool saveDocument(qint64 id, const Document &document, QString *error);
    bool setStatus(qint64 id, DocumentStatus status, QString *error);
    bool setUncertainty(qint64 id, double uncertainty, QString *error); // < 0 clears it
    bool setName(qint64 id, const QString &name, QString *error);

    // ---- project settings ----
    QStringList labels() const;                                   // the label set, in palette order
    bool setLabels(const QStringList &labels, QString *error);
    QString setting(const QString &key, const QString &fallback = QString()) const;
    bool setSetting(const QString &key, const QString &value, QString *error);

    // ---- several annotators (projectteam.cpp) ----
    // The acting user (history, versions, presence, role checks); defaultUser() unless set.
    QString user() const;
    void setUser(const QString &name);
    // A project without users is single-user: nothing is checked. Once users exist, adding or
    // removing users and assigning documents need an admin, accepting or sending back a review
    // needs a reviewer or an admin. The first user added must be an admin.
    std::vector<ProjectUser> users(QString *error = nullptr) const;
    bool addUser(const QString &name, UserRole role, QString *error); // also changes a role
    bool removeUser(const QString &name, QString *error);
    // The role of `name`; false when not a user of the project.
    bool userRole(const QString &name, UserRole *role) const;

    bool assignDocument(qint64 id, const QString &user, QString *error); // empty user: unassign
    // The acting user takes a document nobody has (or that is already theirs).
    bool claimDocument(qint64 id, QString *error);
    bool documentAssignment(qint64 id, DocumentAssignment *assignment, QString *error) const;
    // Documents assigned to / claimed by `user`.
    std::vector<qint64> documentsOf(const QString &user, QString *error = nullptr) const;

    // Submitted (by anyone who may edit it), accepted or sent back (reviewer / admin).
    bool setReview(qint64 id, ReviewStatus status, const QString &note, QString *error);
    bool documentReview(qint64 id, DocumentReview *review, QString *error) const;

    // Oldest first.
    std::vector<HistoryEntry> history(qint64 id, QString *error = nullptr) const;

    // Each user's last saved annotations of a document (for agreement between annotators).
    QStringList annotatorsOf(qint64 id, QString *error = nullptr) const;
    bool annotatorVersion(qint64 id, const QString &user, Annotations *annotations, QString *error) const;

    // Presence: the acting user is on document `id` (-1: on none); rows older than `staleSeconds`
    // are not listed.
    bool heartbeat(qint64 id, QString *error);
    bool leave(QString *error);
    std::vector<PresenceEntry> presence(int staleSeconds = 30, QString *error = nullptr) const;

    // Bumped by every committed change (not by heartbeats): poll it to refresh when someone else
    // changed the project. -1 on error.
    qint64 changeCounter() const;

    // ---- test hooks ----
    // Caps the database size so that writes fail as on a full disk.
    bool limitSizeForTesting(int pages);
    // Creates a project at an older schema version (to test migrations).
    static std::unique_ptr<Project> createAtVersionForTesting(const QString &path, int version, QString *error);

    struct Private; // projectprivate.h

private:
    friend class ProjectQueue; // projectqueue.h: work queues on the project's connection
    explicit Project(std::unique_ptr<Private> d);
    static QString createInDatabase(const ProjectLocation &location, int version);
    static std::unique_ptr<Project> createAt(const QString &path, int version, bool openCurrent, QString *error);
    static std::unique_ptr<Project> openWithoutMigrating(const QString &path, QString *error);
    std::unique_ptr<Private> d;
};

} // namespace folio
