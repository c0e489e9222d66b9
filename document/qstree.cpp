#include "document/qstree.h"

#include "document/formats/datasetlimits.h"

#include <QSet>

#include <algorithm>

namespace folio {

namespace {

using Nodes = std::vector<QsNode>;

// The sibling list holding the item at `path` and the item's index in it.
Nodes *siblingsOf(Nodes &roots, const std::vector<int> &path)
{
    Nodes *list = &roots;
    for (size_t i = 0; i + 1 < path.size(); ++i)
        list = &(*list)[size_t(path[i])].children;
    return list;
}

QsNode *nodeAt(Nodes &roots, const std::vector<int> &path)
{
    return path.empty() ? nullptr : &(*siblingsOf(roots, path))[size_t(path.back())];
}

QsNode *findMutable(Annotations &a, const QString &id, std::vector<int> *pathOut = nullptr)
{
    std::vector<int> path;
    if (id.isEmpty() || !qsPathOf(a.qsRoots, id, &path))
        return nullptr;
    if (pathOut)
        *pathOut = path;
    return nodeAt(a.qsRoots, path);
}

// Applies `edit` to a copy and keeps it only when it stays within the limits.
template<typename Edit>
bool guarded(Annotations &a, Edit edit)
{
    Annotations copy;
    copy.qsSummary = a.qsSummary;
    copy.qsRoots = a.qsRoots;
    if (!edit(copy) || !qsWithinLimits(copy, nullptr))
        return false;
    a.qsRoots = std::move(copy.qsRoots);
    a.qsSummary = std::move(copy.qsSummary);
    return true;
}

bool isKept(const QsNode &n)
{
    return n.source.kind == AnnotationSource::User || n.state == ReviewState::Accepted || n.state == ReviewState::Edited
        || n.state == ReviewState::Rejected;
}

// Drops the suggestions of `list` (recursively) that hold nothing kept; iterative over levels.
void dropSuggestions(Nodes &list)
{
    // Post-order without recursion: collect the lists, then prune the deepest first.
    std::vector<Nodes *> lists{&list};
    for (size_t i = 0; i < lists.size(); ++i)
        for (QsNode &n : *lists[i])
            lists.push_back(&n.children);
    for (auto it = lists.rbegin(); it != lists.rend(); ++it) {
        Nodes &l = **it;
        l.erase(std::remove_if(l.begin(), l.end(), [](const QsNode &n) { return !isKept(n) && n.children.empty(); }),
                l.end());
    }
}

QString normalisedQuestion(const QString &q) { return q.simplified().toCaseFolded(); }

} // namespace

std::vector<QsItem> qsItems(const std::vector<QsNode> &roots)
{
    std::vector<QsItem> out;
    struct Frame { const QsNode *node; QString parent; int order; int depth; QString number; };
    std::vector<Frame> stack;
    for (int i = int(roots.size()) - 1; i >= 0; --i)
        stack.push_back({&roots[size_t(i)], QString(), i, 1, QString::number(i + 1)});
    while (!stack.empty()) {
        Frame f = std::move(stack.back());
        stack.pop_back();
        out.push_back({f.node, f.parent, f.order, f.depth, f.number});
        const Nodes &c = f.node->children;
        for (int i = int(c.size()) - 1; i >= 0; --i)
            stack.push_back({&c[size_t(i)], f.node->id, i, f.depth + 1, f.number + QLatin1Char('.') + QString::number(i + 1)});
    }
    return out;
}

bool qsPathOf(const std::vector<QsNode> &roots, const QString &id, std::vector<int> *path)
{
    std::vector<std::pair<const QsNode *, std::vector<int>>> stack;
    for (int i = 0; i < int(roots.size()); ++i)
        stack.push_back({&roots[size_t(i)], {i}});
    while (!stack.empty()) {
        auto [node, p] = std::move(stack.back());
        stack.pop_back();
        if (node->id == id) {
            if (path) *path = std::move(p);
            return true;
        }
        for (int i = 0; i < int(node->children.size()); ++i) {
            std::vector<int> child = p;
            child.push_back(i);
            stack.push_back({&node->children[size_t(i)], std::move(child)});
        }
    }
    return false;
}

const QsNode *qsFind(const std::vector<QsNode> &roots, const QString &id)
{
    std::vector<int> path;
    if (id.isEmpty() || !qsPathOf(roots, id, &path))
        return nullptr;
    const Nodes *list = &roots;
    for (size_t i = 0; i + 1 < path.size(); ++i)
        list = &(*list)[size_t(path[i])].children;
    return &(*list)[size_t(path.back())];
}

QString qsFreshId(const std::vector<QsNode> &roots)
{
    qint64 largest = 0;
    for (const QsItem &it : qsItems(roots))
        if (it.node->id.startsWith(QLatin1Char('q'))) {
            bool ok = false;
            const qint64 n = it.node->id.mid(1).toLongLong(&ok);
            if (ok) largest = std::max(largest, n);
        }
    return QStringLiteral("q%1").arg(largest + 1);
}

int qsAssignIds(std::vector<QsNode> &roots)
{
    QSet<QString> used;
    std::vector<QsNode *> needing;
    std::vector<QsNode *> stack;
    for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back(&*it);
    std::vector<QsNode *> order; // pre-order: the first of two equal ids keeps it
    while (!stack.empty()) {
        QsNode *n = stack.back();
        stack.pop_back();
        order.push_back(n);
        for (auto it = n->children.rbegin(); it != n->children.rend(); ++it) stack.push_back(&*it);
    }
    for (QsNode *n : order) {
        if (n->id.isEmpty() || used.contains(n->id))
            needing.push_back(n);
        else
            used.insert(n->id);
    }
    qint64 next = 1;
    for (QsNode *n : needing) {
        while (used.contains(QStringLiteral("q%1").arg(next))) ++next;
        n->id = QStringLiteral("q%1").arg(next);
        used.insert(n->id);
    }
    return int(needing.size());
}

bool qsWithinLimits(const Annotations &a, QString *error)
{
    DatasetItem item;
    item.annotations.qsSummary = a.qsSummary;
    item.annotations.qsRoots = a.qsRoots;
    return checkDatasetItem(item, QStringLiteral("hierarchy"), error);
}

QString qsSectionKey(const Document &doc, int index)
{
    if (index < 0 || index >= int(doc.sections.size()))
        return {};
    const Section &s = doc.sections[size_t(index)];
    if (s.node >= 0 && s.node < int(doc.nodes.size()) && !doc.nodes[size_t(s.node)].id.isEmpty())
        return QStringLiteral("node:") + doc.nodes[size_t(s.node)].id;
    if (s.firstWord >= 0 && s.firstWord < s.endWord && s.firstWord < int(doc.words.size()))
        return QStringLiteral("word:") + doc.words[size_t(s.firstWord)].id;
    return QStringLiteral("title:") + s.title;
}

int qsResolveSection(const Document &doc, const QString &key)
{
    if (key.isEmpty())
        return -1;
    for (int i = 0; i < int(doc.sections.size()); ++i)
        if (qsSectionKey(doc, i) == key)
            return i;
    if (key.startsWith(QLatin1String("node:")) || key.startsWith(QLatin1String("word:")))
        return -1;
    const QString title = key.startsWith(QLatin1String("title:")) ? key.mid(6) : key;
    for (int i = 0; i < int(doc.sections.size()); ++i)
        if (doc.sections[size_t(i)].title == title)
            return i;
    return -1;
}

QHash<QString, int> qsWordIndex(const Document &doc)
{
    QHash<QString, int> index;
    index.reserve(int(doc.words.size()));
    for (int i = 0; i < int(doc.words.size()); ++i)
        index.insert(doc.words[size_t(i)].id, i);
    return index;
}

bool qsResolveSpan(const QHash<QString, int> &wordIndex, const QsEvidenceSpan &span, int *first, int *last)
{
    const auto f = wordIndex.constFind(span.firstWord);
    const auto l = wordIndex.constFind(span.lastWord);
    if (f == wordIndex.constEnd() || l == wordIndex.constEnd() || *l < *f)
        return false;
    *first = *f;
    *last = *l;
    return true;
}

// Every section's key and title -> its index (the first section of a title), built once per walk.
static QHash<QString, int> sectionLookup(const Document &doc)
{
    QHash<QString, int> byKey;
    for (int i = int(doc.sections.size()) - 1; i >= 0; --i) {
        byKey.insert(QStringLiteral("title:") + doc.sections[size_t(i)].title, i);
        byKey.insert(qsSectionKey(doc, i), i);
    }
    return byKey;
}

static bool sectionExists(const QHash<QString, int> &lookup, const QString &key)
{
    if (lookup.contains(key))
        return true;
    const bool typed = key.startsWith(QLatin1String("node:")) || key.startsWith(QLatin1String("word:")) || key.startsWith(QLatin1String("title:"));
    return !typed && lookup.contains(QStringLiteral("title:") + key); // a plain title, as older files hold
}

static bool evidenceMissing(const QHash<QString, int> &sections, const QHash<QString, int> &wordIndex, const QsNode &node)
{
    int f = 0, l = 0;
    for (const QsEvidenceSpan &s : node.evidenceSpans)
        if (!qsResolveSpan(wordIndex, s, &f, &l))
            return true;
    for (const QString &key : node.evidenceSections)
        if (!sectionExists(sections, key))
            return true;
    return false;
}

bool qsEvidenceMissing(const Document &doc, const QHash<QString, int> &wordIndex, const QsNode &node)
{
    return evidenceMissing(sectionLookup(doc), wordIndex, node);
}

int qsUpdateEvidenceFlags(Annotations &a, const Document &doc)
{
    if (a.qsRoots.empty())
        return 0;
    const QHash<QString, int> index = qsWordIndex(doc);
    const QHash<QString, int> sections = sectionLookup(doc);
    int changed = 0;
    std::vector<QsNode *> stack;
    for (QsNode &r : a.qsRoots) stack.push_back(&r);
    while (!stack.empty()) {
        QsNode *n = stack.back();
        stack.pop_back();
        const bool missing = evidenceMissing(sections, index, *n);
        if (missing != n->evidenceMissing) {
            n->evidenceMissing = missing;
            ++changed;
        }
        for (QsNode &c : n->children) stack.push_back(&c);
    }
    return changed;
}

std::vector<int> qsEvidenceWords(const Document &doc, const QHash<QString, int> &wordIndex, const QsNode &node)
{
    std::vector<int> words;
    int f = 0, l = 0;
    for (const QsEvidenceSpan &s : node.evidenceSpans)
        if (qsResolveSpan(wordIndex, s, &f, &l))
            for (int i = f; i <= l; ++i) words.push_back(i);
    for (int sec : qsEvidenceSectionIndices(doc, node)) {
        const Section &s = doc.sections[size_t(sec)];
        for (int i = std::max(0, s.firstWord); i < std::min(s.endWord, int(doc.words.size())); ++i) words.push_back(i);
    }
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    return words;
}

std::vector<int> qsEvidenceSectionIndices(const Document &doc, const QsNode &node)
{
    std::vector<int> out;
    for (const QString &key : node.evidenceSections)
        if (const int i = qsResolveSection(doc, key); i >= 0)
            out.push_back(i);
    return out;
}

namespace qsedit {

static QsNode newUserNode(const Annotations &a, const QString &question, const QString &summary)
{
    QsNode n;
    n.id = qsFreshId(a.qsRoots);
    n.question = question;
    n.summary = summary;
    return n;
}

QString addChild(Annotations &a, const QString &parentId, const QString &question, const QString &summary)
{
    QString id;
    const bool ok = guarded(a, [&](Annotations &c) {
        QsNode n = newUserNode(c, question, summary);
        Nodes *list = &c.qsRoots;
        if (!parentId.isEmpty()) {
            QsNode *parent = findMutable(c, parentId);
            if (!parent) return false;
            list = &parent->children;
        }
        id = n.id;
        list->push_back(std::move(n));
        return true;
    });
    return ok ? id : QString();
}

QString addSibling(Annotations &a, const QString &afterId, const QString &question, const QString &summary)
{
    if (afterId.isEmpty())
        return addChild(a, {}, question, summary);
    QString id;
    const bool ok = guarded(a, [&](Annotations &c) {
        std::vector<int> path;
        if (!findMutable(c, afterId, &path)) return false;
        QsNode n = newUserNode(c, question, summary);
        id = n.id;
        Nodes *list = siblingsOf(c.qsRoots, path);
        list->insert(list->begin() + path.back() + 1, std::move(n));
        return true;
    });
    return ok ? id : QString();
}

bool setText(Annotations &a, const QString &id, const QString &question, const QString &summary)
{
    return guarded(a, [&](Annotations &c) {
        QsNode *n = findMutable(c, id);
        if (!n || (n->question == question && n->summary == summary)) return false;
        n->question = question;
        n->summary = summary;
        if (n->source.kind == AnnotationSource::Model && n->state != ReviewState::Rejected)
            n->state = ReviewState::Edited;
        return true;
    });
}

bool remove(Annotations &a, const QString &id)
{
    std::vector<int> path;
    if (!findMutable(a, id, &path)) return false;
    Nodes *list = siblingsOf(a.qsRoots, path);
    list->erase(list->begin() + path.back());
    return true;
}

bool move(Annotations &a, const QString &id, const QString &newParentId, int row)
{
    return guarded(a, [&](Annotations &c) {
        std::vector<int> from;
        if (!findMutable(c, id, &from)) return false;
        std::vector<int> parentPath;
        if (!newParentId.isEmpty()) {
            if (!findMutable(c, newParentId, &parentPath)) return false;
            if (parentPath.size() >= from.size() && std::equal(from.begin(), from.end(), parentPath.begin()))
                return false; // into itself or its own subtree
        }
        Nodes *source = siblingsOf(c.qsRoots, from);
        QsNode moving = std::move((*source)[size_t(from.back())]);
        const bool sameList = newParentId == (from.size() == 1 ? QString() : nodeAt(c.qsRoots, std::vector<int>(from.begin(), from.end() - 1))->id);
        source->erase(source->begin() + from.back());
        Nodes *target = &c.qsRoots;
        if (!newParentId.isEmpty()) {
            std::vector<int> p;
            qsPathOf(c.qsRoots, newParentId, &p);
            target = &nodeAt(c.qsRoots, p)->children;
        }
        const int size = int(target->size());
        const int at = row < 0 || row > size ? size : row;
        if (sameList && at == from.back()) return false;
        target->insert(target->begin() + at, std::move(moving));
        return true;
    });
}

bool demote(Annotations &a, const QString &id)
{
    std::vector<int> path;
    if (!findMutable(a, id, &path) || path.back() == 0) return false;
    std::vector<int> prev = path;
    --prev.back();
    return move(a, id, nodeAt(a.qsRoots, prev)->id, -1);
}

bool promote(Annotations &a, const QString &id)
{
    std::vector<int> path;
    if (!findMutable(a, id, &path) || path.size() < 2) return false;
    std::vector<int> parent(path.begin(), path.end() - 1);
    std::vector<int> grand(parent.begin(), parent.end() - 1);
    const QString grandId = grand.empty() ? QString() : nodeAt(a.qsRoots, grand)->id;
    return move(a, id, grandId, parent.back() + 1);
}

static bool shift(Annotations &a, const QString &id, int delta)
{
    std::vector<int> path;
    if (!findMutable(a, id, &path)) return false;
    Nodes *list = siblingsOf(a.qsRoots, path);
    const int to = path.back() + delta;
    if (to < 0 || to >= int(list->size())) return false;
    std::swap((*list)[size_t(path.back())], (*list)[size_t(to)]);
    return true;
}

bool moveUp(Annotations &a, const QString &id) { return shift(a, id, -1); }
bool moveDown(Annotations &a, const QString &id) { return shift(a, id, +1); }

static bool review(Annotations &a, const QString &id, ReviewState to)
{
    QsNode *n = findMutable(a, id);
    if (!n || n->state != ReviewState::Suggested) return false;
    n->state = to;
    return true;
}

bool accept(Annotations &a, const QString &id) { return review(a, id, ReviewState::Accepted); }
bool reject(Annotations &a, const QString &id) { return review(a, id, ReviewState::Rejected); }

bool attachWords(Annotations &a, const Document &doc, const QString &id, const QStringList &wordIds)
{
    const QHash<QString, int> index = qsWordIndex(doc);
    return guarded(a, [&](Annotations &c) {
        QsNode *n = findMutable(c, id);
        if (!n) return false;
        const std::vector<int> have = qsEvidenceWords(doc, index, *n);
        std::vector<int> words;
        for (const QString &w : wordIds)
            if (const auto it = index.constFind(w); it != index.constEnd() && !std::binary_search(have.begin(), have.end(), *it))
                words.push_back(*it);
        std::sort(words.begin(), words.end());
        words.erase(std::unique(words.begin(), words.end()), words.end());
        if (words.empty()) return false;
        for (size_t i = 0; i < words.size();) {
            size_t j = i;
            while (j + 1 < words.size() && words[j + 1] == words[j] + 1) ++j;
            QStringList texts;
            for (size_t k = i; k <= j; ++k) texts << doc.words[size_t(words[k])].text;
            n->evidenceSpans.push_back({doc.words[size_t(words[i])].id, doc.words[size_t(words[j])].id, texts.join(QLatin1Char(' '))});
            i = j + 1;
        }
        n->evidenceMissing = qsEvidenceMissing(doc, index, *n);
        return true;
    });
}

bool attachSection(Annotations &a, const Document &doc, const QString &id, int sectionIndex)
{
    const QString key = qsSectionKey(doc, sectionIndex);
    return guarded(a, [&](Annotations &c) {
        QsNode *n = findMutable(c, id);
        if (!n || key.isEmpty()) return false;
        for (const QString &k : n->evidenceSections)
            if (qsResolveSection(doc, k) == sectionIndex) return false;
        n->evidenceSections << key;
        n->evidenceMissing = qsEvidenceMissing(doc, qsWordIndex(doc), *n);
        return true;
    });
}

bool clearEvidence(Annotations &a, const QString &id)
{
    QsNode *n = findMutable(a, id);
    if (!n || (n->evidenceSections.isEmpty() && n->evidenceSpans.empty())) return false;
    n->evidenceSections.clear();
    n->evidenceSpans.clear();
    n->evidenceMissing = false;
    return true;
}

int mergeGenerated(Annotations &a, const QString &rootSummary, std::vector<QsNode> generated,
                   const AnnotationSource &source, const QString &belowId)
{
    int added = 0;
    const bool ok = guarded(a, [&](Annotations &c) {
        Nodes *list = &c.qsRoots;
        if (!belowId.isEmpty()) {
            QsNode *below = findMutable(c, belowId);
            if (!below) return false;
            list = &below->children;
        } else if (c.qsSummary.trimmed().isEmpty()) {
            c.qsSummary = rootSummary;
        }
        dropSuggestions(*list);
        QSet<QString> asked;
        for (const QsNode &n : *list) asked.insert(normalisedQuestion(n.question));
        // Fresh ids and the suggestion state for the whole generated forest.
        std::vector<QsNode *> stack;
        for (QsNode &g : generated) stack.push_back(&g);
        qint64 next = qsFreshId(c.qsRoots).mid(1).toLongLong();
        while (!stack.empty()) {
            QsNode *g = stack.back();
            stack.pop_back();
            g->id = QStringLiteral("q%1").arg(next++);
            g->source = source;
            g->state = ReviewState::Suggested;
            g->evidenceMissing = false;
            for (QsNode &ch : g->children) stack.push_back(&ch);
        }
        for (QsNode &g : generated) {
            if (asked.contains(normalisedQuestion(g.question))) continue;
            asked.insert(normalisedQuestion(g.question));
            int count = 0;
            qsDepth({g}, &count);
            added += count;
            list->push_back(std::move(g));
        }
        return true;
    });
    return ok ? added : 0;
}

} // namespace qsedit
} // namespace folio
