// Greedy and beam search with Hugging Face transformers v4.8 semantics (inference/qs/generation.h).
#include "inference/qs/detail/generate.h"

#include "inference/errors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace folio::inference::detail {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

std::vector<std::int64_t> rowTokens(const at::Tensor &prefixes, std::int64_t r)
{
    const at::Tensor row = prefixes[r].contiguous();
    const auto *p = row.data_ptr<std::int64_t>();
    return std::vector<std::int64_t>(p, p + row.size(0));
}

// Marks with -inf in `row` the tokens that would repeat an n-gram already in tokens[0, len) (v4.8
// _calc_banned_ngram_tokens): every i with tokens[i, i + n - 1) equal to the last n - 1 tokens bans
// tokens[i + n - 1].
void banRepeatedNgrams(const std::int64_t *tokens, std::int64_t len, int n, float *row)
{
    if (n <= 0 || len + 1 < n)
        return;
    const std::int64_t start = len + 1 - n; // the last n-1 tokens are the prefix to match
    for (std::int64_t i = 0; i + n <= len; ++i)
        if (std::equal(tokens + i, tokens + i + n - 1, tokens + start))
            row[tokens[i + n - 1]] = kNegInf;
}

// Progress with the running sequences of rows first, first + stride, ... (copied only when someone listens).
bool report(const GenerationCallback &progress, int step, int maxSteps, const at::Tensor &ids, std::int64_t rows,
            std::int64_t stride)
{
    if (!progress)
        return true;
    GenerationStep s;
    s.step = step;
    s.maxSteps = maxSteps;
    s.partial.reserve(static_cast<std::size_t>(rows));
    for (std::int64_t r = 0; r < rows; ++r)
        s.partial.push_back(rowTokens(ids, r * stride));
    return progress(s);
}

// One row's finished hypotheses (v4.8 BeamHypotheses).
class Hypotheses
{
public:
    Hypotheses(int beams, double lengthPenalty, bool early) : m_beams(beams), m_lp(lengthPenalty), m_early(early) {}

    void add(std::vector<std::int64_t> tokens, double sumLogprobs)
    {
        const double score = sumLogprobs / std::pow(static_cast<double>(tokens.size()), m_lp);
        if (static_cast<int>(m_hyps.size()) < m_beams || score > m_worst) {
            m_hyps.push_back({score, std::move(tokens)});
            if (static_cast<int>(m_hyps.size()) > m_beams) {
                std::vector<std::pair<double, std::size_t>> order;
                for (std::size_t i = 0; i < m_hyps.size(); ++i)
                    order.push_back({m_hyps[i].first, i});
                std::stable_sort(order.begin(), order.end(),
                                 [](const auto &a, const auto &b) { return a.first < b.first; });
                m_hyps.erase(m_hyps.begin() + static_cast<std::ptrdiff_t>(order[0].second));
                m_worst = order[1].first;
            } else {
                m_worst = std::min(score, m_worst);
            }
        }
    }

    bool isDone(double bestSumLogprobs, std::int64_t curLen) const
    {
        if (static_cast<int>(m_hyps.size()) < m_beams)
            return false;
        if (m_early)
            return true;
        return m_worst >= bestSumLogprobs / std::pow(static_cast<double>(curLen), m_lp);
    }

    int size() const { return static_cast<int>(m_hyps.size()); }

    // The best hypothesis; among equal scores the one added last (Python's stable sort + pop()).
    const std::pair<double, std::vector<std::int64_t>> &best() const
    {
        std::size_t bi = 0;
        for (std::size_t i = 1; i < m_hyps.size(); ++i)
            if (m_hyps[i].first >= m_hyps[bi].first)
                bi = i;
        return m_hyps[bi];
    }

private:
    int m_beams;
    double m_lp;
    bool m_early;
    double m_worst = 1e9;
    std::vector<std::pair<double, std::vector<std::int64_t>>> m_hyps;
};

void checkSettings(const GenerationSettings &s)
{
    if (s.maxLength < 1)
        throw InferenceError("generation: max_length must be at least 1 (it counts the start token)");
    if (s.numBeams < 1)
        throw InferenceError("generation: num_beams must be at least 1");
}

} // namespace

