#include "ui/explain/whatifpanel.h"

#include "ui/explain/taggerholder.h"
#include "widgets/pagecanvas.h"

#include <QCheckBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace folio {

struct WhatIfPanel::RunResult
{
    bool ok = false;
    bool cancelled = false;
    QString error;
    bool hasBefore = false;
    pipeline::WordLabels before;
    pipeline::WordLabels after;
};

namespace {

const QColor kChanged(255, 140, 0, 120);
const QColor kDeleted(120, 120, 120, 140);

QString labelText(const QString &label) { return label.isEmpty() ? QStringLiteral("O") : label; }

} // namespace

WhatIfPanel::WhatIfPanel(QWidget *parent)
    : QWidget(parent), m_latest(std::make_shared<std::atomic<int>>(0)), m_tagger(std::make_shared<TaggerHolder>())
{
    m_pool.setMaxThreadCount(1);
    buildUi();
    syncControls();
}

WhatIfPanel::~WhatIfPanel()
{
    m_latest->store(-1); // a queued run does not start; the one in flight stops at its next page
    m_pool.waitForDone();
}

void WhatIfPanel::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    auto *row = new QHBoxLayout;
    m_editToggle = new QCheckBox(tr("Edit boxes"), this);
    m_editToggle->setObjectName(QStringLiteral("whatIfEditToggle"));
    m_editToggle->setToolTip(tr("Drag a word's box to move it, drag its bottom-right corner to resize it, press "
                                "Delete to delete the selected word. The model re-runs on an edited copy; the "
                                "document itself is not changed."));
    m_undo = new QPushButton(tr("Undo Last Edit"), this);
    m_undo->setObjectName(QStringLiteral("whatIfUndo"));
    m_back = new QPushButton(tr("Back to the Document"), this);
    m_back->setObjectName(QStringLiteral("whatIfBack"));
    row->addWidget(m_editToggle);
    row->addStretch(1);
    row->addWidget(m_undo);
    row->addWidget(m_back);
    layout->addLayout(row);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("whatIfStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_table = new QTableWidget(0, 4, this);
    m_table->setObjectName(QStringLiteral("whatIfChanges"));
    m_table->setAccessibleName(tr("Words whose label changed"));
    m_table->setHorizontalHeaderLabels({tr("Word"), tr("Text"), tr("Before"), tr("After")});
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    layout->addWidget(m_table, 1);
    connect(m_editToggle, &QCheckBox::toggled, this, &WhatIfPanel::setEditing);
    connect(m_undo, &QPushButton::clicked, this, &WhatIfPanel::undoLastEdit);
    connect(m_back, &QPushButton::clicked, this, &WhatIfPanel::backToDocument);
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (m_canvas && m_table->item(row, 0))
            m_canvas->setCurrentWord(m_table->item(row, 0)->data(Qt::UserRole).toInt());
    });
}

void WhatIfPanel::setCheckpointProvider(std::function<QString()> provider) { m_checkpointProvider = std::move(provider); }

QString WhatIfPanel::checkpoint() const { return m_checkpointProvider ? m_checkpointProvider() : QString(); }

void WhatIfPanel::attachCanvas(PageCanvas *canvas)
{
    if (m_canvas)
        disconnect(m_canvas, nullptr, this, nullptr);
    m_canvas = canvas;
    if (!canvas)
        return;
    connect(canvas, &PageCanvas::boxEditRequested, this, [this](int word, const QRectF &r) { requestBox(word, r); });
    connect(canvas, &PageCanvas::boxDeleteRequested, this, [this](int word) { requestDelete(word); });
}

void WhatIfPanel::setDocument(const Document &document)
{
    m_document = document;
    m_edited = document;
    m_edits.clear();
    m_before = pipeline::WordLabels();
    m_beforeCheckpoint.clear();
    m_lastMessage.clear();
    ++m_documentGeneration;
    ++m_generation;
    m_latest->store(m_generation);
    clearDiff();
    if (m_canvas)
        m_canvas->setEditedBoxes({});
    if (m_editing && document.kind == SourceKind::Html)
        setEditing(false);
    else if (m_editing)
        startRun(); // the unedited labels, ahead of the first edit
    syncControls();
}

