#pragma once
// detectron2's ResNet(-X) + FPN backbone as LayoutLMv2 / LayoutXLM use it (`visual.backbone.*`):
// build_resnet_fpn_backbone with FrozenBN, read from config.json's `detectron2_config_args` over
// detectron2's defaults. Only what LayoutLMv2 consumes is computed: the pixel normalisation and p2
// (stride 4); p3..p6 are discarded by the reference and not computed here (their weights are still
// shape-checked). Inference only.

#include "inference/detail/aten.h"
#include "inference/checkpoint/detail/backboneconfig.h"
#include "inference/checkpoint/modelconfig.h"

#include <array>
#include <string>
#include <vector>

namespace folio::inference::detail {

class ParamStore;

// ResNetFpnOptions and resNetFpnOptionsFromConfig: inference/checkpoint/detail/backboneconfig.h (torch-free).

class ResNetFpn
{
public:
    ResNetFpn() = default;
    // prefix: state-dict prefix incl. the dot ("visual.backbone."). Every weight's shape is
    // checked against the options before use; FrozenBN `num_batches_tracked` entries are ignored.
    ResNetFpn(const ResNetFpnOptions &o, ParamStore &p, const std::string &prefix);

    bool isValid() const { return m_stemConv.weight.defined(); }
    std::int64_t outChannels() const { return m_o.fpnOut; }
    const ResNetFpnOptions &options() const { return m_o; }

    // image: [B, 3, H, W] uint8 or float, BGR 0..255, H and W multiples of 32 (what the reference's
    // FPN sum can take). Returns p2 [B, fpnOut, H/4, W/4]. Throws InferenceError on a wrong shape.
    at::Tensor p2(const at::Tensor &image) const;

private:
    struct ConvBn
    {
        at::Tensor weight;                              // conv, no bias
        at::Tensor bnWeight, bnBias, bnMean, bnVar;     // FrozenBN buffers
        std::int64_t stride = 1, padding = 0, groups = 1;
        at::Tensor operator()(const at::Tensor &x) const;
    };
    struct Block
    {
        ConvBn conv1, conv2, conv3, shortcut; // shortcut undefined when channels agree
    };
    static ConvBn loadConvBn(ParamStore &p, const std::string &name, std::int64_t out, std::int64_t in,
                             std::int64_t k, std::int64_t stride, std::int64_t groups);

    ResNetFpnOptions m_o;
    at::Tensor m_mean, m_std; // [3, 1, 1]
    ConvBn m_stemConv;
    std::vector<std::vector<Block>> m_stages; // res2..res5
    std::array<at::Tensor, 4> m_latW, m_latB; // fpn_lateral2..5
    at::Tensor m_out2W, m_out2B;              // fpn_output2
};

} // namespace folio::inference::detail
