#include "ui/mainwindow.h"
#include "ui/i18n/languagemenu.h"

#include "document/project/project.h"
#include "document/project/projectlocation.h"
#include "document/html/savedpage.h"
#include "ui/aboutdialog.h"
#include "ui/annotation/annotationactions.h"
#include "ui/annotation/annotationdock.h"
#include "ui/annotation/annotationpalette.h"
#include "ui/annotation/annotationsession.h"
#include "ui/attention/attentionpanel.h"
#include "ui/attention/attentioninspectors.h"
#include "ui/attention/headgridpanel.h"
#include "ui/attention/imagepatchpanel.h"
#include "ui/explain/explaindocks.h"
#include "ui/commands/keyboardcommands.h"
#include "widgets/pagecanvas.h"
#include "ui/documents/documentlistpanel.h"
#include "ui/documents/documentopener.h"
#include "ui/documents/dropopener.h"
#include "ui/documents/ocrlanguagemenu.h"
#include "ui/documents/domtreepanel.h"
#include "ui/fields/fieldscontroller.h"
#include "ui/fields/fieldspanel.h"
#include "ui/training/modelchooserdialog.h"
#include "ui/training/hubdownloaddialog.h"
#include "ui/workers/fieldsworker.h"
#include "ui/workers/modelworker.h"
#include "ui/workers/qsworker.h"
#include "ui/team/projectservice.h"
#include "ui/team/teamcontroller.h"
#include "ui/qs/qscontroller.h"
#include "ui/documents/regionocr.h"
#include "ui/documents/scanpanel.h"
#include "ui/documents/sectionspanel.h"
#include "ui/shortcutsdialog.h"
#include "ui/recentfiles.h"
#include "ui/resultpresenter.h"
#include "ui/sampleproject.h"
#include "ui/training/labellingloop.h"
#include "ui/training/modelhistory.h"
#include "ui/training/trainingdialog.h"
#include "ui/documents/webpagepanel.h"
#include "ui/windowlayout.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

namespace folio {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_recent(std::make_unique<RecentFiles>()), m_opener(new DocumentOpener(this)),
      m_session(new AnnotationSession(this)), m_projects(new ProjectService(m_session, this)),
      m_modelWorker(new ModelWorker(this))
{
    setObjectName(QStringLiteral("FolioMainWindow"));
    setWindowTitle(tr("Folio"));
    resize(1400, 900);

    m_central = new QStackedWidget(this);
    m_welcome = new QWidget(m_central);
    auto *welcomeLayout = new QVBoxLayout(m_welcome);
    auto *welcomeText = new QLabel(tr("<h2>Folio</h2><p>Open a web page, a scanned form or a PDF to see its "
                                      "structure, run a model on it and correct what it finds.</p>"),
                                   m_welcome);
    welcomeText->setAlignment(Qt::AlignCenter);
    auto *openButton = new QPushButton(tr("Open a document…"), m_welcome);
    connect(openButton, &QPushButton::clicked, this, &MainWindow::openFileDialog);
    welcomeLayout->addStretch();
    welcomeLayout->addWidget(welcomeText);
    welcomeLayout->addWidget(openButton, 0, Qt::AlignCenter);
    welcomeLayout->addStretch();
    m_scanPanel = new ScanPanel(m_session, m_central);
    m_webPanel = new WebPagePanel(m_central);
    m_regionOcr = new RegionOcr(this);
    m_central->addWidget(m_welcome);
    m_central->addWidget(m_scanPanel);
    m_central->addWidget(m_webPanel);
    setCentralWidget(m_central);

    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(200);
    m_progress->hide();
    m_cancelButton = new QToolButton(this);
    m_cancelButton->setText(tr("Cancel"));
    m_cancelButton->hide();
    // A message longer than the bar is cut: the whole of it on hover.
    connect(statusBar(), &QStatusBar::messageChanged, statusBar(), [bar = statusBar()](const QString &message) { bar->setToolTip(message); });
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);
    connect(m_cancelButton, &QToolButton::clicked, m_opener, &DocumentOpener::cancel);

    m_results = new ResultPresenter(this); // an action's result: its dock raised, its message in the status bar
    createDocks();
    createActions();