void applyLogitsProcessors(at::Tensor &scores, const at::Tensor &prefixes, const GenerationSettings &s,
                           const SpecialTokens &t)
{
    const std::int64_t curLen = prefixes.size(1), rows = scores.size(0), vocab = scores.size(1);
    const bool forceBos = s.forcedBosTokenId >= 0 && curLen == 1;
    const bool forceEos = s.forcedEosTokenId >= 0 && curLen == s.maxLength - 1;
    const bool banEos = curLen < s.minLength && t.eos >= 0;
    if (s.noRepeatNgramSize <= 0 && !banEos && !forceBos && !forceEos)
        return;
    if (!scores.is_contiguous() || scores.scalar_type() != at::kFloat)
        throw InferenceError("logits processors: scores must be contiguous float32");
    const at::Tensor ids = prefixes.to(at::kLong).contiguous();
    const auto *tok = ids.data_ptr<std::int64_t>();
    auto *sc = scores.data_ptr<float>();
    // One pass per row, in the reference's order: n-gram ban, min length, forced BOS, forced EOS.
    for (std::int64_t r = 0; r < rows; ++r) {
        float *row = sc + r * vocab;
        banRepeatedNgrams(tok + r * curLen, curLen, s.noRepeatNgramSize, row);
        if (banEos)
            row[t.eos] = kNegInf;
        for (std::int64_t forced : {forceBos ? s.forcedBosTokenId : -1, forceEos ? s.forcedEosTokenId : -1}) {
            if (forced < 0)
                continue;
            std::fill(row, row + vocab, kNegInf);
            row[forced] = 0.0f;
        }
    }
}

SearchOutput greedySearch(StepSource &source, std::int64_t batch, const GenerationSettings &s, const SpecialTokens &t,
                          const GenerationCallback &progress, bool keepStepLogits)
{
    checkSettings(s);
    SearchOutput out;
    at::Tensor ids = at::full({batch, 1}, t.start, at::kLong);
    at::Tensor unfinished = at::ones({batch}, at::kLong);
    at::Tensor sumLogprobs = at::zeros({batch}, at::kDouble);
    std::vector<at::Tensor> stepLogits;
    while (ids.size(1) < s.maxLength) {
        at::Tensor scores = source.logits(ids).contiguous();
        if (keepStepLogits)
            stepLogits.push_back(scores.clone());
        const at::Tensor logprobs = at::log_softmax(scores, -1); // of the raw logits
        applyLogitsProcessors(scores, ids, s, t);                // in place: the step's own tensor
        at::Tensor next = scores.argmax(-1);
        const at::Tensor lp = logprobs.gather(1, next.unsqueeze(1)).squeeze(1).to(at::kDouble);
        if (s.stopAtEos) {
            sumLogprobs += lp * unfinished.to(at::kDouble);
            next = next * unfinished + t.pad * (1 - unfinished);
        } else {
            sumLogprobs += lp;
        }
        ids = at::cat({ids, next.unsqueeze(1)}, 1);
        ++out.steps;
        if (s.stopAtEos)
            unfinished = unfinished * next.ne(t.eos).to(at::kLong);
        if (!report(progress, out.steps, s.maxLength - 1, ids, batch, 1)) {
            out.cancelled = true;
            break;
        }
        if (s.stopAtEos && unfinished.max().item<std::int64_t>() == 0)
            break;
    }
    for (std::int64_t r = 0; r < batch; ++r)
        out.rows.push_back({rowTokens(ids, r), sumLogprobs[r].item<double>()});
    if (keepStepLogits && !stepLogits.empty())
        out.stepLogits = at::stack(stepLogits, 1);
    return out;
}

