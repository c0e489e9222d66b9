#pragma once
// folio::inference::Tensor <-> at::Tensor (copies).

#include "inference/detail/aten.h"
#include "inference/checkpoint/tensor.h"

namespace folio::inference {
struct TensorView;
}

#include <map>
#include <string>

namespace folio::inference::detail {

using AtMap = std::map<std::string, at::Tensor>;

at::Tensor toAten(const Tensor &t);             // owned copy, same dtype
at::Tensor toAten(const TensorView &v);  // owned copy, same dtype
Tensor fromAten(const at::Tensor &t);           // contiguous copy (F32/F64/I64/I32/Bool/...)
at::ScalarType scalarType(DType t);

} // namespace folio::inference::detail
