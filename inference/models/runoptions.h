#pragma once
// Per-run switches: AttentionTrace capture and bias ablation. Torch-free.

#include <cstdint>

namespace folio::inference {

// Bias families that can be switched off for one run ("bias ablation").
enum BiasFamily : std::uint32_t {
    BiasNone = 0,
    Bias1D = 1u << 0,           // bucketed 1-D relative position (T5 / LayoutLM)
    Bias2D = 1u << 1,           // 2-D spatial x/y (LayoutLMv2 SASAM, LayoutLMv3)
    BiasDisentangled = 1u << 2, // c2p / p2c (DeBERTa, ERNIE-Layout paper form)
    BiasHierarchical = 1u << 3, // HIBRIDS (PathLen, LvlDiff)
    // (1u << 4 is the view's graph family, attention/attentiontrace.h)
    BiasLayoutFlow = 1u << 5,   // LiLT: the layout flow's scores BiACM adds to the text flow's
};

struct RunOptions
{
    // AttentionTrace: when true the outputs also hold `attentions.N` (post-softmax, [B, H, L, L])
    // for every layer and each bias term separately (`bias.1d`, `bias.2d_x`, `bias.2d_y`,
    // `bias.c2p.N`, `bias.p2c.N`, `bias.layout_flow.N`, ...; shapes documented in inference/README.md).
    // When false nothing is captured or kept (zero cost).
    bool trace = false;
    // Bitwise OR of BiasFamily values to disable for this run.
    std::uint32_t disabledBiases = BiasNone;
};

} // namespace folio::inference
