#pragma once
// RoBERTa-style position ids from input ids (HF create_position_ids_from_input_ids): real tokens
// count from pad + 1, padding positions get pad. Used by LayoutLMv3 and LiLT.

#include "inference/detail/aten.h"

namespace folio::inference::detail {

// ids: [B, T] int64 -> [B, T] int64: cumsum(ids != pad) * (ids != pad) + pad.
inline at::Tensor robertaPositionIds(const at::Tensor &ids, std::int64_t pad)
{
    const at::Tensor m = ids.ne(pad).to(at::kLong);
    return at::cumsum(m, 1) * m + pad;
}

} // namespace folio::inference::detail
