// Attributions of a folio-formtagger label (taggerexplain.h): gradient x input and integrated
// gradients over the pre-LayerNorm word embeddings, plus the window's attention probabilities.
#include "inference/formtagger/detail/taggerexplain.h"

#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/errors.h"
#include "inference/models/runoptions.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <string>

namespace fs = std::filesystem;

namespace folio::inference {

namespace detail {

namespace {

const char *const kPositionTable = "embeddings.position_embeddings.weight";

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The tagger after its embedding — the encoder layers, the final LayerNorm and the classifier —
// rebuilt over the tagger's own tensors (detached views, nothing copied), so the input embeddings
// can be given (scaled along the integrated-gradient path) and differentiated. What
// Tagger::hidden() computes after embed() for the bucketed-bias architectures; explainBatch checks
// it against Tagger::forward() on every call.
class EncoderFromEmbeddings
{
public:
    explicit EncoderFromEmbeddings(Tagger &tagger) : m_cfg(tagger.config())
    {
        std::map<std::string, at::Tensor> detached;
        for (const auto &[name, t] : tagger.params())
            detached[name] = t.detach(); // no gradient reaches the weights, even of a model in training
        ParamStore p = ParamStore::fromTensors(std::move(detached), "tagger");
        const long D = m_cfg.hidden, H = m_cfg.heads;
        if (m_cfg.useDisentangled()) {
            const char *names[3] = {"1d", "x", "y"};
            for (int t = 0; t < 3; ++t)
                m_relEmb[std::size_t(t)] = p.take(std::string("encoder.rel_embeddings.") + names[t] + ".weight", {2 * kErnieSpan, D});
        } else {
            m_rel1d = RelativeBucketBias(p.take("encoder.rel_pos_bias.weight", {H, 32}), 32, 128);
        }
        if (m_cfg.useSpatialBias()) {
            m_relX = RelativeBucketBias(p.take("encoder.rel_pos_x_bias.weight", {H, 64}), 64, 256);
            m_relY = RelativeBucketBias(p.take("encoder.rel_pos_y_bias.weight", {H, 64}), 64, 256);
        }
        for (int l = 0; l < m_cfg.layers; ++l) {
            const std::string pre = "encoder.layer." + std::to_string(l);
            m_attention.push_back(SelfAttentionW::load(p, pre + ".attention.self", D, H));
            m_ffn.push_back(FeedForwardW::load(p, pre, D, m_cfg.intermediate, m_cfg.layerNormEps));
        }
        m_finalLn = LayerNormW::load(p, "encoder.LayerNorm", D, m_cfg.layerNormEps);
        m_classifier = LinearW::load(p, "classifier", D, m_cfg.numLabels);
    }

