// On-demand XPaths of HTML Document nodes (htmlxpath.h).
#include "document/html/htmlxpath.h"

#include <QStringList>

#include <vector>

namespace folio {

namespace {

bool legacyXPathId(const Node &n)
{
    return n.step.isEmpty() && n.id.startsWith(QLatin1Char('/'));
}

} // namespace

QString xpathOf(const Document &doc, int node)
{
    return xpathOf(doc.nodes, node);
}

QString xpathOf(const std::vector<Node> &nodes, int node)
{
    if (node < 0 || node >= int(nodes.size()))
        return QString();
    const Node &n = nodes[std::size_t(node)];
    if (n.kind == NodeKind::Root)
        return QStringLiteral("/");
    if (legacyXPathId(n))
        return n.id;
    if (n.step.isEmpty())
        return QString();
    std::vector<const QString *> steps;
    for (int i = node; i > 0 && int(steps.size()) <= int(nodes.size()); i = nodes[std::size_t(i)].parent) {
        const Node &at = nodes[std::size_t(i)];
        if (at.step.isEmpty())
            return QString(); // not an HTML tree
        steps.push_back(&at.step);
    }
    qsizetype length = 0;
    for (const QString *s : steps)
        length += s->size() + 1;
    QString out;
    out.reserve(length);
    for (auto it = steps.rbegin(); it != steps.rend(); ++it)
        out += QLatin1Char('/') + **it;
    return out;
}

XPathIndex::XPathIndex(const Document &doc)
{
    for (int i = 1; i < int(doc.nodes.size()); ++i) {
        const Node &n = doc.nodes[std::size_t(i)];
        if (legacyXPathId(n))
            m_legacy.insert(n.id, i);
        else if (!n.step.isEmpty())
            m_child.insert({n.parent, n.step}, i);
    }
}

int XPathIndex::find(const QString &xpath) const
{
    if (xpath == QLatin1String("/"))
        return 0;
    if (const auto it = m_legacy.constFind(xpath); it != m_legacy.constEnd())
        return it.value();
    if (!xpath.startsWith(QLatin1Char('/')) || m_child.isEmpty())
        return -1;
    int at = 0;
    qsizetype from = 1;
    while (from <= xpath.size()) {
        qsizetype slash = xpath.indexOf(QLatin1Char('/'), from);
        if (slash < 0)
            slash = xpath.size();
        const auto it = m_child.constFind({at, xpath.mid(from, slash - from)});
        if (it == m_child.constEnd())
            return -1;
        at = it.value();
        from = slash + 1;
    }
    return at;
}

} // namespace folio
