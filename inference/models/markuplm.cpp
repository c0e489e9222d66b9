// MarkupLM (Hugging Face v4.36 `modeling_markuplm.py`): RoBERTa-style text embeddings plus an
// XPath embedding (per-depth tag and subscript tables, concatenated, added, then
// inner2emb(relu(xpath_unitseq2_inner(x)))), post-LN BERT layers with the -10000 additive key
// mask, and a token-classification (`classifier`) or extractive-QA (`qa_outputs`) head.
// Checked against ../shared/fixtures/parity-new/markuplm_tokcls (its README lists the surprises:
// the unused `xpath_unitseq2_embeddings`, learned pad rows, position ids from pad_token_id).
#include "inference/layers/detail/int8linear.h"
#include "inference/layers/detail/layers.h"
#include "inference/models/detail/model.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/training/hf/detail/hfoptim.h" // TrainingDropout
#include "inference/errors.h"

#include <cmath>
#include <vector>

namespace folio::inference::detail {
namespace {

class MarkupLM : public Model
{
public:
    MarkupLM(const ModelConfig &c, ParamStore &p)
    {
        m_prefix = p.has("markuplm.embeddings.word_embeddings.weight") ? "markuplm." : "";
        const std::string &pre = m_prefix;
        const auto d = c.getInt("hidden_size", 768);
        m_heads = c.getInt("num_attention_heads", 12);
        const auto layers = c.getInt("num_hidden_layers", 12);
        const auto intermediate = c.getInt("intermediate_size", 3072);
        const double eps = c.getDouble("layer_norm_eps", 1e-12);
        m_pad = c.getInt("pad_token_id", 0); // MarkupLMConfig's default; real checkpoints say 1
        const auto vocab = c.getInt("vocab_size", 30522);
        const auto maxPos = c.getInt("max_position_embeddings", 512);
        const auto typeVocab = c.getInt("type_vocab_size", 2);
        m_depth = c.getInt("max_depth", 50);
        const auto unit = c.getInt("xpath_unit_hidden_size", 32);
        const std::int64_t tagRows = c.getInt("max_xpath_tag_unit_embeddings", 256);
        const std::int64_t subsRows = c.getInt("max_xpath_subs_unit_embeddings", 1024);
        m_tagPad = c.getInt("tag_pad_id", 216);
        m_subsPad = c.getInt("subs_pad_id", 1001);
        if (m_heads <= 0 || d % m_heads != 0)
            throw InferenceError(c.source() + ": hidden_size is not a multiple of num_attention_heads");
        if (m_depth < 1 || m_depth > 4096 || unit < 1 || unit > 16384)
            throw InferenceError(c.source() + ": max_depth must be in 1..4096 and xpath_unit_hidden_size in 1..16384");
        if (m_tagPad < 0 || m_tagPad >= tagRows || m_subsPad < 0 || m_subsPad >= subsRows)
            throw InferenceError(c.source() + ": tag_pad_id / subs_pad_id must index the xpath tables ("
                                 + std::to_string(tagRows) + " / " + std::to_string(subsRows) + " rows)");
        if (c.getString("position_embedding_type", "absolute") != "absolute")
            throw InferenceError(c.source() + ": position_embedding_type '" + c.getString("position_embedding_type", "")
                                 + "' is not supported (only \"absolute\")");

        m_word = p.take(pre + "embeddings.word_embeddings.weight", {vocab, d});
        m_pos = p.take(pre + "embeddings.position_embeddings.weight", {maxPos, d});
        m_type = p.take(pre + "embeddings.token_type_embeddings.weight", {typeVocab, d});
        m_embLn = LayerNormW::load(p, pre + "embeddings.LayerNorm", d, eps);
        p.ignore(pre + "embeddings.position_ids");
        const std::string xp = pre + "embeddings.xpath_embeddings.";
        std::vector<at::Tensor> tags, subs;
        for (std::int64_t i = 0; i < m_depth; ++i) {
            tags.push_back(p.take(xp + "xpath_tag_sub_embeddings." + std::to_string(i) + ".weight", {tagRows, unit}));
            subs.push_back(p.take(xp + "xpath_subs_sub_embeddings." + std::to_string(i) + ".weight", {subsRows, unit}));
        }
        // One table per depth, looked up as one gather: depth i's rows start at i * rows.
        m_tagTable = at::cat(tags, 0);   // [depth * tagRows, unit]
        m_subsTable = at::cat(subs, 0);  // [depth * subsRows, unit]
        m_tagOffsets = at::arange(m_depth, at::kLong) * tagRows;
        m_subsOffsets = at::arange(m_depth, at::kLong) * subsRows;
        m_tagRows = tagRows;
        m_subsRows = subsRows;
        m_xpInner = LinearW::load(p, xp + "xpath_unitseq2_inner", m_depth * unit, 4 * d);
        m_xpOut = LinearW::load(p, xp + "inner2emb", 4 * d, d);
        // In every checkpoint, never used by the reference forward pass.
        p.ignore(xp + "xpath_unitseq2_embeddings.weight");
        p.ignore(xp + "xpath_unitseq2_embeddings.bias");

        for (std::int64_t i = 0; i < layers; ++i) {
            const std::string lp = pre + "encoder.layer." + std::to_string(i);
            m_layers.push_back({SelfAttentionW::load(p, lp + ".attention.self", d, m_heads),
                                FeedForwardW::load(p, lp, d, intermediate, eps)});
        }
        if (p.has(pre + "pooler.dense.weight")) {
            p.ignore(pre + "pooler.dense.weight");
            p.ignore(pre + "pooler.dense.bias");
        }
        if (p.has("qa_outputs.weight")) {
            m_head = LinearW::load(p, "qa_outputs", d, 2); // MarkupLMForQuestionAnswering (num_labels 2)
            m_qa = true;
        } else if (p.has("classifier.weight")) {
            if (p.has(pre + "pooler.dense.weight"))
                throw InferenceError(p.path() + ": a classifier over the pooler (MarkupLMForSequenceClassification) "
                                                "is not supported; token classification and QA are");
            m_head = LinearW::load(p, "classifier", d, c.numLabels()); // MarkupLMForTokenClassification
        }
    }

