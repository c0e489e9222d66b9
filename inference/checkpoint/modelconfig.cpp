#include "inference/checkpoint/modelconfig.h"

#include "inference/checkpoint/configcheck.h"
#include "inference/checkpoint/fairseq.h"
#include "inference/checkpoint/jsonlimits.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/checkpoint/shardedsafetensors.h"
#include "inference/errors.h"
#include "common/regularfile.h"

#include <fstream>
#include <sstream>

namespace folio::inference {

namespace {

const JsonLimits &configJsonLimits()
{
    // A Hugging Face config nests 3-4 levels; id2label + label2id of 65,536 labels are 131,073 values.
    static const JsonLimits limits{32, std::size_t(1) << 20, "JSON values"};
    return limits;
}

} // namespace

ModelConfig ModelConfig::fromDirectory(const std::string &dir)
{
    const std::string path = dir + "/config.json";
    // Only a regular file, its size from stat (common/regularfile.h; issue 51): a FIFO config.json
    // blocked open() forever, a link to /dev/zero filled memory, a 1 GB one was read before its check.
    const bool present = pathExists(path);
    std::string notAFile;
    if (present && regularFileSize(path, FileLimits::configJson, "config.json", &notAFile) < 0)
        throw InferenceError(notAFile);
    std::ifstream in;
    if (present)
        in.open(path, std::ios::binary);
    const std::string fairseq = in.is_open() ? std::string() : fairseqCheckpointIn(dir);
    if (!fairseq.empty()) { // a fairseq BART without config.json: the one its args describe (fairseq.h)
        const FairseqCheckpointInfo info = describeFairseqCheckpoint(fairseq);
        if (info.config.is_null())
            throw InferenceError(path + ": missing; " + fairseq + " is a Hugging Face model in a fairseq wrapper ("
                                 + (info.hfModelName.empty() ? std::string("HIBRIDS' release format")
                                                             : "cfg.model.hf_model_name '" + info.hfModelName + "'")
                                 + ") and does not hold the architecture: put that model's config.json (and its tokenizer, "
                                   "vocab.json + merges.txt) beside it");
        ModelConfig config = fromJson(info.config, fairseq + " (args)");
        checkConfigSizes(config, info.shapes, fairseq);
        return config;
    }
    if (!in.is_open())
        throw InferenceError(path + ": cannot open");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    if (text.size() > 64u * 1024 * 1024)
        throw InferenceError(path + ": larger than 64 MB");
    // Depth and value count bounded while parsing (issue 51: a config nested 1,000,000 deep parsed,
    // then the recursive copy below overflowed the stack).
    const nlohmann::json j = parseJsonBounded(text, path, configJsonLimits());
    ModelConfig config = fromJson(j, path);
    // Sizes are checked against the weights' header shapes before any model allocates (issue 18).
    TensorShapes shapes;
    std::string weights = dir + "/model.safetensors";
    if (pathExists(weights)) { // SafetensorsFile refuses a FIFO or a device by name
        const SafetensorsFile file(weights); // validates the header (a truncated file fails here)
        for (const std::string &name : file.names())
            shapes[name] = file.view(name).shape;
    } else if (hasSafetensorsIndex(dir)) { // sharded weights (issue 46): every shard's header, the index checked
        const ShardedSafetensors shards(dir);
        for (const std::string &name : shards.names())
            shapes[name] = shards.view(name).shape;
        weights = shards.indexPath();
    }
    checkConfigSizes(config, shapes, weights);
    return config;
}

ModelConfig ModelConfig::fromJson(const nlohmann::json &json, const std::string &source)
{
    if (!json.is_object())
        throw InferenceError(source + ": not a JSON object");
    // Whoever parsed it, a config deeper than the limit is refused before the recursive copy.
    if (jsonDeeperThan(json, configJsonLimits().maxDepth))
        throw InferenceError(source + ": nested deeper than " + std::to_string(configJsonLimits().maxDepth)
                             + " levels (objects and arrays inside each other); refused");
    ModelConfig c;
    c.m_json = json;
    c.m_source = source;
    auto it = json.find("model_type");
    if (it != json.end() && it->is_string())
        c.m_modelType = it->get<std::string>();
    return c;
}

bool ModelConfig::has(const std::string &key) const
{
    auto it = m_json.find(key);
    return it != m_json.end() && !it->is_null();
}

long long ModelConfig::getInt(const std::string &key, long long fallback) const
{
    auto it = m_json.find(key);
    if (it == m_json.end() || it->is_null())
        return fallback;
    if (!it->is_number_integer())
        throw InferenceError(m_source + ": '" + key + "' must be an integer");
    return it->get<long long>();
}

double ModelConfig::getDouble(const std::string &key, double fallback) const
{
    auto it = m_json.find(key);
    if (it == m_json.end() || it->is_null())
        return fallback;
    if (!it->is_number())
        throw InferenceError(m_source + ": '" + key + "' must be a number");
    return it->get<double>();
}

bool ModelConfig::getBool(const std::string &key, bool fallback) const
{
    auto it = m_json.find(key);
    if (it == m_json.end() || it->is_null())
        return fallback;
    if (!it->is_boolean())
        throw InferenceError(m_source + ": '" + key + "' must be true or false");
    return it->get<bool>();
}

std::string ModelConfig::getString(const std::string &key, const std::string &fallback) const
{
    auto it = m_json.find(key);
    if (it == m_json.end() || it->is_null())
        return fallback;
    if (!it->is_string())
        throw InferenceError(m_source + ": '" + key + "' must be a string");
    return it->get<std::string>();
}

std::vector<std::string> ModelConfig::getStringList(const std::string &key) const
{
    std::vector<std::string> out;
    auto it = m_json.find(key);
    if (it == m_json.end() || it->is_null())
        return out;
    if (it->is_string()) { // DeBERTa allows "p2c|c2p"
        std::string s = it->get<std::string>(), cur;
        for (char ch : s) {
            if (ch == '|') { out.push_back(cur); cur.clear(); } else { cur += ch; }
        }
        if (!cur.empty())
            out.push_back(cur);
        return out;
    }
    if (!it->is_array())
        throw InferenceError(m_source + ": '" + key + "' must be a list of strings");
    for (const auto &v : *it) {
        if (!v.is_string())
            throw InferenceError(m_source + ": '" + key + "' must be a list of strings");
        out.push_back(v.get<std::string>());
    }
    return out;
}

int ModelConfig::numLabels() const
{
    if (has("num_labels"))
        return static_cast<int>(getInt("num_labels", 2));
    auto it = m_json.find("id2label");
    if (it != m_json.end() && it->is_object())
        return static_cast<int>(it->size());
    return 2;
}

} // namespace folio::inference
