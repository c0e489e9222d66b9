#pragma once
// JSON of untrusted files read with stated bounds (issue 51): nesting depth and the number of values
// are counted while nlohmann's parser builds the tree (its parse callback gives the depth before a
// container is entered), so a 1,000,000-deep config.json or a 10 M-entry vocab.json is refused
// after at most the limit, before anything recursive (copy, dump, comparison) walks it. nlohmann
// 3.11 parses and destroys iteratively; its copy constructor, dump and operator== recurse, which is
// why the depth must be bounded before a value is kept. Torch-free; errors are InferenceError
// naming the file.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace folio::inference {

struct JsonLimits
{
    int maxDepth = 128;                         // containers inside containers (the root is depth 1)
    std::size_t maxValues = std::size_t(1) << 21; // every value, container or not
    const char *valuesName = "JSON values";     // what the values are, in the message ("vocabulary entries")
};

// Parses `text`; throws InferenceError "<label>: invalid JSON: ..." / "<label>: nested deeper than
// N levels ..." / "<label>: more than N <valuesName> ...".
nlohmann::json parseJsonBounded(std::string_view text, const std::string &label, const JsonLimits &limits = {});

// Reads and parses `path` with parseJsonBounded (readJsonFile in detail/jsonfile.h is this with the
// default limits); throws InferenceError naming the file.
nlohmann::json readJsonFileBounded(const std::string &path, const JsonLimits &limits = {});

// Whether `json` nests containers deeper than `maxDepth` levels (the root container is level 1);
// iterative, stops at the first container past the limit.
bool jsonDeeperThan(const nlohmann::json &json, int maxDepth);

} // namespace folio::inference
