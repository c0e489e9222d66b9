#include "ui/documents/scanpanel.h"

#include "ui/annotation/annotationsession.h"
#include "ui/labelcolors.h"
#include "widgets/pagecanvas.h"
#include "widgets/structuretreemodel.h"

#include <QHBoxLayout>
#include <QImageReader>
#include <QLabel>
#include <QSpinBox>
#include <QToolButton>
#include <QTreeView>
#include <QtConcurrent/QtConcurrentRun>
#include <QVBoxLayout>

namespace folio {

static QImage readPageImage(const QString &path)
{
    if (path.isEmpty())
        return {};
    QImageReader reader(path);
    reader.setAllocationLimit(1024); // MB: a decompression bomb is refused, the page shows blank
    QImage image = reader.read();
    // In the screen's format here, in the pool: a grey or indexed scan converted on every paint cost
    // the GUI thread 30+ ms.
    if (!image.isNull() && image.format() != QImage::Format_RGB32 && image.format() != QImage::Format_ARGB32_Premultiplied)
        image = image.hasAlphaChannel() ? image.convertToFormat(QImage::Format_ARGB32_Premultiplied)
                                        : image.convertToFormat(QImage::Format_RGB32);
    return image;
}

ScanPanel::ScanPanel(AnnotationSession *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_canvas(new PageCanvas(this)), m_model(new StructureTreeModel(this)),
      m_pageBox(new QSpinBox(this)), m_pageCount(new QLabel(this)), m_imageLoad(new QFutureWatcher<QImage>(this))
{
    m_canvas->setAccessibleName(tr("Page"));
    m_canvas->setAccessibleDescription(tr("The scanned page with its word boxes and entity labels; click or drag to select words"));
    m_pageBox->setAccessibleName(tr("Page number"));
    connect(m_imageLoad, &QFutureWatcherBase::finished, this, [this] {
        if (m_loadingPath != m_imagePath || m_imageLoad->isCanceled())
            return; // another page was asked for meanwhile
        m_image = m_imageLoad->result();
        showPage(currentPage());
    });
    m_canvas->setObjectName(QStringLiteral("pageCanvas"));
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Page"), this));
    bar->addWidget(m_pageBox);
    bar->addWidget(m_pageCount);
    auto *fit = new QToolButton(this);
    fit->setText(tr("Fit"));
    auto *zoomIn = new QToolButton(this);
    zoomIn->setText(QStringLiteral("+"));
    auto *zoomOut = new QToolButton(this);
    zoomOut->setText(QStringLiteral("−"));
    auto *region = new QToolButton(this);
    region->setText(tr("Re-OCR region"));
    region->setCheckable(true);
    region->setToolTip(tr("Draw a rectangle on the page to OCR it again (text you corrected is kept)"));
    auto *link = new QToolButton(this);
    link->setObjectName(QStringLiteral("linkTool"));
    link->setText(tr("Link"));
    link->setCheckable(true);
    link->setToolTip(tr("Drag from a key (question) to its value (answer) to link the two entities"));
    auto *labels = new QToolButton(this);
    labels->setObjectName(QStringLiteral("labelsToggle"));
    labels->setText(tr("Labels"));
    labels->setCheckable(true);
    labels->setChecked(true);
    labels->setToolTip(tr("Show the entity labels on the page (a label without room, or any when zoomed out, is a "
                          "colour bar: hover it for the text)"));
    bar->addStretch();
    bar->addWidget(labels);
    bar->addWidget(link);
    bar->addWidget(region);
    bar->addWidget(zoomOut);
    bar->addWidget(zoomIn);
    bar->addWidget(fit);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_canvas, 1);

    connect(labels, &QToolButton::toggled, m_canvas, &PageCanvas::setLabelsVisible);
    connect(fit, &QToolButton::clicked, m_canvas, &PageCanvas::fitToWindow);
    connect(zoomIn, &QToolButton::clicked, m_canvas, &PageCanvas::zoomIn);
    connect(zoomOut, &QToolButton::clicked, m_canvas, &PageCanvas::zoomOut);
    connect(region, &QToolButton::toggled, this, &ScanPanel::setRegionTool);
    connect(link, &QToolButton::toggled, this, [this, region](bool on) {
        if (on)
            region->setChecked(false);
        m_canvas->setTool(on ? PageCanvas::Tool::DrawLink : PageCanvas::Tool::Select);
    });
    connect(m_canvas, &PageCanvas::linkDrawn, this, [this](int fromWord, int toWord) {
        const QString from = entityOfWord(fromWord), to = entityOfWord(toWord);
        if (from.isEmpty() || to.isEmpty() || from == to) {
            Q_EMIT message(tr("A link joins two labelled entities: label both ends first"));
            return;
        }
        m_session->addLink(from, to);
    });
    connect(m_pageBox, &QSpinBox::valueChanged, this, [this](int oneBased) { showPage(oneBased - 1); });

    connect(m_canvas, &PageCanvas::selectionChanged, this, [this](const QList<int> &words) {
        if (m_syncing)
            return;
        QStringList ids;
        const auto &all = m_session->document().words;
        for (int w : words)
            if (w >= 0 && w < int(all.size()))
                ids << all[size_t(w)].id;
        m_syncing = true;
        m_session->setSelectedWords(ids);
        if (m_tree && !words.isEmpty())
            m_tree->setCurrentIndex(m_model->indexForWord(words.last()));
        m_syncing = false;
    });
    connect(m_canvas, &PageCanvas::wordEditRequested, this, [this](int word, const QString &text) {
        const auto &all = m_session->document().words;
        if (word >= 0 && word < int(all.size()))
            m_session->editWordText(all[size_t(word)].id, text);
    });
    connect(m_canvas, &PageCanvas::regionDrawn, this, [this, region](int page, const QRect &rect) {
        region->setChecked(false);
        Q_EMIT regionRequested(page, rect);
    });
    connect(m_canvas, &PageCanvas::wordHovered, this, &ScanPanel::wordHovered);

    connect(session, &AnnotationSession::documentOpened, this, &ScanPanel::showDocument);
    connect(session, &AnnotationSession::documentChanged, this, [this] { showPage(currentPage()); });
    // Words replaced (re-OCR of a region, or its undo): new tree, same page.
    connect(session, &AnnotationSession::documentReplaced, this, [this] {
        if (m_session->document().kind == SourceKind::Html)
            return;
        const int page = currentPage();
        m_model->setDocument(m_session->document());
        showPage(page);
    });
    connect(session, &AnnotationSession::annotationsChanged, this, &ScanPanel::refreshOverlays);
    connect(session, &AnnotationSession::selectionChanged, this, &ScanPanel::syncSelectionFromSession);
}

int ScanPanel::currentPage() const
{
    return m_canvas->page() < 0 ? 0 : m_canvas->page();
}

void ScanPanel::attachTree(QTreeView *tree)
{
    m_tree = tree;
    tree->setModel(m_model);
    connect(tree->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex &index) {
        if (m_syncing)
            return;
        const int word = m_model->wordForIndex(index);
        if (word < 0)
            return;
        const auto &all = m_session->document().words;
        if (word >= int(all.size()))
            return;
        if (all[size_t(word)].page != currentPage())
            showPage(all[size_t(word)].page);
        m_syncing = true;
        m_canvas->setCurrentWord(word);
        m_session->setSelectedWords({all[size_t(word)].id});
        m_syncing = false;
    });
}

