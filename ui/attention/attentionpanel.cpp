#include "ui/attention/attentionpanel.h"

#include "attention/sectionheat.h"
#include "pipeline/attentionrun.h"
#include "widgets/heatmapview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <exception>

namespace folio {

namespace {

const std::uint32_t kFamilies[] = {AttnBias1D, AttnBias2D, AttnBiasDisentangled, AttnBiasHierarchical, AttnBiasGraph,
                                     AttnBiasLayoutFlow};

// "bias.c2p.3" -> "bias.c2p": per-layer terms are chosen by the layer control.
QStringList termBases(const QStringList &names)
{
    static const QRegularExpression layerSuffix(QStringLiteral("\\.\\d+$"));
    QStringList out;
    for (QString n : names) {
        n.remove(layerSuffix);
        if (!out.contains(n))
            out << n;
    }
    return out;
}

} // namespace

AttentionPanel::AttentionPanel(QWidget *parent) : QWidget(parent), m_model(new AttentionViewModel(this))
{
    buildUi();
    connect(m_model, &AttentionViewModel::matrixChanged, this, &AttentionPanel::refreshMatrix);
    connect(m_model, &AttentionViewModel::selectionChanged, this, &AttentionPanel::refreshOverlay);
    connect(m_model, &AttentionViewModel::traceChanged, this, &AttentionPanel::syncControls);
    syncControls();
    refreshMatrix();
}

AttentionPanel::~AttentionPanel() = default;

void AttentionPanel::buildUi()
{
    setObjectName(QStringLiteral("attentionPanel"));
    m_heatmap = new HeatmapView(this);
    m_heatmap->setObjectName(QStringLiteral("attentionHeatmap"));
    m_heatmap->setAccessibleName(tr("Attention heatmap"));
    m_heatmap->setAccessibleDescription(tr("How much each token attends to every other token, for the chosen layer and head"));
    m_layer = new QSpinBox(this);
    m_layer->setAccessibleName(tr("Layer"));
    m_layer->setSpecialValueText(tr("avg"));
    m_layer->setMinimum(-1);
    m_layer->setToolTip(tr("Layer (avg = mean over layers). Up/Down in the heatmap."));
    m_head = new QSpinBox(this);
    m_head->setAccessibleName(tr("Head"));
    m_head->setSpecialValueText(tr("avg"));
    m_head->setMinimum(-1);
    m_head->setToolTip(tr("Head (avg = mean over heads). Left/Right in the heatmap."));
    m_mode = new QComboBox(this);
    m_granularity = new QComboBox(this);
    for (AttentionGranularity g : {AttentionGranularity::Tokens, AttentionGranularity::Words, AttentionGranularity::Entities,
                                   AttentionGranularity::Sections, AttentionGranularity::DomNodes})
        m_granularity->addItem(attentionGranularityName(g), int(g));
    m_direction = new QComboBox(this);
    m_direction->addItem(tr("selection attends to"), 0);
    m_direction->addItem(tr("attends to selection"), 1);
    m_rerun = new QPushButton(tr("Re-run ablated"), this);
    m_rerun->setToolTip(tr("Run the model again with the ticked bias families switched off and show which labels change"));
    auto *png = new QPushButton(tr("PNG…"), this);
    auto *svg = new QPushButton(tr("SVG…"), this);
    auto *mats = new QPushButton(tr("Matrices…"), this);
    auto *hierarchy = new QPushButton(tr("Hierarchy bias…"), this);
    hierarchy->setToolTip(tr("Show a HIBRIDS checkpoint's hierarchical bias between this document's sections"));
    m_hierHeatmap = new HeatmapView(this);
    m_hierHeatmap->setObjectName(QStringLiteral("hierarchyHeatmap"));
    m_hierHeatmap->setAccessibleName(tr("Hierarchy attention heatmap"));
    m_hierHeatmap->hide();
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_diff = new QLabel(this);
    m_diff->setWordWrap(true);

    auto *row1 = new QHBoxLayout;
    row1->addWidget(new QLabel(tr("Layer"), this));
    row1->addWidget(m_layer);
    row1->addWidget(new QLabel(tr("Head"), this));
    row1->addWidget(m_head);
    row1->addWidget(m_mode, 1);
    row1->addWidget(m_granularity);
    row1->addWidget(m_direction);
    // The bias families in a grid of three columns, so the dock stays narrow as families are added
    // (six in one row made the dock's minimum width over 1000 px).
    auto *families = new QGridLayout;
    families->setContentsMargins(0, 0, 0, 0);
    for (std::uint32_t f : kFamilies) {
        auto *box = new QCheckBox(attentionBiasFamilyName(f), this);
        box->setProperty("family", uint(f));
        families->addWidget(box, int(m_ablate.size()) / 3, int(m_ablate.size()) % 3);
        m_ablate << box;
    }
    auto *row2 = new QHBoxLayout;
    row2->addWidget(new QLabel(tr("Ablate:"), this), 0, Qt::AlignTop);
    row2->addLayout(families);
    row2->addWidget(m_rerun, 0, Qt::AlignTop);
    row2->addStretch(1);
    auto *row3 = new QHBoxLayout;
    row3->addStretch(1);
    row3->addWidget(png);
    row3->addWidget(svg);
    row3->addWidget(mats);
    row3->addWidget(hierarchy);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(row1);
    layout->addLayout(row2);
    layout->addLayout(row3);
    layout->addWidget(m_heatmap, 1);
    layout->addWidget(m_hierHeatmap, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_diff);

    connect(m_layer, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_syncing)
            m_model->setLayer(v);
    });
    connect(m_head, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_syncing)
            m_model->setHead(v);
    });
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] { onModeChosen(); });
    connect(m_granularity, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing)
            m_model->setGranularity(AttentionGranularity(m_granularity->currentData().toInt()));
    });
    connect(m_direction, &QComboBox::currentIndexChanged, this, [this] { refreshOverlay(); });
    connect(m_heatmap, &HeatmapView::layerHeadRequested, this, [this](int layer, int head) {
        m_model->setLayer(layer);
        m_model->setHead(head);
    });
    connect(m_heatmap, &HeatmapView::cellClicked, this, [this](int row, int) { m_model->setSelection({row}); });
    connect(m_rerun, &QPushButton::clicked, this, &AttentionPanel::runAblation);
    connect(png, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("png")); });
    connect(svg, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("svg")); });
    connect(mats, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("safetensors")); });
    connect(hierarchy, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("HIBRIDS checkpoint folder"), m_hierCheckpoint);
        if (!dir.isEmpty())
            loadHierarchyBias(dir);
    });
    connect(m_hierHeatmap, &HeatmapView::cellClicked, this, [this](int row, int) { selectHierarchySection(row); });
    connect(m_layer, &QSpinBox::valueChanged, this, [this] { refreshHierarchy(); });
    connect(m_head, &QSpinBox::valueChanged, this, [this] { refreshHierarchy(); });
}