    // Logits [B, N, L] from the embedded words x [B, N, D] (B rows of the same page).
    at::Tensor logits(const at::Tensor &x0, const Batch &b, std::uint32_t disabledBiases) const
    {
        const long N = x0.size(1);
        if (m_cfg.useDisentangled())
            return ernieLogits(x0, b, disabledBiases);
        const bool use1d = (disabledBiases & Bias1D) == 0;
        const bool use2d = m_cfg.useSpatialBias() && (disabledBiases & Bias2D) == 0;
        const at::Tensor pos = at::arange(N, at::kLong).unsqueeze(0);
        const at::Tensor xs = b.boxes.select(2, 0).contiguous(), ys = b.boxes.select(2, 3).contiguous();
        const at::Tensor keyMask = (~b.wordMask).to(at::kFloat) * -1e9;
        const at::Tensor bias = layoutBiasScores(use1d ? &m_rel1d : nullptr, pos, use2d ? &m_relX : nullptr, xs,
                                                 use2d ? &m_relY : nullptr, ys, m_cfg.biasDivisor(), keyMask);
        at::Tensor x = x0;
        for (std::size_t l = 0; l < m_attention.size(); ++l)
            x = m_ffn[l].preLn(m_attention[l](m_ffn[l].attnLn(x), bias), x);
        return m_classifier(m_finalLn(x));
    }

private:
    // The "ernie" architecture (Tagger::ernieAttention): per layer, disentangled 1-D / x / y
    // attention — content-to-position and position-to-content terms over relative distances
    // clamped to +-kErnieSpan, x0 / y1 in steps of kErnieCoordStep, the relative embeddings
    // through the layer's own query / key projections, scores / sqrt(3 d) — then the same pre-LN
    // feed-forward. The positions are broadcast over the batch rows (integrated-gradient steps).
    at::Tensor ernieLogits(const at::Tensor &x0, const Batch &b, std::uint32_t disabledBiases) const
    {
        const long B = x0.size(0), N = x0.size(1);
        const at::Tensor pos1d = at::arange(N, at::kLong).unsqueeze(0).expand({B, N}).contiguous();
        const at::Tensor xs = at::div(b.boxes.select(2, 0), kErnieCoordStep, "floor").expand({B, N}).contiguous();
        const at::Tensor ys = at::div(b.boxes.select(2, 3), kErnieCoordStep, "floor").expand({B, N}).contiguous();
        const at::Tensor positions[3] = {pos1d, xs, ys};
        const bool on[3] = {(disabledBiases & Bias1D) == 0, (disabledBiases & Bias2D) == 0, (disabledBiases & Bias2D) == 0};
        const at::Tensor keyMask = ((~b.wordMask).to(at::kFloat) * -1e9).view({-1, 1, 1, N});
        at::Tensor x = x0;
        for (std::size_t l = 0; l < m_attention.size(); ++l) {
            const SelfAttentionW &att = m_attention[l];
            const std::int64_t H = att.heads;
            const at::Tensor h = m_ffn[l].attnLn(x);
            const at::Tensor q = splitHeads(att.query(h), H), k = splitHeads(att.key(h), H), v = splitHeads(att.value(h), H);
            const auto project = [H](const LinearW &lin, const at::Tensor &table) {
                return splitHeads(lin(table.unsqueeze(0)), H).squeeze(0);
            };
            std::vector<at::Tensor> relQ, relK, pos;
            for (int t = 0; t < 3; ++t) {
                if (!on[t])
                    continue;
                relQ.push_back(project(att.query, m_relEmb[std::size_t(t)]));
                relK.push_back(project(att.key, m_relEmb[std::size_t(t)]));
                pos.push_back(positions[t]);
            }
            const at::Tensor p = at::softmax(ernieLayoutPaperScores(q, k, relQ, relK, pos, kErnieSpan) + keyMask, -1);
            x = m_ffn[l].preLn(mergeHeads(at::matmul(p, v)), x);
        }
        return m_classifier(m_finalLn(x));
    }

    static constexpr std::int64_t kErnieSpan = 128;     // taggermodel.cpp's, checked through Tagger::forward
    static constexpr std::int64_t kErnieCoordStep = 8;