void ScanPanel::showDocument()
{
    const Document &doc = m_session->document();
    if (doc.kind == SourceKind::Html)
        return;
    m_model->setDocument(doc);
    const int pages = std::max<int>(1, int(doc.pages.size()));
    m_pageBox->blockSignals(true);
    m_pageBox->setRange(1, pages);
    m_pageBox->setValue(1);
    m_pageBox->blockSignals(false);
    m_pageCount->setText(tr("of %1").arg(pages));
    showPage(0);
}

void ScanPanel::showPage(int page)
{
    const Document &doc = m_session->document();
    if (doc.pages.empty()) {
        m_canvas->clear();
        return;
    }
    page = std::clamp(page, 0, int(doc.pages.size()) - 1);
    // Decode a page image once: word edits and overlay changes redraw the same page.
    const QString imagePath = doc.pages[size_t(page)].imagePath;
    if (imagePath != m_imagePath) {
        m_imagePath = imagePath;
        m_image = QImage();
        loadPageImage(imagePath);
    }
    m_canvas->setPage(doc, page, m_image);
    if (m_pageBox->value() != page + 1) {
        m_pageBox->blockSignals(true);
        m_pageBox->setValue(page + 1);
        m_pageBox->blockSignals(false);
    }
    refreshOverlays();
    syncSelectionFromSession(m_session->selectedWords());
}

