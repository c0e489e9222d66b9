#include "attention/attentionrollup.h"

#include "document/annotations.h"
#include "document/document.h"
#include "document/html/htmlxpath.h"
#include "attention/attentiontrace.h"

#include <QHash>

#include <cmath>
#include <limits>

namespace folio {

QString attentionGranularityName(AttentionGranularity g)
{
    switch (g) {
    case AttentionGranularity::Tokens: return QStringLiteral("tokens");
    case AttentionGranularity::Words: return QStringLiteral("words");
    case AttentionGranularity::Entities: return QStringLiteral("entities");
    case AttentionGranularity::Sections: return QStringLiteral("sections");
    case AttentionGranularity::DomNodes: return QStringLiteral("DOM nodes");
    }
    return QString();
}

static QString shortText(const QString &s)
{
    const QString t = s.simplified();
    return t.size() > 24 ? t.left(23) + QChar(0x2026) : t;
}

// Units over words: wordToUnit per document word, then tokens follow their word.
static void finishFromWords(AttentionUnits *u, const AttentionTrace &trace, const std::vector<int> &wordToUnit)
{
    u->wordUnit = wordToUnit;
    u->tokenUnit.assign(trace.tokenWord.size(), -1);
    for (std::size_t t = 0; t < trace.tokenWord.size(); ++t) {
        const int w = trace.tokenWord[t];
        if (w >= 0 && w < int(wordToUnit.size()))
            u->tokenUnit[t] = wordToUnit[std::size_t(w)];
    }
}

AttentionUnits buildAttentionUnits(AttentionGranularity g, const AttentionTrace &trace, const Document *doc,
                                   const Annotations *annotations)
{
    AttentionUnits u;
    u.granularity = g;
    const int tokens = trace.tokenCount();
    if (g == AttentionGranularity::Tokens || (g == AttentionGranularity::Words && !doc)) {
        if (g == AttentionGranularity::Tokens) {
            for (int t = 0; t < tokens; ++t)
                u.labels << (t < trace.tokenText.size() && !trace.tokenText.at(t).isEmpty() ? shortText(trace.tokenText.at(t)) : QStringLiteral("#%1").arg(t));
            for (int t = 0; t < tokens; ++t)
                u.tokenUnit.push_back(t);
            return u;
        }
        int maxWord = -1;
        for (int w : trace.tokenWord)
            maxWord = std::max(maxWord, w);
        std::vector<int> identity;
        for (int w = 0; w <= maxWord; ++w) {
            identity.push_back(w);
            u.labels << QStringLiteral("w%1").arg(w);
        }
        finishFromWords(&u, trace, identity);
        return u;
    }
    if (!doc)
        return u; // no units without a document
    const int words = int(doc->words.size());
    std::vector<int> wordToUnit(std::size_t(words), -1);
    switch (g) {
    case AttentionGranularity::Tokens:
        break;
    case AttentionGranularity::Words:
        for (int w = 0; w < words; ++w) {
            wordToUnit[std::size_t(w)] = w;
            u.labels << shortText(doc->words[std::size_t(w)].text);
        }
        break;
    case AttentionGranularity::Entities: {
        if (!annotations)
            break;
        QHash<QString, int> wordById;
        for (int w = 0; w < words; ++w)
            wordById.insert(doc->words[std::size_t(w)].id, w);
        for (const Entity &e : annotations->entities) {
            const int unit = u.count();
            bool any = false;
            for (const QString &id : e.wordIds) {
                const int w = wordById.value(id, -1);
                if (w >= 0 && wordToUnit[std::size_t(w)] < 0) {
                    wordToUnit[std::size_t(w)] = unit;
                    any = true;
                }
            }
            if (any)
                u.labels << QStringLiteral("%1 %2").arg(e.label, e.id);
        }
        break;
    }
    case AttentionGranularity::Sections:
        for (std::size_t s = 0; s < doc->sections.size(); ++s) {
            const Section &sec = doc->sections[s];
            u.labels << (sec.title.isEmpty() ? QStringLiteral("section %1").arg(s) : shortText(sec.title));
            // Sections are in pre-order, so a later (deeper) section overwrites its parent's words.
            for (int w = std::max(0, sec.firstWord); w < std::min(words, sec.endWord); ++w)
                wordToUnit[std::size_t(w)] = int(s);
        }
        break;
    case AttentionGranularity::DomNodes: {
        QHash<int, int> unitOfNode;
        for (int w = 0; w < words; ++w) {
            int n = doc->words[std::size_t(w)].node;
            if (n < 0 || n >= int(doc->nodes.size()))
                continue;
            const NodeKind k = doc->nodes[std::size_t(n)].kind;
            if ((k == NodeKind::Text || k == NodeKind::Word) && doc->nodes[std::size_t(n)].parent >= 0)
                n = doc->nodes[std::size_t(n)].parent;
            auto it = unitOfNode.find(n);
            if (it == unitOfNode.end()) {
                it = unitOfNode.insert(n, u.count());
                const Node &node = doc->nodes[std::size_t(n)];
                const QString xpath = xpathOf(*doc, n);
                const QString name = xpath.isEmpty() ? node.id : xpath;
                u.labels << (node.tag.isEmpty() ? name : QStringLiteral("<%1> %2").arg(node.tag, name));
            }
            wordToUnit[std::size_t(w)] = it.value();
        }
        break;
    }
    }
    finishFromWords(&u, trace, wordToUnit);
    return u;
}

UnitMatrix rollUpAttention(const AttentionTrace &trace, const std::vector<std::vector<float>> &windowMatrices,
                           const AttentionUnits &units, RollUpRule rule)
{
    UnitMatrix out;
    const int n = units.count();
    out.size = n;
    std::vector<float> acc(std::size_t(n) * n, 0.0f);
    std::vector<int> cnt(std::size_t(n) * n, 0);
    for (std::size_t wi = 0; wi < trace.windows.size() && wi < windowMatrices.size(); ++wi) {
        const AttentionWindow &w = trace.windows[wi];
        const std::vector<float> &m = windowMatrices[wi];
        const int lw = w.length;
        if (m.size() != std::size_t(lw) * lw)
            continue;
        // Local numbering of the units present in this window.
        std::vector<int> local(std::size_t(lw), -1);
        std::vector<int> globalOf;
        QHash<int, int> localOf;
        for (int t = 0; t < lw; ++t) {
            const int g = w.firstToken + t;
            const int unit = g < int(units.tokenUnit.size()) ? units.tokenUnit[std::size_t(g)] : -1;
            if (unit < 0 || unit >= n)
                continue;
            auto it = localOf.find(unit);
            if (it == localOf.end()) {
                it = localOf.insert(unit, int(globalOf.size()));
                globalOf.push_back(unit);
            }
            local[std::size_t(t)] = it.value();
        }
        const int k = int(globalOf.size());
        if (k == 0)
            continue;
        std::vector<double> sum(std::size_t(k) * k, 0.0);
        std::vector<int> queries(std::size_t(k), 0);
        std::vector<int> pairs(rule == RollUpRule::MeanBoth ? std::size_t(k) * k : 0, 0);
        for (int q = 0; q < lw; ++q) {
            const int lu = local[std::size_t(q)];
            if (lu < 0)
                continue;
            ++queries[std::size_t(lu)];
            const float *row = m.data() + std::size_t(q) * lw;
            double *srow = sum.data() + std::size_t(lu) * k;
            for (int c = 0; c < lw; ++c) {
                const int lv = local[std::size_t(c)];
                if (lv < 0)
                    continue;
                srow[lv] += row[c];
                if (!pairs.empty())
                    ++pairs[std::size_t(lu) * k + lv];
            }
        }
        for (int a = 0; a < k; ++a) {
            const std::size_t grow = std::size_t(globalOf[std::size_t(a)]) * n;
            for (int b = 0; b < k; ++b) {
                const double s = sum[std::size_t(a) * k + b];
                const double d = rule == RollUpRule::MeanBoth ? pairs[std::size_t(a) * k + b] : queries[std::size_t(a)];
                const std::size_t gi = grow + std::size_t(globalOf[std::size_t(b)]);
                acc[gi] += float(d > 0 ? s / d : 0.0);
                ++cnt[gi];
            }
        }
    }
    out.values.resize(acc.size());
    for (std::size_t i = 0; i < acc.size(); ++i)
        out.values[i] = cnt[i] > 0 ? acc[i] / float(cnt[i]) : std::numeric_limits<float>::quiet_NaN();
    return out;
}

static std::vector<float> selectionSum(const UnitMatrix &m, const std::vector<int> &selected, bool rows)
{
    std::vector<float> out(std::size_t(m.size), 0.0f);
    for (int s : selected) {
        if (s < 0 || s >= m.size)
            continue;
        for (int i = 0; i < m.size; ++i) {
            const float v = rows ? m.values[std::size_t(s) * m.size + i] : m.values[std::size_t(i) * m.size + s];
            if (!std::isnan(v))
                out[std::size_t(i)] += v;
        }
    }
    return out;
}

std::vector<float> selectionOutgoing(const UnitMatrix &m, const std::vector<int> &selected)
{
    return selectionSum(m, selected, true);
}

std::vector<float> selectionIncoming(const UnitMatrix &m, const std::vector<int> &selected)
{
    return selectionSum(m, selected, false);
}

} // namespace folio