    connect(m_opener, &DocumentOpener::started, this, [this](const QString &path) {
        statusBar()->showMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()));
        m_progress->setRange(0, 100);
        m_progress->setValue(0);
        m_progress->show();
        m_cancelButton->show();
    });
    // QProgressBar repaints itself synchronously on every new value: steps of 4 % at most (a 17-page
    // OCR reports hundreds of fractions).
    connect(m_opener, &DocumentOpener::progress, this, [this](double f) {
        const int percent = int(f * 100);
        if (percent >= 100 || percent - m_progress->value() >= 4)
            m_progress->setValue(percent);
    });
    connect(m_opener, &DocumentOpener::notes, this, [this](const QString &, const QStringList &notes) {
        m_openNotes = notes;
    });
    connect(m_opener, &DocumentOpener::opened, this, &MainWindow::onLoaded);
    connect(m_opener, &DocumentOpener::failed, this, &MainWindow::onFailed);
    connect(m_session, &AnnotationSession::documentOpened, this, &MainWindow::showCurrentDocument);
    connect(m_session, &AnnotationSession::documentReplaced, this, [this] {
        m_attention->setDocument(m_session->document(), m_session->annotations());
    });
    connect(m_projects, &ProjectService::projectOpened, this, &MainWindow::onProjectOpened);
    connect(m_projects, &ProjectService::projectClosed, this, [this] {
        m_documentList->refresh();
        m_central->setCurrentWidget(m_welcome);
    });
    connect(m_projects, &ProjectService::failed, this, &MainWindow::reportError);
    connect(m_session, &AnnotationSession::failed, this, [this](const QString &message) {
        statusBar()->showMessage(message, 10000);
    });
    connect(m_session, &AnnotationSession::saved, this, [this](int revision) {
        statusBar()->showMessage(tr("Saved (revision %1)").arg(revision), 2000);
    });

    connect(m_modelWorker, &ModelWorker::predicted, this, [this](const Annotations &suggestions, const QStringList &warnings) {
        m_progress->hide();
        m_session->applyPredictions(suggestions);
        QString counted = suggestions.links.empty()
                              ? tr("%1 suggestions from the model").arg(suggestions.entities.size())
                              : tr("%1 suggestions and %2 links from the model").arg(suggestions.entities.size()).arg(suggestions.links.size());
        if (m_modelWorker->lastRunInt8())
            counted += tr(" (int8)");
        // What the model could not do (a LayoutLMv2 folder without an image: text + layout only) stays longer.
        if (warnings.isEmpty())
            m_results->present(QStringLiteral("suggest"), m_annotationsDock, counted, 5000);
        else
            m_results->present(QStringLiteral("suggest"), m_annotationsDock,
                               counted + QStringLiteral(" — ") + warnings.join(QStringLiteral("; ")), 15000);
    });
    connect(m_modelWorker, &ModelWorker::loaded, this, &MainWindow::setModelDirectory);
    connect(m_modelWorker, &ModelWorker::refused, this, [this](const QString &, const QString &message) {
        reportError(tr("The model could not be loaded"),
                    message + tr("\nThe previous model stays selected: %1").arg(m_modelDir.isEmpty() ? tr("none") : m_modelDir));
        Q_EMIT modelRefused(message);
    });
    connect(m_modelWorker, &ModelWorker::failed, this, [this](const QString &message) {
        m_progress->hide();
        reportError(tr("The model could not run"), message);
    });

    // Scans: structure tree <-> canvas, and re-OCR of a drawn region (user-corrected words kept).
    m_scanPanel->attachTree(m_ocrTree);
    connect(m_scanPanel, &ScanPanel::message, this, [this](const QString &text) { statusBar()->showMessage(text, 6000); });
    connect(m_scanPanel, &ScanPanel::regionRequested, this, [this](int page, const QRect &rect) {
        statusBar()->showMessage(tr("Running OCR on the region…"));
        m_regionOcr->start(m_session->currentDocumentId(), m_session->document(), page, rect);
    });
    connect(m_regionOcr, &RegionOcr::finished, this, [this](qint64 id, const Document &updated, int added) {
        if (m_projects->applyRegionOcr(id, updated, added))
            statusBar()->showMessage(tr("Re-OCR: %1 words added (Ctrl+Z undoes it)").arg(added), 5000);
    });
    connect(m_regionOcr, &RegionOcr::failed, this, [this](const QString &message) { reportError(tr("Re-OCR"), message); });

    // Attention: clicks on boxes / DOM nodes select; its heatmap colours the page while shown.
    connect(m_scanPanel->canvas(), &PageCanvas::boxClicked, m_attention, &AttentionPanel::onBoxClicked);
    connect(m_attention, &AttentionPanel::wordColorsChanged, m_scanPanel, &ScanPanel::setOverlayColors);
    connect(m_attention, &AttentionPanel::wordLabelsChanged, m_scanPanel, &ScanPanel::setOverlayLabels);
    connect(m_attention, &AttentionPanel::nodeColorsChanged, m_webPanel, &WebPagePanel::setNodeColors);
    connect(m_attention, &AttentionPanel::sectionColorsChanged, m_sections, &SectionsPanel::setSectionColors);
    connect(m_domPanel, &DomTreePanel::nodeSelected, m_attention, [this](int node) { m_attention->selectNode(node); });
    connect(m_webPanel, &WebPagePanel::nodeSelected, m_attention, [this](int node) { m_attention->selectNode(node); });
    connect(m_attention, &AttentionPanel::message, this, [this](const QString &text) { statusBar()->showMessage(text, 8000); });
    connect(m_attention, &AttentionPanel::runFinished, this, [this](bool ok) {
        const QString text = m_attention->statusText();
        m_results->present(QStringLiteral("attention"), m_attentionDock,
                           ok ? tr("Attention: %1").arg(QString(text).replace(QLatin1Char('\n'), QStringLiteral(" — ")))
                              : tr("Show Attention failed: %1").arg(text.section(QLatin1Char('\n'), -1)),
                           ok ? 10000 : 15000);
    });
    // Generate (Questions dock) and Extract Fields (Fields dock): their dock, tabbed behind
    // Annotations, comes to the front with the message it shows.
    connect(m_qs, &QsController::generationFinished, this, [this] {
        m_results->present(QStringLiteral("generate"), m_qs->dock(), m_qs->lastMessage());
    });
    connect(m_fields, &FieldsController::extractionFinished, this, [this] {
        m_results->present(QStringLiteral("extract"), m_fieldsDock, m_fields->lastMessage());
    });
    connect(m_fields, &FieldsController::extractorTrained, this, [this] {
        m_results->present(QStringLiteral("train"), m_fieldsDock, m_fields->lastMessage());
    });

    // Web page <-> DOM tree, both ways; rendered boxes go into the session's document (and the store).
    connect(m_webPanel, &WebPagePanel::nodeSelected, m_domPanel, &DomTreePanel::selectNode);
    connect(m_domPanel, &DomTreePanel::nodeSelected, m_webPanel, &WebPagePanel::selectNode);
    // Labelling on web pages: picking a node (page or tree) selects its words for the palette.
    const auto selectNodeWords = [this](int node) {
        m_session->setSelectedWords(m_session->document().wordIdsUnder(node));
    };
    connect(m_webPanel, &WebPagePanel::nodeSelected, this, selectNodeWords);
    connect(m_domPanel, &DomTreePanel::nodeSelected, this, selectNodeWords);
    connect(m_webPanel, &WebPagePanel::rendered, m_projects, &ProjectService::applyRenderedPage);
    connect(m_webPanel, &WebPagePanel::failed, this, [this](const QString &message) {
        statusBar()->showMessage(message, 10000);
    });

    applyDefaultLayout();
    // The docks, as they are added, raise the window's minimum for a moment and grow it (it stayed
    // 1212 px tall, past a 1050 px screen): the layout settles, then the default size is set again.
    layout()->activate();
    resize(1400, 900);
    restoreSettings();
    new DropOpener(this); // files dropped on the window open as File > Open does (issue 50)
    statusBar()->showMessage(tr("Ready"));
}

