// BART / LED: configuration, weights by Hugging Face names, embeddings and the encoder stacks.
// BART (transformers v4.36 BartForConditionalGeneration): learned positions with offset 2, embedding
// LayerNorm, post-LN layers, no final LayerNorm, tied LM head + final_logits_bias.
// LED (v4.8, as HIBRIDS pins it): BART with positions at offset 0 and a Longformer encoder
// (longformer.cpp); HIBRIDS tables are picked up when the weights carry them.
#include "inference/qs/detail/seq2seqmodel.h"

#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/errors.h"
#include "inference/layers/detail/int8linear.h"

#include <cmath>
#include <utility>

namespace folio::inference::detail {

namespace {

std::int64_t attentionWindow(const ModelConfig &c)
{
    const auto &j = c.json();
    if (!j.contains("attention_window") || j["attention_window"].is_null())
        throw InferenceError(c.source() + ": LED config without attention_window");
    const auto &w = j["attention_window"];
    std::vector<std::int64_t> ws;
    if (w.is_number_integer())
        ws.push_back(w.get<std::int64_t>());
    else if (w.is_array())
        for (const auto &v : w)
            ws.push_back(v.get<std::int64_t>());
    if (ws.empty() || ws.front() <= 0 || ws.front() % 2 != 0)
        throw InferenceError(c.source() + ": attention_window must be a positive even number (or a list of them)");
    for (auto v : ws)
        if (v != ws.front())
            throw InferenceError(c.source() + ": attention_window differs between layers; the HIBRIDS/LED port "
                                              "needs one window for every layer (one banded index is shared)");
    return ws.front();
}

std::int64_t optionalToken(const ModelConfig &c, const std::string &key)
{
    return c.has(key) && !c.json()[key].is_null() ? c.getInt(key, -1) : -1;
}

FfnW loadFfn(ParamStore &p, const std::string &lp, std::int64_t d, std::int64_t ffn)
{
    return {LinearW::load(p, lp + "fc1", d, ffn), LinearW::load(p, lp + "fc2", ffn, d),
            LayerNormW::load(p, lp + "final_layer_norm", d, 1e-5)};
}

std::string modelPrefix(ParamStore &p, const std::string &modelType)
{
    const std::string wrapped = modelType == "led" ? "led." : "model.";
    if (p.isFresh())
        return wrapped; // new parameters (training from scratch) get the ForConditionalGeneration names
    for (const std::string &pre : {wrapped, std::string("hf_model.") + wrapped, std::string()})
        if (p.has(pre + "shared.weight"))
            return pre;
    throw InferenceError(p.path() + ": no '" + wrapped + "shared.weight' (the token table of a Hugging Face "
                         + modelType + " checkpoint)");
}

} // namespace

Seq2seqConfig Seq2seqConfig::fromConfig(const ModelConfig &c, HibridsVariant hibrids)
{
    Seq2seqConfig s;
    s.modelType = c.modelType();
    s.dModel = c.getInt("d_model", 1024);
    s.vocab = c.getInt("vocab_size", 50265);
    s.encLayers = c.getInt("encoder_layers", 12);
    s.decLayers = c.getInt("decoder_layers", 12);
    s.encHeads = c.getInt("encoder_attention_heads", 16);
    s.decHeads = c.getInt("decoder_attention_heads", 16);
    s.encFfn = c.getInt("encoder_ffn_dim", 4096);
    s.decFfn = c.getInt("decoder_ffn_dim", 4096);
    s.scaleEmbedding = c.getBool("scale_embedding", false);
    s.pad = c.getInt("pad_token_id", 1);
    s.bos = c.getInt("bos_token_id", 0);
    s.eos = c.getInt("eos_token_id", 2);
    s.decoderStart = c.getInt("decoder_start_token_id", s.eos);
    const std::string act = c.getString("activation_function", "gelu");
    if (act != "gelu")
        throw InferenceError(c.source() + ": activation_function '" + act + "' not supported (gelu only)");
    if (s.modelType == "led") {
        s.maxEncPositions = c.getInt("max_encoder_position_embeddings", 16384);
        s.maxDecPositions = c.getInt("max_decoder_position_embeddings", 1024);
        s.positionOffset = 0;
        s.window = attentionWindow(c);
    } else {
        s.maxEncPositions = s.maxDecPositions = c.getInt("max_position_embeddings", 1024);
        s.positionOffset = 2;
    }
    if (s.dModel <= 0 || s.encHeads <= 0 || s.decHeads <= 0 || s.dModel % s.encHeads || s.dModel % s.decHeads)
        throw InferenceError(c.source() + ": d_model must be a positive multiple of the attention heads");
    s.hibrids = hibrids;
    s.copyHead = c.getBool("folio_copy_head", false);
    GenerationSettings &g = s.generation;
    g.numBeams = static_cast<int>(c.getInt("num_beams", 1));
    g.maxLength = static_cast<int>(c.getInt("max_length", 20));
    g.minLength = static_cast<int>(c.getInt("min_length", 0));
    g.noRepeatNgramSize = static_cast<int>(c.getInt("no_repeat_ngram_size", 0));
    g.earlyStopping = c.getBool("early_stopping", false);
    g.lengthPenalty = c.getDouble("length_penalty", 1.0);
    g.forcedBosTokenId = optionalToken(c, "forced_bos_token_id");
    g.forcedEosTokenId = optionalToken(c, "forced_eos_token_id");
    return s;
}

ProjectionsW ProjectionsW::load(ParamStore &p, const std::string &prefix, std::int64_t d)
{
    return {LinearW::load(p, prefix + ".q_proj", d, d), LinearW::load(p, prefix + ".k_proj", d, d),
            LinearW::load(p, prefix + ".v_proj", d, d), LinearW::load(p, prefix + ".out_proj", d, d)};
}

Seq2seqModel::Seq2seqModel(const ModelConfig &config, ParamStore &p)
{
    const std::string type = config.modelType();
    const std::string pre = modelPrefix(p, type);
    const auto decLayers = config.getInt("decoder_layers", 12);
    // LED (the released HIBRIDS) keeps the table inside longformer_self_attn; a Folio-trained BART in self_attn.
    const std::string encAttn = type == "led" ? "self_attn.longformer_self_attn." : "self_attn.";
    const std::string encTable = pre + "encoder.layers.0." + encAttn + "relative_hierarchical_bias.weight";
    const std::string decTable = pre + "decoder.layers." + std::to_string(decLayers - 1)
                                 + ".encoder_attn.relative_hierarchical_bias.weight";
    HibridsVariant variant = HibridsVariant::None;
    if (p.has(encTable))
        variant = HibridsVariant::Encoder;
    if (p.has(decTable)) {
        if (variant != HibridsVariant::None)
            throw InferenceError(p.path() + ": both HIBRIDS encoder and decoder tables; the reference has one or the other");
        if (decLayers < 2)
            throw InferenceError(p.path() + ": the HIBRIDS decoder variant needs at least 2 decoder layers "
                                            "(it weights the last layer's bias by the penultimate layer's cross-attention)");
        variant = HibridsVariant::Decoder;
    }
    m_cfg = Seq2seqConfig::fromConfig(config, variant);
    const auto d = m_cfg.dModel;

    m_shared = p.take(pre + "shared.weight", {m_cfg.vocab, d});
    for (const std::string &alias : {pre + "encoder.embed_tokens.weight", pre + "decoder.embed_tokens.weight",
                                     std::string("lm_head.weight")})
        p.ignore(alias); // tied to shared.weight (tie_word_embeddings)
    m_finalLogitsBias = p.takeOptional("final_logits_bias", {1, m_cfg.vocab});
    if (!m_finalLogitsBias.defined())
        m_finalLogitsBias = at::zeros({1, m_cfg.vocab}, at::kFloat); // absent in some checkpoints = zeros
    m_encPositions = p.take(pre + "encoder.embed_positions.weight", {m_cfg.maxEncPositions + m_cfg.positionOffset, d});
    m_decPositions = p.take(pre + "decoder.embed_positions.weight", {m_cfg.maxDecPositions + m_cfg.positionOffset, d});
    m_encEmbNorm = LayerNormW::load(p, pre + "encoder.layernorm_embedding", d, 1e-5);
    m_decEmbNorm = LayerNormW::load(p, pre + "decoder.layernorm_embedding", d, 1e-5);

    for (std::int64_t i = 0; i < m_cfg.encLayers; ++i) {
        const std::string lp = pre + "encoder.layers." + std::to_string(i) + ".";
        if (type == "led") {
            const std::string ap = lp + "self_attn.longformer_self_attn.";
            LongformerLayerW w;
            const std::pair<LinearW *, const char *> projections[] = {
                {&w.q, "query"}, {&w.k, "key"}, {&w.v, "value"},
                {&w.qGlobal, "query_global"}, {&w.kGlobal, "key_global"}, {&w.vGlobal, "value_global"}};
            for (const auto &[slot, name] : projections)
                *slot = LinearW::load(p, ap + name, d, d);
            w.out = LinearW::load(p, lp + "self_attn.output", d, d);
            if (variant == HibridsVariant::Encoder) {
                const std::string tk = ap + "relative_hierarchical_bias.weight";
                if (!p.has(tk))
                    throw InferenceError(p.path() + ": HIBRIDS encoder variant: tensor '" + tk + "' missing "
                                         "(every encoder layer has its own table)");
                w.hierTable = p.take(tk, {600, m_cfg.encHeads});
            }
            w.selfNorm = LayerNormW::load(p, lp + "self_attn_layer_norm", d, 1e-5);
            w.ffn = loadFfn(p, lp, d, m_cfg.encFfn);
            m_ledLayers.push_back(std::move(w));
        } else {
            BartEncoderLayerW w;
            w.self = ProjectionsW::load(p, lp + "self_attn", d);
            w.selfNorm = LayerNormW::load(p, lp + "self_attn_layer_norm", d, 1e-5);
            w.ffn = loadFfn(p, lp, d, m_cfg.encFfn);
            if (variant == HibridsVariant::Encoder) {
                const std::string tk = lp + encAttn + "relative_hierarchical_bias.weight";
                if (!p.has(tk))
                    throw InferenceError(p.path() + ": HIBRIDS encoder variant: tensor '" + tk + "' missing "
                                         "(every encoder layer has its own table)");
                w.hierTable = p.take(tk, {600, m_cfg.encHeads});
            }
            m_bartLayers.push_back(std::move(w));
        }
    }
    for (std::int64_t i = 0; i < m_cfg.decLayers; ++i) {
        const std::string lp = pre + "decoder.layers." + std::to_string(i) + ".";
        DecoderLayerW w;
        w.self = ProjectionsW::load(p, lp + "self_attn", d);
        w.selfNorm = LayerNormW::load(p, lp + "self_attn_layer_norm", d, 1e-5);
        w.cross = ProjectionsW::load(p, lp + "encoder_attn", d);
        w.crossNorm = LayerNormW::load(p, lp + "encoder_attn_layer_norm", d, 1e-5);
        w.ffn = loadFfn(p, lp, d, m_cfg.decFfn);
        if (variant == HibridsVariant::Decoder && i == m_cfg.decLayers - 1)
            w.beta = p.take(decTable, {600, 1});
        m_decLayers.push_back(std::move(w));
    }
    if (m_cfg.copyHead) {
        for (const char *part : {"weight", "bias"})
            if (!p.isFresh() && !p.has(std::string("copy_head.p_gen.") + part))
                throw InferenceError(p.path() + ": config.json says \"folio_copy_head\": true but tensor 'copy_head.p_gen."
                                     + part + "' is missing (the pointer-generator gate, [1, 3 d_model] and [1])");
        m_copyGate = LinearW::load(p, "copy_head.p_gen", 3 * d, 1);
    }
}

void Seq2seqModel::quantizeDynamicInt8()
{
    const auto projections = [](ProjectionsW &w) {
        for (LinearW *l : {&w.q, &w.k, &w.v, &w.out})
            detail::quantizeDynamicInt8(*l);
    };
    const auto ffn = [](FfnW &f) {
        detail::quantizeDynamicInt8(f.fc1);
        detail::quantizeDynamicInt8(f.fc2);
    };
    for (BartEncoderLayerW &w : m_bartLayers) {
        projections(w.self);
        ffn(w.ffn);
    }
    for (LongformerLayerW &w : m_ledLayers) {
        for (LinearW *l : {&w.q, &w.k, &w.v, &w.qGlobal, &w.kGlobal, &w.vGlobal, &w.out})
            detail::quantizeDynamicInt8(*l);
        ffn(w.ffn);
    }
    for (DecoderLayerW &w : m_decLayers) {
        projections(w.self);
        projections(w.cross);
        ffn(w.ffn);
    }
    m_int8 = true;
}

at::Tensor Seq2seqModel::outputScores(const DecoderResult &r, const at::Tensor &srcIds) const
{
    if (!m_cfg.copyHead)
        return r.logits;
    if (!srcIds.defined() || srcIds.dim() != 2 || srcIds.size(0) != r.logits.size(0)
        || srcIds.size(1) != r.copyAttention.size(2))
        throw InferenceError("copy head: the source ids must be [rows, source length] of the encoded batch");
    const auto n = r.logits.size(0), t = r.logits.size(1);
    const at::Tensor index = srcIds.to(at::kLong).unsqueeze(1).expand({n, t, srcIds.size(1)});
    const at::Tensor copied = at::zeros_like(r.logits).scatter_add(2, index, r.copyAttention);
    const at::Tensor mixed = r.copyGate * at::softmax(r.logits, -1) + (1.0 - r.copyGate) * copied;
    return at::log(mixed.clamp_min(1e-12));
}

at::Tensor Seq2seqModel::embed(const at::Tensor &ids, const at::Tensor &positions, const LayerNormW &norm,
                               std::int64_t past) const
{
    const auto len = ids.size(1);
    const auto rows = positions.size(0) - m_cfg.positionOffset;
    if (past + len > rows)
        throw InferenceError("sequence of " + std::to_string(past + len) + " positions exceeds the model's "
                             + std::to_string(rows) + " learned positions");
    if (ids.numel() && (ids.min().item<std::int64_t>() < 0 || ids.max().item<std::int64_t>() >= m_cfg.vocab))
        throw InferenceError("token id outside [0, " + std::to_string(m_cfg.vocab) + ")");
    at::Tensor tok = at::embedding(m_shared, ids);
    if (m_cfg.scaleEmbedding)
        tok = tok * std::sqrt(static_cast<double>(m_cfg.dModel));
    const at::Tensor pos = positions.slice(0, past + m_cfg.positionOffset, past + len + m_cfg.positionOffset);
    return norm(tok + pos.unsqueeze(0));
}

at::Tensor hibridsDenseBias(const at::Tensor &table, const HibridsBatch &h)
{
    if (!h.tokenToSection.defined() || !h.sectionIndex.defined())
        throw InferenceError("HIBRIDS encoder variant (BART): no section layout given (token_to_section + section_parent)");
    const auto b = h.tokenToSection.size(0), n = h.sectionIndex.size(1), heads = table.size(1);
    std::vector<at::Tensor> rows;
    rows.reserve(static_cast<std::size_t>(b));
    for (std::int64_t r = 0; r < b; ++r) {
        const at::Tensor sec = table.index_select(0, h.sectionIndex[r].reshape({-1})).view({n, n, heads}).permute({2, 0, 1});
        const at::Tensor t2s = h.tokenToSection[r];
        rows.push_back(sec.index_select(1, t2s).index_select(2, t2s));
    }
    return at::stack(rows); // [B, H, S, S]
}

at::Tensor Seq2seqModel::bartEncoderLayer(const BartEncoderLayerW &w, const at::Tensor &x, const at::Tensor &addMask,
                                          const HibridsBatch &hier, at::Tensor *probs) const
{
    const auto h = m_cfg.encHeads;
    // HIBRIDS: the bias joins the scaled scores with the padding mask (MODELS.md §5.4, after scaling).
    const at::Tensor add = w.hierTable.defined() ? addMask + hibridsDenseBias(w.hierTable, hier) : addMask;
    const at::Tensor ctx = scaledAttention(splitHeads(w.self.q(x), h), splitHeads(w.self.k(x), h),
                                           splitHeads(w.self.v(x), h), add, probs);
    const at::Tensor y = w.selfNorm(x + w.self.out(mergeHeads(ctx)));
    return w.ffn(y);
}

EncoderResult Seq2seqModel::encode(const at::Tensor &idsIn, const at::Tensor &maskIn, const at::Tensor &globalIn,
                                   const HibridsBatch &hier, bool trace) const
{
    EncoderResult r;
    const at::Tensor ids0 = idsIn.to(at::kLong);
    const auto b = ids0.size(0), s = ids0.size(1);
    r.mask = maskIn.defined() ? maskIn.to(at::kLong) : at::ones({b, s}, at::kLong);
    if (r.mask.sizes() != ids0.sizes())
        throw InferenceError("attention_mask must have the shape of input_ids");
    at::Tensor ids = ids0, mask = r.mask;
    at::Tensor global = globalIn.defined() ? globalIn.to(at::kLong) : at::zeros({b, s}, at::kLong);
    HibridsBatch h = hier;
    if (m_cfg.modelType == "led") {
        // LEDEncoder._pad_to_window_size: pad to a multiple of attention_window, cut back afterwards.
        // The reference crashes here when a HIBRIDS bias is given (it pads the bias on the wrong
        // axis); this port pads the token -> section map too (extra tokens join the last section).
        const auto padLen = (m_cfg.window - s % m_cfg.window) % m_cfg.window;
        if (padLen) {
            ids = at::constant_pad_nd(ids, {0, padLen}, static_cast<double>(m_cfg.pad));
            mask = at::constant_pad_nd(mask, {0, padLen}, 0);
            global = at::constant_pad_nd(global, {0, padLen}, 0);
            if (h.defined())
                h = h.padded(s + padLen);
        }
    }
    at::Tensor x = embed(ids, m_encPositions, m_encEmbNorm, 0);
    if (trace)
        r.hiddenStates.push_back(x);
    if (m_cfg.modelType == "led") {
        if (m_cfg.hibrids == HibridsVariant::Encoder && !h.defined())
            throw InferenceError("HIBRIDS encoder variant: no section layout given (token_to_section + "
                                 "row<b>.section_parent, or the reference's banded hierarchical_bias)");
        const at::Tensor mask3 = mask * (global + 1); // 0 pad, 1 local, 2 global
        for (const auto &w : m_ledLayers) {
            at::Tensor probs, gprobs;
            x = longformerLayer(w, x, mask3, h, trace ? &probs : nullptr, trace ? &gprobs : nullptr);
            if (trace) {
                r.hiddenStates.push_back(x);
                r.attentions.push_back(probs);
                if (gprobs.defined())
                    r.globalAttentions.push_back(gprobs);
            }
        }
        x = x.slice(1, 0, s);
    } else {
        if (m_cfg.hibrids == HibridsVariant::Encoder && !h.tokenToSection.defined())
            throw InferenceError("HIBRIDS encoder variant: no section layout given (token_to_section + section_parent)");
        const at::Tensor add = additiveMask(mask);
        for (const auto &w : m_bartLayers) {
            at::Tensor probs;
            x = bartEncoderLayer(w, x, add, h, trace ? &probs : nullptr);
            if (trace) {
                r.hiddenStates.push_back(x);
                r.attentions.push_back(probs);
            }
        }
    }
    r.hidden = x;
    r.ids = ids0;
    return r;
}

} // namespace folio::inference::detail
