#pragma once
// What a user checks in a drafted hierarchy (issue 31, "Measured"), computed the same way for
// every document:
//  - coverage: top-level sections with at least `minWords` words (subtree) and how many got an item;
//  - supported: a summary sentence is supported when every one of its content words (draftTokens
//    minus stop words) occurs in the item's evidence, i.e. the text of the section it was drafted for
//    (its subtree; the whole document for the root summary);
//  - key terms: a question's key terms are its content words that are not in the template; the
//    question is grounded when all of them occur in its section's title or text;
//  - duplicates: questions equal after lower-casing and dropping punctuation.
#include "pipeline/qs/draft/drafter.h"

namespace folio::pipeline {

struct DraftCheck
{
    int topLevelSections = 0, topLevelWithContent = 0, topLevelCovered = 0;
    int items = 0;
    int summarySentences = 0, supportedSentences = 0;
    int questions = 0, groundedQuestions = 0;
    int duplicateQuestions = 0;

    DraftCheck &operator+=(const DraftCheck &o) // totals over several documents
    {
        topLevelSections += o.topLevelSections;
        topLevelWithContent += o.topLevelWithContent;
        topLevelCovered += o.topLevelCovered;
        items += o.items;
        summarySentences += o.summarySentences;
        supportedSentences += o.supportedSentences;
        questions += o.questions;
        groundedQuestions += o.groundedQuestions;
        duplicateQuestions += o.duplicateQuestions;
        return *this;
    }
};

DraftCheck checkDraft(const DraftSource &source, const QsDraft &draft, int minWords = 50);

} // namespace folio::pipeline
