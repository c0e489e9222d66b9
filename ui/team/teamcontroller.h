#pragma once
// TeamController: several people on one project in the GUI (issue 17). MainWindow composes it.
//
// - Who I am: Team > Sign In As… picks the project's user (remembered in QSettings "team/user";
//   otherwise Project::defaultUser(): $FOLIO_USER, $USER). Roles are checked by the store.
// - Presence: every poll writes a heartbeat for the open document and the status bar shows who
//   else is on it ("Also here: ann").
// - Refresh: every poll reads the project's change counter; when it moved, the document list is
//   refreshed, and when someone else saved the open document while this session has nothing
//   unsaved, the stored version is shown (status bar: who changed it).
// - Conflicts: a save refused as stale (AnnotationSession::conflicted) opens the merge view
//   (MergeDialog: theirs vs mine per item); the merge is saved on top of theirs, never over it.
// - Review: claim a document, submit it, accept it or send it back with a note, its history.
//
//   auto *team = new folio::TeamController(this, session, projects, documentList);
//   team->addMenu(menuBar());  statusBar()->addPermanentWidget(team->statusLabel());
// The polls are tiny queries on the GUI thread (one counter, one presence list): a few ms on
// SQLite, a round trip on PostgreSQL; every 3 s by default.
#include "document/project/project.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

class QLabel;
class QMainWindow;
class QMenuBar;
class QTimer;

namespace folio {

class AnnotationSession;
class DocumentListPanel;
class MergeDialog;
class ProjectService;

class TeamController : public QObject
{
    Q_OBJECT
public:
    TeamController(QMainWindow *window, AnnotationSession *session, ProjectService *projects, DocumentListPanel *list);

    void addMenu(QMenuBar *bar);
    QLabel *statusLabel() const { return m_label; }
    void setPollInterval(int ms);
    void pollNow();
    QStringList othersHere() const { return m_others; }
    MergeDialog *mergeDialog() const; // while the merge view is open

    // Team menu actions, also for scripts and tests; false (and a status-bar message) when refused.
    bool signInAs(const QString &user);
    bool claimCurrent();
    bool setCurrentReview(ReviewStatus status, const QString &note = QString());

Q_SIGNALS:
    void changedElsewhere(bool currentDocumentReloaded);
    void presenceChanged(const QStringList &othersHere);

private:
    void onProjectOpened();
    void onConflict(const SaveConflict &conflict, const QString &message);
    void openMergeView();
    void showHistory();
    void updateLabel();
    void message(const QString &text, int ms = 6000);
    Project *project() const;

    QMainWindow *m_window;
    AnnotationSession *m_session;
    ProjectService *m_projects;
    DocumentListPanel *m_list;
    QTimer *m_timer;
    QLabel *m_label;
    qint64 m_counter = -1;
    QStringList m_others;
    SaveConflict m_conflict;
    QPointer<MergeDialog> m_merge;
};

} // namespace folio
