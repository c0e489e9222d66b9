#include "inference/checkpoint/configcheck.h"

#include "inference/errors.h"

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
