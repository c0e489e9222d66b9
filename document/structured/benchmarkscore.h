#pragma once
// The Zyte product extraction benchmark's scoring (scrapinghub/product-extraction-benchmark,
// evaluate.py; re-implemented, not copied), so Folio's figures read like the published table.
//
// Files (the "product-benchmark" dataset layout, also written by export --format product-benchmark):
//  - ground truth: {page: {attribute: [accepted values...], "url": ...}} (lists; non-list values
//    are read as a one-element list);
//  - predictions:  {page: {attribute: value}} with at most one value per attribute; a list is
//    accepted and its first element is the prediction ([] or null = no prediction).
// Rules, per attribute (price: decimal matching; sku, availability, InStock, OutOfStock: exact
// string matching, case-sensitive, no trimming):
//  - every page of the ground truth is scored, in file order; the prediction file must have
//    exactly the same page keys (else an error naming the first missing or extra key);
//  - no prediction: FN when the page has a value; a prediction among the accepted values: TP;
//    any other prediction: FP, plus FN when the page has a value;
//  - decimal matching compares Python Decimal values: "87.1" == "87.10" == "8.71E1"; a value that
//    is not a decimal number never matches (Python would raise; Folio counts it as wrong);
//  - precision = 1 when FP = FN = 0, 0 when TP = FP = 0, else TP/(TP+FP); recall likewise with FN;
//    F1 = 2PR/(P+R) or 0; support = pages with a value;
//  - *_std: sample standard deviation over `bootstrap` resamples of the pages (random.seed(42),
//    n draws of random.randint(0, n-1) per resample, seeded again for every attribute and system:
//    the same resamples everywhere). Reproduced bit for bit through PythonRandom.
// Availability is required by the benchmark: a system that leaves it empty should fill InStock
// before writing its file (fillAvailability does it for Folio's outputs).

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class QString;

namespace folio::structured {

struct BenchmarkPage
{
    std::string key;
    std::map<std::string, std::vector<std::string>> values; // attribute -> accepted values
};

using BenchmarkTruth = std::vector<BenchmarkPage>; // file order
// page -> attribute -> the predicted value (absent = no prediction)
using BenchmarkPrediction = std::map<std::string, std::map<std::string, std::string>>;

enum class BenchmarkMatching { Exact, Decimal };

struct TpFpFn
{
    long tp = 0, fp = 0, fn = 0;
};

struct AttributeMetrics
{
    double f1 = 0, precision = 0, recall = 0;
    double f1Std = 0, precisionStd = 0, recallStd = 0;
    int support = 0;
    TpFpFn counts;
};

// price (decimal), sku, availability, InStock, OutOfStock (exact): the published attributes.
const std::vector<std::pair<std::string, BenchmarkMatching>> &benchmarkAttributes();

// False, with `error` naming the file and the problem (unreadable, not JSON, wrong shape, over
// 256 MiB), when the file cannot be read.
bool readBenchmarkTruth(const std::string &path, BenchmarkTruth *truth, QString *error);
bool readBenchmarkPrediction(const std::string &path, BenchmarkPrediction *prediction, QString *error);

// Python Decimal's value as a canonical string ("-871e-1" style: sign, digits without leading or
// trailing zeros, exponent; zero is "0"); nullopt when `text` is not a decimal number.
std::optional<std::string> canonicalDecimal(const std::string &text);

TpFpFn matchValue(const std::vector<std::string> &accepted, const std::optional<std::string> &predicted,
                  BenchmarkMatching matching);

// False, with `error` naming `predictionName` and the first missing or extra page, when the page
// keys differ.
bool scoreAttribute(const BenchmarkTruth &truth, const BenchmarkPrediction &prediction, const std::string &attribute,
                    BenchmarkMatching matching, AttributeMetrics *metrics, QString *error, int bootstrap = 1000,
                    const std::string &predictionName = "prediction");

// availability "InStock" when missing or empty, and the InStock / OutOfStock rows mirrored from it.
void fillAvailability(BenchmarkPrediction *prediction);

} // namespace folio::structured
