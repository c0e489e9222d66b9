#pragma once
// The one exception type folio_inference throws internally. The facade (ModelRunner) catches it
// (and c10::Error) and turns it into a message; it never crosses into the GUI.

#include <stdexcept>
#include <string>

namespace folio::inference {

class InferenceError : public std::runtime_error
{
public:
    explicit InferenceError(const std::string &message) : std::runtime_error(message) {}
};

} // namespace folio::inference
