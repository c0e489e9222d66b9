#pragma once
// Learning from corrections (issue 31): what users accepted, edited or rejected in a project's
// question-summary hierarchies, as training signal for the drafter.
//
//   CorrectionStats stats;
//   addProjectCorrections("team.folio", &fitter, &templates, &stats, &error);
//   SalienceFit fit = fitter.solve(5.0, shipped.salience.weights);   // moves the shipped weights
//
//  - an accepted, edited or user-written item with a summary: the sentences of the sections its
//    evidence names (its sections, or the sections holding its evidence words) are examples whose
//    target is the share of their content words found in the item's summary (and the root summary);
//  - a rejected item: the sentences of its evidence are examples with target 0;
//  - questions of accepted / edited / user items whose text contains their section's title
//    (numbering dropped) become written-document templates ({topic} in place of the title).
// Suggestions nobody reviewed teach nothing. Documents without a hierarchy are skipped.
#include "pipeline/qs/draft/questiontemplates.h"
#include "pipeline/qs/draft/salience.h"

#include <QHash>
#include <QString>

namespace folio::pipeline {

struct CorrectionStats
{
    int documents = 0, accepted = 0, rejected = 0, withoutEvidence = 0, templatesFound = 0;
    long sentences = 0;
};

bool addProjectCorrections(const QString &projectPath, SalienceFitter *fitter, QHash<QString, int> *writtenTemplates,
                           CorrectionStats *stats, QString *error);

// Adds counted templates to a list (same text: counts add up) and ranks it by count.
void mergeTemplates(std::vector<QuestionTemplate> *list, const QHash<QString, int> &counts, int minCount);

} // namespace folio::pipeline
