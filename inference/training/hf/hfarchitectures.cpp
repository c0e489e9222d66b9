// Per-architecture facts of Hugging Face fine-tuning (see hfarchitectures.h).
#include "inference/training/hf/hfarchitectures.h"

#include "inference/checkpoint/detail/backboneconfig.h"

#include <algorithm>

namespace folio::inference {

namespace {

bool startsWith(const std::string &s, const std::string &prefix)
{
    return s.compare(0, prefix.size(), prefix) == 0;
}

bool endsWith(const std::string &s, const std::string &suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

const char *const kV2Backbone = "layoutlmv2.visual.backbone.";

bool hasV2Backbone(const std::vector<std::string> &names)
{
    return std::any_of(names.begin(), names.end(), [](const std::string &n) { return startsWith(n, kV2Backbone); });
}

} // namespace

std::vector<std::string> hfFineTunableModelTypes()
{
    return {"layoutlmv3", "lilt", "layoutlmv2"};
}

std::vector<std::string> hfStepModelTypes()
{
    std::vector<std::string> out = hfFineTunableModelTypes();
    out.push_back("markuplm");
    return out;
}

std::vector<std::pair<std::string, std::vector<std::int64_t>>> hfCarriedTensors(const ModelConfig &config)
{
    if (config.modelType() != "markuplm")
        return {};
    const std::int64_t d = config.getInt("hidden_size", 768);
    const std::int64_t in = config.getInt("max_depth", 50) * config.getInt("xpath_unit_hidden_size", 32);
    const std::string xp = "markuplm.embeddings.xpath_embeddings.xpath_unitseq2_embeddings.";
    return {{xp + "weight", {d, in}}, {xp + "bias", {d}}};
}

std::string hfTokenClassificationArchitecture(const std::string &modelType)
{
    if (modelType == "layoutlmv3")
        return "LayoutLMv3ForTokenClassification";
    if (modelType == "lilt")
        return "LiltForTokenClassification";
    if (modelType == "layoutlmv2")
        return "LayoutLMv2ForTokenClassification";
    if (modelType == "markuplm")
        return "MarkupLMForTokenClassification";
    return {};
}

std::vector<std::string> hfFrozenParameters(const ModelConfig &config, const std::vector<std::string> &names)
{
    std::vector<std::string> out;
    if (config.modelType() != "layoutlmv2" || !hasV2Backbone(names))
        return out;
    const int freezeAt = detail::resNetFpnOptionsFromConfig(config).freezeAt;
    const std::string bottomUp = std::string(kV2Backbone) + "bottom_up.";
    for (const std::string &n : names) {
        if (!startsWith(n, bottomUp))
            continue;
        const std::string rest = n.substr(bottomUp.size());
        bool frozen = endsWith(rest, ".norm.weight") || endsWith(rest, ".norm.bias") || endsWith(rest, ".norm.running_mean")
                      || endsWith(rest, ".norm.running_var");
        if (freezeAt >= 1 && startsWith(rest, "stem."))
            frozen = true;
        for (int stage = 2; stage <= std::min(freezeAt, 5); ++stage)
            if (startsWith(rest, "res" + std::to_string(stage) + "."))
                frozen = true;
        if (frozen)
            out.push_back(n);
    }
    return out;
}

std::string hfImageInputName(const ModelConfig &config, const std::vector<std::string> &names)
{
    if (config.modelType() == "layoutlmv2")
        return hasV2Backbone(names) ? "image" : "";
    if (config.modelType() == "layoutlmv3" && config.getBool("visual_embed", true)
        && std::find(names.begin(), names.end(), "layoutlmv3.patch_embed.proj.weight") != names.end())
        return "pixel_values";
    return {};
}

long long hfMaxTextPositions(const ModelConfig &config)
{
    if (config.modelType() == "layoutlmv2")
        return config.getInt("max_position_embeddings", 512);
    return config.getInt("max_position_embeddings", 514) - 2;
}

} // namespace folio::inference
