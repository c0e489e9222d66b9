#include "ui/explain/whylabelpanel.h"

#include "ui/explain/taggerholder.h"

#include <QComboBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace folio {

struct WhyLabelPanel::StageResult
{
    bool cancelled = false;
    bool hasLabels = false;
    pipeline::WordLabels labels;
    pipeline::WordAttributions attributions;
};

WhyLabelPanel::WhyLabelPanel(QWidget *parent)
    : QWidget(parent), m_latest(std::make_shared<std::atomic<int>>(0)), m_tagger(std::make_shared<TaggerHolder>())
{
    m_pool.setMaxThreadCount(1);
    buildUi();
    syncControls();
}

WhyLabelPanel::~WhyLabelPanel()
{
    m_latest->store(-1);
    m_pool.waitForDone();
}

void WhyLabelPanel::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("whyLabelTitle"));
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    auto *row = new QHBoxLayout;
    auto *stepsLabel = new QLabel(tr("Integrated-gradient steps:"), this);
    row->addWidget(stepsLabel);
    m_steps = new QSpinBox(this);
    stepsLabel->setBuddy(m_steps);
    m_steps->setAccessibleName(tr("Integrated-gradient steps"));
    m_steps->setObjectName(QStringLiteral("whyLabelSteps"));
    m_steps->setRange(0, 1024);
    m_steps->setValue(128);
    m_steps->setToolTip(tr("Steps of the midpoint rule from the all-zero input embedding (0: none). Each step is "
                           "one forward and one backward pass."));
    row->addWidget(m_steps);
    row->addSpacing(12);
    auto *shownLabel = new QLabel(tr("On the page:"), this);
    row->addWidget(shownLabel);
    m_shownBox = new QComboBox(this);
    shownLabel->setBuddy(m_shownBox);
    m_shownBox->setObjectName(QStringLiteral("whyLabelShown"));
    m_shownBox->addItem(tr("Integrated gradients"), int(Shown::IntegratedGradients));
    m_shownBox->addItem(tr("Gradient × input"), int(Shown::GradientInput));
    m_shownBox->addItem(tr("Attention rollout"), int(Shown::Rollout));
    row->addWidget(m_shownBox);
    row->addStretch(1);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("whyLabelProgress"));
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(220);
    row->addWidget(m_progress);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("whyLabelCancel"));
    row->addWidget(m_cancel);
    layout->addLayout(row);
    m_method = new QLabel(this);
    m_method->setObjectName(QStringLiteral("whyLabelMethod"));
    m_method->setWordWrap(true);
    layout->addWidget(m_method);
    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("whyLabelTable"));
    m_table->setAccessibleName(tr("Attributions over the words"));
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setHorizontalHeaderLabels({tr("Word"), tr("Text"), tr("Label"), tr("Rollout"), tr("Gradient × input"),
                                        tr("IG"), tr("IG (box)"), tr("IG (text)")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    layout->addWidget(m_table, 1);
    m_tick = new QTimer(this);
    m_tick->setInterval(200);
    connect(m_tick, &QTimer::timeout, this, [this] {
        if (m_estimate <= 0)
            return;
        const double f = std::min(0.97, m_stageClock.elapsed() / 1000.0 / m_estimate);
        m_progress->setValue(10 + int(90 * f));
    });
    connect(m_cancel, &QPushButton::clicked, this, &WhyLabelPanel::cancel);
    connect(m_shownBox, &QComboBox::currentIndexChanged, this, [this] {
        m_shown = Shown(m_shownBox->currentData().toInt());
        showResult();
    });
}

void WhyLabelPanel::setCheckpointProvider(std::function<QString()> provider) { m_checkpointProvider = std::move(provider); }
QString WhyLabelPanel::checkpoint() const { return m_checkpointProvider ? m_checkpointProvider() : QString(); }
void WhyLabelPanel::setIgSteps(int steps) { m_steps->setValue(steps); }
int WhyLabelPanel::igSteps() const { return m_steps->value(); }

void WhyLabelPanel::setShown(Shown shown)
{
    const int i = m_shownBox->findData(int(shown));
    if (i >= 0)
        m_shownBox->setCurrentIndex(i);
}

void WhyLabelPanel::setDocument(const Document &document)
{
    cancel();
    m_document = document;
    m_labels = pipeline::WordLabels();
    m_labelsCheckpoint.clear();
    ++m_documentGeneration;
    m_word = -1;
    m_stage = 0;
    m_result = pipeline::WordAttributions();
    m_lastMessage.clear();
    showResult();
}

void WhyLabelPanel::explainWord(int word)
{
    if (m_document.words.empty()) {
        say(tr("Why this label: open a scanned page or a form first."));
        return;
    }
    if (checkpoint().isEmpty()) {
        say(tr("Why this label: choose a model first (Model > Choose Model)."));
        return;
    }
    if (word < 0 || word >= int(m_document.words.size())) {
        say(tr("Why this label: there is no word %1 on this document.").arg(word));
        return;
    }
    if (m_document.words[std::size_t(word)].text.trimmed().isEmpty()) {
        say(tr("Why this label: word %1 is blank; the model does not read it.").arg(word));
        return;
    }
    ++m_generation;
    m_latest->store(m_generation);
    m_word = word;
    m_stage = 0;
    m_runSteps = m_steps->value();
    m_result = pipeline::WordAttributions();
    m_lastMessage.clear();
    m_active = true;
    showResult();
    runStage(1);
}

void WhyLabelPanel::cancel()
{
    if (!m_active)
        return;
    m_active = false;
    ++m_generation;
    m_latest->store(m_generation);
    m_tick->stop();
    m_estimate = 0;
    if (m_stage > 0 && m_stage < 3)
        say(tr("Cancelled: the attributions shown stop at the stage that had finished."));
    else if (m_stage == 0)
        say(tr("Cancelled."));
    syncControls();
}

void WhyLabelPanel::runStage(int stage)
{
    const QString dir = checkpoint();
    inference::TaggerExplainOptions options;
    options.gradients = stage >= 2;
    options.igSteps = stage >= 3 ? m_runSteps : 0;
    const int generation = m_generation;
    const int documentGeneration = m_documentGeneration;
    const bool needLabels = !m_labels.ok || m_labelsCheckpoint != dir;
    const int word = m_word;
    auto latest = m_latest;
    auto tagger = m_tagger;
    const Document document = m_document;
    const pipeline::WordLabels labels = needLabels ? pipeline::WordLabels() : m_labels;
    auto *watcher = new QFutureWatcher<StageResult>(this);
    connect(watcher, &QFutureWatcher<StageResult>::finished, this, [this, watcher, generation, documentGeneration, stage, dir] {
        --m_running;
        StageResult r = watcher->result();
        watcher->deleteLater();
        if (r.hasLabels && r.labels.ok && documentGeneration == m_documentGeneration && dir == checkpoint()) {
            m_labels = r.labels;
            m_labelsCheckpoint = dir;
        }
        onStageDone(r, generation, stage);
    });
    ++m_running;
    m_stageClock.start();
    m_estimate = stage == 3 && m_result.gradientSeconds > 0 ? m_runSteps * m_result.gradientSeconds : 0;
    m_progress->setValue(stage == 1 ? 0 : stage == 2 ? 5 : 10);
    if (m_estimate > 0)
        m_tick->start();
    watcher->setFuture(QtConcurrent::run(&m_pool, [latest, tagger, generation, dir, options, needLabels, word, document, labels] {
        StageResult r;
        if (latest->load() != generation) {
            r.cancelled = true;
            return r;
        }
        QString error;
        inference::TaggerExplainer *explainer = loadedTagger(*tagger, dir, &error);
        if (!explainer) {
            r.attributions.error = error;
            return r;
        }
        pipeline::WordLabels use = labels;
        if (needLabels) {
            r.labels = pipeline::taggerWordLabels(*explainer, document);
            r.hasLabels = true;
            if (!r.labels.ok) {
                r.attributions.error = r.labels.error;
                return r;
            }
            use = r.labels;
        }
        r.attributions = pipeline::explainWordAttributions(*explainer, document, use, word, options);
        return r;
    }));
    syncControls();
}

void WhyLabelPanel::onStageDone(const StageResult &r, int generation, int stage)
{
    if (generation != m_generation || r.cancelled) {
        syncControls();
        return;
    }
    m_tick->stop();
    if (!r.attributions.ok) {
        m_active = false;
        say(tr("Why this label: the model could not explain word %1: %2").arg(m_word).arg(r.attributions.error));
        syncControls();
        Q_EMIT finished(false);
        return;
    }
    m_result = r.attributions;
    m_stage = stage;
    showResult();
    Q_EMIT stageShown(stage);
    const int last = m_runSteps > 0 ? 3 : 2;
    if (stage < last) {
        runStage(stage + 1);
        return;
    }
    m_progress->setValue(100);
    m_active = false;
    syncControls();
    Q_EMIT finished(true);
}

void WhyLabelPanel::showResult()
{
    const pipeline::WordAttributions &a = m_result;
    m_table->setRowCount(0);
    if (!a.ok) {
        m_method->clear();
        refreshOverlay();
        syncControls();
        return;
    }
    // Largest first by the measure shown on the page (falling back to what was computed).
    const auto measure = [this, &a](const pipeline::AttributionRow &r) {
        if (m_shown == Shown::IntegratedGradients && a.igSteps > 0)
            return std::abs(r.ig);
        if (m_shown != Shown::Rollout && a.gradients)
            return std::abs(r.gradInput);
        return r.rollout;
    };
    std::vector<pipeline::AttributionRow> rows = a.rows;
    std::stable_sort(rows.begin(), rows.end(), [&](const auto &x, const auto &y) { return measure(x) > measure(y); });
    m_table->setRowCount(int(rows.size()));
    const auto number = [](double v, bool known) {
        auto *item = new QTableWidgetItem(known ? QString::number(v, 'f', 4) : QStringLiteral("–"));
        item->setData(Qt::UserRole, v);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return item;
    };
    for (int i = 0; i < int(rows.size()); ++i) {
        const pipeline::AttributionRow &r = rows[std::size_t(i)];
        auto *word = new QTableWidgetItem(QString::number(r.word));
        word->setData(Qt::UserRole, r.word);
        m_table->setItem(i, WordColumn, word);
        m_table->setItem(i, TextColumn, new QTableWidgetItem(r.text));
        m_table->setItem(i, LabelColumn, new QTableWidgetItem(r.label.isEmpty() ? QStringLiteral("O") : r.label));
        m_table->setItem(i, RolloutColumn, number(r.rollout, true));
        m_table->setItem(i, GradInputColumn, number(r.gradInput, a.gradients));
        m_table->setItem(i, IgColumn, number(r.ig, a.igSteps > 0));
        m_table->setItem(i, IgBoxColumn, number(r.igBox, a.igSteps > 0));
        m_table->setItem(i, IgTextColumn, number(r.igText, a.igSteps > 0));
    }
    m_table->resizeColumnsToContents();
    QString method = tr("Rollout: attention averaged over the %1 heads, plus the identity, rows renormalised, "
                        "multiplied over %2 layers (%3 words in the window).").arg(a.heads).arg(a.layers).arg(a.windowWords);
    if (a.gradients)
        method += QLatin1Char(' ') + tr("Gradient × input: ⟨∂ logit / ∂ x, x⟩ at each word's input embedding.");
    if (a.igSteps > 0)
        method += QLatin1Char(' ')
                  + tr("Integrated gradients: %1 midpoint steps from the all-zero embedding (α = u^%2); their sum %3 "
                       "against logit − baseline logit %4.")
                        .arg(a.igSteps).arg(a.igPower).arg(a.igSum, 0, 'f', 3).arg(a.logit - a.baselineLogit, 0, 'f', 3);
    m_method->setText(method);
    refreshOverlay();
    syncControls();
}

void WhyLabelPanel::refreshOverlay()
{
    QHash<int, QColor> colors;
    const pipeline::WordAttributions &a = m_result;
    if (a.ok) {
        const bool ig = m_shown == Shown::IntegratedGradients && a.igSteps > 0;
        const bool gi = !ig && m_shown != Shown::Rollout && a.gradients;
        const auto value = [&](const pipeline::AttributionRow &r) { return ig ? r.ig : gi ? r.gradInput : r.rollout; };
        double top = 0;
        for (const auto &r : a.rows)
            if (r.word != a.word)
                top = std::max(top, std::abs(value(r)));
        for (const auto &r : a.rows) {
            if (r.word == a.word || top <= 0)
                continue;
            const double v = value(r);
            const int alpha = int(20 + 180 * std::min(1.0, std::abs(v) / top));
            colors.insert(r.word, v >= 0 ? QColor(230, 40, 0, alpha) : QColor(0, 80, 230, alpha));
        }
        colors.insert(a.word, QColor(255, 200, 0, 200));
    }
    if (colors == m_colors)
        return;
    m_colors = colors;
    Q_EMIT wordColorsChanged(colors);
}

bool WhyLabelPanel::reshowOverlay()
{
    if (m_colors.isEmpty())
        return false;
    Q_EMIT wordColorsChanged(m_colors);
    return true;
}

QString WhyLabelPanel::statusText() const { return m_title->text(); }

void WhyLabelPanel::say(const QString &text)
{
    m_lastMessage = text;
    Q_EMIT message(text);
    syncControls();
}

void WhyLabelPanel::syncControls()
{
    const bool busy = m_active;
    m_cancel->setEnabled(busy);
    m_progress->setVisible(busy || m_stage > 0);
    QString title;
    if (m_word < 0) {
        title = tr("Click a word on the page to see why the model gave it its label.");
    } else {
        const QString text = m_word < int(m_document.words.size()) ? m_document.words[std::size_t(m_word)].text : QString();
        if (m_result.ok)
            title = tr("Word %1 “%2”: %3 (logit %4).").arg(m_word).arg(text, m_result.label).arg(m_result.logit, 0, 'f', 3);
        else
            title = tr("Word %1 “%2”.").arg(m_word).arg(text);
        if (busy)
            title += QLatin1Char(' ') + (m_stage == 0   ? tr("Computing the attention rollout…")
                                         : m_stage == 1 ? tr("Computing gradient × input…")
                                                        : tr("Computing integrated gradients (%1 steps)…").arg(m_runSteps));
    }
    if (!m_lastMessage.isEmpty())
        title += QLatin1Char('\n') + m_lastMessage;
    m_title->setText(title);
}

} // namespace folio
