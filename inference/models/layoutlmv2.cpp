// LayoutLMv2 / LayoutXLM (MODELS.md §2.4). Two forms, chosen by the weights present:
//  - the full LayoutLMv2Model (`embeddings.*`, `visual.*`, `encoder.*`, `pooler.*`, optionally under
//    `layoutlmv2.` with a token-classification `classifier`): text embeddings, the detectron2
//    ResNeXt-FPN backbone's pooled p2 grid as visual tokens (layers/resnetfpn.cpp), the spatial-aware
//    encoder over [text; visual] and the pooler. Without `visual.backbone.*` weights it runs text +
//    layout only and says so (Model::warnings());
//  - the bare spatial-aware encoder (`layer.N...` / `encoder.layer.N...`) fed prepared `hidden_states`.
// Encoder: fast_qkv attention, 1-D + 2-D biases added unscaled after Q/sqrt(d), masked_fill with finfo.min.
#include "inference/layers/detail/layoutencoder.h"
#include "inference/layers/detail/layoutlmconfig.h"
#include "inference/layers/detail/relbias.h"
#include "inference/layers/detail/resnetfpn.h"
#include "inference/models/detail/model.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/training/hf/detail/hfoptim.h" // TrainingDropout
#include "inference/errors.h"

#include <nlohmann/json.hpp>

#include <array>
#include <limits>
#include <optional>

namespace folio::inference::detail {
namespace {

// The bare encoder fed prepared hidden_states (the layoutlmv2_encoder parity case).
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

    void quantizeDynamicInt8() override { m_encoder->quantizeDynamicInt8(); } // the encoder's Linears (issue 35)

private:
    std::optional<LayoutEncoder> m_encoder;
};

// LayoutLMv2Model (+ LayoutLMv2ForTokenClassification by its `classifier`). Sequence: text tokens,
// then the gh*gw visual tokens.
class LayoutLMv2 : public Model
{
public:
    LayoutLMv2(const ModelConfig &c, ParamStore &p, const std::string &pre)
    {
        const auto d = c.getInt("hidden_size", 768);
        const double eps = c.getDouble("layer_norm_eps", 1e-12);
        const auto vocab = c.getInt("vocab_size", 30522);
        const auto maxPos = c.getInt("max_position_embeddings", 512);
        const auto typeVocab = c.getInt("type_vocab_size", 2);
        const auto coord = c.getInt("coordinate_size", 128), shape = c.getInt("shape_size", 128);
        const auto max2d = c.getInt("max_2d_position_embeddings", 1024);
        if (4 * coord + 2 * shape != d)
            throw InferenceError(c.source() + ": 4*coordinate_size + 2*shape_size must equal hidden_size");

        m_word = p.take(pre + "embeddings.word_embeddings.weight", {vocab, d});
        m_pos = p.take(pre + "embeddings.position_embeddings.weight", {maxPos, d});
        m_x = p.take(pre + "embeddings.x_position_embeddings.weight", {max2d, coord});
        m_y = p.take(pre + "embeddings.y_position_embeddings.weight", {max2d, coord});
        m_h = p.take(pre + "embeddings.h_position_embeddings.weight", {max2d, shape});
        m_w = p.take(pre + "embeddings.w_position_embeddings.weight", {max2d, shape});
        m_type = p.take(pre + "embeddings.token_type_embeddings.weight", {typeVocab, d});
        m_embLn = LayerNormW::load(p, pre + "embeddings.LayerNorm", d, eps);
        p.ignore(pre + "embeddings.position_ids");

        // image_feature_pool_shape [gh, gw(, C)]: the pooled p2 grid.
        const nlohmann::json &pool = c.json().contains("image_feature_pool_shape") ? c.json().at("image_feature_pool_shape")
                                                                                   : nlohmann::json::array({7, 7, 256});
        if (!pool.is_array() || pool.size() < 2 || pool.size() > 3)
            throw InferenceError(c.source() + ": 'image_feature_pool_shape' must be [rows, cols] or [rows, cols, channels]");
        std::array<std::int64_t, 3> ps{0, 0, 0};
        for (std::size_t i = 0; i < pool.size(); ++i) {
            if (!pool[i].is_number_integer() || pool[i].get<std::int64_t>() < 1 || pool[i].get<std::int64_t>() > 4096)
                throw InferenceError(c.source() + ": 'image_feature_pool_shape' entries must be integers in 1..4096");
            ps[i] = pool[i].get<std::int64_t>();
        }
        m_gh = ps[0];
        m_gw = ps[1];
        if (m_gh > 256 || m_gw > 256 || m_gh * m_gw > maxPos)
            throw InferenceError(c.source() + ": 'image_feature_pool_shape' grid " + std::to_string(m_gh) + "x"
                                 + std::to_string(m_gw) + " exceeds 256 per side or max_position_embeddings");

        // The visual part, when the checkpoint has it.
        bool anyVisual = false;
        for (const std::string &k : p.keys())
            anyVisual = anyVisual || k.rfind(pre + "visual.backbone.", 0) == 0;
        const bool segment = c.getBool("has_visual_segment_embedding", false);
        if (anyVisual) {
            m_backbone.emplace(resNetFpnOptionsFromConfig(c), p, pre + "visual.backbone.");
            const auto ch = m_backbone->outChannels();
            if (ps[2] != 0 && ps[2] != ch)
                throw InferenceError(c.source() + ": 'image_feature_pool_shape' channels " + std::to_string(ps[2])
                                     + " differ from detectron2_config_args MODEL.FPN.OUT_CHANNELS " + std::to_string(ch));
            m_visualProj = LinearW::load(p, pre + "visual_proj", ch, d);
            m_visualLn = LayerNormW::load(p, pre + "visual_LayerNorm", d, eps);
            if (segment)
                m_segment = p.take(pre + "visual_segment_embedding", {d});
            m_visualBbox = gridBoxes(m_gh, m_gw, false);
        } else {
            m_warnings.push_back(p.path() + " has no visual backbone weights ('" + pre
                                 + "visual.backbone.*'): running text + layout only, without the "
                                 + std::to_string(m_gh * m_gw) + " image tokens the architecture adds");
            for (const std::string &k : p.keys())
                if (k.rfind(pre + "visual", 0) == 0)
                    p.ignore(k); // visual_proj / visual_LayerNorm / segment embedding without a backbone
        }
        // Non-persistent in the reference (its config's mean/std are used): ignored when saved.
        p.ignore(pre + "visual.pixel_mean");
        p.ignore(pre + "visual.pixel_std");

        LayoutEncoderOptions o = layoutEncoderOptionsFromConfig(c, 1e-12);
        o.scaleBiases = false;
        o.fastQkv = c.getBool("fast_qkv", true);
        m_encoder.emplace(o, p, pre + "encoder.");
        if (p.has(pre + "pooler.dense.weight"))
            m_pooler = LinearW::load(p, pre + "pooler.dense", d, d);
        if (p.has("classifier.weight"))
            m_classifier = LinearW::load(p, "classifier", d, c.numLabels()); // ForTokenClassification
    }

