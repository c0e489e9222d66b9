#include "ui/documents/sectionspanel.h"
#include "ui/legibility.h"

#include "document/document.h"
#include "document/sectionedit.h"
#include "ui/annotation/annotationsession.h"
#include "ui/commands/sectioncommands.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QToolBar>
#include <QTreeWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace folio {

namespace {
constexpr int kShownTitleRole = Qt::UserRole + 1; // the title as the tree was filled with it
} // namespace

SectionsPanel::SectionsPanel(QWidget *parent)
    : QWidget(parent), m_tree(new QTreeWidget(this)), m_empty(new QLabel(tr("This document has no sections."), this)),
      m_toolBar(new QToolBar(this))
{
    m_tree->setObjectName(QStringLiteral("sectionTree"));
    m_tree->setHeaderLabels({tr("Section"), tr("Words")});
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_empty->setAlignment(Qt::AlignCenter);
    m_toolBar->setObjectName(QStringLiteral("sectionToolBar"));
    m_toolBar->setIconSize(QSize(16, 16));
    auto makeAction = [this](const QString &name, const QString &text, const QString &tip, const QKeySequence &key) {
        auto *a = new QAction(text, this);
        a->setObjectName(name);
        a->setToolTip(tip + QStringLiteral(" (%1)").arg(key.toString(QKeySequence::NativeText)));
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
        m_toolBar->addAction(a);
        return a;
    };
    m_split = makeAction(QStringLiteral("sectionSplit"), tr("Split"),
                         tr("Start a new section at the selected word"), QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_merge = makeAction(QStringLiteral("sectionMerge"), tr("Merge"),
                         tr("Merge the section into the one before it"), QKeySequence(Qt::CTRL | Qt::Key_Backspace));
    m_promote = makeAction(QStringLiteral("sectionPromote"), tr("Promote"),
                           tr("Move the section one level up"), QKeySequence(Qt::ALT | Qt::Key_Left));
    m_demote = makeAction(QStringLiteral("sectionDemote"), tr("Demote"),
                          tr("Move the section one level down"), QKeySequence(Qt::ALT | Qt::Key_Right));
    m_rename = makeAction(QStringLiteral("sectionRename"), tr("Rename"), tr("Rename the section"), QKeySequence(Qt::Key_F2));
    m_rename->setShortcutContext(Qt::WidgetShortcut); // the tree's own F2 edits in place
    connect(m_split, &QAction::triggered, this, [this] { splitAtSelectedWord(); });
    connect(m_merge, &QAction::triggered, this, [this] { mergeCurrentWithPrevious(); });
    connect(m_promote, &QAction::triggered, this, [this] { changeCurrentLevel(-1); });
    connect(m_demote, &QAction::triggered, this, [this] { changeCurrentLevel(+1); });
    connect(m_rename, &QAction::triggered, this, [this] {
        if (QTreeWidgetItem *item = m_tree->currentItem())
            m_tree->editItem(item, 0);
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_toolBar);
    layout->addWidget(m_empty);
    layout->addWidget(m_tree);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        updateActions();
        if (!item || m_filling)
            return;
        const int index = item->data(0, Qt::UserRole).toInt();
        if (index >= 0 && index < m_words.size())
            Q_EMIT wordsPicked(m_words.at(index));
    });
    connect(m_tree, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem *item, int column) {
        // Only a title the user typed: colours and counts change items too (itemChanged fires for
        // any data), and each spurious rename copied the Document and refilled the tree.
        if (m_filling || column != 0 || item->text(0) == item->data(0, kShownTitleRole).toString())
            return;
        // Later: the edit rebuilds the tree, which must not happen inside the item's own signal.
        const int index = item->data(0, Qt::UserRole).toInt();
        const QString title = item->text(0);
        QMetaObject::invokeMethod(this, [this, index, title] {
            if (!renameSection(index, title) && m_session)
                setDocument(m_session->document()); // refused (blank, unchanged): the stored title again
        }, Qt::QueuedConnection);
    });
    m_tree->hide();
    m_toolBar->hide();
    updateActions();
}

void SectionsPanel::setSession(AnnotationSession *session)
{
    if (m_session)
        m_session->disconnect(this);
    m_session = session;
    if (m_session) {
        connect(m_session, &AnnotationSession::selectionChanged, this, [this] { updateActions(); });
        connect(m_session, &AnnotationSession::documentReplaced, this, [this] { setDocument(m_session->document()); });
    }
    m_toolBar->setVisible(m_session != nullptr);
    updateActions();
}

QStringList SectionsPanel::sectionWordIds(const Document &doc, int index)
{
    if (index < 0 || index >= int(doc.sections.size()))
        return {};
    QStringList ids;
    std::vector<int> stack{index}; // iterative: section trees follow the page's nesting
    std::vector<std::pair<int, int>> ranges;
    while (!stack.empty()) {
        const Section &s = doc.sections[size_t(stack.back())];
        stack.pop_back();
        ranges.emplace_back(s.firstWord, s.endWord);
        for (int c : s.children)
            stack.push_back(c);
    }
    std::sort(ranges.begin(), ranges.end());
    for (const auto &[first, end] : ranges)
        for (int w = std::max(0, first); w < end && w < int(doc.words.size()); ++w)
            ids << doc.words[size_t(w)].id;
    return ids;
}

