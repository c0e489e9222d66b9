#pragma once
// The one exception type folio_inference throws (inference/README.md, "Errors"): every `throw`
// under inference/ is an InferenceError (tst_inference_layering refuses a `throw std::...`). It is a
// std::runtime_error, so a caller that catches that (or std::exception) still catches it. The
// facades (ModelRunner, Predictor, HfTokenClassifier, WebFormerExtractor, ...) catch it and
// c10::Error and return false + a message instead; no exception crosses into the GUI.

#include <stdexcept>
#include <string>

namespace folio::inference {

class InferenceError : public std::runtime_error
{
public:
    explicit InferenceError(const std::string &message) : std::runtime_error(message) {}
};

} // namespace folio::inference