MainWindow::~MainWindow()
{
    m_projects->blockSignals(true);
    m_projects->close();
}

Project *MainWindow::project() const { return m_projects->project(); }

bool MainWindow::isBusy() const
{
    return m_opener->isBusy() || m_modelWorker->isBusy() || m_attention->isRunning()
           || (m_central->currentWidget() == m_webPanel && m_webPanel->isLoading());
}

int MainWindow::documentCount() const { return m_projects->documentCount(); }

const Document *MainWindow::currentDocument() const
{
    return m_session->currentDocumentId() >= 0 ? &m_session->document() : nullptr;
}

void MainWindow::createDocks()
{
    m_documentList = new DocumentListPanel(m_session, this);
    m_documentsDock = new QDockWidget(tr("Documents"), this);
    m_documentsDock->setObjectName(QStringLiteral("documentsDock"));
    m_documentsDock->setWidget(m_documentList);
    addDockWidget(Qt::LeftDockWidgetArea, m_documentsDock);

    m_structure = new QStackedWidget(this);
    m_ocrTree = new QTreeView(m_structure);
    m_ocrTree->setObjectName(QStringLiteral("structureTree"));
    m_ocrTree->setUniformRowHeights(true);
    m_domPanel = new DomTreePanel(m_structure);
    m_structure->addWidget(m_ocrTree);
    m_structure->addWidget(m_domPanel);
    m_structureDock = new QDockWidget(tr("Structure"), this);
    m_structureDock->setObjectName(QStringLiteral("structureDock"));
    m_sections = new SectionsPanel(this);
    m_sections->setSession(m_session); // section edits; it follows documentReplaced itself
    auto *structureTabs = new QTabWidget(this);
    structureTabs->setObjectName(QStringLiteral("structureTabs"));
    structureTabs->addTab(m_structure, tr("Tree"));
    structureTabs->addTab(m_sections, tr("Sections"));
    m_structureDock->setWidget(structureTabs);
    connect(m_sections, &SectionsPanel::wordsPicked, m_session, &AnnotationSession::setSelectedWords);
    addDockWidget(Qt::RightDockWidgetArea, m_structureDock);

    auto *annotations = new QWidget(this);
    auto *annotationsLayout = new QVBoxLayout(annotations);
    annotationsLayout->setContentsMargins(0, 0, 0, 0);
    m_palette = new AnnotationPalette(m_session, annotations);
    m_annotationDock = new AnnotationDock(m_session, annotations);
    annotationsLayout->addWidget(m_palette);
    annotationsLayout->addWidget(m_annotationDock, 1);
    m_annotationsDock = new QDockWidget(tr("Annotations"), this);
    m_annotationsDock->setObjectName(QStringLiteral("annotationsDock"));
    m_annotationsDock->setWidget(annotations);
    addDockWidget(Qt::RightDockWidgetArea, m_annotationsDock);
    connect(m_palette, &AnnotationPalette::labelChosen, m_session, [this](const QString &label) {
        m_session->assignLabel(label);
    });

    m_attention = new AttentionPanel(this);
    m_attention->setObjectName(QStringLiteral("attentionPanel"));
    m_attentionDock = new QDockWidget(tr("Attention"), this);
    m_attentionDock->setObjectName(QStringLiteral("attentionDock"));
    m_attentionDock->setWidget(m_attention);
    addDockWidget(Qt::BottomDockWidgetArea, m_attentionDock);
    // Head Grid and Image Patches (issue 48): tabbed with the Attention dock, following its trace.
    const AttentionInspectors inspectors = installAttentionInspectors(this, m_attention, m_attentionDock, m_scanPanel->canvas());
    connect(inspectors.patches, &ImagePatchPanel::wordColorsChanged, m_scanPanel, &ScanPanel::setOverlayColors);
    connect(inspectors.grid, &HeadGridPanel::message, this, [this](const QString &text) { statusBar()->showMessage(text, 8000); });
    connect(inspectors.patches, &ImagePatchPanel::message, this, [this](const QString &text) { statusBar()->showMessage(text, 8000); });
    // What If and Why This Label (issue 48): tabbed there too, on the scan page (ui/explain/explaindocks.h).
    const ExplainDocks explain = installExplainDocks(this, m_attentionDock, m_scanPanel, m_session, [this] { return m_modelDir; });
    m_attentionTabs = {inspectors.gridDock, inspectors.patchDock, explain.whatIfDock, explain.whyDock};

    m_fields = new FieldsController(this, m_session, m_projects, m_webPanel, m_domPanel, [this] { return m_modelDir; });
    m_fieldsDock = new QDockWidget(tr("Fields"), this);
    m_fieldsDock->setObjectName(QStringLiteral("fieldsDock"));
    m_fieldsDock->setWidget(m_fields->panel());
    addDockWidget(Qt::RightDockWidgetArea, m_fieldsDock);
    tabifyDockWidget(m_annotationsDock, m_fieldsDock);

    m_team = new TeamController(this, m_session, m_projects, m_documentList);
    statusBar()->addPermanentWidget(m_team->statusLabel());
    m_qs = new QsController(this, m_session, m_scanPanel, m_webPanel, m_sections);
    addDockWidget(Qt::RightDockWidgetArea, m_qs->dock());
    tabifyDockWidget(m_annotationsDock, m_qs->dock());
}

