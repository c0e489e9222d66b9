#include "ui/attention/headgridpanel.h"

#include "attention/attentionviewmodel.h"
#include "ui/attention/headgridview.h"
#include "widgets/palettecolors.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFuture>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QShowEvent>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace folio {

namespace {

QString mib(qint64 bytes) { return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 1); }

// A node per global token from its word: the word's DOM node (web pages) or its section.
void treeOfDocument(const AttentionTrace &trace, const Document &doc, std::vector<int> *tokenNode, std::vector<int> *parent,
                    QString *name)
{
    tokenNode->clear();
    parent->clear();
    name->clear();
    std::vector<int> wordNode(doc.words.size(), -1);
    if (doc.kind == SourceKind::Html && !doc.nodes.empty()) {
        for (const Node &n : doc.nodes)
            parent->push_back(n.parent);
        for (std::size_t w = 0; w < doc.words.size(); ++w)
            wordNode[w] = doc.words[w].node;
        *name = QStringLiteral("DOM-tree");
    } else if (!doc.sections.empty()) {
        for (const Section &s : doc.sections)
            parent->push_back(s.parent);
        for (std::size_t s = 0; s < doc.sections.size(); ++s) // pre-order: deeper sections come later
            for (int w = std::max(0, doc.sections[s].firstWord); w < doc.sections[s].endWord && w < int(wordNode.size()); ++w)
                wordNode[std::size_t(w)] = int(s);
        *name = QStringLiteral("section-tree");
    } else {
        return;
    }
    for (int w : trace.tokenWord)
        tokenNode->push_back(w >= 0 && w < int(wordNode.size()) ? wordNode[std::size_t(w)] : -1);
}

} // namespace

HeadGridPanel::HeadGridPanel(QWidget *parent) : QWidget(parent)
{
    buildUi();
    takeTrace();
}

HeadGridPanel::~HeadGridPanel()
{
    if (m_cancel)
        *m_cancel = true;
    // Workers hold their own copy of the trace and post to this object only through queued calls
    // (dropped once it is gone); they stop at the next thumbnail once cancelled.
    for (QFuture<void> &f : m_futures)
        f.waitForFinished();
}

void HeadGridPanel::buildUi()
{
    setObjectName(QStringLiteral("headGridPanel"));
    m_view = new HeadGridView(this);
    m_show = new QComboBox(this);
    m_show->setObjectName(QStringLiteral("headGridShow"));
    m_show->addItem(tr("the selected word on the page"), 0);
    m_show->addItem(tr("each head's whole matrix"), 1);
    m_sort = new QComboBox(this);
    m_sort->setObjectName(QStringLiteral("headGridSort"));
    m_sort->addItem(tr("layer order"), int(HeadSort::None));
    m_sort->addItem(tr("mean 2-D distance on the page"), int(HeadSort::Distance));
    m_sort->addItem(tr("mean tree distance"), int(HeadSort::TreeDistance));
    m_sort->addItem(tr("entropy"), int(HeadSort::Entropy));
    m_bias = new QCheckBox(tr("Bias rows"), this);
    m_bias->setChecked(true);
    m_bias->setToolTip(tr("Show each bias term (1-D, 2-D, ...) as an extra row of thumbnails"));
    m_windowBox = new QSpinBox(this);
    m_windowBox->setAccessibleName(tr("Window"));
    m_windowBox->setMinimum(1);
    m_windowBox->setToolTip(tr("Which window of a long document the grid shows"));
    m_tokens = new QSpinBox(this);
    m_tokens->setAccessibleName(tr("Tokens shown"));
    m_tokens->setMinimum(2);
    m_tokens->setMaximum(2);
    m_tokens->setEnabled(false);
    m_tokens->setToolTip(tr("A trace too large for memory is shown as a smaller window: its first tokens"));
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *png = new QPushButton(tr("PNG…"), this);
    auto *svg = new QPushButton(tr("SVG…"), this);
    auto *html = new QPushButton(tr("HTML…"), this);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_view);
    scroll->setWidgetResizable(false);

    auto *row1 = new QHBoxLayout;
    row1->addWidget(new QLabel(tr("Show"), this));
    row1->addWidget(m_show);
    row1->addWidget(new QLabel(tr("Sort heads by"), this));
    row1->addWidget(m_sort);
    row1->addWidget(m_bias);
    row1->addWidget(new QLabel(tr("Window"), this));
    row1->addWidget(m_windowBox);
    row1->addWidget(new QLabel(tr("Tokens"), this));
    row1->addWidget(m_tokens);
    row1->addStretch(1);
    auto *row2 = new QHBoxLayout;
    row2->addWidget(m_status, 1);
    row2->addWidget(png);
    row2->addWidget(svg);
    row2->addWidget(html);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(row1);
    layout->addWidget(scroll, 1);
    layout->addLayout(row2);

    connect(m_view, &HeadGridView::thumbnailClicked, this, &HeadGridPanel::onThumbnailClicked);
    connect(m_sort, &QComboBox::currentIndexChanged, this, [this] { applyOrder(); });
    connect(m_bias, &QCheckBox::toggled, this, [this] { recompute(); });
    connect(m_show, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(m_windowBox, &QSpinBox::valueChanged, this, [this] { takeTrace(); });
    connect(m_tokens, &QSpinBox::valueChanged, this, [this] {
        if (m_cropped)
            takeTrace();
    });
    connect(png, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("png")); });
    connect(svg, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("svg")); });
    connect(html, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("html")); });
}

