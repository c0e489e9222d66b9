#pragma once
// LabellingLoop: the labelling loop in the GUI (issue 47). While the user labels a project, after
// every N newly accepted pages (Mark Done; the project setting Model > Retrain in the Background,
// off unless chosen, 5 suggested) the tagger retrains off the GUI thread (RetrainWorker) from the
// current model (Folio's tagger, or a LayoutLMv3 / LiLT / LayoutLMv2 token classifier) on a snapshot
// of the accepted pages that the worker reads through its own connection to the project (the window
// never waits for them to load), is scored against the current one on the
// project's held-out pages (chosen and remembered once there are enough, loopsnapshot.h) and takes
// over only when it scores better, through ModelHistory (Go Back to Previous Model undoes it). The
// status bar says what happened ("model updated: F1 61.2 → 66.8 on 8 held-out pages", "model kept:
// ...", the labels it learnt new, how many pages are still needed, a failure or a cancel: the
// previous model stays). The run never touches the session, so edits made meanwhile stay.
// After a model update the pages not yet accepted get the new model's uncertainty (the Documents
// list's "Most uncertain first") and the new model's suggestions, computed by the worker and stored
// a few pages per event-loop turn, each only when nobody changed that page since the worker read it
// (the user's own entities stay). A page open at the time, or changed meanwhile, is marked stale
// instead and suggested again with the new model when the user opens it (one undoable step).
//
//   auto *loop = new folio::LabellingLoop(window, session, projects, hooks);
//   loop->addMenu(modelMenu);                        // the setting, Retrain Now, Cancel
//   statusBar()->addPermanentWidget(loop->statusLabel());
#include "document/annotations.h"
#include "pipeline/labelling/projectretrain.h"

#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>

#include <functional>
#include <vector>

class QAction;
class QActionGroup;
class QLabel;
class QMenu;

namespace folio {

class AnnotationSession;
class ModelWorker;
class ProjectService;
class RetrainWorker;
struct RetrainSnapshotInfo;

class LabellingLoop : public QObject
{
    Q_OBJECT
public:
    struct Hooks
    {
        std::function<QString()> currentModel;                  // the window's model folder
        std::function<void(const QString &)> useModel;          // a better model takes over (ModelHistory::replace)
        std::function<void(const QString &, int)> showMessage;  // the status line, for ms
    };

    LabellingLoop(QObject *parent, AnnotationSession *session, ProjectService *projects, Hooks hooks);
    ~LabellingLoop() override;

    // "Retrain in the Background" submenu: Off / every 2, 5, 10, 20 accepted pages, Retrain Now, Cancel.
    QMenu *addMenu(QMenu *parent);
    QLabel *statusLabel() const; // shown while a run is in flight

    // The open project's setting (0: off). False without a project or when it cannot be stored.
    int everyPages() const;
    bool setEveryPages(int pages);

    bool isRunning() const;
    int acceptedSinceLastRun() const { return int(m_acceptedSince.size()); }
    QString lastMessage() const { return m_lastMessage; }
    // Documents whose suggestions came from an older model; re-suggested when opened.
    QSet<qint64> staleDocuments() const { return m_stale; }

    // Starts a background run now: the worker reads the pages (started() when there are enough,
    // notStarted() with how many are missing), then trains. False (and the status line says why)
    // without a project, with a model it cannot start from, or with a run in flight.
    bool retrainNow();
    void cancel();

    // Tests: the run's size (epochs, steps, a from-scratch model's hidden size and layers, threads).
    void setTrainingOptions(const labelling::ProjectRetrainConfig &options) { m_options = options; }
    // Tests: runs on the worker thread once it has listed the project's documents.
    void setAfterListingForTesting(std::function<void()> hook) { m_afterListing = std::move(hook); }
    // Tests: GUI-thread time of the last run's start (retrainNow) and of taking its snapshot's
    // result (onSnapshotRead), and the worker's reading time, in ms.
    double lastStartMs() const { return m_startMs; }
    double lastSnapshotHandlingMs() const { return m_snapshotMs; }
    double lastReadMs() const { return m_readMs; }
    // Tests: GUI-thread time spent storing the new model's uncertainties and suggestions (all turns
    // together, and the longest turn), in ms.
    double lastStoreMs() const { return m_storeMs; }
    double longestStoreTurnMs() const { return m_maxSliceMs; }

Q_SIGNALS:
    void started(int trainPages, int heldOutPages);
    void notStarted(const QString &message); // too few accepted pages, or the project could not be read
    void finished(const QString &message, bool modelUpdated);
    void suggestionsStored(int pages); // the new model's suggestions written to pages not yet opened
    void uncertaintiesUpdated(); // the new model's uncertainties are stored: the Documents list re-reads its order
    void staleRefreshed(qint64 documentId);

private:
    void onProjectOpened();
    void onProjectClosed();
    void onAccepted(qint64 id);
    void onSnapshotRead(const RetrainSnapshotInfo &info);
    void onFinished(const RetrainSnapshotInfo &info, const labelling::ProjectRetrainOutcome &outcome);
    void storeSuggestionsSlice();
    void onDocumentOpened(qint64 id);
    void say(const QString &message, int ms = 20000);
    QString outputFolder() const;
    void updateMenu();

    AnnotationSession *m_session;
    ProjectService *m_projects;
    Hooks m_hooks;
    RetrainWorker *m_worker;
    ModelWorker *m_suggester; // stale suggestions again, for the document they were asked for only
    QPointer<QLabel> m_label; // owned by the status bar once placed there (it may go first)
    QMenu *m_menu = nullptr;
    QActionGroup *m_everyGroup = nullptr;
    QAction *m_retrainNow = nullptr, *m_cancel = nullptr;
    labelling::ProjectRetrainConfig m_options;
    QSet<qint64> m_acceptedSince; // accepted since the last run started
    QSet<qint64> m_counted;       // accepted pages counted while this project is open
    QSet<qint64> m_stale;
    qint64 m_suggesting = -1;     // the document a stale re-suggestion runs for
    QString m_runProject;         // the project the run in flight read
    QString m_runOutput;          // its checkpoint folder
    QString m_lastMessage;
    bool m_pending = false;       // N more pages were accepted while a run was in flight
    QSet<qint64> m_runAccepted;   // m_acceptedSince when the run in flight started
    struct PendingSuggestions
    {
        qint64 id;
        double uncertainty;
        int revision;            // the page's annotations when the worker read them
        Annotations annotations; // with the new model's suggestions
        bool hasAnnotations;
    };
    std::vector<PendingSuggestions> m_toStore; // the new model's suggestions, stored a few per turn
    int m_stored = 0;
    std::function<void()> m_afterListing;
    double m_startMs = 0, m_snapshotMs = 0, m_readMs = 0, m_storeMs = 0, m_maxSliceMs = 0;
};

} // namespace folio
