// Attributions of a Hugging Face token classifier's label (hfexplain.h): gradient x input and
// integrated gradients over the encoder's input sequence, scaled through its LayerNorm(s).
#include "inference/models/detail/hfexplain.h"

#include "inference/checkpoint/detail/convert.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/errors.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace folio::inference {

namespace detail {

namespace {

const char *const kTypes[] = {"layoutlmv3", "layoutlmv2", "lilt"};

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string prefixOf(const HfGradientModel &m)
{
    for (const char *p : {"layoutlmv3.", "layoutlmv2.", "lilt."})
        if (m.params.count(std::string(p) + "embeddings.word_embeddings.weight"))
            return p;
    return "";
}

bool hasImage(const AtMap &inputs)
{
    const auto v = inputs.find("visual_tokens");
    const bool textOnly = v != inputs.end() && v->second.numel() == 1 && v->second.item<std::int64_t>() == 0;
    return !textOnly && (inputs.count("pixel_values") || inputs.count("image"));
}

std::vector<float> rowDots(const at::Tensor &g, const at::Tensor &x) // [P, D] x [P, D] -> [P]
{
    const at::Tensor d = (g * x).sum(-1).to(at::kFloat).contiguous();
    return std::vector<float>(d.data_ptr<float>(), d.data_ptr<float>() + d.numel());
}

// Scales the LayerNorms by alpha for its lifetime (weights and biases restored, gradients dropped);
// with `grad` the weights require grad so that the encoder input is in the graph.
class ScaledLayerNorms
{
public:
    ScaledLayerNorms(HfGradientModel &m, const std::vector<std::string> &names, bool grad)
    {
        at::NoGradGuard guard;
        for (const std::string &n : names)
            for (const char *part : {".weight", ".bias"}) {
                const auto it = m.params.find(n + part);
                if (it == m.params.end())
                    throw InferenceError("explain: the model has no " + n + part);
                m_tensors.push_back(it->second);
                m_saved.push_back(it->second.detach().clone());
            }
        if (grad)
            for (at::Tensor &t : m_tensors)
                t.requires_grad_(true);
    }
    ~ScaledLayerNorms()
    {
        at::NoGradGuard guard;
        for (std::size_t i = 0; i < m_tensors.size(); ++i) {
            m_tensors[i].copy_(m_saved[i]);
            m_tensors[i].requires_grad_(false);
            m_tensors[i].mutable_grad() = at::Tensor();
        }
    }
    void scale(double alpha)
    {
        at::NoGradGuard guard;
        for (std::size_t i = 0; i < m_tensors.size(); ++i)
            m_tensors[i].copy_(m_saved[i] * alpha);
    }

private:
    std::vector<at::Tensor> m_tensors, m_saved;
};

struct Pass
{
    at::Tensor logits;               // [T, L]
    std::vector<at::Tensor> inputs;  // the encoder input(s), [P, D] each
    AtMap trace;
};

// One traced forward; the encoder inputs retain their gradient.
Pass forwardPass(const HfGradientModel &m, const AtMap &inputs, bool grad)
{
    Pass p;
    RunOptions ro;
    ro.trace = true;
    const ForwardContext ctx(ro, &p.trace);
    const AtMap out = m.model->forward(inputs, ctx);
    const auto logits = out.find("logits");
    if (logits == out.end())
        throw InferenceError("explain: the checkpoint has no token-classification head");
    p.logits = logits->second[0];
    std::vector<std::string> names{"hidden_states.0"};
    if (m.modelType == "lilt")
        names.push_back("debug.layout_embeddings");
    for (const std::string &n : names) {
        const auto it = p.trace.find(n);
        if (it == p.trace.end())
            throw InferenceError("explain: the " + m.modelType + " forward does not trace its encoder input (" + n + ")");
        if (grad)
            it->second.retain_grad();
        p.inputs.push_back(it->second);
    }
    return p;
}

} // namespace

HfGradientModel loadHfGradientModel(const std::string &dir)
{
    const ModelConfig config = ModelConfig::fromDirectory(dir);
    if (std::none_of(std::begin(kTypes), std::end(kTypes), [&](const char *t) { return config.modelType() == t; }))
        throw InferenceError(dir + ": model_type '" + config.modelType()
                             + "': explain has a gradient path for layoutlmv3, layoutlmv2 (LayoutXLM), lilt and folio-formtagger "
                               "checkpoints only");
    HfGradientModel m;
    m.modelType = config.modelType();
    ParamStore store = ParamStore::fromDirectory(dir);
    {
        at::NoGradGuard noGrad;
        m.model = createModel(config, store);
    }
    m.params = store.parameters();
    return m;
}

std::vector<std::string> encoderInputLayerNorms(const HfGradientModel &m, bool image)
{
    const std::string p = prefixOf(m);
    if (m.modelType == "layoutlmv3")
        return {p + (image ? "LayerNorm" : "embeddings.LayerNorm")};
    if (m.modelType == "layoutlmv2") {
        if (image)
            return {p + "embeddings.LayerNorm", p + "visual_LayerNorm"};
        return {p + "embeddings.LayerNorm"};
    }
    if (m.modelType == "lilt")
        return {p + "embeddings.LayerNorm", p + "layout_embeddings.LayerNorm"};
    throw InferenceError("explain: no gradient path for model_type '" + m.modelType + "'");
}

double scaledLogit(HfGradientModel &m, const AtMap &inputs, int target, int label, double alpha,
                   const std::vector<std::string> &only)
{
    ScaledLayerNorms lns(m, only.empty() ? encoderInputLayerNorms(m, hasImage(inputs)) : only, false);
    lns.scale(alpha);
    at::NoGradGuard guard;
    const Pass p = forwardPass(m, inputs, false);
    return p.logits[target][label].item<double>();
}

void explainInputs(HfGradientModel &m, const AtMap &inputs, int target, int label, const HfExplainOptions &options,
                   HfExplanation *out)
{
    if (options.igSteps < 0 || options.igSteps > 4096)
        throw InferenceError("explain: " + std::to_string(options.igSteps) + " integrated-gradient steps (0..4096)");
    if (options.igPower < 1 || options.igPower > 4)
        throw InferenceError("explain: integrated-gradient spacing power " + std::to_string(options.igPower) + " (1..4)");
    const bool image = hasImage(inputs);
    out->modelType = m.modelType;
    out->input = m.modelType == "lilt"
                     ? "the encoder's two inputs: the text flow (LN(word + position + type)) and the layout flow (LN(Linear(box) + box position))"
                     : std::string("the encoder's input sequence: text tokens LN(word + position + box + type)")
                           + (image ? (m.modelType == "layoutlmv3" ? ", then the image patches (CLS first), all through the sequence LayerNorm"
                                                                     : ", then the 7 x 7 visual tokens")
                                    : "");
    // The plain traced forward at alpha = 1 (timed: the unit the costs are measured in).
    Pass plain;
    {
        at::NoGradGuard guard;
        const auto t0 = std::chrono::steady_clock::now();
        plain = forwardPass(m, inputs, false);
        out->forwardSeconds = secondsSince(t0);
    }
    const long T = plain.logits.size(0), L = plain.logits.size(1);
    if (target < 0 || target >= T)
        throw InferenceError("explain: position " + std::to_string(target) + " is not in the window (0.." + std::to_string(T - 1) + ")");
    if (label < 0)
        label = int(plain.logits[target].argmax().item<std::int64_t>());
    if (label >= L)
        throw InferenceError("explain: label " + std::to_string(label) + " is not one of the model's " + std::to_string(L));
    out->labelIndex = label;
    out->targetPosition = target;
    out->logit = plain.logits[target][label].item<float>();
    out->positions = int(plain.inputs[0].size(1));
    out->textPositions = int(T);
    const int extra = out->positions - int(T);
    out->imageCls = extra > 0 && m.modelType == "layoutlmv3";
    const int grid = extra > 0 ? int(std::lround(std::sqrt(double(extra - (out->imageCls ? 1 : 0))))) : 0;
    out->imageGrid = grid * grid == extra - (out->imageCls ? 1 : 0) ? grid : 0;
    out->attentions.clear();
    out->layers = 0;
    for (int l = 0;; ++l) {
        const auto it = plain.trace.find("attentions." + std::to_string(l));
        if (it == plain.trace.end())
            break;
        const at::Tensor a = it->second.select(0, 0).to(at::kFloat).contiguous();
        out->heads = int(a.size(0));
        out->attentions.insert(out->attentions.end(), a.data_ptr<float>(), a.data_ptr<float>() + a.numel());
        ++out->layers;
    }
    for (std::vector<float> *v : {&out->gradInput, &out->integratedGradients, &out->gradInputLayout, &out->igLayout})
        v->clear();
    out->igSteps = 0;
    if (!options.gradients)
        return;

    ScaledLayerNorms lns(m, encoderInputLayerNorms(m, image), true);
    std::vector<at::Tensor> x;
    std::vector<at::Tensor> g1;
    {
        const auto t0 = std::chrono::steady_clock::now();
        at::AutoGradMode on(true);
        lns.scale(1.0);
        Pass p = forwardPass(m, inputs, true);
        const double check = (p.logits.detach() - plain.logits).abs().max().item<double>();
        if (!(check < 1e-3))
            throw InferenceError("explain: the differentiable copy of the model differs from its plain forward (max logit difference "
                                 + std::to_string(check) + ")");
        p.logits[target][label].backward();
        for (const at::Tensor &in : p.inputs) {
            if (!in.grad().defined())
                throw InferenceError("explain: no gradient reached the " + m.modelType + " encoder input");
            x.push_back(in.detach()[0]);
            g1.push_back(in.grad()[0].detach().clone());
        }
        out->gradientSeconds = secondsSince(t0);
    }
    out->gradInput = rowDots(g1[0], x[0]);
    if (x.size() > 1) {
        out->gradInputLayout = rowDots(g1[1], x[1]);
        for (std::size_t i = 0; i < out->gradInput.size(); ++i)
            out->gradInput[i] += out->gradInputLayout[i];
    }
    if (options.igSteps == 0)
        return;
    const auto t0 = std::chrono::steady_clock::now();
    const int steps = options.igSteps, power = options.igPower;
    std::vector<at::Tensor> sum;
    for (const at::Tensor &v : x)
        sum.push_back(at::zeros_like(v));
    for (int k = 1; k <= steps; ++k) {
        const double u = (double(k) - 0.5) / double(steps);
        lns.scale(std::pow(u, power));
        at::AutoGradMode on(true);
        Pass p = forwardPass(m, inputs, true);
        p.logits[target][label].backward();
        const double w = double(power) * std::pow(u, power - 1);
        for (std::size_t i = 0; i < p.inputs.size(); ++i)
            sum[i] += p.inputs[i].grad()[0].detach() * w;
    }
    lns.scale(0.0);
    {
        at::NoGradGuard guard;
        out->baselineLogit = forwardPass(m, inputs, false).logits[target][label].item<float>();
    }
    out->integratedGradients = rowDots(sum[0] / double(steps), x[0]);
    if (x.size() > 1) {
        out->igLayout = rowDots(sum[1] / double(steps), x[1]);
        for (std::size_t i = 0; i < out->integratedGradients.size(); ++i)
            out->integratedGradients[i] += out->igLayout[i];
    }
    out->igSteps = steps;
    out->igSeconds = secondsSince(t0);
}

} // namespace detail

