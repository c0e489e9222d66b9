// The BART / LED decoder with an incremental key/value cache, the tied LM head, and the HIBRIDS
// decoder variant (MODELS.md §5.5): the last layer's cross-attention scores get
// Σ_i A'[t, i] · beta[index(i, j)], A' being the penultimate layer's cross-attention probabilities
// of the same step, so cached and uncached decoding agree.
#include "inference/qs/detail/seq2seqmodel.h"

#include "inference/errors.h"
#include "inference/layers/detail/hibrids.h"
#include "inference/layers/detail/smallrows.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace folio::inference::detail {

void KvCache::reserve(std::int64_t positions)
{
    m_reserved = std::max(m_reserved, positions);
}

void KvCache::append(std::size_t layer, const at::Tensor &k, const at::Tensor &v)
{
    const auto t = k.size(2);
    if (layer == 0 && length + t > capacity) { // (re)allocate every layer's buffers once
        const std::int64_t cap = std::max({length + t, m_reserved, 2 * capacity});
        for (auto *list : {&selfK, &selfV}) {
            for (auto &buf : *list) {
                at::Tensor grown = at::empty({buf.size(0), buf.size(1), cap, buf.size(3)}, buf.options());
                grown.narrow(2, 0, length).copy_(buf.narrow(2, 0, length));
                buf = grown;
            }
        }
        m_spareK.clear();
        m_spareV.clear();
        capacity = cap;
    }
    if (selfK.size() <= layer) {
        selfK.push_back(at::empty({k.size(0), k.size(1), capacity, k.size(3)}, k.options()));
        selfV.push_back(at::empty({v.size(0), v.size(1), capacity, v.size(3)}, v.options()));
    }
    selfK[layer].narrow(2, length, t).copy_(k);
    selfV[layer].narrow(2, length, t).copy_(v);
}

void KvCache::reorder(const at::Tensor &rowsIn)
{
    const at::Tensor rows = rowsIn.to(at::kLong).contiguous();
    const auto n = rows.size(0);
    const auto *r = rows.data_ptr<std::int64_t>();
    bool identity = true, withinSource = true;
    for (std::int64_t i = 0; i < n; ++i) {
        identity = identity && r[i] == i;
        withinSource = withinSource && r[i] / group == i / group;
    }
    if (identity)
        return;
    if (!withinSource) {
        if (group != 1)
            throw InferenceError("key/value cache: a beam moved to another source row");
        for (auto *list : {&crossK, &crossV, &crossVt})
            for (auto &t : *list)
                t = t.index_select(0, rows);
        if (crossMask.defined())
            crossMask = crossMask.index_select(0, rows);
    }
    // Self-attention: the valid positions of each row copied into the spare buffer, then swapped.
    for (auto [list, spare] : {std::pair{&selfK, &m_spareK}, std::pair{&selfV, &m_spareV}}) {
        spare->resize(list->size());
        for (std::size_t l = 0; l < list->size(); ++l) {
            at::Tensor &buf = (*list)[l];
            at::Tensor &dst = (*spare)[l];
            if (!dst.defined() || !dst.sizes().equals(buf.sizes()))
                dst = at::empty_like(buf);
            for (std::int64_t i = 0; i < n; ++i)
                dst[i].narrow(1, 0, length).copy_(buf[r[i]].narrow(1, 0, length));
            std::swap(buf, dst);
        }
    }
}

