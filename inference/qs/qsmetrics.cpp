// ROUGE (rouge_score 0.0.4 semantics), BLEU-4 with nltk 3.5 smoothing method2, and the HIBRIDS
// hierarchy P/R/F1 (inference/qs/qsmetrics.h).
#include "inference/qs/qsmetrics.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

namespace folio::inference {

namespace {

using Ngrams = std::map<std::vector<std::string>, int>;

Ngrams ngrams(const std::vector<std::string> &tokens, int n)
{
    Ngrams out;
    for (std::size_t i = 0; i + static_cast<std::size_t>(n) <= tokens.size(); ++i)
        ++out[std::vector<std::string>(tokens.begin() + static_cast<std::ptrdiff_t>(i),
                                       tokens.begin() + static_cast<std::ptrdiff_t>(i) + n)];
    return out;
}

RougeScore fromCounts(double hits, double predicted, double target)
{
    RougeScore s;
    s.precision = hits / std::max(predicted, 1.0);
    s.recall = hits / std::max(target, 1.0);
    s.fmeasure = s.precision + s.recall > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0.0;
    return s;
}

std::vector<std::string> lines(const std::string &text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto end = text.find('\n', start);
        const std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!line.empty())
            out.push_back(line);
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return out;
}

// Indices into `ref` of one LCS of ref and can (rouge_score's _backtrack_norec).
std::vector<std::size_t> lcsIndices(const std::vector<std::string> &ref, const std::vector<std::string> &can)
{
    const std::size_t r = ref.size(), c = can.size();
    std::vector<std::vector<int>> t(r + 1, std::vector<int>(c + 1, 0));
    for (std::size_t i = 1; i <= r; ++i)
        for (std::size_t j = 1; j <= c; ++j)
            t[i][j] = ref[i - 1] == can[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
    std::vector<std::size_t> out;
    std::size_t i = r, j = c;
    while (i > 0 && j > 0) {
        if (ref[i - 1] == can[j - 1]) {
            out.insert(out.begin(), i - 1);
            --i;
            --j;
        } else if (t[i][j - 1] > t[i - 1][j]) {
            --j;
        } else {
            --i;
        }
    }
    return out;
}

const std::string kRoot = std::string("\x01ROOT");

// The reference's graph: heads by summary text (first parent wins), relations as a set.
struct Graph
{
    std::vector<std::string> nodes; // insertion order
    std::map<std::string, std::string> heads;
    std::set<std::pair<std::string, std::string>> relations;
};

Graph graphOf(const QsHierarchy &tree)
{
    Graph g;
    auto addNode = [&g](const std::string &node, const std::string &head) {
        if (g.heads.emplace(node, head).second)
            g.nodes.push_back(node);
    };
    addNode(tree.rootSummary, kRoot);
    const std::vector<int> parents = tree.parents();
    for (std::size_t i = 0; i < tree.items.size(); ++i) {
        const std::string &s = tree.items[i].summary;
        const int p = parents[i];
        const std::string head = p < 0 ? tree.rootSummary : tree.items[static_cast<std::size_t>(p)].summary;
        addNode(s, head);
        g.relations.insert({s, head});
    }
    return g;
}

// Σ over `from`'s relations of (s_child + s_parent) / 4 when the image of the parent is the image of
// the child or one of its ancestors in `to`, divided by the number of relations.
double directedScore(const Graph &from, const Graph &to)
{
    if (from.relations.empty())
        return 1.0;
    std::map<std::string, std::pair<double, std::string>> image;
    for (const std::string &node : from.nodes) {
        std::pair<double, std::string> best{-1.0, kRoot};
        for (const std::string &cand : to.nodes) {
            const double s = rougeN(cand, node, 1).fmeasure + rougeN(cand, node, 2).fmeasure;
            if (s > best.first)
                best = {s, cand};
        }
        image[node] = best;
    }
    double sum = 0.0;
    for (const auto &[child, head] : from.relations) {
        if (head == kRoot)
            continue;
        const auto &[sc, mappedChild] = image.at(child);
        const auto &[sh, mappedHead] = image.at(head);
        std::string walk = mappedChild;
        for (std::size_t steps = 0; walk != mappedHead && walk != kRoot && steps <= to.nodes.size(); ++steps)
            walk = to.heads.at(walk);
        if (walk == mappedHead)
            sum += (sc + sh) / 4.0;
    }
    return sum / static_cast<double>(from.relations.size());
}

std::string joined(const std::vector<std::string> &parts, const std::string &sep)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i ? sep : "") + parts[i];
    return out;
}

} // namespace

std::vector<std::string> rougeTokenize(const std::string &text, bool stem)
{
    std::vector<std::string> tokens;
    std::string cur;
    auto flush = [&] {
        if (!cur.empty())
            tokens.push_back(stem && cur.size() > 3 ? porterStem(cur) : cur);
        cur.clear();
    };
    for (unsigned char c : text) {
        const char l = static_cast<char>(std::tolower(c));
        if ((l >= 'a' && l <= 'z') || (l >= '0' && l <= '9'))
            cur += l;
        else
            flush();
    }
    flush();
    return tokens;
}

