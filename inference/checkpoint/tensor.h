#pragma once
// A small torch-free tensor: dtype, shape and owned bytes (row-major, little endian).
// This is what crosses the public boundary of folio_inference (facade, safetensors, CLI, GUI).

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace folio::inference {

enum class DType { F64, F32, F16, BF16, I64, I32, I16, I8, U8, Bool };

// Size of one element in bytes.
std::size_t dtypeSize(DType t);
// Safetensors spelling ("F32", "I64", ...).
const char *dtypeName(DType t);
// Parses a safetensors dtype string; returns false for unknown names.
bool parseDType(const std::string &name, DType *out);

struct Tensor
{
    DType dtype = DType::F32;
    std::vector<std::int64_t> shape;
    std::vector<std::uint8_t> bytes; // numel() * dtypeSize(dtype) bytes

    std::int64_t numel() const;
    bool isValid() const { return bytes.size() == static_cast<std::size_t>(numel()) * dtypeSize(dtype); }

    template<typename T> const T *data() const { return reinterpret_cast<const T *>(bytes.data()); }
    template<typename T> T *data() { return reinterpret_cast<T *>(bytes.data()); }

    static Tensor zeros(DType dtype, std::vector<std::int64_t> shape);
    static Tensor fromFloats(std::vector<std::int64_t> shape, const std::vector<float> &values);
    static Tensor fromInt64(std::vector<std::int64_t> shape, const std::vector<std::int64_t> &values);
};

// Named tensors, sorted by name (the order safetensors files use).
using TensorMap = std::map<std::string, Tensor>;

// Shape as text, e.g. "[2, 24, 32]".
std::string shapeString(const std::vector<std::int64_t> &shape);

} // namespace folio::inference
