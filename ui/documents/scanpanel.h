#pragma once
// ScanPanel: the page of a scanned / PDF / FUNSD document in the annotation workspace — the
// PageCanvas with entity colours, the page switcher, and two-way sync with the session (word
// selection, in-place text edits) and with a structure tree view (OCR block/line/word tree).
//
//   auto *scan = new folio::ScanPanel(session, this);
//   scan->attachTree(treeView);        // the Structure dock's view; synced both ways
//   // shows session->document() whenever the session opens a document
//   connect(scan, &folio::ScanPanel::regionRequested, ...);   // user drew a region to re-OCR
#include <QColor>
#include <QFutureWatcher>
#include <QHash>
#include <QImage>
#include <QWidget>

class QLabel;
class QSpinBox;
class QTreeView;

namespace folio {

class AnnotationSession;
class PageCanvas;
class StructureTreeModel;

class ScanPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ScanPanel(AnnotationSession *session, QWidget *parent = nullptr);

    PageCanvas *canvas() const { return m_canvas; }
    StructureTreeModel *treeModel() const { return m_model; }
    void attachTree(QTreeView *tree);
    int currentPage() const;

public Q_SLOTS:
    void showDocument();      // the session's current document, first page
    void showPage(int page);
    void refreshOverlays();   // entity colours and labels from the session's annotations
    void setRegionTool(bool on);
    // An overlay that takes the place of the entity colours while it is non-empty (attention
    // heatmaps, ablation diffs); empty maps give the entity colours back.
    void setOverlayColors(const QHash<int, QColor> &colors);
    void setOverlayLabels(const QHash<int, QString> &labels);

Q_SIGNALS:
    void regionRequested(int page, const QRect &pageRect);
    void wordHovered(int wordIndex);
    void message(const QString &text);

private:
    void syncSelectionFromSession(const QStringList &wordIds);
    QString entityOfWord(int wordIndex) const; // "" when the word is in no entity

    AnnotationSession *m_session;
    PageCanvas *m_canvas;
    StructureTreeModel *m_model;
    QTreeView *m_tree = nullptr;
    QSpinBox *m_pageBox;
    QLabel *m_pageCount;
    bool m_syncing = false;
    // The page image is decoded in the thread pool (a scan page is 50-300 ms of PNG decoding); the
    // page is drawn at once with its words and gets its image when the decode is done.
    void loadPageImage(const QString &path);

    QString m_imagePath; // the page shown; m_image holds its image once decoded
    QImage m_image;
    QFutureWatcher<QImage> *m_imageLoad;
    QString m_loadingPath; // the image m_imageLoad decodes
    QHash<int, QColor> m_overlayColors;
    QHash<int, QString> m_overlayLabels;
};

} // namespace folio
