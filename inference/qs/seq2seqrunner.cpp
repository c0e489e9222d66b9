// ModelRunner model types "bart" and "led" (LED with or without a HIBRIDS table).
//
// Inputs (Hugging Face names): input_ids, attention_mask, decoder_input_ids (or labels, shifted
// right with decoder_start_token_id), decoder_attention_mask, labels (-> loss); LED:
// global_attention_mask; HIBRIDS: token_to_section [B, S] with row<b>.section_parent [n_b] (the
// section-granular form), or, encoder variant only, the reference's banded hierarchical_bias
// [B, S, 2w+1]. The reference's dense [B, S, S] cross_attn_hierarchical_bias is refused.
// Outputs: logits, encoder_last_hidden_state, decoder_last_hidden_state, loss; when tracing also
// encoder_/decoder_hidden_states.N, encoder_/decoder_/cross_attentions.N, encoder_global_attentions.N.
// Generation on request: a config.json `hibrids.greedy` block ({"steps": n}) adds greedy_tokens
// [B, n+1] and greedy_step_logits [B, n, V] (argmax of the raw logits, never stopping early); a
// `hibrids.beam` block (num_beams, max_length, min_length, no_repeat_ngram_size, early_stopping)
// adds beam_tokens.row<b> [1, len] and beam_score.row<b> [1], one source row at a time.
#include "inference/qs/detail/generate.h"

#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/models/detail/model.h"
#include "inference/errors.h"

#include <optional>

namespace folio::inference::detail {

namespace {

std::vector<std::int64_t> int64Vector(const at::Tensor &t)
{
    const at::Tensor c = t.to(at::kLong).contiguous().view({-1});
    return std::vector<std::int64_t>(c.data_ptr<std::int64_t>(), c.data_ptr<std::int64_t>() + c.numel());
}

HibridsBatch rowOf(const HibridsBatch &h, std::int64_t r)
{
    HibridsBatch o;
    auto take = [r](const at::Tensor &t) { return t.defined() ? t.slice(0, r, r + 1) : t; };
    o.tokenToSection = take(h.tokenToSection);
    o.sectionIndex = take(h.sectionIndex);
    o.bandIndex = take(h.bandIndex);
    return o;
}

class Seq2seqRunnerModel : public Model
{
public:
    Seq2seqRunnerModel(const ModelConfig &c, ParamStore &p) : m_model(c, p)
    {
        const auto &j = c.json();
        if (!j.contains("hibrids") || !j["hibrids"].is_object())
            return;
        const auto &hb = j["hibrids"];
        if (hb.contains("greedy") && hb["greedy"].is_object())
            m_greedySteps = hb["greedy"].value("steps", 0);
        if (hb.contains("beam") && hb["beam"].is_object()) {
            const auto &bm = hb["beam"];
            GenerationSettings s = m_model.config().generation;
            s.numBeams = bm.value("num_beams", s.numBeams);
            s.maxLength = bm.value("max_length", s.maxLength);
            s.minLength = bm.value("min_length", s.minLength);
            s.noRepeatNgramSize = bm.value("no_repeat_ngram_size", s.noRepeatNgramSize);
            s.earlyStopping = bm.value("early_stopping", s.earlyStopping);
            m_beam = s;
        }
    }

    std::string modelType() const override { return m_model.config().modelType; }
    std::vector<std::string> inputNames() const override
    {
        std::vector<std::string> n = {"input_ids", "attention_mask", "decoder_input_ids", "decoder_attention_mask", "labels"};
        if (m_model.config().modelType == "led")
            n.push_back("global_attention_mask");
        if (m_model.config().hibrids != HibridsVariant::None)
            n.insert(n.end(), {"token_to_section", "row<b>.section_parent", "hierarchical_bias"});
        return n;
    }

