#include "inference/checkpoint/detail/convert.h"

#include "inference/errors.h"
#include "inference/checkpoint/safetensors.h"

#include <cstring>

namespace folio::inference::detail {

at::ScalarType scalarType(DType t)
{
    switch (t) {
    case DType::F64: return at::kDouble;
    case DType::F32: return at::kFloat;
    case DType::F16: return at::kHalf;
    case DType::BF16: return at::kBFloat16;
    case DType::I64: return at::kLong;
    case DType::I32: return at::kInt;
    case DType::I16: return at::kShort;
    case DType::I8: return at::kChar;
    case DType::U8: return at::kByte;
    case DType::Bool: return at::kBool;
    }
    return at::kFloat;
}

static DType dtypeOf(at::ScalarType s)
{
    switch (s) {
    case at::kDouble: return DType::F64;
    case at::kFloat: return DType::F32;
    case at::kHalf: return DType::F16;
    case at::kBFloat16: return DType::BF16;
    case at::kLong: return DType::I64;
    case at::kInt: return DType::I32;
    case at::kShort: return DType::I16;
    case at::kChar: return DType::I8;
    case at::kByte: return DType::U8;
    case at::kBool: return DType::Bool;
    default: throw InferenceError(std::string("unsupported tensor dtype ") + c10::toString(s));
    }
}

static at::Tensor copyFrom(const void *data, std::size_t bytes, DType dtype, const std::vector<std::int64_t> &shape)
{
    at::Tensor t = at::empty(shape, at::TensorOptions().dtype(scalarType(dtype)));
    if (bytes)
        std::memcpy(t.data_ptr(), data, bytes);
    return t;
}

at::Tensor toAten(const Tensor &t)
{
    if (!t.isValid())
        throw InferenceError("tensor of shape " + shapeString(t.shape) + " has the wrong byte size");
    return copyFrom(t.bytes.data(), t.bytes.size(), t.dtype, t.shape);
}

at::Tensor toAten(const TensorView &v)
{
    return copyFrom(v.data, v.byteSize, v.dtype, v.shape);
}

Tensor fromAten(const at::Tensor &src)
{
    at::Tensor t = src.detach().contiguous().cpu();
    Tensor out;
    out.dtype = dtypeOf(t.scalar_type());
    out.shape.assign(t.sizes().begin(), t.sizes().end());
    out.bytes.resize(static_cast<std::size_t>(t.numel()) * t.element_size());
    if (!out.bytes.empty())
        std::memcpy(out.bytes.data(), t.data_ptr(), out.bytes.size());
    return out;
}

} // namespace folio::inference::detail
