#pragma once
// The ATen side of taggerexplain.h: attributions on one prepared batch (a single window, batch
// size 1). Tests build a tiny Tagger with fixed weights and check these against hand computations.

#include "inference/formtagger/detail/taggermodel.h"
#include "inference/formtagger/taggerexplain.h"

namespace folio::inference::detail {

// The embedding parts of each word [1, N, D]: before the LayerNorm (what Tagger::embed sums) and
// after it (textOut + positionOut + boxOut + biasOut = embedded = Tagger::embed, checked).
struct EmbeddingParts
{
    at::Tensor text, position, box, sum;
    at::Tensor textOut, positionOut, boxOut, biasOut, embedded;
};
EmbeddingParts embeddingParts(const Tagger &tagger, const Batch &b);

// Fills out->logit, labelIndex (label < 0: the argmax at `target`), attentions, gradient x input and
// integrated gradients (options.igSteps) for word `target` of the batch (row 0). The tagger is not
// changed (its weights get no gradient). Throws InferenceError on a bad target / label. Every
// architecture of the tagger: layoutlmv3 / layoutlmv2 / "" (bucketed 1-D + 2-D biases, scaled or
// not), ernie (disentangled attention, rebuilt the same way) and text.
void explainBatch(Tagger &tagger, const Batch &b, int target, int label, const TaggerExplainOptions &options,
                  TaggerExplanation *out);

} // namespace folio::inference::detail
