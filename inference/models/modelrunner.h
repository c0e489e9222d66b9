#pragma once
// The torch-free facade of folio_inference: load a checkpoint folder (config.json +
// model.safetensors, Hugging Face names), run it on named input tensors, get named outputs.
// Used by folio-cli and the GUI workers. No exception leaves it: errors come back as messages.

#include "inference/models/runoptions.h"
#include "inference/checkpoint/tensor.h"

#include <memory>
#include <string>
#include <vector>

namespace folio::inference {

namespace detail {
class Model;
}

struct RunResult
{
    bool ok = false;
    std::string error;  // set when !ok
    TensorMap outputs;  // last_hidden_state, logits / start_logits+end_logits, attentions.N, bias.*
    // What the model could not do as the checkpoint's architecture would (e.g. a LayoutLMv2 folder
    // without visual backbone weights runs text + layout only). Empty when it runs in full.
    std::vector<std::string> warnings;
};

class ModelRunner
{
public:
    ModelRunner();
    ~ModelRunner();
    ModelRunner(const ModelRunner &) = delete;
    ModelRunner &operator=(const ModelRunner &) = delete;

    // Loads `<dir>/config.json` and `<dir>/model.safetensors`. On failure returns false and sets
    // *error (names the file and tensor). Replaces any previously loaded model.
    bool load(const std::string &checkpointDir, std::string *error);
    bool isLoaded() const { return m_model != nullptr; }
    std::string modelType() const;
    // Input names the loaded model understands (required and optional).
    std::vector<std::string> inputNames() const;
    // The loaded model's limitations (see RunResult::warnings); empty when it runs in full.
    std::vector<std::string> warnings() const;

    // Dynamic int8 quantization of the loaded model's encoder Linear layers (issue 35; idempotent,
    // inference only, until the next load()). False + *error when nothing is loaded, this LibTorch has
    // no quantized engine, or the architecture has no int8 path (the message names its model_type).
    bool quantizeDynamicInt8(std::string *error);
    bool isInt8() const { return m_int8; }

    // Runs one forward pass (inference mode, no grad). Thread-compatible: one runner per worker.
    RunResult run(const TensorMap &inputs, const RunOptions &options = {}) const;

    // Model types the registry knows ("layoutlmv3", "layoutlmv2", "deberta-v2", "webformer",
    // "folio-formtagger", the seq2seq types, ...).
    static std::vector<std::string> supportedModelTypes();

private:
    std::unique_ptr<detail::Model> m_model;
    bool m_int8 = false;
};

// Sets torch's intra-op threads (and OpenBLAS's, when it is loaded) to `threads` (<= 0: all cores),
// and flushes denormal floats to zero on the calling thread.
void configureThreads(int threads = 0);
// Returns the path of the loaded BLAS library if it is OpenBLAS, or "" otherwise (checked in /proc/self/maps).
std::string openBlasLibraryPath();

} // namespace folio::inference