namespace {

// scaledAttention's arithmetic for a decoding step's few queries q [B, H, G, hd] against keys
// k [B, H, S, hd] and values stored transposed vt [B, H, hd, S], both products through the small-row
// kernel (each head's keys and values read once, nothing packed). Undefined when it does not apply.
at::Tensor fewQueryAttention(const at::Tensor &q, const at::Tensor &k, const at::Tensor &vt, const at::Tensor &add,
                             at::Tensor *probs)
{
    const auto b = k.size(0), h = k.size(1), s = k.size(2), hd = k.size(3), queries = q.size(2);
    if (!vt.defined() || q.size(0) != b || q.size(1) != h || queries > kSmallRowsMax)
        return {};
    const double sq = std::sqrt(static_cast<double>(hd));
    at::Tensor scores = smallRowsBatchedProduct((q / sq).reshape({b * h, queries, hd}), k.reshape({b * h, s, hd}));
    if (!scores.defined())
        return {};
    scores = scores.view({b, h, queries, s});
    if (add.defined())
        scores.add_(add);
    at::_softmax_out(scores, scores, -1, false);
    if (probs)
        *probs = scores;
    return smallRowsBatchedProduct(scores.view({b * h, queries, s}), vt.reshape({b * h, hd, s})).view({b, h, queries, hd});
}

// Cross-attention of N = B * g decoder rows (a source row's g rows consecutive) against the keys /
// values of their B source rows, read in place: a source row's g beams become g blocks of its query
// positions, so that each head's keys and values are read once per step instead of once per beam.
// add: [B, ...] broadcast over the queries, or one [N, ...] per decoder row. vt: the values
// transposed (the cache keeps them) for the few-query path; undefined: the matrix products.
at::Tensor groupedCrossAttention(const at::Tensor &q, const at::Tensor &k, const at::Tensor &v, const at::Tensor &vt,
                                 const at::Tensor &add, std::int64_t g, at::Tensor *probs)
{
    const auto attend = [&](const at::Tensor &qf, const at::Tensor &addf, at::Tensor *p) {
        at::Tensor ctx = fewQueryAttention(qf, k, vt, addf, p);
        return ctx.defined() ? ctx : scaledAttention(qf, k, v, addf, p);
    };
    if (g == 1)
        return attend(q, add, probs);
    const auto n = q.size(0), h = q.size(1), t = q.size(2), b = n / g;
    // [N, H, T, x] <-> [B, H, g * T, x]
    const auto fold = [&](const at::Tensor &x) {
        return x.view({b, g, h, t, x.size(3)}).transpose(1, 2).reshape({b, h, g * t, x.size(3)});
    };
    const auto unfold = [&](const at::Tensor &x) {
        return x.view({b, h, g, t, x.size(3)}).transpose(1, 2).reshape({n, h, t, x.size(3)});
    };
    const at::Tensor folded = add.size(0) == n ? fold(add.expand({n, h, t, k.size(2)})) : add;
    at::Tensor p;
    const at::Tensor ctx = unfold(attend(fold(q), folded, probs ? &p : nullptr));
    if (probs)
        *probs = unfold(p);
    return ctx;
}

} // namespace

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
    const auto sources = encHidden.size(0);
    if (sources < 1 || n % sources != 0 || encMask.size(0) != sources)
        throw InferenceError("decoder: " + std::to_string(n) + " decoder rows for " + std::to_string(sources)
                             + " encoded source rows (must be a multiple)");
    const std::int64_t g = n / sources; // decoder rows per source row (beams)
    const std::int64_t past = cache ? cache->length : 0;
    at::Tensor x = embed(ids, m_decPositions, m_decEmbNorm, past);
    const at::Tensor inputEmbedding = x;
    at::Tensor lastContext;
    if (trace)
        r.hiddenStates.push_back(x);

    // Causal + padding mask, every masked entry exactly finfo(float32).min (BART v4.36 form; LED's
    // -inf causal entries give the same probabilities). One new position over a cache without a
    // padding mask sees every key: no mask (adding zeros changes nothing).
    at::Tensor selfMask;
    if (t > 1 || decMask.defined()) {
        const float lowest = std::numeric_limits<float>::lowest();
        const at::Tensor qpos = at::arange(past, past + t, at::kLong).unsqueeze(1);
        const at::Tensor kpos = at::arange(past + t, at::kLong).unsqueeze(0);
        at::Tensor blocked = kpos.gt(qpos).view({1, 1, t, past + t});
        if (decMask.defined()) {
            if (decMask.size(0) != n || decMask.size(1) != past + t)
                throw InferenceError("decoder_attention_mask must be [batch, decoder length]");
            blocked = blocked.logical_or(decMask.eq(0).view({n, 1, 1, past + t}));
        }
        selfMask = at::zeros(blocked.sizes(), at::kFloat).masked_fill(blocked, lowest);
    }

    const bool fresh = !cache || cache->crossK.empty();
    if (cache && fresh) {
        cache->group = g;
        cache->crossMask = additiveMask(encMask);
    } else if (cache && cache->group != g) {
        throw InferenceError("key/value cache: built for " + std::to_string(cache->group)
                             + " decoder rows per source row, called with " + std::to_string(g));
    }
    const at::Tensor crossMask = cache ? cache->crossMask : additiveMask(encMask);
    at::Tensor prevCross; // [N, H, T, S]
    for (std::size_t li = 0; li < m_decLayers.size(); ++li) {
        const DecoderLayerW &w = m_decLayers[li];
        at::Tensor k = splitHeads(w.self.k(x), h), v = splitHeads(w.self.v(x), h);
        if (cache) {
            cache->append(li, k, v);
            k = cache->selfK[li].narrow(2, 0, past + t);
            v = cache->selfV[li].narrow(2, 0, past + t);
        }
        at::Tensor selfProbs;
        const at::Tensor sctx = scaledAttention(splitHeads(w.self.q(x), h), k, v, selfMask, &selfProbs);
        x = w.selfNorm(x + w.self.out(mergeHeads(sctx)));

        at::Tensor ck, cv, cvt;
        if (!fresh) {
            ck = cache->crossK[li];
            cv = cache->crossV[li];
            cvt = cache->crossVt[li];
        } else {
            ck = splitHeads(w.cross.k(encHidden), h);
            cv = splitHeads(w.cross.v(encHidden), h);
            if (cache) { // keys contiguous and the values also transposed, once, for the steps' few-query attention
                ck = ck.contiguous();
                cvt = cv.transpose(2, 3).contiguous();
                cache->crossK.push_back(ck);
                cache->crossV.push_back(cv);
                cache->crossVt.push_back(cvt);
            }
        }
        at::Tensor add = crossMask; // [B, 1, 1, S]
        if (w.beta.defined())        // [N, H, T, S]: each decoder row's own bias
            add = (g == 1 ? crossMask : crossMask.repeat_interleave(g, 0)) + hibridsDecoderBias(prevCross, w.beta, hier);
        at::Tensor crossProbs;
        const at::Tensor cctx = groupedCrossAttention(splitHeads(w.cross.q(x), h), ck, cv, cvt, add, g, &crossProbs);
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
    // The tied LM head: a decoding step's few rows through the small-row product (the weight, 50265 x
    // 768 for BART, read once instead of packed), the bias added after the product either way.
    r.logits = smallRowsLinear(x, m_shared, at::Tensor());
    r.logits = (r.logits.defined() ? r.logits : at::matmul(x, m_shared.t())) + m_finalLogitsBias;
    if (m_cfg.copyHead) { // pointer-generator: gate from state, context and input; the last layer's attention
        r.copyGate = at::sigmoid(m_copyGate(at::cat({x, lastContext, inputEmbedding}, -1)));
        r.copyAttention = prevCross.mean(1);
    }
    return r;
}

} // namespace folio::inference::detail
