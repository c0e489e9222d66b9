#include "pipeline/qs/qstrees.h"

#include "document/qstree.h"

#include <algorithm>
#include <iterator>

namespace folio::pipeline {

std::vector<QsNode> qsNodesFromHierarchy(const inference::QsHierarchy &tree)
{
    const std::vector<int> parents = tree.parents();
    std::vector<QsNode> flat(tree.items.size());
    for (std::size_t i = 0; i < tree.items.size(); ++i) {
        flat[i].question = QString::fromStdString(tree.items[i].question);
        flat[i].summary = QString::fromStdString(tree.items[i].summary);
    }
    // Bottom-up: a child is complete before it is moved into its parent (parents come first).
    std::vector<std::vector<QsNode>> children(flat.size());
    std::vector<QsNode> roots;
    for (std::size_t k = flat.size(); k-- > 0;) {
        flat[k].children.assign(std::make_move_iterator(children[k].rbegin()), std::make_move_iterator(children[k].rend()));
        if (parents[k] >= 0)
            children[std::size_t(parents[k])].push_back(std::move(flat[k]));
        else
            roots.push_back(std::move(flat[k]));
    }
    return {std::make_move_iterator(roots.rbegin()), std::make_move_iterator(roots.rend())};
}

std::vector<QsNode> qsNodesFromDraft(const DraftSource &src, const QsDraft &draft, const Document &doc,
                                     const std::vector<int> &wordMap)
{
    auto docWord = [&](int w) { return wordMap.empty() ? w : (w >= 0 && w < int(wordMap.size()) ? wordMap[std::size_t(w)] : -1); };
    std::vector<QsNode> roots;
    std::vector<QsNode *> open;
    for (const DraftItem &item : draft.items) {
        QsNode n;
        n.question = item.question;
        n.summary = item.summary;
        n.confidence = item.confidence;
        const int docSection = src.sections[std::size_t(item.section)].documentSection;
        if (wordMap.empty() && docSection >= 0 && docSection < int(doc.sections.size()))
            n.evidenceSections << qsSectionKey(doc, docSection);
        for (const auto &[s, i] : item.evidence) {
            const DraftSentence &t = src.sections[std::size_t(s)].sentences[std::size_t(i)];
            const int a = docWord(t.firstWord), b = docWord(t.lastWord);
            if (a >= 0 && b >= a && b < int(doc.words.size()))
                n.evidenceSpans.push_back({doc.words[std::size_t(a)].id, doc.words[std::size_t(b)].id, t.text});
        }
        const std::size_t depth = std::size_t(std::max(1, item.depth));
        open.resize(std::min(open.size(), depth - 1));
        std::vector<QsNode> &list = open.empty() ? roots : open.back()->children;
        list.push_back(std::move(n));
        open.push_back(&list.back());
        // Pointers into `list` stay valid: items are only appended below the last open node.
    }
    return roots;
}

namespace {

void addNodes(const std::vector<QsNode> &nodes, int depth, inference::QsHierarchy *tree)
{
    for (const QsNode &n : nodes) {
        inference::QsItem item;
        item.question = n.question.simplified().toStdString();
        item.summary = n.summary.simplified().toStdString();
        item.depth = depth;
        tree->items.push_back(item);
        addNodes(n.children, depth + 1, tree);
    }
}

} // namespace

inference::QsHierarchy qsHierarchyFromNodes(const QString &rootSummary, const std::vector<QsNode> &roots)
{
    inference::QsHierarchy tree;
    tree.rootSummary = rootSummary.simplified().toStdString();
    addNodes(roots, 1, &tree);
    return tree;
}

inference::QsHierarchy qsHierarchyFromDraft(const QsDraft &draft)
{
    inference::QsHierarchy h;
    h.rootSummary = draft.rootSummary.toStdString();
    for (const DraftItem &i : draft.items)
        h.items.push_back({i.question.toStdString(), i.summary.toStdString(), i.depth});
    return h;
}

} // namespace folio::pipeline
