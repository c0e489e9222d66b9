#pragma once
// The options of detectron2's ResNet(-X) + FPN backbone (LayoutLMv2 / LayoutXLM `visual.backbone.*`)
// read from config.json's `detectron2_config_args` over detectron2's defaults. Torch-free: the
// config check every loader and `folio-cli info --checkpoint` run (configcheck.h, issue 51) reads
// them with the same function the backbone is built from (layers/detail/resnetfpn.h), so info
// cannot call runnable what predict refuses.

#include "inference/checkpoint/modelconfig.h"

#include <array>
#include <cstdint>
#include <vector>

namespace folio::inference::detail {

struct ResNetFpnOptions
{
    int depth = 50;                // MODEL.RESNETS.DEPTH: 50, 101 or 152 (bottleneck blocks)
    std::int64_t groups = 1;       // MODEL.RESNETS.NUM_GROUPS
    std::int64_t widthPerGroup = 64; // MODEL.RESNETS.WIDTH_PER_GROUP
    std::int64_t stemOut = 64;     // MODEL.RESNETS.STEM_OUT_CHANNELS
    std::int64_t res2Out = 256;    // MODEL.RESNETS.RES2_OUT_CHANNELS
    std::int64_t fpnOut = 256;     // MODEL.FPN.OUT_CHANNELS
    bool strideIn1x1 = true;       // MODEL.RESNETS.STRIDE_IN_1X1
    // MODEL.BACKBONE.FREEZE_AT: while fine-tuning, the stem (1) and res2..res<k> (k >= 2) take no
    // gradient (detectron2's ResNet.freeze); inference ignores it.
    int freezeAt = 2;
    // MODEL.PIXEL_MEAN (detectron2's default: LayoutLMv2's config.json usually omits it) and
    // MODEL.PIXEL_STD (detectron2's default is 1; HF's default args set [57.375, 57.12, 58.395]).
    std::array<double, 3> pixelMean{103.530, 116.280, 123.675};
    std::array<double, 3> pixelStd{1.0, 1.0, 1.0};

    std::vector<int> blocksPerStage() const; // res2..res5
};

// Reads `detectron2_config_args` (absent keys: detectron2's defaults). Throws InferenceError naming
// config.json and the key for options Folio does not port (non-FrozenBN norm, deformable convs,
// res5 dilation, depth 18/34, other backbone builders, FPN norm / avg fusion, other FPN inputs),
// for unknown keys under MODEL.RESNETS / MODEL.FPN / MODEL.BACKBONE, and for sizes out of range.
ResNetFpnOptions resNetFpnOptionsFromConfig(const ModelConfig &c);

} // namespace folio::inference::detail
