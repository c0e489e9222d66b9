#include "document/document.h"

#include <algorithm>
#include <cmath>

namespace folio {

static int normaliseCoordinate(double value, double extent)
{
    if (extent <= 0)
        return 0;
    const double scaled = 1000.0 * value / extent;
    if (!(scaled > 0)) // also catches NaN
        return 0;
    if (scaled >= 1000)
        return 1000; // before the cast: a huge value does not fit an int
    return static_cast<int>(scaled); // truncation, as int() in Python
}

NormBox normaliseBox(const QRectF &pixels, const QSizeF &pageSize)
{
    NormBox b;
    b.x0 = normaliseCoordinate(pixels.left(), pageSize.width());
    b.y0 = normaliseCoordinate(pixels.top(), pageSize.height());
    b.x1 = normaliseCoordinate(pixels.right(), pageSize.width());
    b.y1 = normaliseCoordinate(pixels.bottom(), pageSize.height());
    return b;
}

QString sourceKindName(SourceKind kind)
{
    switch (kind) {
    case SourceKind::Html: return QStringLiteral("html");
    case SourceKind::Image: return QStringLiteral("image");
    case SourceKind::Pdf: return QStringLiteral("pdf");
    case SourceKind::Unknown: break;
    }
    return QStringLiteral("unknown");
}

SourceKind sourceKindFromName(const QString &name)
{
    if (name == QLatin1String("html")) return SourceKind::Html;
    if (name == QLatin1String("image")) return SourceKind::Image;
    if (name == QLatin1String("pdf")) return SourceKind::Pdf;
    return SourceKind::Unknown;
}

static const char *const kNodeKindNames[] = {"root", "element", "text", "page", "block", "paragraph", "line", "word"};

QString nodeKindName(NodeKind kind)
{
    return QLatin1String(kNodeKindNames[static_cast<int>(kind)]);
}

NodeKind nodeKindFromName(const QString &name, bool *ok)
{
    for (int i = 0; i < int(sizeof kNodeKindNames / sizeof *kNodeKindNames); ++i) {
        if (name == QLatin1String(kNodeKindNames[i])) {
            if (ok) *ok = true;
            return static_cast<NodeKind>(i);
        }
    }
    if (ok) *ok = false;
    return NodeKind::Root;
}

int Document::wordIndex(const QString &wordId) const
{
    for (size_t i = 0; i < words.size(); ++i)
        if (words[i].id == wordId)
            return int(i);
    return -1;
}

void Document::normaliseWordBoxes()
{
    for (Word &w : words) {
        if (w.page >= 0 && w.page < int(pages.size()))
            w.norm = normaliseBox(w.box, pages[w.page].size);
    }
}

QStringList Document::wordIdsUnder(int node) const
{
    if (node < 0 || node >= int(nodes.size()))
        return {};
    std::vector<char> inside(nodes.size(), 0);
    std::vector<int> stack{node}; // iterative: DOM trees can be very deep
    while (!stack.empty()) {
        const int n = stack.back();
        stack.pop_back();
        inside[size_t(n)] = 1;
        for (int c : nodes[size_t(n)].children)
            stack.push_back(c);
    }
    QStringList ids;
    for (const Word &w : words)
        if (w.node >= 0 && w.node < int(nodes.size()) && inside[size_t(w.node)])
            ids << w.id;
    return ids;
}

int Document::addNode(Node node, int parentIndex)
{
    node.parent = parentIndex;
    const int index = int(nodes.size());
    nodes.push_back(std::move(node));
    if (parentIndex >= 0 && parentIndex < index)
        nodes[parentIndex].children.push_back(index);
    return index;
}

} // namespace folio
