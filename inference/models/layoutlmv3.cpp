// LayoutLMv3 (MODELS.md §1): text + image-patch embeddings, the LayoutLM encoder with
// (1-D + 2-D)/sqrt(d) biases, token-classification and extractive-QA heads. HF names.
#include "inference/layers/detail/layoutencoder.h"
#include "inference/layers/detail/layoutlmconfig.h"
#include "inference/layers/detail/robertapositions.h"
#include "inference/models/detail/model.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/errors.h"
#include "inference/training/hf/detail/hfoptim.h" // TrainingDropout

#include <optional>

namespace folio::inference::detail {
namespace {

class LayoutLMv3 : public Model
{
public:
    LayoutLMv3(const ModelConfig &c, ParamStore &p)
    {
        m_prefix = p.has("layoutlmv3.embeddings.word_embeddings.weight") ? "layoutlmv3." : "";
        const std::string &pre = m_prefix;
        const auto d = m_hidden = c.getInt("hidden_size", 768);
        m_heads = c.getInt("num_attention_heads", 12);
        m_eps = c.getDouble("layer_norm_eps", 1e-5);
        m_pad = c.getInt("pad_token_id", 1);
        const auto vocab = c.getInt("vocab_size", 50265);
        const auto maxPos = c.getInt("max_position_embeddings", 512);
        const auto typeVocab = c.getInt("type_vocab_size", 2);
        const auto coord = c.getInt("coordinate_size", 128), shape = c.getInt("shape_size", 128);
        const auto max2d = c.getInt("max_2d_position_embeddings", 1024);
        if (4 * coord + 2 * shape != d)
            throw InferenceError(c.source() + ": 4*coordinate_size + 2*shape_size must equal hidden_size");
        if (d % m_heads != 0)
            throw InferenceError(c.source() + ": hidden_size is not a multiple of num_attention_heads");

        m_word = p.take(pre + "embeddings.word_embeddings.weight", {vocab, d});
        m_type = p.take(pre + "embeddings.token_type_embeddings.weight", {typeVocab, d});
        m_pos = p.take(pre + "embeddings.position_embeddings.weight", {maxPos, d});
        m_x = p.take(pre + "embeddings.x_position_embeddings.weight", {max2d, coord});
        m_y = p.take(pre + "embeddings.y_position_embeddings.weight", {max2d, coord});
        m_h = p.take(pre + "embeddings.h_position_embeddings.weight", {max2d, shape});
        m_w = p.take(pre + "embeddings.w_position_embeddings.weight", {max2d, shape});
        m_embLn = LayerNormW::load(p, pre + "embeddings.LayerNorm", d, m_eps);
        p.ignore(pre + "embeddings.position_ids");

        m_visual = c.getBool("visual_embed", true);
        if (m_visual) {
            const auto ch = c.getInt("num_channels", 3);
            m_patch = c.getInt("patch_size", 16);
            m_inputSize = c.getInt("input_size", 224);
            m_grid = m_inputSize / m_patch;
            m_patchW = p.take(pre + "patch_embed.proj.weight", {d, ch, m_patch, m_patch}); // Conv2d
            m_patchB = p.take(pre + "patch_embed.proj.bias", {d});
            m_cls = p.take(pre + "cls_token", {1, 1, d});
            m_posEmbed = p.take(pre + "pos_embed", {1, m_grid * m_grid + 1, d});
            m_seqLn = LayerNormW::load(p, pre + "LayerNorm", d, m_eps);
            m_visNorm = LayerNormW::load(p, pre + "norm", d, 1e-6);
            m_visualBbox = gridBoxes(m_grid, true);
        }

        LayoutEncoderOptions o = layoutEncoderOptionsFromConfig(c, 1e-5); // hidden d, heads, eps as above
        o.scaleBiases = true;
        o.fastQkv = false;
        m_encoder.emplace(o, p, pre + "encoder.");

        // Heads (only in task checkpoints).
        const auto labels = c.numLabels();
        if (p.has("classifier.dense.weight")) {
            m_clsDense = LinearW::load(p, "classifier.dense", d, d);          // ClassificationHead
            m_clsOut = LinearW::load(p, "classifier.out_proj", d, labels);
            m_head = Head::TokenTwoLayer;
        } else if (p.has("classifier.weight")) {
            m_clsOut = LinearW::load(p, "classifier", d, labels);             // Linear (num_labels < 10)
            m_head = Head::TokenLinear;
        } else if (p.has("qa_outputs.dense.weight")) {
            m_clsDense = LinearW::load(p, "qa_outputs.dense", d, d);
            m_clsOut = LinearW::load(p, "qa_outputs.out_proj", d, 2);
            m_head = Head::QA;
        }
    }

    std::string modelType() const override { return "layoutlmv3"; }
    std::vector<std::string> inputNames() const override
    {
        return {"input_ids", "bbox", "attention_mask", "token_type_ids", "position_ids", "pixel_values"};
    }

