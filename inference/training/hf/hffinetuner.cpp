// HfFineTuner: Hugging Face token classifiers fine-tuned on Folio's forward passes with autograd.
#include "inference/training/hf/hffinetuner.h"

#include "inference/checkpoint/detail/convert.h"
#include "inference/checkpoint/detail/jsonfile.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/errors.h"
#include "inference/models/detail/model.h"
#include "inference/training/detail/processgroup.h"
#include "inference/training/detail/trainkit.h"
#include "inference/training/hf/hfarchitectures.h"
#include "inference/training/hf/detail/hfoptim.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <filesystem>
#include <limits>

namespace fs = std::filesystem;

namespace folio::inference {

using detail::AtMap;

struct HfFineTuner::Impl
{
    std::string dir;
    std::string modelType;
    std::string prefix;                          // "layoutlmv3." / "lilt."
    nlohmann::json config;                       // config.json as it will be written
    std::map<std::string, at::Tensor> params;    // leaves, requires_grad, reference names
    HfFineTuneOptions options;
    std::unique_ptr<detail::HfAdamW> optim;
    bool keepGradients = false;
    TensorMap lastGradients;
    std::vector<std::string> withoutGradient;
    mutable std::unique_ptr<detail::Model> evalModel; // built on the current weights, no autograd
    std::unique_ptr<detail::ProcessGroup> group;      // data-parallel ranks (setDistributed)

    std::vector<std::string> labels() const
    {
        std::vector<std::string> out;
        const auto it = config.find("id2label");
        if (it == config.end() || !it->is_object())
            return out;
        out.resize(it->size());
        for (const auto &[k, v] : it->items()) {
            const long i = std::stol(k);
            if (i < 0 || i >= long(out.size()) || !v.is_string())
                throw InferenceError(dir + "/config.json: id2label is not a list 0..n-1 of names");
            out[std::size_t(i)] = v.get<std::string>();
        }
        return out;
    }
    bool hasHead() const { return params.count("classifier.weight") || params.count("classifier.dense.weight"); }

