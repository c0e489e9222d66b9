// Dynamic int8 Linear layers (layers/detail/int8linear.h): weights prepacked once by the quantized
// engine, activations quantized per call.
#include "inference/layers/detail/int8linear.h"

#include "inference/errors.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/native/quantized/PackedParams.h>

#include <algorithm>
#include <cmath>
#include <mutex>

namespace folio::inference::detail {

using PackedLinear = c10::intrusive_ptr<LinearPackedParamsBase>;

struct Int8Linear
{
    PackedLinear packed;
    std::int64_t outFeatures = 0;
    bool reduceRange = false; // FBGEMM quantizes activations to 7 bits (its int16 accumulation)
};

namespace {

struct Engine
{
    at::QEngine engine = at::QEngine::NoQEngine;
    std::string name, supported;
};

// Chosen once: FBGEMM first (what PyTorch's quantize_dynamic uses on x86), then oneDNN, QNNPACK.
const Engine &engine()
{
    static const Engine e = [] {
        Engine r;
        const std::vector<at::QEngine> have = at::globalContext().supportedQEngines();
        for (at::QEngine q : have)
            if (q != at::QEngine::NoQEngine)
                r.supported += (r.supported.empty() ? "" : ", ") + c10::toString(q);
        for (at::QEngine want : {at::QEngine::FBGEMM, at::QEngine::ONEDNN, at::QEngine::QNNPACK})
            if (std::find(have.begin(), have.end(), want) != have.end()) {
                r.engine = want;
                r.name = want == at::QEngine::FBGEMM ? "fbgemm" : want == at::QEngine::ONEDNN ? "onednn" : "qnnpack";
                break;
            }
        return r;
    }();
    return e;
}

} // namespace

std::string int8EngineName(std::string *why)
{
    const Engine &e = engine();
    if (e.name.empty() && why)
        *why = "dynamic int8 quantization needs a quantized engine (fbgemm, onednn or qnnpack) and this LibTorch "
               "build has none (supported: " + (e.supported.empty() ? std::string("none") : e.supported) + ")";
    return e.name;
}

// oneDNN builds (JIT) a new primitive for every row count and every activation scale / zero point
// it has not seen; with a fresh range per call that cost more than the int8 GEMM saved
// (BENCHMARKS.md, issue 35). So each call's rows are padded to a multiple of kRowBucket, and two
// of the padding rows hold the call's range snapped outward to a 2^(1/4) grid: the per-call range
// (the op quantizes activations from the tensor's min / max) then takes few distinct values and the
// primitives are reused. Real rows' results do not depend on the padding rows (a GEMM row by row).
// Fewer than kRowBucket rows (a decoder step: one row per beam) are padded to a power of two
// instead, so a 4-beam step multiplies 8 rows, not 64.
constexpr std::int64_t kRowBucket = 64;

static std::int64_t paddedRows(std::int64_t rows) // rows + 2 range rows, bucketed
{
    const std::int64_t need = rows + 2;
    if (need > kRowBucket)
        return (need + kRowBucket - 1) / kRowBucket * kRowBucket;
    std::int64_t p = 4;
    while (p < need)
        p *= 2;
    return p;
}

static double snapOutward(double v) // 0 for v <= 0, else the grid value 2^(k/4) >= v
{
    return v <= 0 ? 0.0 : std::pow(2.0, std::ceil(std::log2(v) * 4.0) / 4.0);
}

at::Tensor int8LinearForward(const Int8Linear &q, const at::Tensor &x)
{
    static const auto op = c10::Dispatcher::singleton()
                               .findSchemaOrThrow("quantized::linear_dynamic", "")
                               .typed<at::Tensor(at::Tensor, const PackedLinear &, bool)>();
    const std::int64_t in = x.size(-1), rows = x.numel() / std::max<std::int64_t>(in, 1);
    std::vector<std::int64_t> shape = x.sizes().vec();
    shape.back() = q.outFeatures;
    if (rows == 0)
        return at::zeros(shape, x.options().dtype(at::kFloat));
    const at::Tensor flat = x.reshape({rows, in}).to(at::kFloat);
    const auto range = at::aminmax(flat);
    const double hi = snapOutward(std::get<1>(range).item<double>()), lo = -snapOutward(-std::get<0>(range).item<double>());
    const std::int64_t padded = paddedRows(rows);
    at::Tensor buffer = at::zeros({padded, in}, flat.options());
    buffer.narrow(0, 0, rows).copy_(flat);
    buffer.narrow(0, rows, 1).fill_(hi);
    buffer.narrow(0, rows + 1, 1).fill_(lo);
    const at::Tensor y = op.call(buffer, q.packed, q.reduceRange);
    return y.narrow(0, 0, rows).reshape(shape);
}

void quantizeDynamicInt8(LinearW &l)
{
    if (l.int8)
        return;
    std::string why;
    const std::string name = int8EngineName(&why);
    if (name.empty())
        throw InferenceError(why);
    if (!l.weight.defined() || l.weight.dim() != 2)
        throw InferenceError("quantizeDynamicInt8: the Linear layer has no [out, in] weight");
    static std::once_flag setEngine;
    std::call_once(setEngine, [] { at::globalContext().setQEngine(engine().engine); });
    at::NoGradGuard noGrad;
    const at::Tensor w = l.weight.detach().to(at::kFloat).contiguous();
    const at::Tensor scales = (w.abs().amax({1}) / 127.0).clamp_min(1e-8).to(at::kDouble);
    const at::Tensor qw = at::quantize_per_channel(w, scales, at::zeros({w.size(0)}, at::kLong), 0, at::kQInt8);
    static const auto prepack = c10::Dispatcher::singleton()
                                    .findSchemaOrThrow("quantized::linear_prepack", "")
                                    .typed<PackedLinear(at::Tensor, c10::optional<at::Tensor>)>();
    auto q = std::make_shared<Int8Linear>();
    q->packed = prepack.call(qw, l.bias.defined() ? c10::optional<at::Tensor>(l.bias.detach().to(at::kFloat).contiguous())
                                                  : c10::nullopt);
    q->outFeatures = w.size(0);
    q->reduceRange = engine().engine == at::QEngine::FBGEMM;
    l.int8 = std::move(q);
}

void quantizeDynamicInt8(SelfAttentionW &a)
{
    quantizeDynamicInt8(a.query);
    quantizeDynamicInt8(a.key);
    quantizeDynamicInt8(a.value);
}

void quantizeDynamicInt8(FeedForwardW &f)
{
    quantizeDynamicInt8(f.attnOut);
    quantizeDynamicInt8(f.inter);
    quantizeDynamicInt8(f.out);
}

} // namespace folio::inference::detail