void SectionsPanel::setDocument(const Document &doc)
{
    const int current = currentSection();
    m_filling = true;
    m_tree->clear();
    m_words.clear();
    std::vector<QTreeWidgetItem *> items(doc.sections.size(), nullptr);
    for (int i = 0; i < int(doc.sections.size()); ++i) {
        const Section &s = doc.sections[size_t(i)];
        m_words << sectionWordIds(doc, i);
        QTreeWidgetItem *parent = s.parent >= 0 && s.parent < i ? items[size_t(s.parent)] : nullptr;
        auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
        item->setText(0, s.title.isEmpty() ? tr("(untitled, level %1)").arg(s.level) : s.title.left(200));
        item->setData(0, kShownTitleRole, item->text(0));
        item->setText(1, QString::number(m_words.last().size()));
        item->setData(0, Qt::UserRole, i);
        if (m_session)
            item->setFlags(item->flags() | Qt::ItemIsEditable);
        items[size_t(i)] = item;
    }
    m_tree->expandToDepth(1);
    m_tree->setVisible(!doc.sections.empty());
    m_empty->setVisible(doc.sections.empty());
    if (current >= 0 && current < int(items.size())) {
        m_tree->setCurrentItem(items[size_t(current)]);
        m_tree->scrollToItem(items[size_t(current)]);
    }
    m_filling = false;
    updateActions();
}

void SectionsPanel::setSectionColors(const QHash<int, QColor> &colors)
{
    const bool filling = m_filling;
    m_filling = true; // colours are no edit
    QTreeWidgetItemIterator it(m_tree);
    for (; *it; ++it) {
        const auto c = colors.constFind((*it)->data(0, Qt::UserRole).toInt());
        const QBrush brush = c == colors.constEnd() ? QBrush() : QBrush(c.value());
        (*it)->setBackground(0, brush);
        (*it)->setBackground(1, brush);
        // Text stays readable on coloured cells, in a light or a dark palette (ui/legibility.h).
        (*it)->setForeground(0, c != colors.constEnd() ? QBrush(textColorOn(c.value())) : QBrush());
    }
    m_filling = filling;
}

QColor SectionsPanel::sectionColor(int index) const
{
    QTreeWidgetItemIterator it(m_tree);
    for (; *it; ++it)
        if ((*it)->data(0, Qt::UserRole).toInt() == index)
            return (*it)->background(0).style() == Qt::NoBrush ? QColor() : (*it)->background(0).color();
    return QColor();
}

int SectionsPanel::currentSection() const
{
    const QTreeWidgetItem *item = m_tree->currentItem();
    return item ? item->data(0, Qt::UserRole).toInt() : -1;
}

void SectionsPanel::setCurrentSection(int index)
{
    QTreeWidgetItemIterator it(m_tree);
    for (; *it; ++it)
        if ((*it)->data(0, Qt::UserRole).toInt() == index) {
            m_tree->setCurrentItem(*it);
            return;
        }
}

void SectionsPanel::updateActions()
{
    const bool editable = m_session && m_session->currentDocumentId() >= 0;
    const int current = currentSection();
    m_split->setEnabled(editable && !m_session->selectedWords().isEmpty());
    m_merge->setEnabled(editable && current > 0);
    m_promote->setEnabled(editable && current >= 0);
    m_demote->setEnabled(editable && current > 0);
    m_rename->setEnabled(editable && current >= 0);
}

bool SectionsPanel::commit(const QString &text, const Document &edited, int current)
{
    const std::vector<Section> before = m_session->document().sections;
    // redo() saves and emits documentReplaced: the tree is rebuilt before push() returns.
    m_session->undoStack()->push(new SectionEditCommand(m_session, text, before, edited.sections));
    setCurrentSection(current);
    return true;
}

bool SectionsPanel::splitAtSelectedWord()
{
    if (!m_session || m_session->currentDocumentId() < 0 || m_session->selectedWords().isEmpty())
        return false;
    Document doc = m_session->document();
    int first = -1;
    for (const QString &id : m_session->selectedWords()) {
        const int i = doc.wordIndex(id);
        if (i >= 0 && (first < 0 || i < first))
            first = i;
    }
    int fresh = -1;
    if (first < 0 || !splitSectionAtWord(&doc, first, QString(), &fresh))
        return false;
    return commit(tr("Split section"), doc, fresh);
}

bool SectionsPanel::mergeCurrentWithPrevious()
{
    const int index = currentSection();
    if (!m_session || m_session->currentDocumentId() < 0)
        return false;
    Document doc = m_session->document();
    if (!mergeSectionWithPrevious(&doc, index))
        return false;
    return commit(tr("Merge sections"), doc, index - 1);
}

bool SectionsPanel::changeCurrentLevel(int delta)
{
    const int index = currentSection();
    if (!m_session || m_session->currentDocumentId() < 0)
        return false;
    Document doc = m_session->document();
    if (!changeSectionLevel(&doc, index, delta))
        return false;
    return commit(delta < 0 ? tr("Promote section") : tr("Demote section"), doc, index);
}

bool SectionsPanel::renameSection(int index, const QString &title)
{
    if (!m_session || m_session->currentDocumentId() < 0)
        return false;
    Document doc = m_session->document();
    if (!folio::renameSection(&doc, index, title))
        return false;
    return commit(tr("Rename section"), doc, index);
}

} // namespace folio
