// Seq2seqGenerator: batches token-id sources (padding, truncation, HIBRIDS layouts), encodes once
// and runs greedy or beam search with the key/value cache.
#include "inference/qs/seq2seq.h"

#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/errors.h"
#include "inference/layers/detail/int8linear.h"
#include "inference/qs/detail/generate.h"

#include <c10/core/InferenceMode.h>

namespace folio::inference {

namespace {

// Fits one source into `limit` positions; returns a warning when it had to cut.
std::string truncated(Seq2seqSource *s, std::size_t limit, std::int64_t eos, std::size_t row)
{
    if (s->ids.size() <= limit)
        return {};
    const std::size_t before = s->ids.size();
    const bool keepEos = s->ids.back() == eos;
    const std::int64_t lastSection = s->layout.tokenToSection.empty() ? 0 : s->layout.tokenToSection.back();
    s->ids.resize(limit);
    if (!s->layout.tokenToSection.empty())
        s->layout.tokenToSection.resize(limit);
    if (keepEos) {
        s->ids.back() = eos;
        if (!s->layout.tokenToSection.empty())
            s->layout.tokenToSection.back() = lastSection;
    }
    return "source " + std::to_string(row) + ": " + std::to_string(before) + " tokens truncated to the model's "
           + std::to_string(limit) + " positions";
}

} // namespace

Seq2seqGenerator::Seq2seqGenerator() = default;
Seq2seqGenerator::~Seq2seqGenerator() = default;

bool Seq2seqGenerator::load(const std::string &dir, std::string *error)
{
    try {
        const ModelConfig config = ModelConfig::fromDirectory(dir);
        if (config.modelType() != "bart" && config.modelType() != "led")
            throw InferenceError(config.source() + ": model_type '" + config.modelType() + "' is not a seq2seq model (bart, led)");
        // model.safetensors, pytorch_model.bin or a fairseq checkpoint_best.pt (HF names either way)
        detail::ParamStore params = detail::ParamStore::fromDirectory(dir);
        at::NoGradGuard noGrad;
        auto model = std::make_unique<detail::Seq2seqModel>(config, params);
        params.finish();
        m_model = std::move(model);
        return true;
    } catch (const c10::Error &e) {
        if (error)
            *error = dir + ": " + e.what_without_backtrace();
    } catch (const std::exception &e) {
        if (error)
            *error = e.what();
    }
    return false;
}

std::string Seq2seqGenerator::modelType() const
{
    return m_model ? m_model->config().modelType : std::string();
}

std::string Seq2seqGenerator::hibridsVariant() const
{
    if (!m_model)
        return {};
    switch (m_model->config().hibrids) {
    case detail::HibridsVariant::Encoder:
        return "encoder";
    case detail::HibridsVariant::Decoder:
        return "decoder";
    case detail::HibridsVariant::None:
        break;
    }
    return {};
}

bool Seq2seqGenerator::quantizeDynamicInt8(std::string *error)
{
    try {
        if (!m_model)
            throw InferenceError("--int8: no seq2seq checkpoint loaded");
        std::string why;
        if (detail::int8EngineName(&why).empty())
            throw InferenceError("--int8: " + why);
        m_model->quantizeDynamicInt8();
        return true;
    } catch (const c10::Error &e) {
        if (error)
            *error = e.what_without_backtrace();
    } catch (const std::exception &e) {
        if (error)
            *error = e.what();
    }
    return false;
}

bool Seq2seqGenerator::isInt8() const
{
    return m_model && m_model->isInt8();
}

GenerationSettings Seq2seqGenerator::defaultSettings() const
{
    return m_model ? m_model->config().generation : GenerationSettings();
}

int Seq2seqGenerator::maxSourceLength() const
{
    return m_model ? static_cast<int>(m_model->config().maxEncPositions) : 0;
}

GenerationResult Seq2seqGenerator::generate(const std::vector<Seq2seqSource> &sourcesIn,
                                            const GenerationSettings &settings, const GenerationCallback &progress) const
{
    GenerationResult result;
    if (!m_model) {
        result.error = "no model loaded";
        return result;
    }
    try {
        c10::InferenceMode guard;
        const detail::Seq2seqConfig &cfg = m_model->config();
        const bool hibrids = cfg.hibrids != detail::HibridsVariant::None;
        if (sourcesIn.empty())
            throw InferenceError("no source to generate from");
        std::vector<Seq2seqSource> sources = sourcesIn;
        std::size_t longest = 0;
        for (std::size_t r = 0; r < sources.size(); ++r) {
            Seq2seqSource &s = sources[r];
            if (s.ids.empty())
                throw InferenceError("source " + std::to_string(r) + " is empty");
            if (hibrids && s.layout.tokenToSection.size() != s.ids.size())
                throw InferenceError("source " + std::to_string(r) + ": HIBRIDS model needs one section per token ("
                                     + std::to_string(s.layout.tokenToSection.size()) + " sections for "
                                     + std::to_string(s.ids.size()) + " tokens)");
            const std::string w = truncated(&s, static_cast<std::size_t>(cfg.maxEncPositions), cfg.eos, r);
            if (!w.empty())
                result.warnings.push_back(w);
            longest = std::max(longest, s.ids.size());
        }
        const auto b = static_cast<std::int64_t>(sources.size()), len = static_cast<std::int64_t>(longest);
        at::Tensor ids = at::full({b, len}, cfg.pad, at::kLong), mask = at::zeros({b, len}, at::kLong);
        at::Tensor global = at::zeros({b, len}, at::kLong), t2s = at::zeros({b, len}, at::kLong);
        std::vector<std::vector<std::int64_t>> parents;
        for (std::int64_t r = 0; r < b; ++r) {
            const Seq2seqSource &s = sources[static_cast<std::size_t>(r)];
            const auto n = static_cast<std::int64_t>(s.ids.size());
            ids[r].slice(0, 0, n).copy_(at::tensor(s.ids, at::kLong));
            mask[r].slice(0, 0, n).fill_(1);
            for (auto g : s.globalTokens) {
                if (g < 0 || g >= n)
                    throw InferenceError("source " + std::to_string(r) + ": global token " + std::to_string(g)
                                         + " outside the source");
                global[r][g] = 1;
            }
            if (hibrids) {
                // Padding joins the last section, as in the reference collate.
                t2s[r].slice(0, 0, n).copy_(at::tensor(s.layout.tokenToSection, at::kLong));
                t2s[r].slice(0, n).fill_(s.layout.tokenToSection.back());
                parents.push_back(s.layout.sectionParent);
            }
        }
        const detail::HibridsBatch hier = hibrids ? detail::hibridsBatch(parents, t2s) : detail::HibridsBatch();
        const bool encVariant = cfg.hibrids == detail::HibridsVariant::Encoder;
        const detail::EncoderResult enc =
            m_model->encode(ids, mask, global, encVariant ? hier : detail::HibridsBatch(), false);
        const detail::SearchOutput out = detail::generateSeq2seq(
            *m_model, enc, encVariant ? detail::HibridsBatch() : hier, settings, progress, false);
        result.rows = out.rows;
        result.cancelled = out.cancelled;
        result.steps = out.steps;
        result.ok = true;
    } catch (const c10::Error &e) {
        result.error = e.what_without_backtrace();
    } catch (const std::exception &e) {
        result.error = e.what();
    }
    return result;
}

} // namespace folio::inference
