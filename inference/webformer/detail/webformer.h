#pragma once
// WebFormer encoder and span head on ATen (internal). Two forms of the same attention:
//  - encode(..., Form::Blockwise): text queries over blocks of r+1 (keys = previous/current/next
//    block, relative ids from one static [r+1, 3(r+1)] table) + the HTML/field side keys under one
//    softmax; HTML queries as a segment softmax over an edge list; cost linear in text length
//    (plus the T x N text-to-HTML term the model asks for);
//  - encode(..., Form::Dense): the reference — one [L, L] score matrix per head with a dense mask
//    and dense relation-id matrices, L = T + N + F. Tests and bench_webformer only.
// Built from the shared layers (LinearW projections, LayerNormW, post-LN FeedForwardW,
// scaledAttention for the field queries) and the shared ParamStore; parameters by Hugging
// Face-style names (see webformer_model.cpp).

#include "inference/detail/aten.h"
#include "inference/layers/detail/layers.h"
#include "inference/checkpoint/detail/convert.h"
#include "inference/webformer/webformer.h"
#include "inference/webformer/webformerinput.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <string>

namespace folio::inference::detail {

class ParamStore;

// One page as tensors (all int64, no batch dimension).
struct WebTensors
{
    at::Tensor textIds;     // [T]
    at::Tensor textNode;    // [T] HTML token of the text node
    at::Tensor textParent;  // [T] HTML token of its parent, -1 none
    at::Tensor tagIds;      // [N]
    at::Tensor edgeQuery;   // [E] HTML query token
    at::Tensor edgeKey;     // [E] key in [HTML N | text T | field F]
    at::Tensor edgeType;    // [E] WebEdgeType
    at::Tensor fieldPieces; // [F, P] word-piece ids of the field names (0 = pad)
};
WebTensors toWebTensors(const WebFormerInputs &in);

struct WebEncoded
{
    at::Tensor text;  // [T, D]
    at::Tensor html;  // [N, D]
    at::Tensor field; // [F, D]
};

class WebFormerModel
{
public:
    enum class Form { Blockwise, Dense };

    // Zero parameters (call initialise() before training).
    WebFormerModel(const WebFormerConfig &config, int vocabSize);
    // Parameters from a ParamStore (a checkpoint file or tensors in memory), shape-checked.
    WebFormerModel(const WebFormerConfig &config, int vocabSize, ParamStore &store);
    void initialise(std::uint64_t seed); // random init (trainkit initialiseParameters), requires_grad on
    // Converts every parameter (e.g. to at::kDouble for the float64 equivalence test).
    void convert(at::ScalarType type);
    const std::map<std::string, at::Tensor> &params() const { return m_params; }
    const WebFormerConfig &config() const { return m_cfg; }
    int vocabSize() const { return m_vocab; }

    // trace (may be null): per layer i, `attentions.i.t2t` [T, H, 3(r+1)] (key k of query t is
    // text token (t/(r+1)-1)*(r+1)+k), `attentions.i.t2g` [T, H, N+F], `attentions.i.h2x` [E, H]
    // (over edgeKey order), `attentions.i.f2x` [F, H, N+F]; dense form: `attentions.i` [H, L, L].
    WebEncoded encode(const WebTensors &in, bool training, Form form = Form::Blockwise, AtMap *trace = nullptr) const;
    // Outside training, text queries are run about this many at a time (whole blocks of r+1): the
    // text -> HTML scores then take rows x (N + F) floats per head at once instead of T x (N + F).
    // The result does not depend on it (tests set it small to cover several chunks).
    void setTextQueryRows(int rows) { m_textQueryRows = std::max(1, rows); }
    // [F, T+1]: column 0 = the null answer, column j+1 = text token j.
    at::Tensor startLogits(const WebEncoded &e) const;
    // [F, T]: end logits given a start text token per field (start [F] int64, clamped >= 0).
    at::Tensor endLogits(const WebEncoded &e, const at::Tensor &start) const;
    // Dynamic int8 (layers/detail/int8linear.h, issue 35) for every layer's fused text / HTML /
    // field projections and its FFN; the span head stays float32. Idempotent; inference only (the
    // float32 parameters are kept for saving). Throws InferenceError without a quantized engine.
    void quantizeDynamicInt8();
    bool isInt8() const { return m_int8; }

private:
    // What both attention forms of a layer start from: the Q/K/V projections of the text (5 parts),
    // HTML and field rows (7 parts each), each [rows, H, d], and the layer's relation tables.
    struct LayerProjections
    {
        std::vector<at::Tensor> text, html, field;
        at::Tensor relT; // [2r+1, H, d] text->text relative positions
        at::Tensor relG; // [text-HTML relations, H, d]
        at::Tensor relE; // [edge types, H, d]
    };
    LayerProjections projections(int layer, const at::Tensor &x, int T, int N, int F) const;
    at::Tensor layerBlockwise(int layer, const at::Tensor &x, const WebTensors &in, int T, int N, int F,
                              bool training, AtMap *trace) const;
    at::Tensor layerDense(int layer, const at::Tensor &x, const WebTensors &in, int T, int N, int F,
                          AtMap *trace) const;
    void build(ParamStore &store);

    struct Layer
    {
        LinearW text, html, field;  // attention.{text,html,field}: [5D|7D|7D, D] fused projections
        at::Tensor t2tRelative;     // attention.t2t_relative.weight [2r+1, D]
        at::Tensor t2hRelative;     // attention.t2h_relative.weight [3, D]
        at::Tensor h2xEdge;         // attention.h2x_edge.weight [6, D]
        FeedForwardW ffn;           // attention.output.*, intermediate.*, output.* (post-LN)
    };
    struct SpanHead
    {
        LinearW startToken, startField, startOut; // span.start.{token,field,out}
        LinearW endToken, endStart, endField, endOut; // span.end.{token,start,field,out}
    };

    WebFormerConfig m_cfg;
    int m_vocab = 0;
    int m_textQueryRows = 2048; // setTextQueryRows()
    std::map<std::string, at::Tensor> m_params;
    at::Tensor m_words, m_tags, m_segments; // embeddings.{word,tag,segment}_embeddings.weight
    LayerNormW m_embLn;                     // embeddings.LayerNorm
    std::vector<Layer> m_layers;
    SpanHead m_span;
    bool m_int8 = false;
};

// config.json <-> WebFormerConfig (+ vocabulary size). fromJson throws InferenceError naming `source`.
nlohmann::json webFormerConfigJson(const WebFormerConfig &config, int vocabSize);
WebFormerConfig webFormerConfigFromJson(const nlohmann::json &json, const std::string &source, int *vocabSize);

// Encodes `page` and decodes one span per field (no grad; the model in eval mode).
std::vector<FieldSpan> webFormerExtract(const WebFormerModel &model, const WebVocab &vocab, const WebPage &page,
                                        const std::vector<std::string> &fields);

// Relative id of key offset `dist` (key - query) under radius r (ETC scheme): 0 same position,
// 1..r to the right, r+1..2r to the left; vocabulary 2r+1.
inline std::int64_t webRelativeId(std::int64_t dist, std::int64_t r)
{
    if (dist == 0)
        return 0;
    return dist > 0 ? std::min(dist, r) : r + std::min(-dist, r);
}

} // namespace folio::inference::detail