RougeScore rougeN(const std::string &target, const std::string &prediction, int n)
{
    const Ngrams t = ngrams(rougeTokenize(target), n), p = ngrams(rougeTokenize(prediction), n);
    double hits = 0, nt = 0, np = 0;
    for (const auto &[g, c] : t) {
        nt += c;
        if (auto it = p.find(g); it != p.end())
            hits += std::min(c, it->second);
    }
    for (const auto &e : p)
        np += e.second;
    return fromCounts(hits, np, nt);
}

RougeScore rougeLsum(const std::string &target, const std::string &prediction)
{
    std::vector<std::vector<std::string>> ref, can;
    for (const auto &l : lines(target))
        ref.push_back(rougeTokenize(l));
    for (const auto &l : lines(prediction))
        can.push_back(rougeTokenize(l));
    std::map<std::string, int> refCounts, canCounts;
    double m = 0, n = 0;
    for (const auto &s : ref)
        for (const auto &t : s) {
            ++refCounts[t];
            ++m;
        }
    for (const auto &s : can)
        for (const auto &t : s) {
            ++canCounts[t];
            ++n;
        }
    if (m == 0 || n == 0)
        return {};
    double hits = 0;
    for (const auto &r : ref) {
        std::set<std::size_t> unionIdx;
        for (const auto &c : can)
            for (auto i : lcsIndices(r, c))
                unionIdx.insert(i);
        for (auto i : unionIdx) {
            const std::string &t = r[i];
            if (canCounts[t] > 0 && refCounts[t] > 0) {
                ++hits;
                --canCounts[t];
                --refCounts[t];
            }
        }
    }
    return fromCounts(hits, n, m);
}

std::string splitSentences(const std::string &text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            out += ' ';
            continue;
        }
        out += c;
        if ((c == '.' || c == '!' || c == '?') && i + 1 < text.size() && text[i + 1] == ' ') {
            out += '\n';
            ++i; // the space
        }
    }
    return out;
}

std::vector<std::string> bleuTokenize(const std::string &text)
{
    std::vector<std::string> tokens;
    std::string cur;
    for (unsigned char c : text) {
        if (std::isspace(c) || std::ispunct(c)) {
            if (!cur.empty())
                tokens.push_back(cur);
            cur.clear();
            if (std::ispunct(c) && c != '\'')
                tokens.push_back(std::string(1, static_cast<char>(c)));
            else if (c == '\'')
                cur += static_cast<char>(c);
        } else {
            cur += static_cast<char>(std::tolower(c));
        }
    }
    if (!cur.empty())
        tokens.push_back(cur);
    return tokens;
}

double sentenceBleu4(const std::vector<std::string> &reference, const std::vector<std::string> &hypothesis)
{
    double logSum = 0.0;
    for (int n = 1; n <= 4; ++n) {
        const Ngrams h = ngrams(hypothesis, n), r = ngrams(reference, n);
        double clipped = 0, total = 0;
        for (const auto &[g, c] : h) {
            total += c;
            if (auto it = r.find(g); it != r.end())
                clipped += std::min(c, it->second);
        }
        const double denominator = std::max(total, 1.0);
        if (n == 1 && clipped == 0)
            return 0.0; // nltk: no unigram match
        logSum += 0.25 * std::log((clipped + 1.0) / (denominator + 1.0)); // method2
    }
    const double hl = static_cast<double>(hypothesis.size()), rl = static_cast<double>(reference.size());
    const double bp = hl > rl ? 1.0 : (hl == 0 ? 0.0 : std::exp(1.0 - rl / hl));
    return bp * std::exp(logSum);
}

HierarchyScore hierarchyScore(const QsHierarchy &target, const QsHierarchy &prediction)
{
    const Graph t = graphOf(target), p = graphOf(prediction);
    HierarchyScore s;
    s.precision = directedScore(p, t);
    s.recall = directedScore(t, p);
    s.f1 = s.precision + s.recall > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0.0;
    return s;
}

QsScores scoreQs(const std::string &targetText, const std::string &predictionText)
{
    const QsHierarchy t = parseQsTarget(normaliseQsActions(targetText)).tree;
    const QsHierarchy p = parseQsTarget(normaliseQsActions(predictionText)).tree;
    auto summaries = [](const QsHierarchy &h) {
        std::vector<std::string> s;
        for (const auto &i : h.items)
            s.push_back(i.summary);
        return splitSentences(h.rootSummary + " " + joined(s, " "));
    };
    auto questions = [](const QsHierarchy &h) {
        std::vector<std::string> q;
        for (const auto &i : h.items)
            q.push_back(i.question);
        return bleuTokenize(joined(q, " "));
    };
    QsScores r;
    const std::string ts = summaries(t), ps = summaries(p);
    r.rouge1 = rougeN(ts, ps, 1);
    r.rouge2 = rougeN(ts, ps, 2);
    r.rougeLsum = rougeLsum(ts, ps);
    r.questionBleu4 = sentenceBleu4(questions(t), questions(p));
    r.hierarchy = hierarchyScore(t, p);
    return r;
}

} // namespace folio::inference