    // The registry's model on the trainable tensors. With autograd on, every derived tensor (LiLT's
    // and the LayoutLM encoder's fused Q/K/V) is part of the graph, so gradients reach the leaves.
    std::unique_ptr<detail::Model> build() const
    {
        const ModelConfig c = ModelConfig::fromJson(config, dir + "/config.json");
        detail::ParamStore store = detail::ParamStore::fromTensors(params, dir + " (training parameters)");
        auto model = detail::createModel(c, store);
        store.finish();
        return model;
    }
    void ensureOptimiser()
    {
        if (optim)
            return;
        // The reference's optimiser holds only parameters that require grad (a LayoutLMv2
        // backbone's frozen part is left out: hfarchitectures.h).
        std::map<std::string, at::Tensor> trainable;
        for (const auto &[name, t] : params)
            if (t.requires_grad())
                trainable.emplace(name, t);
        optim = std::make_unique<detail::HfAdamW>(trainable, toOptim(options));
    }
    static detail::HfOptimOptions toOptim(const HfFineTuneOptions &o)
    {
        detail::HfOptimOptions d;
        d.lr = o.lr;
        d.weightDecay = o.weightDecay;
        d.beta1 = o.beta1;
        d.beta2 = o.beta2;
        d.eps = o.eps;
        d.maxGradNorm = o.maxGradNorm;
        d.warmupSteps = o.warmupSteps;
        d.totalSteps = o.totalSteps;
        return d;
    }
};

HfFineTuner::HfFineTuner() = default;
HfFineTuner::~HfFineTuner() = default;
HfFineTuner::HfFineTuner(HfFineTuner &&) noexcept = default;
HfFineTuner &HfFineTuner::operator=(HfFineTuner &&) noexcept = default;

std::string HfFineTuner::tokenClassificationArchitecture(const std::string &modelType)
{
    return hfTokenClassificationArchitecture(modelType);
}

std::vector<std::string> HfFineTuner::supportedModelTypes()
{
    return hfFineTunableModelTypes();
}

std::vector<std::string> HfFineTuner::processorFiles()
{
    return {"tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "added_tokens.json", "vocab.json",
            "merges.txt", "vocab.txt", "sentencepiece.bpe.model", "preprocessor_config.json"};
}

bool HfFineTuner::load(const std::string &dir, std::string *error)
{
    auto impl = std::make_unique<Impl>();
    const bool ok = detail::runGuarded([&] {
        impl->dir = dir;
        const ModelConfig config = ModelConfig::fromDirectory(dir);
        impl->modelType = config.modelType();
        const auto types = hfStepModelTypes();
        if (std::find(types.begin(), types.end(), impl->modelType) == types.end())
            throw InferenceError(dir + "/config.json: model_type \"" + impl->modelType
                                 + "\" cannot be fine-tuned yet (supported: layoutlmv3, lilt, layoutlmv2, markuplm)");
        impl->prefix = impl->modelType + ".";
        impl->config = config.json();
        // Every tensor the model takes, under the reference's names (a base model's keys get the
        // task model's prefix; the head keys stay as they are).
        detail::ParamStore store = detail::ParamStore::fromDirectory(dir);
        std::map<std::string, at::Tensor> carried; // saved by the reference, never run (hfarchitectures.h)
        {
            at::NoGradGuard noGrad;
            auto model = detail::createModel(config, store);
            for (const auto &[name, shape] : hfCarriedTensors(config)) {
                const std::string key = store.has(name) ? name : name.substr(impl->prefix.size());
                if (store.has(key))
                    carried[name] = store.take(key, shape).detach().clone();
            }
            store.finish();
        }
        for (const auto &[name, t] : store.parameters()) {
            const bool keep = name.rfind(impl->prefix, 0) == 0 || name.rfind("classifier.", 0) == 0;
            at::Tensor leaf = t.detach().to(at::kFloat).contiguous().clone();
            leaf.set_requires_grad(true);
            impl->params[keep ? name : impl->prefix + name] = leaf;
        }
        // What the reference keeps fixed (a LayoutLMv2 backbone's FrozenBN and FREEZE_AT stages).
        std::vector<std::string> names;
        for (const auto &kv : impl->params)
            names.push_back(kv.first);
        for (const std::string &name : hfFrozenParameters(config, names))
            impl->params.at(name).set_requires_grad(false);
        for (const auto &[name, t] : carried)
            impl->params[name] = t; // requires_grad off: fixed, saved as read
        const std::vector<std::string> labels = impl->labels();
        if (impl->hasHead() && labels.empty())
            throw InferenceError(dir + "/config.json: the checkpoint has a classifier but no id2label");
    }, error, dir);
    if (ok)
        m_impl = std::move(impl);
    return ok;
}

bool HfFineTuner::isLoaded() const { return m_impl != nullptr; }
std::string HfFineTuner::modelType() const { return m_impl ? m_impl->modelType : std::string(); }
bool HfFineTuner::hasHead() const { return m_impl && m_impl->hasHead(); }

std::vector<std::string> HfFineTuner::labels() const
{
    if (!m_impl || !m_impl->hasHead())
        return {};
    return m_impl->labels();
}

bool HfFineTuner::setLabels(const std::vector<std::string> &labels, std::uint64_t seed, bool *newHead, std::string *error)
{
    if (newHead)
        *newHead = false;
    if (!m_impl) {
        if (error)
            *error = "no checkpoint loaded";
        return false;
    }
    return detail::runGuarded([&] {
        if (labels.empty())
            throw InferenceError("the label set is empty");
        const std::vector<std::string> current = m_impl->hasHead() ? m_impl->labels() : std::vector<std::string>();
        if (current == labels)
            return;
        auto writeLabelMaps = [&] {
            nlohmann::json id2label = nlohmann::json::object(), label2id = nlohmann::json::object();
            for (std::size_t i = 0; i < labels.size(); ++i) {
                id2label[std::to_string(i)] = labels[i];
                label2id[labels[i]] = i;
            }
            m_impl->config["id2label"] = id2label;
            m_impl->config["label2id"] = label2id;
            m_impl->config.erase("num_labels");
            m_impl->optim.reset();
            m_impl->evalModel.reset();
        };
        // The same labels in another order: the head is kept, its output rows reordered.
        std::vector<std::int64_t> perm;
        for (const std::string &l : labels) {
            const auto it = std::find(current.begin(), current.end(), l);
            if (it == current.end())
                break;
            perm.push_back(std::int64_t(it - current.begin()));
        }
        if (!current.empty() && perm.size() == labels.size() && labels.size() == current.size()) {
            const std::string out = m_impl->params.count("classifier.out_proj.weight") ? "classifier.out_proj" : "classifier";
            const at::Tensor index = at::tensor(perm, at::kLong);
            for (const char *part : {".weight", ".bias"}) {
                at::Tensor &t = m_impl->params.at(out + part);
                at::Tensor reordered = t.detach().index_select(0, index).contiguous();
                reordered.set_requires_grad(true);
                t = reordered;
            }
            writeLabelMaps();
            return;
        }
        const auto d = static_cast<std::int64_t>(m_impl->config.value("hidden_size", 768));
        const double initStd = m_impl->config.value("initializer_range", 0.02);
        const auto n = static_cast<std::int64_t>(labels.size());
        for (auto it = m_impl->params.begin(); it != m_impl->params.end();)
            it = it->first.rfind("classifier.", 0) == 0 ? m_impl->params.erase(it) : std::next(it);
        at::Generator gen = at::detail::createCPUGenerator(seed);
        auto linear = [&](const std::string &name, std::int64_t in, std::int64_t out) {
            at::Tensor w = at::empty({out, in}, at::kFloat);
            w.normal_(0.0, initStd, gen);
            at::Tensor b = at::zeros({out}, at::kFloat);
            w.set_requires_grad(true);
            b.set_requires_grad(true);
            m_impl->params[name + ".weight"] = w;
            m_impl->params[name + ".bias"] = b;
        };
        if (m_impl->modelType == "layoutlmv3" && n >= 10) { // LayoutLMv3ClassificationHead
            linear("classifier.dense", d, d);
            linear("classifier.out_proj", d, n);
        } else {
            linear("classifier", d, n);
        }
        writeLabelMaps();
        if (newHead)
            *newHead = true;
    }, error);
}

void HfFineTuner::setOptions(const HfFineTuneOptions &options)
{
    if (!m_impl)
        return;
    m_impl->options = options;
    m_impl->optim.reset();
}

long HfFineTuner::steps() const
{
    return m_impl && m_impl->optim ? m_impl->optim->steps() : 0;
}

HfStepResult HfFineTuner::step(const TensorMap &batch)
{
    return step(std::vector<TensorMap>{batch});
}

HfStepResult HfFineTuner::step(const std::vector<TensorMap> &shards)
{
    HfStepResult r;
    if (!m_impl) {
        r.error = "no checkpoint loaded";
        return r;
    }
    if (!m_impl->hasHead()) {
        r.error = "the checkpoint has no token-classification head: set the label set first";
        return r;
    }
    r.ok = detail::runGuarded([&] {
        m_impl->ensureOptimiser();
        m_impl->evalModel.reset();
        at::AutoGradMode grad(true);
        const auto model = m_impl->build();
        const RunOptions runOptions;
        const detail::ForwardContext ctx(runOptions);
        // The config's dropout, the reference's defaults when a key is absent or null.
        auto prob = [&](const char *key, double fallback) {
            const auto it = m_impl->config.find(key);
            return it != m_impl->config.end() && it->is_number() ? it->get<double>() : fallback;
        };
        detail::TrainingDropout drop;
        drop.hidden = prob("hidden_dropout_prob", 0.1);
        drop.attention = prob("attention_probs_dropout_prob", 0.1);
        drop.classifier = prob("classifier_dropout", drop.hidden);
        const detail::TrainingDropoutScope dropScope(drop);
        const int rank = m_impl->group ? m_impl->group->rank() : 0;
        const int world = m_impl->group ? m_impl->group->worldSize() : 1;
        std::vector<at::Tensor> losses;
        int shardIndex = 0;
        for (const TensorMap &shard : shards) {
            if (drop.active()) // this shard's masks: the same whichever process takes it
                at::manual_seed(m_impl->options.seed * 1000003ULL + std::uint64_t(m_impl->optim->steps()) * 1009ULL
                                + std::uint64_t(rank + world * shardIndex));
            ++shardIndex;
            AtMap in;
            at::Tensor labels;
            for (const auto &[name, t] : shard) {
                if (name == "labels")
                    labels = detail::toAten(t).to(at::kLong);
                else
                    in[name] = detail::toAten(t);
            }
            if (!labels.defined())
                throw InferenceError("the batch has no 'labels' tensor");
            const AtMap out = model->forward(in, ctx);
            const auto it = out.find("logits");
            if (it == out.end())
                throw InferenceError("the model gave no logits");
            if (it->second.sizes().slice(0, 2) != labels.sizes())
                throw InferenceError("labels " + shapeString(labels.sizes().vec()) + " do not match logits "
                                     + shapeString(it->second.sizes().vec()));
            const at::Tensor loss = detail::tokenClassificationLoss(it->second, labels);
            if (loss.defined())
                losses.push_back(loss);
        }
        const bool haveLocal = !losses.empty();
        if (!haveLocal && !m_impl->group)
            throw InferenceError("no position of the batch has a label (every label is -100)");
        double localLoss = 0;
        if (haveLocal) {
            at::Tensor total = losses.size() == 1 ? losses[0] : at::stack(losses).mean();
            total.backward();
            localLoss = total.item<double>();
        }
        r.loss = localLoss;
        std::vector<bool> hadGradient;
        for (const auto &kv : m_impl->params)
            hadGradient.push_back(kv.second.grad().defined());
        if (m_impl->group) {
            // The ranks' mean gradients, averaged; a parameter no rank's graph reached stays without
            // one (a rank without a shard learns that from the zero average).
            const std::vector<at::Tensor> &all = m_impl->optim->parameters();
            if (!m_impl->group->averageGradients(all, haveLocal))
                throw InferenceError("no position of the batch has a label on any rank (every label is -100)");
            std::size_t k = 0;
            for (auto &kv : m_impl->params) {
                at::Tensor &p = kv.second;
                const bool none = !p.requires_grad() || (haveLocal ? !hadGradient[k] : p.grad().abs().max().item<double>() == 0.0);
                if (none)
                    p.mutable_grad() = at::Tensor();
                ++k;
            }
            const double ranks = m_impl->group->sum(haveLocal ? 1.0 : 0.0);
            r.loss = m_impl->group->sum(localLoss) / std::max(1.0, ranks);
        }
        m_impl->withoutGradient.clear();
        m_impl->lastGradients.clear();
        for (const auto &[name, p] : m_impl->params) {
            if (!p.grad().defined())
                m_impl->withoutGradient.push_back(name);
            else if (m_impl->keepGradients)
                m_impl->lastGradients[name] = detail::fromAten(p.grad());
        }
        r.gradNorm = m_impl->optim->clipGradients();
        r.lr = m_impl->optim->step();
    }, &r.error);
    if (!r.ok && m_impl->optim)
        m_impl->optim->zeroGrad();
    return r;
}

bool HfFineTuner::setDistributed(const DistributedConfig &config, std::string *error)
{
    if (!m_impl) {
        if (error)
            *error = "no checkpoint loaded";
        return false;
    }
    return detail::runGuarded([&] {
        auto group = std::make_unique<detail::ProcessGroup>(config);
        group->broadcastFromRankZero(m_impl->params);
        m_impl->group = std::move(group);
        m_impl->evalModel.reset();
    }, error);
}

bool HfFineTuner::isDistributed() const
{
    return m_impl && m_impl->group;
}

double HfFineTuner::sumOverRanks(double value)
{
    return m_impl && m_impl->group ? m_impl->group->sum(value) : value;
}

void HfFineTuner::setKeepGradients(bool keep)
{
    if (m_impl)
        m_impl->keepGradients = keep;
}

const TensorMap &HfFineTuner::lastGradients() const
{
    static const TensorMap empty;
    return m_impl ? m_impl->lastGradients : empty;
}

std::vector<std::string> HfFineTuner::parametersWithoutGradient() const
{
    return m_impl ? m_impl->withoutGradient : std::vector<std::string>();
}

std::vector<std::string> HfFineTuner::noDecayParameters() const
{
    std::vector<std::string> out;
    if (!m_impl)
        return out;
    for (const auto &kv : m_impl->params)
        if (kv.second.requires_grad() && !detail::hfDecays(kv.first))
            out.push_back(kv.first);
    return out;
}

std::vector<std::string> HfFineTuner::frozenParameters() const
{
    std::vector<std::string> out;
    if (m_impl)
        for (const auto &kv : m_impl->params)
            if (!kv.second.requires_grad())
                out.push_back(kv.first);
    return out;
}

std::string HfFineTuner::imageInputName() const
{
    if (!m_impl)
        return {};
    std::vector<std::string> names;
    for (const auto &kv : m_impl->params)
        names.push_back(kv.first);
    return hfImageInputName(ModelConfig::fromJson(m_impl->config, m_impl->dir + "/config.json"), names);
}

TensorMap HfFineTuner::parameters() const
{
    TensorMap out;
    if (m_impl)
        for (const auto &[name, t] : m_impl->params)
            out[name] = detail::fromAten(t.detach());
    return out;
}

RunResult HfFineTuner::forward(const TensorMap &inputs) const
{
    RunResult r;
    if (!m_impl) {
        r.error = "no checkpoint loaded";
        return r;
    }
    r.ok = detail::runGuarded([&] {
        at::NoGradGuard noGrad;
        if (!m_impl->evalModel)
            m_impl->evalModel = m_impl->build();
        AtMap in;
        for (const auto &[name, t] : inputs)
            if (name != "labels")
                in[name] = detail::toAten(t);
        const RunOptions runOptions;
        const detail::ForwardContext ctx(runOptions);
        for (const auto &[name, t] : m_impl->evalModel->forward(in, ctx))
            r.outputs.emplace(name, detail::fromAten(t));
    }, &r.error);
    return r;
}

bool HfFineTuner::saveFolder(const std::string &outDir, const std::string &initDir, const std::string &modelCard,
                             std::string *error) const
{
    if (!m_impl) {
        if (error)
            *error = "no checkpoint loaded";
        return false;
    }
    return detail::runGuarded([&] {
        std::error_code ec;
        fs::create_directories(outDir, ec);
        if (ec)
            throw InferenceError(outDir + ": cannot create the folder: " + ec.message());
        // Every file is staged as <name>.part first and only then renamed into place, so a failed
        // write (a full disk) leaves the previous folder whole and no part behind.
        std::vector<std::string> staged;
        const auto unstage = [&] {
            std::error_code ignored;
            for (const std::string &name : staged) {
                fs::remove(outDir + "/" + name + ".part", ignored);
                fs::remove(outDir + "/" + name + ".part.tmp", ignored); // writeTextFile's own staging
            }
        };
        try {
            TensorMap weights;
            for (const auto &[name, t] : m_impl->params)
                weights[name] = detail::fromAten(t.detach());
            staged.push_back("model.safetensors");
            writeSafetensors(outDir + "/model.safetensors.part", weights, {{"format", "pt"}});
            nlohmann::json config = m_impl->config;
            config["architectures"] = nlohmann::json::array({tokenClassificationArchitecture(m_impl->modelType)});
            staged.push_back("config.json");
            detail::writeTextFile(outDir + "/config.json.part", config.dump(2) + "\n");
            for (const std::string &f : processorFiles()) {
                const std::string from = initDir + "/" + f;
                if (initDir.empty() || !fs::is_regular_file(from))
                    continue;
                if (fs::exists(outDir + "/" + f) && fs::equivalent(from, outDir + "/" + f))
                    continue;
                staged.push_back(f);
                fs::copy_file(from, outDir + "/" + f + ".part", fs::copy_options::overwrite_existing, ec);
                if (ec)
                    throw InferenceError(outDir + "/" + f + ": cannot copy from " + from + ": " + ec.message());
            }
            if (!modelCard.empty()) {
                staged.push_back("README.md");
                detail::writeTextFile(outDir + "/README.md.part", modelCard);
            }
        } catch (...) {
            unstage();
            throw;
        }
        for (const std::string &name : staged) {
            fs::rename(outDir + "/" + name + ".part", outDir + "/" + name, ec);
            if (ec)
                throw InferenceError(outDir + "/" + name + ": cannot replace: " + ec.message());
        }
    }, error, outDir);
}

bool HfFineTuner::saveOptimiserState(const std::string &path, std::string *error) const
{
    if (!m_impl || !m_impl->optim) {
        if (error)
            *error = "no optimiser state (no step taken)";
        return false;
    }
    return detail::runGuarded([&] { m_impl->optim->save(path); }, error);
}

bool HfFineTuner::loadOptimiserState(const std::string &path, std::string *error)
{
    if (!m_impl) {
        if (error)
            *error = "no checkpoint loaded";
        return false;
    }
    return detail::runGuarded([&] {
        m_impl->ensureOptimiser();
        m_impl->optim->load(path);
    }, error);
}

} // namespace folio::inference
