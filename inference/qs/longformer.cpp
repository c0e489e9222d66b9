// LED's Longformer self-attention (transformers v4.8 LongformerSelfAttention semantics) with the
// HIBRIDS encoder bias inside the sliding window, computed block by block: queries in blocks of
// w (the one-sided window) against the 3w keys around them, so time and memory grow linearly with
// the length. Scores for query i and key j, |j - i| <= w:
//   (q_i / sqrt(d)) . k_j + (-10000 if j is padding or global) + T[index(i, j), h]
// with -inf outside the sequence; global key columns come first (no mask term, no bias); rows of
// padding are zeroed after the softmax; global query rows are recomputed with the *_global
// projections over all keys (no bias). Outputs keep the reference's layout: probabilities
// [B, H, L, G + 2w + 1] and global probabilities [B, H, L, G].
#include "inference/qs/detail/seq2seqmodel.h"

#include "inference/layers/buckets.h"
#include "inference/errors.h"

#include <cmath>
#include <limits>

namespace folio::inference::detail {

namespace {

constexpr double kMasked = -10000.0;

} // namespace

at::Tensor hibridsBandIndex(const HibridsBatch &h, std::int64_t c0, std::int64_t c, std::int64_t w, const at::Tensor &offsets)
{
    if (h.bandIndex.defined())
        return h.bandIndex.slice(1, c0, c0 + c);
    const at::Tensor &t2s = h.tokenToSection;
    const auto b = t2s.size(0), n = h.sectionIndex.size(1);
    const at::Tensor keysPadded = at::constant_pad_nd(t2s, {w, w}, 0).slice(1, c0, c0 + c + 2 * w); // [B, C+2w]
    const at::Tensor keys = keysPadded.index_select(1, offsets.reshape({-1})).view({b, c, 2 * w + 1});
    const at::Tensor rows = t2s.slice(1, c0, c0 + c).unsqueeze(2);                                   // [B, C, 1]
    const at::Tensor flat = (rows * n + keys).view({b, -1});
    return h.sectionIndex.reshape({b, n * n}).gather(1, flat).view({b, c, 2 * w + 1});
}

HibridsBatch HibridsBatch::expanded(std::int64_t beams) const
{
    HibridsBatch r;
    auto rep = [beams](const at::Tensor &t) { return t.defined() ? t.repeat_interleave(beams, 0) : t; };
    r.tokenToSection = rep(tokenToSection);
    r.sectionIndex = rep(sectionIndex);
    r.bandIndex = rep(bandIndex);
    return r;
}

HibridsBatch HibridsBatch::padded(std::int64_t length) const
{
    HibridsBatch r = *this;
    if (tokenToSection.defined() && tokenToSection.size(1) < length) {
        const auto extra = length - tokenToSection.size(1);
        const at::Tensor last = tokenToSection.select(1, tokenToSection.size(1) - 1).unsqueeze(1);
        r.tokenToSection = at::cat({tokenToSection, last.expand({last.size(0), extra})}, 1);
    }
    if (bandIndex.defined() && bandIndex.size(1) < length)
        r.bandIndex = at::constant_pad_nd(bandIndex, {0, 0, 0, length - bandIndex.size(1)}, 0);
    return r;
}

HibridsBatch hibridsBatch(const std::vector<std::vector<std::int64_t>> &parents, const at::Tensor &tokenToSection)
{
    const auto b = static_cast<std::int64_t>(parents.size());
    if (tokenToSection.dim() != 2 || tokenToSection.size(0) != b)
        throw InferenceError("HIBRIDS: token_to_section must be [batch, length] with one section tree per row");
    std::int64_t n = 1;
    for (const auto &p : parents)
        n = std::max<std::int64_t>(n, static_cast<std::int64_t>(p.size()));
    HibridsBatch h;
    h.tokenToSection = tokenToSection.to(at::kLong).contiguous();
    h.sectionIndex = at::zeros({b, n, n}, at::kLong);
    for (std::int64_t r = 0; r < b; ++r) {
        const auto &p = parents[static_cast<std::size_t>(r)];
        const auto ns = static_cast<std::int64_t>(p.size());
        if (ns == 0)
            throw InferenceError("HIBRIDS: row " + std::to_string(r) + " has no sections");
        const at::Tensor row = h.tokenToSection[r];
        if (row.min().item<std::int64_t>() < 0 || row.max().item<std::int64_t>() >= ns)
            throw InferenceError("HIBRIDS: row " + std::to_string(r) + ": token_to_section outside [0, "
                                 + std::to_string(ns) + ")");
        const std::vector<std::int32_t> idx = hibridsSectionIndex(p); // throws for |PathLen| >= 20
        h.sectionIndex[r].slice(0, 0, ns).slice(1, 0, ns).copy_(
            at::tensor(std::vector<std::int32_t>(idx), at::kInt).view({ns, ns}).to(at::kLong));
    }
    return h;
}

at::Tensor Seq2seqModel::longformerLayer(const LongformerLayerW &w, const at::Tensor &x, const at::Tensor &mask3,
                                         const HibridsBatch &hier, at::Tensor *probsOut, at::Tensor *globalOut) const
{
    const auto b = x.size(0), l = x.size(1), d = x.size(2), h = m_cfg.encHeads, hd = d / h;
    const std::int64_t one = m_cfg.window / 2;
    const std::int64_t c = one; // query block
    const double sq = std::sqrt(static_cast<double>(hd));
    const at::Tensor q = splitHeads(w.q(x), h) / sq;
    const at::Tensor k = splitHeads(w.k(x), h), v = splitHeads(w.v(x), h);
    const at::Tensor isPad = mask3.eq(0), isGlobal = mask3.eq(2);
    const at::Tensor keyAdd = at::where(mask3.ne(1), at::full({}, kMasked), at::full({}, 0.0)).to(at::kFloat);
    const at::Tensor keyAddPadded =
        at::constant_pad_nd(keyAdd, {one, one}, -std::numeric_limits<double>::infinity()); // [B, L+2w]
    const at::Tensor kp = at::constant_pad_nd(k, {0, 0, one, one}, 0), vp = at::constant_pad_nd(v, {0, 0, one, one}, 0);

    // Global positions per row, in order; G = the most in any row.
    const at::Tensor counts = isGlobal.sum(1);
    const std::int64_t g = b ? counts.max().item<std::int64_t>() : 0;
    at::Tensor gPos = at::zeros({b, g}, at::kLong), gValid = at::zeros({b, g}, at::kBool);
    for (std::int64_t r = 0; r < b && g > 0; ++r) {
        const at::Tensor pos = isGlobal[r].nonzero().view({-1});
        gPos[r].slice(0, 0, pos.size(0)).copy_(pos);
        gValid[r].slice(0, 0, pos.size(0)).fill_(true);
    }
    at::Tensor kG, vG;
    if (g > 0) {
        const at::Tensor gi = gPos.view({b, 1, g, 1}).expand({b, h, g, hd});
        kG = k.gather(2, gi);
        vG = v.gather(2, gi);
    }

    const at::Tensor offsets = (at::arange(c, at::kLong).unsqueeze(1) + at::arange(2 * one + 1, at::kLong).unsqueeze(0));
    const at::Tensor offsetsB = offsets.view({1, 1, c, 2 * one + 1}).expand({b, h, c, 2 * one + 1});
    std::vector<at::Tensor> ctxBlocks, probBlocks;
    for (std::int64_t c0 = 0; c0 < l; c0 += c) {
        const at::Tensor qc = q.slice(2, c0, c0 + c);
        const at::Tensor kb = kp.slice(2, c0, c0 + c + 2 * one), vb = vp.slice(2, c0, c0 + c + 2 * one);
        at::Tensor band = at::matmul(qc, kb.transpose(-1, -2)).gather(3, offsetsB); // [B, H, C, 2w+1]
        const at::Tensor maskBand =
            keyAddPadded.slice(1, c0, c0 + c + 2 * one).index_select(1, offsets.reshape({-1})).view({b, 1, c, 2 * one + 1});
        band = band + maskBand;
        if (w.hierTable.defined()) {
            const at::Tensor idx = hibridsBandIndex(hier, c0, c, one, offsets);
            band = band + w.hierTable.index_select(0, idx.reshape({-1})).view({b, c, 2 * one + 1, h}).permute({0, 3, 1, 2});
        }
        at::Tensor scores = band;
        if (g > 0) {
            const at::Tensor sg = at::matmul(qc, kG.transpose(-1, -2))
                                      .masked_fill(gValid.logical_not().view({b, 1, 1, g}), kMasked);
            scores = at::cat({sg, band}, -1);
        }
        at::Tensor p = at::softmax(scores, -1).masked_fill(isPad.slice(1, c0, c0 + c).view({b, 1, c, 1}), 0.0);
        const at::Tensor pBand = p.slice(3, g);
        at::Tensor ctx = at::matmul(at::zeros({b, h, c, c + 2 * one}, p.options()).scatter_(3, offsetsB, pBand), vb);
        if (g > 0)
            ctx = ctx + at::matmul(p.slice(3, 0, g), vG);
        ctxBlocks.push_back(ctx);
        if (probsOut)
            probBlocks.push_back(p);
    }
    at::Tensor ctx = at::cat(ctxBlocks, 2); // [B, H, L, hd]

    if (g > 0) {
        // Global rows: their own projections over every key, -10000 on padding, no bias.
        const at::Tensor xg = x.gather(1, gPos.unsqueeze(2).expand({b, g, d}));
        const at::Tensor qg = splitHeads(w.qGlobal(xg), h) / sq;
        const at::Tensor kgl = splitHeads(w.kGlobal(x), h), vgl = splitHeads(w.vGlobal(x), h);
        const at::Tensor sg = at::matmul(qg, kgl.transpose(-1, -2)).masked_fill(isPad.view({b, 1, 1, l}), kMasked);
        const at::Tensor pg = at::softmax(sg, -1); // [B, H, G, L]
        const at::Tensor og = at::matmul(pg, vgl);  // [B, H, G, hd]
        for (std::int64_t r = 0; r < b; ++r)
            for (std::int64_t j = 0; j < counts[r].item<std::int64_t>(); ++j)
                ctx[r].select(1, gPos[r][j].item<std::int64_t>()).copy_(og[r].select(1, j));
        if (globalOut)
            *globalOut = pg.transpose(2, 3).contiguous();
    }
    if (probsOut) // the reference reports zero local rows for global tokens
        *probsOut = at::cat(probBlocks, 2).masked_fill(isGlobal.view({b, 1, l, 1}), 0.0);
    const at::Tensor y = w.selfNorm(x + w.out(mergeHeads(ctx)));
    return w.ffn(y);
}

} // namespace folio::inference::detail
