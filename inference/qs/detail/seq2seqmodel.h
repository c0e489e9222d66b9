#pragma once
// BART / LED encoder-decoders with Hugging Face parameter names (MODELS.md §5.1), the HIBRIDS encoder
// and decoder variants (§5.4-5.5) at section granularity, and an incremental key/value cache.
// Torch-only: included by inference/qs/*.cpp.

#include "inference/layers/detail/layers.h"
#include "inference/qs/generation.h"

#include <string>
#include <vector>

namespace folio::inference {
class ModelConfig;
}

namespace folio::inference::detail {

class ParamStore;

enum class HibridsVariant { None, Encoder, Decoder };

struct Seq2seqConfig
{
    std::string modelType; // "bart" | "led"
    std::int64_t dModel = 0, vocab = 0;
    std::int64_t encLayers = 0, decLayers = 0, encHeads = 0, decHeads = 0, encFfn = 0, decFfn = 0;
    std::int64_t maxEncPositions = 0, maxDecPositions = 0;
    std::int64_t positionOffset = 0; // BART's learned positions start at row 2; LED's at row 0
    bool scaleEmbedding = false;
    std::int64_t pad = 1, bos = 0, eos = 2, decoderStart = 2;
    std::int64_t window = 0; // LED attention_window (the same in every layer); 0 for BART
    HibridsVariant hibrids = HibridsVariant::None;
    // Pointer-generator copy head (config.json "folio_copy_head": true; weights
    // `copy_head.p_gen.weight` [1, 3 d_model] and `copy_head.p_gen.bias` [1]).
    bool copyHead = false;
    GenerationSettings generation; // the checkpoint's defaults (num_beams, max_length, ...)

    // Reads config.json; `hibridsFromWeights` decides the variant (a table in the weights).
    static Seq2seqConfig fromConfig(const ModelConfig &c, HibridsVariant hibridsFromWeights);
};

// q/k/v/out projections of a BART attention block.
struct ProjectionsW
{
    LinearW q, k, v, out;
    static ProjectionsW load(ParamStore &p, const std::string &prefix, std::int64_t d);
};

struct FfnW
{
    LinearW fc1, fc2;
    LayerNormW norm; // final_layer_norm
    at::Tensor operator()(const at::Tensor &x) const { return norm(x + fc2(at::gelu(fc1(x)))); }
};

struct BartEncoderLayerW
{
    ProjectionsW self;
    LayerNormW selfNorm;
    FfnW ffn;
    at::Tensor hierTable; // HIBRIDS encoder variant on BART (Folio-trained): [600, H]; undefined otherwise
};

struct LongformerLayerW
{
    LinearW q, k, v, qGlobal, kGlobal, vGlobal, out;
    at::Tensor hierTable; // HIBRIDS encoder variant: [600, H]; undefined otherwise
    LayerNormW selfNorm;
    FfnW ffn;
};

struct DecoderLayerW
{
    ProjectionsW self, cross;
    LayerNormW selfNorm, crossNorm;
    FfnW ffn;
    at::Tensor beta; // HIBRIDS decoder variant, last layer only: [600, 1]
};

// Section-granular HIBRIDS layout of a batch: token -> section map and per-row section tables.
// Never an [L, L] index (MODELS.md §5.10 pitfall 1).
struct HibridsBatch
{
    at::Tensor tokenToSection; // int64 [B, S]
    at::Tensor sectionIndex;   // int64 [B, n, n] rows of the 600-row table (n = most sections in a row)
    at::Tensor bandIndex;      // int64 [B, S, 2w+1]: the reference's banded index, when given instead
    bool defined() const { return tokenToSection.defined() || bandIndex.defined(); }
    HibridsBatch expanded(std::int64_t beams) const; // repeat each row `beams` times
    HibridsBatch padded(std::int64_t length) const;  // extra tokens join the last section
};

struct EncoderResult
{
    at::Tensor hidden; // [B, S, D] (cut back to the input length)
    at::Tensor mask;   // [B, S] 0/1 source mask used by cross-attention
    at::Tensor ids;    // [B, S] source ids (the copy head scatters its attention onto them)
    std::vector<at::Tensor> hiddenStates, attentions, globalAttentions; // filled when tracing
};

// Per-layer keys/values. Self-attention: buffers [N, H, capacity, hd] written in place, positions
// < length valid (reserve() sizes them once; otherwise they grow geometrically). Cross-attention:
// computed once per SOURCE row [B, H, S, hd] and never copied or reordered; each of the N = B * group
// decoder rows (beams, consecutive per source row) attends to its source row's keys in place.
struct KvCache
{
    std::vector<at::Tensor> selfK, selfV, crossK, crossV;
    std::vector<at::Tensor> crossVt; // crossV transposed [B, H, hd, S]: a step's few-query attention
    std::int64_t length = 0;
    std::int64_t capacity = 0; // positions allocated in selfK / selfV
    std::int64_t group = 1;    // decoder rows per source row (set by the first decode)
    at::Tensor crossMask;      // additive [B, 1, 1, S], with crossK
    void reserve(std::int64_t positions); // before the first decode: no regrowth up to `positions`
    // Beam search: row r continues row rows[r] (int64 [N]). In place (a second buffer, swapped).
    // Rows may move between source rows only when group is 1 (the cross cache then follows them).
    void reorder(const at::Tensor &rows);
    // Self-attention keys / values of layer `layer`, positions [0, length).
    at::Tensor keys(std::size_t layer) const { return selfK[layer].narrow(2, 0, length); }
    at::Tensor values(std::size_t layer) const { return selfV[layer].narrow(2, 0, length); }

private:
    friend class Seq2seqModel;
    void append(std::size_t layer, const at::Tensor &k, const at::Tensor &v); // [N, H, t, hd] at `length`
    std::vector<at::Tensor> m_spareK, m_spareV;
    std::int64_t m_reserved = 0;
};

struct DecoderResult
{
    at::Tensor hidden; // [N, T, D]
    at::Tensor logits; // [N, T, V]
    // Copy head only: p_gen [N, T, 1] and the last layer's cross-attention, mean over heads [N, T, S].
    at::Tensor copyGate, copyAttention;
    std::vector<at::Tensor> hiddenStates, selfAttentions, crossAttentions; // filled when tracing
};

class Seq2seqModel
{
public:
    Seq2seqModel(const ModelConfig &config, ParamStore &params);
    const Seq2seqConfig &config() const { return m_cfg; }

