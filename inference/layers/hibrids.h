#pragma once
// HIBRIDS hierarchical biases (MODELS.md §5), computed at section granularity: a sections x sections
// table of (PathLen, LvlDiff) rows plus a token -> section map; token-level values are gathered
// from it, never from an int64 [L, L] index. Torch-free interface.

#include "inference/checkpoint/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace folio::inference {

struct HibridsLayout
{
    std::vector<std::int64_t> sectionParent;  // [S], -1 = top level, document (pre-)order
    std::vector<std::int64_t> tokenToSection; // [L], non-decreasing section ids
    // Filled by hibridsPrepare(): row-major [S, S] rows of the 600-row table.
    std::vector<std::int32_t> sectionIndex;
};

// Computes sectionIndex (throws InferenceError for |PathLen| >= 20 or a bad tree).
void hibridsPrepare(HibridsLayout *layout);

// Encoder self-attention bias of one document: weight [600, H] (a layer's
// `relative_hierarchical_bias.weight`) -> F32 [H, L, L] with bias[h,i,j] = W[index(i,j), h].
// globalTokens: token positions whose rows and columns get no bias (Longformer global attention;
// the reference's token 0). Empty = plain gather (the fixture's `tK.bias`).
// Returns an empty Tensor and sets *error on failure.
Tensor hibridsEncoderBias(const Tensor &weight, const HibridsLayout &layout,
                          const std::vector<std::int64_t> &globalTokens, std::string *error);

// Banded (Longformer sliding-window) form: F32 [L, H, 2w+1], entry [i, h, k] = W[index(i, i+k-w), h]
// and 0 outside [0, L). Memory O(L*w*H) + O(S^2); what the encoder consumes per window.
Tensor hibridsBandedBias(const Tensor &weight, const HibridsLayout &layout, std::int64_t oneSidedWindow,
                         std::string *error);

// Token-level (PathLen, LvlDiff) and index matrices, for tests and the GUI inspector only (O(L^2)).
struct HibridsTokenRelations
{
    Tensor index, pathLen, lvlDiff; // I64 [L, L]
};
HibridsTokenRelations hibridsTokenRelations(const HibridsLayout &layout);

// Decoder variant (§5.5): the last decoder layer's cross-attention with the scalar table beta [600, 1].
struct HibridsDecoderWeights
{
    Tensor qW, qB, kW, kB, vW, vB, outW, outB; // q_proj/k_proj/v_proj/out_proj [D, D] / [D]
    Tensor beta;                               // relative_hierarchical_bias.weight [600, 1]
    int heads = 16;
};
struct HibridsDecoderResult
{
    Tensor attnOutput;  // F32 [B, T, D]
    Tensor attnWeights; // F32 [B, H, T, S] post-softmax
    Tensor hierBias;    // F32 [B, H, T, S] = Σ_i A'[b,h,t,i] · beta[index_b(i, j)]
    std::string error;  // non-empty on failure
};
// hidden [B, T, D]; encoderHidden [B, S, D]; mask4d [B, 1, T, S] additive; previousAttn [B, H, T, S]
// (penultimate layer's cross-attention probabilities); one layout per batch row, its tokenToSection
// covering all S source positions (padding belongs to the last section).
HibridsDecoderResult hibridsDecoderCrossAttention(const HibridsDecoderWeights &w, const Tensor &hidden,
                                                  const Tensor &encoderHidden, const Tensor &mask4d,
                                                  const Tensor &previousAttn, const std::vector<HibridsLayout> &layouts);

} // namespace folio::inference
