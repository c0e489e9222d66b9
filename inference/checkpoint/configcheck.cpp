#include "inference/checkpoint/configcheck.h"

#include "inference/checkpoint/detail/backboneconfig.h"
#include "inference/errors.h"

#include <algorithm>
#include <cctype>

namespace folio::inference {

namespace {

constexpr long long kMega = 1024 * 1024;

std::string shapeText(const std::vector<std::int64_t> &shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

// A tensor whose name ends with `suffix` (at a '.' boundary) carries config key `key` in `dim`.
struct ShapeRule
{
    const char *suffix;
    int dim;
    const char *key;
};

const ShapeRule kShapeRules[] = {
    {"word_embeddings.weight", 0, "vocab_size"},
    {"shared.weight", 0, "vocab_size"},
    {"shared.weight", 1, "d_model"},
    {"attention.output.dense.weight", 0, "hidden_size"},
    {"attention.output.dense.weight", 1, "hidden_size"},
    {"intermediate.dense.weight", 0, "intermediate_size"},
    {"embeddings.position_embeddings.weight", 0, "max_position_embeddings"},
    {"x_position_embeddings.weight", 0, "max_2d_position_embeddings"},
    {"rel_pos_bias.weight", 0, "num_attention_heads"},
    {"rel_pos_bias.weight", 1, "rel_pos_bins"},
    {"rel_pos_x_bias.weight", 1, "rel_2d_pos_bins"},
    {"self_attn.out_proj.weight", 0, "d_model"},
};

bool endsWithSegment(const std::string &name, const std::string &suffix)
{
    if (name.size() < suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        return false;
    return name.size() == suffix.size() || name[name.size() - suffix.size() - 1] == '.';
}

// Layer stacks: tensors named "<...>.<marker><index>.<...>" count the layers of `key`.
struct LayerRule
{
    const char *marker;
    const char *key;
};

const LayerRule kLayerRules[] = {
    {"encoder.layer.", "num_hidden_layers"},
    {"encoder.layers.", "encoder_layers"},
    {"decoder.layers.", "decoder_layers"},
};

// Highest layer index + 1 under `marker`, 0 when no tensor has it.
long long layerCount(const TensorShapes &shapes, const std::string &marker)
{
    long long count = 0;
    for (const auto &entry : shapes) {
        const std::string &name = entry.first;
        std::size_t pos = name.find(marker);
        while (pos != std::string::npos) {
            if (pos == 0 || name[pos - 1] == '.') {
                std::size_t i = pos + marker.size();
                long long index = 0;
                std::size_t digits = 0;
                while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])) && digits < 9) {
                    index = index * 10 + (name[i] - '0');
                    ++i;
                    ++digits;
                }
                if (digits > 0 && i < name.size() && name[i] == '.')
                    count = std::max(count, index + 1);
            }
            pos = name.find(marker, pos + 1);
        }
    }
    return count;
}

void checkDivides(const ModelConfig &config, const char *widthKey, const char *headsKey)
{
    if (!config.has(widthKey) || !config.has(headsKey))
        return;
    const long long width = config.getInt(widthKey, 0), heads = config.getInt(headsKey, 1);
    if (width % heads != 0)
        throw InferenceError(config.source() + ": '" + widthKey + "' " + std::to_string(width)
                             + " is not a multiple of '" + headsKey + "' " + std::to_string(heads));
}

bool anyTensorUnder(const TensorShapes &shapes, const std::string &part)
{
    return std::any_of(shapes.begin(), shapes.end(), [&](const auto &kv) { return kv.first.find(part) != std::string::npos; });
}

// What a model type builds from keys outside the size table (issue 51: `info --checkpoint` called
// runnable what the model's constructor then refused). The constructors keep their own checks; these
// are the ones a config can fail before any weight is read, for info and every loader alike.
void checkModelKeys(const ModelConfig &config, const TensorShapes &shapes)
{
    const std::string &src = config.source();
    const std::string type = config.modelType();
    if (type == "lilt") {
        const long long d = config.getInt("hidden_size", 768), heads = config.getInt("num_attention_heads", 12);
        const long long shrink = config.getInt("channel_shrink_ratio", 4);
        if (heads < 1 || d < 1 || d % heads != 0) // the table's ranges and checkDivides cover the given keys
            throw InferenceError(src + ": 'hidden_size' " + std::to_string(d) + " is not a positive multiple of "
                                 "'num_attention_heads' " + std::to_string(heads));
        if (shrink < 1 || (d / heads) % shrink != 0)
            throw InferenceError(src + ": 'channel_shrink_ratio' is " + std::to_string(shrink) + "; the head size "
                                 "hidden_size / num_attention_heads (" + std::to_string(d / heads)
                                 + ") must be a positive multiple of it (the layout flow is hidden_size / "
                                   "channel_shrink_ratio wide)");
        if (d % 6 != 0)
            throw InferenceError(src + ": 'hidden_size' " + std::to_string(d)
                                 + " is not a multiple of 6 (LiLT's six box tables are hidden_size / 6 wide)");
    }
    if (type != "layoutlmv2")
        return;
    // image_feature_pool_shape [rows, cols(, channels)]: the pooled grid adds rows x cols tokens.
    std::int64_t channels = 0;
    if (config.has("image_feature_pool_shape")) {
        const nlohmann::json &pool = config.json().at("image_feature_pool_shape");
        if (!pool.is_array() || pool.size() < 2 || pool.size() > 3)
            throw InferenceError(src + ": 'image_feature_pool_shape' must be [rows, cols] or [rows, cols, channels]");
        for (std::size_t i = 0; i < pool.size(); ++i) {
            const std::int64_t hi = i < 2 ? 256 : 4096;
            if (!pool[i].is_number_integer() || pool[i].get<std::int64_t>() < 1 || pool[i].get<std::int64_t>() > hi)
                throw InferenceError(src + ": 'image_feature_pool_shape' is " + pool.dump() + "; rows and cols must be "
                                     "integers in 1..256, channels in 1..4096");
        }
        const std::int64_t grid = pool[0].get<std::int64_t>() * pool[1].get<std::int64_t>();
        const long long positions = config.getInt("max_position_embeddings", 512);
        if (grid > positions)
            throw InferenceError(src + ": 'image_feature_pool_shape' " + pool.dump() + " makes " + std::to_string(grid)
                                 + " image tokens, more than max_position_embeddings " + std::to_string(positions));
        if (pool.size() == 3)
            channels = pool[2].get<std::int64_t>();
    }
    // The visual backbone is built when the weights have it; with no header to tell (pytorch_model.bin)
    // its options are checked too, so a description and a load agree either way.
    if (shapes.empty() || anyTensorUnder(shapes, "visual.backbone.")) {
        const detail::ResNetFpnOptions backbone = detail::resNetFpnOptionsFromConfig(config);
        if (channels != 0 && channels != backbone.fpnOut)
            throw InferenceError(src + ": 'image_feature_pool_shape' channels " + std::to_string(channels)
                                 + " differ from detectron2_config_args MODEL.FPN.OUT_CHANNELS "
                                 + std::to_string(backbone.fpnOut));
    }
}

} // namespace

