// Hugging Face MarkupLM checkpoints over web-page nodes (see hfmarkuplm.h).
#include "inference/models/hfmarkuplm.h"

#include "inference/checkpoint/modelconfig.h"
#include "inference/errors.h"
#include "inference/models/detail/tokenlabels.h"
#include "inference/models/modelrunner.h"
#include "inference/tokenizers/markuplmtokenizer.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace folio::inference {

struct HfMarkupLM::Loaded
{
    std::unique_ptr<ModelRunner> runner;
    std::unique_ptr<MarkupLMTokenizer> tokenizer;
    bool qa = false;
    int maxTokens = 0;
};

namespace {

TensorMap windowInputs(const MarkupTokens &t, int depth)
{
    const auto n = std::int64_t(t.inputIds.size());
    auto longs = [](const std::vector<int> &v) { return std::vector<std::int64_t>(v.begin(), v.end()); };
    TensorMap in;
    in["input_ids"] = Tensor::fromInt64({1, n}, longs(t.inputIds));
    in["attention_mask"] = Tensor::fromInt64({1, n}, longs(t.attentionMask));
    in["token_type_ids"] = Tensor::fromInt64({1, n}, longs(t.tokenTypeIds));
    in["xpath_tags_seq"] = Tensor::fromInt64({1, n, depth}, longs(t.xpathTags));
    in["xpath_subs_seq"] = Tensor::fromInt64({1, n, depth}, longs(t.xpathSubs));
    return in;
}

// The first node of `nodes` from which a window should start so that `first` has about a quarter
// window of context before it.
int contextStart(const MarkupLMTokenizer &tok, const std::vector<std::string> &nodes, int first, int budget)
{
    int start = first, context = 0;
    while (start > 0) {
        const int n = nodes[std::size_t(start - 1)].empty() ? 0 : int(tok.tokenizer().encodeWord(nodes[std::size_t(start - 1)]).size());
        if (context + n > budget / 4)
            break;
        context += n;
        --start;
    }
    return start;
}

} // namespace

HfMarkupLM::HfMarkupLM() = default;
HfMarkupLM::~HfMarkupLM() = default;
HfMarkupLM::HfMarkupLM(HfMarkupLM &&) noexcept = default;
HfMarkupLM &HfMarkupLM::operator=(HfMarkupLM &&) noexcept = default;

bool HfMarkupLM::isLoaded() const { return m_loaded != nullptr; }
bool HfMarkupLM::isInt8() const { return m_loaded && m_loaded->runner->isInt8(); }

bool HfMarkupLM::quantizeDynamicInt8(std::string *error)
{
    if (!m_loaded) {
        if (error)
            *error = "--int8: no MarkupLM folder loaded";
        return false;
    }
    return m_loaded->runner->quantizeDynamicInt8(error);
}
bool HfMarkupLM::isQuestionAnswering() const { return m_loaded && m_loaded->qa; }
int HfMarkupLM::maxTokens() const { return m_loaded ? m_loaded->maxTokens : 0; }
const MarkupLMTokenizer *HfMarkupLM::tokenizer() const { return m_loaded ? m_loaded->tokenizer.get() : nullptr; }

namespace {

// config.json (its sizes checked against the weights header) of a MarkupLM folder.
ModelConfig markupConfig(const std::string &dir)
{
    const ModelConfig config = ModelConfig::fromDirectory(dir);
    if (config.modelType() != "markuplm")
        throw InferenceError(config.source() + ": model_type \"" + config.modelType() + "\" is not markuplm");
    return config;
}

// The folder's MarkupLM tokenizer, its XPath depth agreeing with the model's.
std::unique_ptr<MarkupLMTokenizer> markupTokenizer(const std::string &dir, const ModelConfig &config)
{
    auto tokenizer = std::make_unique<MarkupLMTokenizer>(MarkupLMTokenizer::fromDirectory(dir));
    if (tokenizer->config().maxDepth != config.getInt("max_depth", 50))
        throw InferenceError(dir + ": tokenizer_config.json max_depth " + std::to_string(tokenizer->config().maxDepth)
                             + " differs from config.json max_depth " + std::to_string(config.getInt("max_depth", 50)));
    return tokenizer;
}

} // namespace

bool HfMarkupLM::checkFolder(const std::string &dir, std::string *error)
{
    try {
        markupTokenizer(dir, markupConfig(dir));
        return true;
    } catch (const std::exception &e) {
        if (error) *error = e.what();
        return false;
    }
}