struct HfExplainer::Impl
{
    HfTokenClassifier classifier;
    detail::HfGradientModel model;
};

HfExplainer::HfExplainer() = default;
HfExplainer::~HfExplainer() = default;

bool HfExplainer::isLoaded() const { return m_impl != nullptr; }

const HfTokenClassifier &HfExplainer::classifier() const
{
    static const HfTokenClassifier none;
    return m_impl ? m_impl->classifier : none;
}

std::string HfExplainer::modelType() const { return m_impl ? m_impl->model.modelType : std::string(); }

std::vector<std::string> HfExplainer::supportedModelTypes() { return {std::begin(detail::kTypes), std::end(detail::kTypes)}; }

bool HfExplainer::load(const std::string &dir, std::string *error)
{
    try {
        auto impl = std::make_unique<Impl>();
        std::string why;
        if (!impl->classifier.load(dir, &why))
            throw InferenceError(why);
        impl->model = detail::loadHfGradientModel(dir);
        m_impl = std::move(impl);
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = e.what();
        return false;
    }
}

bool HfExplainer::explain(const WordLabelling &labelling, int word, const std::string &label, const HfExplainOptions &options,
                          const Tensor *pixelValues, HfExplanation *out, std::string *error) const
{
    try {
        if (!m_impl)
            throw InferenceError("explain: no checkpoint loaded");
        if (!labelling.ok)
            throw InferenceError("explain: the labelling failed: " + labelling.error);
        // The window that labels the word: where its first token sits farthest from an edge.
        int window = -1, position = -1, best = -1;
        for (std::size_t w = 0; w < labelling.windowWordIds.size(); ++w) {
            const std::vector<int> &ids = labelling.windowWordIds[w];
            const auto it = std::find(ids.begin(), ids.end(), word);
            if (it == ids.end())
                continue;
            const int p = int(it - ids.begin()), distance = std::min(p, int(ids.size()) - 1 - p);
            if (distance > best) {
                best = distance;
                window = int(w);
                position = p;
            }
        }
        if (window < 0)
            throw InferenceError("explain: word " + std::to_string(word) + " has no token in any window (an empty word?)");
        const TensorMap &record = labelling.windows[std::size_t(window)];
        detail::AtMap inputs;
        for (const char *name : {"input_ids", "bbox", "attention_mask"}) {
            const auto it = record.find(name);
            if (it == record.end())
                throw InferenceError(std::string("explain: the labelling's window has no ") + name);
            inputs[name] = detail::toAten(it->second);
        }
        const std::string type = m_impl->model.modelType;
        if (pixelValues && m_impl->classifier.takesImage())
            inputs[type == "layoutlmv2" ? "image" : "pixel_values"] = detail::toAten(*pixelValues);
        else if (type == "layoutlmv2" && m_impl->classifier.takesImage())
            inputs["visual_tokens"] = at::zeros({1}, at::kLong);
        int labelIndex = -1;
        if (!label.empty()) {
            const auto &labels = m_impl->classifier.labels();
            const auto it = std::find(labels.begin(), labels.end(), label);
            if (it == labels.end())
                throw InferenceError("explain: label '" + label + "' is not in the model's label map");
            labelIndex = int(it - labels.begin());
        }
        HfExplanation result;
        detail::explainInputs(m_impl->model, inputs, position, labelIndex, options, &result);
        // The classifier's own logits for this window: the differentiable copy must agree.
        const auto logits = record.find("logits");
        if (logits != record.end()) {
            const double diff = std::abs(detail::toAten(logits->second).to(at::kFloat)[0][position][result.labelIndex].item<double>()
                                         - double(result.logit));
            if (!(diff < 1e-3))
                throw InferenceError("explain: the differentiable copy's logit differs from the classifier's by " + std::to_string(diff));
        }
        const auto &labels = m_impl->classifier.labels();
        result.label = result.labelIndex >= 0 && result.labelIndex < int(labels.size()) ? labels[std::size_t(result.labelIndex)]
                                                                                       : std::to_string(result.labelIndex);
        result.window = window;
        result.positionWord.assign(std::size_t(result.positions), -2);
        const std::vector<int> &ids = labelling.windowWordIds[std::size_t(window)];
        for (int p = 0; p < result.textPositions && p < int(ids.size()); ++p)
            result.positionWord[std::size_t(p)] = ids[std::size_t(p)];
        *out = std::move(result);
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = e.what();
        return false;
    }
}

} // namespace folio::inference
