// WebFormer checkpoint config, span extraction, the WebFormerExtractor facade and the
// ModelRunner registration (model_type "webformer").
#include "inference/models/detail/model.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/webformer/detail/webformer.h"
#include "inference/errors.h"
#include "inference/layers/detail/int8linear.h"
#include "inference/training/detail/trainkit.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/webformer/webformereval.h"

#include <c10/core/InferenceMode.h>

#include <cmath>
#include <cstdio>
#include <set>

namespace folio::inference {

namespace detail {

namespace {

// A field name for a message: control characters as \xNN.
std::string printableName(const std::string &name)
{
    std::string out;
    for (unsigned char ch : name) {
        if (ch < 0x20 || ch == 0x7f) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", unsigned(ch));
            out += hex;
        } else {
            out += char(ch);
        }
    }
    return out;
}

// The field list of config.json, checked on reading: at most kMaxWebFormerFields names, each
// 1..kMaxWebFormerFieldBytes bytes, no NUL or control character, none twice.
constexpr int kMaxWebFormerFields = 256;
constexpr int kMaxWebFormerFieldBytes = 128;

} // namespace

nlohmann::json webFormerConfigJson(const WebFormerConfig &c, int vocabSize)
{
    return nlohmann::json{{"model_type", "webformer"},
                          {"architectures", {"WebFormerForSpanExtraction"}},
                          {"hidden_size", c.hidden},
                          {"num_hidden_layers", c.layers},
                          {"num_attention_heads", c.heads},
                          {"intermediate_size", c.intermediate},
                          {"hidden_act", "gelu"},
                          {"layer_norm_eps", 1e-12},
                          {"vocab_size", vocabSize},
                          {"t2t_radius", c.radius},
                          {"sibling_window", c.siblingWindow},
                          {"dom_graph", c.domGraph},
                          {"max_text_tokens", c.maxTextTokens},
                          {"max_pieces_per_word", c.maxPiecesPerWord},
                          {"max_span_tokens", c.maxSpanTokens},
                          {"hidden_dropout_prob", c.dropout},
                          {"html_tags", webTagList()},
                          {"fields", c.fields}};
}

static void checkWebFormerFields(const std::vector<std::string> &fields, const std::string &source)
{
    // Checked before anything is sized by them: 100,000 names made 2.4 GB of field inputs and then
    // asked for a 160 GB tensor.
    if (fields.size() > std::size_t(kMaxWebFormerFields))
        throw InferenceError(source + ": 'fields' lists " + std::to_string(fields.size()) + " names, more than the limit of "
                             + std::to_string(kMaxWebFormerFields));
    std::set<std::string> seen;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string &f = fields[i];
        const std::string at = source + ": 'fields'[" + std::to_string(i) + "]";
        if (f.empty())
            throw InferenceError(at + " is an empty name");
        if (f.size() > std::size_t(kMaxWebFormerFieldBytes))
            throw InferenceError(at + " is " + std::to_string(f.size()) + " bytes long, more than the limit of "
                                 + std::to_string(kMaxWebFormerFieldBytes));
        for (unsigned char ch : f)
            if (ch < 0x20 || ch == 0x7f)
                throw InferenceError(at + " (\"" + printableName(f) + "\") holds a NUL or control character");
        if (!seen.insert(f).second)
            throw InferenceError(at + ": \"" + f + "\" is listed twice");
    }
}

WebFormerConfig webFormerConfigFromJson(const nlohmann::json &json, const std::string &source, int *vocabSize)
{
    const ModelConfig mc = ModelConfig::fromJson(json, source);
    if (mc.modelType() != "webformer")
        throw InferenceError(source + ": model_type is '" + mc.modelType() + "', expected 'webformer'");
    WebFormerConfig c;
    c.hidden = int(mc.getInt("hidden_size", c.hidden));
    c.layers = int(mc.getInt("num_hidden_layers", c.layers));
    c.heads = int(mc.getInt("num_attention_heads", c.heads));
    c.intermediate = int(mc.getInt("intermediate_size", c.intermediate));
    c.radius = int(mc.getInt("t2t_radius", c.radius));
    c.siblingWindow = int(mc.getInt("sibling_window", c.siblingWindow));
    c.maxTextTokens = int(mc.getInt("max_text_tokens", c.maxTextTokens));
    c.domGraph = mc.getBool("dom_graph", c.domGraph);
    c.maxPiecesPerWord = int(mc.getInt("max_pieces_per_word", c.maxPiecesPerWord));
    c.maxSpanTokens = int(mc.getInt("max_span_tokens", c.maxSpanTokens));
    c.dropout = mc.getDouble("hidden_dropout_prob", c.dropout);
    c.fields = mc.getStringList("fields");
    checkWebFormerFields(c.fields, source);
    if (mc.has("html_tags") && mc.getStringList("html_tags") != webTagList())
        throw InferenceError(source + ": html_tags differ from this build's tag list");
    const long long v = mc.getInt("vocab_size", 0);
    if (v < 2 || c.hidden <= 0 || c.layers <= 0 || c.heads <= 0 || c.hidden % c.heads != 0 || c.radius < 1)
        throw InferenceError(source + ": bad sizes (vocab_size, hidden_size, heads, layers or t2t_radius)");
    if (vocabSize)
        *vocabSize = int(v);
    return c;
}

