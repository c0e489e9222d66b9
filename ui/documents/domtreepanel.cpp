#include "ui/documents/domtreepanel.h"

#include "ui/documents/domtreemodel.h"
#include "document/html/htmlxpath.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace folio {

DomTreePanel::DomTreePanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new DomTreeModel(this))
    , m_tree(new QTreeView(this))
    , m_search(new QLineEdit(this))
    , m_matches(new QLabel(this))
    , m_details(new QPlainTextEdit(this))
{
    m_search->setPlaceholderText(tr("Find tag or text"));
    m_search->setClearButtonEnabled(true);
    auto *next = new QPushButton(tr("Next"), this);
    auto *searchRow = new QHBoxLayout;
    searchRow->setContentsMargins(0, 0, 0, 0);
    searchRow->addWidget(m_search, 1);
    searchRow->addWidget(m_matches);
    searchRow->addWidget(next);

    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true); // keeps huge trees cheap to lay out
    m_tree->setHeaderHidden(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_details->setReadOnly(true);
    m_details->setLineWrapMode(QPlainTextEdit::WidgetWidth);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_tree);
    split->addWidget(m_details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(searchRow);
    layout->addWidget(split, 1);

    connect(m_search, &QLineEdit::returnPressed, this, [this] { findNext(m_search->text()); });
    connect(next, &QPushButton::clicked, this, [this] { findNext(m_search->text()); });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] { onCurrentChanged(); });
}

void DomTreePanel::setDocument(const Document &doc)
{
    m_syncing = true;
    m_model->setDocument(doc);
    m_current = -1;
    m_hits.clear();
    m_lastQuery.clear();
    m_matches->clear();
    m_details->clear();
    // Open the first levels (html > head/body) so the tree is not a single closed row.
    m_tree->expandToDepth(1);
    m_syncing = false;
}

void DomTreePanel::selectNode(int node)
{
    const QModelIndex index = m_model->indexForNode(node);
    if (!index.isValid())
        return;
    m_syncing = true;
    for (QModelIndex p = index.parent(); p.isValid(); p = p.parent())
        m_tree->expand(p);
    m_tree->setCurrentIndex(index);
    m_tree->scrollTo(index);
    m_syncing = false;
    m_current = node;
    showDetails(node);
}

void DomTreePanel::onCurrentChanged()
{
    const int node = m_model->nodeForIndex(m_tree->currentIndex());
    if (node < 0 || m_syncing)
        return;
    m_current = node;
    showDetails(node);
    Q_EMIT nodeSelected(node);
}

int DomTreePanel::findNext(const QString &query)
{
    if (query != m_lastQuery) {
        m_lastQuery = query;
        m_hits = m_model->findNodes(query);
    }
    if (m_hits.empty()) {
        m_matches->setText(query.trimmed().isEmpty() ? QString() : tr("no match"));
        return 0;
    }
    auto it = std::upper_bound(m_hits.begin(), m_hits.end(), m_current);
    if (it == m_hits.end())
        it = m_hits.begin(); // wrap
    const int node = *it;
    m_matches->setText(tr("%1 of %2").arg(int(it - m_hits.begin()) + 1).arg(m_hits.size()));
    selectNode(node);
    Q_EMIT nodeSelected(node);
    return int(m_hits.size());
}

void DomTreePanel::showDetails(int node)
{
    const Document &doc = m_model->document();
    if (node < 0 || node >= int(doc.nodes.size())) {
        m_details->clear();
        return;
    }
    const Node &n = doc.nodes[size_t(node)];
    const QString xpath = xpathOf(doc, node);
    QString text = xpath.isEmpty() ? tr("Id: %1\n").arg(n.id) : tr("XPath: %1\n").arg(xpath);
    text += tr("Kind: %1").arg(nodeKindName(n.kind));
    if (!n.tag.isEmpty())
        text += tr("  Tag: %1").arg(n.tag);
    text += QLatin1Char('\n');
    if (!n.box.isNull())
        text += tr("Box: x %1, y %2, w %3, h %4%5\n").arg(n.box.x()).arg(n.box.y()).arg(n.box.width()).arg(n.box.height())
                    .arg(n.visible ? QString() : tr(" (hidden)"));
    for (const auto &a : n.attributes)
        text += QStringLiteral("@%1 = %2\n").arg(a.first, a.second);
    if (n.kind == NodeKind::Text) {
        text += tr("Text: %1\n").arg(n.text);
    } else {
        // The element's text: its descendant text nodes (pre-order: a contiguous index range).
        QString inner;
        int end = node + 1;
        for (; end < int(doc.nodes.size()); ++end) {
            int p = doc.nodes[size_t(end)].parent;
            while (p > node)
                p = doc.nodes[size_t(p)].parent;
            if (p != node)
                break;
            if (doc.nodes[size_t(end)].kind == NodeKind::Text && inner.size() < 2000)
                inner += doc.nodes[size_t(end)].text + QLatin1Char(' ');
        }
        if (!inner.isEmpty())
            text += tr("Text: %1\n").arg(inner.trimmed().left(2000));
    }
    m_details->setPlainText(text);
}

QString DomTreePanel::detailsText() const
{
    return m_details->toPlainText();
}

} // namespace folio
