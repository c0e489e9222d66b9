#include "inference/models/modelrunner.h"

#include "inference/models/detail/model.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/errors.h"
#include "inference/layers/detail/int8linear.h"
#include "inference/training/detail/trainkit.h"

#include <ATen/Context.h>
#include <c10/core/InferenceMode.h>

#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include <dlfcn.h>

namespace folio::inference {

namespace detail {
void registerLayoutLMv3();
void registerLayoutLMv2();
void registerLilt();
void registerDebertaV2();
void registerMarkupLM();
void registerWebFormer();
void registerSeq2seq(); // inference/qs/: bart, led (HIBRIDS)
void registerFormTagger();

namespace {
std::map<std::string, ModelFactory> &registry()
{
    static std::map<std::string, ModelFactory> r;
    return r;
}
void ensureBuiltins()
{
    static std::once_flag once;
    std::call_once(once, [] {
        registerLayoutLMv3();
        registerLayoutLMv2();
        registerLilt();
        registerDebertaV2();
        registerMarkupLM();
        registerWebFormer();
        registerSeq2seq();
        registerFormTagger();
    });
}
} // namespace

void Model::quantizeDynamicInt8()
{
    throw InferenceError("--int8: dynamic int8 quantization is not implemented for model_type \"" + modelType()
                         + "\" (it is for layoutlmv3, layoutlmv2 / layoutxlm, lilt and markuplm)");
}

void registerModel(const std::string &modelType, ModelFactory factory)
{
    registry()[modelType] = std::move(factory);
}

std::vector<std::string> registeredModelTypes()
{
    ensureBuiltins();
    std::vector<std::string> t;
    for (const auto &e : registry())
        t.push_back(e.first);
    return t;
}

std::unique_ptr<Model> createModel(const ModelConfig &config, ParamStore &params)
{
    ensureBuiltins();
    auto it = registry().find(config.modelType());
    if (it == registry().end())
        throw InferenceError(config.source() + ": unknown model_type '" + config.modelType() + "' (supported: "
                             + [] {
                                   std::string s;
                                   for (const auto &e : registry())
                                       s += (s.empty() ? "" : ", ") + e.first;
                                   return s;
                               }()
                             + ")");
    return it->second(config, params);
}

const at::Tensor &requireInput(const AtMap &inputs, const std::string &name)
{
    auto it = inputs.find(name);
    if (it == inputs.end())
        throw InferenceError("missing input tensor '" + name + "'");
    return it->second;
}

at::Tensor optionalInput(const AtMap &inputs, const std::string &name)
{
    auto it = inputs.find(name);
    return it == inputs.end() ? at::Tensor() : it->second;
}

} // namespace detail

ModelRunner::ModelRunner() = default;
ModelRunner::~ModelRunner() = default;

bool ModelRunner::load(const std::string &dir, std::string *error)
{
    return detail::runGuarded([&] {
        const ModelConfig config = ModelConfig::fromDirectory(dir);
        detail::ParamStore params = detail::ParamStore::fromDirectory(dir); // model.safetensors or pytorch_model.bin
        at::NoGradGuard noGrad; // weights stay normal tensors (trainable later), not inference tensors
        auto model = detail::createModel(config, params);
        params.finish();
        m_model = std::move(model);
        m_int8 = false;
    }, error);
}

bool ModelRunner::quantizeDynamicInt8(std::string *error)
{
    return detail::runGuarded([&] {
        if (!m_model)
            throw InferenceError("--int8: no model loaded");
        std::string why;
        if (detail::int8EngineName(&why).empty())
            throw InferenceError(why);
        m_model->quantizeDynamicInt8();
        m_int8 = true;
    }, error);
}

std::string ModelRunner::modelType() const
{
    return m_model ? m_model->modelType() : std::string();
}

std::vector<std::string> ModelRunner::inputNames() const
{
    return m_model ? m_model->inputNames() : std::vector<std::string>();
}

std::vector<std::string> ModelRunner::warnings() const
{
    return m_model ? m_model->warnings() : std::vector<std::string>();
}

RunResult ModelRunner::run(const TensorMap &inputs, const RunOptions &options) const
{
    RunResult r;
    if (!m_model) {
        r.error = "no model loaded";
        return r;
    }
    r.ok = detail::runGuarded([&] {
        c10::InferenceMode guard;
        detail::AtMap in;
        for (const auto &[name, t] : inputs)
            in[name] = detail::toAten(t);
        detail::AtMap trace;
        detail::ForwardContext ctx(options, &trace);
        detail::AtMap out = m_model->forward(in, ctx);
        r.warnings = m_model->warnings();
        for (const auto &[name, t] : trace)
            out.emplace(name, t);
        for (const auto &[name, t] : out)
            r.outputs.emplace(name, detail::fromAten(t));
    }, &r.error);
    return r;
}

std::vector<std::string> ModelRunner::supportedModelTypes()
{
    return detail::registeredModelTypes();
}

void configureThreads(int threads)
{
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    at::set_num_threads(threads);
    // Denormal floats flushed to zero on this thread (and the threads it starts later): optimiser
    // moments of parameters whose gradient stays zero (embedding rows of absent pieces, unused
    // feature columns) decay geometrically into the denormal range after some thousand steps, and
    // every arithmetic operation on a denormal takes a slow microcode path (training slowed
    // severalfold as it went on). Values below 1.2e-38 become 0; nothing Folio computes depends on them.
    at::globalContext().setFlushDenormal(true);
    // OpenBLAS follows its own setting, not at::set_num_threads (ENVIRONMENT.md gotcha 1).
    using SetThreads = void (*)(int);
    if (auto fn = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
        fn(threads);
}

std::string openBlasLibraryPath()
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        const auto pos = line.find('/');
        if (pos != std::string::npos && line.find("libopenblas", pos) != std::string::npos)
            return line.substr(pos);
    }
    // libblas.so.3 may be the OpenBLAS alternative under the generic name.
    if (dlsym(RTLD_DEFAULT, "openblas_get_config"))
        return "libblas.so.3 (OpenBLAS)";
    return {};
}

} // namespace folio::inference
