// LiLT (LiltModel / LiltForTokenClassification, HF names): a text flow (RoBERTa embeddings, BERT
// layers) and a layout flow (box embeddings, hidden / channel_shrink_ratio wide) joined in every
// layer by bidirectional attention complementation: both flows add their scaled q·kᵀ scores and
// share one softmax. Semantics as ../shared/fixtures/parity-new/lilt_tokcls/README.md lists them.
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/errors.h"
#include "inference/layers/detail/int8linear.h"
#include "inference/layers/detail/layers.h"
#include "inference/layers/detail/robertapositions.h"
#include "inference/models/detail/model.h"
#include "inference/training/hf/detail/hfoptim.h" // TrainingDropout

#include <cmath>
#include <vector>

namespace folio::inference::detail {
namespace {

class Lilt : public Model
{
public:
    Lilt(const ModelConfig &c, ParamStore &p)
    {
        const std::string pre = p.has("lilt.embeddings.word_embeddings.weight") ? "lilt." : "";
        const auto d = c.getInt("hidden_size", 768);
        m_heads = c.getInt("num_attention_heads", 12);
        const auto layers = c.getInt("num_hidden_layers", 12);
        const auto inter = c.getInt("intermediate_size", 3072);
        const auto csr = c.getInt("channel_shrink_ratio", 4);
        const double eps = c.getDouble("layer_norm_eps", 1e-12);
        m_pad = c.getInt("pad_token_id", 1);
        const auto vocab = c.getInt("vocab_size", 30522);
        const auto maxPos = c.getInt("max_position_embeddings", 512);
        const auto typeVocab = c.getInt("type_vocab_size", 2);
        const auto max2d = c.getInt("max_2d_position_embeddings", 1024);
        if (m_heads <= 0 || d <= 0 || d % m_heads != 0)
            throw InferenceError(c.source() + ": hidden_size is not a positive multiple of num_attention_heads");
        if (csr <= 0 || (d / m_heads) % csr != 0)
            throw InferenceError(c.source() + ": the head size hidden_size / num_attention_heads (" +
                                 std::to_string(d / m_heads) + ") is not a multiple of channel_shrink_ratio (" +
                                 std::to_string(csr) + ")");
        if (d % 6 != 0)
            throw InferenceError(c.source() + ": hidden_size must be a multiple of 6 (six box tables of hidden_size/6)");
        if (c.getString("position_embedding_type", "absolute") != "absolute")
            throw InferenceError(c.source() + ": position_embedding_type \"" +
                                 c.getString("position_embedding_type", "") + "\" is not built (only \"absolute\")");
        if (c.getString("hidden_act", "gelu") != "gelu")
            throw InferenceError(c.source() + ": hidden_act \"" + c.getString("hidden_act", "") +
                                 "\" is not built (only \"gelu\")");
        const auto dl = d / csr; // layout flow width
        m_textScale = std::sqrt(double(d / m_heads));
        m_layoutScale = std::sqrt(double((d / m_heads) / csr)); // integer division, as the reference

        // Text embeddings (LiltTextEmbeddings).
        m_word = p.take(pre + "embeddings.word_embeddings.weight", {vocab, d});
        m_pos = p.take(pre + "embeddings.position_embeddings.weight", {maxPos, d});
        m_type = p.take(pre + "embeddings.token_type_embeddings.weight", {typeVocab, d});
        m_embLn = LayerNormW::load(p, pre + "embeddings.LayerNorm", d, eps);
        p.ignore(pre + "embeddings.position_ids");
        // Layout embeddings (LiltLayoutEmbeddings): x/y shared by both corners, h, w, then
        // box_linear_embeddings + box_position_embeddings -> LayerNorm.
        const auto box = d / 6;
        m_x = p.take(pre + "layout_embeddings.x_position_embeddings.weight", {max2d, box});
        m_y = p.take(pre + "layout_embeddings.y_position_embeddings.weight", {max2d, box});
        m_h = p.take(pre + "layout_embeddings.h_position_embeddings.weight", {max2d, box});
        m_w = p.take(pre + "layout_embeddings.w_position_embeddings.weight", {max2d, box});
        m_boxLinear = LinearW::load(p, pre + "layout_embeddings.box_linear_embeddings", d, dl);
        m_boxPos = p.take(pre + "layout_embeddings.box_position_embeddings.weight", {maxPos, dl});
        m_layoutLn = LayerNormW::load(p, pre + "layout_embeddings.LayerNorm", dl, eps);

        for (long long i = 0; i < layers; ++i) {
            const std::string lp = pre + "encoder.layer." + std::to_string(i);
            Layer l;
            // Q, K, V of each flow as one product ([3D, D] / [3Dl, Dl], rows in that order): the same
            // dot products as three (each output element sums the same terms), one pass over the input.
            l.textQkv = fusedLinear({LinearW::load(p, lp + ".attention.self.query", d, d),
                                     LinearW::load(p, lp + ".attention.self.key", d, d),
                                     LinearW::load(p, lp + ".attention.self.value", d, d)});
            std::vector<LinearW> layoutParts{LinearW::load(p, lp + ".attention.self.layout_query", dl, dl),
                                             LinearW::load(p, lp + ".attention.self.layout_key", dl, dl),
                                             LinearW::load(p, lp + ".attention.self.layout_value", dl, dl)};
            // Built for training (autograd on, HfFineTuner): the layout projections stay apart, so the
            // last layer's layout_value, whose flow nothing reads, gets no gradient (not a zero one), as
            // in the reference, and AdamW leaves it untouched.
            if (at::GradMode::is_enabled())
                l.layoutParts = std::move(layoutParts);
            else
                l.layoutQkv = fusedLinear(layoutParts);
            l.textFfn = FeedForwardW::load(p, lp, d, inter, eps);
            // The layout flow's block: the same post-LN form under its own names.
            l.layoutFfn.attnOut = LinearW::load(p, lp + ".attention.layout_output.dense", dl, dl);
            l.layoutFfn.attnLn = LayerNormW::load(p, lp + ".attention.layout_output.LayerNorm", dl, eps);
            l.layoutFfn.inter = LinearW::load(p, lp + ".layout_intermediate.dense", dl, inter / csr);
            l.layoutFfn.out = LinearW::load(p, lp + ".layout_output.dense", inter / csr, dl);
            l.layoutFfn.outLn = LayerNormW::load(p, lp + ".layout_output.LayerNorm", dl, eps);
            m_layers.push_back(std::move(l));
        }
        // LiltModel's pooler is not an output of the token classifier (add_pooling_layer=False).
        p.ignore(pre + "pooler.dense.weight");
        p.ignore(pre + "pooler.dense.bias");
        if (p.has("classifier.weight"))
            m_classifier = LinearW::load(p, "classifier", d, c.numLabels()); // LiltForTokenClassification
    }