void HeadGridPanel::setViewModel(AttentionViewModel *model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (model)
        connect(model, &AttentionViewModel::traceChanged, this, &HeadGridPanel::takeTrace);
    takeTrace();
}

void HeadGridPanel::setMemoryBudget(qint64 bytes)
{
    m_budget = std::max<qint64>(1024, bytes);
    takeTrace();
}

void HeadGridPanel::setThumbnailSide(int pixels)
{
    m_side = std::clamp(pixels, 16, 256);
    recompute();
}

void HeadGridPanel::setSort(HeadSort sort)
{
    const int i = m_sort->findData(int(sort));
    if (i >= 0)
        m_sort->setCurrentIndex(i);
}

void HeadGridPanel::setBiasRows(bool on) { m_bias->setChecked(on); }

void HeadGridPanel::takeTrace()
{
    m_note.clear();
    m_cropped = false;
    if (!m_model || !m_model->hasTrace()) {
        m_trace.reset();
        m_document = Document();
        m_sourceBytes = 0;
        recompute();
        return;
    }
    const AttentionTrace &src = m_model->trace();
    m_document = m_model->document();
    m_sourceBytes = attentionTraceBytes(src);
    {
        const QSignalBlocker block(m_windowBox);
        m_windowBox->setMaximum(std::max(1, int(src.windows.size())));
    }
    const int window = std::clamp(m_windowBox->value() - 1, 0, std::max(0, int(src.windows.size()) - 1));
    if (m_sourceBytes <= m_budget) {
        m_trace = std::make_shared<const AttentionTrace>(src);
        m_window = window;
        const QSignalBlocker block(m_tokens);
        m_tokens->setMaximum(std::max(2, src.windows.empty() ? 2 : src.windows[std::size_t(window)].length));
        m_tokens->setValue(m_tokens->maximum());
        m_tokens->setEnabled(false);
    } else {
        // The largest square block of this window that fits: (layers + bias terms) x heads x n² floats.
        const AttentionWindow &w = src.windows[std::size_t(window)];
        const double perCell = double(src.layerCount + int(w.biasTerms.size())) * src.headCount * sizeof(float);
        const int fit = std::clamp(int(std::floor(std::sqrt(double(m_budget) / std::max(1.0, perCell)))), 2, std::max(2, w.length));
        const bool firstCrop = !m_tokens->isEnabled();
        {
            const QSignalBlocker block(m_tokens);
            m_tokens->setEnabled(true);
            m_tokens->setMaximum(fit);
            if (firstCrop)
                m_tokens->setValue(fit);
        }
        const int n = std::min(m_tokens->value(), fit);
        m_trace = std::make_shared<const AttentionTrace>(cropAttentionWindow(src, window, 0, n));
        m_window = 0;
        m_cropped = true;
        m_note = tr("The trace holds %1 MiB of attention (%2 layers × %3 heads, %4 window(s) of up to %5 tokens), more than "
                    "the grid's budget of %6 MiB: showing tokens 1–%7 of window %8. Choose a smaller window under Tokens "
                    "(at most %9 fit).")
                     .arg(mib(m_sourceBytes)).arg(src.layerCount).arg(src.headCount).arg(src.windows.size())
                     .arg(std::max_element(src.windows.begin(), src.windows.end(),
                                           [](const AttentionWindow &a, const AttentionWindow &b) { return a.length < b.length; })->length)
                     .arg(mib(m_budget)).arg(n).arg(window + 1).arg(fit);
        say(m_note);
    }
    m_boxes = headGridTokenBoxes(*m_trace, &m_document);
    treeOfDocument(*m_trace, m_document, &m_tokenNode, &m_treeParent, &m_treeName);
    const int treeItem = m_sort->findData(int(HeadSort::TreeDistance));
    m_sort->setItemText(treeItem, m_treeName == QLatin1String("DOM-tree")       ? tr("mean DOM-tree distance")
                                  : m_treeName == QLatin1String("section-tree") ? tr("mean section-tree distance")
                                                                                : tr("mean tree distance (no DOM or sections)"));
    if (auto *itemModel = qobject_cast<QStandardItemModel *>(m_sort->model()))
        if (QStandardItem *item = itemModel->item(treeItem))
            item->setEnabled(!m_treeParent.empty());
    if (m_treeParent.empty() && m_sort->currentData().toInt() == int(HeadSort::TreeDistance))
        m_sort->setCurrentIndex(0);
    recompute();
}

