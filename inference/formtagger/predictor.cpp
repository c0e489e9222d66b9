// Prediction and evaluation with a folio-formtagger checkpoint.
#include "inference/checkpoint/detail/convert.h"
#include "inference/formtagger/detail/taggermodel.h"
#include "inference/layers/detail/int8linear.h"
#include "inference/errors.h"
#include "common/regularfile.h"
#include "inference/training/detail/trainkit.h"
#include "inference/training/metrics.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/checkpoint/detail/jsonfile.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/formtagger/predictor.h"
#include "inference/formtagger/trainer.h"
#include "inference/training/viterbi.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <functional>

namespace fs = std::filesystem;

namespace folio::inference {

namespace detail {

// Float32 [H, n, n] copy of a trace tensor [1, H, n, n].
static Tensor traceTensor(const at::Tensor &t)
{
    return fromAten(t.detach().select(0, 0).to(at::kFloat).contiguous());
}

std::vector<float> predictLogProbs(const Tagger &tagger, const Tokenizer &tok, const TaggerPage &page,
                                   const RunOptions *options, std::vector<PredictionTraceWindow> *trace,
                                   std::vector<float> *wordStates)
{
    const TaggerConfig &cfg = tagger.config();
    const int n = int(page.words.size());
    if (n == 0)
        throw InferenceError("page " + page.id + ": empty document (no words to label)");
    if (page.boxes.size() != page.words.size())
        throw InferenceError("page " + page.id + ": words and boxes differ in number");
    at::NoGradGuard guard;
    TaggerPage unlabelled = page;
    unlabelled.tags.clear();
    const std::vector<Window> windows = slidingWindows(n, cfg.maxWords, cfg.windowStride);
    const std::uint32_t disabled = options ? options->disabledBiases : BiasNone;
    const bool tracing = options && options->trace && trace;
    if (tracing)
        trace->clear();
    std::vector<std::vector<float>> scores, states;
    for (const Window &w : windows) {
        const EncodedPage e = encodePage(tok, unlabelled, cfg, {}, w.begin, w.end);
        // hidden() then the classifier: what Model::forward (the registry path of `folio-cli run`)
        // computes, with the encoder's states at hand for the link head.
        std::map<std::string, at::Tensor> captured;
        const at::Tensor h = tagger.hidden(makeBatch({&e}, cfg, nullptr), false, disabled, tracing ? &captured : nullptr);
        const at::Tensor logits = tagger.classify(h)[0];
        if (wordStates) {
            const at::Tensor hc = h[0].contiguous();
            states.emplace_back(hc.data_ptr<float>(), hc.data_ptr<float>() + hc.numel());
        }
        const at::Tensor lp = at::log_softmax(logits, -1).contiguous();
        scores.emplace_back(lp.data_ptr<float>(), lp.data_ptr<float>() + lp.numel());
        if (tracing) {
            PredictionTraceWindow tw;
            tw.firstWord = w.begin;
            tw.wordCount = w.end - w.begin;
            for (const auto &[name, t] : captured)
                tw.tensors[name] = traceTensor(t);
            trace->push_back(std::move(tw));
        }
    }
    if (wordStates)
        *wordStates = mergeWindowScores(windows, states, n, cfg.hidden);
    return mergeWindowScores(windows, scores, n, cfg.numLabels);
}

std::vector<std::string> decodeTags(const std::vector<float> &logProbs, int n, const std::vector<std::string> &labels,
                                    bool viterbi)
{
    const std::vector<int> ids = viterbi ? viterbiDecode(logProbs, n, labels) : argmaxDecode(logProbs, n, int(labels.size()));
    std::vector<std::string> tags;
    for (int i : ids)
        tags.push_back(labels[size_t(i)]);
    return tags;
}

std::string evaluatePages(const Tagger &tagger, const Tokenizer &tok, const std::vector<TaggerPage> &pages, bool viterbi,
                          double *f1)
{
    return evaluatePages(tagger.config().labels, pages, viterbi, f1,
                         [&](const TaggerPage &page) { return predictLogProbs(tagger, tok, page); });
}

std::string evaluatePages(const std::vector<std::string> &labels, const std::vector<TaggerPage> &pages, bool viterbi,
                          double *f1, const std::function<std::vector<float>(const TaggerPage &)> &logProbs)
{
    EntityScorer scorer;
    for (const TaggerPage &p : pages) {
        if (p.tags.size() != p.words.size())
            throw InferenceError("page " + p.id + ": gold tags and words differ in number");
        for (size_t i = 0; i < p.tags.size(); ++i)
            if (std::find(labels.begin(), labels.end(), p.tags[i]) == labels.end())
                throw InferenceError("page " + p.id + ", word " + std::to_string(i) + ": label \"" + p.tags[i] +
                                     "\" is not in the model's label map");
        if (p.words.empty())
            continue;
        const std::vector<float> lp = logProbs(p);
        scorer.add(p.tags, decodeTags(lp, int(p.words.size()), labels, viterbi));
    }
    if (f1)
        *f1 = scorer.micro().f1();
    return scorer.toJson();
}

} // namespace detail

// One loaded folio-formtagger folder.
struct TaggerMember
{
    std::unique_ptr<detail::Model> model; // from the ModelRunner registry
    const detail::Tagger *tagger = nullptr;
    std::unique_ptr<Tokenizer> tokenizer;
};

struct Predictor::Impl
{
    // One member, or the members of an ensemble folder (the first is the primary: its variant,
    // word order, attention trace and word states are the ones reported).
    std::vector<TaggerMember> members;
    std::vector<std::string> labels;
    bool int8 = false;
    const detail::Tagger &tagger() const { return *members.front().tagger; }