void ScanPanel::loadPageImage(const QString &path)
{
    m_loadingPath = path;
    if (path.isEmpty())
        return;
    m_imageLoad->setFuture(QtConcurrent::run(readPageImage, path));
}

void ScanPanel::setOverlayColors(const QHash<int, QColor> &colors)
{
    m_overlayColors = colors;
    refreshOverlays();
}

void ScanPanel::setOverlayLabels(const QHash<int, QString> &labels)
{
    m_overlayLabels = labels;
    refreshOverlays();
}

void ScanPanel::refreshOverlays()
{
    if (!m_overlayColors.isEmpty() || !m_overlayLabels.isEmpty()) {
        m_canvas->setBoxColors(m_overlayColors);
        m_canvas->setBoxLabels(m_overlayLabels);
        return;
    }
    const Document &doc = m_session->document();
    QHash<QString, int> wordIndex;
    for (size_t i = 0; i < doc.words.size(); ++i)
        wordIndex.insert(doc.words[i].id, int(i));
    QHash<int, QColor> colors;
    QHash<int, QString> labels;
    for (const Entity &e : m_session->annotations().entities) {
        if (e.state == ReviewState::Rejected)
            continue;
        const bool suggested = e.state == ReviewState::Suggested;
        const QColor color = labelColor(e.label, suggested ? 45 : 95);
        bool first = true;
        for (const QString &id : e.wordIds) {
            const int w = wordIndex.value(id, -1);
            if (w < 0)
                continue;
            colors.insert(w, color);
            if (first)
                labels.insert(w, suggested ? QStringLiteral("%1 %2%").arg(e.label).arg(qRound(e.confidence * 100)) : e.label);
            first = false;
        }
    }
    m_canvas->setBoxColors(colors);
    m_canvas->setBoxLabels(labels);
    QList<QPair<int, int>> links, suggestedLinks;
    for (const Link &l : m_session->annotations().links) {
        if (l.state == ReviewState::Rejected)
            continue;
        const Entity *from = m_session->annotations().entity(l.from);
        const Entity *to = m_session->annotations().entity(l.to);
        if (from && to && !from->wordIds.isEmpty() && !to->wordIds.isEmpty())
            (l.state == ReviewState::Suggested ? suggestedLinks : links)
                .append({wordIndex.value(from->wordIds.first(), -1), wordIndex.value(to->wordIds.first(), -1)});
    }
    m_canvas->setLinks(links, suggestedLinks);
}

QString ScanPanel::entityOfWord(int wordIndex) const
{
    const auto &words = m_session->document().words;
    if (wordIndex < 0 || wordIndex >= int(words.size()))
        return {};
    const QString id = words[size_t(wordIndex)].id;
    for (const Entity &e : m_session->annotations().entities)
        if (e.state != ReviewState::Rejected && e.wordIds.contains(id))
            return e.id;
    return {};
}

void ScanPanel::setRegionTool(bool on)
{
    m_canvas->setTool(on ? PageCanvas::Tool::DrawRegion : PageCanvas::Tool::Select);
}

void ScanPanel::syncSelectionFromSession(const QStringList &wordIds)
{
    if (m_syncing)
        return;
    const Document &doc = m_session->document();
    QList<int> indices;
    for (const QString &id : wordIds) {
        const int w = doc.wordIndex(id);
        if (w >= 0)
            indices << w;
    }
    m_syncing = true;
    m_canvas->setSelection(indices);
    m_syncing = false;
}

} // namespace folio