void MainWindow::applyDefaultLayout()
{
    // The page gets the room; the side docks are wide enough for a question or a field value to be
    // read; the Attention dock stays closed until Show Attention (or View > Attention) asks for it.
    const QList<QDockWidget *> docks = {m_documentsDock, m_structureDock, m_annotationsDock, m_fieldsDock, m_qs->dock(), m_attentionDock};
    // Moving the docks stacks them for a moment, which can grow the window: it gets its size back.
    const QSize windowSize = size();
    for (QDockWidget *dock : docks)
        dock->setFloating(false);
    // The side columns run the window's full height; the Attention dock sits under the page only,
    // so opening it takes height from the page, not from the Structure and Annotations docks.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    addDockWidget(Qt::LeftDockWidgetArea, m_documentsDock);
    addDockWidget(Qt::RightDockWidgetArea, m_structureDock);
    addDockWidget(Qt::RightDockWidgetArea, m_annotationsDock);
    tabifyDockWidget(m_annotationsDock, m_fieldsDock);
    tabifyDockWidget(m_annotationsDock, m_qs->dock());
    addDockWidget(Qt::BottomDockWidgetArea, m_attentionDock);
    // Moving the Attention dock takes it out of its tab group: the inspectors join it again, so that
    // opened together they are tabs under the page, not columns wider than the screen.
    for (QDockWidget *dock : m_attentionTabs) {
        dock->setFloating(false);
        tabifyDockWidget(m_attentionDock, dock);
    }
    for (QDockWidget *dock : docks)
        dock->setVisible(dock != m_attentionDock);
    for (QDockWidget *dock : m_attentionTabs)
        dock->hide();
    m_annotationsDock->raise();
    resize(windowSize);
    const int w = qMax(width(), 1200);
    resizeDocks({m_documentsDock, m_structureDock}, {qBound(200, w / 7, 260), qBound(kSideDockWidth, w * 3 / 10, 560)}, Qt::Horizontal);
    resizeDocks({m_structureDock}, {qMax(200, height() * 2 / 5)}, Qt::Vertical); // the Annotations tabs take the rest
    windowlayout::resetSplitters(this);
}

