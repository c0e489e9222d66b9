// DeBERTa-v2 (MODELS.md §3): disentangled c2p/p2c attention with log buckets and shared keys.
#include "inference/layers/buckets.h"
#include "inference/layers/detail/layers.h"
#include "inference/models/detail/model.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/layers/detail/relbias.h"
#include "inference/errors.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace folio::inference::detail {
namespace {

class DebertaV2 : public Model
{
public:
    DebertaV2(const ModelConfig &c, ParamStore &p)
    {
        const std::string pre = p.has("deberta.embeddings.word_embeddings.weight") ? "deberta." : "";
        const auto d = m_hidden = c.getInt("hidden_size", 1536);
        m_heads = c.getInt("num_attention_heads", 24);
        const auto layers = c.getInt("num_hidden_layers", 24);
        const auto inter = c.getInt("intermediate_size", 6144);
        const double eps = c.getDouble("layer_norm_eps", 1e-7);
        const auto vocab = c.getInt("vocab_size", 128100);
        const auto maxPos = c.getInt("max_position_embeddings", 512);
        const auto typeVocab = c.getInt("type_vocab_size", 0);
        if (c.getBool("position_biased_input", true))
            m_posEmb = p.take(pre + "embeddings.position_embeddings.weight", {maxPos, d});
        if (typeVocab > 0)
            m_typeEmb = p.take(pre + "embeddings.token_type_embeddings.weight", {typeVocab, d});
        const auto embSize = c.getInt("embedding_size", d);
        m_word = p.take(pre + "embeddings.word_embeddings.weight", {vocab, embSize});
        if (embSize != d)
            m_embProj = LinearW::load(p, pre + "embeddings.embed_proj", embSize, d, false);
        m_embLn = LayerNormW::load(p, pre + "embeddings.LayerNorm", d, eps);
        p.ignore(pre + "embeddings.position_ids");

        m_relative = c.getBool("relative_attention", false);
        m_maxRel = c.getInt("max_relative_positions", -1);
        if (m_maxRel < 1)
            m_maxRel = maxPos;
        m_buckets = c.getInt("position_buckets", -1);
        const auto posEbd = m_buckets > 0 ? m_buckets : m_maxRel;
        m_span = posEbd;
        for (const auto &t : c.getStringList("pos_att_type")) {
            m_c2p = m_c2p || t == "c2p";
            m_p2c = m_p2c || t == "p2c";
        }
        m_shareKey = c.getBool("share_att_key", false);
        if (m_relative) {
            m_relEmb = p.take(pre + "encoder.rel_embeddings.weight", {2 * posEbd, d}); // encoder.rel_embeddings
            if (c.getString("norm_rel_ebd", "none").find("layer_norm") != std::string::npos)
                m_relLn = LayerNormW::load(p, pre + "encoder.LayerNorm", d, eps);
        }
        if (c.getInt("conv_kernel_size", 0) > 0)
            throw InferenceError(c.source() + ": DeBERTa-v2 conv_kernel_size > 0 is not supported");
        for (std::int64_t i = 0; i < layers; ++i) {
            const std::string lp = pre + "encoder.layer." + std::to_string(i);
            Layer L;
            L.q = LinearW::load(p, lp + ".attention.self.query_proj", d, d);
            L.k = LinearW::load(p, lp + ".attention.self.key_proj", d, d);
            L.v = LinearW::load(p, lp + ".attention.self.value_proj", d, d);
            if (m_relative && !m_shareKey) {
                if (m_c2p)
                    L.posK = LinearW::load(p, lp + ".attention.self.pos_key_proj", d, d);
                if (m_p2c)
                    L.posQ = LinearW::load(p, lp + ".attention.self.pos_query_proj", d, d);
            }
            L.ffn = FeedForwardW::load(p, lp, d, inter, eps);
            m_layers.push_back(std::move(L));
        }
    }

    std::string modelType() const override { return "deberta-v2"; }
    std::vector<std::string> inputNames() const override
    {
        return {"input_ids", "attention_mask", "token_type_ids", "position_ids"};
    }

