// mergeRegionResult: splice a re-OCR'd region into a Document without losing user edits.
#include "document/boxgeometry.h"
#include "ocr/ocr.h"
#include "document/layoutsections.h"

#include <QRegularExpression>

#include <unordered_map>

namespace folio::ocr {

static bool isContainer(NodeKind k) { return k == NodeKind::Block || k == NodeKind::Paragraph || k == NodeKind::Line; }

namespace {
struct Merger
{
    const Document &old;
    const Document &fresh;
    Document out;
    std::vector<char> dropOld;
    std::vector<char> dropFresh;
    std::unordered_map<int, int> oldWordOfNode, freshWordOfNode;
    QString oldPrefix, newPrefix; // "p0/" → "p0/r3/"
    int added = 0;

    // Copies node `idx` of `src` under `parent` in `out`; returns false when it ended up empty.
    bool copy(const Document &src, int idx, int parent, bool isFresh)
    {
        const std::vector<char> &drop = isFresh ? dropFresh : dropOld;
        if (idx <= 0 || idx >= int(src.nodes.size()) || drop[size_t(idx)])
            return false;
        Node n = src.nodes[size_t(idx)];
        const std::vector<int> children = n.children;
        n.children.clear();
        if (isFresh && n.id.startsWith(oldPrefix))
            n.id = newPrefix + n.id.mid(oldPrefix.size());
        const int ni = out.addNode(n, parent);
        if (n.kind == NodeKind::Word) {
            const auto &map = isFresh ? freshWordOfNode : oldWordOfNode;
            const auto it = map.find(idx);
            if (it != map.end()) {
                Word w = src.words[size_t(it->second)];
                w.node = ni;
                w.id = n.id;
                out.words.push_back(w);
                if (isFresh)
                    ++added;
            }
        }
        int kept = 0;
        for (int c : children)
            kept += copy(src, c, ni, isFresh) ? 1 : 0;
        if (isContainer(n.kind) && !children.empty() && kept == 0) {
            out.nodes.pop_back(); // nothing was added after it
            if (parent >= 0)
                out.nodes[size_t(parent)].children.pop_back();
            return false;
        }
        return true;
    }
};
} // namespace

int mergeRegionResult(Document *doc, int page, const QRect &region, const Document &regionResult)
{
    if (!doc || page < 0)
        return 0;
    const QRectF reg(region);
    Merger m{*doc, regionResult, Document(), {}, {}, {}, {}, {}, {}, 0};
    m.dropOld.assign(doc->nodes.size(), 0);
    m.dropFresh.assign(regionResult.nodes.size(), 0);
    std::vector<QRectF> keptEdited;
    for (size_t i = 0; i < doc->words.size(); ++i) {
        const Word &w = doc->words[i];
        m.oldWordOfNode[w.node] = int(i);
        if (w.page != page || !reg.contains(w.box.center()))
            continue;
        if (w.userEdited)
            keptEdited.push_back(w.box);
        else if (w.node >= 0 && w.node < int(doc->nodes.size()))
            m.dropOld[size_t(w.node)] = 1;
    }
    for (size_t i = 0; i < regionResult.words.size(); ++i) {
        const Word &w = regionResult.words[i];
        m.freshWordOfNode[w.node] = int(i);
        bool clash = w.page != page;
        for (const QRectF &e : keptEdited)
            clash = clash || boxIoU(e, w.box) >= 0.3;
        if (clash && w.node >= 0 && w.node < int(regionResult.nodes.size()))
            m.dropFresh[size_t(w.node)] = 1;
    }
    // A run number not used yet on this page keeps new ids unique.
    int run = 1;
    const QRegularExpression runRe(QStringLiteral("^p%1/r(\\d+)/").arg(page));
    for (const Node &n : doc->nodes) {
        const auto match = runRe.match(n.id);
        if (match.hasMatch())
            run = std::max(run, match.captured(1).toInt() + 1);
    }
    m.oldPrefix = QStringLiteral("p%1/").arg(page);
    m.newPrefix = QStringLiteral("p%1/r%2/").arg(page).arg(run);

    // Blocks of the fresh result for this page.
    std::vector<int> freshBlocks;
    if (!regionResult.nodes.empty())
        for (int pn : regionResult.nodes[0].children)
            if (regionResult.nodes[size_t(pn)].kind == NodeKind::Page && regionResult.nodes[size_t(pn)].page == page)
                freshBlocks.insert(freshBlocks.end(), regionResult.nodes[size_t(pn)].children.begin(),
                                   regionResult.nodes[size_t(pn)].children.end());
    const double freshTop = freshBlocks.empty() ? 0 : regionResult.nodes[size_t(freshBlocks.front())].box.top();

    Document &out = m.out;
    out.sourcePath = doc->sourcePath;
    out.kind = doc->kind;
    out.title = doc->title;
    out.pages = doc->pages;
    Node root = doc->nodes.empty() ? Node() : doc->nodes[0];
    if (doc->nodes.empty()) {
        root.id = QStringLiteral("root");
        root.kind = NodeKind::Root;
    }
    const std::vector<int> topChildren = root.children;
    root.children.clear();
    root.parent = -1;
    out.nodes.push_back(root);

    bool pageSeen = false;
    auto insertFresh = [&](int pageIdx) {
        for (int b : freshBlocks)
            m.copy(regionResult, b, pageIdx, /*isFresh=*/true);
    };
    for (int c : topChildren) {
        const Node &n = doc->nodes[size_t(c)];
        if (n.kind != NodeKind::Page || n.page != page) {
            m.copy(*doc, c, 0, false);
            continue;
        }
        pageSeen = true;
        Node pn = n;
        pn.children.clear();
        const int pageIdx = out.addNode(pn, 0);
        bool inserted = false;
        for (int b : n.children) {
            if (!inserted && doc->nodes[size_t(b)].box.top() > freshTop && !m.dropOld[size_t(b)]) {
                insertFresh(pageIdx);
                inserted = true;
            }
            m.copy(*doc, b, pageIdx, false);
        }
        if (!inserted)
            insertFresh(pageIdx);
    }
    if (!pageSeen) {
        Node pn;
        pn.id = QStringLiteral("p%1").arg(page);
        pn.kind = NodeKind::Page;
        pn.page = page;
        if (page < int(doc->pages.size()))
            pn.box = QRectF(QPointF(0, 0), doc->pages[size_t(page)].size);
        insertFresh(out.addNode(pn, 0));
    }
    out.normaliseWordBoxes();
    out.sections = doc->sections;
    QStringList oldWordIds;
    oldWordIds.reserve(int(doc->words.size()));
    for (const Word &w : doc->words)
        oldWordIds << w.id;
    *doc = std::move(out);
    rebaseSections(doc, oldWordIds);
    return m.added;
}

} // namespace folio::ocr