void WhatIfPanel::setEditing(bool on)
{
    if (on && m_document.words.empty()) {
        say(tr("What if: open a scanned page or a form first."));
        on = false;
    } else if (on && m_document.kind == SourceKind::Html) {
        say(tr("What if: the boxes of a web page cannot be dragged; open a scanned page or a form."));
        on = false;
    } else if (on && checkpoint().isEmpty()) {
        say(tr("What if: choose a model first (Model > Choose Model)."));
        on = false;
    }
    m_editing = on;
    if (m_editToggle->isChecked() != on) {
        const QSignalBlocker block(m_editToggle);
        m_editToggle->setChecked(on);
    }
    if (m_canvas)
        m_canvas->setTool(on ? PageCanvas::Tool::EditBoxes : PageCanvas::Tool::Select);
    if (on && (m_beforeCheckpoint != checkpoint() || !m_before.ok) && m_running == 0)
        startRun();
    syncControls();
}

bool WhatIfPanel::requestBox(int word, const QRectF &pageRect)
{
    if (word < 0 || word >= int(m_edited.words.size())) {
        say(tr("What if: there is no word %1 on this document.").arg(word));
        return false;
    }
    const Word &w = m_edited.words[std::size_t(word)];
    const QSizeF page = w.page >= 0 && w.page < int(m_edited.pages.size()) ? m_edited.pages[std::size_t(w.page)].size : QSizeF();
    const QRectF r = pageRect.normalized();
    if (page.isEmpty()) {
        say(tr("What if: page %1 has no size, so its boxes cannot be moved.").arg(w.page + 1));
        return false;
    }
    if (!r.intersects(QRectF(QPointF(0, 0), page))) {
        say(tr("What if: “%1” was dropped off the page (the page is %2 × %3): drag it onto the page. Nothing changed.")
                .arg(w.text).arg(page.width()).arg(page.height()));
        return false;
    }
    std::vector<pipeline::WordEdit> edits = m_edits;
    const QRectF cur = w.box;
    if (std::abs(r.width() - cur.width()) > 1e-6 || std::abs(r.height() - cur.height()) > 1e-6)
        edits.push_back(pipeline::WordEdit{pipeline::WordEdit::Kind::Resize, word, r.width() - cur.width(), r.height() - cur.height()});
    if (std::abs(r.left() - cur.left()) > 1e-6 || std::abs(r.top() - cur.top()) > 1e-6)
        edits.push_back(pipeline::WordEdit{pipeline::WordEdit::Kind::Move, word, r.left() - cur.left(), r.top() - cur.top()});
    if (edits.size() == m_edits.size())
        return false;
    const bool offEdge = !QRectF(QPointF(0, 0), page).contains(r);
    return applyEdits(std::move(edits), offEdge ? tr("“%1” reached past the page's edge: its box was clamped onto the page.").arg(w.text)
                                                : QString());
}

bool WhatIfPanel::requestDelete(int word)
{
    if (word < 0 || word >= int(m_edited.words.size())) {
        say(tr("What if: there is no word %1 on this document.").arg(word));
        return false;
    }
    const Word &w = m_edited.words[std::size_t(word)];
    if (w.text.trimmed().isEmpty()) {
        say(tr("What if: word %1 is already deleted.").arg(word));
        return false;
    }
    int left = 0;
    for (const Word &o : m_edited.words)
        if (o.page == w.page && !o.text.trimmed().isEmpty())
            ++left;
    if (left <= 1) {
        say(tr("What if: deleting “%1” would leave page %2 without words, and the model would have nothing to "
               "read. Nothing changed.").arg(w.text).arg(w.page + 1));
        return false;
    }
    std::vector<pipeline::WordEdit> edits = m_edits;
    edits.push_back(pipeline::WordEdit{pipeline::WordEdit::Kind::Delete, word, 0, 0});
    return applyEdits(std::move(edits));
}

