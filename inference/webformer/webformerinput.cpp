// WebFormer inputs: WordPiece vocabulary, tag list, DOM edges, page -> index lists, gold spans.
#include "inference/webformer/webformerinput.h"

#include "inference/errors.h"
#include "common/regularfile.h"
#include "inference/webformer/webformereval.h"

#include <algorithm>
#include <fstream>
#include <map>

namespace folio::inference {

namespace {

// UTF-8 code point boundaries of s (including s.size()).
std::vector<std::size_t> codePointBounds(const std::string &s)
{
    std::vector<std::size_t> b;
    for (std::size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80)
            b.push_back(i);
    b.push_back(s.size());
    return b;
}

std::vector<std::string> splitWords(const std::string &s)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '_') {
            if (!cur.empty())
                out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty())
        out.push_back(cur);
    return out;
}

} // namespace

std::string WebVocab::lower(const std::string &s)
{
    std::string o = s;
    for (char &c : o)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return o;
}

void WebVocab::add(const std::string &p)
{
    if (m_ids.emplace(p, int(m_pieces.size())).second)
        m_pieces.push_back(p);
}

WebVocab WebVocab::build(const std::vector<std::string> &words, int size)
{
    WebVocab v;
    v.add("[PAD]");
    v.add("[UNK]");
    std::map<std::string, long> wordCount, pieceCount;
    for (const auto &w : words)
        ++wordCount[lower(w)];
    // Every code point seen, alone and as a continuation.
    for (const auto &[w, n] : wordCount) {
        const auto b = codePointBounds(w);
        for (std::size_t i = 0; i + 1 < b.size(); ++i) {
            const std::string c = w.substr(b[i], b[i + 1] - b[i]);
            v.add(c);
            v.add("##" + c);
        }
    }
    // Frequent whole words, then frequent prefixes / "##" suffixes of 2-5 code points.
    std::vector<std::pair<long, std::string>> ranked;
    for (const auto &[w, n] : wordCount) {
        if (n >= 2)
            ranked.push_back({n, w});
        const auto b = codePointBounds(w);
        const int cps = int(b.size()) - 1;
        for (int len = 2; len <= 5 && len < cps; ++len) {
            pieceCount[w.substr(0, b[len])] += n;
            pieceCount["##" + w.substr(b[cps - len])] += n;
        }
    }
    std::sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    const int wordBudget = std::max(0, (size - v.size()) * 2 / 3);
    for (int i = 0; i < int(ranked.size()) && i < wordBudget; ++i)
        v.add(ranked[i].second);
    std::vector<std::pair<long, std::string>> pieces;
    for (const auto &[p, n] : pieceCount)
        if (n >= 2)
            pieces.push_back({n, p});
    std::sort(pieces.begin(), pieces.end(), [](const auto &a, const auto &b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    for (std::size_t i = 0; i < pieces.size() && v.size() < size; ++i)
        v.add(pieces[i].second);
    return v;
}

WebVocab WebVocab::load(const std::string &path)
{
    std::string notAFile; // a FIFO, a device: refused before the open (issue 51)
    if (regularFileSize(path, FileLimits::vocabulary, "WebFormer's vocabulary", &notAFile) < 0)
        throw InferenceError(notAFile);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InferenceError(path + ": cannot open the vocabulary");
    WebVocab v;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        v.m_ids.emplace(line, int(v.m_pieces.size()));
        v.m_pieces.push_back(line);
    }
    if (v.m_pieces.size() < 2 || v.m_pieces[0] != "[PAD]" || v.m_pieces[1] != "[UNK]")
        throw InferenceError(path + ": not a WebFormer vocabulary ([PAD] and [UNK] must be rows 0 and 1)");
    return v;
}

void WebVocab::save(const std::string &path) const
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    for (const auto &p : m_pieces)
        out << p << '\n';
    if (!out)
        throw InferenceError(path + ": cannot write the vocabulary");
}

std::vector<int> WebVocab::encode(const std::string &word, int maxPieces) const
{
    const std::string w = lower(word);
    const auto b = codePointBounds(w);
    const int cps = int(b.size()) - 1;
    std::vector<int> ids;
    int start = 0;
    while (start < cps && (maxPieces <= 0 || int(ids.size()) < maxPieces)) {
        int found = -1, end = cps;
        for (; end > start; --end) {
            const std::string p = (start > 0 ? "##" : "") + w.substr(b[start], b[end] - b[start]);
            const auto it = m_ids.find(p);
            if (it != m_ids.end()) {
                found = it->second;
                break;
            }
        }
        if (found < 0) {
            ids.push_back(1);
            start += 1;
        } else {
            ids.push_back(found);
            start = end;
        }
    }
    if (ids.empty() && !w.empty())
        ids.push_back(1);
    return ids;
}

