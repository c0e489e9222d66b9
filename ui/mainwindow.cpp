#include "ui/mainwindow.h"

#include "ui/aboutdialog.h"
#include "ui/documentopener.h"
#include "ui/pageview.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableWidget>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace folio {

// The structure dock shows at most this many nodes eagerly (the lazy model replaces it for
// large DOMs).
static constexpr int kMaxTreeNodes = 20000;

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_opener(new DocumentOpener(this))
{
    setObjectName(QStringLiteral("FolioMainWindow"));
    setWindowTitle(tr("Folio"));
    resize(1280, 800);

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
    m_pageView = new PageView(m_central);
    m_central->addWidget(m_welcome);
    m_central->addWidget(m_pageView);
    setCentralWidget(m_central);

    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(200);
    m_progress->hide();
    m_cancelButton = new QToolButton(this);
    m_cancelButton->setText(tr("Cancel"));
    m_cancelButton->hide();
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);
    connect(m_cancelButton, &QToolButton::clicked, m_opener, &DocumentOpener::cancel);

    createDocks();
    createActions();

    connect(m_opener, &DocumentOpener::started, this, [this](const QString &path) {
        statusBar()->showMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()));
        m_progress->setValue(0);
        m_progress->show();
        m_cancelButton->show();
    });
    connect(m_opener, &DocumentOpener::progress, this, [this](double f) { m_progress->setValue(int(f * 100)); });
    connect(m_opener, &DocumentOpener::opened, this, &MainWindow::onOpened);
    connect(m_opener, &DocumentOpener::failed, this, &MainWindow::onFailed);

    restoreSettings();
    statusBar()->showMessage(tr("Ready"));
}

MainWindow::~MainWindow() = default;

const Document *MainWindow::currentDocument() const
{
    return m_current >= 0 ? &m_documents[size_t(m_current)].document : nullptr;
}

void MainWindow::createDocks()
{
    m_documentList = new QListWidget(this);
    m_documentList->setObjectName(QStringLiteral("documentList"));
    m_documentsDock = new QDockWidget(tr("Documents"), this);
    m_documentsDock->setObjectName(QStringLiteral("documentsDock"));
    m_documentsDock->setWidget(m_documentList);
    addDockWidget(Qt::LeftDockWidgetArea, m_documentsDock);
    connect(m_documentList, &QListWidget::currentRowChanged, this, &MainWindow::selectDocument);

    m_structureTree = new QTreeWidget(this);
    m_structureTree->setObjectName(QStringLiteral("structureTree"));
    m_structureTree->setHeaderLabels({tr("Node"), tr("Text")});
    m_structureDock = new QDockWidget(tr("Structure"), this);
    m_structureDock->setObjectName(QStringLiteral("structureDock"));
    m_structureDock->setWidget(m_structureTree);
    addDockWidget(Qt::RightDockWidgetArea, m_structureDock);

    m_annotationTable = new QTableWidget(0, 4, this);
    m_annotationTable->setObjectName(QStringLiteral("annotationTable"));
    m_annotationTable->setHorizontalHeaderLabels({tr("Label"), tr("Text"), tr("Source"), tr("Confidence")});
    m_annotationTable->horizontalHeader()->setStretchLastSection(true);
    m_annotationTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_annotationsDock = new QDockWidget(tr("Annotations"), this);
    m_annotationsDock->setObjectName(QStringLiteral("annotationsDock"));
    m_annotationsDock->setWidget(m_annotationTable);
    addDockWidget(Qt::RightDockWidgetArea, m_annotationsDock);

    m_attentionPlaceholder = new QLabel(tr("Run a model with tracing on to see its attention here."), this);
    m_attentionPlaceholder->setAlignment(Qt::AlignCenter);
    m_attentionDock = new QDockWidget(tr("Attention"), this);
    m_attentionDock->setObjectName(QStringLiteral("attentionDock"));
    m_attentionDock->setWidget(m_attentionPlaceholder);
    addDockWidget(Qt::BottomDockWidgetArea, m_attentionDock);
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open…"), this, &MainWindow::openFileDialog);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    QAction *close = file->addAction(tr("&Close"), this, &MainWindow::closeCurrentDocument);
    close->setShortcut(QKeySequence::Close);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_documentsDock->toggleViewAction());
    view->addAction(m_structureDock->toggleViewAction());
    view->addAction(m_annotationsDock->toggleViewAction());
    view->addAction(m_attentionDock->toggleViewAction());
    view->addSeparator();
    QAction *next = view->addAction(tr("&Next Document"), this, [this] {
        if (m_current + 1 < documentCount()) selectDocument(m_current + 1);
    });
    next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    QAction *previous = view->addAction(tr("&Previous Document"), this, [this] {
        if (m_current > 0) selectDocument(m_current - 1);
    });
    previous->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Folio"), this, &MainWindow::showAbout);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList paths = m_recent.paths();
    for (const QString &p : paths)
        m_recentMenu->addAction(QFileInfo(p).fileName(), this, [this, p] { openFile(p); })->setToolTip(p);
    if (paths.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
}

