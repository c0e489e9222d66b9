#pragma once
// The trainable word-level layout tagger ("folio-formtagger"): parameters by HF-style name,
// functional ATen forward with autograd, batch preparation (gap buckets, jitter, bias indices).

#include "inference/detail/aten.h"
#include "inference/formtagger/trainer.h"

#include <array>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace folio::inference::detail {

struct TaggerConfig
{
    std::string variant = "full";
    int vocabSize = 4000, hidden = 256, layers = 4, heads = 4, intermediate = 1024, numLabels = 7;
    int maxPositions = 1024, maxPiecesPerWord = 8, maxWords = 512, windowStride = 384;
    double dropout = 0.1, layerNormEps = 1e-5;
    std::vector<std::string> labels;

    bool useLayout() const { return variant != "text"; }
    bool useSpatialBias() const { return variant == "full"; }
    std::string toJson() const;                      // config.json text
    static TaggerConfig fromJsonFile(const std::string &path); // throws InferenceError
};

// One encoded page (or window): pieces per word and 0-1000 float boxes.
struct EncodedPage
{
    std::vector<std::vector<int>> pieces; // per word, at most maxPiecesPerWord, never empty
    std::vector<std::array<float, 4>> boxes;
    std::vector<int> labels;              // per word (-100 = ignored), empty for prediction
    long pieceCount = 0;
};

EncodedPage encodePage(const Tokenizer &tok, const TrainPage &page, const TaggerConfig &cfg,
                       const std::map<std::string, int> &labelIds, int begin, int end);

struct Batch
{
    at::Tensor pieceIds;   // [B, N, K] int64
    at::Tensor pieceMask;  // [B, N, K] float
    at::Tensor wordMask;   // [B, N] bool (real words)
    at::Tensor boxes;      // [B, N, 4] int64 (0..1000)
    at::Tensor gaps;       // [B, N, 4] int64 buckets 0..32
    at::Tensor labels;     // [B, N] int64 (-100 on padding), undefined for prediction
    long words = 0, pieces = 0;
};

// Builds a batch; with `rng` applies the recipe's per-page box jitter.
Batch makeBatch(const std::vector<const EncodedPage *> &pages, const TaggerConfig &cfg, std::mt19937 *jitterRng);

class Tagger
{
public:
    explicit Tagger(const TaggerConfig &cfg);
    // N(0, 0.02) weights, zero biases, unit LN, zero bias tables, pad row zero.
    void initialise(std::uint64_t seed);
    void load(const std::string &safetensorsPath);  // throws InferenceError on missing/shape mismatch
    void save(const std::string &safetensorsPath) const;

    const TaggerConfig &config() const { return m_cfg; }
    std::map<std::string, at::Tensor> &params() { return m_params; }
    // Parameters that get the bias-table learning rate / no weight decay.
    static bool isBiasTable(const std::string &name);
    static bool noDecay(const std::string &name, const at::Tensor &t);

    // Logits [B, N, L]. `disabledBiases` (BiasFamily bits) switches bias families off; with
    // `trace` non-null, "attentions.N" [B, H, N, N] and "bias.1d" [1, H, N, N], "bias.2d_x" /
    // "bias.2d_y" [B, H, N, N] are stored there (zeros for a disabled family).
    at::Tensor forward(const Batch &batch, bool training, std::uint32_t disabledBiases = 0,
                       std::map<std::string, at::Tensor> *trace = nullptr) const;

private:
    at::Tensor p(const std::string &name) const;
    TaggerConfig m_cfg;
    std::map<std::string, at::Tensor> m_params;
    at::Tensor m_lut1d;  // T5 bucket LUT for word distance, indexed by r + maxPositions
    at::Tensor m_lut2d;  // T5 bucket LUT for coordinate difference, indexed by r + 1000
};

} // namespace folio::inference::detail

namespace folio::inference::detail {

// n x L log-probabilities for one page (windows of cfg.maxWords merged back). Throws on an empty page.
// `options` / `trace` as in Predictor::predict.
std::vector<float> predictLogProbs(const Tagger &tagger, const Tokenizer &tok, const TrainPage &page,
                                   const RunOptions *options = nullptr,
                                   std::vector<PredictionTraceWindow> *trace = nullptr);

// Decoded tags of one page.
std::vector<std::string> decodeTags(const std::vector<float> &logProbs, int n, const std::vector<std::string> &labels,
                                    bool viterbi);

// Entity scores over pages with gold tags: JSON text, micro F1 in *f1. Unknown gold tags throw.
std::string evaluatePages(const Tagger &tagger, const Tokenizer &tok, const std::vector<TrainPage> &pages, bool viterbi,
                          double *f1);

} // namespace folio::inference::detail
