#include "document/formats/datasetlimits.h"

#include <cmath>

namespace folio {

namespace {

struct Checker
{
    QString where;
    QString *error;

    bool fail(const QString &path, const QString &problem) const
    {
        if (error)
            *error = QStringLiteral("%1: %2: %3").arg(where, path, problem);
        return false;
    }

    bool coordinate(double v, const QString &path, const char *name) const
    {
        if (!std::isfinite(v) || std::abs(v) > DatasetLimits::maxCoordinate)
            return fail(path, QStringLiteral("%1 %2 is outside -%3..%3")
                                  .arg(QLatin1String(name))
                                  .arg(v)
                                  .arg(DatasetLimits::maxCoordinate, 0, 'f', 0));
        return true;
    }

    // A pixel box: finite, in range, not inverted. A null box (no geometry) is fine.
    bool box(const QRectF &b, const QString &path) const
    {
        if (!coordinate(b.left(), path, "x0") || !coordinate(b.top(), path, "y0") || !coordinate(b.right(), path, "x1")
            || !coordinate(b.bottom(), path, "y1"))
            return false;
        if (b.width() < 0 || b.height() < 0)
            return fail(path, QStringLiteral("inverted box [%1, %2, %3, %4] (x0 > x1 or y0 > y1)")
                                  .arg(b.left()).arg(b.top()).arg(b.right()).arg(b.bottom()));
        return true;
    }

    bool norm(const NormBox &b, const QString &path) const
    {
        const int c[4] = {b.x0, b.y0, b.x1, b.y1};
        for (int v : c)
            if (v < 0 || v > DatasetLimits::maxNormCoordinate)
                return fail(path, QStringLiteral("%1 is outside 0..1000").arg(v));
        if (b.x0 > b.x1 || b.y0 > b.y1)
            return fail(path, QStringLiteral("inverted 0-1000 box"));
        return true;
    }

    bool text(const QString &s, const QString &path) const
    {
        if (s.size() > DatasetLimits::maxStringChars)
            return fail(path, QStringLiteral("%1 characters, more than the limit of %2")
                                  .arg(s.size()).arg(DatasetLimits::maxStringChars));
        return true;
    }

    bool count(size_t n, size_t limit, const QString &path) const
    {
        if (n > limit)
            return fail(path, QStringLiteral("%1 entries, more than the limit of %2").arg(n).arg(limit));
        return true;
    }
};

} // namespace

qint64 countWords(QStringView text, qint64 stopAfter)
{
    qint64 words = 0;
    bool inWord = false;
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        const bool space = u == ' ' || (u >= '\t' && u <= '\r'); // the \s of the importers' split
        if (!space && !inWord && ++words > stopAfter)
            return words;
        inWord = !space;
    }
    return words;
}

int qsDepth(const std::vector<QsNode> &roots, int *nodeCount)
{
    int depth = 0, nodes = 0;
    std::vector<std::pair<const QsNode *, int>> stack;
    for (const QsNode &r : roots)
        stack.emplace_back(&r, 1);
    while (!stack.empty()) {
        const auto [node, d] = stack.back();
        stack.pop_back();
        ++nodes;
        depth = std::max(depth, d);
        for (const QsNode &c : node->children)
            stack.emplace_back(&c, d + 1);
    }
    if (nodeCount)
        *nodeCount = nodes;
    return depth;
}

static bool checkQs(const Checker &c, const Annotations &a)
{
    int nodes = 0;
    const int depth = qsDepth(a.qsRoots, &nodes);
    if (depth > DatasetLimits::maxQsDepth)
        return c.fail(QStringLiteral("qs.nodes"), QStringLiteral("hierarchy %1 levels deep, more than the limit of %2")
                                                       .arg(depth).arg(DatasetLimits::maxQsDepth));
    if (!c.count(size_t(nodes), DatasetLimits::maxQsNodes, QStringLiteral("qs.nodes")) || !c.text(a.qsSummary, QStringLiteral("qs.summary")))
        return false;
    // Depth is bounded now: a recursive walk for the texts is safe.
    std::vector<std::pair<const QsNode *, QString>> stack;
    for (size_t i = 0; i < a.qsRoots.size(); ++i)
        stack.emplace_back(&a.qsRoots[i], QStringLiteral("qs.nodes[%1]").arg(i));
    while (!stack.empty()) {
        const auto [node, path] = stack.back();
        stack.pop_back();
        if (!c.text(node->question, path + QStringLiteral(".question")) || !c.text(node->summary, path + QStringLiteral(".summary")))
            return false;
        for (qsizetype k = 0; k < node->evidenceSections.size(); ++k) {
            const QString &e = node->evidenceSections[k];
            const QString at = path + QStringLiteral(".evidence[%1]").arg(k);
            if (!c.text(e, at))
                return false;
            // "", "  ", "node:", "word:", "title:" name no section (issue 36).
            const qsizetype colon = e.indexOf(QLatin1Char(':'));
            const bool typed = e.startsWith(QLatin1String("node:")) || e.startsWith(QLatin1String("word:")) ||
                               e.startsWith(QLatin1String("title:"));
            if (e.trimmed().isEmpty() || (typed && e.mid(colon + 1).trimmed().isEmpty()))
                return c.fail(at, QStringLiteral("\"%1\" names no section").arg(e));
        }
        if (!c.text(node->id, path + QStringLiteral(".id")) || !c.count(node->evidenceSpans.size(), size_t(DatasetLimits::maxWords), path + QStringLiteral(".spans")))
            return false;
        for (size_t k = 0; k < node->evidenceSpans.size(); ++k) {
            const QsEvidenceSpan &s = node->evidenceSpans[k];
            const QString at = path + QStringLiteral(".spans[%1]").arg(k);
            if (!c.text(s.firstWord, at) || !c.text(s.lastWord, at) || !c.text(s.text, at))
                return false;
            if (s.firstWord.trimmed().isEmpty() || s.lastWord.trimmed().isEmpty())
                return c.fail(at, QStringLiteral("a span that names no word (first \"%1\", last \"%2\")").arg(s.firstWord, s.lastWord));
        }
        for (size_t k = 0; k < node->children.size(); ++k)
            stack.emplace_back(&node->children[k], path + QStringLiteral(".children[%1]").arg(k));
    }
    return true;
}