void AttentionPanel::setDocument(const Document &document, const Annotations &annotations)
{
    ++m_generation;
    m_document = document;
    m_annotations = annotations;
    m_labels.clear();
    m_ablatedLabels.clear();
    m_labelDiff.clear();
    m_diff->clear();
    Q_EMIT wordLabelsChanged({});
    m_model->setDocument(document, &annotations);
    // A web page starts on DOM nodes, a scan on words.
    m_syncing = true;
    const AttentionGranularity g = document.kind == SourceKind::Html ? AttentionGranularity::DomNodes : AttentionGranularity::Words;
    m_granularity->setCurrentIndex(m_granularity->findData(int(g)));
    m_syncing = false;
    m_model->setGranularity(g);
    m_hier = pipeline::HibridsSectionBias();
    m_hierSection = -1;
    m_hierHeatmap->hide();
    if (!m_hierCheckpoint.isEmpty() && !document.sections.empty())
        loadHierarchyBias(m_hierCheckpoint);
    refreshOverlay();
}

bool AttentionPanel::showHierarchyBias(const QString &checkpointDir)
{
    return applyHierarchyBias(checkpointDir, pipeline::hibridsSectionBias(checkpointDir, m_document));
}

void AttentionPanel::loadHierarchyBias(const QString &checkpointDir)
{
    // A pytorch_model.bin or checkpoint_best.pt is read whole the first time: off the GUI thread.
    const Document doc = m_document;
    const int generation = m_generation;
    auto *watcher = new QFutureWatcher<pipeline::HibridsSectionBias>(this);
    connect(watcher, &QFutureWatcher<pipeline::HibridsSectionBias>::finished, this, [this, watcher, generation, checkpointDir] {
        pipeline::HibridsSectionBias bias = watcher->result();
        watcher->deleteLater();
        if (generation == m_generation) // else the document changed meanwhile (setDocument reloads it)
            applyHierarchyBias(checkpointDir, std::move(bias));
    });
    say(tr("Reading the hierarchical bias of %1…").arg(checkpointDir));
    watcher->setFuture(QtConcurrent::run([checkpointDir, doc] {
        try {
            return pipeline::hibridsSectionBias(checkpointDir, doc);
        } catch (const std::exception &e) { // a surprise (bad_alloc) stays a message
            pipeline::HibridsSectionBias failed;
            failed.error = QString::fromUtf8(e.what());
            return failed;
        }
    }));
}

