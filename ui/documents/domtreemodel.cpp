#include "ui/documents/domtreemodel.h"

#include "document/html/htmlxpath.h"

#include <QColor>
#include <QGuiApplication>
#include <QPalette>

namespace folio {

DomTreeModel::DomTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void DomTreeModel::setDocument(const Document &doc)
{
    beginResetModel();
    m_doc = Document();
    m_doc.sourcePath = doc.sourcePath;
    m_doc.kind = doc.kind;
    m_doc.title = doc.title;
    m_doc.nodes = doc.nodes; // words/sections are not needed here
    m_row.assign(m_doc.nodes.size(), 0);
    for (const Node &n : m_doc.nodes)
        for (size_t r = 0; r < n.children.size(); ++r)
            m_row[size_t(n.children[r])] = int(r);
    m_marks.clear();
    endResetModel();
}

void DomTreeModel::setNodeMarks(const QHash<int, NodeMark> &marks)
{
    QList<int> touched = m_marks.keys();
    touched += marks.keys();
    m_marks = marks;
    for (int node : touched)
        if (const QModelIndex i = indexForNode(node); i.isValid())
            Q_EMIT dataChanged(i, i, {Qt::DisplayRole, Qt::BackgroundRole});
}

QModelIndex DomTreeModel::indexForNode(int node) const
{
    if (node <= 0 || node >= int(m_doc.nodes.size()))
        return {};
    return createIndex(m_row[size_t(node)], 0, quintptr(node));
}

int DomTreeModel::nodeForIndex(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this)
        return -1;
    return int(index.internalId());
}

QModelIndex DomTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column != 0 || row < 0 || m_doc.nodes.empty())
        return {};
    const int p = parent.isValid() ? int(parent.internalId()) : 0;
    const auto &children = m_doc.nodes[size_t(p)].children;
    if (row >= int(children.size()))
        return {};
    return createIndex(row, 0, quintptr(children[size_t(row)]));
}

QModelIndex DomTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    const int p = m_doc.nodes[size_t(child.internalId())].parent;
    return indexForNode(p); // invalid for the root (0) and above
}

int DomTreeModel::rowCount(const QModelIndex &parent) const
{
    if (m_doc.nodes.empty() || parent.column() > 0)
        return 0;
    const int p = parent.isValid() ? int(parent.internalId()) : 0;
    return int(m_doc.nodes[size_t(p)].children.size());
}

int DomTreeModel::columnCount(const QModelIndex &) const
{
    return 1;
}

QString DomTreeModel::nodeLabel(const Node &node)
{
    if (node.kind == NodeKind::Text) {
        QString t = node.text;
        if (t.size() > 120)
            t = t.left(117) + QStringLiteral("...");
        return QLatin1Char('"') + t + QLatin1Char('"');
    }
    if (node.kind != NodeKind::Element)
        return nodeKindName(node.kind);
    QString label = QLatin1Char('<') + node.tag;
    for (const auto &a : node.attributes) {
        if (a.first != QLatin1String("id") && a.first != QLatin1String("class"))
            continue;
        QString v = a.second;
        if (v.size() > 40)
            v = v.left(37) + QStringLiteral("...");
        label += QLatin1Char(' ') + a.first + QLatin1Char('=') + v;
    }
    return label + QLatin1Char('>');
}

QVariant DomTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const Node &node = m_doc.nodes[size_t(index.internalId())];
    switch (role) {
    case Qt::DisplayRole:
        if (const auto mark = m_marks.constFind(int(index.internalId())); mark != m_marks.constEnd())
            return nodeLabel(node) + QStringLiteral("  \u25c0 ") + mark->note;
        return nodeLabel(node);
    case Qt::BackgroundRole:
        if (const auto mark = m_marks.constFind(int(index.internalId())); mark != m_marks.constEnd())
            return mark->color;
        return {};
    case Qt::ToolTipRole: {
        const QString xpath = xpathOf(m_doc, int(index.internalId()));
        return xpath.isEmpty() ? node.id : xpath;
    }
    case Qt::ForegroundRole:
        if (!node.visible)
            return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text); // light or dark palette
        return {};
    default:
        return {};
    }
}

QVariant DomTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (section == 0 && orientation == Qt::Horizontal && role == Qt::DisplayRole)
        return tr("DOM");
    return {};
}

std::vector<int> DomTreeModel::findNodes(const QString &rawQuery, int limit) const
{
    std::vector<int> hits;
    QString q = rawQuery.trimmed();
    if (q.isEmpty())
        return hits;
    QString tagQuery = q.toLower();
    if (tagQuery.startsWith(QLatin1Char('<')))
        tagQuery = tagQuery.mid(1);
    if (tagQuery.endsWith(QLatin1Char('>')))
        tagQuery.chop(1);
    for (int i = 1; i < int(m_doc.nodes.size()) && int(hits.size()) < limit; ++i) {
        const Node &n = m_doc.nodes[size_t(i)];
        bool hit = false;
        if (n.kind == NodeKind::Element) {
            hit = n.tag == tagQuery;
            for (const auto &a : n.attributes)
                if (!hit && (a.first == QLatin1String("id") || a.first == QLatin1String("class")))
                    hit = a.second.contains(q, Qt::CaseInsensitive);
        } else {
            hit = n.text.contains(q, Qt::CaseInsensitive);
        }
        if (hit)
            hits.push_back(i);
    }
    return hits;
}

} // namespace folio