std::vector<WebEdge> buildDomEdges(const std::vector<int> &parent, int siblingWindow)
{
    const int n = int(parent.size());
    std::vector<std::vector<int>> children(n);
    std::vector<int> roots;
    for (int i = 0; i < n; ++i) {
        if (parent[i] >= 0)
            children[parent[i]].push_back(i);
        else
            roots.push_back(i);
    }
    std::vector<int> rank(n, 0); // position among siblings
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < int(children[i].size()); ++k)
            rank[children[i][k]] = k;
    for (int k = 0; k < int(roots.size()); ++k)
        rank[roots[k]] = k;
    std::vector<WebEdge> edges;
    for (int i = 0; i < n; ++i) {
        edges.push_back({i, i, EdgeSelf});
        if (parent[i] >= 0)
            edges.push_back({i, parent[i], EdgeParent});
        for (int c : children[i])
            edges.push_back({i, c, EdgeChild});
        const std::vector<int> &sibs = parent[i] >= 0 ? children[parent[i]] : roots;
        const int r = rank[i];
        const int lo = siblingWindow > 0 ? std::max(0, r - siblingWindow) : 0;
        const int hi = siblingWindow > 0 ? std::min(int(sibs.size()) - 1, r + siblingWindow) : int(sibs.size()) - 1;
        for (int k = lo; k <= hi; ++k)
            if (k != r)
                edges.push_back({i, sibs[k], EdgeSibling});
    }
    return edges;
}

const std::vector<std::string> &webTagList()
{
    static const std::vector<std::string> tags = {
        "[UNK]", "#text", "html", "head", "title", "body", "div", "span", "p", "a", "b", "i", "u", "em", "strong",
        "small", "big", "font", "center", "br", "hr", "img", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li",
        "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "form", "input",
        "select", "option", "textarea", "button", "label", "fieldset", "legend", "iframe", "noscript", "script",
        "style", "meta", "link", "nav", "header", "footer", "section", "article", "aside", "main", "sup", "sub",
        "blockquote", "pre", "code", "cite", "abbr", "map", "area", "object", "param", "embed", "s", "strike",
        "del", "ins", "nobr", "wbr", "tt", "address", "q", "optgroup", "colgroup", "col", "figure", "figcaption"};
    return tags;
}