bool AttentionPanel::applyHierarchyBias(const QString &checkpointDir, pipeline::HibridsSectionBias bias)
{
    if (!bias.ok) {
        say(bias.error);
        return false;
    }
    m_hierCheckpoint = checkpointDir;
    m_hier = std::move(bias);
    m_hierSection = -1;
    m_hierHeatmap->show();
    refreshHierarchy();
    say(tr("Hierarchical bias: %1 table(s), %2 head(s), %3 sections").arg(m_hier.layers).arg(m_hier.heads).arg(m_hier.sections));
    return true;
}

void AttentionPanel::refreshHierarchy()
{
    if (!m_hier.ok)
        return;
    // The panel's layer / head where the table has them, else the mean.
    const int layer = m_layer->value() < m_hier.layers ? m_layer->value() : -1;
    const int head = m_head->value() < m_hier.heads ? m_head->value() : -1;
    const QString title = tr("hierarchical bias · %1 · %2 · sections")
                              .arg(layer < 0 ? tr("mean of %1 tables").arg(m_hier.layers) : tr("table %1").arg(layer),
                                   head < 0 ? tr("mean of %1 heads").arg(m_hier.heads) : tr("head %1").arg(head));
    m_hierHeatmap->setMatrix(sectionMatrixView(m_document, m_hier.matrix(layer, head), title));
    refreshOverlay();
}

void AttentionPanel::selectHierarchySection(int section)
{
    m_hierSection = m_hier.ok && section >= 0 && section < m_hier.sections ? section : -1;
    m_hierHeatmap->setMarkedRows(m_hierSection >= 0 ? std::vector<int>{m_hierSection} : std::vector<int>{});
    refreshOverlay();
}

bool AttentionPanel::setTrace(AttentionTrace trace, const QStringList &labels)
{
    QString error;
    const QString checkpoint = trace.checkpoint;
    const QStringList skipped = trace.skipped;
    if (!m_model->setTrace(std::move(trace), &error)) {
        say(error);
        return false;
    }
    if (!checkpoint.isEmpty())
        m_checkpoint = checkpoint;
    m_labels = labels;
    m_ablatedLabels.clear();
    m_labelDiff.clear();
    m_diff->clear();
    QString note = m_model->windowNote();
    if (!skipped.isEmpty())
        note += (note.isEmpty() ? QString() : QStringLiteral("; "))
                + tr("%1 blockwise outputs not shown as matrices (%2)").arg(skipped.size()).arg(skipped.mid(0, 3).join(QStringLiteral(", ")));
    say(note);
    return true;
}

void AttentionPanel::runOn(const QString &checkpointDir)
{
    m_checkpoint = checkpointDir;
    startRun(AttnBiasNone);
}

void AttentionPanel::runAblation()
{
    std::uint32_t disabled = 0;
    for (QCheckBox *box : std::as_const(m_ablate))
        if (box->isChecked())
            disabled |= box->property("family").toUInt();
    if (disabled == 0) {
        say(tr("Tick at least one bias family to switch off."));
        return;
    }
    if (!m_model->hasTrace() || m_checkpoint.isEmpty()) {
        say(tr("Run a checkpoint on this document first."));
        return;
    }
    startRun(disabled);
}