std::vector<FieldSpan> webFormerExtract(const WebFormerModel &model, const WebVocab &vocab, const WebPage &page,
                                        const std::vector<std::string> &fields)
{
    const WebFormerInputs in = buildWebFormerInputs(page, vocab, model.config(), fields);
    std::vector<FieldSpan> out;
    if (in.numText() == 0) {
        for (const auto &f : fields)
            out.push_back({f, false, {}, {}, -1, -1, 1.0});
        return out;
    }
    c10::InferenceMode guard;
    const WebTensors t = toWebTensors(in);
    const WebEncoded enc = model.encode(t, false);
    const at::Tensor startLp = at::log_softmax(model.startLogits(enc), 1).contiguous(); // [F, T+1]
    const int T = in.numText();
    for (int f = 0; f < int(fields.size()); ++f) {
        const float *row = startLp[f].data_ptr<float>();
        const std::vector<float> start(row, row + T + 1);
        auto endFn = [&](int s) {
            at::Tensor starts = at::full({int64_t(fields.size())}, s, at::kLong);
            const at::Tensor lp = at::log_softmax(model.endLogits(enc, starts)[f], 0).contiguous();
            return std::vector<float>(lp.data_ptr<float>(), lp.data_ptr<float>() + T);
        };
        const DecodedSpan d = decodeBestSpan(start, endFn, model.config().maxSpanTokens, 8);
        FieldSpan fs;
        fs.field = fields[f];
        fs.confidence = std::exp(d.logProb);
        if (d.found) {
            fs.found = true;
            fs.firstWord = in.textWord[d.start];
            fs.lastWord = in.textWord[d.end];
            for (int w = fs.firstWord; w <= fs.lastWord; ++w)
                fs.value += (w > fs.firstWord ? " " : "") + in.words[w];
            fs.xpath = page.nodes[in.wordNode[fs.firstWord]].xpath;
        }
        out.push_back(fs);
    }
    return out;
}

namespace {

// ModelRunner adapter: inputs are the index lists of webformerinput.h as int64 tensors
// (input_ids [T], text_node [T], text_parent [T], tag_ids [N], edge_query/edge_key/edge_type [E],
// field_pieces [F, P]; a leading batch dimension of 1 is accepted); outputs start_logits [1, F, T+1],
// last_hidden_state [1, T, D] and, with trace, attentions.<layer>.<pattern>.
class WebFormerRunnerModel : public Model
{
public:
    WebFormerRunnerModel(const ModelConfig &config, ParamStore &params)
        : m_model([&] {
              int v = 0;
              WebFormerConfig c = webFormerConfigFromJson(config.json(), config.source(), &v);
              return WebFormerModel(c, v, params);
          }())
    {
    }
    std::string modelType() const override { return "webformer"; }
    std::vector<std::string> inputNames() const override
    {
        return {"input_ids", "text_node", "text_parent", "tag_ids", "edge_query", "edge_key", "edge_type", "field_pieces"};
    }
    AtMap forward(const AtMap &inputs, const ForwardContext &ctx) const override
    {
        auto get = [&](const std::string &n, int dims) {
            at::Tensor t = requireInput(inputs, n).to(at::kLong);
            if (t.dim() == dims + 1 && t.size(0) == 1)
                t = t.squeeze(0);
            if (t.dim() != dims)
                throw InferenceError("webformer: input '" + n + "' must have " + std::to_string(dims) + " dimension(s)");
            return t.contiguous();
        };
        WebTensors t;
        t.textIds = get("input_ids", 1);
        t.textNode = get("text_node", 1);
        t.textParent = get("text_parent", 1);
        t.tagIds = get("tag_ids", 1);
        t.edgeQuery = get("edge_query", 1);
        t.edgeKey = get("edge_key", 1);
        t.edgeType = get("edge_type", 1);
        t.fieldPieces = get("field_pieces", 2);
        const std::int64_t T = t.textIds.size(0), N = t.tagIds.size(0), F = t.fieldPieces.size(0);
        auto inRange = [](const at::Tensor &x, std::int64_t lo, std::int64_t hi) {
            return x.numel() == 0 || (x.min().item<std::int64_t>() >= lo && x.max().item<std::int64_t>() < hi);
        };
        if (t.textNode.size(0) != T || t.textParent.size(0) != T || !inRange(t.textNode, 0, N) || !inRange(t.textParent, -1, N)
            || !inRange(t.textIds, 0, m_model.vocabSize()) || !inRange(t.fieldPieces, 0, m_model.vocabSize())
            || !inRange(t.tagIds, 0, std::int64_t(webTagList().size())) || t.edgeKey.size(0) != t.edgeQuery.size(0)
            || t.edgeType.size(0) != t.edgeQuery.size(0) || !inRange(t.edgeQuery, 0, N) || !inRange(t.edgeKey, 0, N + T + F)
            || !inRange(t.edgeType, 0, kWebEdgeTypes))
            throw InferenceError("webformer: input index lists are inconsistent (sizes or ranges)");
        AtMap trace;
        const WebEncoded e = m_model.encode(t, false, WebFormerModel::Form::Blockwise, ctx.tracing() ? &trace : nullptr);
        for (const auto &[name, tensor] : trace)
            ctx.record(name, tensor);
        return {{"start_logits", m_model.startLogits(e).unsqueeze(0)}, {"last_hidden_state", e.text.unsqueeze(0)}};
    }

private:
    WebFormerModel m_model;
};

} // namespace