void HeadGridPanel::selectWord(int wordIndex)
{
    m_word = wordIndex;
    if (wordIndex >= 0 && m_show->currentData().toInt() != 0) {
        const QSignalBlocker block(m_show);
        m_show->setCurrentIndex(0);
    }
    // A word in another window of an uncropped trace: show that window.
    int token = -1, window = 0;
    if (m_trace && !m_cropped && wordIndex >= 0 && headGridTokenOfWord(*m_trace, wordIndex, &token, &window) &&
        window != m_window) {
        const QSignalBlocker block(m_windowBox);
        m_windowBox->setValue(window + 1);
        m_window = window;
    }
    recompute();
}

HeadGridOptions HeadGridPanel::options() const
{
    HeadGridOptions o;
    o.window = m_window;
    o.selectedToken = m_selectedToken;
    o.sort = HeadSort(m_sort->currentData().toInt());
    o.biasRows = m_bias->isChecked();
    const int heads = m_trace ? m_trace->headCount : 1;
    const int rows = std::max(1, int(m_rows.size()));
    o.size = QSize(std::clamp(96 + heads * 110, 200, 20000), std::clamp(36 + rows * 124, 200, 20000));
    o.tokenTreeNode = m_tokenNode;
    o.treeParent = m_treeParent;
    if (m_trace) {
        const QString what = m_selectedToken >= 0 && m_word >= 0 && m_word < int(m_document.words.size())
                                 ? tr("word %1 '%2'").arg(m_word).arg(m_document.words[std::size_t(m_word)].text)
                                 : tr("the whole matrix");
        o.title = tr("%1: %2 layers x %3 heads, %4, window %5").arg(m_trace->modelType).arg(m_trace->layerCount)
                      .arg(m_trace->headCount).arg(what).arg(m_window + 1);
    }
    return o;
}

void HeadGridPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_deferred)
        recompute();
}

void HeadGridPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && isDarkPalette(palette()) != m_dark && m_trace && !m_trace->isEmpty())
        recompute();
}

