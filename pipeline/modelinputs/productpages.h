#pragma once
// Product pages for WebFormer: structured-data candidates the model can point at, the Zyte
// product benchmark as training data (gold surface forms, domain-grouped folds), and extracted
// spans turned into product values.
//
// Structured-data candidates: the page's schema.org / Open Graph product values
// (document/structured/structureddata.h) are prepended to the page as one synthetic
// <dl><dt>field</dt><dd>value</dd>...</dl> (normalised values, at most 2 per field, duplicates
// dropped), so the model reads them as text like any other and may point at them. Their text
// nodes carry the XPath "structured-data:<source> <location> #<field>" so a value taken from there
// is reported with its real origin; a span on another field's candidate is not accepted.

#include "document/structured/groupedfolds.h"
#include "document/structured/candidateranker.h"
#include "document/structured/structureddata.h"
#include "inference/webformer/webformer.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace folio {
struct Document;
}

namespace folio::pipeline {

constexpr const char *kStructuredXPathPrefix = "structured-data:";

// The fields the product model extracts as spans (availability comes from structured data).
const std::vector<std::string> &productModelFields(); // price, sku, gtin, mpn, brand

// Prepends the candidates; returns how many page words were prepended.
int prependStructuredCandidates(inference::WebPage *page, const structured::StructuredData &sd);

// Gold surface forms for the model fields from benchmark values: price -> every 1-2 word window of
// the page whose parsed amount equals a gold price (so "$87.11", "87,11 €", "87.11" all count);
// sku / gtin / mpn / brand -> the gold strings themselves (matched after normaliseFieldValue).
void attachProductGold(inference::WebPage *page, const std::map<std::string, std::vector<std::string>> &truth);

// "amazon" for www.amazon.co.uk and amazon.de: the host without www., public-suffix-like labels
// (2-letter country codes, com, co, net, org, ...) dropped from the right, last label kept.
std::string siteFamily(const std::string &url);
using structured::groupedFolds; // document/structured/groupedfolds.h

struct ProductBenchmarkPage
{
    std::string key, url, site;
    inference::WebPage page;                  // with gold; candidates prepended when asked
    structured::StructuredData sd; // as read from the page
    int prefixWords = 0;           // candidate words at the start of page
    std::map<std::string, std::vector<std::string>> truth; // the benchmark's accepted values
};

// Every page of dataset/ground-truth.json (file order) from dataset/html/<key>.html.gz.
// Throws std::runtime_error naming the file on bad input. maxPages > 0 keeps the first pages.
std::vector<ProductBenchmarkPage> loadProductBenchmark(const std::string &datasetDir, bool structuredCandidates,
                                                       int maxPages = 0,
                                                       const std::function<void(int, int)> &progress = {});

// One product value with its origin.
struct ProductValue
{
    std::string field;
    std::string value;      // normalised (price amount, availability InStock/OutOfStock, ...)
    std::string text;       // as it appears (the span's words, or the structured value's raw text)
    std::string source;     // "model" (a span in the page text), "model:structured-data" (the model chose a
                            // structured-data candidate), "structured-data" (fallback), "default"
    std::string xpath;      // text node of the span, or "structured-data:<source> <location>"
    int firstWord = -1, lastWord = -1; // page word indices (without the candidate prefix), -1 when none
    double confidence = 0;
};

// Spans (from a page with `prefixWords` candidate words in front) + structured data -> values per
// field: price/sku/gtin/mpn/brand from the spans (normalised; a span that does not normalise is
// dropped), then, with `fallback`, structured data for the fields the model left empty; currency from
// the price text or structured data; availability from structured data, else "InStock" (source
// "default"). Fields without a value are absent.
std::vector<ProductValue> productValues(const std::vector<inference::FieldSpan> &spans, int prefixWords,
                                        const structured::StructuredData &sd, bool fallback);
// Structured data alone (the baseline): productValues({}, 0, sd, true).
std::vector<ProductValue> structuredProductValues(const structured::StructuredData &sd);
// The ranked fields (price, sku; BENCHMARKS.md, "Candidate rankers") under the rule each ranker
// learned (CandidateRanker::structuredFirst): structured first = the page's structured-data value
// when it has one (for the price its currency too), else the ranker's answer, else what `values`
// already holds (the model's); ranker first = the ranker's answer, else structured data, else
// `values`. `ranked` comes from rankedValues (empty: the ranker did not answer).
void chooseRankedValue(std::vector<ProductValue> *values, const structured::StructuredData &sd, const std::string &field,
                       const std::vector<ProductValue> &ranked, bool structuredFirst);
// A ranker's answer as values: the field (source "<field>-ranker", the text node's XPath, page word
// indices [firstWord, lastWord] or -1, confidence = its probability), then, for a price, the
// currency read beside the number when there is one.
std::vector<ProductValue> rankedValues(const std::string &field, const structured::RankedCandidate &ranked,
                                       const std::string &xpath, int firstWord, int lastWord);

// A benchmark prediction row: price, sku, availability (+ InStock/OutOfStock), gtin, mpn, brand, currency.
std::map<std::string, std::string> benchmarkRow(const std::vector<ProductValue> &values);

} // namespace folio::pipeline
