// tokenizerJsonModelType / tokenizerJsonHasAddedTokens (tokenizerjson.h): what a tokenizer.json is,
// read without building its tree.
#include "inference/tokenizers/tokenizerjson.h"

#include "common/regularfile.h"
#include "inference/errors.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace folio::inference {

namespace {

// What tokenizerJsonModelType / tokenizerJsonHasAddedTokens need, read by nlohmann's SAX interface
// (no tree built; stops as soon as both are known; depth bounded as readJsonFileBounded bounds it).
struct Peek final : nlohmann::json_sax<nlohmann::json>
{
    std::string file;
    int depth = 0;
    std::vector<std::string> keys{std::string()}; // the key being read at each depth
    bool hasAdded = false, modelSeen = false, hasMerges = false;
    std::string modelType;

    bool done() const { return hasAdded && !modelType.empty(); }
    bool inModel() const { return depth == 2 && keys[1] == "model"; }
    bool value() { return !done(); }
    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t &) override { return value(); }
    bool binary(binary_t &) override { return value(); }
    bool string(string_t &v) override
    {
        if (inModel() && keys[2] == "type")
            modelType = v;
        return value();
    }
    bool open()
    {
        if (++depth > 128)
            throw InferenceError(file + ": nested deeper than 128 levels");
        keys.resize(std::size_t(depth) + 1);
        return true;
    }
    bool start_object(std::size_t) override { return open(); }
    bool start_array(std::size_t) override { return open(); }
    bool end_object() override { --depth; return value(); }
    bool end_array() override { --depth; return value(); }
    bool key(string_t &k) override
    {
        keys[std::size_t(depth)] = k;
        if (depth == 1 && k == "added_tokens") hasAdded = true;
        if (depth == 1 && k == "model") modelSeen = true;
        if (inModel() && k == "merges") hasMerges = true;
        return true;
    }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &e) override
    {
        throw InferenceError(file + ": invalid JSON: " + e.what());
    }
};

Peek peekTokenizerJson(const std::string &file)
{
    std::string notAFile;
    if (regularFileSize(file, FileLimits::tokenizerJson, "this JSON file", &notAFile) < 0)
        throw InferenceError(notAFile);
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw InferenceError(file + ": cannot open");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Peek peek;
    peek.file = file;
    nlohmann::json::sax_parse(text, &peek);
    return peek;
}

} // namespace

std::string tokenizerJsonModelType(const std::string &tokenizerJson)
{
    const Peek p = peekTokenizerJson(tokenizerJson);
    if (!p.modelType.empty())
        return p.modelType;
    return p.hasMerges ? "BPE" : "";
}

bool tokenizerJsonHasAddedTokens(const std::string &tokenizerJson)
{
    return peekTokenizerJson(tokenizerJson).hasAdded;
}

} // namespace folio::inference