    std::string modelType() const override { return "lilt"; }
    std::vector<std::string> inputNames() const override
    {
        return {"input_ids", "bbox", "attention_mask", "token_type_ids", "position_ids"};
    }

    AtMap forward(const AtMap &in, const ForwardContext &ctx) const override
    {
        const at::Tensor ids = requireInput(in, "input_ids").to(at::kLong); // [B, T]
        const at::Tensor bbox = requireInput(in, "bbox").to(at::kLong);     // [B, T, 4]
        if (ids.dim() != 2)
            throw InferenceError("input_ids must be [B, T]");
        const auto b = ids.size(0), t = ids.size(1);
        if (bbox.dim() != 3 || bbox.size(0) != b || bbox.size(1) != t || bbox.size(2) != 4)
            throw InferenceError("bbox must be [B, T, 4] matching input_ids " + std::to_string(b) + "x" + std::to_string(t));
        at::Tensor mask = optionalInput(in, "attention_mask");
        mask = mask.defined() ? mask.to(at::kLong) : at::ones({b, t}, at::kLong);
        at::Tensor types = optionalInput(in, "token_type_ids");
        types = types.defined() ? types.to(at::kLong) : at::zeros({b, t}, at::kLong);
        at::Tensor posIds = optionalInput(in, "position_ids");
        posIds = posIds.defined() ? posIds.to(at::kLong) : robertaPositionIds(ids, m_pad);
        if (t > 0 && posIds.max().item<std::int64_t>() >= m_pos.size(0))
            throw InferenceError("position ids reach " + std::to_string(posIds.max().item<std::int64_t>()) +
                                 " but the model has " + std::to_string(m_pos.size(0)) +
                                 " positions (max_position_embeddings): the sequence is too long");

        const at::Tensor x0 = bbox.select(2, 0), y0 = bbox.select(2, 1), x1 = bbox.select(2, 2), y1 = bbox.select(2, 3);
        const at::Tensor hgt = y1 - y0, wid = x1 - x0;
        const std::int64_t limit = m_x.size(0);
        if (bbox.numel() && (bbox.min().item<std::int64_t>() < 0 || bbox.max().item<std::int64_t>() >= limit))
            throw InferenceError("bbox coordinates must lie in [0, " + std::to_string(limit - 1) + "]");
        if (bbox.numel() && (hgt.min().item<std::int64_t>() < 0 || wid.min().item<std::int64_t>() < 0))
            throw InferenceError("bbox has an inverted box (x1 < x0 or y1 < y0): LiLT's height/width tables take no "
                                 "negative size");

        // Text flow input: LN((word + type) + position).
        at::Tensor hs = at::embedding(m_word, ids) + at::embedding(m_type, types);
        hs = m_embLn(hs + at::embedding(m_pos, posIds));
        // Layout flow input: LN(Linear(cat[x0, y0, x1, y1, h, w]) + box_position[pos]).
        const at::Tensor spatial = at::cat({at::embedding(m_x, x0), at::embedding(m_y, y0), at::embedding(m_x, x1),
                                            at::embedding(m_y, y1), at::embedding(m_h, hgt), at::embedding(m_w, wid)},
                                           -1);
        at::Tensor layout = m_layoutLn(m_boxLinear(spatial) + at::embedding(m_boxPos, posIds));
        const TrainingDropout &drop = currentTrainingDropout(); // HfFineTuner's training forward; zero otherwise
        if (drop.hidden > 0) {
            hs = at::dropout(hs, drop.hidden, true);
            layout = at::dropout(layout, drop.hidden, true);
        }
        if (ctx.tracing()) {
            ctx.record("debug.position_ids", posIds);
            ctx.record("debug.layout_embeddings", layout);
        }

        const at::Tensor maskAdd = additiveMask(mask); // [B, 1, 1, T]
        // The trace's "bias.layout_flow.N" [B, H, T, T]: s_l, the layout flow's scaled scores that
        // BiACM adds to the text flow's (attentions.N = softmax(s_t + s_l + mask)).
        const bool useLayout = ctx.enabled(BiasLayoutFlow);
        for (std::size_t i = 0; i < m_layers.size(); ++i) {
            const Layer &l = m_layers[i];
            if (ctx.tracing())
                ctx.record("hidden_states." + std::to_string(i), hs);
            const auto text = l.textQkv(hs).chunk(3, -1);
            const std::vector<at::Tensor> lay = l.layoutParts.empty()
                                                    ? l.layoutQkv(layout).chunk(3, -1)
                                                    : std::vector<at::Tensor>{l.layoutParts[0](layout), l.layoutParts[1](layout),
                                                                              l.layoutParts[2](layout)};
            const at::Tensor q = splitHeads(text[0], m_heads), k = splitHeads(text[1], m_heads);
            const at::Tensor v = splitHeads(text[2], m_heads), vl = splitHeads(lay[2], m_heads);
            const at::Tensor probs = useLayout ? biacmProbs(q, k, splitHeads(lay[0], m_heads),
                                                            splitHeads(lay[1], m_heads), maskAdd, ctx, i)
                                               : biacmProbs(q, k, at::Tensor(), at::Tensor(), maskAdd, ctx, i);
            if (ctx.tracing())
                ctx.record("attentions." + std::to_string(i), probs);
            if (drop.active()) {
                // The reference's two softmaxes (equal values) each get their own dropout mask; both
                // flows' sub-layer outputs theirs before the residual adds.
                const at::Tensor textCtx = mergeHeads(at::matmul(at::dropout(probs, drop.attention, true), v));
                const at::Tensor layoutCtx = mergeHeads(at::matmul(at::dropout(probs, drop.attention, true), vl));
                hs = l.textFfn(textCtx, hs, drop.hidden, true);
                layout = l.layoutFfn(layoutCtx, layout, drop.hidden, true);
                continue;
            }
            const at::Tensor textCtx = mergeHeads(at::matmul(probs, v));
            const at::Tensor layoutCtx = mergeHeads(at::matmul(probs, vl));
            hs = l.textFfn(textCtx, hs);
            layout = l.layoutFfn(layoutCtx, layout);
            if (ctx.tracing())
                ctx.record("debug.layout_hidden_states." + std::to_string(i + 1), layout);
        }
        if (ctx.tracing())
            ctx.record("hidden_states." + std::to_string(m_layers.size()), hs);

        AtMap out;
        out["last_hidden_state"] = hs;
        if (m_classifier.weight.defined())
            out["logits"] = m_classifier(at::dropout(hs, drop.classifier, drop.classifier > 0));
        return out;
    }

