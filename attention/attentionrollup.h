#pragma once
// Rolling sub-word attention up to words, entities, sections and DOM nodes. Pure functions over
// plain floats (no Qt objects, no engines).
//
// Roll-up rule for attention probabilities ("sum over keys, mean over query sub-tokens"):
//     A[u, v] = mean over windows w holding both u and v of
//               ( Σ_{q ∈ u, k ∈ v in w} P_w[q, k] ) / |{q ∈ u in w}|
// so a row of A still sums to at most 1: how much of its attention an average sub-token of u pays
// to all the sub-tokens of v. Special and padding tokens (no word) are left out as queries and
// keys, so a row sums to less than 1 by what went to them.
// Bias terms are additive score terms, not distributions: they are averaged over both
// (mean over the (q, k) pairs of u × v).
// Pairs that never share a window (stitched long documents) are NaN: "not computed".

#include <QStringList>

#include <vector>

namespace folio {

struct Annotations;
struct AttentionTrace;
struct Document;

enum class AttentionGranularity { Tokens, Words, Entities, Sections, DomNodes };
QString attentionGranularityName(AttentionGranularity g);

enum class RollUpRule {
    SumKeysMeanQueries, // attention probabilities
    MeanBoth,           // bias terms
};

// The units of one granularity: a unit per token, word, entity, section or DOM node.
struct AttentionUnits
{
    AttentionGranularity granularity = AttentionGranularity::Tokens;
    QStringList labels;          // one per unit
    std::vector<int> tokenUnit;  // per trace token: its unit, -1 when none
    std::vector<int> wordUnit;   // per document word: its unit, -1 when none (empty for Tokens)
    int count() const { return int(labels.size()); }
};

// Builds the units. `document` may be null for Tokens (and then also for Words: words are
// numbered from the trace's token map). Entities come from `annotations` (words of no entity
// are left out); sections are the innermost section owning a word; DOM nodes are the element
// owning a word's text node (web pages) or its OCR line (scans).
AttentionUnits buildAttentionUnits(AttentionGranularity granularity, const AttentionTrace &trace,
                                   const Document *document, const Annotations *annotations);

// One unit-level matrix, row-major [n, n], NaN where not computed.
struct UnitMatrix
{
    int size = 0;
    std::vector<float> values;
};

// Rolls token-level window matrices up to units. windowMatrices[w] is [Lw, Lw] of window w of the
// trace (already reduced over layers/heads).
UnitMatrix rollUpAttention(const AttentionTrace &trace, const std::vector<std::vector<float>> &windowMatrices,
                           const AttentionUnits &units, RollUpRule rule);

// Multi-selection sums: outgoing[v] = Σ_{s ∈ selected} M[s, v]; incoming[u] = Σ_{s ∈ selected} M[u, s].
// NaN cells count as 0; out-of-range selections are ignored. Empty selection: all zeros.
std::vector<float> selectionOutgoing(const UnitMatrix &m, const std::vector<int> &selected);
std::vector<float> selectionIncoming(const UnitMatrix &m, const std::vector<int> &selected);

} // namespace folio
