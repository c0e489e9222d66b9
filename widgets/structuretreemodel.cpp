#include "widgets/structuretreemodel.h"
#include "document/html/htmlxpath.h"

namespace folio {

StructureTreeModel::StructureTreeModel(QObject *parent) : QAbstractItemModel(parent) {}

void StructureTreeModel::setDocument(const Document &doc)
{
    beginResetModel();
    m_nodes = doc.nodes;
    m_row.assign(m_nodes.size(), 0);
    for (const Node &n : m_nodes)
        for (size_t i = 0; i < n.children.size(); ++i)
            if (n.children[i] >= 0 && n.children[i] < int(m_nodes.size()))
                m_row[size_t(n.children[i])] = int(i);
    m_wordOfNode.assign(m_nodes.size(), -1);
    m_nodeOfWord.assign(doc.words.size(), -1);
    for (size_t i = 0; i < doc.words.size(); ++i) {
        const int node = doc.words[i].node;
        m_nodeOfWord[i] = node;
        if (node >= 0 && node < int(m_nodes.size()))
            m_wordOfNode[size_t(node)] = int(i);
    }
    endResetModel();
}

void StructureTreeModel::clear() { setDocument(Document()); }

QModelIndex StructureTreeModel::indexForNode(int node, int column) const
{
    if (node <= 0 || node >= int(m_nodes.size()))
        return QModelIndex();
    return createIndex(m_row[size_t(node)], column, quintptr(node));
}

QModelIndex StructureTreeModel::indexForWord(int wordIndex, int column) const
{
    if (wordIndex < 0 || wordIndex >= int(m_nodeOfWord.size()))
        return QModelIndex();
    return indexForNode(m_nodeOfWord[size_t(wordIndex)], column);
}

int StructureTreeModel::nodeForIndex(const QModelIndex &index) const
{
    return index.isValid() ? int(index.internalId()) : -1;
}

int StructureTreeModel::wordForIndex(const QModelIndex &index) const
{
    const int node = nodeForIndex(index);
    return node < 0 ? -1 : m_wordOfNode[size_t(node)];
}

QModelIndex StructureTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (m_nodes.empty() || column < 0 || column >= 3)
        return QModelIndex();
    const int p = parent.isValid() ? int(parent.internalId()) : 0;
    const std::vector<int> &children = m_nodes[size_t(p)].children;
    if (row < 0 || row >= int(children.size()))
        return QModelIndex();
    return createIndex(row, column, quintptr(children[size_t(row)]));
}

QModelIndex StructureTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return QModelIndex();
    const int p = m_nodes[size_t(child.internalId())].parent;
    return p <= 0 ? QModelIndex() : indexForNode(p);
}

int StructureTreeModel::rowCount(const QModelIndex &parent) const
{
    if (m_nodes.empty() || (parent.isValid() && parent.column() != 0))
        return 0;
    const int p = parent.isValid() ? int(parent.internalId()) : 0;
    return int(m_nodes[size_t(p)].children.size());
}

int StructureTreeModel::columnCount(const QModelIndex &) const { return 3; }

static QString nodeLabel(const Node &n)
{
    if (n.kind == NodeKind::Element)
        return QStringLiteral("<%1>").arg(n.tag);
    if (n.kind == NodeKind::Page)
        return StructureTreeModel::tr("page %1").arg(n.page + 1);
    switch (n.kind) { // the document's own names (nodeKindName) in the interface language
    case NodeKind::Root: return StructureTreeModel::tr("root");
    case NodeKind::Text: return StructureTreeModel::tr("text");
    case NodeKind::Block: return StructureTreeModel::tr("block");
    case NodeKind::Paragraph: return StructureTreeModel::tr("paragraph");
    case NodeKind::Line: return StructureTreeModel::tr("line");
    case NodeKind::Word: return StructureTreeModel::tr("word");
    default: break;
    }
    return nodeKindName(n.kind);
}

QVariant StructureTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return QVariant();
    const int nodeIndex = int(index.internalId());
    const Node &n = m_nodes[size_t(nodeIndex)];
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == 0)
            return nodeLabel(n);
        if (index.column() == 1)
            return n.text.size() > 200 ? n.text.left(200) + QStringLiteral("…") : n.text;
        return n.confidence >= 0 ? QVariant(QString::number(n.confidence, 'f', 1)) : QVariant();
    case Qt::ToolTipRole: {
        const QString xpath = xpathOf(m_nodes, nodeIndex);
        QString tip = xpath.isEmpty() ? n.id : xpath;
        if (!n.box.isNull())
            tip += tr("\nbox %1,%2 %3×%4").arg(n.box.x()).arg(n.box.y()).arg(n.box.width()).arg(n.box.height());
        if (n.confidence >= 0)
            tip += tr("\nconfidence %1").arg(n.confidence, 0, 'f', 1);
        return tip;
    }
    case NodeIndexRole: return nodeIndex;
    case WordIndexRole: return m_wordOfNode[size_t(nodeIndex)];
    case NodeIdRole: return n.id;
    case NodeKindRole: return int(n.kind);
    default: return QVariant();
    }
}

QVariant StructureTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QVariant();
    switch (section) {
    case 0: return tr("Node");
    case 1: return tr("Text");
    case 2: return tr("Conf.");
    }
    return QVariant();
}

} // namespace folio
