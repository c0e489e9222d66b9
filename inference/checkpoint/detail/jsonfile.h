#pragma once
// Small JSON / text file helpers shared by the checkpoint readers, tokenizers and trainers.
// Torch-free; errors are InferenceError naming the file.

#include <nlohmann/json.hpp>

#include <string>

namespace folio::inference::detail {

// Parses a JSON file; throws InferenceError "<path>: cannot open" / "<path>: invalid JSON: ...".
nlohmann::json readJsonFile(const std::string &path);
// Atomic text write (tmp + rename); throws InferenceError naming the file.
void writeTextFile(const std::string &path, const std::string &text);

} // namespace folio::inference::detail
