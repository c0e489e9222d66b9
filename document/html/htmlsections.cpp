#include "document/html/htmlsections.h"

#include <climits>

namespace folio {

int headingRank(const QString &tag)
{
    if (tag.size() == 2 && tag[0] == QLatin1Char('h') && tag[1] >= QLatin1Char('1') && tag[1] <= QLatin1Char('6'))
        return tag[1].unicode() - '0';
    return 0;
}

namespace {

struct Open
{
    int section;   // index into doc->sections
    int rank;      // heading rank (1..6); 7 for an untitled <section> scope
    bool scope;    // a <section> element (closes at scopeEnd only)
    int scopeEnd;  // first node index after the scope
};

} // namespace

void buildHtmlSections(Document *doc)
{
    doc->sections.clear();
    const int n = int(doc->nodes.size());
    if (n == 0)
        return;

    // Pre-order: a node's subtree is [i, end[i]).
    std::vector<int> end(static_cast<size_t>(n));
    for (int i = n - 1; i >= 0; --i) {
        const auto &children = doc->nodes[size_t(i)].children;
        end[size_t(i)] = children.empty() ? i + 1 : end[size_t(children.back())];
    }
    // wordsBefore[i]: words whose text node index is < i.
    std::vector<int> wordsBefore(size_t(n) + 1, 0);
    {
        std::vector<int> perNode(size_t(n), 0);
        for (const Word &w : doc->words)
            if (w.node >= 0 && w.node < n)
                ++perNode[size_t(w.node)];
        for (int i = 0; i < n; ++i)
            wordsBefore[size_t(i) + 1] = wordsBefore[size_t(i)] + perNode[size_t(i)];
    }
    auto titleOf = [&](int node) {
        QString title;
        for (int j = node; j < end[size_t(node)]; ++j) {
            const Node &t = doc->nodes[size_t(j)];
            if (t.kind != NodeKind::Text || t.text.isEmpty())
                continue;
            if (!title.isEmpty())
                title += QLatin1Char(' ');
            title += t.text;
            if (title.size() > 1000)
                break;
        }
        // Documentation generators end headings with a permalink mark ("Copyright ¶", "Usage #").
        title = title.left(1000).trimmed();
        while (title.endsWith(QChar(0x00B6)) || title.endsWith(QLatin1String(" #")))
            title = title.left(title.size() - (title.endsWith(QChar(0x00B6)) ? 1 : 2)).trimmed();
        return title;
    };

    std::vector<Open> stack;
    std::vector<bool> directClosed;
    auto openSection = [&](int node, int rank, bool scope, int scopeEnd, const QString &title) {
        Section s;
        s.title = title;
        s.node = node;
        s.parent = stack.empty() ? -1 : stack.back().section;
        s.level = stack.empty() ? 1 : doc->sections[size_t(stack.back().section)].level + 1;
        s.firstWord = s.endWord = wordsBefore[size_t(node)];
        const int index = int(doc->sections.size());
        if (s.parent >= 0) {
            Section &p = doc->sections[size_t(s.parent)];
            p.children.push_back(index);
            if (!directClosed[size_t(s.parent)]) {
                p.endWord = wordsBefore[size_t(node)];
                directClosed[size_t(s.parent)] = true;
            }
        }
        doc->sections.push_back(std::move(s));
        directClosed.push_back(false);
        stack.push_back({index, rank, scope, scopeEnd});
    };
    auto closeTop = [&](int at) {
        const int s = stack.back().section;
        if (!directClosed[size_t(s)]) {
            doc->sections[size_t(s)].endWord = wordsBefore[size_t(at)];
            directClosed[size_t(s)] = true;
        }
        stack.pop_back();
    };

    for (int i = 0; i < n; ++i) {
        // Leave <section> scopes (and the heading sections inside them) that ended before i.
        while (!stack.empty()) {
            int limit = INT_MAX;
            for (auto it = stack.rbegin(); it != stack.rend(); ++it)
                if (it->scope) { limit = it->scopeEnd; break; }
            if (stack.back().scope ? stack.back().scopeEnd <= i : limit <= i)
                closeTop(i);
            else
                break;
        }
        const Node &node = doc->nodes[size_t(i)];
        if (node.kind != NodeKind::Element)
            continue;
        if (node.tag == QLatin1String("section")) {
            openSection(i, 7, true, end[size_t(i)], QString());
            continue;
        }
        const int rank = headingRank(node.tag);
        if (rank == 0)
            continue;
        if (!stack.empty() && stack.back().scope && stack.back().rank == 7
            && doc->sections[size_t(stack.back().section)].children.empty()) {
            // First heading of a <section>: it names the section.
            doc->sections[size_t(stack.back().section)].title = titleOf(i);
            stack.back().rank = rank;
            continue;
        }
        while (!stack.empty() && !stack.back().scope && stack.back().rank >= rank)
            closeTop(i);
        int scopeEnd = INT_MAX;
        for (auto it = stack.rbegin(); it != stack.rend(); ++it)
            if (it->scope) { scopeEnd = it->scopeEnd; break; }
        openSection(i, rank, false, scopeEnd, titleOf(i));
    }
    while (!stack.empty())
        closeTop(n);
}

} // namespace folio
