#pragma once
// Baselines for question-summary hierarchies, and score averaging for `folio-cli qs eval`.
//  - lead: the root summary is the document's first sentences; every section becomes an item at
//    its depth with the question "What was said about <title>?" and its first sentences;
//  - oracle shape: the reference tree's shape (item count and depths); item k's question comes from
//    the title of the section its evidence overlaps most, its summary from the first sentences of
//    its evidence turns (the section's when it has none). An upper bound on shape, not on content.

#include "inference/qs/qsmetrics.h"
#include "pipeline/qs/qmsum.h"
#include "pipeline/qs/qsinputs.h"

namespace folio::pipeline {

// The first `sentences` sentences of `text` (split after . ! ? and a space), at most `maxWords` words.
QString leadSentences(const QString &text, int sentences, int maxWords = 60);
QString questionFromTitle(const QString &title);

inference::QsHierarchy leadBaseline(const QsInput &input, int sentences = 2);
inference::QsHierarchy oracleShapeBaseline(const QmsumMeeting &meeting, int sentences = 2);

// Mean of per-sample scores (ROUGE F, BLEU-4, hierarchy P/R/F1), all in [0, 1].
class QsScoreMean
{
public:
    void add(const inference::QsScores &s);
    int count() const { return m_n; }
    inference::QsScores mean() const;

private:
    inference::QsScores m_sum;
    int m_n = 0;
};

} // namespace folio::pipeline