static bool checkAnnotations(const Checker &c, const Annotations &a)
{
    if (!c.count(a.entities.size() + a.links.size() + a.fields.size(), DatasetLimits::maxEntities, QStringLiteral("entities")))
        return false;
    for (size_t i = 0; i < a.entities.size(); ++i) {
        const QString p = QStringLiteral("entities[%1]").arg(i);
        const Entity &e = a.entities[i];
        if (!c.text(e.id, p + QStringLiteral(".id")) || !c.text(e.label, p + QStringLiteral(".label")))
            return false;
        if (!std::isfinite(e.confidence))
            return c.fail(p + QStringLiteral(".confidence"), QStringLiteral("%1 is not a finite number").arg(e.confidence));
    }
    for (size_t i = 0; i < a.links.size(); ++i)
        if (!c.text(a.links[i].id, QStringLiteral("links[%1].id").arg(i)))
            return false;
    for (size_t i = 0; i < a.fields.size(); ++i)
        if (!c.text(a.fields[i].field, QStringLiteral("fields[%1].field").arg(i))
            || !c.text(a.fields[i].text, QStringLiteral("fields[%1].text").arg(i)))
            return false;
    return checkQs(c, a);
}

bool checkDatasetItem(const DatasetItem &item, const QString &where, QString *error)
{
    const Checker c{where, error};
    const Document &d = item.document;
    if (!c.text(item.name, QStringLiteral("name")) || !c.count(d.pages.size(), DatasetLimits::maxPages, QStringLiteral("pages"))
        || !c.count(d.words.size(), DatasetLimits::maxWords, QStringLiteral("words"))
        || !c.count(d.nodes.size(), 4 * size_t(DatasetLimits::maxWords), QStringLiteral("nodes")))
        return false;
    for (size_t i = 0; i < d.pages.size(); ++i) {
        const QSizeF s = d.pages[i].size;
        const QString p = QStringLiteral("pages[%1]").arg(i);
        for (const auto &[v, name] : {std::pair<double, const char *>{s.width(), "width"}, {s.height(), "height"}})
            if (!std::isfinite(v) || v < 0 || v > DatasetLimits::maxCoordinate)
                return c.fail(p, QStringLiteral("%1 %2 is outside 0..%3")
                                     .arg(QLatin1String(name)).arg(v).arg(DatasetLimits::maxCoordinate, 0, 'f', 0));
    }
    for (size_t i = 0; i < d.words.size(); ++i) {
        const Word &w = d.words[i];
        const QString p = QStringLiteral("words[%1]").arg(i);
        if (!c.text(w.text, p + QStringLiteral(".text")) || !c.text(w.id, p + QStringLiteral(".id"))
            || !c.box(w.box, p + QStringLiteral(".box")) || !c.norm(w.norm, p + QStringLiteral(".norm")))
            return false;
    }
    for (size_t i = 0; i < d.nodes.size(); ++i) {
        const Node &n = d.nodes[i];
        const QString p = QStringLiteral("nodes[%1]").arg(i);
        if (!c.box(n.box, p + QStringLiteral(".box")))
            return false;
    }
    return checkAnnotations(c, item.annotations);
}

bool checkDatasetItems(const std::vector<DatasetItem> &items, const QString &where, QString *error)
{
    for (const DatasetItem &item : items)
        if (!checkDatasetItem(item, QStringLiteral("%1: %2").arg(where, item.name), error))
            return false;
    return true;
}

} // namespace folio
