#include "ui/qs/qspanel.h"

#include "document/formats/datasetlimits.h"
#include "document/qstree.h"
#include "ui/annotation/annotationsession.h"
#include "ui/commands/qscommands.h"
#include "ui/qs/qstreemodel.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSet>
#include <QSplitter>
#include <QTextBrowser>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace folio {

QsPanel::QsPanel(AnnotationSession *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_model(new QsTreeModel(this)), m_view(new QTreeView(this)),
      m_rootSummary(new QLineEdit(this)), m_message(new QLabel(this)), m_detail(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("qsPanel"));
    m_view->setObjectName(QStringLiteral("qsTree"));
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setDragEnabled(true);
    m_view->setAcceptDrops(true);
    m_view->setDropIndicatorShown(true);
    m_view->setDragDropMode(QAbstractItemView::DragDrop);
    m_view->setDefaultDropAction(Qt::MoveAction);
    m_view->header()->setSectionResizeMode(QsTreeModel::QuestionColumn, QHeaderView::Stretch);
    m_view->header()->setStretchLastSection(false);
    m_view->installEventFilter(this);
    m_rootSummary->setObjectName(QStringLiteral("qsRootSummary"));
    m_rootSummary->setAccessibleName(tr("Summary of the whole document"));
    m_view->setAccessibleName(tr("Questions and summaries"));
    m_detail->setAccessibleName(tr("Question details"));
    m_rootSummary->setPlaceholderText(tr("Summary of the whole document"));
    m_message->setObjectName(QStringLiteral("qsMessage"));
    m_message->setWordWrap(true);
    m_detail->setObjectName(QStringLiteral("qsDetail"));
    m_detail->setOpenLinks(false);
    m_detail->setPlaceholderText(tr("The current question, its summary and evidence appear here in full."));

    auto *bar = new QToolBar(this);
    const auto add = [&](const QString &text, const QString &keys, auto slot) {
        QAction *a = bar->addAction(text, this, slot);
        a->setToolTip(QStringLiteral("%1 (%2)").arg(text, keys));
    };
    add(tr("Sibling"), tr("Insert"), [this] { addSibling(); });
    add(tr("Child"), tr("Shift+Insert"), [this] { addChild(); });
    add(tr("Delete"), tr("Delete"), [this] { deleteCurrent(); });
    add(tr("Promote"), tr("Shift+Tab"), [this] { promote(); });
    add(tr("Demote"), tr("Tab"), [this] { demote(); });
    add(tr("Accept"), tr("A; Shift+A: all"), [this] { acceptCurrent(); });
    add(tr("Reject"), tr("R"), [this] { rejectCurrent(); });
    add(tr("Attach evidence"), tr("E: selected words or section; Shift+E clears"), [this] { attachEvidence(); });
    add(tr("Regenerate below"), tr("G"), [this] { if (!currentId().isEmpty()) Q_EMIT regenerateRequested(currentId()); });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(bar);
    layout->addWidget(m_rootSummary);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("qsSplitter"));
    split->addWidget(m_view);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    layout->addWidget(m_message);

    connect(m_model, &QsTreeModel::textEdited, this, [this](const QString &id, const QString &q, const QString &s) {
        QMetaObject::invokeMethod(this, [this, id, q, s] { editQuestion(id, q, s); }, Qt::QueuedConnection);
    });
    connect(m_model, &QsTreeModel::moveRequested, this, &QsPanel::moveItem);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex &current) {
        if (m_refreshing)
            return;
        m_current = m_model->idOf(current);
        showDetail();
        Q_EMIT currentItemChanged(m_current);
    });
    connect(m_rootSummary, &QLineEdit::editingFinished, this, [this] { setRootSummary(m_rootSummary->text()); });
    if (m_session) {
        connect(m_session, &AnnotationSession::annotationsChanged, this, &QsPanel::refresh);
        connect(m_session, &AnnotationSession::documentOpened, this, [this] {
            m_current.clear();
            refresh();
        });
    }
    refresh();
}

