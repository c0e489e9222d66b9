// The trainable word-level layout tagger: parameters, forward, batch preparation.
#include "inference/formtagger/detail/trainmodel.h"

#include "inference/layers/buckets.h"
#include "inference/checkpoint/detail/convert.h"
#include "inference/errors.h"
#include "inference/checkpoint/safetensors.h"

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
    std::ifstream in(path);
    if (!in)
        throw InferenceError(path + ": cannot open (not a checkpoint folder?)");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(in);
    } catch (const std::exception &e) {
        throw InferenceError(path + ": invalid JSON: " + e.what());
    }
    if (j.value("model_type", std::string()) != "folio-formtagger")
        throw InferenceError(path + ": model_type is not \"folio-formtagger\"");
    TaggerConfig c;
    try {
        c.variant = j.value("variant", std::string("full"));
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
    if (c.hidden % c.heads != 0 || c.maxWords > c.maxPositions || c.windowStride <= 0 || c.windowStride > c.maxWords)
        throw InferenceError(path + ": inconsistent sizes (hidden/heads, max_words/window_stride)");
    if (c.variant != "full" && c.variant != "no-spatial-bias" && c.variant != "text")
        throw InferenceError(path + ": unknown variant \"" + c.variant + "\"");
    return c;
}

// ---- data --------------------------------------------------------------------

EncodedPage encodePage(const Tokenizer &tok, const TrainPage &page, const TaggerConfig &cfg,
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
    const long D = cfg.hidden, H = cfg.heads, I = cfg.intermediate;
    auto add = [&](const std::string &name, std::vector<std::int64_t> shape) {
        m_params[name] = at::zeros(shape, at::kFloat);
    };
    add("embeddings.word_embeddings.weight", {cfg.vocabSize, D});
    add("embeddings.position_embeddings.weight", {cfg.maxPositions, D});
    if (cfg.useLayout()) {
        for (const char *n : {"x", "y", "w", "h"})
            add(std::string("embeddings.") + n + "_position_embeddings.weight", {1001, D});
        for (int k = 0; k < 4; ++k)
            add("embeddings.gap_embeddings." + std::to_string(k) + ".weight", {33, D});
    }
    add("embeddings.LayerNorm.weight", {D});
    add("embeddings.LayerNorm.bias", {D});
    add("encoder.rel_pos_bias.weight", {H, 32});
    if (cfg.useSpatialBias()) {
        add("encoder.rel_pos_x_bias.weight", {H, 64});
        add("encoder.rel_pos_y_bias.weight", {H, 64});
    }
    for (int l = 0; l < cfg.layers; ++l) {
        const std::string pre = "encoder.layer." + std::to_string(l) + ".";
        for (const char *n : {"query", "key", "value"}) {
            add(pre + "attention.self." + n + ".weight", {D, D});
            add(pre + "attention.self." + n + ".bias", {D});
        }
        add(pre + "attention.output.dense.weight", {D, D});
        add(pre + "attention.output.dense.bias", {D});
        add(pre + "attention.output.LayerNorm.weight", {D});
        add(pre + "attention.output.LayerNorm.bias", {D});
        add(pre + "intermediate.dense.weight", {I, D});
        add(pre + "intermediate.dense.bias", {I});
        add(pre + "output.dense.weight", {D, I});
        add(pre + "output.dense.bias", {D});
        add(pre + "output.LayerNorm.weight", {D});
        add(pre + "output.LayerNorm.bias", {D});
    }
    add("encoder.LayerNorm.weight", {D});
    add("encoder.LayerNorm.bias", {D});
    add("classifier.weight", {cfg.numLabels, D});
    add("classifier.bias", {cfg.numLabels});
    for (auto &kv : m_params)
        if (kv.first.find("LayerNorm.weight") != std::string::npos)
            kv.second.fill_(1.0);

    const std::vector<std::int64_t> l1 = t5BucketLut(32, 128, cfg.maxPositions);
    const std::vector<std::int64_t> l2 = t5BucketLut(64, 256, 1000);
    m_lut1d = at::tensor(l1, at::TensorOptions().dtype(at::kLong));
    m_lut2d = at::tensor(l2, at::TensorOptions().dtype(at::kLong));
}