    // Both flows' fused QKV and FFN Linears to dynamic int8 (issue 35; the box projection and the head stay fp32).
    void quantizeDynamicInt8() override
    {
        for (Layer &l : m_layers) {
            detail::quantizeDynamicInt8(l.textQkv);
            if (l.layoutParts.empty())
                detail::quantizeDynamicInt8(l.layoutQkv);
            for (LinearW &part : l.layoutParts)
                detail::quantizeDynamicInt8(part);
            detail::quantizeDynamicInt8(l.textFfn);
            detail::quantizeDynamicInt8(l.layoutFfn);
        }
    }

private:
    struct Layer
    {
        LinearW textQkv;   // attention.self.{query,key,value}, fused [3D, D]
        LinearW layoutQkv; // attention.self.layout_{query,key,value}, fused [3Dl, Dl]
        std::vector<LinearW> layoutParts; // the same three apart (a model built for training)
        FeedForwardW textFfn, layoutFfn;
    };

    static LinearW fusedLinear(const std::vector<LinearW> &parts)
    {
        std::vector<at::Tensor> w, b;
        for (const LinearW &l : parts) {
            w.push_back(l.weight);
            b.push_back(l.bias);
        }
        LinearW f;
        f.weight = at::cat(w);
        f.bias = at::cat(b);
        return f;
    }