void AttentionPanel::startRun(std::uint32_t disabled)
{
    if (m_document.words.empty()) {
        say(tr("The document has no words to run the model on."));
        return;
    }
    const QString dir = m_checkpoint;
    const Document doc = m_document;
    const int generation = m_generation;
    auto *watcher = new QFutureWatcher<AttentionRunResult>(this);
    connect(watcher, &QFutureWatcher<AttentionRunResult>::finished, this, [this, watcher, generation] {
        --m_running;
        AttentionRunResult r = watcher->result();
        watcher->deleteLater();
        if (generation != m_generation)
            return; // the document changed meanwhile
        onRunDone(std::move(r));
    });
    ++m_running;
    say(disabled ? tr("Running %1 without %2…").arg(dir, attentionBiasFamilyName(disabled)) : tr("Running %1 with tracing…").arg(dir));
    watcher->setFuture(QtConcurrent::run([dir, doc, disabled] { return runAttentionOnDocument(dir, doc, disabled); }));
}

void AttentionPanel::onRunDone(AttentionRunResult r)
{
    if (!r.ok) {
        say(r.error);
        Q_EMIT runFinished(false);
        return;
    }
    if (r.trace.disabledBiases == AttnBiasNone) {
        const bool ok = setTrace(std::move(r.trace), r.labels);
        Q_EMIT runFinished(ok);
        return;
    }
    QString error;
    const std::uint32_t disabledFamilies = r.trace.disabledBiases;
    if (!m_model->setAblatedTrace(std::move(r.trace), &error)) {
        say(error);
        Q_EMIT runFinished(false);
        return;
    }
    m_ablatedLabels = r.labels;
    m_labelDiff.clear();
    for (int w = 0; w < std::min(m_labels.size(), m_ablatedLabels.size()); ++w)
        if (m_labels.at(w) != m_ablatedLabels.at(w))
            m_labelDiff.insert(w, qMakePair(m_labels.at(w), m_ablatedLabels.at(w)));
    QStringList lines;
    for (auto it = m_labelDiff.cbegin(); it != m_labelDiff.cend() && lines.size() < 12; ++it) {
        const QString word = it.key() < int(m_document.words.size()) ? m_document.words[std::size_t(it.key())].text : QString();
        lines << tr("%1: %2 → %3").arg(word, it.value().first, it.value().second);
    }
    m_diff->setText(m_labelDiff.isEmpty()
                        ? tr("Without %1 no predicted label changes.").arg(attentionBiasFamilyName(disabledFamilies))
                        : tr("Without %1, %2 word labels change: %3")
                              .arg(attentionBiasFamilyName(disabledFamilies))
                              .arg(m_labelDiff.size())
                              .arg(lines.join(QStringLiteral("; "))));
    QHash<int, QString> diffLabels;
    for (auto it = m_labelDiff.cbegin(); it != m_labelDiff.cend(); ++it)
        diffLabels.insert(it.key(), tr("%1 → %2").arg(it.value().first, it.value().second));
    Q_EMIT wordLabelsChanged(diffLabels);
    syncControls();
    refreshOverlay();
    Q_EMIT runFinished(true);
}

void AttentionPanel::syncControls()
{
    m_syncing = true;
    m_layer->setMaximum(std::max(-1, m_model->layerCount() - 1));
    m_head->setMaximum(std::max(-1, m_model->headCount() - 1));
    m_layer->setValue(m_model->layer());
    m_head->setValue(m_model->head());
    const QString current = m_mode->currentData().toString();
    m_mode->clear();
    m_mode->addItem(tr("attention probabilities"), QStringLiteral("attention"));
    for (const QString &term : termBases(m_model->trace().biasTermNames()))
        m_mode->addItem(tr("bias term %1 (%2)").arg(term, attentionBiasFamilyName(biasFamilyOfTerm(term))),
                        QStringLiteral("bias:") + term);
    if (const AttentionTrace *ab = m_model->ablatedTrace()) {
        m_mode->addItem(tr("attention without %1").arg(attentionBiasFamilyName(ab->disabledBiases)), QStringLiteral("ablated"));
        m_mode->addItem(tr("attention minus attention without %1").arg(attentionBiasFamilyName(ab->disabledBiases)),
                        QStringLiteral("delta"));
    }
    const int idx = m_mode->findData(current);
    m_mode->setCurrentIndex(idx >= 0 ? idx : 0);
    m_syncing = false;
    onModeChosen();
}