    AtMap forward(const AtMap &in, const ForwardContext &ctx) const override
    {
        const at::Tensor ids = requireInput(in, "input_ids").to(at::kLong);          // [B, T]
        const at::Tensor bbox = requireInput(in, "bbox").to(at::kLong);              // [B, T, 4]
        const auto b = ids.size(0), t = ids.size(1);
        at::Tensor mask = optionalInput(in, "attention_mask");                       // [B, T]
        mask = mask.defined() ? mask.to(at::kLong) : at::ones({b, t}, at::kLong);
        at::Tensor types = optionalInput(in, "token_type_ids");
        types = types.defined() ? types.to(at::kLong) : at::zeros({b, t}, at::kLong);
        at::Tensor posIds = optionalInput(in, "position_ids");
        posIds = posIds.defined() ? posIds.to(at::kLong) : robertaPositionIds(ids, m_pad);
        if (bbox.size(0) != b || bbox.size(1) != t || bbox.size(2) != 4)
            throw InferenceError("bbox must be [B, T, 4] matching input_ids " + std::to_string(b) + "x" + std::to_string(t));
        if (bbox.numel() && (bbox.min().item<std::int64_t>() < 0 || bbox.max().item<std::int64_t>() >= m_x.size(0)))
            throw InferenceError("bbox coordinates must lie in [0, " + std::to_string(m_x.size(0) - 1) + "]");

        // Text embeddings [B, T, D]: ((word + type) + pos) + spatial -> LayerNorm.
        at::Tensor e = at::embedding(m_word, ids) + at::embedding(m_type, types);
        e = e + at::embedding(m_pos, posIds);
        const at::Tensor x0 = bbox.select(2, 0), y0 = bbox.select(2, 1), x1 = bbox.select(2, 2), y1 = bbox.select(2, 3);
        const at::Tensor spatial = at::cat({at::embedding(m_x, x0), at::embedding(m_y, y0), at::embedding(m_x, x1),
                                            at::embedding(m_y, y1), at::embedding(m_h, (y1 - y0).clamp(0, 1023)),
                                            at::embedding(m_w, (x1 - x0).clamp(0, 1023))},
                                           -1);
        const TrainingDropout &drop = currentTrainingDropout(); // HfFineTuner's training forward; zero otherwise
        e = m_embLn(e + spatial);
        if (drop.hidden > 0)
            e = at::dropout(e, drop.hidden, true);

        at::Tensor pos = at::arange(t, at::kLong).unsqueeze(0).expand({b, t});
        at::Tensor boxes = bbox, keyMask = mask;
        const at::Tensor pixels = optionalInput(in, "pixel_values");
        if (pixels.defined()) {
            if (!m_visual)
                throw InferenceError("pixel_values given but the checkpoint has visual_embed = false");
            if (pixels.dim() != 4 || pixels.size(2) != m_inputSize || pixels.size(3) != m_inputSize)
                throw InferenceError("pixel_values must be [B, C, " + std::to_string(m_inputSize) + ", "
                                     + std::to_string(m_inputSize) + "]");
            // Visual embeddings [B, 1 + g*g, D]: conv patches, CLS, + pos_embed, norm (eps 1e-6).
            at::Tensor v = at::conv2d(pixels.to(at::kFloat), m_patchW, m_patchB, {m_patch, m_patch});
            v = v.flatten(2).transpose(1, 2);
            v = at::cat({m_cls.expand({b, -1, -1}), v}, 1) + m_posEmbed;
            v = m_visNorm(v);
            e = m_seqLn(at::cat({e, v}, 1));
            if (drop.hidden > 0)
                e = at::dropout(e, drop.hidden, true);
            const auto nv = v.size(1);
            pos = at::cat({pos, at::arange(nv, at::kLong).unsqueeze(0).expand({b, nv})}, 1);
            boxes = at::cat({bbox, m_visualBbox.unsqueeze(0).expand({b, -1, -1})}, 1);
            keyMask = at::cat({mask, at::ones({b, nv}, at::kLong)}, 1);
        }
        const at::Tensor maskAdd = additiveMask(keyMask).view({b, -1}); // [B, N]
        ctx.record("hidden_states.0", e); // the encoder's input (text + image tokens), as LayoutLMv2 / LiLT record it
        const at::Tensor hs = m_encoder->forward(e, pos.contiguous(), boxes.contiguous(), maskAdd, ctx);

        AtMap out;
        out["last_hidden_state"] = hs;
        switch (m_head) {
        case Head::TokenLinear:
            out["logits"] = m_clsOut(at::dropout(hs.narrow(1, 0, t), drop.hidden, drop.hidden > 0));
            break;
        case Head::TokenTwoLayer: {
            // LayoutLMv3ForTokenClassification's dropout, then the head's own around dense + tanh.
            const double pc = drop.classifier;
            const at::Tensor x = at::dropout(at::dropout(hs.narrow(1, 0, t), drop.hidden, drop.hidden > 0), pc, pc > 0);
            out["logits"] = m_clsOut(at::dropout(at::tanh(m_clsDense(x)), pc, pc > 0));
            break;
        }
        case Head::QA: {
            const at::Tensor logits = m_clsOut(at::tanh(m_clsDense(hs))); // [B, N, 2], image tokens included
            out["logits"] = logits;
            out["start_logits"] = logits.select(2, 0).contiguous();
            out["end_logits"] = logits.select(2, 1).contiguous();
            break;
        }
        case Head::None:
            break;
        }
        return out;
    }

    void quantizeDynamicInt8() override { m_encoder->quantizeDynamicInt8(); } // the encoder's Linears (issue 35)

private:
    enum class Head { None, TokenLinear, TokenTwoLayer, QA };
    std::string m_prefix;
    std::int64_t m_hidden = 0, m_heads = 0, m_pad = 1, m_patch = 16, m_inputSize = 224, m_grid = 14;
    double m_eps = 1e-5;
    bool m_visual = false;
    at::Tensor m_word, m_type, m_pos, m_x, m_y, m_h, m_w;
    LayerNormW m_embLn, m_seqLn, m_visNorm;
    at::Tensor m_patchW, m_patchB, m_cls, m_posEmbed, m_visualBbox;
    std::optional<LayoutEncoder> m_encoder;
    Head m_head = Head::None;
    LinearW m_clsDense, m_clsOut;
};

} // namespace

void registerLayoutLMv3()
{
    registerModel("layoutlmv3", [](const ModelConfig &c, ParamStore &p) { return std::make_unique<LayoutLMv3>(c, p); });
}

} // namespace folio::inference::detail