    std::string modelType() const override { return "layoutlmv2"; }
    // "image" and "visual_tokens" only when the checkpoint has a visual backbone.
    std::vector<std::string> inputNames() const override
    {
        if (m_backbone)
            return {"input_ids", "bbox", "image", "attention_mask", "token_type_ids", "position_ids", "visual_tokens"};
        return {"input_ids", "bbox", "attention_mask", "token_type_ids", "position_ids"};
    }
    std::vector<std::string> warnings() const override { return m_warnings; }

    AtMap forward(const AtMap &in, const ForwardContext &ctx) const override
    {
        const at::Tensor ids = requireInput(in, "input_ids").to(at::kLong); // [B, T]
        if (ids.dim() != 2)
            throw InferenceError("input_ids must be [B, T]");
        const auto b = ids.size(0), t = ids.size(1);
        const at::Tensor bbox = requireInput(in, "bbox").to(at::kLong); // [B, T, 4]
        if (bbox.dim() != 3 || bbox.size(0) != b || bbox.size(1) != t || bbox.size(2) != 4)
            throw InferenceError("bbox must be [B, T, 4] matching input_ids " + std::to_string(b) + "x" + std::to_string(t));
        at::Tensor mask = optionalInput(in, "attention_mask");
        mask = mask.defined() ? mask.to(at::kFloat) : at::ones({b, t}, at::kFloat);
        at::Tensor types = optionalInput(in, "token_type_ids");
        types = types.defined() ? types.to(at::kLong) : at::zeros({b, t}, at::kLong);
        at::Tensor pos = optionalInput(in, "position_ids");
        pos = pos.defined() ? pos.to(at::kLong) : at::arange(t, at::kLong).unsqueeze(0).expand({b, t});

        // Text embeddings: LN(word + position + spatial + token type).
        at::Tensor e = at::embedding(m_word, ids) + at::embedding(m_pos, pos);
        e = e + spatial(bbox);
        e = m_embLn(e + at::embedding(m_type, types));
        // HfFineTuner's training forward (zero otherwise): the reference's dropout after the text
        // embeddings' LayerNorm, after the visual ones' (visual_dropout) and before the classifier,
        // all hidden_dropout_prob.
        const TrainingDropout &drop = currentTrainingDropout();
        if (drop.hidden > 0)
            e = at::dropout(e, drop.hidden, true);

        at::Tensor boxes = bbox, positions = pos, keyMask = mask;
        // visual_tokens = 0 (a caller without a page image, e.g. HfTokenClassifier): text + layout only.
        const at::Tensor visualTokens = optionalInput(in, "visual_tokens");
        const bool textOnly = visualTokens.defined() && visualTokens.numel() == 1 && visualTokens.to(at::kLong).item<std::int64_t>() == 0;
        if (m_backbone && !textOnly) {
            const at::Tensor image = optionalInput(in, "image");
            if (!image.defined())
                throw InferenceError("this LayoutLMv2 checkpoint has a visual backbone: the 'image' input "
                                     "(uint8 BGR [B, 3, H, W]) is required");
            if (image.dim() != 4 || image.size(0) != b)
                throw InferenceError("image must be [B, 3, H, W] with B = " + std::to_string(b));
            // Pooled p2 [B, gh*gw, C] (row-major, y outer), then the visual embeddings.
            const at::Tensor feats =
                at::adaptive_avg_pool2d(m_backbone->p2(image), {m_gh, m_gw}).flatten(2).transpose(1, 2).contiguous();
            ctx.record("debug.visual_features", feats);
            const auto n = m_gh * m_gw;
            const at::Tensor vpos = at::arange(n, at::kLong).unsqueeze(0).expand({b, n});
            const at::Tensor vbox = m_visualBbox.unsqueeze(0).expand({b, n, 4});
            at::Tensor v = m_visualProj(feats) + at::embedding(m_pos, vpos);
            v = v + spatial(vbox);
            if (m_segment.defined())
                v = v + m_segment;
            v = m_visualLn(v);
            if (drop.hidden > 0)
                v = at::dropout(v, drop.hidden, true);
            e = at::cat({e, v}, 1);
            boxes = at::cat({bbox, vbox}, 1);
            positions = at::cat({pos, vpos}, 1);
            keyMask = at::cat({mask, at::ones({b, n}, at::kFloat)}, 1);
        }
        // Extended mask (1 - m) * finfo.min, then masked_fill where it is non-zero.
        const at::Tensor maskAdd =
            at::zeros(keyMask.sizes(), at::kFloat).masked_fill(keyMask.ne(1.0), std::numeric_limits<float>::lowest());
        if (ctx.tracing()) {
            ctx.record("debug.encoder_bbox", boxes);
            ctx.record("debug.encoder_position_ids", positions);
        }
        std::vector<at::Tensor> states;
        const at::Tensor hs = m_encoder->forward(e, positions.contiguous(), boxes.contiguous(), maskAdd, ctx,
                                                 ctx.tracing() ? &states : nullptr);
        for (std::size_t i = 0; i < states.size(); ++i)
            ctx.record("hidden_states." + std::to_string(i), states[i]);

        AtMap out;
        out["last_hidden_state"] = hs;
        if (m_pooler.weight.defined())
            out["pooler_output"] = at::tanh(m_pooler(hs.select(1, 0)));
        if (m_classifier.weight.defined())
            out["logits"] = m_classifier(drop.hidden > 0 ? at::dropout(hs.narrow(1, 0, t), drop.hidden, true) : hs.narrow(1, 0, t));
        return out;
    }

