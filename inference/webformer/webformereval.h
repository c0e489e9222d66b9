#pragma once
// WebFormer helpers without torch: SWDE page-level scoring, span decoding, SWDE ground truth.
//
// SWDE page-level F1 (the rule implemented by scorePageLevel):
//  - values are normalised by normaliseFieldValue(): HTML entities &amp; &lt; &gt; &quot; &#39;
//    &nbsp; and numeric &#N; / &#xH; decoded, ASCII letters lower-cased, every run of
//    white space (incl. NBSP) made one space, leading/trailing white space and the punctuation
//    .,;:!?"'()[]- removed at both ends;
//  - per field and page: the model predicts at most one value. A prediction is correct when its
//    normalised text equals the normalised text of one of the page's gold values (an empty
//    normalised gold list = "no value", e.g. SWDE's <NULL>);
//    TP += 1 when correct; FP += 1 when a value is predicted and it is not correct;
//    FN += 1 when the page has a gold value and the prediction is missing or not correct.
//  - per field P = TP/(TP+FP), R = TP/(TP+FN), F1 = 2PR/(P+R) (0 when undefined);
//    the averages are the unweighted means of the per-field P, R and F1 (macro).

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace folio::inference {

std::string normaliseFieldValue(const std::string &value);

struct FieldScore
{
    std::string field;
    int tp = 0, fp = 0, fn = 0, pages = 0;
    double precision = 0, recall = 0, f1 = 0;
};

struct PageLevelScore
{
    std::vector<FieldScore> fields; // sorted by field name
    double precision = 0, recall = 0, f1 = 0; // macro averages over fields
};

// predicted[page][field] = value ("" or absent = no prediction); gold[page][field] = values.
// Every (page, field) of `gold` is scored; fields only in `predicted` are ignored.
using PageFieldValues = std::map<std::string, std::map<std::string, std::vector<std::string>>>;
PageLevelScore scorePageLevel(const std::map<std::string, std::map<std::string, std::string>> &predicted,
                              const PageFieldValues &gold);

// Best span decoding. startLogProb: [T + 1] log-probabilities, index 0 = the null answer, index
// s + 1 = text token s. endLogProb(s) returns [T] log p(end = e | start = s). The best non-null
// (s, e) maximises startLogProb[s+1] + endLogProb(s)[e] over e in [s, s + maxLen - 1] (clipped
// to T); only the `topK` most likely starts are expanded. The null answer wins when its
// log-probability is higher than the best span's.
struct DecodedSpan
{
    bool found = false;
    int start = -1, end = -1; // inclusive text token indices
    double logProb = 0;       // of the chosen answer
};
DecodedSpan decodeBestSpan(const std::vector<float> &startLogProb,
                           const std::function<std::vector<float>(int)> &endLogProb, int maxLen, int topK = 8);

// SWDE ground truth file (groundtruth/<vertical>/<vertical>-<site>-<field>.txt): page id ("0000")
// -> values ("<NULL>" dropped). Throws InferenceError naming the file on bad input.
std::map<std::string, std::vector<std::string>> readSwdeGroundTruth(const std::string &path, std::string *field = nullptr);

} // namespace folio::inference