void MainWindow::saveSettings()
{
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_opener->cancel();
    saveSettings();
    event->accept();
}

void MainWindow::openFileDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open document"), QString(), DocumentOpener::fileDialogFilter());
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::openFile(const QString &path)
{
    for (size_t i = 0; i < m_documents.size(); ++i) {
        if (QFileInfo(m_documents[i].path) == QFileInfo(path)) {
            selectDocument(int(i));
            return;
        }
    }
    m_opener->open(path);
}

void MainWindow::onOpened(const QString &path, const Document &document, const Annotations &annotations)
{
    m_progress->hide();
    m_cancelButton->hide();
    m_documents.push_back(OpenDocument{path, document, annotations});
    m_recent.add(path);
    rebuildRecentMenu();
    auto *item = new QListWidgetItem(QFileInfo(path).fileName(), m_documentList);
    item->setToolTip(path);
    statusBar()->showMessage(tr("Opened %1: %2 words on %3 pages")
                                 .arg(QFileInfo(path).fileName())
                                 .arg(document.words.size())
                                 .arg(document.pages.size()),
                             5000);
    selectDocument(documentCount() - 1);
}

void MainWindow::onFailed(const QString &path, const QString &message)
{
    m_progress->hide();
    m_cancelButton->hide();
    statusBar()->showMessage(message, 10000);
    Q_EMIT loadFailed(message);
    if (!qEnvironmentVariableIsSet("FOLIO_NO_DIALOGS"))
        QMessageBox::warning(this, tr("Cannot open %1").arg(QFileInfo(path).fileName()), message);
}

void MainWindow::selectDocument(int index)
{
    if (index < 0 || index >= documentCount() || index == m_current)
        return;
    m_current = index;
    if (m_documentList->currentRow() != index)
        m_documentList->setCurrentRow(index);
    showDocument(index);
}

void MainWindow::showDocument(int index)
{
    const OpenDocument &open = m_documents[size_t(index)];
    setWindowTitle(tr("%1 — Folio").arg(QFileInfo(open.path).fileName()));
    m_pageView->setDocument(open.document);
    m_central->setCurrentWidget(m_pageView);
    fillStructureTree(open.document);
    fillAnnotationTable(open.document, open.annotations);
    Q_EMIT documentShown(index);
}

void MainWindow::closeCurrentDocument()
{
    if (m_current < 0)
        return;
    const int closing = m_current;
    m_documents.erase(m_documents.begin() + closing);
    m_current = -1;
    delete m_documentList->takeItem(closing);
    if (m_documents.empty()) {
        m_central->setCurrentWidget(m_welcome);
        m_structureTree->clear();
        m_annotationTable->setRowCount(0);
        setWindowTitle(tr("Folio"));
    } else {
        selectDocument(std::min(closing, documentCount() - 1));
    }
}

void MainWindow::fillStructureTree(const Document &document)
{
    m_structureTree->clear();
    std::vector<QTreeWidgetItem *> items(document.nodes.size(), nullptr);
    const int count = std::min<int>(int(document.nodes.size()), kMaxTreeNodes);
    for (int i = 0; i < count; ++i) {
        const Node &n = document.nodes[size_t(i)];
        const QString name = n.tag.isEmpty() ? nodeKindName(n.kind) : QLatin1Char('<') + n.tag + QLatin1Char('>');
        QTreeWidgetItem *parent = n.parent >= 0 && n.parent < i ? items[size_t(n.parent)] : nullptr;
        auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_structureTree);
        item->setText(0, name);
        item->setText(1, n.text.left(200));
        item->setToolTip(0, n.id);
        items[size_t(i)] = item;
    }
    m_structureTree->expandToDepth(2);
}

void MainWindow::fillAnnotationTable(const Document &document, const Annotations &annotations)
{
    m_annotationTable->setRowCount(int(annotations.entities.size()));
    QHash<QString, int> wordIndex;
    for (size_t i = 0; i < document.words.size(); ++i)
        wordIndex.insert(document.words[i].id, int(i));
    int row = 0;
    for (const Entity &e : annotations.entities) {
        QStringList text;
        for (const QString &w : e.wordIds)
            if (wordIndex.contains(w))
                text << document.words[size_t(wordIndex.value(w))].text;
        m_annotationTable->setItem(row, 0, new QTableWidgetItem(e.label));
        m_annotationTable->setItem(row, 1, new QTableWidgetItem(text.join(QLatin1Char(' '))));
        m_annotationTable->setItem(row, 2, new QTableWidgetItem(e.source.kind == AnnotationSource::User ? tr("user") : e.source.checkpoint));
        m_annotationTable->setItem(row, 3, new QTableWidgetItem(QString::number(e.confidence, 'f', 2)));
        ++row;
    }
}

void MainWindow::showAbout()
{
    AboutDialog dialog(this);
    dialog.exec();
}

} // namespace folio