void MainWindow::resetLayout()
{
    applyDefaultLayout();
    statusBar()->showMessage(tr("Layout reset: the docks are back where they start; the Attention dock opens with "
                                "Model > Show Attention"),
                             6000);
}

void MainWindow::runDatasetDialog(DatasetDialog::Direction direction)
{
    if (!m_projects->ensureOpen())
        return;
    DatasetDialog dialog(direction, m_projects->path(), this);
    connect(&dialog, &DatasetDialog::completed, this, [this, direction](const QString &summary) {
        if (direction == DatasetDialog::Direction::Import)
            m_projects->open(m_projects->path()); // the list and the open document show what was imported
        statusBar()->showMessage(summary, 10000);
    });
    dialog.exec();
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open Document…"), this, &MainWindow::openFileDialog);
    open->setShortcut(QKeySequence::Open);
    // A page a browser saved as "Web Page, complete" (X.html + X_files/): picked as its folder.
    file->addAction(tr("Open Saved Web Page &Folder…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder of a saved web page (X.html with X_files)"));
        if (!dir.isEmpty())
            openFile(dir);
    })->setObjectName(QStringLiteral("openWebFolderAction"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setProperty("folioNoShortcuts", true); // rebuilt at run time: no keys of its own
    rebuildRecentMenu();
    auto *ocrLanguages = new OcrLanguageMenu(this);
    file->addMenu(ocrLanguages);
    m_opener->setOcrLanguages(ocrLanguages->languages());
    connect(ocrLanguages, &OcrLanguageMenu::languagesChanged, m_opener, &DocumentOpener::setOcrLanguages);
    file->addSeparator();
    file->addAction(tr("&New Project…"), this, &MainWindow::newProjectDialog)->setShortcut(QKeySequence::New);
    file->addAction(tr("Open &Project…"), this, &MainWindow::openProjectDialog)->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_fields->addFileActions(file);
    file->addSeparator();
    file->addAction(tr("&Import Dataset…"), this, [this] { runDatasetDialog(DatasetDialog::Direction::Import); });
    file->addAction(tr("&Export Dataset…"), this, [this] { runDatasetDialog(DatasetDialog::Direction::Export); });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    m_annotationActions = new AnnotationActions(m_session, this);
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addActions(m_annotationActions->all());

    QMenu *model = menuBar()->addMenu(tr("&Model"));
    model->addAction(tr("&Choose Model…"), this, &MainWindow::chooseModelDialog);
    // Issue 46: a model from the Hub into the cache Python shares, then chosen like any folder.
    model->addAction(tr("Get Model from &Hugging Face…"), this, [this] {
        HubDownloadDialog dialog(this);
        if (dialog.exec() == QDialog::Accepted && !dialog.snapshotDir().isEmpty())
            chooseModel(dialog.snapshotDir());
    });
    QAction *suggest = model->addAction(tr("&Suggest Labels"), this, &MainWindow::suggestLabels);
    suggest->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    QAction *attention = model->addAction(tr("Show &Attention"), this, &MainWindow::showAttention);
    attention->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    // Suggest Labels, Extract Fields and seq2seq QS generation in dynamic int8 (issue 35): remembered; off by default.
    QAction *int8 = model->addAction(tr("&Int8 Inference (Faster, Approximate)"));
    int8->setObjectName(QStringLiteral("int8Action"));
    int8->setCheckable(true);
    int8->setToolTip(tr("Suggest Labels, Extract Fields and seq2seq question summaries with the model's Linear layers "
                        "in int8: about a third of the time for base-size models, little gain for small ones; FUNSD F1 "
                        "moved by 0.11 points at most, Zyte F1 and QMSum ROUGE not at all (BENCHMARKS.md)"));
    int8->setChecked(QSettings().value(QStringLiteral("model/int8"), false).toBool());
    const auto runModelsInInt8 = [this](bool on) {
        m_modelWorker->setInt8(on);
        m_fields->worker()->setInt8(on);
        m_qs->worker()->setInt8(on);
    };
    runModelsInInt8(int8->isChecked());
    connect(int8, &QAction::toggled, this, [this, runModelsInInt8](bool on) {
        QSettings().setValue(QStringLiteral("model/int8"), on);
        runModelsInInt8(on);
        statusBar()->showMessage(on ? tr("The models run in int8 (Suggest Labels, Extract Fields, seq2seq question summaries)")
                                    : tr("The models run in float32"), 5000);
    });
    auto *history = new ModelHistory(this, [this] { return m_modelDir; }, [this](const QString &dir) { setModelDirectory(dir); });
    model->addAction(tr("&Train on Project…"), this, [this, history] {
        if (!project()) { statusBar()->showMessage(tr("Open a project first"), 5000); return; }
        if (auto *open = findChild<TrainingDialog *>(); open && open->isVisible()) { open->raise(); open->activateWindow(); return; }
        // Not modal: the user keeps labelling while it trains (TrainingDialog::openBeside).
        TrainingDialog::openBeside(project(), m_modelDir, m_projects, this, [this, history](const QString &checkpointDir) {
            history->replace(checkpointDir); // Go Back to Previous Model restores the one before
            // The trained tagger's suggestions go to the Annotations dock: it comes to the front.
            m_results->present(QStringLiteral("train"), m_annotationsDock,
                               tr("Training finished: %1 is the model now; Suggest Labels (Ctrl+R) uses it")
                                   .arg(QDir(checkpointDir).dirName()));
        });
    });
    model->addAction(history->goBackAction());
    // The labelling loop (issue 47): retrains in the background every N accepted pages; a better model takes over.
    auto *loop = new LabellingLoop(this, m_session, m_projects,
                                   {[this] { return m_modelDir; }, [history](const QString &dir) { history->replace(dir); },
                                    [this](const QString &text, int ms) { statusBar()->showMessage(text, ms); }});
    loop->setObjectName(QStringLiteral("labellingLoop"));
    loop->addMenu(model);
    statusBar()->addPermanentWidget(loop->statusLabel());
    connect(loop, &LabellingLoop::uncertaintiesUpdated, m_documentList, &DocumentListPanel::reorder);
    m_fields->addModelActions(model);
    m_qs->addModelActions(model);
    m_team->addMenu(menuBar());

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_documentsDock->toggleViewAction());
    view->addAction(m_structureDock->toggleViewAction());
    view->addAction(m_annotationsDock->toggleViewAction());
    view->addAction(m_attentionDock->toggleViewAction());
    for (const char *name : {"headGridDock", "imagePatchDock", "whatIfDock", "whyLabelDock"}) // issue 48 (ui/attention/attentioninspectors.h, ui/explain/explaindocks.h)
        if (auto *dock = findChild<QDockWidget *>(QLatin1String(name)))
            view->addAction(dock->toggleViewAction());
    // Opened from the View menu: the same room as Show Attention gives it.
    connect(m_attentionDock->toggleViewAction(), &QAction::triggered, this, [this](bool on) {
        if (on)
            giveAttentionRoom();
    });
    view->addAction(m_fieldsDock->toggleViewAction());
    view->addAction(m_qs->dock()->toggleViewAction());
    view->addSeparator();
    QAction *reset = view->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
    reset->setObjectName(QStringLiteral("resetLayoutAction"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *keys = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    keys->setShortcut(QKeySequence::HelpContents);
    keys->setObjectName(QStringLiteral("shortcutsAction"));
    help->addAction(tr("Open &Sample Project"), this, &MainWindow::openSampleProject)->setObjectName(QStringLiteral("sampleProjectAction"));
    help->addAction(tr("&About Folio"), this, &MainWindow::showAbout)->setObjectName(QStringLiteral("aboutAction"));
    installKeyboardCommands(this, help); // Settings > Keyboard Shortcuts, Help > Find Action, the saved keys
    installLanguageMenu(this); // Settings > Language (issue 50)
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList paths = m_recent->paths();
    for (const QString &p : paths)
        m_recentMenu->addAction(QFileInfo(p).fileName(), this, [this, p] {
            if (looksLikeProjectLocation(p)) openProject(p); else openFile(p);
        })->setToolTip(p);
    if (paths.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    windowlayout::restore(this); // geometry, docks, splitters: per user, when saved by this layout version
    m_modelDir = settings.value(QStringLiteral("model/directory")).toString();
}

void MainWindow::saveSettings()
{
    windowlayout::save(this);
    QSettings settings;
    settings.setValue(QStringLiteral("model/directory"), m_modelDir);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_opener->cancel();
    saveSettings();
    event->accept();
}

void MainWindow::reportError(const QString &title, const QString &message)
{
    statusBar()->showMessage(message, 10000);
    Q_EMIT loadFailed(message);
    if (!qEnvironmentVariableIsSet("FOLIO_NO_DIALOGS"))
        QMessageBox::warning(this, title, message);
}

bool MainWindow::openProject(const QString &path) { return m_projects->open(path); }

void MainWindow::onProjectOpened(const QString &path, int documentCount)
{
    m_recent->add(path);
    rebuildRecentMenu();
    m_documentList->refresh();
    if (documentCount > 0)
        m_session->openDocumentAt(0);
    else
        m_central->setCurrentWidget(m_welcome);
    QString text = tr("Project %1: %2 documents").arg(QFileInfo(path).fileName()).arg(documentCount);
    if (project() && project()->isReadOnly())
        text += tr(" (read-only)");
    statusBar()->showMessage(text, 5000);
}

void MainWindow::newProjectDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("New project"), QString(), tr("Folio projects (*.folio)"));
    if (!path.isEmpty())
        m_projects->create(path.endsWith(QLatin1String(".folio")) ? path : path + QStringLiteral(".folio"));
}

void MainWindow::openProjectDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open project"), QString(),
                                                      tr("Folio projects (*.folio *.folio-pg)"));
    if (!path.isEmpty())
        openProject(path);
}

