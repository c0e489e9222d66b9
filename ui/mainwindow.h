#pragma once
// MainWindow: composes Folio's panels and connects them. It holds no file I/O, no SQL and no
// model logic: documents are loaded by DocumentOpener (a worker), the ProjectService owns the
// open Project (a .folio file: open / create / default / last, documents added, engine results
// put into the current document), the AnnotationSession owns the current document, its edits,
// their undo history and autosave, and every feature brings its own panel.
//
// Layout: Documents dock (left), central page area (welcome / scan page / rendered web page),
// Structure dock (OCR tree or DOM tree) above the Annotations / Fields / Questions tabs on the
// right (at least kSideDockWidth wide), Attention dock (bottom, closed until Show Attention),
// status bar with progress + cancel. The layout (geometry, docks, splitters) is saved per user
// on close and restored on start (ui/windowlayout.h); View > Reset Layout brings the defaults back.

#include "ui/training/datasetdialog.h"

#include <QMainWindow>
#include <QStringList>

#include <memory>

class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QToolButton;
class QTreeView;

namespace folio {

struct Annotations;
struct Document;
class AnnotationActions;
class AttentionPanel;
class AnnotationDock;
class AnnotationPalette;
class AnnotationSession;
class DocumentListPanel;
class DocumentOpener;
class DomTreePanel;
class FieldsController;
class ModelWorker;
class RegionOcr;
class ScanPanel;
class SectionsPanel;
class Project;
class ProjectService;
class QsController;
class TeamController;
class RecentFiles;
class ResultPresenter;
class WebPagePanel;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // The right-hand docks' default width: a question or a field value reads in full.
    static constexpr int kSideDockWidth = 440;

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    Project *project() const;
    ProjectService *projects() const { return m_projects; }
    AnnotationSession *session() const { return m_session; }
    DocumentOpener *opener() const { return m_opener; }
    FieldsController *fields() const { return m_fields; } // web fields: Fields dock, Extract Fields
    QsController *qs() const { return m_qs; } // question-summary hierarchies: Questions dock, generation
    TeamController *team() const { return m_team; } // several people: presence, refresh, review, merge view
    ResultPresenter *results() const { return m_results; } // an action's result comes to the front
    int documentCount() const;
    const Document *currentDocument() const; // nullptr when none is open
    QString modelDirectory() const { return m_modelDir; }
    // True while a document is loading (a web page until it is rendered or failed) or a model is running.
    bool isBusy() const;

public Q_SLOTS:
    // Opens (or creates) a project file; the previous one is closed. False + message on failure.
    bool openProject(const QString &path);
    void newProjectDialog();
    void openProjectDialog();
    // Adds a document to the project (loading it off the GUI thread) or shows it if it is there.
    void openFile(const QString &path);
    // Help > Open Sample Project: a form, a PDF manual and a product page in a project of their
    // own (ui/sampleproject.h), opened one after another.
    void openSampleProject();
    void openFileDialog();
    void setModelDirectory(const QString &checkpointDir);
    // Model > Choose Model without the dialog: the folder becomes the model only once it loads.
    void chooseModel(const QString &checkpointDir);
    void chooseModelDialog();
    // Pre-annotation: runs the current model on the current document (off the GUI thread); its
    // entities arrive as suggestions with confidences, never overwriting user edits.
    void suggestLabels();
    // Runs the current model with tracing on and shows its attention in the Attention dock.
    void showAttention();
    void showAbout();
    // Help > Keyboard Shortcuts (F1): every key, where it works, what it does (not modal).
    void showShortcuts();
    // View > Reset Layout: docks back where they start (Attention closed), default sizes, splitters.
    void resetLayout();

Q_SIGNALS:
    // Model > Choose Model refused a folder (the previous model stays selected).
    void modelRefused(const QString &message);
    void documentShown(qint64 id);
    void loadFailed(const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void runDatasetDialog(DatasetDialog::Direction direction); // File > Import / Export Dataset
    void createDocks();
    void rebuildRecentMenu();
    void restoreSettings();
    void applyDefaultLayout();
    void openAttentionDock(); // shown, and given room when it was closed
    void giveAttentionRoom();
    void saveSettings();
    void onLoaded(const QString &path, const Document &document, const Annotations &annotations);
    void onFailed(const QString &path, const QString &message);
    void onProjectOpened(const QString &path, int documentCount);
    void showCurrentDocument();
    void reportError(const QString &title, const QString &message);

    std::unique_ptr<RecentFiles> m_recent;
    DocumentOpener *m_opener = nullptr;
    QStringList m_openNotes; // notes of the load in flight, shown with "Opened ..."
    QStringList m_openQueue; // files to open after the one in flight (the sample project)
    AnnotationSession *m_session = nullptr;
    ProjectService *m_projects = nullptr;
    AnnotationActions *m_annotationActions = nullptr;
    ModelWorker *m_modelWorker = nullptr;
    QString m_modelDir;

    QStackedWidget *m_central = nullptr;
    QWidget *m_welcome = nullptr;
    ScanPanel *m_scanPanel = nullptr;
    RegionOcr *m_regionOcr = nullptr;
    WebPagePanel *m_webPanel = nullptr;
    QStackedWidget *m_structure = nullptr;
    QTreeView *m_ocrTree = nullptr;
    DomTreePanel *m_domPanel = nullptr;
    SectionsPanel *m_sections = nullptr;
    DocumentListPanel *m_documentList = nullptr;
    AnnotationDock *m_annotationDock = nullptr;
    AnnotationPalette *m_palette = nullptr;
    AttentionPanel *m_attention = nullptr;
    QDockWidget *m_documentsDock = nullptr;
    QDockWidget *m_structureDock = nullptr;
    QDockWidget *m_annotationsDock = nullptr;
    QDockWidget *m_attentionDock = nullptr;
    QList<QDockWidget *> m_attentionTabs; // Head Grid, Image Patches, What If, Why This Label: tabs of Attention
    FieldsController *m_fields = nullptr;
    QDockWidget *m_fieldsDock = nullptr;
    QsController *m_qs = nullptr;
    TeamController *m_team = nullptr;
    ResultPresenter *m_results = nullptr;
    QMenu *m_recentMenu = nullptr;
    QProgressBar *m_progress = nullptr;
    QToolButton *m_cancelButton = nullptr;
};

} // namespace folio
