// WebFormer encoder (blockwise ETC-style and dense reference forms) and span head.
//
// Parameter names (Hugging Face style, D hidden, H heads, d = D/H, r radius):
//   embeddings.word_embeddings.weight [V, D], embeddings.tag_embeddings.weight [tags, D],
//   embeddings.segment_embeddings.weight [3, D] (0 field, 1 HTML, 2 text), embeddings.LayerNorm.*
//   encoder.layer.i.attention.text.{weight,bias}   [5D, D]  q_t | k,v (text->text) | k,v (HTML->text)
//   encoder.layer.i.attention.html.{weight,bias}   [7D, D]  q_h | k,v (text->HTML) | k,v (HTML->HTML) | k,v (field->HTML)
//   encoder.layer.i.attention.field.{weight,bias}  [7D, D]  q_f | k,v (text->field) | k,v (HTML->field) | k,v (field->field)
//   encoder.layer.i.attention.t2t_relative.weight  [2r+1, D] key-side relative position embeddings
//   encoder.layer.i.attention.t2h_relative.weight  [3, D]    0 unused, 1 own text node, 2 its parent
//   encoder.layer.i.attention.h2x_edge.weight      [6, D]    self, parent, child, sibling, H2T, H2F
//   encoder.layer.i.attention.output.{dense,LayerNorm}.*, intermediate.dense.*, output.{dense,LayerNorm}.*
//   span.start.{token,field,out}.*, span.end.{token,start,field,out}.*
#include "inference/webformer/detail/webformer.h"

#include "inference/checkpoint/detail/paramstore.h"
#include "inference/errors.h"
#include "inference/layers/detail/int8linear.h"
#include "inference/training/detail/trainkit.h"

#include <c10/util/Exception.h>

#include <cmath>
#include <string>