    AtMap forward(const AtMap &in, const ForwardContext &ctx) const override
    {
        const Seq2seqConfig &cfg = m_model.config();
        const at::Tensor ids = requireInput(in, "input_ids").to(at::kLong);
        if (ids.dim() != 2)
            throw InferenceError("input_ids must be [batch, length]");
        const HibridsBatch hier = layout(in, ids.size(0));
        const HibridsBatch encHier = cfg.hibrids == HibridsVariant::Encoder ? hier : HibridsBatch();
        const HibridsBatch decHier = cfg.hibrids == HibridsVariant::Decoder ? hier : HibridsBatch();
        const bool trace = ctx.tracing();
        const EncoderResult enc = m_model.encode(ids, optionalInput(in, "attention_mask"),
                                                 optionalInput(in, "global_attention_mask"), encHier, trace);
        AtMap out;
        out["encoder_last_hidden_state"] = enc.hidden;
        const at::Tensor labels = optionalInput(in, "labels");
        at::Tensor decIds = optionalInput(in, "decoder_input_ids");
        if (!decIds.defined() && labels.defined()) {
            // shift_tokens_right: [decoder_start] + labels[:-1], -100 -> pad
            const at::Tensor l = labels.to(at::kLong);
            decIds = at::cat({at::full({l.size(0), 1}, cfg.decoderStart, at::kLong), l.slice(1, 0, l.size(1) - 1)}, 1);
            decIds = decIds.masked_fill(decIds.eq(-100), cfg.pad);
        }
        if (decIds.defined()) {
            const at::Tensor dm = optionalInput(in, "decoder_attention_mask");
            const DecoderResult dec = m_model.decode(decIds, dm.defined() ? dm.to(at::kLong) : dm, enc.hidden, enc.mask,
                                                     decHier, nullptr, trace);
            out["logits"] = dec.logits;
            out["decoder_last_hidden_state"] = dec.hidden;
            if (labels.defined())
                out["loss"] = at::cross_entropy_loss(dec.logits.reshape({-1, cfg.vocab}), labels.to(at::kLong).reshape({-1}),
                                                     {}, at::Reduction::Mean, -100)
                                  .view({1});
            for (std::size_t i = 0; i < dec.selfAttentions.size(); ++i) {
                ctx.record("decoder_attentions." + std::to_string(i), dec.selfAttentions[i]);
                ctx.record("cross_attentions." + std::to_string(i), dec.crossAttentions[i]);
            }
            for (std::size_t i = 0; i < dec.hiddenStates.size(); ++i)
                ctx.record("decoder_hidden_states." + std::to_string(i), dec.hiddenStates[i]);
        }
        for (std::size_t i = 0; i < enc.attentions.size(); ++i)
            ctx.record("encoder_attentions." + std::to_string(i), enc.attentions[i]);
        for (std::size_t i = 0; i < enc.globalAttentions.size(); ++i)
            ctx.record("encoder_global_attentions." + std::to_string(i), enc.globalAttentions[i]);
        for (std::size_t i = 0; i < enc.hiddenStates.size(); ++i)
            ctx.record("encoder_hidden_states." + std::to_string(i), enc.hiddenStates[i]);
        generate(enc, decHier, &out);
        return out;
    }

private:
    HibridsBatch layout(const AtMap &in, std::int64_t batch) const
    {
        if (m_model.config().hibrids == HibridsVariant::None)
            return {};
        const at::Tensor t2s = optionalInput(in, "token_to_section");
        if (t2s.defined()) {
            std::vector<std::vector<std::int64_t>> parents;
            for (std::int64_t b = 0; b < batch; ++b)
                parents.push_back(int64Vector(requireInput(in, "row" + std::to_string(b) + ".section_parent")));
            return hibridsBatch(parents, t2s);
        }
        const at::Tensor band = optionalInput(in, "hierarchical_bias");
        if (band.defined() && m_model.config().hibrids == HibridsVariant::Encoder) {
            HibridsBatch h;
            h.bandIndex = band.to(at::kLong);
            if (h.bandIndex.dim() != 3 || h.bandIndex.size(2) != m_model.config().window + 1)
                throw InferenceError("hierarchical_bias must be [batch, length, attention_window + 1]");
            return h;
        }
        throw InferenceError("HIBRIDS model: give token_to_section [batch, length] and row<b>.section_parent "
                             "(the dense [L, L] cross_attn_hierarchical_bias is not accepted)");
    }

    void generate(const EncoderResult &enc, const HibridsBatch &decHier, AtMap *out) const
    {
        if (m_greedySteps > 0) {
            GenerationSettings s;
            s.maxLength = m_greedySteps + 1;
            s.stopAtEos = false;
            const SearchOutput r = generateSeq2seq(m_model, enc, decHier, s, {}, true);
            std::vector<std::int64_t> flat;
            for (const auto &row : r.rows)
                flat.insert(flat.end(), row.tokens.begin(), row.tokens.end());
            (*out)["greedy_tokens"] = at::tensor(flat, at::kLong).view({static_cast<std::int64_t>(r.rows.size()), -1});
            (*out)["greedy_step_logits"] = r.stepLogits;
        }
        if (m_beam) {
            for (std::int64_t b = 0; b < enc.hidden.size(0); ++b) {
                EncoderResult one;
                one.hidden = enc.hidden.slice(0, b, b + 1);
                one.mask = enc.mask.slice(0, b, b + 1);
                const SearchOutput r = generateSeq2seq(m_model, one, rowOf(decHier, b), *m_beam, {}, false);
                const auto &seq = r.rows.front();
                const std::string tag = ".row" + std::to_string(b);
                (*out)["beam_tokens" + tag] = at::tensor(seq.tokens, at::kLong).view({1, -1});
                (*out)["beam_score" + tag] = at::full({1}, seq.score, at::kFloat);
            }
        }
    }

    Seq2seqModel m_model;
    int m_greedySteps = 0;
    std::optional<GenerationSettings> m_beam;
};

} // namespace

void registerSeq2seq()
{
    for (const char *type : {"bart", "led"})
        registerModel(type, [](const ModelConfig &c, ParamStore &p) { return std::make_unique<Seq2seqRunnerModel>(c, p); });
}

} // namespace folio::inference::detail