void HeadGridPanel::recompute()
{
    m_deferred = parentWidget() && !isVisible() && m_trace && !m_trace->isEmpty();
    ++m_generation;
    if (m_cancel)
        *m_cancel = true;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_rows.clear();
    m_stats.clear();
    m_order.clear();
    m_selectedToken = -1;
    if (!m_trace || m_trace->isEmpty()) {
        m_view->setGrid(QStringList(), 0, m_side);
        m_status->setText(tr("No attention trace: run Model > Show Attention first."));
        return;
    }
    if (m_deferred) {
        m_view->setGrid(QStringList(), 0, m_side);
        return;
    }
    const AttentionTrace &t = *m_trace;
    m_window = std::clamp(m_window, 0, int(t.windows.size()) - 1);
    QString what = tr("each head's whole matrix");
    if (m_show->currentData().toInt() == 0) {
        int token = -1, window = -1;
        const AttentionWindow &w = t.windows[std::size_t(m_window)];
        if (m_word < 0)
            what = tr("each head's whole matrix (click a word on the page to see its attention)");
        else if (!headGridTokenOfWord(t, m_word, &token, &window) || token < w.firstToken || token >= w.firstToken + w.length)
            what = tr("each head's whole matrix: the model saw no token of word %1 in this window").arg(m_word);
        else {
            m_selectedToken = token;
            what = m_word < int(m_document.words.size()) ? tr("word %1 '%2'").arg(m_word).arg(m_document.words[std::size_t(m_word)].text)
                                                         : tr("word %1").arg(m_word);
        }
    }
    m_rows = headGridRows(t, m_window, m_bias->isChecked());
    QStringList names;
    for (const HeadGridRow &r : m_rows)
        names << r.name;
    m_view->setGrid(names, t.headCount, m_side);
    m_order.assign(m_rows.size(), sortedHeadOrder({}, -1, t.headCount, HeadSort::None));
    applyOrder();
    m_status->setText((m_note.isEmpty() ? QString() : m_note + QLatin1Char('\n')) +
                      tr("%1 layers × %2 heads%3 of %4, window %5 of %6: %7 — computing…")
                          .arg(t.layerCount).arg(t.headCount)
                          .arg(int(m_rows.size()) > t.layerCount ? tr(" + %1 bias rows").arg(int(m_rows.size()) - t.layerCount) : QString())
                          .arg(t.modelType).arg(m_window + 1).arg(t.windows.size()).arg(what));

    // Off the GUI thread: thumbnails row by row (each row shown as it is drawn), then the
    // statistics for sorting.
    const std::shared_ptr<const AttentionTrace> trace = m_trace;
    const std::vector<HeadGridRow> rows = m_rows;
    const std::vector<QRectF> boxes = m_boxes;
    const std::vector<int> tokenNode = m_tokenNode, parent = m_treeParent;
    const std::shared_ptr<std::atomic<bool>> cancel = m_cancel;
    const int gen = m_generation, window = m_window, token = m_selectedToken, side = m_side;
    m_dark = isDarkPalette(palette());
    const bool dark = m_dark;
    ++m_inFlight;
    QPointer<HeadGridPanel> self(this);
    m_futures.erase(std::remove_if(m_futures.begin(), m_futures.end(), [](const QFuture<void> &f) { return f.isFinished(); }),
                    m_futures.end());
    m_futures.push_back(QtConcurrent::run([=] {
        const int heads = trace->headCount, length = trace->windows[std::size_t(window)].length;
        for (std::size_t r = 0; r < rows.size() && !*cancel; ++r) {
            HeatmapScale scale = headGridRowScale(rows[r], heads, length);
            scale.dark = dark; // on screen in the palette's colours; exports keep the light scale
            std::vector<QImage> images;
            for (int h = 0; h < heads && !*cancel; ++h)
                images.push_back(headThumbnail(*trace, window, rows[r], h, token, boxes, scale, side));
            QMetaObject::invokeMethod(self.data(), [self, gen, r, images] {
                if (!self || gen != self->m_generation)
                    return;
                auto &order = self->m_order;
                if (r >= order.size())
                    return;
                for (int c = 0; c < int(order[r].size()); ++c) {
                    const int h = order[r][std::size_t(c)];
                    if (h < int(images.size()))
                        self->m_view->setThumbnail(int(r), c, images[std::size_t(h)]);
                }
            }, Qt::QueuedConnection);
        }
        // The statistics to sort by, once every thumbnail is out (sorting moves them when they arrive).
        if (!*cancel) {
            std::vector<HeadStatistics> stats = headStatistics(*trace, window, boxes);
            if (!parent.empty())
                addTreeDistances(&stats, *trace, window, tokenNode, parent);
            QMetaObject::invokeMethod(self.data(), [self, gen, stats] {
                if (!self || gen != self->m_generation)
                    return;
                self->m_stats = stats;
                self->applyOrder();
            }, Qt::QueuedConnection);
        }
        const bool cancelled = *cancel;
        QMetaObject::invokeMethod(self.data(), [self, gen, cancelled] {
            if (!self)
                return;
            --self->m_inFlight;
            if (gen != self->m_generation || cancelled)
                return;
            QString s = self->m_status->text();
            s.replace(tr(" — computing…"), QString());
            self->m_status->setText(s);
            Q_EMIT self->gridReady();
        }, Qt::QueuedConnection);
    }));
}

