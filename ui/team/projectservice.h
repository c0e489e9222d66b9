#pragma once
// ProjectService: owns the open Project (a .folio file) of the GUI and everything that changes
// it from outside the annotation session — opening / creating / closing projects, the default
// and the last-used project, adding documents, and putting engine results (a re-OCR'd region,
// the boxes of a rendered web page) into the current document through the AnnotationSession, so
// the undo history is kept and what the session shows is what is stored.
//
//   auto *session = new folio::AnnotationSession(this);
//   auto *projects = new folio::ProjectService(session, this);
//   connect(projects, &folio::ProjectService::projectOpened, ...);   // panels refresh
//   connect(projects, &folio::ProjectService::failed, ...);          // (title, message naming the file)
//   projects->ensureOpen();                        // the last project, else <AppData>/default.folio
//   const qint64 id = projects->addDocument(path, document, annotations); // and shows it
//
// A project whose file or folder is not writable opens read-only (listing, reading and export
// work; edits fail with a message). Nothing throws; every failure is a failed() signal and a
// false / -1 return.

#include "document/annotations.h"
#include "document/document.h"

#include <QObject>
#include <QPointer>

#include <memory>

namespace folio {

class AnnotationSession;
class Project;

class ProjectService : public QObject
{
    Q_OBJECT
public:
    explicit ProjectService(AnnotationSession *session, QObject *parent = nullptr);
    ~ProjectService() override;

    Project *project() const { return m_project.get(); }
    bool isOpen() const { return bool(m_project); }
    QString path() const;
    int documentCount() const;

    // <AppData>/default.folio (the folder is created).
    static QString defaultProjectPath();
    // The project used last (QSettings "project/last"); empty when unset or gone.
    static QString lastProjectPath();

    // Opens an existing project file or creates it when missing; the previous one is closed.
    // Also a PostgreSQL project: a postgresql:// URL or a .folio-pg connection file (an empty
    // database is made a project).
    bool open(const QString &path);
    // Creates a new project at `path`, replacing a file that is there (the caller asked first).
    bool create(const QString &path);
    // The last project when it still exists, else the default one.
    bool openLastOrDefault();
    // openLastOrDefault() unless a project is open.
    bool ensureOpen();
    void close();

    // The document imported from `path` (compared canonically: relative, absolute and symlinked
    // spellings of one file are one document); -1 when absent.
    qint64 findDocument(const QString &path) const;
    // Adds a loaded document (opening the project first when none is) and shows it. -1 on failure.
    qint64 addDocument(const QString &path, const Document &document, const Annotations &annotations);

    // A region of `documentId` was OCR'd again: the updated Document replaces the session's as
    // one undoable step (earlier edits stay undoable). Refused when another document is shown.
    bool applyRegionOcr(qint64 documentId, const Document &updated, int wordsAdded);
    // A rendered web page's boxes go into the current document (session and store).
    bool applyRenderedPage(const Document &withBoxes);

Q_SIGNALS:
    void projectOpened(const QString &path, int documentCount);
    void projectClosed();
    void documentAdded(qint64 id);
    void documentUpdated(qint64 id);
    void failed(const QString &title, const QString &message);

private:
    bool adopt(std::unique_ptr<Project> project);

    QPointer<AnnotationSession> m_session;
    std::unique_ptr<Project> m_project;
};

} // namespace folio