QString QsPanel::currentId() const { return m_current; }
QString QsPanel::message() const { return m_message->text(); }

void QsPanel::showMessage(const QString &text) { m_message->setText(text); }

void QsPanel::setCurrentId(const QString &id)
{
    const QModelIndex index = m_model->indexOf(id);
    if (!index.isValid())
        return;
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
}

void QsPanel::refresh()
{
    const Annotations empty;
    const Annotations &a = m_session ? m_session->annotations() : empty;
    // Keep what the user folded and where they are across the rebuild.
    QSet<QString> collapsed;
    std::vector<QModelIndex> stack;
    for (int r = 0; r < m_model->rowCount(); ++r) stack.push_back(m_model->index(r, 0));
    while (!stack.empty()) {
        const QModelIndex i = stack.back();
        stack.pop_back();
        if (m_model->rowCount(i) > 0 && !m_view->isExpanded(i)) collapsed.insert(m_model->idOf(i));
        for (int r = 0; r < m_model->rowCount(i); ++r) stack.push_back(m_model->index(r, 0, i));
    }
    const QString current = m_current;
    m_refreshing = true;
    m_model->setHierarchy(a.qsRoots);
    m_view->expandAll();
    for (const QString &id : collapsed)
        m_view->collapse(m_model->indexOf(id));
    const QModelIndex index = m_model->indexOf(current);
    if (index.isValid()) {
        m_view->setCurrentIndex(index);
        m_view->scrollTo(index);
    }
    m_refreshing = false;
    const QString now = m_model->idOf(m_view->currentIndex());
    if (now != current) {
        m_current = now;
        Q_EMIT currentItemChanged(m_current);
    } else if (!m_current.isEmpty()) {
        Q_EMIT currentItemChanged(m_current); // its evidence may have changed
    }
    if (!m_rootSummary->hasFocus() && m_rootSummary->text() != a.qsSummary) {
        m_rootSummary->setText(a.qsSummary);
        m_rootSummary->setCursorPosition(0); // show its beginning, not the end setText leaves the cursor at
    }
    m_rootSummary->setToolTip(a.qsSummary);
    showDetail();
    setEnabled(m_session && m_session->currentDocumentId() >= 0);
}

void QsPanel::showDetail()
{
    const QsNode *n = m_session ? qsFind(m_session->annotations().qsRoots, m_current) : nullptr;
    if (!n) {
        m_detail->clear();
        return;
    }
    QString html = QStringLiteral("<p><b>%1</b></p><p>%2</p>")
                       .arg(n->question.toHtmlEscaped(), n->summary.isEmpty() ? tr("<i>no summary</i>") : n->summary.toHtmlEscaped());
    QStringList facts;
    if (!n->evidenceSpans.empty() || !n->evidenceSections.isEmpty())
        facts << tr("Evidence: %n passage(s)", nullptr, int(n->evidenceSpans.size())) +
                     (n->evidenceSections.isEmpty() ? QString() : tr(", %n section(s)", nullptr, int(n->evidenceSections.size()))) +
                     tr(" (highlighted on the page)");
    else
        facts << tr("No evidence attached (select words or a section and press E).");
    if (n->source.kind == AnnotationSource::Model)
        facts << tr("Suggested by %1, confidence %2").arg(n->source.checkpoint).arg(n->confidence, 0, 'f', 2);
    html += QStringLiteral("<p style='color:gray'>%1</p>").arg(facts.join(QStringLiteral("<br>")).toHtmlEscaped().replace(QStringLiteral("&lt;br&gt;"), QStringLiteral("<br>")));
    m_detail->setHtml(html);
}

void QsPanel::startEditing(const QString &id, int column)
{
    const QModelIndex index = m_model->indexOf(id, column);
    if (!index.isValid())
        return;
    m_view->setCurrentIndex(index);
    m_view->edit(index);
}

bool QsPanel::editCurrent(const std::function<bool(Annotations &)> &edit, const QString &undoText)
{
    if (!pushQsEdit(m_session, undoText, edit))
        return false;
    showMessage(QString());
    return true;
}