    void quantizeDynamicInt8() override { m_encoder->quantizeDynamicInt8(); } // the encoder's Linears (issue 35)

private:
    // cat[x(x0), y(y0), x(x1), y(y1), h(y1 - y0), w(x1 - x0)]; h/w are not clipped (the reference
    // fails on inverted boxes, so they are refused here).
    at::Tensor spatial(const at::Tensor &bbox) const
    {
        const at::Tensor x0 = bbox.select(2, 0), y0 = bbox.select(2, 1), x1 = bbox.select(2, 2), y1 = bbox.select(2, 3);
        const at::Tensor hgt = y1 - y0, wid = x1 - x0;
        const auto limit = m_x.size(0);
        if (bbox.numel()
            && (bbox.min().item<std::int64_t>() < 0 || bbox.max().item<std::int64_t>() >= limit
                || at::minimum(hgt.min(), wid.min()).item<std::int64_t>() < 0))
            throw InferenceError("bbox coordinates must lie in [0, " + std::to_string(limit - 1)
                                 + "] with x0 <= x1 and y0 <= y1");
        return at::cat({at::embedding(m_x, x0), at::embedding(m_y, y0), at::embedding(m_x, x1), at::embedding(m_y, y1),
                        at::embedding(m_h, hgt), at::embedding(m_w, wid)},
                       -1);
    }

    at::Tensor m_word, m_pos, m_x, m_y, m_h, m_w, m_type, m_segment, m_visualBbox;
    LayerNormW m_embLn, m_visualLn;
    LinearW m_visualProj, m_pooler, m_classifier;
    std::optional<ResNetFpn> m_backbone;
    std::optional<LayoutEncoder> m_encoder;
    std::int64_t m_gh = 7, m_gw = 7;
    std::vector<std::string> m_warnings;
};

} // namespace

void registerLayoutLMv2()
{
    registerModel("layoutlmv2", [](const ModelConfig &c, ParamStore &p) -> std::unique_ptr<Model> {
        for (const char *pre : {"", "layoutlmv2."})
            if (p.has(std::string(pre) + "embeddings.word_embeddings.weight"))
                return std::make_unique<LayoutLMv2>(c, p, pre);
        return std::make_unique<LayoutLMv2Encoder>(c, p);
    });
}

} // namespace folio::inference::detail
