#include "inference/checkpoint/detail/jsonfile.h"

#include "inference/checkpoint/jsonlimits.h"
#include "inference/errors.h"
#include "common/regularfile.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <vector>

namespace folio::inference {

namespace {

// Thrown from the parse callback (never out of this file).
struct LimitHit
{
    std::string why;
};

} // namespace

nlohmann::json parseJsonBounded(std::string_view text, const std::string &label, const JsonLimits &limits)
{
    std::size_t values = 0;
    const nlohmann::json::parser_callback_t count = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json &) {
        using Event = nlohmann::json::parse_event_t;
        if (event == Event::object_start || event == Event::array_start) {
            // `depth` is the number of containers around this one.
            if (depth >= limits.maxDepth)
                throw LimitHit{"nested deeper than " + std::to_string(limits.maxDepth)
                               + " levels (objects and arrays inside each other); refused before building it"};
        } else if (event != Event::value) {
            return true;
        }
        if (++values > limits.maxValues)
            throw LimitHit{"more than " + std::to_string(limits.maxValues) + " " + limits.valuesName
                           + ", the limit for this file; refused before building the rest"};
        return true;
    };
    try {
        return nlohmann::json::parse(text.begin(), text.end(), count);
    } catch (const LimitHit &hit) {
        throw InferenceError(label + ": " + hit.why);
    } catch (const nlohmann::json::exception &e) {
        throw InferenceError(label + ": invalid JSON: " + e.what());
    } catch (const std::bad_alloc &) {
        throw InferenceError(label + ": out of memory while parsing its JSON (" + std::to_string(text.size()) + " bytes)");
    }
}

nlohmann::json readJsonFileBounded(const std::string &path, const JsonLimits &limits)
{
    // A regular file only, its size from stat (common/regularfile.h; issue 51): a FIFO would block
    // the open, /dev/zero would fill memory. The largest JSON kind read here is tokenizer.json.
    std::string notAFile;
    if (regularFileSize(path, FileLimits::tokenizerJson, "this JSON file", &notAFile) < 0)
        throw InferenceError(notAFile);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InferenceError(path + ": cannot open");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return parseJsonBounded(text, path, limits);
}

bool jsonDeeperThan(const nlohmann::json &json, int maxDepth)
{
    // (value, its level): containers only, children pushed as they are met.
    std::vector<std::pair<const nlohmann::json *, int>> pending;
    if (json.is_structured())
        pending.emplace_back(&json, 1);
    while (!pending.empty()) {
        const auto [value, level] = pending.back();
        pending.pop_back();
        if (level > maxDepth)
            return true;
        for (const nlohmann::json &child : *value)
            if (child.is_structured())
                pending.emplace_back(&child, level + 1);
    }
    return false;
}

} // namespace folio::inference

namespace folio::inference::detail {

nlohmann::json readJsonFile(const std::string &path)
{
    return readJsonFileBounded(path);
}

void writeTextFile(const std::string &path, const std::string &text)
{
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw InferenceError(path + ": cannot write");
        out << text;
        if (!out)
            throw InferenceError(path + ": write failed");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec)
        throw InferenceError(path + ": cannot replace: " + ec.message());
}

} // namespace folio::inference::detail
