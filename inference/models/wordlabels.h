#pragma once
// The one label type from a model to a suggestion (torch-free, Qt-free): every labeller gives a
// WordLabel per word (Hugging Face token classifiers, MarkupLM nodes) or BIO tags (the layout
// tagger), and both end as PredictedEntity spans, what Suggest Labels turns into annotations.
//
// entitiesFromWordLabels ("BIO repair", for checkpoints that label each word on its own):
//  - "O" (and a word without a label: "") is outside every entity.
//  - "B-X" starts an entity X; "I-X" continues an open X and otherwise starts one (a stray I-).
//  - Label sets that are not BIO (e.g. plain "QUESTION"): one entity per run of equal labels.
//  - "S-X" / "E-X" / "L-X" / "U-X" (BIOES / BILOU) are read as their B/I meaning: S/U start and
//    close an entity, E/L continue and close one.
// The confidence of an entity is the mean of its words' confidences.

#include <string>
#include <vector>

namespace folio::inference {

// One word's label from a token classifier.
struct WordLabel
{
    int labelId = -1;        // -1: the word got no token (empty, or cut off by truncation)
    std::string label;       // id2label[labelId]
    float confidence = 0;    // softmax probability of labelId at the word's first token
    float margin = 0;        // top-1 minus top-2 logit there
};

// One labelled span of a page.
struct PredictedEntity
{
    std::string label;               // without the B-/I- prefix
    int firstWord = 0, lastWord = 0; // inclusive word indices, in the page's order
    double confidence = 0;           // mean probability of its words' labels
};

// `confidences` may be shorter than `labels` (missing ones count as 0).
std::vector<PredictedEntity> entitiesFromWordLabels(const std::vector<std::string> &labels,
                                                    const std::vector<float> &confidences);

} // namespace folio::inference