void MainWindow::openFileDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open document"), QString(), DocumentOpener::fileDialogFilter());
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::openFile(const QString &given)
{
    if (!m_projects->ensureOpen())
        return;
    QString folderProblem; // a folder saved by a browser opens as the page in it
    const QString path = savedWebPageFile(given, &folderProblem);
    if (path.isEmpty()) {
        onFailed(given, folderProblem);
        return;
    }
    const qint64 existing = m_projects->findDocument(path);
    if (existing >= 0) {
        if (existing != m_session->currentDocumentId()) // shown already: keep its undo history
            m_session->openDocument(existing);
        return;
    }
    m_opener->open(QFileInfo(path).absoluteFilePath());
}

void MainWindow::openSampleProject()
{
    const QString folder = sampleProjectFolder();
    QString error;
    const QStringList files = prepareSampleDocuments(folder, &error);
    if (files.isEmpty()) {
        reportError(tr("Cannot prepare the sample project"), error);
        return;
    }
    if (!openProject(sampleProjectPath(folder)))
        return;
    m_openQueue.clear();
    for (const QString &f : files)
        if (m_projects->findDocument(f) < 0)
            m_openQueue.push_back(f);
    statusBar()->showMessage(tr("Sample project: a scanned form, a PDF manual and a product page in %1").arg(folder), 10000);
    if (!m_openQueue.isEmpty())
        openFile(m_openQueue.takeFirst());
}