SearchOutput beamSearch(StepSource &source, std::int64_t batch, const GenerationSettings &s, const SpecialTokens &t,
                        const GenerationCallback &progress)
{
    checkSettings(s);
    const std::int64_t k = s.numBeams;
    SearchOutput out;
    at::Tensor ids = at::full({batch * k, 1}, t.start, at::kLong);
    at::Tensor beamScores = at::zeros({batch, k}, at::kFloat);
    beamScores.slice(1, 1).fill_(-1e9);
    beamScores = beamScores.view({batch * k});
    std::vector<Hypotheses> hyps(static_cast<std::size_t>(batch), Hypotheses(s.numBeams, s.lengthPenalty, s.earlyStopping));
    std::vector<bool> done(static_cast<std::size_t>(batch), false);

    while (ids.size(1) < s.maxLength) {
        const std::int64_t curLen = ids.size(1);
        const at::Tensor logits = source.logits(ids);
        const std::int64_t vocab = logits.size(1);
        at::Tensor scores = at::log_softmax(logits, -1);
        applyLogitsProcessors(scores, ids, s, t);
        scores = scores + beamScores.unsqueeze(1);
        const auto top = at::topk(scores.view({batch, k * vocab}), 2 * k, 1, true, true);
        const at::Tensor topScores = std::get<0>(top).contiguous();
        const at::Tensor topIds = std::get<1>(top).contiguous();
        const auto *ts = topScores.data_ptr<float>();
        const auto *ti = topIds.data_ptr<std::int64_t>();

        at::Tensor nextScores = at::zeros({batch * k}, at::kFloat);
        at::Tensor nextTokens = at::full({batch * k}, t.pad, at::kLong);
        at::Tensor nextRows = at::zeros({batch * k}, at::kLong);
        auto *ns = nextScores.data_ptr<float>();
        auto *nt = nextTokens.data_ptr<std::int64_t>();
        auto *nr = nextRows.data_ptr<std::int64_t>();
        for (std::int64_t b = 0; b < batch; ++b) {
            auto &h = hyps[static_cast<std::size_t>(b)];
            if (done[static_cast<std::size_t>(b)])
                continue; // scores 0, pad tokens, rows 0 (as the reference scorer)
            std::int64_t beam = 0;
            for (std::int64_t rank = 0; rank < 2 * k && beam < k; ++rank) {
                const std::int64_t id = ti[b * 2 * k + rank];
                const std::int64_t token = id % vocab, row = b * k + id / vocab;
                const float score = ts[b * 2 * k + rank];
                if (token == t.eos) {
                    if (rank >= k)
                        continue;
                    h.add(rowTokens(ids, row), score);
                } else {
                    ns[b * k + beam] = score;
                    nt[b * k + beam] = token;
                    nr[b * k + beam] = row;
                    ++beam;
                }
            }
            if (beam < k)
                throw InferenceError("beam search: fewer than num_beams continuations (every candidate was EOS "
                                     "or -inf); lower num_beams or no_repeat_ngram_size");
            double best = -std::numeric_limits<double>::infinity();
            for (std::int64_t r = 0; r < 2 * k; ++r)
                best = std::max(best, static_cast<double>(ts[b * 2 * k + r]));
            done[static_cast<std::size_t>(b)] = h.isDone(best, curLen);
        }
        beamScores = nextScores;
        ids = at::cat({ids.index_select(0, nextRows), nextTokens.unsqueeze(1)}, 1);
        source.reorder(nextRows);
        ++out.steps;
        if (!report(progress, out.steps, s.maxLength - 1, ids, batch, k)) {
            out.cancelled = true;
            break;
        }
        if (std::all_of(done.begin(), done.end(), [](bool d) { return d; }))
            break;
    }

    // finalize: every live beam of an unfinished row becomes a hypothesis.
    for (std::int64_t b = 0; b < batch; ++b) {
        auto &h = hyps[static_cast<std::size_t>(b)];
        if (!done[static_cast<std::size_t>(b)])
            for (std::int64_t j = 0; j < k; ++j)
                h.add(rowTokens(ids, b * k + j), beamScores[b * k + j].item<float>());
        const auto &best = h.best();
        GeneratedSequence seq{best.second, best.first};
        if (static_cast<int>(seq.tokens.size()) < s.maxLength)
            seq.tokens.push_back(t.eos);
        out.rows.push_back(std::move(seq));
    }
    return out;
}

} // namespace folio::inference::detail
