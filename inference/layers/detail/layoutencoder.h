#pragma once
// The LayoutLM-family encoder (LayoutLMv2 SASAM, LayoutLMv3, released ERNIE-Layout form):
// post-LN BERT layers whose attention scores get the bucketed 1-D and 2-D x/y relative biases,
// computed once per forward and shared by all layers (MODELS.md §1.6-1.7, §2.4).

#include "inference/layers/detail/layers.h"
#include "inference/layers/detail/relbias.h"

#include <string>
#include <vector>

namespace folio::inference::detail {

class ForwardContext;
class ParamStore;

struct LayoutEncoderOptions
{
    std::int64_t hidden = 768, heads = 12, layers = 12, intermediate = 3072;
    double eps = 1e-5;
    bool relative1d = true, spatial2d = true;
    int relBins = 32, maxRel = 128, rel2dBins = 64, maxRel2d = 256;
    // LayoutLMv3: biases divided by sqrt(d), and a spatial-only config adds nothing (§1.7).
    // LayoutLMv2: biases added unscaled.
    bool scaleBiases = true;
    // LayoutLMv2 fast_qkv: qkv_linear (no bias) + q_bias / v_bias; else query/key/value Linear.
    bool fastQkv = false;
};

class LayoutEncoder
{
public:
    // prefix: state-dict prefix of the encoder incl. the dot ("encoder.", "layoutlmv3.encoder.", "").
    LayoutEncoder(const LayoutEncoderOptions &o, ParamStore &p, const std::string &prefix);

    // x: [B, L, D] float; pos: [B, L] int64 1-D positions; bbox: [B, L, 4] int64;
    // maskAdd: [B, L] float additive key mask (0 or finfo.min). Returns [B, L, D].
    // hiddenStates (optional): receives HF's `hidden_states` tuple, the input then each layer's output.
    at::Tensor forward(const at::Tensor &x, const at::Tensor &pos, const at::Tensor &bbox, const at::Tensor &maskAdd,
                       const ForwardContext &ctx, std::vector<at::Tensor> *hiddenStates = nullptr) const;
    // Every layer's fused QKV and FFN Linears to dynamic int8 (int8linear.h, issue 35; idempotent).
    void quantizeDynamicInt8();

private:
    struct Layer
    {
        LinearW qkv;            // fused [3D, D]: query/key/value or qkv_linear (+ q_bias, 0, v_bias)
        FeedForwardW ffn;
    };
    LayoutEncoderOptions m_o;
    std::vector<Layer> m_layers;
    RelativeBucketBias m_rel1d; // <prefix>rel_pos_bias.weight   [H, 32]
    RelativeBucketBias m_relX;  // <prefix>rel_pos_x_bias.weight [H, 64]
    RelativeBucketBias m_relY;  // <prefix>rel_pos_y_bias.weight [H, 64]
};

} // namespace folio::inference::detail
