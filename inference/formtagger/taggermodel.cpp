// The trainable word-level layout tagger: parameters, forward, batch preparation.
#include "inference/formtagger/detail/taggermodel.h"

#include "inference/layers/detail/int8linear.h"
#include "inference/layers/buckets.h"
#include "inference/checkpoint/detail/convert.h"
#include "inference/errors.h"
#include "common/regularfile.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/detail/jsonfile.h"
#include "inference/training/detail/trainkit.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

namespace folio::inference::detail {

// ---- config ------------------------------------------------------------------

std::string TaggerConfig::toJson() const
{
    nlohmann::json j;
    j["model_type"] = "folio-formtagger";
    j["architectures"] = {"FolioFormTaggerForTokenClassification"};
    j["variant"] = variant;
    if (!architecture.empty())
        j["architecture"] = architecture;
    if (!wordOrder.empty())
        j["word_order"] = wordOrder;
    j["vocab_size"] = vocabSize;
    j["hidden_size"] = hidden;
    j["num_hidden_layers"] = layers;
    j["num_attention_heads"] = heads;
    j["intermediate_size"] = intermediate;
    j["hidden_act"] = "gelu";
    j["pre_layer_norm"] = true;
    j["max_position_embeddings"] = maxPositions;
    j["max_2d_position_embeddings"] = 1001;
    j["max_pieces_per_word"] = maxPiecesPerWord;
    j["max_words"] = maxWords;
    j["window_stride"] = windowStride;
    j["hidden_dropout_prob"] = dropout;
    j["attention_probs_dropout_prob"] = 0.0;
    j["layer_norm_eps"] = layerNormEps;
    j["has_relative_attention_bias"] = true;
    j["has_spatial_attention_bias"] = useSpatialBias();
    if (useDisentangled())
        j["disentangled_span"] = 128;
    j["rel_pos_bins"] = 32;
    j["max_rel_pos"] = 128;
    j["rel_2d_pos_bins"] = 64;
    j["max_rel_2d_pos"] = 256;
    j["gap_buckets"] = 33;
    j["num_labels"] = numLabels;
    nlohmann::json id2label = nlohmann::json::object(), label2id = nlohmann::json::object();
    for (size_t i = 0; i < labels.size(); ++i) {
        id2label[std::to_string(i)] = labels[i];
        label2id[labels[i]] = int(i);
    }
    j["id2label"] = id2label;
    j["label2id"] = label2id;
    return j.dump(2);
}

TaggerConfig TaggerConfig::fromJsonFile(const std::string &path)
{
    if (!pathExists(path))
        throw InferenceError(path + ": cannot open (not a checkpoint folder?)");
    // The bounded reader: a regular file only, size from stat, depth and values limited (issue 51).
    return fromJson(readJsonFile(path), path);
}

TaggerConfig TaggerConfig::fromJson(const nlohmann::json &j, const std::string &path)
{
    if (!j.is_object() || j.value("model_type", std::string()) != "folio-formtagger")
        throw InferenceError(path + ": model_type is not \"folio-formtagger\"");
    TaggerConfig c;
    try {
        c.variant = j.value("variant", std::string("full"));
        c.architecture = j.value("architecture", std::string());
        c.wordOrder = j.value("word_order", std::string());
        c.vocabSize = j.at("vocab_size").get<int>();
        c.hidden = j.at("hidden_size").get<int>();
        c.layers = j.at("num_hidden_layers").get<int>();
        c.heads = j.at("num_attention_heads").get<int>();
        c.intermediate = j.at("intermediate_size").get<int>();
        c.maxPositions = j.value("max_position_embeddings", 1024);
        c.maxPiecesPerWord = j.value("max_pieces_per_word", 8);
        c.maxWords = j.value("max_words", 512);
        c.windowStride = j.value("window_stride", 384);
        c.dropout = j.value("hidden_dropout_prob", 0.1);
        c.layerNormEps = j.value("layer_norm_eps", 1e-5);
        const auto &id2label = j.at("id2label");
        c.numLabels = int(id2label.size());
        c.labels.assign(size_t(c.numLabels), std::string());
        for (auto it = id2label.begin(); it != id2label.end(); ++it) {
            const int i = std::stoi(it.key());
            if (i < 0 || i >= c.numLabels)
                throw InferenceError(path + ": id2label index " + it.key() + " out of range");
            c.labels[size_t(i)] = it.value().get<std::string>();
        }
    } catch (const InferenceError &) {
        throw;
    } catch (const std::exception &e) {
        throw InferenceError(path + ": bad config: " + e.what());
    }
    if (c.heads <= 0 || c.hidden <= 0 || c.layers <= 0 || c.vocabSize <= 0 || c.intermediate <= 0 || c.maxWords <= 0)
        throw InferenceError(path + ": sizes must be positive (hidden_size, num_attention_heads, num_hidden_layers, "
                                    "vocab_size, intermediate_size, max_words)");
    if (c.hidden % c.heads != 0 || c.maxWords > c.maxPositions || c.windowStride <= 0 || c.windowStride > c.maxWords)
        throw InferenceError(path + ": inconsistent sizes (hidden/heads, max_words/window_stride)");
    if (c.variant != "full" && c.variant != "no-spatial-bias" && c.variant != "text")
        throw InferenceError(path + ": unknown variant \"" + c.variant + "\"");
    const std::string &a = c.architecture;
    if (!a.empty() && a != "layoutlmv3" && a != "layoutlmv2" && a != "ernie" && a != "text")
        throw InferenceError(path + ": unknown architecture \"" + a + "\" (layoutlmv3, layoutlmv2, ernie, text)");
    if ((a == "text") != (!a.empty() && c.variant == "text") || (!a.empty() && a != "text" && c.variant != "full"))
        throw InferenceError(path + ": architecture \"" + a + "\" does not fit variant \"" + c.variant + "\"");
    const std::string &o = c.wordOrder;
    if (!o.empty() && o != "annotation" && o != "reading" && o != "layout")
        throw InferenceError(path + ": unknown word_order \"" + o + "\" (annotation, reading, layout)");
    return c;
}

// ---- data --------------------------------------------------------------------

double TaggerConfig::biasDivisor() const
{
    return architecture == "layoutlmv3" ? std::sqrt(double(hidden / heads)) : 1.0;
}

// ERNIE-Layout paper form: relative distances clamped to +-kErnieSpan; x / y in steps of
// kErnieCoordStep (0..1000 -> 0..125, never clamped).
constexpr std::int64_t kErnieSpan = 128;
constexpr std::int64_t kErnieCoordStep = 8;

EncodedPage encodePage(const Tokenizer &tok, const TaggerPage &page, const TaggerConfig &cfg,
                       const std::map<std::string, int> &labelIds, int begin, int end)
{
    EncodedPage e;
    for (int w = begin; w < end; ++w) {
        std::vector<int> ids = tok.encodeWord(page.words[size_t(w)], w == 0);
        for (int &id : ids)
            if (id < 0 || id >= cfg.vocabSize)
                id = tok.unkId();
        if (ids.empty())
            ids.push_back(tok.unkId());
        if (int(ids.size()) > cfg.maxPiecesPerWord)
            ids.resize(size_t(cfg.maxPiecesPerWord));
        e.pieceCount += long(ids.size());
        e.pieces.push_back(std::move(ids));
        const WordBox &b = page.boxes[size_t(w)];
        e.boxes.push_back({float(b.x0), float(b.y0), float(b.x1), float(b.y1)});
        if (!page.tags.empty()) {
            const auto it = labelIds.find(page.tags[size_t(w)]);
            if (it == labelIds.end())
                throw InferenceError("page " + page.id + ", word " + std::to_string(w) + ": label \"" +
                                     page.tags[size_t(w)] + "\" is not in the model's label map");
            e.labels.push_back(it->second);
        }
    }
    return e;
}

static int gapBucket(double g) { return t5Bucket(std::int64_t(std::nearbyint(g)), 32, 500); }

Batch makeBatch(const std::vector<const EncodedPage *> &pages, const TaggerConfig &cfg, std::mt19937 *rng)
{
    const long B = long(pages.size());
    long N = 1, K = 1;
    for (const EncodedPage *p : pages) {
        N = std::max<long>(N, long(p->pieces.size()));
        for (const auto &w : p->pieces)
            K = std::max<long>(K, long(w.size()));
    }
    Batch b;
    std::vector<std::int64_t> ids(size_t(B * N * K), 0), boxes(size_t(B * N * 4), 0), gaps(size_t(B * N * 4), 32),
        labels(size_t(B * N), -100);
    std::vector<float> pmask(size_t(B * N * K), 0.f);
    std::vector<char> wmask(size_t(B * N), 0);
    std::uniform_real_distribution<double> uScale(0.85, 1.15), uShift(-60, 60), uNoise(-2, 2);
    for (long bi = 0; bi < B; ++bi) {
        const EncodedPage &p = *pages[size_t(bi)];
        const long n = long(p.pieces.size());
        std::vector<std::array<double, 4>> fb(static_cast<size_t>(n));
        for (long i = 0; i < n; ++i)
            for (int c = 0; c < 4; ++c)
                fb[size_t(i)][size_t(c)] = p.boxes[size_t(i)][size_t(c)];
        if (rng && cfg.useLayout()) {
            const double sx = uScale(*rng), sy = uScale(*rng), tx = uShift(*rng), ty = uShift(*rng);
            double lo[2] = {1e9, 1e9}, hi[2] = {-1e9, -1e9};
            for (auto &q : fb) {
                for (int c = 0; c < 4; ++c) {
                    const int axis = c % 2; // 0: x, 1: y
                    q[size_t(c)] = q[size_t(c)] * (axis ? sy : sx) + (axis ? ty : tx) + uNoise(*rng);
                    lo[axis] = std::min(lo[axis], q[size_t(c)]);
                    hi[axis] = std::max(hi[axis], q[size_t(c)]);
                }
            }
            for (int axis = 0; axis < 2; ++axis) {
                double shift = 0;
                if (lo[axis] < 0) shift = -lo[axis];
                else if (hi[axis] > 1000) shift = -(hi[axis] - 1000);
                for (auto &q : fb)
                    for (int c = axis; c < 4; c += 2)
                        q[size_t(c)] = std::clamp(q[size_t(c)] + shift, 0.0, 1000.0);
            }
        }
        for (long i = 0; i < n; ++i) {
            const long wi = bi * N + i;
            wmask[size_t(wi)] = 1;
            const auto &pc = p.pieces[size_t(i)];
            for (size_t k = 0; k < pc.size(); ++k) {
                ids[size_t(wi * K + long(k))] = pc[k];
                pmask[size_t(wi * K + long(k))] = 1.f;
            }
            for (int c = 0; c < 4; ++c)
                boxes[size_t(wi * 4 + c)] = std::int64_t(std::clamp(std::nearbyint(fb[size_t(i)][size_t(c)]), 0.0, 1000.0));
            if (i > 0) {
                gaps[size_t(wi * 4 + 0)] = gapBucket(fb[size_t(i)][0] - fb[size_t(i - 1)][2]);
                gaps[size_t(wi * 4 + 1)] = gapBucket(fb[size_t(i)][1] - fb[size_t(i - 1)][1]);
            }
            if (i + 1 < n) {
                gaps[size_t(wi * 4 + 2)] = gapBucket(fb[size_t(i + 1)][0] - fb[size_t(i)][2]);
                gaps[size_t(wi * 4 + 3)] = gapBucket(fb[size_t(i + 1)][1] - fb[size_t(i)][1]);
            }
            if (!p.labels.empty())
                labels[size_t(wi)] = p.labels[size_t(i)];
        }
        b.words += n;
        b.pieces += p.pieceCount;
    }
    const auto i64 = at::TensorOptions().dtype(at::kLong);
    b.pieceIds = at::tensor(ids, i64).view({B, N, K});
    b.pieceMask = at::tensor(pmask, at::TensorOptions().dtype(at::kFloat)).view({B, N, K});
    std::vector<std::int64_t> wm(wmask.begin(), wmask.end());
    b.wordMask = at::tensor(wm, i64).view({B, N}).to(at::kBool);
    b.boxes = at::tensor(boxes, i64).view({B, N, 4});
    b.gaps = at::tensor(gaps, i64).view({B, N, 4});
    if (!pages.empty() && !pages.front()->labels.empty())
        b.labels = at::tensor(labels, i64).view({B, N});
    return b;
}

// ---- model -------------------------------------------------------------------

Tagger::Tagger(const TaggerConfig &cfg) : m_cfg(cfg)
{
    ParamStore store = ParamStore::fresh();
    build(store);
    for (auto &kv : m_params)
        if (kv.first.find("LayerNorm.weight") != std::string::npos)
            kv.second.fill_(1.0);
}

Tagger::Tagger(const TaggerConfig &cfg, ParamStore &store) : m_cfg(cfg)
{
    build(store);
}

void Tagger::build(ParamStore &p)
{
    const long D = m_cfg.hidden, H = m_cfg.heads;
    m_words = p.take("embeddings.word_embeddings.weight", {m_cfg.vocabSize, D});
    m_positions = p.take("embeddings.position_embeddings.weight", {m_cfg.maxPositions, D});
    if (m_cfg.useLayout()) {
        const char *coords[4] = {"x", "y", "w", "h"};
        for (int k = 0; k < 4; ++k) {
            m_coords[size_t(k)] = p.take(std::string("embeddings.") + coords[k] + "_position_embeddings.weight", {1001, D});
            m_gaps[size_t(k)] = p.take("embeddings.gap_embeddings." + std::to_string(k) + ".weight", {33, D});
        }
    }
    m_embLn = LayerNormW::load(p, "embeddings.LayerNorm", D, m_cfg.layerNormEps);
    if (m_cfg.useDisentangled()) {
        const char *names[3] = {"1d", "x", "y"};
        for (int t = 0; t < 3; ++t)
            m_relEmb[size_t(t)] = p.take(std::string("encoder.rel_embeddings.") + names[t] + ".weight", {2 * kErnieSpan, D});
    } else {
        m_rel1d = RelativeBucketBias(p.take("encoder.rel_pos_bias.weight", {H, 32}), 32, 128);
    }
    if (m_cfg.useSpatialBias()) {
        m_relX = RelativeBucketBias(p.take("encoder.rel_pos_x_bias.weight", {H, 64}), 64, 256);
        m_relY = RelativeBucketBias(p.take("encoder.rel_pos_y_bias.weight", {H, 64}), 64, 256);
    }
    for (int l = 0; l < m_cfg.layers; ++l) {
        const std::string pre = "encoder.layer." + std::to_string(l);
        Layer layer;
        layer.attention = SelfAttentionW::load(p, pre + ".attention.self", D, H);
        layer.ffn = FeedForwardW::load(p, pre, D, m_cfg.intermediate, m_cfg.layerNormEps);
        m_layers.push_back(std::move(layer));
    }
    m_finalLn = LayerNormW::load(p, "encoder.LayerNorm", D, m_cfg.layerNormEps);
    m_classifier = LinearW::load(p, "classifier", D, m_cfg.numLabels);
    m_params = p.parameters();
}

bool Tagger::isBiasTable(const std::string &name) { return name.rfind("encoder.rel_pos", 0) == 0; }

bool Tagger::noDecay(const std::string &name, const at::Tensor &t)
{
    return t.dim() < 2 || isBiasTable(name);
}

void Tagger::initialise(std::uint64_t seed)
{
    initialiseParameters(m_params, seed, 0.02, &Tagger::isBiasTable);
    at::NoGradGuard guard;
    m_words[0].zero_(); // pad row
}

void Tagger::save(const std::string &path) const
{
    writeParameters(path, m_params, "folio-formtagger");
}

void Tagger::quantizeDynamicInt8()
{
    for (Layer &layer : m_layers) {
        detail::quantizeDynamicInt8(layer.attention);
        detail::quantizeDynamicInt8(layer.ffn);
    }
    // The classifier (D -> a handful of labels) stays float32: int8 saves nothing on so few
    // outputs and costs a quantization pass (BENCHMARKS.md, issue 35).
}

at::Tensor Tagger::embed(const Batch &b, bool training) const
{
    const long N = b.pieceIds.size(1);
    at::Tensor tok = at::embedding(m_words, b.pieceIds) * b.pieceMask.unsqueeze(-1);
    at::Tensor x = tok.sum(2) / b.pieceMask.sum(2).clamp_min(1.0).unsqueeze(-1);
    x = x + at::embedding(m_positions, at::arange(N, at::kLong)).unsqueeze(0);
    if (m_cfg.useLayout()) {
        const at::Tensor &X = m_coords[0], &Y = m_coords[1];
        const at::Tensor x0 = b.boxes.select(2, 0), y0 = b.boxes.select(2, 1), x1 = b.boxes.select(2, 2),
                         y1 = b.boxes.select(2, 3);
        x = x + at::embedding(X, x0) + at::embedding(Y, y0) + at::embedding(X, x1) + at::embedding(Y, y1) +
            at::embedding(m_coords[2], (x1 - x0).clamp(0, 1000)) + at::embedding(m_coords[3], (y1 - y0).clamp(0, 1000));
        for (int k = 0; k < 4; ++k)
            x = x + at::embedding(m_gaps[size_t(k)], b.gaps.select(2, k));
    }
    return at::dropout(m_embLn(x), training ? m_cfg.dropout : 0.0, training);
}

at::Tensor Tagger::forward(const Batch &b, bool training, std::uint32_t disabledBiases,
                           std::map<std::string, at::Tensor> *trace) const
{
    return classify(hidden(b, training, disabledBiases, trace));
}

at::Tensor Tagger::hidden(const Batch &b, bool training, std::uint32_t disabledBiases,
                          std::map<std::string, at::Tensor> *trace) const
{
    const long N = b.pieceIds.size(1);
    if (N > m_cfg.maxPositions)
        throw InferenceError("folio-formtagger: " + std::to_string(N) + " words exceed max_position_embeddings");
    at::Tensor x = embed(b, training);

    // One score term [B, H, N, N] shared by all layers: T5 1-D over the word index + 2-D over x0 / y1
    // (unscaled) + key mask. A family switched off (bias ablation) is left out; the trace records it as zeros.
    const bool use1d = (disabledBiases & Bias1D) == 0;
    const bool use2d = m_cfg.useSpatialBias() && (disabledBiases & Bias2D) == 0;
    const at::Tensor pos = at::arange(N, at::kLong).unsqueeze(0); // [1, N]: the same for every page
    const at::Tensor xs = b.boxes.select(2, 0).contiguous(), ys = b.boxes.select(2, 3).contiguous();
    const at::Tensor keyMask = (~b.wordMask).to(at::kFloat) * -1e9; // [B, N]
    if (m_cfg.useDisentangled()) {
        for (size_t l = 0; l < m_layers.size(); ++l) {
            const Layer &layer = m_layers[l];
            at::Tensor probs;
            const at::Tensor ctx = ernieAttention(layer, layer.ffn.attnLn(x), keyMask, b, disabledBiases, trace ? &probs : nullptr);
            if (trace)
                (*trace)["attentions." + std::to_string(l)] = probs;
            x = layer.ffn.preLn(ctx, x, m_cfg.dropout, training);
        }
        return m_finalLn(x);
    }
    const at::Tensor bias = layoutBiasScores(use1d ? &m_rel1d : nullptr, pos, use2d ? &m_relX : nullptr, xs,
                                             use2d ? &m_relY : nullptr, ys, m_cfg.biasDivisor(), keyMask);
    if (trace) {
        auto term = [&](const RelativeBucketBias &r, const at::Tensor &p, bool on) {
            const at::Tensor t = r.dense(p);
            return on ? t : at::zeros_like(t);
        };
        (*trace)["bias.1d"] = term(m_rel1d, pos, use1d);
        if (m_cfg.useSpatialBias()) {
            (*trace)["bias.2d_x"] = term(m_relX, xs, use2d);
            (*trace)["bias.2d_y"] = term(m_relY, ys, use2d);
        }
    }
    for (size_t l = 0; l < m_layers.size(); ++l) {
        const Layer &layer = m_layers[l];
        at::Tensor probs;
        const at::Tensor ctx = layer.attention(layer.ffn.attnLn(x), bias, trace ? &probs : nullptr);
        if (trace)
            (*trace)["attentions." + std::to_string(l)] = probs;
        x = layer.ffn.preLn(ctx, x, m_cfg.dropout, training);
    }
    return m_finalLn(x);
}

at::Tensor Tagger::ernieAttention(const Layer &layer, const at::Tensor &h, const at::Tensor &keyMask, const Batch &b,
                                  std::uint32_t disabledBiases, at::Tensor *probs) const
{
    const SelfAttentionW &att = layer.attention;
    const std::int64_t H = att.heads, B = h.size(0), N = h.size(1);
    const at::Tensor q = splitHeads(att.query(h), H), k = splitHeads(att.key(h), H), v = splitHeads(att.value(h), H);
    // Relative embeddings through this layer's query / key projections (shared-key form): [H, 2k, d].
    const auto project = [H](const LinearW &lin, const at::Tensor &table) {
        return splitHeads(lin(table.unsqueeze(0)), H).squeeze(0);
    };
    const at::Tensor pos1d = at::arange(N, at::kLong).unsqueeze(0).expand({B, N}).contiguous();
    const at::Tensor xs = at::div(b.boxes.select(2, 0), kErnieCoordStep, "floor").contiguous();
    const at::Tensor ys = at::div(b.boxes.select(2, 3), kErnieCoordStep, "floor").contiguous();
    const at::Tensor positions[3] = {pos1d, xs, ys};
    const bool on[3] = {(disabledBiases & Bias1D) == 0, (disabledBiases & Bias2D) == 0, (disabledBiases & Bias2D) == 0};
    std::vector<at::Tensor> relQ, relK, pos;
    for (int t = 0; t < 3; ++t) {
        if (!on[t])
            continue;
        relQ.push_back(project(att.query, m_relEmb[size_t(t)]));
        relK.push_back(project(att.key, m_relEmb[size_t(t)]));
        pos.push_back(positions[t]);
    }
    const at::Tensor scores = ernieLayoutPaperScores(q, k, relQ, relK, pos, kErnieSpan) + keyMask.view({B, 1, 1, N});
    const at::Tensor p = at::softmax(scores, -1);
    if (probs)
        *probs = p;
    return mergeHeads(at::matmul(p, v));
}

} // namespace folio::inference::detail
