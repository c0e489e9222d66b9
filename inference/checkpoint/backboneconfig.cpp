// detectron2_config_args read into the backbone's options (see detail/backboneconfig.h).
#include "inference/checkpoint/detail/backboneconfig.h"

#include "inference/errors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <string>

namespace folio::inference::detail {
namespace {

constexpr const char *kArgs = "detectron2_config_args";

// One detectron2 option from config.json's detectron2_config_args, with detectron2's default.
class Detectron2Args
{
public:
    explicit Detectron2Args(const ModelConfig &c) : m_source(c.source())
    {
        if (c.json().contains(kArgs) && !c.json().at(kArgs).is_null()) {
            m_args = c.json().at(kArgs);
            if (!m_args.is_object())
                throw InferenceError(m_source + ": '" + kArgs + "' must be an object of detectron2 options");
        }
    }

    [[noreturn]] void fail(const std::string &key, const std::string &why) const
    {
        throw InferenceError(m_source + ": " + kArgs + " '" + key + "' " + why);
    }
    const nlohmann::json *find(const std::string &key) const
    {
        const auto it = m_args.find(key);
        return it == m_args.end() || it->is_null() ? nullptr : &*it;
    }
    std::int64_t integer(const std::string &key, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const
    {
        const nlohmann::json *v = find(key);
        if (!v)
            return fallback;
        if (!v->is_number_integer())
            fail(key, "must be an integer");
        const auto x = v->get<std::int64_t>();
        if (x < lo || x > hi)
            fail(key, "is " + std::to_string(x) + ", allowed " + std::to_string(lo) + ".." + std::to_string(hi));
        return x;
    }
    bool boolean(const std::string &key, bool fallback) const
    {
        const nlohmann::json *v = find(key);
        if (!v)
            return fallback;
        if (!v->is_boolean())
            fail(key, "must be true or false");
        return v->get<bool>();
    }
    std::string string(const std::string &key, const std::string &fallback) const
    {
        const nlohmann::json *v = find(key);
        if (!v)
            return fallback;
        if (!v->is_string())
            fail(key, "must be a string");
        return v->get<std::string>();
    }
    std::vector<std::string> strings(const std::string &key, const std::vector<std::string> &fallback) const
    {
        const nlohmann::json *v = find(key);
        if (!v)
            return fallback;
        if (!v->is_array() || v->size() > 16)
            fail(key, "must be a list of feature names");
        std::vector<std::string> out;
        for (const auto &e : *v) {
            if (!e.is_string())
                fail(key, "must be a list of feature names");
            out.push_back(e.get<std::string>());
        }
        return out;
    }
    std::array<double, 3> triple(const std::string &key, const std::array<double, 3> &fallback) const
    {
        const nlohmann::json *v = find(key);
        if (!v)
            return fallback;
        if (!v->is_array() || v->size() != 3)
            fail(key, "must list 3 per-channel values (Folio runs 3-channel images only)");
        std::array<double, 3> out{};
        for (std::size_t i = 0; i < 3; ++i) {
            if (!(*v)[i].is_number())
                fail(key, "must list numbers");
            out[i] = (*v)[i].get<double>();
        }
        return out;
    }
    const nlohmann::json &all() const { return m_args; }

private:
    std::string m_source;
    nlohmann::json m_args = nlohmann::json::object();
};

bool startsWith(const std::string &s, const char *prefix)
{
    return s.rfind(prefix, 0) == 0;
}

} // namespace

std::vector<int> ResNetFpnOptions::blocksPerStage() const
{
    switch (depth) {
    case 50: return {3, 4, 6, 3};
    case 101: return {3, 4, 23, 3};
    default: return {3, 8, 36, 3}; // 152
    }
}

ResNetFpnOptions resNetFpnOptionsFromConfig(const ModelConfig &c)
{
    const Detectron2Args a(c);
    // Keys that shape the backbone must be ones Folio knows; the rest of the detectron2 config (RPN,
    // ROI heads, anchors, solver...) builds parts the reference discards.
    static const std::set<std::string> known = {
        "MODEL.BACKBONE.NAME", "MODEL.BACKBONE.FREEZE_AT", "MODEL.RESNETS.DEPTH", "MODEL.RESNETS.OUT_FEATURES",
        "MODEL.RESNETS.NUM_GROUPS", "MODEL.RESNETS.NORM", "MODEL.RESNETS.WIDTH_PER_GROUP",
        "MODEL.RESNETS.STRIDE_IN_1X1", "MODEL.RESNETS.RES5_DILATION", "MODEL.RESNETS.RES2_OUT_CHANNELS",
        "MODEL.RESNETS.STEM_OUT_CHANNELS", "MODEL.RESNETS.DEFORM_ON_PER_STAGE", "MODEL.RESNETS.DEFORM_MODULATED",
        "MODEL.RESNETS.DEFORM_NUM_GROUPS",
        // In Hugging Face's default detectron2_config_args; detectron2 never reads them.
        "MODEL.RESNETS.ASPECT_RATIOS", "MODEL.RESNETS.SIZES",
        "MODEL.FPN.IN_FEATURES", "MODEL.FPN.OUT_CHANNELS", "MODEL.FPN.NORM", "MODEL.FPN.FUSE_TYPE"};
    for (const auto &item : a.all().items()) {
        const std::string &k = item.key();
        if ((startsWith(k, "MODEL.RESNETS.") || startsWith(k, "MODEL.FPN.") || startsWith(k, "MODEL.BACKBONE."))
            && !known.count(k))
            a.fail(k, "is a backbone option Folio does not know; refusing rather than ignoring it");
    }

    const std::string builder = a.string("MODEL.BACKBONE.NAME", "build_resnet_backbone");
    if (builder != "build_resnet_fpn_backbone")
        a.fail("MODEL.BACKBONE.NAME", "is '" + builder + "': only build_resnet_fpn_backbone (LayoutLMv2's p2 feature) is supported");
    const std::string norm = a.string("MODEL.RESNETS.NORM", "FrozenBN");
    if (norm != "FrozenBN")
        a.fail("MODEL.RESNETS.NORM", "is '" + norm + "': only FrozenBN is supported");
    if (const nlohmann::json *d = a.find("MODEL.RESNETS.DEFORM_ON_PER_STAGE")) {
        if (!d->is_array())
            a.fail("MODEL.RESNETS.DEFORM_ON_PER_STAGE", "must be a list of 4 booleans");
        for (const auto &e : *d)
            if (!e.is_boolean() || e.get<bool>())
                a.fail("MODEL.RESNETS.DEFORM_ON_PER_STAGE", "turns on deformable convolution, which Folio does not port");
    }
    a.integer("MODEL.RESNETS.RES5_DILATION", 1, 1, 1); // dilation 2 is not ported
    const int freezeAt = int(a.integer("MODEL.BACKBONE.FREEZE_AT", 2, 0, 5)); // fine-tuning only
    const std::string fpnNorm = a.string("MODEL.FPN.NORM", "");
    if (!fpnNorm.empty())
        a.fail("MODEL.FPN.NORM", "is '" + fpnNorm + "': only the FPN without norm is supported");
    const std::string fuse = a.string("MODEL.FPN.FUSE_TYPE", "sum");
    if (fuse != "sum")
        a.fail("MODEL.FPN.FUSE_TYPE", "is '" + fuse + "': only 'sum' is supported");
    const std::vector<std::string> stages = {"res2", "res3", "res4", "res5"};
    if (a.strings("MODEL.FPN.IN_FEATURES", {}) != stages)
        a.fail("MODEL.FPN.IN_FEATURES", "must be [res2, res3, res4, res5] (the p2 feature LayoutLMv2 pools)");
    const auto outFeatures = a.strings("MODEL.RESNETS.OUT_FEATURES", {"res4"});
    for (const std::string &s : stages)
        if (std::find(outFeatures.begin(), outFeatures.end(), s) == outFeatures.end())
            a.fail("MODEL.RESNETS.OUT_FEATURES", "lacks '" + s + "', which the FPN reads");

    ResNetFpnOptions o;
    o.depth = static_cast<int>(a.integer("MODEL.RESNETS.DEPTH", 50, 18, 152));
    if (o.depth != 50 && o.depth != 101 && o.depth != 152)
        a.fail("MODEL.RESNETS.DEPTH", "is " + std::to_string(o.depth) + ": only the bottleneck depths 50, 101, 152 are supported");
    o.groups = a.integer("MODEL.RESNETS.NUM_GROUPS", 1, 1, 1024);
    o.widthPerGroup = a.integer("MODEL.RESNETS.WIDTH_PER_GROUP", 64, 1, 4096);
    if (o.groups * o.widthPerGroup > 8192)
        a.fail("MODEL.RESNETS.WIDTH_PER_GROUP", "times NUM_GROUPS exceeds 8192 bottleneck channels");
    o.stemOut = a.integer("MODEL.RESNETS.STEM_OUT_CHANNELS", 64, 1, 4096);
    o.res2Out = a.integer("MODEL.RESNETS.RES2_OUT_CHANNELS", 256, 1, 4096);
    o.fpnOut = a.integer("MODEL.FPN.OUT_CHANNELS", 256, 1, 4096);
    o.strideIn1x1 = a.boolean("MODEL.RESNETS.STRIDE_IN_1X1", true);
    o.freezeAt = freezeAt;
    o.pixelMean = a.triple("MODEL.PIXEL_MEAN", o.pixelMean);
    o.pixelStd = a.triple("MODEL.PIXEL_STD", o.pixelStd);
    for (double s : o.pixelStd)
        if (!(s > 0.0))
            a.fail("MODEL.PIXEL_STD", "must be positive");
    return o;
}

} // namespace folio::inference::detail
