#pragma once
// The trainable word-level layout tagger ("folio-formtagger"): parameters by HF-style name,
// functional ATen forward with autograd, batch preparation (gap buckets, jitter, bias indices).

#include "inference/detail/aten.h"
#include "inference/layers/detail/layers.h"
#include "inference/layers/detail/relbias.h"
#include "inference/models/detail/model.h"
#include "inference/formtagger/predictor.h"

#include <nlohmann/json.hpp>

#include <array>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace folio::inference::detail {

struct TaggerConfig
{
    std::string variant = "full";
    // Structure-bias architecture on the shared encoder (config.json "architecture"; issue 12):
    // "" (checkpoints from before the key: the variant's unscaled bucketed biases), "layoutlmv3"
    // (bucketed 1-D + 2-D x/y biases divided by sqrt(d)), "layoutlmv2" (the same, not scaled),
    // "ernie" (ERNIE-Layout paper form: disentangled 1-D / x / y attention), "text" (no layout).
    std::string architecture;
    // How the training words were ordered (config.json "word_order"): "" (not recorded),
    // "annotation", "reading" or "layout". "layout" means the model expects words in the
    // layout-aware order (document/layoutorder.h), so prediction serialises every document so.
    std::string wordOrder;
    int vocabSize = 4000, hidden = 256, layers = 4, heads = 4, intermediate = 1024, numLabels = 7;
    int maxPositions = 1024, maxPiecesPerWord = 8, maxWords = 512, windowStride = 384;
    double dropout = 0.1, layerNormEps = 1e-5;
    std::vector<std::string> labels;

    bool useLayout() const { return variant != "text"; }
    bool useSpatialBias() const { return variant == "full" && architecture != "ernie"; }
    bool useDisentangled() const { return architecture == "ernie"; }
    double biasDivisor() const; // sqrt(d) for layoutlmv3, else 1
    std::string toJson() const;                      // config.json text
    static TaggerConfig fromJsonFile(const std::string &path); // throws InferenceError
    static TaggerConfig fromJson(const nlohmann::json &j, const std::string &source); // throws InferenceError
};

// One encoded page (or window): pieces per word and 0-1000 float boxes.
struct EncodedPage
{
    std::vector<std::vector<int>> pieces; // per word, at most maxPiecesPerWord, never empty
    std::vector<std::array<float, 4>> boxes;
    std::vector<int> labels;              // per word (-100 = ignored), empty for prediction
    long pieceCount = 0;
};

