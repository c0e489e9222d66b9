#pragma once
// Greedy and beam search over any decoder that gives last-position logits for a batch of prefixes
// (semantics in inference/qs/generation.h), and the seq2seq step source with its key/value cache.

#include "inference/qs/detail/seq2seqmodel.h"
#include "inference/qs/generation.h"

#include <memory>

namespace folio::inference::detail {

class StepSource
{
public:
    virtual ~StepSource() = default;
    // prefixes: int64 [N, t] (all tokens so far, start token first) -> float [N, V] next-token logits.
    virtual at::Tensor logits(const at::Tensor &prefixes) = 0;
    // Beam search: row r of the next step continues row rows[r] of this one.
    virtual void reorder(const at::Tensor &rows) = 0;
};

struct SpecialTokens
{
    std::int64_t start = 2, eos = 2, pad = 1;
};

struct SearchOutput
{
    std::vector<GeneratedSequence> rows;
    at::Tensor stepLogits; // greedy with keepStepLogits: [B, steps, V] raw logits of each step
    bool cancelled = false;
    int steps = 0;
};

// batch rows; the source holds batch rows (greedy) or batch * numBeams rows, beam-major per row (beam).
SearchOutput greedySearch(StepSource &source, std::int64_t batch, const GenerationSettings &s, const SpecialTokens &t,
                          const GenerationCallback &progress, bool keepStepLogits);
SearchOutput beamSearch(StepSource &source, std::int64_t batch, const GenerationSettings &s, const SpecialTokens &t,
                        const GenerationCallback &progress);

// Applies the logits processors (no-repeat n-gram, min length, forced BOS / EOS) in place.
// scores: [N, V]; prefixes: [N, t].
void applyLogitsProcessors(at::Tensor &scores, const at::Tensor &prefixes, const GenerationSettings &s,
                           const SpecialTokens &t);

// Step source over a Seq2seqModel: encoder output computed once, one row per source (the `beams`
// decoder rows of a source share it), each step either extends the key/value cache (reserved for
// maxLength positions) by one position or recomputes the whole prefix.
std::unique_ptr<StepSource> makeSeq2seqSource(const Seq2seqModel &model, const EncoderResult &encoder,
                                              const HibridsBatch &decoderHier, bool useCache, std::int64_t beams,
                                              std::int64_t maxLength);

// Encodes once, runs greedy (numBeams 1) or beam search (beams grouped per source row).
SearchOutput generateSeq2seq(const Seq2seqModel &model, const EncoderResult &encoder, const HibridsBatch &decoderHier,
                             const GenerationSettings &s, const GenerationCallback &progress, bool keepStepLogits);

} // namespace folio::inference::detail
