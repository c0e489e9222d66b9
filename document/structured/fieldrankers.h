#pragma once
// The product fields Folio answers with a candidate ranker (candidateranker.h), and for each: how
// its candidates are found, what its features are called, and when a candidate equals a gold value.
//   price: pricecandidates.h, values compared as decimals (the benchmark's rule);
//   sku:   identifiercandidates.h, values compared as exact strings (the benchmark's rule).
// A product model folder may hold "<field>-ranker.json" for each (folio-cli train-rankers).

#include "document/document.h"
#include "document/structured/candidateranker.h"
#include "document/structured/structureddata.h"

#include <string>
#include <vector>

namespace folio::structured {

const std::vector<std::string> &rankedFields(); // price, sku

// Empty for a field that is not ranked.
const std::vector<std::string> &candidateFeatureNames(const std::string &field);
std::vector<TextCandidate> findCandidates(const std::string &field, const Document &doc, const StructuredData &sd);
bool candidateMatches(const std::string &field, const std::string &candidateValue, const std::string &goldValue);

// Document::words indices of the words that overlap characters [start, end) of text node `node`
// (a candidate's words, to highlight it).
std::vector<int> wordsInRange(const Document &doc, int node, int start, int end);

// "<dir>/<field>-ranker.json"
std::string rankerFile(const std::string &dir, const std::string &field);

} // namespace folio::structured