void registerWebFormer()
{
    registerModel("webformer", [](const ModelConfig &c, ParamStore &p) { return std::make_unique<WebFormerRunnerModel>(c, p); });
}

} // namespace detail

struct WebFormerExtractor::Impl
{
    WebVocab vocab;
    std::unique_ptr<detail::WebFormerModel> model;
};

WebFormerExtractor::WebFormerExtractor() = default;
WebFormerExtractor::~WebFormerExtractor() = default;

bool WebFormerExtractor::load(const std::string &dir, std::string *error)
{
    return detail::runGuarded([&] {
        const ModelConfig mc = ModelConfig::fromDirectory(dir);
        int vocabSize = 0;
        const WebFormerConfig cfg = detail::webFormerConfigFromJson(mc.json(), mc.source(), &vocabSize);
        auto impl = std::make_unique<Impl>();
        impl->vocab = WebVocab::load(dir + "/vocab.txt");
        if (impl->vocab.size() != vocabSize)
            throw InferenceError(dir + "/vocab.txt: " + std::to_string(impl->vocab.size()) + " pieces, config.json says vocab_size "
                                 + std::to_string(vocabSize));
        at::NoGradGuard noGrad;
        detail::ParamStore store(dir + "/model.safetensors");
        impl->model = std::make_unique<detail::WebFormerModel>(cfg, vocabSize, store);
        store.finish();
        m_impl = std::move(impl);
    }, error);
}

bool WebFormerExtractor::isLoaded() const { return m_impl != nullptr; }

bool WebFormerExtractor::quantizeDynamicInt8(std::string *error)
{
    return detail::runGuarded([&] {
        if (!m_impl)
            throw InferenceError("--int8: no WebFormer checkpoint loaded");
        std::string why;
        if (detail::int8EngineName(&why).empty())
            throw InferenceError("--int8: " + why);
        m_impl->model->quantizeDynamicInt8();
    }, error);
}

bool WebFormerExtractor::isInt8() const { return m_impl && m_impl->model->isInt8(); }

const WebFormerConfig &WebFormerExtractor::config() const
{
    static const WebFormerConfig none;
    return m_impl ? m_impl->model->config() : none;
}

bool WebFormerExtractor::extract(const WebPage &page, const std::vector<std::string> &fields, std::vector<FieldSpan> *out,
                                 std::string *error) const
{
    if (!m_impl) {
        if (error)
            *error = "no WebFormer checkpoint loaded";
        return false;
    }
    return detail::runGuarded([&] {
        const std::vector<std::string> &f = fields.empty() ? m_impl->model->config().fields : fields;
        if (f.empty())
            throw InferenceError("no fields to extract (the checkpoint lists none; pass --fields)");
        *out = detail::webFormerExtract(*m_impl->model, m_impl->vocab, page, f);
    }, error, page.id);
}

} // namespace folio::inference