const std::vector<ConfigSizeLimit> &configSizeLimits()
{
    static const std::vector<ConfigSizeLimit> limits = {
        {"hidden_size", 1, 16384},
        {"d_model", 1, 16384},
        {"embedding_size", 1, 16384},
        {"num_attention_heads", 1, 256},
        {"encoder_attention_heads", 1, 256},
        {"decoder_attention_heads", 1, 256},
        {"num_hidden_layers", 1, 256},
        {"encoder_layers", 1, 256},
        {"decoder_layers", 1, 256},
        {"intermediate_size", 1, 131072},
        {"encoder_ffn_dim", 1, 131072},
        {"decoder_ffn_dim", 1, 131072},
        {"vocab_size", 1, 1000000},
        {"max_position_embeddings", 1, kMega},
        {"max_encoder_position_embeddings", 1, kMega},
        {"max_decoder_position_embeddings", 1, kMega},
        {"max_2d_position_embeddings", 1, 65536},
        {"type_vocab_size", 0, 1024},
        {"num_labels", 1, 65536},
        {"rel_pos_bins", 1, 4096},
        {"rel_2d_pos_bins", 1, 4096},
        {"max_rel_pos", 1, kMega},
        {"max_rel_2d_pos", 1, kMega},
        {"coordinate_size", 0, 16384},
        {"shape_size", 0, 16384},
        {"position_buckets", -1, 65536},
        {"max_relative_positions", -1, kMega},
        {"gap_buckets", 1, 4096},
        {"max_words", 1, kMega},
        {"max_pieces_per_word", 1, 1024},
        {"window_stride", 1, kMega},
        {"patch_size", 1, 1024},
        {"input_size", 1, 8192},
        {"num_channels", 1, 16},
        {"t2t_radius", 1, 4096},
        {"sibling_window", 0, 4096},
        {"max_text_tokens", 1, kMega},
        {"max_span_tokens", 1, 65536},
        {"num_beams", 1, 64},
        {"max_length", 0, kMega},
        {"min_length", 0, kMega},
        {"channel_shrink_ratio", 1, 16384},
    };
    return limits;
}

void checkConfigSizes(const ModelConfig &config, const TensorShapes &shapes, const std::string &weightsLabel)
{
    const std::string &src = config.source();
    for (const ConfigSizeLimit &limit : configSizeLimits()) {
        if (!config.has(limit.key))
            continue;
        const long long v = config.getInt(limit.key, 0); // throws naming the key when not an integer
        if (v < limit.min || v > limit.max)
            throw InferenceError(src + ": '" + limit.key + "' is " + std::to_string(v) + "; allowed "
                                 + std::to_string(limit.min) + ".." + std::to_string(limit.max));
    }
    checkDivides(config, "hidden_size", "num_attention_heads");
    checkDivides(config, "d_model", "encoder_attention_heads");
    checkDivides(config, "d_model", "decoder_attention_heads");
    checkModelKeys(config, shapes);
    if (shapes.empty())
        return;

    for (const LayerRule &rule : kLayerRules) {
        if (!config.has(rule.key))
            continue;
        const long long found = layerCount(shapes, rule.marker);
        const long long v = config.getInt(rule.key, 0);
        if (found > 0 && found != v)
            throw InferenceError(src + ": '" + rule.key + "' is " + std::to_string(v) + " but " + weightsLabel + " has "
                                 + std::to_string(found) + " layer(s) under '" + rule.marker + "N'");
    }
    for (const ShapeRule &rule : kShapeRules) {
        if (!config.has(rule.key))
            continue;
        const long long v = config.getInt(rule.key, 0);
        for (const auto &[name, shape] : shapes) {
            if (!endsWithSegment(name, rule.suffix) || static_cast<int>(shape.size()) <= rule.dim)
                continue;
            if (shape[rule.dim] != v)
                throw InferenceError(src + ": '" + rule.key + "' is " + std::to_string(v) + " but tensor '" + name
                                     + "' in " + weightsLabel + " has shape " + shapeText(shape));
        }
    }
}

} // namespace folio::inference
