// Seq2seq step source: the encoder output is computed once; each step runs the decoder on the new
// position with the key/value cache, or (baseline) on the whole prefix without one. Beams share
// their source row's encoder states (never expanded): the decoder groups them per source row.
#include "inference/qs/detail/generate.h"

#include "inference/errors.h"

namespace folio::inference::detail {

namespace {

class Seq2seqSource : public StepSource
{
public:
    Seq2seqSource(const Seq2seqModel &model, const EncoderResult &enc, const at::Tensor &rowIds, const HibridsBatch &hier,
                  bool useCache, std::int64_t maxLength)
        : m_model(model), m_hidden(enc.hidden), m_mask(enc.mask), m_ids(rowIds), m_hier(hier), m_useCache(useCache)
    {
        m_cache.reserve(maxLength);
    }

    at::Tensor logits(const at::Tensor &prefixes) override
    {
        if (!m_useCache) {
            const DecoderResult r = m_model.decode(prefixes, {}, m_hidden, m_mask, m_hier, nullptr, false);
            return last(r);
        }
        const at::Tensor fresh = prefixes.slice(1, m_cache.length);
        const DecoderResult r = m_model.decode(fresh, {}, m_hidden, m_mask, m_hier, &m_cache, false);
        return last(r);
    }

    void reorder(const at::Tensor &rows) override
    {
        if (m_useCache)
            m_cache.reorder(rows);
        // Encoder states, cross-attention keys / values, masks and section layouts belong to the
        // source row, and beams never move between source rows: nothing else to reorder.
    }

private:
    // The last position's scores: logits, or the copy head's log-distribution (it needs only this
    // step's state and attention, so the key/value cache serves it unchanged).
    at::Tensor last(const DecoderResult &r) const
    {
        const at::Tensor scores = m_model.outputScores(r, m_ids);
        return scores.select(1, scores.size(1) - 1);
    }

    const Seq2seqModel &m_model;
    at::Tensor m_hidden, m_mask, m_ids;
    HibridsBatch m_hier;
    bool m_useCache;
    KvCache m_cache;
};

} // namespace

std::unique_ptr<StepSource> makeSeq2seqSource(const Seq2seqModel &model, const EncoderResult &encoder,
                                              const HibridsBatch &decoderHier, bool useCache, std::int64_t beams,
                                              std::int64_t maxLength)
{
    // The copy head scatters each decoder row's attention onto its source ids: one row per beam.
    const at::Tensor rowIds = encoder.ids.defined() && beams > 1 ? encoder.ids.repeat_interleave(beams, 0) : encoder.ids;
    return std::make_unique<Seq2seqSource>(model, encoder, rowIds, decoderHier, useCache, maxLength);
}

SearchOutput generateSeq2seq(const Seq2seqModel &model, const EncoderResult &encoder, const HibridsBatch &decoderHier,
                             const GenerationSettings &s, const GenerationCallback &progress, bool keepStepLogits)
{
    const Seq2seqConfig &cfg = model.config();
    if (s.maxLength > cfg.maxDecPositions)
        throw InferenceError("max_length " + std::to_string(s.maxLength) + " exceeds the decoder's "
                             + std::to_string(cfg.maxDecPositions) + " positions");
    const SpecialTokens tokens{cfg.decoderStart, cfg.eos, cfg.pad};
    const std::int64_t batch = encoder.hidden.size(0);
    if (s.numBeams <= 1) {
        auto source = makeSeq2seqSource(model, encoder, decoderHier, s.useCache, 1, s.maxLength);
        return greedySearch(*source, batch, s, tokens, progress, keepStepLogits);
    }
    // Beams of one source row are consecutive decoder rows (HF _expand_inputs_for_generation). The
    // encoder states stay one row per source; the HIBRIDS decoder layout is expanded with the beams
    // (the reference forgets to, MODELS.md §5.10 pitfall 6).
    const HibridsBatch hier = decoderHier.defined() ? decoderHier.expanded(s.numBeams) : decoderHier;
    auto source = makeSeq2seqSource(model, encoder, hier, s.useCache, s.numBeams, s.maxLength);
    return beamSearch(*source, batch, s, tokens, progress);
}

} // namespace folio::inference::detail