void MainWindow::onLoaded(const QString &path, const Document &document, const Annotations &annotations)
{
    m_progress->hide();
    m_cancelButton->hide();
    if (m_projects->addDocument(path, document, annotations) < 0) {
        if (!m_openQueue.isEmpty())
            openFile(m_openQueue.takeFirst());
        return;
    }
    m_recent->add(path);
    rebuildRecentMenu();
    // The load's notes (e.g. the OCR language it chose) stay readable for longer.
    const QString notes = m_openNotes.join(QStringLiteral("; "));
    m_openNotes.clear();
    statusBar()->showMessage(tr("Opened %1: %2 words on %3 pages").arg(QFileInfo(path).fileName())
                                     .arg(document.words.size())
                                     .arg(document.pages.size())
                                 + (notes.isEmpty() ? QString() : QStringLiteral(" — ") + notes),
                             notes.isEmpty() ? 5000 : 15000);
    if (!m_openQueue.isEmpty())
        openFile(m_openQueue.takeFirst());
}

void MainWindow::onFailed(const QString &path, const QString &message)
{
    m_progress->hide();
    m_cancelButton->hide();
    reportError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), message);
    if (!m_openQueue.isEmpty())
        openFile(m_openQueue.takeFirst());
}

void MainWindow::showCurrentDocument()
{
    const Document &doc = m_session->document();
    setWindowTitle(tr("%1 — Folio").arg(QFileInfo(doc.sourcePath).fileName()));
    if (doc.kind == SourceKind::Html) {
        // Shown before it loads: Chromium throttles a hidden view, and the page then took 15-20 s
        // instead of under one to render (seen after a scan had been on screen).
        m_central->setCurrentWidget(m_webPanel);
        m_structure->setCurrentWidget(m_domPanel);
        m_webPanel->setDocument(doc);
        m_domPanel->setDocument(doc);
    } else {
        m_central->setCurrentWidget(m_scanPanel);
        m_structure->setCurrentWidget(m_ocrTree);
    }
    m_sections->setDocument(doc);
    m_palette->setLabels(m_session->labels());
    m_scanPanel->setOverlayColors({});
    m_scanPanel->setOverlayLabels({});
    m_webPanel->setNodeColors({});
    m_attention->setDocument(doc, m_session->annotations());
    Q_EMIT documentShown(m_session->currentDocumentId());
}

