#pragma once
// Word labels -> entities ("BIO repair"), for checkpoints that label each word on its own (Hugging
// Face token classifiers). Torch-free, Qt-free.
//
//  - "O" (and a word without a label: "") is outside every entity.
//  - "B-X" starts an entity X; "I-X" continues an open X and otherwise starts one (a stray I-).
//  - Label sets that are not BIO (e.g. plain "QUESTION"): one entity per run of equal labels.
//  - "S-X" / "E-X" / "L-X" / "U-X" (BIOES / BILOU) are read as their B/I meaning: S/U start and
//    close an entity, E/L continue and close one.
// The confidence of an entity is the mean of its words' confidences.

#include <string>
#include <vector>

namespace folio::pipeline {

struct WordEntity
{
    std::string label; // without the B-/I- prefix
    int firstWord = 0; // inclusive, in the given order
    int lastWord = 0;  // inclusive
    double confidence = 0;
};

// `confidences` may be shorter than `labels` (missing ones count as 0).
std::vector<WordEntity> entitiesFromWordLabels(const std::vector<std::string> &labels,
                                               const std::vector<float> &confidences);

} // namespace folio::pipeline