    std::string modelType() const override { return "markuplm"; }
    std::vector<std::string> inputNames() const override
    {
        return {"input_ids", "xpath_tags_seq", "xpath_subs_seq", "attention_mask", "token_type_ids", "position_ids"};
    }

    AtMap forward(const AtMap &in, const ForwardContext &ctx) const override
    {
        const at::Tensor ids = requireInput(in, "input_ids").to(at::kLong); // [B, L]
        if (ids.dim() != 2)
            throw InferenceError("input_ids must be [B, L]");
        const auto b = ids.size(0), l = ids.size(1);
        at::Tensor mask = optionalInput(in, "attention_mask");
        mask = mask.defined() ? mask.to(at::kLong) : at::ones({b, l}, at::kLong);
        at::Tensor types = optionalInput(in, "token_type_ids");
        types = types.defined() ? types.to(at::kLong) : at::zeros({b, l}, at::kLong);
        at::Tensor posIds = optionalInput(in, "position_ids");
        if (!posIds.defined()) { // RoBERTa: cumsum(ids != pad) * (ids != pad) + pad
            const at::Tensor m = ids.ne(m_pad).to(at::kLong);
            posIds = at::cumsum(m, 1) * m + m_pad;
        }
        posIds = posIds.to(at::kLong);
        const at::Tensor tags = xpathInput(in, "xpath_tags_seq", m_tagPad, m_tagRows, b, l);
        const at::Tensor subs = xpathInput(in, "xpath_subs_seq", m_subsPad, m_subsRows, b, l);
        for (const auto &[name, t] : {std::pair<const char *, const at::Tensor &>{"attention_mask", mask},
                                      {"token_type_ids", types}, {"position_ids", posIds}})
            if (t.sizes() != ids.sizes())
                throw InferenceError(std::string(name) + " must be [B, L] like input_ids");
        checkRange(ids, m_word.size(0), "input_ids");
        checkRange(types, m_type.size(0), "token_type_ids");
        checkRange(posIds, m_pos.size(0), "position_ids (from input_ids and pad_token_id)");

        // XPath embedding [B, L, D]: per-depth tag and subscript rows concatenated (depth 0 first), added.
        const at::Tensor tagEmb = at::embedding(m_tagTable, tags + m_tagOffsets).view({b, l, -1});
        const at::Tensor subsEmb = at::embedding(m_subsTable, subs + m_subsOffsets).view({b, l, -1});
        // HfFineTuner's training forward (zero otherwise): dropout where the reference applies it
        // (XPathEmbeddings' inner activation, the embeddings after LayerNorm, the attention
        // probabilities, both sub-layer outputs; MarkupLMForTokenClassification.forward never calls
        // its dropout module, so nothing before the head).
        const TrainingDropout &drop = currentTrainingDropout();
        at::Tensor inner = at::relu(m_xpInner(tagEmb + subsEmb));
        if (drop.hidden > 0)
            inner = at::dropout(inner, drop.hidden, true);
        const at::Tensor xpath = m_xpOut(inner);
        ctx.record("debug.xpath_embeddings", xpath);
        ctx.record("debug.position_ids", posIds);

        at::Tensor e = at::embedding(m_word, ids) + at::embedding(m_pos, posIds);
        e = e + at::embedding(m_type, types);
        e = m_embLn(e + xpath);
        if (drop.hidden > 0)
            e = at::dropout(e, drop.hidden, true);
        // (1 - mask) * -10000 on the keys, as MarkupLMModel.forward builds it (not finfo.min).
        const at::Tensor maskAdd = ((1.0 - mask.to(at::kFloat)) * -10000.0).view({b, 1, 1, l});

        at::Tensor hs = e;
        ctx.record("hidden_states.0", hs);
        for (std::size_t i = 0; i < m_layers.size(); ++i) {
            if (drop.active()) {
                const SelfAttentionW &a = m_layers[i].attention;
                const at::Tensor q = splitHeads(a.query(hs), m_heads), k = splitHeads(a.key(hs), m_heads),
                                 v = splitHeads(a.value(hs), m_heads);
                const double sq = std::sqrt(static_cast<double>(q.size(-1)));
                const at::Tensor p = at::dropout(at::softmax(at::matmul(q / sq, k.transpose(-1, -2)) + maskAdd, -1), drop.attention, true);
                hs = m_layers[i].ffn(mergeHeads(at::matmul(p, v)), hs, drop.hidden, true);
                continue;
            }
            at::Tensor probs;
            const at::Tensor context = m_layers[i].attention(hs, maskAdd, ctx.tracing() ? &probs : nullptr);
            if (ctx.tracing())
                ctx.record("attentions." + std::to_string(i), probs);
            hs = m_layers[i].ffn(context, hs);
            ctx.record("hidden_states." + std::to_string(i + 1), hs);
        }

        AtMap out;
        out["last_hidden_state"] = hs;
        if (m_head.weight.defined()) {
            const at::Tensor logits = m_head(hs); // the reference's token-classification head drops nothing
            out["logits"] = logits;
            if (m_qa) {
                out["start_logits"] = logits.select(2, 0).contiguous();
                out["end_logits"] = logits.select(2, 1).contiguous();
            }
        }
        return out;
    }

