#pragma once
// HIBRIDS bias maths on at::Tensors, shared by the layer functions (inference/layers/hibrids.h)
// and the seq2seq models (inference/qs/).

#include "inference/detail/aten.h"

namespace folio::inference::detail {

// Decoder variant (MODELS.md §5.5) at section granularity:
// bias[n,h,t,j] = Σ_i prev[n,h,t,i] · beta[index(i, j)], computed as prev pooled over the query-side
// sections, times the section x section scalar table, gathered at the key tokens.
// prev [N, H, T, S] (the penultimate layer's cross-attention probabilities); beta [rows, 1];
// tokenToSection int64 [N, S]; sectionIndex int64 [N, n, n] (table rows; n >= every row's sections).
at::Tensor hibridsDecoderBias(const at::Tensor &prev, const at::Tensor &beta, const at::Tensor &tokenToSection,
                              const at::Tensor &sectionIndex);

} // namespace folio::inference::detail