void AttentionPanel::onModeChosen()
{
    if (m_syncing)
        return;
    const QString d = m_mode->currentData().toString();
    if (d.startsWith(QLatin1String("bias:")))
        m_model->setMode(AttentionViewMode::BiasTerm, d.mid(5));
    else if (d == QLatin1String("ablated"))
        m_model->setMode(AttentionViewMode::Ablated);
    else if (d == QLatin1String("delta"))
        m_model->setMode(AttentionViewMode::AblationDelta);
    else
        m_model->setMode(AttentionViewMode::Attention);
}

void AttentionPanel::refreshMatrix()
{
    m_syncing = true;
    m_layer->setValue(m_model->layer());
    m_head->setValue(m_model->head());
    m_syncing = false;
    m_heatmap->setLayerHead(m_model->layer(), m_model->head(), m_model->layerCount(), m_model->headCount());
    m_heatmap->setMatrix(m_model->matrix());
    m_status->setText(statusText());
    refreshOverlay();
}

QString AttentionPanel::statusText() const
{
    QString s = m_model->describe();
    if (!m_lastMessage.isEmpty() && !s.contains(m_lastMessage))
        s += QStringLiteral("\n") + m_lastMessage;
    return s;
}

void AttentionPanel::refreshOverlay()
{
    QHash<int, QColor> words;
    const std::vector<int> &sel = m_model->selection();
    m_heatmap->setMarkedRows(sel);
    if (m_model->hasTrace() && !sel.empty()) {
        const bool incoming = m_direction->currentData().toInt() == 1;
        const std::vector<float> perWord = m_model->perWord(incoming ? m_model->incoming() : m_model->outgoing());
        float hi = 0;
        for (std::size_t w = 0; w < perWord.size(); ++w)
            if (std::find(sel.begin(), sel.end(), m_model->unitOfWord(int(w))) == sel.end())
                hi = std::max(hi, perWord[w]);
        for (std::size_t w = 0; w < perWord.size(); ++w) {
            const int unit = m_model->unitOfWord(int(w));
            if (unit < 0)
                continue;
            if (std::find(sel.begin(), sel.end(), unit) != sel.end()) {
                words.insert(int(w), QColor(255, 140, 0, 200)); // the selection itself
                continue;
            }
            const float t = hi > 0 ? std::clamp(perWord[w] / hi, 0.0f, 1.0f) : 0.0f;
            words.insert(int(w), QColor(8, 48, 107, int(20 + 200 * t)));
        }
    } else if (!m_labelDiff.isEmpty()) {
        for (auto it = m_labelDiff.cbegin(); it != m_labelDiff.cend(); ++it)
            words.insert(it.key(), QColor(215, 25, 28, 170));
    }
    QHash<int, QColor> sections;
    if (m_model->hasTrace() && !sel.empty()) {
        const bool incoming = m_direction->currentData().toInt() == 1;
        sections = folio::sectionColors(sectionMeans(m_document, m_model->perWord(incoming ? m_model->incoming() : m_model->outgoing())), false);
    } else if (words.isEmpty() && m_hierSection >= 0) {
        // The hierarchical bias from the picked section to every section, on the tab and the page.
        const int layer = m_layer->value() < m_hier.layers ? m_layer->value() : -1;
        const int head = m_head->value() < m_hier.heads ? m_head->value() : -1;
        const std::vector<float> full = m_hier.matrix(layer, head);
        const std::vector<float> row(full.begin() + std::ptrdiff_t(m_hierSection) * m_hier.sections,
                                     full.begin() + std::ptrdiff_t(m_hierSection + 1) * m_hier.sections);
        sections = folio::sectionColors(row, true);
        words = wordColorsBySection(m_document, row, true);
    }
    m_sectionColors = sections;
    Q_EMIT sectionColorsChanged(sections);
    m_wordColors = words;
    // DOM nodes: the element owning each word's text node takes the strongest of its words.
    QHash<int, QColor> nodes;
    for (auto it = words.cbegin(); it != words.cend(); ++it) {
        if (it.key() >= int(m_document.words.size()))
            continue;
        int n = m_document.words[std::size_t(it.key())].node;
        if (n >= 0 && n < int(m_document.nodes.size()) && m_document.nodes[std::size_t(n)].kind == NodeKind::Text)
            n = m_document.nodes[std::size_t(n)].parent;
        if (n < 0)
            continue;
        auto old = nodes.find(n);
        if (old == nodes.end() || old.value().alpha() < it.value().alpha())
            nodes.insert(n, it.value());
    }
    Q_EMIT wordColorsChanged(words);
    Q_EMIT nodeColorsChanged(nodes);
}