bool Tagger::isBiasTable(const std::string &name) { return name.rfind("encoder.rel_pos", 0) == 0; }

bool Tagger::noDecay(const std::string &name, const at::Tensor &t)
{
    return t.dim() < 2 || isBiasTable(name);
}

void Tagger::initialise(std::uint64_t seed)
{
    at::manual_seed(seed);
    at::NoGradGuard guard;
    for (auto &kv : m_params) {
        const std::string &n = kv.first;
        if (n.find("LayerNorm") != std::string::npos || isBiasTable(n) || kv.second.dim() < 2)
            continue; // LN 1/0, biases 0, bias tables 0
        kv.second.normal_(0.0, 0.02);
    }
    m_params["embeddings.word_embeddings.weight"][0].zero_(); // pad row
    for (auto &kv : m_params)
        kv.second.set_requires_grad(true);
}

void Tagger::load(const std::string &path)
{
    SafetensorsFile file(path);
    for (auto &kv : m_params) {
        if (!file.contains(kv.first))
            throw InferenceError(path + ": tensor " + kv.first + " is missing");
        at::Tensor t = toAten(file.tensor(kv.first)).to(at::kFloat);
        if (t.sizes() != kv.second.sizes())
            throw InferenceError(path + ": tensor " + kv.first + " has shape " + shapeString(t.sizes().vec()) +
                                 ", expected " + shapeString(kv.second.sizes().vec()));
        kv.second = t.contiguous();
    }
}

void Tagger::save(const std::string &path) const
{
    TensorMap out;
    for (const auto &kv : m_params)
        out[kv.first] = fromAten(kv.second.detach());
    writeSafetensors(path, out, {{"format", "pt"}, {"model_type", "folio-formtagger"}});
}

at::Tensor Tagger::p(const std::string &name) const
{
    const auto it = m_params.find(name);
    if (it == m_params.end())
        throw InferenceError("folio-formtagger: no parameter " + name);
    return it->second;
}