bool QsPanel::addSibling()
{
    QString id;
    const QString after = m_current;
    const bool ok = editCurrent([&](Annotations &a) { return !(id = qsedit::addSibling(a, after)).isEmpty(); }, tr("Add question"));
    if (!ok) {
        showMessage(tr("No question added: the hierarchy is at its size limit or no document is open."));
        return false;
    }
    m_current = id;
    startEditing(id, QsTreeModel::QuestionColumn);
    return true;
}

bool QsPanel::addChild()
{
    QString id;
    const QString parent = m_current;
    const bool ok = editCurrent([&](Annotations &a) { return !(id = qsedit::addChild(a, parent)).isEmpty(); }, tr("Add follow-up question"));
    if (!ok) {
        showMessage(tr("No follow-up added: the hierarchy is at its depth limit (%1 levels) or no item is current.")
                        .arg(DatasetLimits::maxQsDepth));
        return false;
    }
    m_current = id;
    startEditing(id, QsTreeModel::QuestionColumn);
    return true;
}

bool QsPanel::deleteCurrent()
{
    const QString id = m_current;
    const QModelIndex index = m_model->indexOf(id);
    // The next current item: the next sibling, else the previous one, else the parent.
    QString next = m_model->idOf(index.siblingAtRow(index.row() + 1));
    if (next.isEmpty()) next = m_model->idOf(index.siblingAtRow(index.row() - 1));
    if (next.isEmpty()) next = m_model->idOf(index.parent());
    if (!editCurrent([&](Annotations &a) { return qsedit::remove(a, id); }, tr("Delete question")))
        return false;
    m_current = next;
    setCurrentId(next);
    return true;
}

bool QsPanel::promote() { const QString id = m_current; return editCurrent([&](Annotations &a) { return qsedit::promote(a, id); }, tr("Promote question")); }
bool QsPanel::demote() { const QString id = m_current; return editCurrent([&](Annotations &a) { return qsedit::demote(a, id); }, tr("Demote question")); }
bool QsPanel::moveUp() { const QString id = m_current; return editCurrent([&](Annotations &a) { return qsedit::moveUp(a, id); }, tr("Move question up")); }
bool QsPanel::moveDown() { const QString id = m_current; return editCurrent([&](Annotations &a) { return qsedit::moveDown(a, id); }, tr("Move question down")); }
bool QsPanel::acceptCurrent() { const QString id = m_current; return editCurrent([&](Annotations &a) { return qsedit::accept(a, id); }, tr("Accept question")); }
bool QsPanel::rejectCurrent() { const QString id = m_current; return editCurrent([&](Annotations &a) { return qsedit::reject(a, id); }, tr("Reject question")); }
bool QsPanel::clearEvidence() { const QString id = m_current; return editCurrent([&](Annotations &a) { return qsedit::clearEvidence(a, id); }, tr("Clear evidence")); }

bool QsPanel::acceptAll()
{
    return editCurrent([](Annotations &a) {
        bool any = false;
        for (const QsItem &it : qsItems(a.qsRoots))
            any = qsedit::accept(a, it.node->id) || any;
        return any;
    }, tr("Accept all questions"));
}

bool QsPanel::attachEvidence()
{
    if (!m_session || m_current.isEmpty())
        return false;
    const QString id = m_current;
    const QStringList fromSource = m_wordSource ? m_wordSource() : QStringList();
    const QStringList words = fromSource.isEmpty() ? m_session->selectedWords() : fromSource;
    const Document &doc = m_session->document();
    const bool section = m_pickedSection >= 0 && !words.isEmpty() && words == m_pickedWords;
    const bool ok = section ? editCurrent([&](Annotations &a) { return qsedit::attachSection(a, doc, id, m_pickedSection); }, tr("Attach section as evidence"))
                            : editCurrent([&](Annotations &a) { return qsedit::attachWords(a, doc, id, words); }, tr("Attach words as evidence"));
    if (!ok)
        showMessage(words.isEmpty() ? tr("Select words on the page or a section first, then press E.")
                                    : tr("Nothing new to attach: the selection is already evidence of this item."));
    return ok;
}