void AttentionPanel::selectWord(int wordIndex, bool add)
{
    if (!m_model->hasTrace()) {
        say(tr("No attention trace yet: run a checkpoint with tracing on."));
        return;
    }
    const int unit = m_model->unitOfWord(wordIndex);
    if (unit < 0) {
        say(tr("Word %1 is not part of any %2 in this trace.").arg(wordIndex).arg(attentionGranularityName(m_model->granularity())));
        if (!add)
            m_model->clearSelection();
        return;
    }
    std::vector<int> sel = add ? m_model->selection() : std::vector<int>();
    sel.push_back(unit);
    m_model->setSelection(sel);
}

void AttentionPanel::onBoxClicked(int wordIndex, Qt::KeyboardModifiers modifiers)
{
    selectWord(wordIndex, modifiers & (Qt::ControlModifier | Qt::ShiftModifier));
}

void AttentionPanel::selectNode(int nodeIndex, bool add)
{
    if (nodeIndex < 0 || nodeIndex >= int(m_document.nodes.size()) || !m_model->hasTrace()) {
        if (!add)
            m_model->clearSelection();
        return;
    }
    std::vector<int> sel = add ? m_model->selection() : std::vector<int>();
    for (std::size_t w = 0; w < m_document.words.size(); ++w) {
        // Is the word's node nodeIndex or below it?
        for (int n = m_document.words[w].node, guard = 0; n >= 0 && guard < 10000; n = m_document.nodes[std::size_t(n)].parent, ++guard) {
            if (n >= int(m_document.nodes.size()))
                break;
            if (n == nodeIndex) {
                const int unit = m_model->unitOfWord(int(w));
                if (unit >= 0)
                    sel.push_back(unit);
                break;
            }
        }
    }
    if (sel.empty())
        say(tr("No words under that node carry attention."));
    m_model->setSelection(sel);
}

void AttentionPanel::clearSelection()
{
    m_model->clearSelection();
}

void AttentionPanel::say(const QString &text)
{
    m_lastMessage = text;
    m_status->setText(statusText());
    if (!text.isEmpty())
        Q_EMIT message(text);
}

bool AttentionPanel::exportPng(const QString &path, QString *error) const
{
    return m_heatmap->exportPng(path, error);
}

bool AttentionPanel::exportSvg(const QString &path, QString *error) const
{
    return m_heatmap->exportSvg(path, error);
}

bool AttentionPanel::exportSafetensors(const QString &path, QString *error) const
{
    return writeAttentionSafetensors(m_model->exportMatrices(), path, error);
}

void AttentionPanel::exportWithDialog(const QString &kind)
{
    if (!m_model->hasTrace()) {
        say(tr("Nothing to export: no trace."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export attention"), QStringLiteral("attention.") + kind,
                                                      QStringLiteral("*.") + kind);
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = kind == QLatin1String("png") ? exportPng(path, &error)
                    : kind == QLatin1String("svg") ? exportSvg(path, &error)
                                                   : exportSafetensors(path, &error);
    say(ok ? tr("Exported %1").arg(path) : error);
}

} // namespace folio
