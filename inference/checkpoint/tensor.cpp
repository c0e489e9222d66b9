#include "inference/checkpoint/tensor.h"

#include <cstring>

namespace folio::inference {

namespace {
struct DTypeInfo
{
    DType type;
    const char *name;
    std::size_t size;
};
const DTypeInfo kDTypes[] = {
    {DType::F64, "F64", 8}, {DType::F32, "F32", 4}, {DType::F16, "F16", 2}, {DType::BF16, "BF16", 2},
    {DType::I64, "I64", 8}, {DType::I32, "I32", 4}, {DType::I16, "I16", 2}, {DType::I8, "I8", 1},
    {DType::U8, "U8", 1},   {DType::Bool, "BOOL", 1},
};
} // namespace

std::size_t dtypeSize(DType t)
{
    for (const auto &d : kDTypes)
        if (d.type == t)
            return d.size;
    return 0;
}

const char *dtypeName(DType t)
{
    for (const auto &d : kDTypes)
        if (d.type == t)
            return d.name;
    return "?";
}

bool parseDType(const std::string &name, DType *out)
{
    for (const auto &d : kDTypes) {
        if (name == d.name) {
            *out = d.type;
            return true;
        }
    }
    return false;
}

std::int64_t Tensor::numel() const
{
    std::int64_t n = 1;
    for (auto s : shape)
        n *= s;
    return n;
}

Tensor Tensor::zeros(DType dtype, std::vector<std::int64_t> shape)
{
    Tensor t;
    t.dtype = dtype;
    t.shape = std::move(shape);
    t.bytes.assign(static_cast<std::size_t>(t.numel()) * dtypeSize(dtype), 0);
    return t;
}

Tensor Tensor::fromFloats(std::vector<std::int64_t> shape, const std::vector<float> &values)
{
    Tensor t = zeros(DType::F32, std::move(shape));
    if (values.size() * sizeof(float) == t.bytes.size())
        std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
    return t;
}

Tensor Tensor::fromInt64(std::vector<std::int64_t> shape, const std::vector<std::int64_t> &values)
{
    Tensor t = zeros(DType::I64, std::move(shape));
    if (values.size() * sizeof(std::int64_t) == t.bytes.size())
        std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
    return t;
}

std::string shapeString(const std::vector<std::int64_t> &shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i)
            s += ", ";
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

} // namespace folio::inference