    // BiACM's shared softmax: softmax(q·kᵀ / √d + ql·klᵀ / √dl + mask) [B, H, T, T] (text s_t + s_l and
    // layout s_l + s_t are the same values, so one softmax serves both flows); without ql (BiasLayoutFlow
    // disabled, an ablation) both flows attend by the text scores alone. The reference's order and
    // roundings: the text product divided by √d, the layout product divided by √dl, their sum, then the
    // mask. Inference runs it on one [B·H, T, T] buffer (the mask broadcast into it, each product added
    // by a batched GEMM with alpha = 1/scale — the same value as the division when the scale is a power
    // of two, as at every released size: √64, √16 — and the softmax in place); a trace or grad mode takes
    // the step-by-step form, which records s_l ("bias.layout_flow.N").
    at::Tensor biacmProbs(const at::Tensor &q, const at::Tensor &k, const at::Tensor &ql, const at::Tensor &kl,
                          const at::Tensor &maskAdd, const ForwardContext &ctx, std::size_t layer) const
    {
        if (!ctx.tracing() && !at::GradMode::is_enabled()) {
            const auto b = q.size(0), h = q.size(1), t = q.size(2);
            at::Tensor scores = maskAdd.expand({b, h, t, t}).contiguous().view({b * h, t, t});
            scores.baddbmm_(q.reshape({b * h, t, -1}), k.reshape({b * h, t, -1}).transpose(1, 2), 1.0, 1.0 / m_textScale);
            if (ql.defined())
                scores.baddbmm_(ql.reshape({b * h, t, -1}), kl.reshape({b * h, t, -1}).transpose(1, 2), 1.0,
                                1.0 / m_layoutScale);
            at::_softmax_out(scores, scores, -1, false);
            return scores.view({b, h, t, t});
        }
        at::Tensor scores = at::matmul(q, k.transpose(-1, -2));
        scores.div_(m_textScale);
        if (ql.defined()) {
            at::Tensor layoutScores = at::matmul(ql, kl.transpose(-1, -2));
            layoutScores.div_(m_layoutScale);
            scores.add_(layoutScores);
            ctx.record("bias.layout_flow." + std::to_string(layer), layoutScores);
        } else if (ctx.tracing()) {
            ctx.record("bias.layout_flow." + std::to_string(layer), at::zeros_like(scores));
        }
        scores.add_(maskAdd);
        return at::softmax(scores, -1);
    }
    std::int64_t m_heads = 12, m_pad = 1;
    double m_textScale = 1, m_layoutScale = 1;
    at::Tensor m_word, m_pos, m_type, m_x, m_y, m_h, m_w, m_boxPos;
    LayerNormW m_embLn, m_layoutLn;
    LinearW m_boxLinear, m_classifier;
    std::vector<Layer> m_layers;
};

} // namespace

void registerLilt()
{
    registerModel("lilt", [](const ModelConfig &c, ParamStore &p) { return std::make_unique<Lilt>(c, p); });
}

} // namespace folio::inference::detail
