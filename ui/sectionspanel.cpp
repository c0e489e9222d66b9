#include "ui/sectionspanel.h"

#include "document/document.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace folio {

SectionsPanel::SectionsPanel(QWidget *parent)
    : QWidget(parent), m_tree(new QTreeWidget(this)), m_empty(new QLabel(tr("This document has no sections."), this))
{
    m_tree->setObjectName(QStringLiteral("sectionTree"));
    m_tree->setHeaderLabels({tr("Section"), tr("Words")});
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_empty->setAlignment(Qt::AlignCenter);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_empty);
    layout->addWidget(m_tree);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (!item)
            return;
        const int index = item->data(0, Qt::UserRole).toInt();
        if (index >= 0 && index < m_words.size())
            Q_EMIT wordsPicked(m_words.at(index));
    });
    m_tree->hide();
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
    m_tree->clear();
    m_words.clear();
    std::vector<QTreeWidgetItem *> items(doc.sections.size(), nullptr);
    for (int i = 0; i < int(doc.sections.size()); ++i) {
        const Section &s = doc.sections[size_t(i)];
        m_words << sectionWordIds(doc, i);
        QTreeWidgetItem *parent = s.parent >= 0 && s.parent < i ? items[size_t(s.parent)] : nullptr;
        auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
        item->setText(0, s.title.isEmpty() ? tr("(untitled, level %1)").arg(s.level) : s.title.left(200));
        item->setText(1, QString::number(m_words.last().size()));
        item->setData(0, Qt::UserRole, i);
        items[size_t(i)] = item;
    }
    m_tree->expandToDepth(1);
    m_tree->setVisible(!doc.sections.empty());
    m_empty->setVisible(doc.sections.empty());
}

} // namespace folio
