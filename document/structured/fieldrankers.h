#pragma once
// The product fields Folio answers with a candidate ranker (candidateranker.h), and for each: how
// its candidates are found, what its features are called, and when a candidate equals a gold value.
//   price: pricecandidates.h, values compared as decimals (the benchmark's rule);
//   sku:   identifiercandidates.h, values compared as exact strings (the benchmark's rule).
// A product model folder may hold "<field>-ranker.json" for each (folio-cli train-rankers).

#include "document/document.h"
#include "document/structured/candidateranker.h"
#include "document/structured/sitetexts.h"
#include "document/structured/structureddata.h"

#include <optional>
#include <string>
#include <vector>

namespace folio::structured {

const std::vector<std::string> &rankedFields(); // price, sku: the fields the product benchmark's rankers learn
bool isRankedField(const std::string &field);

// Any other (non-empty) field name is ranked among whole text nodes (textnodecandidates.h; its label
// words come from the name): a project's own fields ("brand", "author", "colour") in Train Field
// Extractor. Its values compare as written, up to case, white space and edge punctuation.
// Empty for an empty name. `site` (text fields only): the pages of doc's site, doc among them.
const std::vector<std::string> &candidateFeatureNames(const std::string &field);
std::vector<TextCandidate> findCandidates(const std::string &field, const Document &doc, const StructuredData &sd,
                                          const SiteTexts *site = nullptr);
bool candidateMatches(const std::string &field, const std::string &candidateValue, const std::string &goldValue);

// A value as a person wrote or accepted it ("$1,299.00", " AB-12 ") as the candidates of `field`
// hold theirs (prices: parsePrice's amount "1299.00"; sku: trimmed; text fields: white space
// simplified). nullopt when it does not read as one.
std::optional<std::string> rankedValue(const std::string &field, const std::string &text);

// A page's training row for the ranker of `field`: its candidates' features, which of them equal one
// of `gold` (values as rankedValue gives them; empty: the page has no value), whether the page's
// structured data gives a right value (-1: it gives none), and the group inner folds keep together.
RankerPage rankerPage(const std::string &field, const std::vector<TextCandidate> &candidates, const StructuredData &sd,
                      const std::vector<std::string> &gold, const std::string &group);

// Document::words indices of the words that overlap characters [start, end) of text node `node`
// (a candidate's words, to highlight it).
std::vector<int> wordsInRange(const Document &doc, int node, int start, int end);

// The name a field's ranker goes by: the field name in lower case ("Price" -> "price"), so a field
// set's "Maker" and its "maker-ranker.json" meet wherever rankers are written and read.
std::string rankerKey(const std::string &fieldName);

// "<dir>/<field>-ranker.json"
std::string rankerFile(const std::string &dir, const std::string &field);

} // namespace folio::structured
