#pragma once
// LayoutEncoderOptions from a Hugging Face LayoutLMv2 / LayoutLMv3 config.json: the keys both
// models share. The caller sets what differs (scaleBiases, fastQkv).

#include "inference/layers/detail/layoutencoder.h"
#include "inference/checkpoint/modelconfig.h"

namespace folio::inference::detail {

// `defaultEps`: layer_norm_eps when the config has none (v2: 1e-12, v3: 1e-5).
inline LayoutEncoderOptions layoutEncoderOptionsFromConfig(const ModelConfig &c, double defaultEps)
{
    LayoutEncoderOptions o;
    o.hidden = c.getInt("hidden_size", 768);
    o.heads = c.getInt("num_attention_heads", 12);
    o.layers = c.getInt("num_hidden_layers", 12);
    o.intermediate = c.getInt("intermediate_size", 3072);
    o.eps = c.getDouble("layer_norm_eps", defaultEps);
    o.relative1d = c.getBool("has_relative_attention_bias", true);
    o.spatial2d = c.getBool("has_spatial_attention_bias", true);
    o.relBins = static_cast<int>(c.getInt("rel_pos_bins", 32));
    o.maxRel = static_cast<int>(c.getInt("max_rel_pos", 128));
    o.rel2dBins = static_cast<int>(c.getInt("rel_2d_pos_bins", 64));
    o.maxRel2d = static_cast<int>(c.getInt("max_rel_2d_pos", 256));
    return o;
}

} // namespace folio::inference::detail
