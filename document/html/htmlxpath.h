#pragma once
// XPaths of HTML Document nodes, computed on demand. The loader (htmlloader.h) gives nodes compact
// ids ("h<index>") and stores only each node's XPath *step* (Node::step: "div[2]", "text()",
// "text()[3]", "descendant::text()[deep4]"), so memory and Document JSON stay linear in the page
// (full XPaths as ids grew with nodes x depth: 2.8 GB for a 1.2 MB page of 100k nested elements).
// Documents written before that (ids that are XPaths, no steps) keep working: their id is their
// XPath.
#include "document/document.h"

#include <QHash>
#include <QPair>
#include <QString>

#include <vector>

namespace folio {

// lxml getpath() form: "/html/body/div[2]/p/text()". Empty for nodes outside an HTML tree (OCR).
// Cost: the node's depth (at most the loader's element depth cap, 512, plus one).
QString xpathOf(const Document &doc, int node);
QString xpathOf(const std::vector<Node> &nodes, int node);

// Finds nodes by XPath, step by step from the root (memory linear in the nodes; a lookup costs
// the path's length), for merging rendered boxes and selecting by XPath.
class XPathIndex
{
public:
    explicit XPathIndex(const Document &doc);
    int find(const QString &xpath) const; // node index, -1 when absent

private:
    QHash<QPair<int, QString>, int> m_child; // (parent, step) -> node
    QHash<QString, int> m_legacy;            // documents whose ids are XPaths
};

} // namespace folio