    AtMap forward(const AtMap &in, const ForwardContext &ctx) const override
    {
        const at::Tensor ids = requireInput(in, "input_ids").to(at::kLong); // [B, L]
        const auto b = ids.size(0), l = ids.size(1), h = m_heads, d = m_hidden / m_heads;
        at::Tensor mask = optionalInput(in, "attention_mask");
        mask = mask.defined() ? mask.to(at::kLong) : at::ones({b, l}, at::kLong);

        // Embeddings: word (+pos) (+type) (+proj) -> LN -> * mask.
        at::Tensor e = at::embedding(m_word, ids);
        if (m_posEmb.defined()) {
            at::Tensor pid = optionalInput(in, "position_ids");
            pid = pid.defined() ? pid.to(at::kLong) : at::arange(l, at::kLong).unsqueeze(0).expand({b, l});
            e = e + at::embedding(m_posEmb, pid);
        }
        if (m_typeEmb.defined()) {
            at::Tensor tt = optionalInput(in, "token_type_ids");
            tt = tt.defined() ? tt.to(at::kLong) : at::zeros({b, l}, at::kLong);
            e = e + at::embedding(m_typeEmb, tt);
        }
        if (m_embProj.weight.defined())
            e = m_embProj(e);
        e = m_embLn(e);
        e = e * mask.unsqueeze(2).to(e.scalar_type());

        // Pairwise mask m_i * m_j: [B, 1, L, L] (true = keep).
        const at::Tensor keep = (mask.unsqueeze(1) * mask.unsqueeze(2)).unsqueeze(1).to(at::kBool);
        const at::Tensor rmask = keep.logical_not();

        // Relative machinery, once per forward: LUT over d = i - j in [-(L-1), L-1].
        const bool useRel = m_relative && ctx.enabled(BiasDisentangled) && (m_c2p || m_p2c);
        std::vector<std::int64_t> lut;
        const std::int64_t range = std::max<std::int64_t>(l - 1, 0);
        at::Tensor rel;
        if (useRel) {
            lut.resize(static_cast<std::size_t>(2 * range + 1));
            for (std::int64_t r = -range; r <= range; ++r) {
                const std::int64_t bucket = m_buckets > 0 ? debertaLogBucket(r, static_cast<int>(m_buckets),
                                                                             static_cast<int>(m_maxRel))
                                                          : r;
                lut[static_cast<std::size_t>(r + range)] = std::clamp<std::int64_t>(bucket + m_span, 0, 2 * m_span - 1);
            }
            rel = m_relEmb.narrow(0, 0, 2 * m_span);
            if (m_relLn.weight.defined())
                rel = m_relLn(rel);
        }
        const at::Tensor pos = at::arange(l, at::kLong).unsqueeze(0).expand({b, l}).contiguous();
        const int factor = 1 + (m_c2p ? 1 : 0) + (m_p2c ? 1 : 0);
        const float scale = std::sqrt(static_cast<float>(d) * static_cast<float>(factor));

        at::Tensor hs = e;
        for (std::size_t li = 0; li < m_layers.size(); ++li) {
            const Layer &L = m_layers[li];
            const at::Tensor q = splitHeads(L.q(hs), h), k = splitHeads(L.k(hs), h), v = splitHeads(L.v(hs), h);
            at::Tensor scores = at::matmul(q, k.transpose(-1, -2) / scale); // [B, H, L, L]
            if (useRel) {
                // Kr = key_proj(rel), Qr = query_proj(rel) (shared keys): [H, 2k, d]
                at::Tensor c2p, p2c;
                if (m_c2p) {
                    const at::Tensor kr = (m_shareKey ? L.k : L.posK)(rel).view({2 * m_span, h, d}).permute({1, 0, 2});
                    c2p = at::matmul(q, kr.transpose(-1, -2).unsqueeze(0)); // [B, H, L, 2k]
                }
                if (m_p2c) {
                    const at::Tensor qr = (m_shareKey ? L.q : L.posQ)(rel).view({2 * m_span, h, d}).permute({1, 0, 2});
                    p2c = at::matmul(k, qr.transpose(-1, -2).unsqueeze(0)); // [B, H, L, 2k]
                }
                const at::Tensor relAtt = at::GradMode::is_enabled()
                                              ? gatherDisentangled(c2p, p2c, pos, lut, range, scale, false)
                                              : fusedDisentangled(c2p, p2c, pos, lut, range, scale, false);
                if (ctx.tracing()) {
                    if (c2p.defined())
                        ctx.record("bias.c2p." + std::to_string(li),
                                   gatherDisentangled(c2p, at::Tensor(), pos, lut, range, scale, false));
                    if (p2c.defined())
                        ctx.record("bias.p2c." + std::to_string(li),
                                   gatherDisentangled(at::Tensor(), p2c, pos, lut, range, scale, false));
                }
                scores = scores + relAtt;
            }
            // XSoftmax: fill masked with finfo.min, softmax, zero masked probabilities.
            scores = scores.masked_fill(rmask, std::numeric_limits<float>::lowest());
            at::Tensor probs = at::softmax(scores, -1).masked_fill(rmask, 0.0);
            if (ctx.tracing())
                ctx.record("attentions." + std::to_string(li), probs);
            hs = L.ffn(mergeHeads(at::matmul(probs, v)), hs);
        }
        AtMap out;
        out["last_hidden_state"] = hs;
        return out;
    }

private:
    struct Layer
    {
        LinearW q, k, v, posK, posQ; // attention.self.{query,key,value}_proj, pos_key_proj, pos_query_proj
        FeedForwardW ffn;
    };
    std::int64_t m_hidden = 0, m_heads = 0, m_maxRel = 512, m_buckets = -1, m_span = 0;
    bool m_relative = false, m_c2p = false, m_p2c = false, m_shareKey = false;
    at::Tensor m_word, m_posEmb, m_typeEmb, m_relEmb;
    LinearW m_embProj;
    LayerNormW m_embLn, m_relLn;
    std::vector<Layer> m_layers;
};

} // namespace

void registerDebertaV2()
{
    registerModel("deberta-v2", [](const ModelConfig &c, ParamStore &p) { return std::make_unique<DebertaV2>(c, p); });
}

} // namespace folio::inference::detail
