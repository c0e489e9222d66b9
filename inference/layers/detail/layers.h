#pragma once
// Building blocks shared by the encoders: linear/LayerNorm weights, the post-LN BERT layer
// (attention output + FFN) and the scaled-dot-product core with an additive score term.

#include "inference/detail/aten.h"

#include <string>

namespace folio::inference::detail {

class ParamStore;

struct LinearW
{
    at::Tensor weight, bias; // [out, in], [out] (bias may be undefined)
    at::Tensor operator()(const at::Tensor &x) const { return at::linear(x, weight, bias); }
    static LinearW load(ParamStore &p, const std::string &prefix, std::int64_t in, std::int64_t out, bool withBias = true);
};

struct LayerNormW
{
    at::Tensor weight, bias;
    double eps = 1e-5;
    at::Tensor operator()(const at::Tensor &x) const
    {
        return at::layer_norm(x, {weight.size(0)}, weight, bias, eps);
    }
    static LayerNormW load(ParamStore &p, const std::string &prefix, std::int64_t dim, double eps);
};

// HF "BertSelfOutput + BertIntermediate + BertOutput" after the attention context:
// h = LN1(ctx·Wo + x); y = LN2(GELU(h·W1)·W2 + h). Exact (erf) GELU.
struct FeedForwardW
{
    LinearW attnOut;   // <layer>.attention.output.dense
    LayerNormW attnLn; // <layer>.attention.output.LayerNorm
    LinearW inter;     // <layer>.intermediate.dense
    LinearW out;       // <layer>.output.dense
    LayerNormW outLn;  // <layer>.output.LayerNorm
    static FeedForwardW load(ParamStore &p, const std::string &layerPrefix, std::int64_t hidden,
                             std::int64_t intermediate, double eps);
    // ctx, x: [B, L, D] -> [B, L, D]
    at::Tensor operator()(const at::Tensor &ctx, const at::Tensor &x) const;
};

// [B, L, D] -> [B, H, L, d]
at::Tensor splitHeads(const at::Tensor &x, std::int64_t heads);
// [B, H, L, d] -> [B, L, D]
at::Tensor mergeHeads(const at::Tensor &x);

// probs = softmax((q / sqrt(d)) @ k^T + scoreAdd); returns ctx [B, H, L, d], probs via *probs.
// q, k, v: [B, H, L, d]; scoreAdd broadcastable to [B, H, Lq, Lk] (bias already scaled + mask),
// may be undefined.
at::Tensor scaledAttention(const at::Tensor &q, const at::Tensor &k, const at::Tensor &v,
                           const at::Tensor &scoreAdd, at::Tensor *probs);

// HF extended additive mask from a 0/1 mask [B, L]: (1 - m) * finfo(float32).min -> [B, 1, 1, L].
at::Tensor additiveMask(const at::Tensor &mask01);

} // namespace folio::inference::detail
