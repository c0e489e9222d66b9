// The BART / LED decoder with an incremental key/value cache, the tied LM head, and the HIBRIDS
// decoder variant (MODELS.md §5.5): the last layer's cross-attention scores get
// Σ_i A'[t, i] · beta[index(i, j)], A' being the penultimate layer's cross-attention probabilities
// of the same step, so cached and uncached decoding agree.
#include "inference/qs/detail/seq2seqmodel.h"

#include "inference/errors.h"
#include "inference/layers/detail/hibrids.h"

#include <limits>

namespace folio::inference::detail {

void KvCache::reorder(const at::Tensor &rows)
{
    for (auto *list : {&selfK, &selfV, &crossK, &crossV})
        for (auto &t : *list)
            t = t.index_select(0, rows);
}

at::Tensor hibridsDecoderBias(const at::Tensor &prev, const at::Tensor &beta, const HibridsBatch &hier)
{
    if (!hier.tokenToSection.defined())
        throw InferenceError("HIBRIDS decoder variant: no section layout given (token_to_section + row<b>.section_parent)");
    const at::Tensor &t2s = hier.tokenToSection;
    const auto n = prev.size(0), s = prev.size(3);
    if (t2s.size(0) != n || t2s.size(1) != s)
        throw InferenceError("HIBRIDS decoder variant: token_to_section is " + std::to_string(t2s.size(0)) + " x "
                             + std::to_string(t2s.size(1)) + ", the source is " + std::to_string(n) + " x "
                             + std::to_string(s));
    return detail::hibridsDecoderBias(prev, beta, t2s, hier.sectionIndex);
}

DecoderResult Seq2seqModel::decode(const at::Tensor &idsIn, const at::Tensor &decMask, const at::Tensor &encHidden,
                                   const at::Tensor &encMask, const HibridsBatch &hier, KvCache *cache, bool trace) const
{
    DecoderResult r;
    const at::Tensor ids = idsIn.to(at::kLong);
    const auto n = ids.size(0), t = ids.size(1), h = m_cfg.decHeads;
    const std::int64_t past = cache ? cache->length : 0;
    at::Tensor x = embed(ids, m_decPositions, m_decEmbNorm, past);
    const at::Tensor inputEmbedding = x;
    at::Tensor lastContext;
    if (trace)
        r.hiddenStates.push_back(x);

    // Causal + padding mask, every masked entry exactly finfo(float32).min (BART v4.36 form; LED's
    // -inf causal entries give the same probabilities).
    const float lowest = std::numeric_limits<float>::lowest();
    const at::Tensor qpos = at::arange(past, past + t, at::kLong).unsqueeze(1);
    const at::Tensor kpos = at::arange(past + t, at::kLong).unsqueeze(0);
    at::Tensor blocked = kpos.gt(qpos).view({1, 1, t, past + t});
    if (decMask.defined()) {
        if (decMask.size(0) != n || decMask.size(1) != past + t)
            throw InferenceError("decoder_attention_mask must be [batch, decoder length]");
        blocked = blocked.logical_or(decMask.eq(0).view({n, 1, 1, past + t}));
    }
    const at::Tensor selfMask = at::zeros(blocked.sizes(), at::kFloat).masked_fill(blocked, lowest);
    const at::Tensor crossMask = additiveMask(encMask);

    const bool fresh = cache && cache->crossK.empty();
    at::Tensor prevCross;
    for (std::size_t li = 0; li < m_decLayers.size(); ++li) {
        const DecoderLayerW &w = m_decLayers[li];
        at::Tensor k = splitHeads(w.self.k(x), h), v = splitHeads(w.self.v(x), h);
        if (cache) {
            if (cache->selfK.size() > li) {
                k = at::cat({cache->selfK[li], k}, 2);
                v = at::cat({cache->selfV[li], v}, 2);
                cache->selfK[li] = k;
                cache->selfV[li] = v;
            } else {
                cache->selfK.push_back(k);
                cache->selfV.push_back(v);
            }
        }
        at::Tensor selfProbs;
        const at::Tensor sctx = scaledAttention(splitHeads(w.self.q(x), h), k, v, selfMask, &selfProbs);
        x = w.selfNorm(x + w.self.out(mergeHeads(sctx)));

        at::Tensor ck, cv;
        if (cache && !fresh) {
            ck = cache->crossK[li];
            cv = cache->crossV[li];
        } else {
            ck = splitHeads(w.cross.k(encHidden), h);
            cv = splitHeads(w.cross.v(encHidden), h);
            if (cache) {
                cache->crossK.push_back(ck);
                cache->crossV.push_back(cv);
            }
        }
        at::Tensor add = crossMask;
        if (w.beta.defined())
            add = crossMask + hibridsDecoderBias(prevCross, w.beta, hier);
        at::Tensor crossProbs;
        const at::Tensor cctx = scaledAttention(splitHeads(w.cross.q(x), h), ck, cv, add, &crossProbs);
        const at::Tensor context = w.cross.out(mergeHeads(cctx));
        x = w.crossNorm(x + context);
        prevCross = crossProbs;
        lastContext = context;
        x = w.ffn(x);
        if (trace) {
            r.hiddenStates.push_back(x);
            r.selfAttentions.push_back(selfProbs);
            r.crossAttentions.push_back(crossProbs);
        }
    }
    if (cache)
        cache->length += t;
    r.hidden = x;
    r.logits = at::matmul(x, m_shared.t()) + m_finalLogitsBias;
    if (m_cfg.copyHead) { // pointer-generator: gate from state, context and input; the last layer's attention
        r.copyGate = at::sigmoid(m_copyGate(at::cat({x, lastContext, inputEmbedding}, -1)));
        r.copyAttention = prevCross.mean(1);
    }
    return r;
}

} // namespace folio::inference::detail
