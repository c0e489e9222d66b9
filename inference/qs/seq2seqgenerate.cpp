// Seq2seq step source: the encoder output is computed once; each step runs the decoder on the new
// position with the key/value cache, or (baseline) on the whole prefix without one.
#include "inference/qs/detail/generate.h"

#include "inference/errors.h"

namespace folio::inference::detail {

namespace {

class Seq2seqSource : public StepSource
{
public:
    Seq2seqSource(const Seq2seqModel &model, const EncoderResult &enc, const HibridsBatch &hier, bool useCache)
        : m_model(model), m_hidden(enc.hidden), m_mask(enc.mask), m_ids(enc.ids), m_hier(hier), m_useCache(useCache)
    {
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
        // Encoder states, masks and section layouts are identical across the beams of one row, and
        // rows never move between source rows, so they need no reordering.
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
                                              const HibridsBatch &decoderHier, bool useCache)
{
    return std::make_unique<Seq2seqSource>(model, encoder, decoderHier, useCache);
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
        auto source = makeSeq2seqSource(model, encoder, decoderHier, s.useCache);
        return greedySearch(*source, batch, s, tokens, progress, keepStepLogits);
    }
    // Beams of one source row are consecutive rows (HF _expand_inputs_for_generation); the HIBRIDS
    // decoder layout is expanded with them (the reference forgets to, MODELS.md §5.10 pitfall 6).
    EncoderResult expanded;
    expanded.hidden = encoder.hidden.repeat_interleave(s.numBeams, 0);
    expanded.mask = encoder.mask.repeat_interleave(s.numBeams, 0);
    if (encoder.ids.defined())
        expanded.ids = encoder.ids.repeat_interleave(s.numBeams, 0);
    const HibridsBatch hier = decoderHier.defined() ? decoderHier.expanded(s.numBeams) : decoderHier;
    auto source = makeSeq2seqSource(model, expanded, hier, s.useCache);
    return beamSearch(*source, batch, s, tokens, progress);
}

} // namespace folio::inference::detail
