// LayoutLMv2 spatial-aware encoder (MODELS.md §2.4): fast_qkv attention, 1-D + 2-D biases added
// unscaled after Q/sqrt(d), masked_fill with finfo.min. The detectron2 visual backbone is not
// ported: a checkpoint holding the bare encoder (`layer.N...`, `rel_pos_bias.weight`) or a model
// whose encoder is fed prepared `hidden_states` runs here.
#include "inference/layers/detail/layoutencoder.h"
#include "inference/layers/detail/layoutlmconfig.h"
#include "inference/models/detail/model.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/errors.h"

#include <limits>
#include <optional>

namespace folio::inference::detail {
namespace {

class LayoutLMv2Encoder : public Model
{
public:
    LayoutLMv2Encoder(const ModelConfig &c, ParamStore &p)
    {
        std::string prefix;
        if (p.has("layer.0.attention.output.dense.weight"))
            prefix = "";
        else if (p.has("encoder.layer.0.attention.output.dense.weight"))
            prefix = "encoder.";
        else if (p.has("layoutlmv2.encoder.layer.0.attention.output.dense.weight"))
            prefix = "layoutlmv2.encoder.";
        else
            throw InferenceError(p.path() + ": no LayoutLMv2 encoder weights (expected 'layer.0...' or 'encoder.layer.0...')");
        if (p.has(prefix.empty() ? "embeddings.word_embeddings.weight" : "visual.backbone.bottom_up.stem.conv1.weight"))
            throw InferenceError(p.path() + ": full LayoutLMv2 checkpoints need the detectron2 visual backbone, "
                                            "which Folio does not port; export the bare encoder instead");
        LayoutEncoderOptions o = layoutEncoderOptionsFromConfig(c, 1e-12);
        o.scaleBiases = false;
        o.fastQkv = c.getBool("fast_qkv", true);
        m_encoder.emplace(o, p, prefix);
    }

    std::string modelType() const override { return "layoutlmv2"; }
    std::vector<std::string> inputNames() const override
    {
        return {"hidden_states", "bbox", "position_ids", "attention_mask", "attention_mask_2d"};
    }

    AtMap forward(const AtMap &in, const ForwardContext &ctx) const override
    {
        const at::Tensor x = requireInput(in, "hidden_states").to(at::kFloat); // [B, L, D]
        const at::Tensor bbox = requireInput(in, "bbox").to(at::kLong);        // [B, L, 4]
        const auto b = x.size(0), l = x.size(1);
        at::Tensor pos = optionalInput(in, "position_ids");
        pos = pos.defined() ? pos.to(at::kLong) : at::arange(l, at::kLong).unsqueeze(0).expand({b, l});
        // Key mask: the extended [B,1,1,L] mask (any non-zero entry masks) or a 0/1 [B, L] mask.
        at::Tensor masked = at::zeros({b, l}, at::kBool);
        const at::Tensor ext = optionalInput(in, "attention_mask");
        if (ext.defined() && ext.dim() == 4)
            masked = ext.reshape({b, l}).ne(0);
        else if (ext.defined())
            masked = ext.reshape({b, l}).eq(0);
        else if (const at::Tensor m2 = optionalInput(in, "attention_mask_2d"); m2.defined())
            masked = m2.eq(0);
        const at::Tensor maskAdd =
            at::zeros({b, l}, at::kFloat).masked_fill(masked, std::numeric_limits<float>::lowest());
        AtMap out;
        out["last_hidden_state"] = m_encoder->forward(x, pos.contiguous(), bbox.contiguous(), maskAdd, ctx);
        return out;
    }

private:
    std::optional<LayoutEncoder> m_encoder;
};

} // namespace

void registerLayoutLMv2()
{
    registerModel("layoutlmv2", [](const ModelConfig &c, ParamStore &p) { return std::make_unique<LayoutLMv2Encoder>(c, p); });
}

} // namespace folio::inference::detail
