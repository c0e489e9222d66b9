#pragma once
// A Linear product for a few rows (a decoding step: one row for greedy search, one per beam): every
// weight row is read once and multiplied with all of them. OpenBLAS's sgemm packs the whole weight
// matrix on every call, which for 1-8 rows costs more than the arithmetic (issue 35, BENCHMARKS
// "Decoding against generate()"); a decoding step is bound by reading the weights from memory.

#include "inference/detail/aten.h"

namespace folio::inference::detail {

// Largest row count the small-row product takes.
constexpr std::int64_t kSmallRowsMax = 8;

// x [..., K] · weight[N, K]^T + bias[N] when x has 1..kSmallRowsMax rows, is float32 on the CPU, no
// gradient is being recorded and the CPU has AVX2 + FMA; an undefined tensor otherwise (the caller
// then uses at::linear). Sums in a different order from the BLAS: results agree to rounding.
at::Tensor smallRowsLinear(const at::Tensor &x, const at::Tensor &weight, const at::Tensor &bias);

// The batched form: x [Bt, M, K] · w[Bt, N, K]^T -> [Bt, M, N] for 1..kSmallRowsMax rows M, on the
// same conditions (a decoding step's attention: a few queries against each head's cached keys, or
// their probabilities against its values stored transposed). Undefined tensor when not applicable.
at::Tensor smallRowsBatchedProduct(const at::Tensor &x, const at::Tensor &w);

} // namespace folio::inference::detail