WebFormerInputs buildWebFormerInputs(const WebPage &page, const WebVocab &vocab, const WebFormerConfig &config,
                                     const std::vector<std::string> &fields)
{
    WebFormerInputs in;
    const int n = int(page.nodes.size());
    // Word pieces of every word until the text budget is spent; a text node is kept when at least
    // one of its words made it (so truncation also drops the HTML tokens of the cut tail).
    std::vector<std::vector<int>> pieces; // per page word (empty: cut)
    std::vector<char> hasText(n, 0);
    int budget = config.maxTextTokens;
    for (int i = 0; i < n; ++i) {
        const WebNode &node = page.nodes[i];
        if (!node.isText)
            continue;
        for (const auto &w : node.words) {
            in.words.push_back(w);
            in.wordNode.push_back(i);
            std::vector<int> ids = in.truncated ? std::vector<int>() : vocab.encode(w, config.maxPiecesPerWord);
            if (int(ids.size()) > budget) {
                in.truncated = true;
                ids.clear();
            }
            budget -= int(ids.size());
            if (!ids.empty())
                hasText[i] = 1;
            pieces.push_back(std::move(ids));
        }
    }
    for (int i = n - 1; i >= 0; --i)
        if (hasText[i] && page.nodes[i].parent >= 0 && page.nodes[i].parent < i)
            hasText[page.nodes[i].parent] = 1;
    static std::map<std::string, int> tagIndex = [] {
        std::map<std::string, int> m;
        for (int i = 0; i < int(webTagList().size()); ++i)
            m[webTagList()[i]] = i;
        return m;
    }();
    std::vector<int> token(n, -1);
    for (int i = 0; i < n; ++i) {
        const WebNode &node = page.nodes[i];
        if (!hasText[i])
            continue;
        token[i] = in.numHtml();
        const auto it = tagIndex.find(node.isText ? std::string("#text") : WebVocab::lower(node.tag));
        in.tagIds.push_back(it == tagIndex.end() ? 0 : it->second);
        in.htmlNode.push_back(i);
        in.htmlParent.push_back(node.parent >= 0 && node.parent < i ? token[node.parent] : -1);
    }
    // Text tokens.
    for (int w = 0; w < int(pieces.size()); ++w)
        for (int id : pieces[w]) {
            const int node = token[in.wordNode[w]];
            in.textIds.push_back(id);
            in.textNode.push_back(node);
            in.textParent.push_back(in.htmlParent[node]);
            in.textWord.push_back(w);
        }
    const int N = in.numHtml(), T = in.numText();
    // Field tokens.
    std::vector<std::vector<int>> fp;
    for (const auto &f : fields) {
        std::vector<int> ids;
        for (const auto &w : splitWords(f))
            for (int id : vocab.encode(w, 4))
                ids.push_back(id);
        if (ids.empty())
            ids.push_back(1);
        ids.resize(std::min<std::size_t>(ids.size(), 8));
        fp.push_back(ids);
        in.fieldPieceWidth = std::max(in.fieldPieceWidth, int(ids.size()));
    }
    for (const auto &ids : fp)
        for (int k = 0; k < in.fieldPieceWidth; ++k)
            in.fieldPieces.push_back(k < int(ids.size()) ? ids[k] : 0);
    const int F = int(fields.size());
    // HTML-query edges: DOM graph, then H2T, then H2F; grouped by query.
    std::vector<std::vector<std::pair<int, int>>> perQuery(N);
    if (config.domGraph) {
        for (const WebEdge &e : buildDomEdges(in.htmlParent, config.siblingWindow))
            perQuery[e.query].push_back({e.key, e.type});
    } else {
        for (int q = 0; q < N; ++q) // ablation: no parent/child/sibling edges
            perQuery[q].push_back({q, EdgeSelf});
    }
    for (int t = 0; t < T; ++t) {
        perQuery[in.textNode[t]].push_back({N + t, EdgeH2T});
        if (in.textParent[t] >= 0)
            perQuery[in.textParent[t]].push_back({N + t, EdgeH2T});
    }
    for (int q = 0; q < N; ++q) {
        for (int f = 0; f < F; ++f)
            perQuery[q].push_back({N + T + f, EdgeH2F});
        for (const auto &[k, type] : perQuery[q]) {
            in.edgeQuery.push_back(q);
            in.edgeKey.push_back(k);
            in.edgeType.push_back(type);
        }
    }
    return in;
}

std::vector<GoldSpan> findGoldSpans(const WebFormerInputs &in, const std::vector<std::string> &values)
{
    // Normalised page words that made it into the text tokens, with their token ranges.
    std::vector<int> firstTok(in.words.size(), -1), lastTok(in.words.size(), -1);
    for (int t = 0; t < in.numText(); ++t) {
        const int w = in.textWord[t];
        if (firstTok[w] < 0)
            firstTok[w] = t;
        lastTok[w] = t;
    }
    std::vector<std::string> norm;
    std::vector<int> wordOf;
    for (int w = 0; w < int(in.words.size()); ++w) {
        if (firstTok[w] < 0)
            continue;
        const std::string s = normaliseFieldValue(in.words[w]);
        if (s.empty())
            continue;
        norm.push_back(s);
        wordOf.push_back(w);
    }
    std::vector<GoldSpan> spans;
    for (const auto &v : values) {
        std::vector<std::string> target;
        for (const auto &w : splitWords(v)) {
            const std::string s = normaliseFieldValue(w);
            if (!s.empty())
                target.push_back(s);
        }
        if (target.empty() || target.size() > norm.size())
            continue;
        for (std::size_t i = 0; i + target.size() <= norm.size(); ++i) {
            if (!std::equal(target.begin(), target.end(), norm.begin() + long(i)))
                continue;
            const GoldSpan s{firstTok[wordOf[i]], lastTok[wordOf[i + target.size() - 1]]};
            if (std::none_of(spans.begin(), spans.end(), [&](const GoldSpan &o) { return o.start == s.start && o.end == s.end; }))
                spans.push_back(s);
        }
    }
    std::sort(spans.begin(), spans.end(), [](const GoldSpan &a, const GoldSpan &b) { return a.start < b.start; });
    return spans;
}

} // namespace folio::inference