bool HfMarkupLM::load(const std::string &dir, std::string *error)
{
    try {
        const ModelConfig config = markupConfig(dir);
        auto loaded = std::make_unique<Loaded>();
        loaded->tokenizer = markupTokenizer(dir, config);
        // RoBERTa positions start at pad_token_id + 1.
        const long long positions = config.getInt("max_position_embeddings", 512) - config.getInt("pad_token_id", 0) - 1;
        loaded->maxTokens = int(std::min<long long>(loaded->tokenizer->config().base.modelMaxLength, std::max(3LL, positions)));
        loaded->runner = std::make_unique<ModelRunner>();
        std::string runnerError;
        if (!loaded->runner->load(dir, &runnerError))
            throw InferenceError(runnerError);
        // Which head: a probe window says (start_logits: QA; logits: token classification).
        const MarkupTokens probe = loaded->tokenizer->encode({}, {});
        const RunResult r = loaded->runner->run(windowInputs(probe, loaded->tokenizer->config().maxDepth));
        if (!r.ok)
            throw InferenceError(dir + ": the model does not run: " + r.error);
        std::vector<std::string> labels;
        if (r.outputs.count("start_logits")) {
            loaded->qa = true;
        } else if (const auto logits = r.outputs.find("logits"); logits != r.outputs.end()) {
            labels = detail::labelsFromConfig(config);
            if (logits->second.shape.back() != std::int64_t(labels.size()))
                throw InferenceError(config.source() + ": id2label names " + std::to_string(labels.size())
                                     + " labels but the classifier head has " + std::to_string(logits->second.shape.back()));
        } else {
            throw InferenceError(dir + ": the checkpoint has no head (neither classifier nor qa_outputs weights)");
        }
        m_loaded = std::move(loaded);
        m_labels = std::move(labels);
        return true;
    } catch (const std::exception &e) {
        if (error) *error = e.what();
        return false;
    }
}

MarkupNodeLabelling HfMarkupLM::label(const std::vector<std::string> &nodes, const std::vector<std::string> &xpaths,
                                      const RunOptions &options) const
{
    MarkupNodeLabelling out;
    try {
        if (!m_loaded || m_loaded->qa)
            throw InferenceError("no MarkupLM token-classification checkpoint loaded");
        if (nodes.size() != xpaths.size())
            throw InferenceError("label: " + std::to_string(nodes.size()) + " nodes but " + std::to_string(xpaths.size()) + " xpaths");
        const MarkupLMTokenizer &tok = *m_loaded->tokenizer;
        MarkupEncodeOptions encode;
        encode.maxLength = m_loaded->maxTokens;
        encode.truncation = true;
        out.nodes.assign(nodes.size(), WordLabel{});
        std::vector<char> done(nodes.size(), 0);
        for (std::size_t n = 0; n < nodes.size(); ++n)
            done[n] = nodes[n].empty(); // the reference gives empty nodes no token
        int begin = 0, labelFrom = 0;
        while (true) {
            const std::vector<std::string> ns(nodes.begin() + begin, nodes.end()), xs(xpaths.begin() + begin, xpaths.end());
            const MarkupTokens t = tok.encode(ns, xs, nullptr, encode);
            const TensorMap inputs = windowInputs(t, tok.config().maxDepth);
            RunResult r = m_loaded->runner->run(inputs, options);
            if (!r.ok)
                throw InferenceError(r.error);
            const Tensor &logits = r.outputs.at("logits");
            std::vector<int> global;
            for (std::size_t p = 0; p < t.nodeIds.size(); ++p) {
                const int local = t.nodeIds[p];
                global.push_back(local < 0 ? -1 : begin + local);
                if (local < 0 || (p > 0 && t.nodeIds[p - 1] == local))
                    continue; // not the node's first token
                const int n = begin + local;
                if (n >= labelFrom && !done[std::size_t(n)]) {
                    out.nodes[std::size_t(n)] = detail::labelAt(logits, std::int64_t(p), m_labels);
                    done[std::size_t(n)] = 1;
                }
            }
            TensorMap record = inputs;
            for (auto &kv : r.outputs)
                record[kv.first] = std::move(kv.second);
            out.windows.push_back(std::move(record));
            out.windowNodeIds.push_back(std::move(global));
            if (!done[std::size_t(labelFrom)])
                done[std::size_t(labelFrom)] = 1; // a node without any token (none known): never loop on it
            const auto next = std::find(done.begin(), done.end(), 0);
            if (next == done.end())
                break;
            labelFrom = int(next - done.begin());
            begin = contextStart(tok, nodes, labelFrom, m_loaded->maxTokens - 2);
        }
        out.ok = true;
    } catch (const std::exception &e) {
        out = MarkupNodeLabelling{};
        out.error = e.what();
    }
    return out;
}