void MainWindow::setModelDirectory(const QString &checkpointDir)
{
    m_modelDir = checkpointDir;
    statusBar()->showMessage(tr("Model: %1").arg(QDir(checkpointDir).dirName()), 5000);
}

void MainWindow::chooseModelDialog()
{
    ModelChooserDialog dialog(m_modelDir, this);
    if (dialog.exec() == QDialog::Accepted && !dialog.chosenDirectory().isEmpty())
        chooseModel(dialog.chosenDirectory());
}

void MainWindow::chooseModel(const QString &checkpointDir)
{
    statusBar()->showMessage(tr("Loading %1…").arg(QDir(checkpointDir).dirName()));
    m_modelWorker->load(checkpointDir); // loaded -> setModelDirectory; refused -> the previous model stays
}

void MainWindow::suggestLabels()
{
    if (m_session->currentDocumentId() < 0) {
        statusBar()->showMessage(tr("Open a document first"), 5000);
        return;
    }
    if (m_modelDir.isEmpty() || !QFileInfo(m_modelDir + QStringLiteral("/config.json")).isFile()) {
        reportError(tr("No model"), tr("Choose a model checkpoint folder first (Model > Choose Model)."));
        return;
    }
    statusBar()->showMessage(tr("Running %1…").arg(QDir(m_modelDir).dirName()));
    m_progress->setRange(0, 0);
    m_progress->show();
    m_modelWorker->predict(m_modelDir, m_session->document(), m_session->annotations());
}

void MainWindow::showAttention()
{
    if (m_session->currentDocumentId() < 0 || m_modelDir.isEmpty()) {
        statusBar()->showMessage(tr("Open a document and choose a model first"), 5000);
        return;
    }
    openAttentionDock();
    m_attention->runOn(m_modelDir);
}

void MainWindow::openAttentionDock()
{
    const bool wasOpen = m_attentionDock->isVisible();
    m_attentionDock->show();
    m_attentionDock->raise();
    if (!wasOpen)
        giveAttentionRoom();
}

void MainWindow::giveAttentionRoom()
{
    // Docked at the bottom (or top): 45% of the window's height for the heatmap and its controls.
    const Qt::DockWidgetArea area = dockWidgetArea(m_attentionDock);
    if (!m_attentionDock->isFloating() && (area == Qt::BottomDockWidgetArea || area == Qt::TopDockWidgetArea))
        resizeDocks({m_attentionDock}, {qMax(320, height() * 9 / 20)}, Qt::Vertical);
}

void MainWindow::showShortcuts()
{
    // Not modal: it stays open beside the window while the keys are tried.
    auto *dialog = findChild<ShortcutsDialog *>();
    if (!dialog) {
        dialog = new ShortcutsDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

void MainWindow::showAbout()
{
    AboutDialog dialog(this);
    dialog.exec();
}

} // namespace folio