    // ids/mask [B, S]; global [B, S] (LED; may be undefined); hier: HIBRIDS encoder variant layout.
    EncoderResult encode(const at::Tensor &ids, const at::Tensor &mask, const at::Tensor &global,
                         const HibridsBatch &hier, bool trace) const;
    // ids [N, T]; decMask [N, T] 0/1 or undefined. With a cache, `ids` are the new positions only and
    // the cache is extended. encHidden / encMask: [B, S(, D)] with N = B * group (the group decoder
    // rows of a source row consecutive: beams); hier: HIBRIDS decoder variant layout (rows match N).
    DecoderResult decode(const at::Tensor &ids, const at::Tensor &decMask, const at::Tensor &encHidden,
                         const at::Tensor &encMask, const HibridsBatch &hier, KvCache *cache, bool trace) const;
    std::int64_t encoderHeads() const { return m_cfg.encHeads; }
    // Scores of the next tokens: the LM logits, or with the copy head the log of the
    // pointer-generator distribution p_gen * softmax(logits) + (1 - p_gen) * attention scattered
    // onto the source ids `srcIds` [N, S] (rows match the decoder's). Both work as logits
    // (softmax / log_softmax / cross-entropy give the same distribution).
    at::Tensor outputScores(const DecoderResult &r, const at::Tensor &srcIds) const;
    // Dynamic int8 (layers/detail/int8linear.h, issue 35) for every encoder and decoder layer's
    // Linear layers (attention projections, LED's global ones, fc1/fc2). The tied LM head (the
    // token table, also the embedding) and the copy gate stay float32. Idempotent; inference only.
    // Throws InferenceError when this LibTorch has no quantized engine.
    void quantizeDynamicInt8();
    bool isInt8() const { return m_int8; }

private:
    at::Tensor embed(const at::Tensor &ids, const at::Tensor &positions, const LayerNormW &norm,
                     std::int64_t offset) const;
    at::Tensor bartEncoderLayer(const BartEncoderLayerW &w, const at::Tensor &x, const at::Tensor &addMask,
                                const HibridsBatch &hier, at::Tensor *probs) const;
    at::Tensor longformerLayer(const LongformerLayerW &w, const at::Tensor &x, const at::Tensor &mask3,
                               const HibridsBatch &hier, at::Tensor *probs, at::Tensor *globalProbs) const;

    Seq2seqConfig m_cfg;
    at::Tensor m_shared, m_finalLogitsBias, m_encPositions, m_decPositions;
    LayerNormW m_encEmbNorm, m_decEmbNorm;
    std::vector<BartEncoderLayerW> m_bartLayers;
    std::vector<LongformerLayerW> m_ledLayers;
    std::vector<DecoderLayerW> m_decLayers;
    LinearW m_copyGate; // [1, 3D]: [decoder state; cross-attention context; decoder input embedding]
    bool m_int8 = false;
};

// HIBRIDS decoder-variant bias (MODELS.md §5.5) at section granularity:
// bias[n,h,t,j] = Σ_i prev[n,h,t,i] · beta[index(i, j)]. prev [N, H, T, S] -> [N, H, T, S].
at::Tensor hibridsDecoderBias(const at::Tensor &prev, const at::Tensor &beta, const HibridsBatch &hier);

// Encoder variant: table rows [B, C, 2w+1] for queries c0..c0+C-1 and keys i-w..i+w (0 outside the
// sequence), gathered from the section table per block; offsets = arange(C)[:, None] + arange(2w+1).
at::Tensor hibridsBandIndex(const HibridsBatch &h, std::int64_t c0, std::int64_t c, std::int64_t w,
                            const at::Tensor &offsets);

// Dense encoder-variant bias [B, H, S, S] = table[index(section(i), section(j)), h], gathered per row
// from the [H, n, n] section table (differentiable in `table`; no token-level index). BART has no
// global attention, so every position gets its bias.
at::Tensor hibridsDenseBias(const at::Tensor &table, const HibridsBatch &h);

// Builds a batch layout from per-row section parents and a [B, S] token -> section map.
HibridsBatch hibridsBatch(const std::vector<std::vector<std::int64_t>> &sectionParents, const at::Tensor &tokenToSection);

} // namespace folio::inference::detail