bool QsPanel::editQuestion(const QString &id, const QString &question, const QString &summary)
{
    const bool ok = editCurrent([&](Annotations &a) { return qsedit::setText(a, id, question, summary); }, tr("Edit question"));
    if (!ok && (question.size() > DatasetLimits::maxStringChars || summary.size() > DatasetLimits::maxStringChars))
        showMessage(tr("Not stored: the text is longer than the limit of %1 characters.").arg(DatasetLimits::maxStringChars));
    return ok;
}

bool QsPanel::setRootSummary(const QString &text)
{
    return editCurrent([&](Annotations &a) {
        if (a.qsSummary == text) return false;
        a.qsSummary = text;
        return qsWithinLimits(a, nullptr);
    }, tr("Edit document summary"));
}

bool QsPanel::moveItem(const QString &id, const QString &newParentId, int row)
{
    const bool ok = editCurrent([&](Annotations &a) { return qsedit::move(a, id, newParentId, row); }, tr("Move question"));
    if (ok)
        setCurrentId(id);
    return ok;
}

void QsPanel::setPickedSection(int sectionIndex, const QStringList &wordIds)
{
    m_pickedSection = sectionIndex;
    m_pickedWords = wordIds;
}

bool QsPanel::handleKey(int key, Qt::KeyboardModifiers mods)
{
    const bool shift = mods & Qt::ShiftModifier;
    const bool alt = mods & Qt::AltModifier;
    if (mods & Qt::ControlModifier)
        return false;
    switch (key) {
    case Qt::Key_Insert: return shift ? addChild() : addSibling(), true;
    case Qt::Key_Delete: return deleteCurrent(), true;
    case Qt::Key_Tab: return demote(), true;
    case Qt::Key_Backtab: return promote(), true;
    case Qt::Key_Up: if (alt) return moveUp(), true; return false;
    case Qt::Key_Down: if (alt) return moveDown(), true; return false;
    case Qt::Key_F2:
        if (!shift) return false;
        startEditing(m_current, QsTreeModel::SummaryColumn);
        return true;
    case Qt::Key_A: if (alt) return false; return shift ? acceptAll() : acceptCurrent(), true;
    case Qt::Key_R: if (alt || shift) return false; return rejectCurrent(), true;
    case Qt::Key_E: if (alt) return false; return shift ? clearEvidence() : attachEvidence(), true;
    case Qt::Key_G:
        if (alt || shift || m_current.isEmpty()) return false;
        Q_EMIT regenerateRequested(m_current);
        return true;
    default: return false;
    }
}

bool QsPanel::eventFilter(QObject *watched, QEvent *event)
{
    // Cell editors are widgets of their own: while one is open, its keys never come here.
    if (watched == m_view && (event->type() == QEvent::KeyPress || event->type() == QEvent::ShortcutOverride)) {
        auto *key = static_cast<QKeyEvent *>(event);
        // Claim our keys before window shortcuts see them (ShortcutOverride), act on the press.
        static const QSet<int> ours{Qt::Key_Insert, Qt::Key_Delete, Qt::Key_Tab, Qt::Key_Backtab, Qt::Key_A, Qt::Key_R, Qt::Key_E, Qt::Key_G};
        const bool claimed = !(key->modifiers() & Qt::ControlModifier)
                             && (ours.contains(key->key()) || ((key->modifiers() & Qt::AltModifier) && (key->key() == Qt::Key_Up || key->key() == Qt::Key_Down))
                                 || (key->key() == Qt::Key_F2 && (key->modifiers() & Qt::ShiftModifier)));
        if (event->type() == QEvent::ShortcutOverride) {
            if (claimed) event->accept();
            return false;
        }
        if (claimed) {
            handleKey(key->key(), key->modifiers());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace folio
