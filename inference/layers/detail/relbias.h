#pragma once
// Attention bias modules (MODELS.md §0-§4). Each is looked up at its own granularity: a bucket
// LUT over the reachable distance range turns a [H, buckets] weight into a [H, 2R+1] per-distance
// table (index_select: stays differentiable), which is then expanded per (query, key) pair by a
// fused kernel (inference) or by a differentiable gather (training / tests).

#include "inference/detail/aten.h"

#include <vector>

namespace folio::inference::detail {

// T5 bucketed relative bias (1-D: 32 buckets / 128; 2-D x or y: 64 / 256).
class RelativeBucketBias
{
public:
    RelativeBucketBias() = default;
    // weight: [H, numBuckets] (HF `rel_pos_bias.weight` etc., Linear(bins -> H) layout)
    RelativeBucketBias(at::Tensor weight, int numBuckets, int maxDistance);
    bool isValid() const { return m_weight.defined(); }
    std::int64_t range() const { return m_range; }
    const at::Tensor &weight() const { return m_weight; }
    // [H, 2R+1]: table[h, r + R] = W[h, bucket(r)]; |r| > R saturates (R = maxDistance).
    at::Tensor distanceTable() const;
    // Differentiable dense form: pos [B, L] int64 -> [B, H, L, L], bias[b,h,i,j] = W[h, bucket(pos_j - pos_i)].
    at::Tensor dense(const at::Tensor &pos) const;

private:
    at::Tensor m_weight;
    at::Tensor m_lut; // int64 [2R+1]
    std::int64_t m_range = 0;
};

struct RelativeTerm
{
    at::Tensor table;      // [H, 2R+1] float
    at::Tensor pos;        // [B, L] int64
    std::int64_t range = 0;
};

// Fused expansion without any [L, L] index: out[b,h,i,j] = (Σ_t table_t[h, clamp(pos_t[b,j] - pos_t[b,i])])
// / divisor + mask[b, j]. Terms are summed as t0 + (t1 + t2) to follow the reference order
// (1-D + (x + y)). mask: [B, L] float additive or undefined. Returns [B, H, L, L] float.
at::Tensor fusedRelativeBias(const std::vector<RelativeTerm> &terms, double divisor, const at::Tensor &mask);

// The one score term of a LayoutLM-family encoder, shared by all its layers:
// (1-D + (x + y)) / divisor + key mask, [B, H, L, L] (H = 1 when no term is given).
// Any relative bias may be null (left out; x and y go together). pos, xs, ys: [B, L] int64, or
// [1, L] when shared by the batch (e.g. word indices: the grad path then builds one [1, H, L, L]
// term and broadcasts it); maskAdd: [B, L] float additive. Fused kernel without grad mode, differentiable gather with it
// (same values). Used by LayoutEncoder and Folio's layout tagger.
at::Tensor layoutBiasScores(const RelativeBucketBias *rel1d, const at::Tensor &pos, const RelativeBucketBias *relX,
                            const at::Tensor &xs, const RelativeBucketBias *relY, const at::Tensor &ys, double divisor,
                            const at::Tensor &maskAdd);

// Disentangled c2p + p2c expansion (DeBERTa-v2, ERNIE-Layout paper form).
// c2p, p2c: [B, H, L, 2k] (= Qc·Kr^T, Kc·Qr^T); pos: [B, L] int64; lut maps a clamped distance
// d in [-R, R] to a row in [0, 2k): idx = lut[d + R].
// out[b,h,i,j] = c2p[b,h,i, idx(pos_i - pos_j)] / scale + p2c[b,h,j, idx(p2cDist)] / scale,
// with p2cDist = pos_i - pos_j (DeBERTa code form, shared index) or pos_j - pos_i (paper form).
at::Tensor fusedDisentangled(const at::Tensor &c2p, const at::Tensor &p2c, const at::Tensor &pos,
                             const std::vector<std::int64_t> &lut, std::int64_t range, float scale,
                             bool p2cTransposedIndex);
// Differentiable reference of the same (gather over a [B, L, L] index), for training and tests.
at::Tensor gatherDisentangled(const at::Tensor &c2p, const at::Tensor &p2c, const at::Tensor &pos,
                              const std::vector<std::int64_t> &lut, std::int64_t range, float scale,
                              bool p2cTransposedIndex);

// ERNIE-Layout paper attention (MODELS.md §4.2), selectable next to the released LayoutLMv2-style
// form: A = Qc·Kc^T + Σ_{τ∈{1p,2x,2y}} (Qc·K^τ_{δ(i,j)} + Kc·Q^τ_{δ(j,i)}), softmax(A / sqrt(3d)),
// δ(i,j) = clamp(p_i - p_j + k, 0, 2k-1). q, k: [B, H, L, d]; relQ/relK[τ]: [H, 2k, d] (projected
// relative embeddings); pos[τ]: [B, L]. Returns the scores before softmax, [B, H, L, L].
at::Tensor ernieLayoutPaperScores(const at::Tensor &q, const at::Tensor &k, const std::vector<at::Tensor> &relQ,
                                  const std::vector<at::Tensor> &relK, const std::vector<at::Tensor> &pos,
                                  std::int64_t span);

// Grid boxes for image tokens (MODELS.md §0): g x g cells over 0..1000, row-major.
// truncEdges: LayoutLMv3 trunc(k*1000/g); else floor (identical for non-negative values).
// withCls: prepend [1, 1, 999, 999] (LayoutLMv3). Returns int64 [g*g (+1), 4].
at::Tensor gridBoxes(std::int64_t g, bool withCls);
// The same for a gh x gw grid (rows outer): [x_j, y_i, x_(j+1), y_(i+1)], x_j = floor(1000 j / gw),
// y_i = floor(1000 i / gh) (LayoutLMv2's visual_bbox).
at::Tensor gridBoxes(std::int64_t gh, std::int64_t gw, bool withCls);

} // namespace folio::inference::detail
