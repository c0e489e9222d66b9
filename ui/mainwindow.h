#pragma once
// MainWindow: composes Folio's panels and connects them. It holds no file I/O and no model
// logic: documents are opened by DocumentOpener (a worker), engines live behind their facades,
// and every feature brings its own panel.
//
// Layout: Documents dock (left), central page area (welcome / page canvas / web view), Structure
// and Annotations docks (right), Attention dock (bottom), status bar with progress + cancel.

#include "document/annotations.h"
#include "document/document.h"
#include "ui/recentfiles.h"

#include <QMainWindow>

#include <vector>

class QDockWidget;
class QListWidget;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QToolButton;
class QTreeWidget;
class QTableWidget;
class QLabel;

namespace folio {

class DocumentOpener;
class PageView;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    int documentCount() const { return int(m_documents.size()); }
    int currentDocumentIndex() const { return m_current; }
    const Document *currentDocument() const;
    DocumentOpener *opener() const { return m_opener; }

public Q_SLOTS:
    void openFile(const QString &path);
    void openFileDialog();
    void closeCurrentDocument();
    void showAbout();
    void selectDocument(int index);

Q_SIGNALS:
    void documentShown(int index);
    void loadFailed(const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    struct OpenDocument
    {
        QString path;
        Document document;
        Annotations annotations;
    };

    void createActions();
    void createDocks();
    void rebuildRecentMenu();
    void restoreSettings();
    void saveSettings();
    void onOpened(const QString &path, const Document &document, const Annotations &annotations);
    void onFailed(const QString &path, const QString &message);
    void showDocument(int index);
    void fillStructureTree(const Document &document);
    void fillAnnotationTable(const Document &document, const Annotations &annotations);

    DocumentOpener *m_opener = nullptr;
    RecentFiles m_recent;
    std::vector<OpenDocument> m_documents;
    int m_current = -1;

    QStackedWidget *m_central = nullptr;
    QWidget *m_welcome = nullptr;
    PageView *m_pageView = nullptr;
    QListWidget *m_documentList = nullptr;
    QTreeWidget *m_structureTree = nullptr;
    QTableWidget *m_annotationTable = nullptr;
    QLabel *m_attentionPlaceholder = nullptr;
    QDockWidget *m_documentsDock = nullptr;
    QDockWidget *m_structureDock = nullptr;
    QDockWidget *m_annotationsDock = nullptr;
    QDockWidget *m_attentionDock = nullptr;
    QMenu *m_recentMenu = nullptr;
    QProgressBar *m_progress = nullptr;
    QToolButton *m_cancelButton = nullptr;
};

} // namespace folio
