#pragma once
// Building blocks shared by every encoder (LayoutLMv3/v2, DeBERTa-v2, Folio's layout tagger,
// WebFormer, the seq2seq models): linear/LayerNorm weights, the BERT layer's attention output +
// FFN in post-LN and pre-LN form, Q/K/V self-attention and the scaled-dot-product core with an
// additive score term. All differentiable; dropout only when `training`.

#include "inference/detail/aten.h"

#include <memory>
#include <string>

namespace folio::inference::detail {

class ParamStore;
struct Int8Linear; // prepacked int8 weights (int8linear.h, issue 35)
at::Tensor int8LinearForward(const Int8Linear &q, const at::Tensor &x);

struct LinearW
{
    at::Tensor weight, bias; // [out, in], [out] (bias may be undefined)
    // Set by quantizeDynamicInt8 (int8linear.h): the forward then runs on int8 weights (inference only).
    std::shared_ptr<const Int8Linear> int8;
    // int8 when quantized; a few rows without autograd through the small-row product (smallrows.h,
    // a decoding step); at::linear otherwise.
    at::Tensor operator()(const at::Tensor &x) const;
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
    // Post-LN. ctx, x: [..., L, D] -> [..., L, D]
    at::Tensor operator()(const at::Tensor &ctx, const at::Tensor &x) const;
    // Post-LN with dropout on both sub-layer outputs (before the residual add) when training.
    at::Tensor operator()(const at::Tensor &ctx, const at::Tensor &x, double dropout, bool training) const;
    // Pre-LN form: attnLn normalises the attention input (the caller applies it, see
    // SelfAttentionW), outLn the FFN input: x1 = x + Wo·ctx; y = x1 + W2·GELU(W1·LN2(x1)).
    at::Tensor preLn(const at::Tensor &ctx, const at::Tensor &x, double dropout = 0.0, bool training = false) const;
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

// Q/K/V projections (separate Linear weights, HF `attention.self.{query,key,value}`) + scaledAttention.
struct SelfAttentionW
{
    LinearW query, key, value;
    std::int64_t heads = 1;
    static SelfAttentionW load(ParamStore &p, const std::string &selfPrefix, std::int64_t hidden, std::int64_t heads);
    // h: [B, L, D]; scoreAdd as in scaledAttention. Returns the merged context [B, L, D].
    at::Tensor operator()(const at::Tensor &h, const at::Tensor &scoreAdd, at::Tensor *probs = nullptr) const;
};

// HF extended additive mask from a 0/1 mask [B, L]: (1 - m) * finfo(float32).min -> [B, 1, 1, L].
at::Tensor additiveMask(const at::Tensor &mask01);

} // namespace folio::inference::detail
