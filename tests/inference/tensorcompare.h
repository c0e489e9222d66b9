#pragma once
// Torch-free comparison helpers for the inference tests.

#include "inference/checkpoint/tensor.h"

#include <cmath>
#include <cstring>
#include <string>

namespace folio::inference::test {

struct Diff
{
    bool ok = true;
    double maxAbs = 0.0;
    std::string message;
};

inline double valueAt(const Tensor &t, std::int64_t i)
{
    switch (t.dtype) {
    case DType::F32: return t.data<float>()[i];
    case DType::F64: return t.data<double>()[i];
    case DType::I64: return static_cast<double>(t.data<std::int64_t>()[i]);
    case DType::I32: return t.data<std::int32_t>()[i];
    default: return std::nan("");
    }
}

// |a - e| <= atol + rtol * |e| elementwise (NaN never matches); integer tensors need atol = rtol = 0.
inline Diff compareTensors(const Tensor &actual, const Tensor &expected, double atol, double rtol)
{
    Diff d;
    if (actual.shape != expected.shape) {
        d.ok = false;
        d.message = "shape " + shapeString(actual.shape) + " vs expected " + shapeString(expected.shape);
        return d;
    }
    const std::int64_t n = expected.numel();
    std::int64_t worst = -1;
    for (std::int64_t i = 0; i < n; ++i) {
        const double a = valueAt(actual, i), e = valueAt(expected, i);
        const double diff = std::fabs(a - e);
        if (!(diff <= atol + rtol * std::fabs(e))) {
            if (d.ok)
                worst = i;
            d.ok = false;
        }
        if (diff > d.maxAbs || std::isnan(diff))
            d.maxAbs = std::isnan(diff) ? INFINITY : diff;
    }
    if (!d.ok)
        d.message = "first mismatch at flat index " + std::to_string(worst) + ": " + std::to_string(valueAt(actual, worst))
                    + " vs " + std::to_string(valueAt(expected, worst)) + " (max |diff| " + std::to_string(d.maxAbs) + ")";
    return d;
}

} // namespace folio::inference::test