namespace folio::inference::detail {

namespace {

constexpr double kNeg = -1e9; // additive mask (finite: no NaN in gradients)

at::Tensor longTensor(const std::vector<std::int64_t> &v)
{
    return at::tensor(at::ArrayRef<std::int64_t>(v), at::kLong).clone();
}

// [L, n*D] -> n tensors [L, H, d]
std::vector<at::Tensor> splitProjection(const at::Tensor &x, int n, std::int64_t H)
{
    std::vector<at::Tensor> out;
    const std::int64_t D = x.size(1) / n;
    for (const at::Tensor &c : x.split(D, 1))
        out.push_back(c.reshape({x.size(0), H, D / H}));
    return out;
}

// LibTorch warns once per process that "scatter_reduce() is in beta" (on stderr through glog, even
// under folio-cli -q). The segment max below relies only on the documented "amax" reduction, so
// that one warning is dropped; every other warning goes on to the handler that was installed.
class ScatterReduceBetaFilter : public c10::WarningHandler
{
public:
    explicit ScatterReduceBetaFilter(c10::WarningHandler *next) : m_next(next) {}
    void process(const c10::SourceLocation &where, const std::string &msg, const bool verbatim) override
    {
        if (msg.find("scatter_reduce() is in beta") != std::string::npos)
            return;
        if (m_next)
            m_next->process(where, msg, verbatim);
        else
            c10::WarningHandler::process(where, msg, verbatim);
    }

private:
    c10::WarningHandler *m_next;
};

void dropScatterReduceBetaWarning()
{
    // Installed once, for the life of the process (the handler is global in c10).
    static ScatterReduceBetaFilter *const filter = [] {
        auto *f = new ScatterReduceBetaFilter(c10::Warning::get_warning_handler());
        c10::Warning::set_warning_handler(f);
        return f;
    }();
    (void)filter;
}

} // namespace

WebTensors toWebTensors(const WebFormerInputs &in)
{
    WebTensors t;
    t.textIds = longTensor(in.textIds);
    t.textNode = longTensor(in.textNode);
    t.textParent = longTensor(in.textParent);
    t.tagIds = longTensor(in.tagIds);
    t.edgeQuery = longTensor(in.edgeQuery);
    t.edgeKey = longTensor(in.edgeKey);
    t.edgeType = longTensor(in.edgeType);
    t.fieldPieces = longTensor(in.fieldPieces).view({in.numFields(), in.fieldPieceWidth});
    return t;
}

WebFormerModel::WebFormerModel(const WebFormerConfig &config, int vocabSize) : m_cfg(config), m_vocab(vocabSize)
{
    ParamStore store = ParamStore::fresh();
    build(store);
}

WebFormerModel::WebFormerModel(const WebFormerConfig &config, int vocabSize, ParamStore &store)
    : m_cfg(config), m_vocab(vocabSize)
{
    build(store);
}

void WebFormerModel::build(ParamStore &p)
{
    if (m_cfg.hidden % m_cfg.heads != 0)
        throw InferenceError("webformer: hidden_size " + std::to_string(m_cfg.hidden) + " is not a multiple of heads");
    if (m_cfg.radius < 1)
        throw InferenceError("webformer: radius must be >= 1");
    const std::int64_t D = m_cfg.hidden, I = m_cfg.intermediate;
    const double eps = 1e-12;
    m_words = p.take("embeddings.word_embeddings.weight", {m_vocab, D});
    m_tags = p.take("embeddings.tag_embeddings.weight", {std::int64_t(webTagList().size()), D});
    m_segments = p.take("embeddings.segment_embeddings.weight", {3, D});
    m_embLn = LayerNormW::load(p, "embeddings.LayerNorm", D, eps);
    m_layers.clear();
    for (int i = 0; i < m_cfg.layers; ++i) {
        const std::string l = "encoder.layer." + std::to_string(i);
        Layer layer;
        layer.text = LinearW::load(p, l + ".attention.text", D, 5 * D);
        layer.html = LinearW::load(p, l + ".attention.html", D, 7 * D);
        layer.field = LinearW::load(p, l + ".attention.field", D, 7 * D);
        layer.t2tRelative = p.take(l + ".attention.t2t_relative.weight", {2 * m_cfg.radius + 1, D});
        layer.t2hRelative = p.take(l + ".attention.t2h_relative.weight", {kTextHtmlRelations, D});
        layer.h2xEdge = p.take(l + ".attention.h2x_edge.weight", {kWebEdgeTypes, D});
        layer.ffn = FeedForwardW::load(p, l, D, I, eps);
        m_layers.push_back(std::move(layer));
    }
    m_span.startToken = LinearW::load(p, "span.start.token", D, D, false);
    m_span.startField = LinearW::load(p, "span.start.field", D, D);
    m_span.startOut = LinearW::load(p, "span.start.out", D, 1, false);
    m_span.endToken = LinearW::load(p, "span.end.token", D, D, false);
    m_span.endStart = LinearW::load(p, "span.end.start", D, D, false);
    m_span.endField = LinearW::load(p, "span.end.field", D, D);
    m_span.endOut = LinearW::load(p, "span.end.out", D, 1, false);
    m_params = p.parameters();
}

void WebFormerModel::initialise(std::uint64_t seed)
{
    initialiseParameters(m_params, seed);
    at::NoGradGuard guard;
    m_words[0].zero_(); // pad row
}

void WebFormerModel::convert(at::ScalarType type)
{
    std::map<std::string, at::Tensor> converted;
    for (const auto &[name, t] : m_params)
        converted[name] = t.detach().to(type);
    ParamStore store = ParamStore::fromTensors(std::move(converted), "webformer parameters");
    build(store);
}

// x: [T + N + F, D] (text, HTML, field rows).
WebFormerModel::LayerProjections WebFormerModel::projections(int layer, const at::Tensor &x, int T, int N, int F) const
{
    const Layer &w = m_layers[size_t(layer)];
    const std::int64_t H = m_cfg.heads, d = m_cfg.hidden / H, r = m_cfg.radius;
    const at::Tensor xt = x.narrow(0, 0, T), xh = x.narrow(0, T, N), xf = x.narrow(0, T + N, F);
    LayerProjections lp;
    lp.text = splitProjection(w.text(xt), 5, H);
    lp.html = splitProjection(w.html(xh), 7, H);
    lp.field = splitProjection(w.field(xf), 7, H);
    lp.relT = w.t2tRelative.view({2 * r + 1, H, d});
    lp.relG = w.t2hRelative.view({kTextHtmlRelations, H, d});
    lp.relE = w.h2xEdge.view({kWebEdgeTypes, H, d});
    return lp;
}

// x: [T + N + F, D] (text, HTML, field rows) -> same shape.
at::Tensor WebFormerModel::layerBlockwise(int layer, const at::Tensor &x, const WebTensors &in, int T, int N, int F,
                                          bool training, AtMap *trace) const
{
    const std::int64_t D = m_cfg.hidden, H = m_cfg.heads, d = D / H, r = m_cfg.radius, b = r + 1;
    const double scale = 1.0 / std::sqrt(double(d));
    const LayerProjections lp = projections(layer, x, T, N, F);
    const auto &pt = lp.text, &ph = lp.html, &pf = lp.field;
    const at::Tensor &relT = lp.relT, &relG = lp.relG, &relE = lp.relE;
    const std::string tp = "attentions." + std::to_string(layer) + ".";

    // ---- text queries: local text (blocks) + HTML/field side keys, one softmax ----
    // Every text token attends to every HTML and field token, so the scores of all text queries
    // are T x (N + F) per head. Outside training they are computed a chunk of blocks at a time:
    // the same numbers, with peak memory bounded by the chunk instead of growing with T x N.
    at::Tensor ctxT;
    {
        const std::int64_t nb = (T + b - 1) / b, Tp = nb * b, G = N + F;
        const at::Tensor q = at::constant_pad_nd(pt[0] * scale, {0, 0, 0, 0, 0, Tp - T}).view({nb, b, H, d});
        auto windows = [&](const at::Tensor &k) { // [T, H, d] -> [nb, 3b, H, d]
            const at::Tensor kp = at::constant_pad_nd(k, {0, 0, 0, 0, b, Tp - T + b}).view({nb + 2, b, H, d});
            return at::cat({kp.narrow(0, 0, nb), kp.narrow(0, 1, nb), kp.narrow(0, 2, nb)}, 1);
        };
        const at::Tensor kw = windows(pt[1]), vw = windows(pt[2]);
        // relative ids and band mask depend only on (query in block, key in window): [b, 3b]
        std::vector<std::int64_t> ids(b * 3 * b);
        std::vector<float> band(b * 3 * b);
        for (std::int64_t qi = 0; qi < b; ++qi)
            for (std::int64_t kj = 0; kj < 3 * b; ++kj) {
                const std::int64_t dist = kj - b - qi;
                ids[qi * 3 * b + kj] = webRelativeId(dist, r);
                band[qi * 3 * b + kj] = std::abs(dist) <= r ? 0.0f : float(kNeg);
            }
        const at::Tensor relIds = longTensor(ids).view({1, b, 1, 3 * b});
        const at::Tensor bandMask = at::tensor(band).view({1, b, 1, 3 * b});
        // key validity per window position: text token index (n-1)*b + kj in [0, T)
        const at::Tensor keyPos = at::arange(nb, at::kLong).view({nb, 1}) * b - b + at::arange(3 * b, at::kLong).view({1, 3 * b});
        const at::Tensor keyMask = at::where((keyPos >= 0).logical_and(keyPos < T), 0.0, kNeg).to(at::kFloat); // [nb, 3b]
        // side keys: HTML (text->HTML projection) then fields
        const at::Tensor kg = at::cat({ph[1], pf[1]}, 0), vg = at::cat({ph[2], pf[2]}, 0); // [G, H, d]
        const at::Tensor node = at::constant_pad_nd(in.textNode, {0, Tp - T}, 0);
        const at::Tensor par = at::constant_pad_nd(in.textParent, {0, Tp - T}, -1);
        const at::Tensor valid = at::arange(Tp, at::kLong) < T;
        const std::int64_t chunk = training ? nb : std::max<std::int64_t>(1, m_textQueryRows / b); // blocks at a time
        std::vector<at::Tensor> ctxParts, plParts, pgParts;
        for (std::int64_t n0 = 0; n0 < nb; n0 += chunk) {
            const std::int64_t m = std::min(chunk, nb - n0), rows = m * b, t0 = n0 * b;
            const at::Tensor qc = q.narrow(0, n0, m);
            at::Tensor sLocal = at::einsum("nqhd,nkhd->nqhk", {qc, kw.narrow(0, n0, m)}); // [m, b, H, 3b]
            const at::Tensor qR = at::einsum("nqhd,vhd->nqhv", {qc, relT});                 // [m, b, H, 2r+1]
            sLocal = sLocal + qR.gather(3, relIds.expand({m, b, H, 3 * b}));
            sLocal = sLocal + bandMask + keyMask.narrow(0, n0, m).view({m, 1, 1, 3 * b});
            const at::Tensor qFlat = qc.reshape({rows, H, d});
            at::Tensor sG = at::einsum("thd,ghd->thg", {qFlat, kg}); // [rows, H, G]
            // key-side relation embedding on the token's own text node (1) and that node's parent (2)
            const at::Tensor qA = at::einsum("thd,rhd->thr", {qFlat, relG}); // [rows, H, 3]
            const at::Tensor nodeC = node.narrow(0, t0, rows), parC = par.narrow(0, t0, rows), validC = valid.narrow(0, t0, rows);
            const at::Tensor idx = at::stack({nodeC, parC.clamp_min(0)}, 1).view({rows, 1, 2}).expand({rows, H, 2});
            const at::Tensor w = at::stack({validC, validC.logical_and(parC >= 0)}, 1).to(at::kFloat).view({rows, 1, 2});
            sG.scatter_add_(2, idx, qA.narrow(2, 1, 2) * w); // in place: einsum output, not needed by its backward
            const at::Tensor scores = at::cat({sLocal, sG.view({m, b, H, G})}, 3); // [m, b, H, 3b + G]
            const at::Tensor probs = at::softmax(scores, 3);
            const at::Tensor pl = probs.narrow(3, 0, 3 * b), pg = probs.narrow(3, 3 * b, G);
            ctxParts.push_back(at::einsum("nqhk,nkhd->nqhd", {pl, vw.narrow(0, n0, m)}).reshape({rows, H, d})
                               + at::einsum("thg,ghd->thd", {pg.reshape({rows, H, G}), vg}));
            if (trace) {
                plParts.push_back(pl.reshape({rows, H, 3 * b}));
                pgParts.push_back(pg.reshape({rows, H, G}));
            }
        }
        ctxT = at::cat(ctxParts, 0).narrow(0, 0, T).reshape({T, D});
        if (trace) {
            (*trace)[tp + "t2t"] = at::cat(plParts, 0).narrow(0, 0, T);
            (*trace)[tp + "t2g"] = at::cat(pgParts, 0).narrow(0, 0, T);
        }
    }

    // ---- HTML queries: DOM edges + own text + fields, segment softmax over the edge list ----
    at::Tensor ctxH;
    {
        const at::Tensor keys = at::cat({ph[3], pt[3], pf[3]}, 0), vals = at::cat({ph[4], pt[4], pf[4]}, 0); // [N+T+F, H, d]
        const at::Tensor qe = (ph[0] * scale).index_select(0, in.edgeQuery);                                  // [E, H, d]
        const at::Tensor ke = keys.index_select(0, in.edgeKey) + relE.index_select(0, in.edgeType);
        const at::Tensor s = (qe * ke).sum(-1); // [E, H]
        const at::Tensor qIdx = in.edgeQuery.view({-1, 1}).expand({s.size(0), H});
        dropScatterReduceBetaWarning();
        const at::Tensor mx = at::full({N, H}, kNeg, s.options()).scatter_reduce(0, qIdx, s.detach(), "amax", true);
        const at::Tensor e = at::exp(s - mx.index_select(0, in.edgeQuery));
        const at::Tensor z = at::zeros({N, H}, s.options()).index_add(0, in.edgeQuery, e);
        const at::Tensor pr = e / z.index_select(0, in.edgeQuery); // [E, H]
        ctxH = at::zeros({N, H, d}, s.options()).index_add(0, in.edgeQuery, pr.unsqueeze(-1) * vals.index_select(0, in.edgeKey)).reshape({N, D});
        if (trace)
            (*trace)[tp + "h2x"] = pr;
    }

    // ---- field queries: all HTML + all fields ----
    at::Tensor ctxF;
    {
        // The shared scaledAttention on [1, H, rows, d] views.
        auto heads = [](const at::Tensor &t) { return t.permute({1, 0, 2}).unsqueeze(0); }; // [rows, H, d] -> [1, H, rows, d]
        at::Tensor pr;                                                                          // [1, H, F, N+F]
        const at::Tensor c = scaledAttention(heads(pf[0]), heads(at::cat({ph[5], pf[5]}, 0)), heads(at::cat({ph[6], pf[6]}, 0)),
                                             at::Tensor(), &pr);
        ctxF = c.squeeze(0).permute({1, 0, 2}).reshape({F, D});
        if (trace)
            (*trace)[tp + "f2x"] = pr.squeeze(0).permute({1, 0, 2});
    }
    return m_layers[size_t(layer)].ffn(at::cat({ctxT, ctxH, ctxF}, 0), x, m_cfg.dropout, training);
}

// The dense reference: scores [H, L, L] with a dense mask and dense relation ids, L = T + N + F.
at::Tensor WebFormerModel::layerDense(int layer, const at::Tensor &x, const WebTensors &in, int T, int N, int F,
                                      AtMap *trace) const
{
    const std::int64_t D = m_cfg.hidden, H = m_cfg.heads, d = D / H, r = m_cfg.radius, L = T + N + F;
    const double scale = 1.0 / std::sqrt(double(d));
    const LayerProjections lp = projections(layer, x, T, N, F);
    const auto &pt = lp.text, &ph = lp.html, &pf = lp.field;
    const at::Tensor &relT = lp.relT, &relG = lp.relG, &relE = lp.relE;
    auto qk = [](const at::Tensor &q, const at::Tensor &k) { return at::einsum("qhd,khd->hqk", {q, k}); };
    const at::Tensor qt = pt[0] * scale, qh = ph[0] * scale, qf = pf[0] * scale;

    // Text rows: [text | HTML | field] columns.
    const at::Tensor ti = at::arange(T, at::kLong);
    const at::Tensor dist = ti.view({1, T}) - ti.view({T, 1}); // [T, T] key - query
    const at::Tensor relIdsTT = at::where(dist == 0, at::zeros_like(dist),
                                          at::where(dist > 0, dist.clamp_max(r), r + (-dist).clamp_max(r)));
    const at::Tensor qR = at::einsum("qhd,vhd->hqv", {qt, relT}); // [H, T, V]
    at::Tensor sTT = qk(qt, pt[1]) + qR.gather(2, relIdsTT.unsqueeze(0).expand({H, T, T}));
    sTT = sTT + at::where(dist.abs() <= r, 0.0, kNeg).to(at::kFloat);
    at::Tensor relTH = at::zeros({T, N}, at::kLong); // dense relation ids text -> HTML
    relTH.scatter_(1, in.textParent.clamp_min(0).view({T, 1}), (in.textParent >= 0).to(at::kLong).view({T, 1}) * 2);
    relTH.scatter_(1, in.textNode.view({T, 1}), at::ones({T, 1}, at::kLong));
    const at::Tensor qA = at::einsum("qhd,rhd->hqr", {qt, relG}); // [H, T, 3]
    const at::Tensor sTH = qk(qt, ph[1]) + qA.gather(2, relTH.unsqueeze(0).expand({H, T, N})) * (relTH > 0).to(at::kFloat);
    const at::Tensor sTF = qk(qt, pf[1]);
    const at::Tensor rowsT = at::cat({sTT, sTH, sTF}, 2); // [H, T, L]

    // HTML rows: dense edge-type matrix over [HTML | text | field] keys (-1 = no edge).
    at::Tensor types = at::full({N, N + T + F}, -1, at::kLong);
    types.index_put_({in.edgeQuery, in.edgeKey}, in.edgeType);
    const at::Tensor qE = at::einsum("qhd,rhd->hqr", {qh, relE}); // [H, N, 6]
    const at::Tensor sHx = at::cat({qk(qh, ph[3]), qk(qh, pt[3]), qk(qh, pf[3])}, 2)
                           + qE.gather(2, types.clamp_min(0).unsqueeze(0).expand({H, N, N + T + F}));
    const at::Tensor hasEdge = at::where(types >= 0, 0.0, kNeg).to(at::kFloat);
    const at::Tensor sH = sHx + hasEdge;                                         // [H, N, N+T+F] in [HTML|text|field]
    const at::Tensor rowsH = at::cat({sH.narrow(2, N, T), sH.narrow(2, 0, N), sH.narrow(2, N + T, F)}, 2); // -> [text|HTML|field]

    // Field rows: text masked.
    const at::Tensor rowsF = at::cat({at::full({H, F, T}, kNeg, qf.options()), qk(qf, ph[5]), qk(qf, pf[5])}, 2);

    const at::Tensor probs = at::softmax(at::cat({rowsT, rowsH, rowsF}, 1), 2); // [H, L, L]
    if (trace)
        (*trace)["attentions." + std::to_string(layer)] = probs;
    auto pv = [&](std::int64_t r0, std::int64_t nr, const at::Tensor &vText, const at::Tensor &vHtml, const at::Tensor &vField) {
        const at::Tensor pr = probs.narrow(1, r0, nr);
        return (at::einsum("hqk,khd->qhd", {pr.narrow(2, 0, T), vText}) + at::einsum("hqk,khd->qhd", {pr.narrow(2, T, N), vHtml})
                + at::einsum("hqk,khd->qhd", {pr.narrow(2, T + N, F), vField}))
            .reshape({nr, D});
    };
    const at::Tensor ctx = at::cat({pv(0, T, pt[2], ph[2], pf[2]), pv(T, N, pt[4], ph[4], pf[4]),
                                    pv(T + N, F, at::zeros_like(pt[2]), ph[6], pf[6])},
                                   0);
    (void)L;
    return m_layers[size_t(layer)].ffn(ctx, x);
}

WebEncoded WebFormerModel::encode(const WebTensors &in, bool training, Form form, AtMap *trace) const
{
    const int T = int(in.textIds.size(0)), N = int(in.tagIds.size(0)), F = int(in.fieldPieces.size(0));
    if (T == 0 || N == 0 || F == 0)
        throw InferenceError("webformer: a page needs text, HTML and field tokens (got T=" + std::to_string(T) + ", N="
                             + std::to_string(N) + ", F=" + std::to_string(F) + ")");
    const at::Tensor &words = m_words, &seg = m_segments;
    const at::Tensor et = at::embedding(words, in.textIds) + seg[2];
    const at::Tensor eh = at::embedding(m_tags, in.tagIds) + seg[1];
    const at::Tensor fMask = (in.fieldPieces > 0).to(at::kFloat).unsqueeze(-1); // [F, P, 1]
    const at::Tensor ef = (at::embedding(words, in.fieldPieces) * fMask).sum(1) / fMask.sum(1).clamp_min(1.0) + seg[0];
    at::Tensor x = m_embLn(at::cat({et, eh, ef}, 0));
    x = at::dropout(x, training ? m_cfg.dropout : 0.0, training);
    for (int i = 0; i < m_cfg.layers; ++i)
        x = form == Form::Blockwise ? layerBlockwise(i, x, in, T, N, F, training, trace) : layerDense(i, x, in, T, N, F, trace);
    return {x.narrow(0, 0, T), x.narrow(0, T, N), x.narrow(0, T + N, F)};
}

void WebFormerModel::quantizeDynamicInt8()
{
    for (Layer &layer : m_layers) {
        for (LinearW *l : {&layer.text, &layer.html, &layer.field})
            detail::quantizeDynamicInt8(*l);
        detail::quantizeDynamicInt8(layer.ffn);
    }
    m_int8 = true;
}

at::Tensor WebFormerModel::startLogits(const WebEncoded &e) const
{
    const at::Tensor tok = m_span.startToken(e.text);                                        // [T, D]
    const at::Tensor fld = m_span.startField(e.field);                                       // [F, D]
    const at::Tensor out = m_span.startOut.weight.view({-1});
    const at::Tensor nullPre = m_span.startToken(e.field) + fld;                             // [F, D]
    const at::Tensor spans = at::matmul(at::tanh(tok.unsqueeze(0) + fld.unsqueeze(1)), out); // [F, T]
    return at::cat({at::matmul(at::tanh(nullPre), out).unsqueeze(1), spans}, 1);             // [F, T+1]
}

at::Tensor WebFormerModel::endLogits(const WebEncoded &e, const at::Tensor &start) const
{
    const at::Tensor tok = m_span.endToken(e.text);                                             // [T, D]
    const at::Tensor hs = e.text.index_select(0, start.clamp_min(0));                           // [F, D]
    const at::Tensor cond = m_span.endStart(hs) + m_span.endField(e.field);                     // [F, D]
    return at::matmul(at::tanh(tok.unsqueeze(0) + cond.unsqueeze(1)), m_span.endOut.weight.view({-1})); // [F, T]
}

} // namespace folio::inference::detail