    // Per-word log-probabilities [n x labels]: the member's own, or for an ensemble the log of the
    // members' mean probability. Trace and states come from the primary member.
    std::vector<float> logProbs(const TaggerPage &page, const RunOptions *options = nullptr,
                                std::vector<PredictionTraceWindow> *trace = nullptr,
                                std::vector<float> *states = nullptr) const
    {
        std::vector<float> lp = detail::predictLogProbs(*members[0].tagger, *members[0].tokenizer, page, options, trace, states);
        if (members.size() == 1)
            return lp;
        std::vector<double> sum(lp.size());
        for (size_t i = 0; i < lp.size(); ++i)
            sum[i] = std::exp(double(lp[i]));
        for (size_t m = 1; m < members.size(); ++m) {
            const std::vector<float> more = detail::predictLogProbs(*members[m].tagger, *members[m].tokenizer, page, options);
            for (size_t i = 0; i < lp.size(); ++i)
                sum[i] += std::exp(double(more[i]));
        }
        for (size_t i = 0; i < lp.size(); ++i)
            lp[i] = float(std::log(sum[i] / double(members.size())));
        return lp;
    }
};

Predictor::Predictor() = default;
Predictor::~Predictor() = default;

bool Predictor::isLoaded() const { return m_impl != nullptr; }

const std::vector<std::string> &Predictor::labels() const
{
    static const std::vector<std::string> none;
    return m_impl ? m_impl->labels : none;
}

std::string Predictor::variant() const { return m_impl ? m_impl->tagger().config().variant : std::string(); }
std::string Predictor::wordOrder() const { return m_impl ? m_impl->tagger().config().wordOrder : std::string(); }
int Predictor::memberCount() const { return m_impl ? int(m_impl->members.size()) : 0; }

namespace {

TaggerMember loadMember(const std::string &dir)
{
    const fs::path d(dir);
    const ModelConfig checked = ModelConfig::fromDirectory(dir); // checked once more: memberFolders did
    const detail::TaggerConfig cfg = detail::TaggerConfig::fromJson(checked.json(), checked.source());
    if (!fs::exists(d / "model.safetensors"))
        throw InferenceError(dir + ": model.safetensors is missing");
    TaggerMember m;
    m.tokenizer = Tokenizer::fromDirectory(dir);
    if (m.tokenizer->vocabSize() != cfg.vocabSize)
        throw InferenceError(dir + ": tokenizer has " + std::to_string(m.tokenizer->vocabSize()) +
                             " pieces but config.json says vocab_size " + std::to_string(cfg.vocabSize));
    // Through the registry, like every model type (ModelRunner::load does the same).
    at::NoGradGuard noGrad;
    detail::ParamStore store((d / "model.safetensors").string());
    m.model = detail::createModel(checked, store);
    store.finish();
    m.tagger = dynamic_cast<const detail::Tagger *>(m.model.get());
    if (!m.tagger)
        throw InferenceError(dir + ": not a folio-formtagger checkpoint");
    return m;
}

} // namespace

std::vector<std::string> taggerEnsembleMembers(const std::string &dir)
{
    const std::string path = dir + "/config.json";
    if (!pathExists(path))
        return {};
    // A FIFO, a device, a folder or a loop: refused by name before it is opened (issue 51).
    std::string notAFile;
    const long long size = regularFileSize(path, FileLimits::configJson, "config.json", &notAFile);
    if (size < 0)
        throw InferenceError(notAFile);
    // An ensemble's config is a few lines. A big file is parsed only when it names the ensemble
    // type (a model config is not parsed twice); an ensemble's over 64 KB is still an ensemble,
    // told by the members rule or its size (issue 51: it was read as a model config).
    if (size > FileLimits::ensembleConfig) {
        std::ifstream in(path, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (text.find(kTaggerEnsembleType) == std::string::npos)
            return {};
    }
    const nlohmann::json j = detail::readJsonFile(path);
    if (!j.is_object() || j.value("model_type", std::string()) != kTaggerEnsembleType)
        return {};
    const auto it = j.find("members");
    if (it == j.end() || !it->is_array() || it->size() < 2 || it->size() > 16)
        throw InferenceError(path + ": \"members\" must list 2 to 16 folio-formtagger folders" +
                             (it != j.end() && it->is_array() ? " (it lists " + std::to_string(it->size()) + ")" : std::string()));
    if (size > FileLimits::ensembleConfig)
        throw InferenceError(path + ": an ensemble config of " + describeByteSize(size) + ", over the " +
                             describeByteSize(FileLimits::ensembleConfig) + " an ensemble's 2 to 16 member folders need");
    std::vector<std::string> members;
    for (const auto &m : *it) {
        if (!m.is_string() || m.get<std::string>().empty())
            throw InferenceError(path + ": every entry of \"members\" must be a folder name");
        const fs::path p(m.get<std::string>());
        members.push_back((p.is_absolute() ? p : fs::path(dir) / p).lexically_normal().string());
    }
    return members;
}

namespace {

struct MemberFolder
{
    std::string dir;
    detail::TaggerConfig config;
};

// The folders Predictor::load reads (one, or an ensemble's members) with their configs, checked
// against each other before any weight is read. Throws InferenceError naming the folder.
std::vector<MemberFolder> memberFolders(const std::string &dir)
{
    if (!fs::is_directory(dir))
        throw InferenceError(dir + ": checkpoint folder does not exist");
    std::vector<std::string> folders = taggerEnsembleMembers(dir);
    const bool ensemble = !folders.empty();
    if (!ensemble)
        folders.push_back(dir);
    std::vector<MemberFolder> members;
    // "" = not recorded (checkpoints from before word_order): read as the default order.
    const auto order = [](const std::string &o) { return o.empty() ? std::string("annotation") : o; };
    for (const std::string &folder : folders) {
        if (ensemble && !fs::is_directory(folder))
            throw InferenceError(dir + ": member " + folder + " does not exist");
        if (ensemble && !taggerEnsembleMembers(folder).empty())
            throw InferenceError(dir + ": member " + folder + " is an ensemble itself");
        // Sizes checked against the weights header before anything is built (issue 18; configcheck.h).
        const ModelConfig checked = ModelConfig::fromDirectory(folder);
        MemberFolder m{folder, detail::TaggerConfig::fromJson(checked.json(), checked.source())};
        if (!members.empty()) {
            // Probabilities are averaged label by label over the same words in the same order.
            const MemberFolder &first = members.front();
            if (m.config.labels != first.config.labels)
                throw InferenceError(dir + ": member " + folder + " has another label map than " + first.dir);
            if (order(m.config.wordOrder) != order(first.config.wordOrder))
                throw InferenceError(dir + ": member " + folder + " reads words in \"" + order(m.config.wordOrder) +
                                     "\" order, " + first.dir + " in \"" + order(first.config.wordOrder) + "\"");
        }
        members.push_back(std::move(m));
    }
    return members;
}

} // namespace

bool checkTaggerEnsemble(const std::string &dir, std::string *error)
{
    return detail::runGuarded([&] { memberFolders(dir); }, error);
}

bool Predictor::load(const std::string &dir, std::string *error)
{
    return detail::runGuarded([&] {
        const std::vector<MemberFolder> folders = memberFolders(dir); // all checked before any weight is read
        auto impl = std::make_unique<Impl>();
        for (const MemberFolder &folder : folders)
            impl->members.push_back(loadMember(folder.dir));
        impl->labels = folders.front().config.labels;
        m_impl = std::move(impl);
    }, error);
}

bool Predictor::quantizeDynamicInt8(std::string *error)
{
    return detail::runGuarded([&] {
        if (!m_impl)
            throw InferenceError("--int8: no checkpoint loaded");
        std::string why;
        if (int8Engine(&why).empty())
            throw InferenceError(why);
        for (TaggerMember &m : m_impl->members) {
            auto *tagger = dynamic_cast<detail::Tagger *>(m.model.get());
            if (!tagger)
                throw InferenceError("--int8: not a folio-formtagger model");
            tagger->quantizeDynamicInt8();
        }
        m_impl->int8 = true;
    }, error);
}

bool Predictor::isInt8() const { return m_impl && m_impl->int8; }

std::string Predictor::int8Engine(std::string *why) { return detail::int8EngineName(why); }

bool Predictor::predict(const TaggerPage &page, PagePrediction *out, std::string *error, bool viterbi,
                        const RunOptions *options, std::vector<PredictionTraceWindow> *trace, WordStates *states) const
{
    return detail::runGuarded([&] {
        if (!m_impl)
            throw InferenceError("no checkpoint loaded");
        const int n = int(page.words.size());
        std::vector<float> hidden;
        const std::vector<float> lp = m_impl->logProbs(page, options, trace, states ? &hidden : nullptr);
        if (states) {
            states->words = n;
            states->dim = m_impl->tagger().config().hidden;
            states->values = std::move(hidden);
        }
        PagePrediction pred;
        pred.tags = detail::decodeTags(lp, n, m_impl->labels, viterbi);
        const int L = int(m_impl->labels.size());
        for (int i = 0; i < n; ++i) {
            const auto it = std::find(m_impl->labels.begin(), m_impl->labels.end(), pred.tags[size_t(i)]);
            pred.confidences.push_back(std::exp(double(lp[size_t(i) * size_t(L) + size_t(it - m_impl->labels.begin())])));
        }
        for (const Chunk &c : extractChunks(pred.tags)) {
            PredictedEntity e;
            e.label = c.type;
            e.firstWord = c.begin;
            e.lastWord = c.end;
            double s = 0;
            for (int i = c.begin; i <= c.end; ++i)
                s += pred.confidences[size_t(i)];
            e.confidence = s / double(c.end - c.begin + 1);
            pred.entities.push_back(e);
        }
        *out = std::move(pred);
    }, error);
}

bool Predictor::evaluate(const std::vector<TaggerPage> &pages, std::string *json, std::string *error, bool viterbi) const
{
    return detail::runGuarded([&] {
        if (!m_impl)
            throw InferenceError("no checkpoint loaded");
        *json = detail::evaluatePages(
            m_impl->labels, pages, viterbi, nullptr,
            [this](const TaggerPage &page) { return m_impl->logProbs(page); });
    }, error);
}

bool compactCheckpoint(const std::string &dir, std::string *error)
{
    return detail::runGuarded([&] {
        const fs::path d(dir);
        const detail::TaggerConfig cfg = detail::TaggerConfig::fromJsonFile((d / "config.json").string());
        detail::ParamStore store((d / "model.safetensors").string());
        detail::Tagger tagger(cfg, store);
        store.finish();
        TensorMap half;
        for (const auto &kv : tagger.params())
            half[kv.first] = detail::fromAten(kv.second.detach().to(at::kHalf));
        writeSafetensors((d / "model.safetensors").string(), half, {{"format", "pt"}, {"model_type", "folio-formtagger"}});
        fs::remove_all(d / "last");
    }, error);
}

} // namespace folio::inference
