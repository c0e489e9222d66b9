#pragma once
// One page for the layout tagger (header-only type): what train() learns from, Predictor predicts
// and evaluate() scores. pipeline/modelinputs/taggerpages.h makes them from Documents.

#include "inference/tokenizers/tokenizer.h" // WordBox

#include <string>
#include <vector>

namespace folio::inference {

// Words in model order with 0-1000 boxes and, for training and evaluation, BIO tags.
struct TaggerPage
{
    std::string id;
    std::vector<std::string> words;
    std::vector<WordBox> boxes;
    std::vector<std::string> tags; // empty for prediction
};

} // namespace folio::inference