    TaggerConfig m_cfg;
    RelativeBucketBias m_rel1d, m_relX, m_relY;
    std::array<at::Tensor, 3> m_relEmb; // ernie: encoder.rel_embeddings.{1d,x,y}.weight
    std::vector<SelfAttentionW> m_attention;
    std::vector<FeedForwardW> m_ffn;
    LayerNormW m_finalLn;
    LinearW m_classifier;
};

std::vector<float> rowDots(const at::Tensor &g, const at::Tensor &part) // [N, D] x [N, D] -> [N]
{
    const at::Tensor d = (g * part).sum(-1).to(at::kFloat).contiguous();
    return std::vector<float>(d.data_ptr<float>(), d.data_ptr<float>() + d.numel());
}

} // namespace

EmbeddingParts embeddingParts(const Tagger &tagger, const Batch &b)
{
    at::NoGradGuard guard;
    Tagger &t = const_cast<Tagger &>(tagger); // params() is the non-const accessor; nothing is changed
    const auto &p = t.params();
    const TaggerConfig &cfg = tagger.config();
    const long N = b.pieceIds.size(1);
    EmbeddingParts parts;
    const at::Tensor tok = at::embedding(p.at("embeddings.word_embeddings.weight"), b.pieceIds) * b.pieceMask.unsqueeze(-1);
    parts.text = tok.sum(2) / b.pieceMask.sum(2).clamp_min(1.0).unsqueeze(-1);
    parts.position = at::embedding(p.at(kPositionTable), at::arange(N, at::kLong)).unsqueeze(0).expand_as(parts.text).contiguous();
    parts.box = at::zeros_like(parts.text);
    if (cfg.useLayout()) {
        const at::Tensor &X = p.at("embeddings.x_position_embeddings.weight"), &Y = p.at("embeddings.y_position_embeddings.weight");
        const at::Tensor x0 = b.boxes.select(2, 0), y0 = b.boxes.select(2, 1), x1 = b.boxes.select(2, 2), y1 = b.boxes.select(2, 3);
        parts.box = at::embedding(X, x0) + at::embedding(Y, y0) + at::embedding(X, x1) + at::embedding(Y, y1) +
                    at::embedding(p.at("embeddings.w_position_embeddings.weight"), (x1 - x0).clamp(0, 1000)) +
                    at::embedding(p.at("embeddings.h_position_embeddings.weight"), (y1 - y0).clamp(0, 1000));
        for (int k = 0; k < 4; ++k)
            parts.box = parts.box + at::embedding(p.at("embeddings.gap_embeddings." + std::to_string(k) + ".weight"), b.gaps.select(2, k));
    }
    parts.sum = parts.text + parts.position + parts.box;
    // LN(s) = sum over parts of gamma * (part - mean(part)) / sigma(s), plus beta: exact, since the
    // mean is linear and sigma is the whole sum's.
    const at::Tensor gamma = p.at("embeddings.LayerNorm.weight"), beta = p.at("embeddings.LayerNorm.bias");
    const at::Tensor sigma = at::sqrt(parts.sum.var(-1, /*unbiased=*/false, /*keepdim=*/true) + cfg.layerNormEps);
    const auto post = [&](const at::Tensor &part) { return gamma * (part - part.mean(-1, true)) / sigma; };
    parts.textOut = post(parts.text);
    parts.positionOut = post(parts.position);
    parts.boxOut = post(parts.box);
    parts.biasOut = beta.expand_as(parts.text).contiguous();
    parts.embedded = tagger.embed(b, false);
    // The parts must add up to what embed() gives: checked on every call (cheap), so a change to the
    // tagger's embedding cannot silently make these attributions about another input.
    const double diff = (parts.textOut + parts.positionOut + parts.boxOut + parts.biasOut - parts.embedded).abs().max().item<double>();
    if (!(diff < 1e-3))
        throw InferenceError("explain: the embedding parts do not add up to the tagger's embedding (max difference "
                             + std::to_string(diff) + ")");
    return parts;
}

void explainBatch(Tagger &tagger, const Batch &b, int target, int label, const TaggerExplainOptions &options,
                  TaggerExplanation *out)
{
    const TaggerConfig &cfg = tagger.config();
    const long N = b.pieceIds.size(1);
    if (b.pieceIds.size(0) != 1)
        throw InferenceError("explain: one window at a time (batch of " + std::to_string(b.pieceIds.size(0)) + ")");
    if (target < 0 || target >= N)
        throw InferenceError("explain: word " + std::to_string(target) + " is not in the window (0.." + std::to_string(N - 1) + ")");
    if (options.igSteps < 0 || options.igSteps > 4096)
        throw InferenceError("explain: " + std::to_string(options.igSteps) + " integrated-gradient steps (0..4096)");
    if (options.igPower < 1 || options.igPower > 4)
        throw InferenceError("explain: integrated-gradient spacing power " + std::to_string(options.igPower) + " (1..4)");

    // The plain forward (timed: the unit the attribution costs are measured in) with the trace.
    std::map<std::string, at::Tensor> trace;
    at::Tensor logits;
    {
        at::NoGradGuard guard;
        const auto t0 = std::chrono::steady_clock::now();
        logits = tagger.forward(b, false, options.disabledBiases, &trace)[0];
        out->forwardSeconds = secondsSince(t0);
    }
    const long L = logits.size(-1);
    if (label < 0)
        label = int(logits[target].argmax().item<std::int64_t>());
    if (label >= L)
        throw InferenceError("explain: label " + std::to_string(label) + " is not one of the model's " + std::to_string(L));
    out->labelIndex = label;
    out->logit = logits[target][label].item<float>();
    out->wordCount = int(N);
    out->layers = cfg.layers;
    out->heads = cfg.heads;
    out->attentions.clear();
    for (int l = 0; l < cfg.layers; ++l) {
        const auto it = trace.find("attentions." + std::to_string(l));
        if (it == trace.end())
            throw InferenceError("explain: the trace has no attentions." + std::to_string(l));
        const at::Tensor a = it->second.select(0, 0).to(at::kFloat).contiguous();
        out->attentions.insert(out->attentions.end(), a.data_ptr<float>(), a.data_ptr<float>() + a.numel());
    }
    for (std::vector<float> *v : {&out->gradInput, &out->gradInputText, &out->gradInputPosition, &out->gradInputBox,
                                  &out->gradInputShift, &out->integratedGradients, &out->igText, &out->igPosition, &out->igBox,
                                  &out->igShift})
        v->clear();
    out->igSteps = 0;
    if (!options.gradients)
        return;

    const EmbeddingParts parts = embeddingParts(tagger, b);
    const EncoderFromEmbeddings encoder(tagger);
    {
        at::NoGradGuard guard;
        const double diff = (encoder.logits(parts.embedded, b, options.disabledBiases)[0] - logits).abs().max().item<double>();
        if (!(diff < 1e-3))
            throw InferenceError("explain: the encoder rebuilt from the embeddings differs from the tagger (max logit difference "
                                 + std::to_string(diff) + ")");
    }
    const at::Tensor x = parts.embedded.detach();
    const auto gradientAt = [&](double alpha, float *value) {
        at::AutoGradMode on(true);
        const at::Tensor xin = (x * alpha).detach().requires_grad_(true);
        const at::Tensor f = encoder.logits(xin, b, options.disabledBiases)[0][target][label];
        if (value)
            *value = f.item<float>();
        f.backward();
        return xin.grad()[0].detach().clone();
    };
    const at::Tensor e = x[0], text = parts.textOut[0], position = parts.positionOut[0], box = parts.boxOut[0],
                     shift = parts.biasOut[0];
    {
        const auto t0 = std::chrono::steady_clock::now();
        const at::Tensor g = gradientAt(1.0, nullptr);
        out->gradientSeconds = secondsSince(t0);
        out->gradInput = rowDots(g, e);
        out->gradInputText = rowDots(g, text);
        out->gradInputPosition = rowDots(g, position);
        out->gradInputBox = rowDots(g, box);
        out->gradInputShift = rowDots(g, shift);
    }
    if (options.igSteps == 0)
        return;
    const auto t0 = std::chrono::steady_clock::now();
    const int m = options.igSteps;
    // alpha = u^p, u at the midpoints of m equal steps, weight d alpha / du * du = p u^(p-1) / m.
    // Steps go through the encoder 8 at a time as batch rows (the page's boxes and bias terms
    // broadcast over them): one backward of sum_r w_r f(alpha_r x) gives sum_r w_r g(alpha_r x).
    const int power = options.igPower;
    const int chunk = 8;
    at::Tensor sum = at::zeros_like(e);
    for (int k0 = 1; k0 <= m; k0 += chunk) {
        const int c = std::min(chunk, m - k0 + 1);
        std::vector<float> alphas, weights;
        for (int k = k0; k < k0 + c; ++k) {
            const double u = (double(k) - 0.5) / double(m);
            alphas.push_back(float(std::pow(u, power)));
            weights.push_back(float(double(power) * std::pow(u, power - 1)));
        }
        at::AutoGradMode on(true);
        const at::Tensor xin = (x * at::tensor(alphas).view({c, 1, 1})).detach().requires_grad_(true);
        const at::Tensor f = (encoder.logits(xin, b, options.disabledBiases).select(1, target).select(1, label)
                              * at::tensor(weights)).sum();
        f.backward();
        sum += xin.grad().sum(0).detach();
    }
    {
        at::NoGradGuard guard;
        out->baselineLogit = encoder.logits(at::zeros_like(x), b, options.disabledBiases)[0][target][label].item<float>();
    }
    const at::Tensor avg = sum / double(m);
    out->integratedGradients = rowDots(avg, e);
    out->igText = rowDots(avg, text);
    out->igPosition = rowDots(avg, position);
    out->igBox = rowDots(avg, box);
    out->igShift = rowDots(avg, shift);
    out->igSteps = m;
    out->igSeconds = secondsSince(t0);
}

} // namespace detail

struct TaggerExplainer::Impl
{
    detail::TaggerConfig cfg;
    std::unique_ptr<Tokenizer> tokenizer;
    std::unique_ptr<detail::Tagger> tagger;
};

TaggerExplainer::TaggerExplainer() = default;
TaggerExplainer::~TaggerExplainer() = default;

bool TaggerExplainer::isLoaded() const { return m_impl != nullptr; }

const std::vector<std::string> &TaggerExplainer::labels() const
{
    static const std::vector<std::string> none;
    return m_impl ? m_impl->cfg.labels : none;
}

std::string TaggerExplainer::wordOrder() const { return m_impl ? m_impl->cfg.wordOrder : std::string(); }
int TaggerExplainer::maxWords() const { return m_impl ? m_impl->cfg.maxWords : 0; }

bool TaggerExplainer::load(const std::string &dir, std::string *error)
{
    m_impl.reset();
    try {
        if (!taggerEnsembleMembers(dir).empty())
            throw InferenceError(dir + ": an ensemble folder; explain one of its members");
        const ModelConfig checked = ModelConfig::fromDirectory(dir);
        if (checked.modelType() != "folio-formtagger")
            throw InferenceError(dir + ": model_type '" + checked.modelType()
                                 + "': explain has a gradient path for folio-formtagger (Folio's layout tagger, every --arch), "
                                   "layoutlmv3, layoutlmv2 (LayoutXLM) and lilt checkpoints only");
        auto impl = std::make_unique<Impl>();
        impl->cfg = detail::TaggerConfig::fromJson(checked.json(), checked.source());
        const fs::path d(dir);
        if (!fs::exists(d / "model.safetensors"))
            throw InferenceError(dir + ": model.safetensors is missing");
        impl->tokenizer = Tokenizer::fromDirectory(dir);
        if (impl->tokenizer->vocabSize() != impl->cfg.vocabSize)
            throw InferenceError(dir + ": tokenizer has " + std::to_string(impl->tokenizer->vocabSize())
                                 + " pieces but config.json says vocab_size " + std::to_string(impl->cfg.vocabSize));
        at::NoGradGuard noGrad;
        detail::ParamStore store((d / "model.safetensors").string());
        impl->tagger = std::make_unique<detail::Tagger>(impl->cfg, store);
        store.finish();
        m_impl = std::move(impl);
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = e.what();
        return false;
    }
}

bool TaggerExplainer::predict(const TaggerPage &page, std::vector<std::string> *tags, std::string *error,
                              std::uint32_t disabledBiases) const
{
    try {
        if (!m_impl)
            throw InferenceError("explain: no checkpoint loaded");
        RunOptions options;
        options.disabledBiases = disabledBiases;
        const std::vector<float> lp = detail::predictLogProbs(*m_impl->tagger, *m_impl->tokenizer, page, &options);
        *tags = detail::decodeTags(lp, int(page.words.size()), m_impl->cfg.labels, true);
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = e.what();
        return false;
    }
}

bool TaggerExplainer::explain(const TaggerPage &page, int target, const std::string &label,
                              const TaggerExplainOptions &options, TaggerExplanation *out, std::string *error)
{
    try {
        if (!m_impl)
            throw InferenceError("explain: no checkpoint loaded");
        const int n = int(page.words.size());
        if (target < 0 || target >= n)
            throw InferenceError("page " + page.id + ": word " + std::to_string(target) + " does not exist (the page has "
                                 + std::to_string(n) + " words)");
        std::string wanted = label;
        if (wanted.empty()) {
            std::vector<std::string> tags;
            std::string why;
            if (!predict(page, &tags, &why, options.disabledBiases))
                throw InferenceError(why);
            wanted = tags[std::size_t(target)];
        }
        const auto &labels = m_impl->cfg.labels;
        const auto it = std::find(labels.begin(), labels.end(), wanted);
        if (it == labels.end())
            throw InferenceError("explain: label '" + wanted + "' is not in the model's label map");
        const int window = std::max(1, m_impl->cfg.maxWords);
        const int begin = n <= window ? 0 : std::clamp(target - window / 2, 0, n - window);
        const int end = std::min(n, begin + window);
        TaggerPage unlabelled = page;
        unlabelled.tags.clear();
        const detail::EncodedPage encoded = detail::encodePage(*m_impl->tokenizer, unlabelled, m_impl->cfg, {}, begin, end);
        const detail::Batch batch = detail::makeBatch({&encoded}, m_impl->cfg, nullptr);
        TaggerExplanation result;
        detail::explainBatch(*m_impl->tagger, batch, target - begin, int(it - labels.begin()), options, &result);
        result.target = target;
        result.label = wanted;
        result.firstWord = begin;
        *out = std::move(result);
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = e.what();
        return false;
    }
}

} // namespace folio::inference