void HeadGridPanel::applyOrder()
{
    if (!m_trace)
        return;
    const HeadSort sort = HeadSort(m_sort->currentData().toInt());
    for (std::size_t r = 0; r < m_rows.size() && r < m_order.size(); ++r) {
        // Thumbnails drawn so far, by head, before the columns move.
        std::vector<QImage> byHead(std::size_t(m_trace->headCount));
        for (int c = 0; c < int(m_order[r].size()); ++c)
            byHead[std::size_t(m_order[r][std::size_t(c)])] = m_view->thumbnail(int(r), c);
        m_order[r] = m_stats.empty() || m_rows[r].layer < 0 ? sortedHeadOrder({}, -1, m_trace->headCount, HeadSort::None)
                                                            : sortedHeadOrder(m_stats, m_rows[r].layer, m_trace->headCount, sort);
        QStringList labels;
        for (int c = 0; c < int(m_order[r].size()); ++c) {
            const int h = m_order[r][std::size_t(c)];
            labels << QStringLiteral("h%1").arg(h);
            m_view->setThumbnail(int(r), c, byHead[std::size_t(h)]);
        }
        m_view->setColumnLabels(int(r), labels);
    }
}

int HeadGridPanel::expectedThumbnailCount() const { return m_trace ? int(m_rows.size()) * m_trace->headCount : 0; }

std::vector<int> HeadGridPanel::headOrder(int row) const
{
    return row >= 0 && row < int(m_order.size()) ? m_order[std::size_t(row)] : std::vector<int>();
}

int HeadGridPanel::rowLayer(int row) const { return row >= 0 && row < int(m_rows.size()) ? m_rows[std::size_t(row)].layer : -1; }

QString HeadGridPanel::rowBiasTerm(int row) const
{
    return row >= 0 && row < int(m_rows.size()) ? m_rows[std::size_t(row)].biasTerm : QString();
}

QString HeadGridPanel::statusText() const { return m_status->text(); }

void HeadGridPanel::onThumbnailClicked(int row, int column)
{
    const std::vector<int> order = headOrder(row);
    if (column < 0 || column >= int(order.size()))
        return;
    const int head = order[std::size_t(column)];
    const int layer = rowLayer(row);
    Q_EMIT headChosen(layer, head, rowBiasTerm(row));
}

bool HeadGridPanel::exportTo(const QString &path, QString *error) const
{
    if (!m_trace || m_trace->isEmpty()) {
        if (error)
            *error = tr("No attention trace to export: run Model > Show Attention first.");
        return false;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return saveHeadGridHtml(*m_trace, m_boxes, options(), path, error);
    return saveHeadGrid(*m_trace, m_boxes, options(), path, error);
}

void HeadGridPanel::exportWithDialog(const QString &suffix)
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Head Grid"), QStringLiteral("headgrid.") + suffix,
                                                      tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix));
    if (path.isEmpty())
        return;
    QString error;
    if (exportTo(path, &error))
        say(tr("Head grid written to %1").arg(path));
    else
        say(error);
}

void HeadGridPanel::say(const QString &text) { Q_EMIT message(text); }

} // namespace folio
