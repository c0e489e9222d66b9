// Hugging Face token-classification checkpoints labelling words (see hftokenclassifier.h).
#include "inference/models/hftokenclassifier.h"

#include "inference/checkpoint/modelconfig.h"
#include "inference/errors.h"
#include "inference/models/detail/hfclassifierfolder.h"
#include "inference/models/detail/tokenlabels.h"
#include "inference/models/modelrunner.h"
#include "inference/tokenizers/hflayouttokenizer.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <limits>

namespace folio::inference {

struct HfTokenClassifier::Loaded
{
    std::unique_ptr<ModelRunner> runner;
    std::unique_ptr<HfLayoutTokenizer> tokenizer;
    std::string modelType;
    int maxTokens = 0;
    std::string imageInput;        // "pixel_values" (LayoutLMv3) or "image" (LayoutLMv2 with its backbone)
    bool imageRequired = false;    // LayoutLMv2: without an image the run is text + layout only
    std::vector<std::string> warnings; // the model's own (e.g. no visual backbone weights)
};

namespace {

using detail::labelAt;
using detail::labelsFromConfig;

// One window's model inputs: the page image under the model's name for it; a LayoutLMv2 with its
// backbone and no image is told to run text + layout only (visual_tokens = 0).
TensorMap windowInputs(const LayoutTokens &t, const Tensor *pixelValues, const std::string &imageInput = {},
                       bool imageRequired = false)
{
    const auto n = std::int64_t(t.inputIds.size());
    std::vector<std::int64_t> ids(t.inputIds.begin(), t.inputIds.end()), mask(t.attentionMask.begin(), t.attentionMask.end());
    std::vector<std::int64_t> box;
    for (const WordBox &b : t.bbox)
        box.insert(box.end(), {b.x0, b.y0, b.x1, b.y1});
    TensorMap in;
    in["input_ids"] = Tensor::fromInt64({1, n}, ids);
    in["bbox"] = Tensor::fromInt64({1, n, 4}, box);
    in["attention_mask"] = Tensor::fromInt64({1, n}, mask);
    if (imageRequired && !pixelValues)
        in["visual_tokens"] = Tensor::fromInt64({1}, {0});
    else if (pixelValues)
        in[imageInput.empty() ? std::string("pixel_values") : imageInput] = *pixelValues;
    return in;
}


struct WordWindow { int begin = 0, end = 0; };

// Overlapping windows of whole words whose tokens fit `budget` (a quarter of each window is shared
// with the next one); a word longer than the budget gets a window of its own (cut by truncation).
std::vector<WordWindow> wordWindows(const std::vector<int> &tokenCounts, int budget)
{
    std::vector<WordWindow> out;
    const int n = int(tokenCounts.size());
    for (int b = 0; b < n;) {
        int e = b, sum = 0;
        while (e < n && sum + tokenCounts[std::size_t(e)] <= budget)
            sum += tokenCounts[std::size_t(e++)];
        if (e == b) e = b + 1;
        out.push_back({b, e});
        if (e >= n) break;
        b = std::max(b + 1, e - (e - b) / 4);
    }
    return out;
}

} // namespace

HfTokenClassifier::HfTokenClassifier() = default;
HfTokenClassifier::~HfTokenClassifier() = default;
HfTokenClassifier::HfTokenClassifier(HfTokenClassifier &&) noexcept = default;
HfTokenClassifier &HfTokenClassifier::operator=(HfTokenClassifier &&) noexcept = default;
// supportedModelTypes() and checkFolder(): hfclassifierfolder.cpp (no LibTorch there).

bool HfTokenClassifier::isLoaded() const { return m_loaded != nullptr; }
std::string HfTokenClassifier::modelType() const { return m_loaded ? m_loaded->modelType : std::string(); }
bool HfTokenClassifier::takesImage() const { return m_loaded && !m_loaded->imageInput.empty(); }
std::vector<std::string> HfTokenClassifier::warnings() const { return m_loaded ? m_loaded->warnings : std::vector<std::string>(); }
int HfTokenClassifier::maxTokens() const { return m_loaded ? m_loaded->maxTokens : 0; }
bool HfTokenClassifier::isInt8() const { return m_loaded && m_loaded->runner->isInt8(); }

bool HfTokenClassifier::quantizeDynamicInt8(std::string *error)
{
    if (!m_loaded) {
        if (error)
            *error = "--int8: no Hugging Face token classifier loaded";
        return false;
    }
    return m_loaded->runner->quantizeDynamicInt8(error);
}

std::string HfTokenClassifier::tokenPiece(std::int64_t id) const
{
    if (!m_loaded || id < 0 || id > std::int64_t(std::numeric_limits<int>::max()))
        return std::string();
    try {
        return m_loaded->tokenizer->tokenizer().idToPiece(int(id));
    } catch (const std::exception &) {
        return std::string();
    }
}

bool HfTokenClassifier::load(const std::string &dir, std::string *error)
{
    try {
        const ModelConfig config = detail::hfClassifierConfig(dir);
        std::vector<std::string> labels = labelsFromConfig(config);
        auto loaded = std::make_unique<Loaded>();
        loaded->modelType = config.modelType();
        loaded->tokenizer = detail::hfClassifierTokenizer(dir, config);
        // Positions are offset by pad_token_id + 1 (RoBERTa style): the model takes
        // max_position_embeddings - 2 tokens at most, whatever the tokenizer says. LayoutLMv2 counts
        // positions from 0.
        const bool v2 = config.modelType() == "layoutlmv2";
        const long long positions = config.getInt("max_position_embeddings", v2 ? 512 : 514);
        loaded->maxTokens = int(std::min<long long>(loaded->tokenizer->config().modelMaxLength,
                                                    std::max(2LL, v2 ? positions : positions - 2)));
        loaded->runner = std::make_unique<ModelRunner>();
        std::string runnerError;
        if (!loaded->runner->load(dir, &runnerError)) {
            if (runnerError.find("classifier.") != std::string::npos) // the head's width follows id2label
                runnerError += " (" + config.source() + ": id2label names " + std::to_string(labels.size()) + " labels)";
            throw InferenceError(runnerError);
        }
        const std::vector<std::string> inputs = loaded->runner->inputNames();
        auto takes = [&](const char *name) { return std::find(inputs.begin(), inputs.end(), name) != inputs.end(); };
        if (v2 && takes("image")) {
            loaded->imageInput = "image";
            loaded->imageRequired = true;
        } else if (!v2 && takes("pixel_values") && config.getBool("visual_embed", false)) {
            loaded->imageInput = "pixel_values";
        }
        loaded->warnings = loaded->runner->warnings();
        if (!loaded->tokenizer->loadWarning().empty()) // tokenizer.json refused: the slow files stand in
            loaded->warnings.push_back(loaded->tokenizer->loadWarning());
        // The head's width must agree with id2label.
        const LayoutTokens probe = loaded->tokenizer->encode({}, {}, nullptr, loaded->maxTokens);
        const RunResult r = loaded->runner->run(windowInputs(probe, nullptr, loaded->imageInput, loaded->imageRequired));
        if (!r.ok)
            throw InferenceError(dir + ": the model does not run: " + r.error);
        const auto logits = r.outputs.find("logits");
        if (logits == r.outputs.end())
            throw InferenceError(config.source() + ": the checkpoint has no token-classification head (no logits)");
        if (logits->second.shape.back() != std::int64_t(labels.size()))
            throw InferenceError(config.source() + ": id2label names " + std::to_string(labels.size()) +
                                 " labels but the classifier head has " + std::to_string(logits->second.shape.back()));
        m_loaded = std::move(loaded);
        m_labels = std::move(labels);
        return true;
    } catch (const std::exception &e) {
        if (error) *error = e.what();
        return false;
    }
}

WordLabelling HfTokenClassifier::label(const std::vector<std::string> &words, const std::vector<WordBox> &boxes,
                                       LongPages longPages, const RunOptions &options, const Tensor *pixelValues) const
{
    WordLabelling out;
    try {
        if (!m_loaded)
            throw InferenceError("no token-classification checkpoint loaded");
        if (words.size() != boxes.size())
            throw InferenceError("label: " + std::to_string(words.size()) + " words but " + std::to_string(boxes.size()) + " boxes");
        const HfLayoutTokenizer &tok = *m_loaded->tokenizer;
        const int maxTokens = m_loaded->maxTokens;
        out.words.assign(words.size(), WordLabel{});
        std::vector<int> bestDistance(words.size(), -1);
        // Runs one encoded window of words [begin, ...) and labels each word whose first token it
        // holds, from `labelFrom` on, where the word sits farther from the window's edges than in
        // any window before (`wordCount`: the window's words, for that distance).
        auto runWindow = [&](const LayoutTokens &t, int begin, int wordCount, int labelFrom) {
            const TensorMap inputs = windowInputs(t, pixelValues, m_loaded->imageInput, m_loaded->imageRequired);
            RunResult r = m_loaded->runner->run(inputs, options);
            if (!r.ok)
                throw InferenceError(r.error);
            const Tensor &logits = r.outputs.at("logits");
            std::vector<int> globalIds;
            for (std::size_t p = 0; p < t.wordIds.size(); ++p) {
                const int local = t.wordIds[p];
                globalIds.push_back(local < 0 ? -1 : begin + local);
                if (local < 0 || (p > 0 && t.wordIds[p - 1] == local))
                    continue; // not the word's first token
                const int w = begin + local;
                const int distance = std::min(local, wordCount - 1 - local);
                if (w >= labelFrom && distance > bestDistance[std::size_t(w)]) {
                    bestDistance[std::size_t(w)] = distance;
                    out.words[std::size_t(w)] = labelAt(logits, std::int64_t(p), m_labels);
                }
            }
            TensorMap record = inputs;
            record.erase("pixel_values");
            record.erase("image");
            record.erase("visual_tokens");
            for (auto &kv : r.outputs)
                record[kv.first] = std::move(kv.second);
            out.windows.push_back(std::move(record));
            out.windowWordIds.push_back(std::move(globalIds));
        };
        // The first window is the reference's own call: every word, truncated at model_max_length
        // (it may cut inside a word). Each word with a token there is labelled from it, as the
        // reference labels it.
        const LayoutTokens first = tok.encode(words, boxes, nullptr, maxTokens, true, false);
        runWindow(first, 0, int(words.size()), 0);
        int cut = 0; // the first word the reference truncates away
        for (const int w : first.wordIds)
            cut = std::max(cut, w + 1);
        if (longPages == LongPages::Slide && first.tokensWithoutTruncation > maxTokens - 2) {
            // Sliding windows for the truncated words only; they start a quarter window before the
            // cut so that its first words have context on both sides.
            std::vector<int> counts;
            for (const std::string &w : words)
                counts.push_back(w.empty() ? 0 : int(tok.tokenizer().encodeWord(w).size()));
            const int budget = maxTokens - 2;
            int start = cut, context = 0;
            while (start > 0 && context + counts[std::size_t(start - 1)] <= budget / 4)
                context += counts[std::size_t(--start)];
            const std::vector<int> rest(counts.begin() + start, counts.end());
            for (const WordWindow &win : wordWindows(rest, budget)) {
                const int b = start + win.begin, e = start + win.end;
                if (e <= cut)
                    continue; // context only: every word there already has its reference label
                const std::vector<std::string> ws(words.begin() + b, words.begin() + e);
                const std::vector<WordBox> bs(boxes.begin() + b, boxes.begin() + e);
                runWindow(tok.encode(ws, bs, nullptr, maxTokens, true, false), b, e - b, cut);
            }
        }
        out.warnings = m_loaded->warnings;
        if (m_loaded->imageRequired && !pixelValues)
            out.warnings.push_back("no page image: the checkpoint's visual backbone is not used, the words are labelled "
                                   "from text + layout only");
        out.ok = true;
    } catch (const std::exception &e) {
        out.ok = false;
        out.error = e.what();
        out.words.clear();
        out.windows.clear();
        out.windowWordIds.clear();
    }
    return out;
}

} // namespace folio::inference