at::Tensor Tagger::forward(const Batch &b, bool training, std::uint32_t disabledBiases,
                           std::map<std::string, at::Tensor> *trace) const
{
    const auto &c = m_cfg;
    const long B = b.pieceIds.size(0), N = b.pieceIds.size(1), D = c.hidden, H = c.heads, dh = D / H;
    if (N > c.maxPositions)
        throw InferenceError("folio-formtagger: " + std::to_string(N) + " words exceed max_position_embeddings");
    const double drop = training ? c.dropout : 0.0;

    at::Tensor tok = at::embedding(p("embeddings.word_embeddings.weight"), b.pieceIds) * b.pieceMask.unsqueeze(-1);
    at::Tensor x = tok.sum(2) / b.pieceMask.sum(2).clamp_min(1.0).unsqueeze(-1);
    const at::Tensor positions = at::arange(N, at::TensorOptions().dtype(at::kLong));
    x = x + at::embedding(p("embeddings.position_embeddings.weight"), positions).unsqueeze(0);
    if (c.useLayout()) {
        const at::Tensor X = p("embeddings.x_position_embeddings.weight"), Y = p("embeddings.y_position_embeddings.weight");
        const at::Tensor x0 = b.boxes.select(2, 0), y0 = b.boxes.select(2, 1), x1 = b.boxes.select(2, 2),
                         y1 = b.boxes.select(2, 3);
        x = x + at::embedding(X, x0) + at::embedding(Y, y0) + at::embedding(X, x1) + at::embedding(Y, y1) +
            at::embedding(p("embeddings.w_position_embeddings.weight"), (x1 - x0).clamp(0, 1000)) +
            at::embedding(p("embeddings.h_position_embeddings.weight"), (y1 - y0).clamp(0, 1000));
        for (int k = 0; k < 4; ++k)
            x = x + at::embedding(p("embeddings.gap_embeddings." + std::to_string(k) + ".weight"), b.gaps.select(2, k));
    }
    x = at::layer_norm(x, {D}, p("embeddings.LayerNorm.weight"), p("embeddings.LayerNorm.bias"), c.layerNormEps);
    x = at::dropout(x, drop, training);

    // Attention bias [B or 1, H, N, N], shared by all layers. Disabled families (bias ablation)
    // are left out of the sum; the trace then records them as zeros.
    const bool use1d = (disabledBiases & Bias1D) == 0;
    const bool use2d = (disabledBiases & Bias2D) == 0;
    at::Tensor bias; // summed in the original order (1-D, x, y, key mask): unchanged numbers when nothing is off
    const at::Tensor rel = positions.unsqueeze(0) - positions.unsqueeze(1) + c.maxPositions; // [N,N]: j - i
    if (use1d || trace) {
        at::Tensor b1 = at::embedding(p("encoder.rel_pos_bias.weight").t(), at::take(m_lut1d, rel)).permute({2, 0, 1}).unsqueeze(0);
        if (!use1d)
            b1 = at::zeros_like(b1);
        if (trace)
            (*trace)["bias.1d"] = b1;
        if (use1d)
            bias = b1;
    }
    if (c.useSpatialBias() && (use2d || trace)) {
        const at::Tensor x0 = b.boxes.select(2, 0), y1 = b.boxes.select(2, 3);
        const at::Tensor dx = at::take(m_lut2d, x0.unsqueeze(1) - x0.unsqueeze(2) + 1000);
        const at::Tensor dy = at::take(m_lut2d, y1.unsqueeze(1) - y1.unsqueeze(2) + 1000);
        at::Tensor bx = at::embedding(p("encoder.rel_pos_x_bias.weight").t(), dx).permute({0, 3, 1, 2});
        at::Tensor by = at::embedding(p("encoder.rel_pos_y_bias.weight").t(), dy).permute({0, 3, 1, 2});
        if (!use2d) {
            bx = at::zeros_like(bx);
            by = at::zeros_like(by);
        }
        if (trace) {
            (*trace)["bias.2d_x"] = bx;
            (*trace)["bias.2d_y"] = by;
        }
        if (use2d)
            bias = bias.defined() ? bias + bx + by : bx + by;
    }
    const at::Tensor keyMask = ((~b.wordMask).to(at::kFloat) * -1e9).view({B, 1, 1, N});
    bias = bias.defined() ? bias + keyMask : keyMask;

    const double scale = 1.0 / std::sqrt(double(dh));
    for (int l = 0; l < c.layers; ++l) {
        const std::string pre = "encoder.layer." + std::to_string(l) + ".";
        const at::Tensor h = at::layer_norm(x, {D}, p(pre + "attention.output.LayerNorm.weight"),
                                            p(pre + "attention.output.LayerNorm.bias"), c.layerNormEps);
        auto proj = [&](const char *n) {
            return at::linear(h, p(pre + "attention.self." + n + ".weight"), p(pre + "attention.self." + n + ".bias"))
                .view({B, N, H, dh})
                .transpose(1, 2);
        };
        const at::Tensor q = proj("query"), k = proj("key"), v = proj("value");
        const at::Tensor probs = at::softmax(at::matmul(q, k.transpose(-2, -1)) * scale + bias, -1);
        if (trace)
            (*trace)["attentions." + std::to_string(l)] = probs;
        const at::Tensor ctx = at::matmul(probs, v).transpose(1, 2).reshape({B, N, D});
        x = x + at::dropout(at::linear(ctx, p(pre + "attention.output.dense.weight"), p(pre + "attention.output.dense.bias")),
                            drop, training);
        const at::Tensor h2 = at::layer_norm(x, {D}, p(pre + "output.LayerNorm.weight"), p(pre + "output.LayerNorm.bias"),
                                             c.layerNormEps);
        const at::Tensor ff = at::linear(at::gelu(at::linear(h2, p(pre + "intermediate.dense.weight"), p(pre + "intermediate.dense.bias"))),
                                         p(pre + "output.dense.weight"), p(pre + "output.dense.bias"));
        x = x + at::dropout(ff, drop, training);
    }
    x = at::layer_norm(x, {D}, p("encoder.LayerNorm.weight"), p("encoder.LayerNorm.bias"), c.layerNormEps);
    return at::linear(x, p("classifier.weight"), p("classifier.bias"));
}

} // namespace folio::inference::detail
