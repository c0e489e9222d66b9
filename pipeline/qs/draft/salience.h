#pragma once
// Sentence salience for the question-summary drafter (issue 31): a linear model over twelve cheap
// features of a sentence in its section and document, fitted by ridge regression to how much of
// the sentence's content vocabulary a reference summary of its section uses.
//
//   std::vector<std::vector<SentenceFeatures>> f = salienceFeatures(source);   // [section][sentence]
//   const double s = model.score(f[sec][i]);
//   SalienceModel m = fitSalience(trainingMeetings, 1.0);                    // QMSum train
//
// Features (salienceFeatureNames()): bias, log(1 + words), share of content words, tf-idf cosine to
// its section and to the document, share of the section title's content words it contains,
// relative position in the section, its speaker's share of the section's words (0 without
// speakers), ends with '?', fewer than 5 words, min(words, 40) / 40, mean idf of its content
// words. Idf is computed over the document's own sentences, so no vocabulary is stored and any
// language with spaces between words works.
#include "pipeline/qs/qmsum.h"
#include "pipeline/qs/draft/draftsource.h"

#include <QSet>
#include <QString>
#include <QStringList>

#include <vector>

namespace folio::pipeline {

using SentenceFeatures = std::vector<double>;

QStringList salienceFeatureNames();
std::vector<std::vector<SentenceFeatures>> salienceFeatures(const DraftSource &source);

struct SalienceModel
{
    std::vector<double> weights; // one per feature name
    bool isValid() const { return int(weights.size()) == int(salienceFeatureNames().size()); }
    double score(const SentenceFeatures &f) const;
};

struct SalienceFit
{
    SalienceModel model;
    long sentences = 0;
    double meanTarget = 0.0;
};

// The target of one sentence: the share of its content words (draftTokens minus stop words)
// found in `reference`'s content words.
double salienceTarget(const QString &sentence, const QSet<QString> &referenceContent);
// Accumulates the normal equations of a ridge regression, one sentence at a time (memory does not
// grow with the data).
class SalienceFitter
{
public:
    // withinSection: documents (addDocument, addMeeting) are fitted on each sentence's difference
    // from its section's mean (features and target), so the weights rank sentences within a section,
    // which is the choice the drafter makes; the bias is then set so the mean prediction over all
    // sentences equals the mean target.
    explicit SalienceFitter(bool withinSection = false);
    bool withinSection() const { return m_centred; }
    void add(const SentenceFeatures &x, double target, double weight = 1.0);
    // Every sentence of a document; `sectionReferences[s]` is what a summary of section s should
    // use (empty or missing: the section's sentences are not examples). `weight` scales each one.
    void addDocument(const DraftSource &source, const std::vector<QString> &sectionReferences, double weight = 1.0);
    // Every sentence of a meeting; the reference of a section is the root summary plus the answers
    // whose evidence turns overlap the section's turns.
    void addMeeting(const QmsumMeeting &meeting);
    // Adds another fitter's sums, each example's weight scaled by `weight` (sources balanced).
    void merge(const SalienceFitter &other, double weight);
    long sentences() const { return m_n; }
    double totalWeight() const { return m_weight; }
    // Minimises |Xw - y|^2 + l2 |w - prior|^2 (prior empty: zeros), so a small set of corrections
    // moves a fitted model instead of replacing it.
    SalienceFit solve(double l2, const std::vector<double> &prior = {}) const;

private:
    std::vector<std::vector<double>> m_xtx;
    std::vector<double> m_xty;
    std::vector<double> m_xsum; // raw features, weighted (the bias of a within-section fit)
    bool m_centred = false;
    void accumulate(const SentenceFeatures &fitX, double fitY, const SentenceFeatures &rawX, double rawY, double weight);
    double m_targetSum = 0.0, m_weight = 0.0;
    long m_n = 0;
};

// SalienceFitter over every sentence of every meeting.
SalienceFit fitSalience(const std::vector<QmsumMeeting> &meetings, double l2);

} // namespace folio::pipeline