bool WhatIfPanel::applyEdits(std::vector<pipeline::WordEdit> edits, const QString &clampNote)
{
    if (checkpoint().isEmpty()) {
        say(tr("What if: choose a model first (Model > Choose Model). Nothing changed."));
        return false;
    }
    pipeline::EditedDocument edited = pipeline::applyWordEdits(m_document, edits);
    if (!edited.ok) {
        say(tr("What if refused: %1. Nothing changed.").arg(edited.error));
        return false;
    }
    m_edits = std::move(edits);
    m_edited = std::move(edited.document);
    m_lastMessage.clear();
    ++m_generation;
    m_latest->store(m_generation);
    refreshCanvas();
    if (!clampNote.isEmpty())
        say(clampNote);
    startRun();
    syncControls();
    return true;
}

void WhatIfPanel::undoLastEdit()
{
    if (m_edits.empty())
        return;
    // A drag made a resize and a move of one word: both go.
    const int word = m_edits.back().word;
    std::vector<pipeline::WordEdit> edits = m_edits;
    edits.pop_back();
    if (!edits.empty() && edits.back().word == word && edits.back().kind == pipeline::WordEdit::Kind::Resize
        && m_edits.back().kind == pipeline::WordEdit::Kind::Move)
        edits.pop_back();
    if (edits.empty()) {
        backToDocument();
        return;
    }
    applyEdits(std::move(edits));
}

void WhatIfPanel::backToDocument()
{
    m_edits.clear();
    m_edited = m_document;
    m_lastMessage.clear();
    ++m_generation;
    m_latest->store(m_generation);
    clearDiff();
    refreshCanvas();
    syncControls();
}

void WhatIfPanel::refreshCanvas()
{
    if (!m_canvas)
        return;
    QHash<int, QRectF> boxes;
    QSet<int> deleted;
    for (const pipeline::WordEdit &e : m_edits) {
        const auto i = std::size_t(e.word);
        if (e.kind == pipeline::WordEdit::Kind::Delete)
            deleted.insert(e.word);
        else if (m_edited.words[i].box != m_document.words[i].box)
            boxes.insert(e.word, m_edited.words[i].box);
    }
    m_canvas->setEditedBoxes(boxes, deleted);
}

void WhatIfPanel::startRun()
{
    const QString dir = checkpoint();
    if (dir.isEmpty())
        return;
    const bool needBefore = !m_before.ok || m_beforeCheckpoint != dir;
    const bool needAfter = !m_edits.empty();
    if (!needBefore && !needAfter)
        return;
    const int generation = m_generation;
    auto latest = m_latest;
    auto tagger = m_tagger;
    const Document original = needBefore ? m_document : Document();
    const Document edited = needAfter ? m_edited : Document();
    auto *watcher = new QFutureWatcher<RunResult>(this);
    const int documentGeneration = m_documentGeneration;
    connect(watcher, &QFutureWatcher<RunResult>::finished, this, [this, watcher, generation, documentGeneration, dir] {
        --m_running;
        RunResult r = watcher->result();
        watcher->deleteLater();
        if (r.hasBefore && r.before.ok && documentGeneration == m_documentGeneration && dir == checkpoint()) {
            m_before = r.before;
            m_beforeCheckpoint = dir;
            Q_EMIT labelsReady();
        }
        onRunDone(r, generation);
    });
    ++m_running;
    watcher->setFuture(QtConcurrent::run(&m_pool, [latest, tagger, generation, dir, needBefore, needAfter, original, edited] {
        RunResult r;
        const auto cancelled = [latest, generation] { return latest->load() != generation; };
        if (cancelled()) {
            r.cancelled = true;
            return r;
        }
        QString error;
        inference::TaggerExplainer *explainer = loadedTagger(*tagger, dir, &error);
        if (!explainer) {
            r.error = error;
            return r;
        }
        if (needBefore) {
            r.before = pipeline::taggerWordLabels(*explainer, original);
            r.hasBefore = true;
            if (!r.before.ok) {
                r.error = r.before.error;
                return r;
            }
        }
        if (needAfter) {
            r.after = pipeline::taggerWordLabels(*explainer, edited, cancelled);
            if (!r.after.ok) {
                r.cancelled = cancelled();
                r.error = r.after.error;
                return r;
            }
        }
        r.ok = true;
        return r;
    }));
    syncControls();
}

