#pragma once
// QS-hierarchy metrics (MODELS.md §5.8), as the HIBRIDS evaluation computes them with its pinned
// libraries (rouge_score 0.0.4, nltk 3.5). Torch-free.
//  - ROUGE-1/2/Lsum F with stemming: rouge_score's tokenizer (lowercase, [^a-z0-9]+ -> space,
//    Porter stem (NLTK extensions) of tokens longer than 3 letters); ROUGE-N from clipped n-gram
//    counts; ROUGE-Lsum over '\n'-separated sentences with the union-LCS hit counting.
//  - Question BLEU-4: nltk sentence_bleu, one reference, weights 0.25 x 4, smoothing method2 of
//    nltk 3.5 (+1 on numerator and denominator of every order, unigrams included), brevity penalty.
//  - Hierarchy P/R/F1 of eval_qs_hierarchy_fq.py: nodes are summaries (the root summary too, a
//    repeated summary is one node, as the reference keys them by text); every predicted node is
//    aligned to the target node with the highest ROUGE-1 F + ROUGE-2 F (first on ties); a predicted
//    (child, parent) relation scores (s_child + s_parent) / 4 when the parent's image is the child's
//    image or one of its ancestors; precision divides by the number of predicted relations, recall
//    is the same the other way round, F1 per sample.
// Deviation: the reference splits summaries into sentences and tokenises questions with spaCy
// en_core_web_sm; Folio uses splitSentences() (after . ! ? followed by a space) and bleuTokenize()
// (words and single punctuation marks). ROUGE-1/2 do not depend on the split.

#include "inference/qs/qslinearize.h"

#include <string>
#include <vector>

namespace folio::inference {

std::string porterStem(const std::string &word);
std::vector<std::string> rougeTokenize(const std::string &text, bool stem = true);

struct RougeScore
{
    double precision = 0.0, recall = 0.0, fmeasure = 0.0;
};
RougeScore rougeN(const std::string &target, const std::string &prediction, int n);
RougeScore rougeLsum(const std::string &target, const std::string &prediction); // '\n' separates sentences

std::string splitSentences(const std::string &text); // sentences joined by '\n'
std::vector<std::string> bleuTokenize(const std::string &text);
double sentenceBleu4(const std::vector<std::string> &reference, const std::vector<std::string> &hypothesis);

struct HierarchyScore
{
    double precision = 0.0, recall = 0.0, f1 = 0.0;
};
HierarchyScore hierarchyScore(const QsHierarchy &target, const QsHierarchy &prediction);

struct QsScores
{
    RougeScore rouge1, rouge2, rougeLsum; // summaries: root summary + item summaries
    double questionBleu4 = 0.0;
    HierarchyScore hierarchy;
};
// Both texts in target form (normaliseQsActions() is applied first, as the reference does).
QsScores scoreQs(const std::string &targetText, const std::string &predictionText);

} // namespace folio::inference
