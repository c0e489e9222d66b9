#pragma once
// Dynamic int8 quantization of Linear layers (issue 35): a LinearW's weight is quantized once,
// per output channel, symmetric (scale = max |row| / 127, zero point 0), and prepacked with
// `quantized::linear_prepack`; its forward is then `quantized::linear_dynamic` (activations
// quantized per call from their own range, accumulation in int32, output float32). Inference only:
// no autograd through the packed weights. The fp32 weight stays in the LinearW (saving, training).
//
// Engine: LibTorch's FBGEMM where this LibTorch build has it, else oneDNN (x86), else QNNPACK
// (supportedQEngines()); none of them: quantizeDynamicInt8 throws InferenceError saying so.

#include "inference/layers/detail/layers.h"

#include <string>

namespace folio::inference::detail {

// The quantized engine dynamic int8 uses ("fbgemm", "onednn", "qnnpack"), "" when this LibTorch
// build has none (then *why, if given, says what it supports).
std::string int8EngineName(std::string *why = nullptr);

// Replaces `l`'s forward by the int8 one (idempotent). Throws InferenceError when no engine.
void quantizeDynamicInt8(LinearW &l);
void quantizeDynamicInt8(SelfAttentionW &a);
void quantizeDynamicInt8(FeedForwardW &f);

} // namespace folio::inference::detail