void WhatIfPanel::onRunDone(const RunResult &r, int generation)
{
    if (generation != m_generation || r.cancelled) {
        syncControls(); // superseded: the newest edit's run is queued behind it (or ran already)
        return;
    }
    if (!r.ok) {
        say(tr("What if: the model could not run: %1").arg(r.error));
        syncControls();
        return;
    }
    if (!m_edits.empty() && r.after.ok) {
        m_after = r.after.labels;
        m_changes = pipeline::labelChanges(m_document, m_edited, m_before.labels, m_after);
        m_diffGeneration = generation;
        showDiff();
    }
    syncControls();
}

void WhatIfPanel::showDiff()
{
    m_table->setRowCount(0);
    QHash<int, QColor> colors;
    QHash<int, QString> labels;
    m_table->setRowCount(int(m_changes.size()));
    int row = 0;
    for (const pipeline::LabelChange &c : m_changes) {
        const QString after = c.deleted ? tr("(deleted)") : labelText(c.after);
        auto *word = new QTableWidgetItem(QString::number(c.word));
        word->setData(Qt::UserRole, c.word);
        m_table->setItem(row, 0, word);
        m_table->setItem(row, 1, new QTableWidgetItem(c.text));
        m_table->setItem(row, 2, new QTableWidgetItem(labelText(c.before)));
        m_table->setItem(row, 3, new QTableWidgetItem(after));
        colors.insert(c.word, c.deleted ? kDeleted : kChanged);
        labels.insert(c.word, QStringLiteral("%1 → %2").arg(labelText(c.before), after));
        ++row;
    }
    m_table->resizeColumnsToContents();
    Q_EMIT overlayColorsChanged(colors);
    Q_EMIT overlayLabelsChanged(labels);
    Q_EMIT diffShown();
}

void WhatIfPanel::reshowDiff()
{
    if (hasDiff())
        showDiff();
}

void WhatIfPanel::clearDiff()
{
    const bool had = m_diffGeneration >= 0 || m_table->rowCount() > 0;
    m_changes.clear();
    m_after.clear();
    m_diffGeneration = -1;
    m_table->setRowCount(0);
    if (had) {
        Q_EMIT overlayColorsChanged({});
        Q_EMIT overlayLabelsChanged({});
    }
}

QString WhatIfPanel::statusText() const { return m_status->text(); }

void WhatIfPanel::say(const QString &text)
{
    m_lastMessage = text;
    Q_EMIT message(text);
    syncControls();
}

void WhatIfPanel::syncControls()
{
    m_undo->setEnabled(!m_edits.empty());
    m_back->setEnabled(!m_edits.empty());
    QString text;
    if (!m_editing && m_edits.empty())
        text = tr("Turn on “Edit boxes”, then drag, resize or delete a word box: the model re-runs on an edited copy.");
    else if (m_edits.empty())
        text = m_running > 0 ? tr("Running the model on the document…") : tr("Drag, resize or delete a word box.");
    else if (m_running > 0 && m_diffGeneration != m_generation)
        text = tr("%n edit(s); running the model on the edited copy…", nullptr, int(m_edits.size()));
    else if (m_diffGeneration == m_generation) {
        int seen = 0;
        for (const QString &l : m_before.labels)
            seen += l.isEmpty() ? 0 : 1;
        text = tr("%n edit(s): %1 of %2 words changed their label.", nullptr, int(m_edits.size()))
                   .arg(m_changes.size()).arg(seen);
    } else
        text = tr("%n edit(s).", nullptr, int(m_edits.size()));
    if (!m_lastMessage.isEmpty())
        text += QLatin1Char('\n') + m_lastMessage;
    m_status->setText(text);
}

} // namespace folio