    // Every layer's Q/K/V and FFN Linears to dynamic int8 (issue 35; the xpath embedding and the head stay fp32).
    void quantizeDynamicInt8() override
    {
        for (Layer &l : m_layers) {
            detail::quantizeDynamicInt8(l.attention);
            detail::quantizeDynamicInt8(l.ffn);
        }
    }

private:
    // [B, L, depth] ids; absent: the config's pad id at every depth (what the reference does).
    at::Tensor xpathInput(const AtMap &in, const char *name, std::int64_t pad, std::int64_t rows, std::int64_t b,
                          std::int64_t l) const
    {
        at::Tensor t = optionalInput(in, name);
        if (!t.defined())
            return at::full({b, l, m_depth}, pad, at::kLong);
        t = t.to(at::kLong);
        if (t.dim() != 3 || t.size(0) != b || t.size(1) != l || t.size(2) != m_depth)
            throw InferenceError(std::string(name) + " must be [B, L, max_depth = " + std::to_string(m_depth)
                                 + "] matching input_ids");
        checkRange(t, rows, name);
        return t;
    }

    static void checkRange(const at::Tensor &t, std::int64_t rows, const std::string &name)
    {
        if (t.numel() && (t.min().item<std::int64_t>() < 0 || t.max().item<std::int64_t>() >= rows))
            throw InferenceError(name + " must lie in [0, " + std::to_string(rows - 1) + "]");
    }

    struct Layer
    {
        SelfAttentionW attention; // <layer>.attention.self.{query,key,value}
        FeedForwardW ffn;         // <layer>.attention.output, intermediate, output
    };
    std::string m_prefix;
    std::int64_t m_heads = 12, m_pad = 1, m_depth = 50, m_tagPad = 216, m_subsPad = 1001, m_tagRows = 0, m_subsRows = 0;
    at::Tensor m_word, m_pos, m_type, m_tagTable, m_subsTable, m_tagOffsets, m_subsOffsets;
    LayerNormW m_embLn;
    LinearW m_xpInner, m_xpOut;
    std::vector<Layer> m_layers;
    LinearW m_head;
    bool m_qa = false;
};

} // namespace

void registerMarkupLM()
{
    registerModel("markuplm", [](const ModelConfig &c, ParamStore &p) { return std::make_unique<MarkupLM>(c, p); });
}

} // namespace folio::inference::detail
