#pragma once
// The rest of the training toolkit every trainer shares (with optimiser.h): parameter
// initialisation, checkpoint + metadata writing, early stopping on a dev score, step timing for
// progress / ETA, cancel polling, and the exception-to-error wrapper of the torch-free facades.

#include "inference/checkpoint/detail/jsonfile.h" // readJsonFile, writeTextFile
#include "inference/detail/aten.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <string>

namespace folio::inference::detail {

// In name order after at::manual_seed(seed): LayerNorm weights 1, tensors of < 2 dimensions 0,
// names for which zeroInit(name) is true 0, every other tensor N(0, std). Then requires_grad on.
void initialiseParameters(std::map<std::string, at::Tensor> &params, std::uint64_t seed, double std = 0.02,
                          const std::function<bool(const std::string &)> &zeroInit = {});

// model.safetensors-style weights file (float32 as held; `modelType` in the header metadata).
void writeParameters(const std::string &path, const std::map<std::string, at::Tensor> &params, const std::string &modelType);

// A checkpoint folder: model.safetensors (the parameters, `modelType` in the header metadata),
// config.json and folio.json (the training metadata) — config/folio skipped when null.
void writeCheckpoint(const std::string &dir, const std::map<std::string, at::Tensor> &params,
                     const std::string &modelType, const nlohmann::json &config, const nlohmann::json &folio);

// Early stopping / model selection on a dev score (higher is better).
class EarlyStopping
{
public:
    explicit EarlyStopping(int patience = 0) : m_patience(patience) {}
    // Records the score of `epoch`; true when it is the best so far (strictly better, or the
    // first, or `force`: e.g. no dev set, the last epoch is kept).
    bool update(int epoch, double score, bool force = false);
    // patience > 0 and `patience` epochs in a row without improvement.
    bool shouldStop() const { return m_patience > 0 && m_sinceBest >= m_patience; }
    double best() const { return m_best; }
    int bestEpoch() const { return m_bestEpoch; }
    int sinceBest() const { return m_sinceBest; }
    nlohmann::json toJson() const;
    void restore(const nlohmann::json &state); // from toJson()

private:
    int m_patience = 0;
    double m_best = -1;
    int m_bestEpoch = 0;
    int m_sinceBest = 0;
};

// Training time and units seen, for words/s and the ETA.
class StepClock
{
public:
    void start() { m_t0 = std::chrono::steady_clock::now(); }
    // Ends a step that processed `units` (words, tokens, pages).
    void stop(long units);
    double seconds() const { return m_seconds; }
    long units() const { return m_units; }
    double unitsPerSecond() const { return m_seconds > 0 ? double(m_units) / m_seconds : 0; }
    double etaSeconds(long stepsDone, long stepsTotal) const;
    void restore(double seconds, long units) { m_seconds = seconds; m_units = units; }

private:
    std::chrono::steady_clock::time_point m_t0;
    double m_seconds = 0;
    long m_units = 0;
    long m_steps = 0;
};

inline bool cancelRequested(const std::atomic<bool> *cancel) { return cancel && cancel->load(); }

// Runs `body`; InferenceError, c10::Error and std::exception become *error (prefixed by
// `context` when not empty). Returns false on error. Nothing escapes.
bool runGuarded(const std::function<void()> &body, std::string *error, const std::string &context = {});

} // namespace folio::inference::detail
