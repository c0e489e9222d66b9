#pragma once
// Internal model interface: every architecture is embeddings + encoder layers + head, built from
// a ModelConfig and a ParamStore, run on named at::Tensors.

#include "inference/checkpoint/detail/convert.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/models/runoptions.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace folio::inference::detail {

class ParamStore;

// Per-forward state: options and the AttentionTrace sink (null when tracing is off).
class ForwardContext
{
public:
    explicit ForwardContext(const RunOptions &options, AtMap *trace = nullptr)
        : m_options(options), m_trace(options.trace ? trace : nullptr) {}
    bool enabled(BiasFamily f) const { return (m_options.disabledBiases & f) == 0; }
    bool tracing() const { return m_trace != nullptr; }
    // Stores a copy-free reference when tracing; no-op otherwise.
    void record(const std::string &name, const at::Tensor &t) const
    {
        if (m_trace)
            (*m_trace)[name] = t;
    }

private:
    const RunOptions &m_options;
    AtMap *m_trace;
};

class Model
{
public:
    virtual ~Model() = default;
    virtual std::string modelType() const = 0;
    virtual std::vector<std::string> inputNames() const = 0;
    // inputs/outputs by fixture names; trace entries go through ctx.record().
    virtual AtMap forward(const AtMap &inputs, const ForwardContext &ctx) const = 0;
    // Limitations of this checkpoint's run (ModelRunner::warnings, RunResult::warnings).
    virtual std::vector<std::string> warnings() const { return {}; }
    // Dynamic int8 quantization of the encoder's Linear layers (int8linear.h, issue 35; idempotent,
    // inference only). The default throws InferenceError naming modelType(): architectures without it.
    virtual void quantizeDynamicInt8();
};

using ModelFactory = std::function<std::unique_ptr<Model>(const ModelConfig &, ParamStore &)>;

// Registry by config.json `model_type`.
void registerModel(const std::string &modelType, ModelFactory factory);
std::unique_ptr<Model> createModel(const ModelConfig &config, ParamStore &params); // throws
std::vector<std::string> registeredModelTypes();

// Shared helpers for inputs.
const at::Tensor &requireInput(const AtMap &inputs, const std::string &name);
at::Tensor optionalInput(const AtMap &inputs, const std::string &name);

} // namespace folio::inference::detail