EncodedPage encodePage(const Tokenizer &tok, const TaggerPage &page, const TaggerConfig &cfg,
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

// The tagger on the shared layers: word-pooled embeddings, pre-LN layers of SelfAttentionW +
// FeedForwardW::preLn, one layoutBiasScores term (T5 1-D over the word index, 2-D over x0 / y1,
// RelativeBucketBias tables, unscaled) shared by all layers, a Linear head. A registry Model
// ("folio-formtagger"): forward(AtMap) takes the word-level inputs documented in
// inference/README.md.
class Tagger : public Model
{
public:
    // Zero parameters (call initialise() before training).
    explicit Tagger(const TaggerConfig &cfg);
    // Parameters from a ParamStore (a checkpoint file, or tensors in memory); shape-checked.
    Tagger(const TaggerConfig &cfg, ParamStore &store);
    // N(0, 0.02) weights, zero biases, unit LN, zero bias tables, pad row zero; requires_grad on.
    void initialise(std::uint64_t seed);
    void save(const std::string &safetensorsPath) const;
    // Dynamic int8 (layers/detail/int8linear.h) for the encoder's Linear layers: Q/K/V, attention
    // output, FFN (the tiny classifier stays float32). Inference only; throws InferenceError where
    // no quantized engine exists.
    void quantizeDynamicInt8();

    const TaggerConfig &config() const { return m_cfg; }
    std::map<std::string, at::Tensor> &params() { return m_params; }
    // Parameters that get the bias-table learning rate / no weight decay.
    static bool isBiasTable(const std::string &name);
    static bool noDecay(const std::string &name, const at::Tensor &t);

    // Logits [B, N, L]. `disabledBiases` (BiasFamily bits) switches bias families off; with
    // `trace` non-null, "attentions.N" [B, H, N, N], "bias.1d" [1, H, N, N] and "bias.2d_x" /
    // "bias.2d_y" [B, H, N, N] are stored there (zeros for a disabled family).
    at::Tensor forward(const Batch &batch, bool training, std::uint32_t disabledBiases = 0,
                       std::map<std::string, at::Tensor> *trace = nullptr) const;

    // The encoder's output before the classifier (after the final LayerNorm): [B, N, D]. What
    // forward() classifies; the key -> value link head (linkhead.cpp) reads it.
    at::Tensor hidden(const Batch &batch, bool training, std::uint32_t disabledBiases = 0,
                      std::map<std::string, at::Tensor> *trace = nullptr) const;
    // The classifier over hidden() states: logits [B, N, L] (forward() is classify(hidden())).
    at::Tensor classify(const at::Tensor &hidden) const { return m_classifier(hidden); }

    // The word units after the embedding LayerNorm (+ dropout when training): [B, N, D].
    at::Tensor embed(const Batch &b, bool training) const;

    // Model (the registry path): word-level inputs -> "logits".
    std::string modelType() const override { return "folio-formtagger"; }
    std::vector<std::string> inputNames() const override;
    AtMap forward(const AtMap &inputs, const ForwardContext &ctx) const override;
    // A Batch as the registry inputs (input_ids, piece_mask, attention_mask, bbox, gap_ids).
    static AtMap batchInputs(const Batch &batch);

private:
    void build(ParamStore &store);
    struct Layer
    {
        SelfAttentionW attention; // encoder.layer.N.attention.self.{query,key,value}
        FeedForwardW ffn;         // attention.output.LayerNorm = pre-attention LN, output.LayerNorm = pre-FFN LN
    };
    TaggerConfig m_cfg;
    std::map<std::string, at::Tensor> m_params;
    at::Tensor m_words, m_positions;             // embeddings.{word,position}_embeddings.weight
    std::array<at::Tensor, 4> m_coords;          // embeddings.{x,y,w,h}_position_embeddings.weight
    std::array<at::Tensor, 4> m_gaps;            // embeddings.gap_embeddings.{0..3}.weight
    LayerNormW m_embLn, m_finalLn;               // embeddings.LayerNorm, encoder.LayerNorm
    RelativeBucketBias m_rel1d, m_relX, m_relY;  // encoder.rel_pos_bias, rel_pos_{x,y}_bias
    std::array<at::Tensor, 3> m_relEmb;          // ernie: encoder.rel_embeddings.{1d,x,y}.weight [2k, D]
    at::Tensor ernieAttention(const Layer &layer, const at::Tensor &h, const at::Tensor &keyMask, const Batch &b,
                              std::uint32_t disabledBiases, at::Tensor *probs) const;
    std::vector<Layer> m_layers;
    LinearW m_classifier;                        // classifier
};

} // namespace folio::inference::detail

namespace folio::inference::detail {

// n x L log-probabilities for one page (windows of cfg.maxWords merged back). Throws on an empty page.
// `options` / `trace` as in Predictor::predict. With `wordStates`, *wordStates also receives the
// encoder's states n x D (hidden(), merged over the windows as the scores are): the same pass.
std::vector<float> predictLogProbs(const Tagger &tagger, const Tokenizer &tok, const TaggerPage &page,
                                   const RunOptions *options = nullptr,
                                   std::vector<PredictionTraceWindow> *trace = nullptr,
                                   std::vector<float> *wordStates = nullptr);

// Decoded tags of one page.
std::vector<std::string> decodeTags(const std::vector<float> &logProbs, int n, const std::vector<std::string> &labels,
                                    bool viterbi);

// Entity scores over pages with gold tags: JSON text, micro F1 in *f1. Unknown gold tags throw.
std::string evaluatePages(const Tagger &tagger, const Tokenizer &tok, const std::vector<TaggerPage> &pages, bool viterbi,
                          double *f1);
// The same with the log-probabilities from `logProbs` (an ensemble's averaged ones).
std::string evaluatePages(const std::vector<std::string> &labels, const std::vector<TaggerPage> &pages, bool viterbi,
                          double *f1, const std::function<std::vector<float>(const TaggerPage &)> &logProbs);

} // namespace folio::inference::detail
