#pragma once
// Generation settings and results for the seq2seq models (BART, LED, HIBRIDS). Torch-free.
//
// Semantics follow Hugging Face transformers v4.8 `generate()` (the version HIBRIDS pins and its
// fixtures were made with): greedy search applies the logits processors to the raw logits and
// takes the argmax; beam search takes log_softmax, applies the processors, adds the beam scores,
// keeps the top 2*num_beams candidates over beams x vocabulary and runs the BeamSearchScorer
// (an EOS candidate ranked below num_beams is dropped; a finished hypothesis scores
// sum_logprobs / length^length_penalty, its length counting the decoder start token; with
// early_stopping a row is done once num_beams hypotheses exist, otherwise once the worst kept one
// beats best_running_sum / cur_len^length_penalty). Processors, in the reference order:
// no_repeat_ngram_size, min_length (EOS banned while cur_len < min_length), forced BOS (at
// cur_len 1), forced EOS (at cur_len max_length - 1). max_length counts the start token.
// Later transformers versions (>= 4.30) divide by the generated length without the start token:
// scores (not token choices while no hypothesis ends early) differ from those versions.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace folio::inference {

struct GenerationSettings
{
    int numBeams = 1;
    int maxLength = 20;         // including the decoder start token
    int minLength = 0;
    int noRepeatNgramSize = 0;
    bool earlyStopping = false;
    double lengthPenalty = 1.0;
    std::int64_t forcedBosTokenId = -1; // -1: none
    std::int64_t forcedEosTokenId = -1; // -1: none
    bool useCache = true;               // false: recompute the whole prefix every step (baseline)
    bool stopAtEos = true;              // greedy only: false keeps going after EOS (fixture loops)
};

// One progress report per decoding step. partial[r] is row r's best running sequence so far.
struct GenerationStep
{
    int step = 0;      // tokens generated so far (the start token not counted)
    int maxSteps = 0;  // maxLength - 1
    std::vector<std::vector<std::int64_t>> partial;
};
// Return false to cancel: generation stops after the current step and reports cancelled.
using GenerationCallback = std::function<bool(const GenerationStep &)>;

struct GeneratedSequence
{
    std::vector<std::int64_t> tokens; // start token first
    double score = 0.0;               // beam: HF sequences_scores; greedy: sum of log-probs
};

struct GenerationResult
{
    bool ok = false;
    bool cancelled = false;
    std::string error;
    std::vector<std::string> warnings;     // e.g. source truncated to the model's positions
    std::vector<GeneratedSequence> rows;   // one per source row
    int steps = 0;
};

} // namespace folio::inference
