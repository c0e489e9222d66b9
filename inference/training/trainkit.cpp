// Parameter initialisation, checkpoint writing, early stopping, step timing, the error wrapper.
#include "inference/training/detail/trainkit.h"

#include "inference/checkpoint/detail/convert.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/errors.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace folio::inference::detail {

void initialiseParameters(std::map<std::string, at::Tensor> &params, std::uint64_t seed, double std,
                          const std::function<bool(const std::string &)> &zeroInit)
{
    at::manual_seed(seed);
    {
        at::NoGradGuard guard;
        for (auto &[name, t] : params) {
            const bool ln = name.find("LayerNorm") != std::string::npos;
            if (ln && name.size() > 7 && name.compare(name.size() - 7, 7, ".weight") == 0)
                t.fill_(1.0);
            else if (t.dim() < 2 || ln || (zeroInit && zeroInit(name)))
                t.zero_();
            else
                t.normal_(0.0, std);
        }
    }
    for (auto &kv : params)
        kv.second.set_requires_grad(true);
}

void writeParameters(const std::string &path, const std::map<std::string, at::Tensor> &params, const std::string &modelType)
{
    TensorMap out;
    for (const auto &[name, t] : params)
        out[name] = fromAten(t.detach());
    writeSafetensors(path, out, {{"format", "pt"}, {"model_type", modelType}});
}

void writeCheckpoint(const std::string &dir, const std::map<std::string, at::Tensor> &params, const std::string &modelType,
                     const nlohmann::json &config, const nlohmann::json &folio)
{
    fs::create_directories(dir);
    writeParameters(dir + "/model.safetensors", params, modelType);
    if (!config.is_null())
        writeTextFile(dir + "/config.json", config.dump(2) + "\n");
    if (!folio.is_null())
        writeTextFile(dir + "/folio.json", folio.dump(2) + "\n");
}

bool EarlyStopping::update(int epoch, double score, bool force)
{
    if (force || m_bestEpoch == 0 || score > m_best) {
        m_best = score;
        m_bestEpoch = epoch;
        m_sinceBest = 0;
        return true;
    }
    ++m_sinceBest;
    return false;
}

nlohmann::json EarlyStopping::toJson() const
{
    return {{"best_dev_f1", m_best}, {"best_epoch", m_bestEpoch}, {"since_best", m_sinceBest}};
}

void EarlyStopping::restore(const nlohmann::json &state)
{
    m_best = state.at("best_dev_f1").get<double>();
    m_bestEpoch = state.at("best_epoch").get<int>();
    m_sinceBest = state.value("since_best", 0);
}

void StepClock::stop(long units)
{
    m_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - m_t0).count();
    m_units += units;
    ++m_steps;
}

double StepClock::etaSeconds(long stepsDone, long stepsTotal) const
{
    return stepsDone > 0 ? m_seconds / double(stepsDone) * double(std::max(0L, stepsTotal - stepsDone)) * 1.1 : 0;
}

bool runGuarded(const std::function<void()> &body, std::string *error, const std::string &context)
{
    const std::string prefix = context.empty() ? std::string() : context + ": ";
    try {
        body();
        return true;
    } catch (const InferenceError &e) {
        if (error)
            *error = prefix + e.what();
    } catch (const c10::Error &e) {
        if (error)
            *error = prefix + "torch: " + e.what_without_backtrace();
    } catch (const std::exception &e) {
        if (error)
            *error = prefix + e.what();
    }
    return false;
}

} // namespace folio::inference::detail