MarkupAnswer HfMarkupLM::answer(const std::string &question, const std::vector<std::string> &nodes,
                                const std::vector<std::string> &xpaths, int maxAnswerTokens) const
{
    MarkupAnswer out;
    try {
        if (!m_loaded || !m_loaded->qa)
            throw InferenceError("no MarkupLM question-answering checkpoint loaded");
        if (nodes.size() != xpaths.size())
            throw InferenceError("answer: " + std::to_string(nodes.size()) + " nodes but " + std::to_string(xpaths.size()) + " xpaths");
        const MarkupLMTokenizer &tok = *m_loaded->tokenizer;
        MarkupEncodeOptions encode;
        encode.maxLength = m_loaded->maxTokens;
        encode.truncation = true;
        const int maxSpan = std::max(1, maxAnswerTokens);
        int begin = 0, window = 0;
        while (window == 0 || begin < int(nodes.size())) {
            const std::vector<std::string> ns(nodes.begin() + begin, nodes.end()), xs(xpaths.begin() + begin, xpaths.end());
            const MarkupTokens t = tok.encodeQuestion(question, ns, xs, encode);
            const RunResult r = m_loaded->runner->run(windowInputs(t, tok.config().maxDepth));
            if (!r.ok)
                throw InferenceError(r.error);
            const Tensor &start = r.outputs.at("start_logits"), &end = r.outputs.at("end_logits");
            const float *s = start.data<float>(), *e = end.data<float>();
            const int length = t.length();
            // Softmax over the node tokens only (the question and specials masked), as the Hugging Face
            // question-answering pipeline scores a span.
            const auto logSumExp = [&](const float *x) {
                float m = -std::numeric_limits<float>::infinity();
                for (int i = 0; i < length; ++i)
                    if (t.nodeIds[std::size_t(i)] >= 0)
                        m = std::max(m, x[i]);
                double sum = 0;
                for (int i = 0; i < length; ++i)
                    if (t.nodeIds[std::size_t(i)] >= 0)
                        sum += std::exp(double(x[i] - m));
                return sum > 0 ? double(m) + std::log(sum) : 0.0;
            };
            const double normaliser = logSumExp(s) + logSumExp(e);
            int lastNode = -1;
            for (int i = 0; i < length; ++i) {
                if (t.nodeIds[std::size_t(i)] < 0)
                    continue;
                lastNode = std::max(lastNode, t.nodeIds[std::size_t(i)]);
                for (int j = i; j < std::min(length, i + maxSpan); ++j) {
                    if (t.nodeIds[std::size_t(j)] < 0)
                        break;
                    const float score = s[i] + e[j];
                    if (!out.found || score > out.score) {
                        out.found = true;
                        out.score = score;
                        out.confidence = float(std::exp(double(score) - normaliser));
                        out.window = window;
                        out.startToken = i;
                        out.endToken = j;
                        out.firstNode = begin + t.nodeIds[std::size_t(i)];
                        out.lastNode = begin + t.nodeIds[std::size_t(j)];
                        out.tokenIds.assign(t.inputIds.begin() + i, t.inputIds.begin() + j + 1);
                    }
                }
            }
            ++window;
            const int nodeTokens = int(std::count_if(t.nodeIds.begin(), t.nodeIds.end(), [](int n) { return n >= 0; }));
            if (lastNode < 0 || nodeTokens >= t.nodeTokensWithoutTruncation)
                break; // every node token was in this window (or none fits next to the question)
            // Next window: from the last (cut) node of this one, with a quarter window of context.
            const int cut = begin + lastNode;
            const int budget = m_loaded->maxTokens - 3 - int(tok.tokenizer().encodeWord(question).size());
            begin = std::max(begin + 1, contextStart(tok, nodes, cut, budget));
        }
        out.ok = true;
    } catch (const std::exception &e) {
        out = MarkupAnswer{};
        out.error = e.what();
    }
    return out;
}

} // namespace folio::inference
