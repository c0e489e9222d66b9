#pragma once
// Identifier (sku) candidates in a web page's visible text, with the features a ranker scores them
// by (document/structured/candidateranker.h). Shops print their article number beside a label
// ("SKU: 4667999", "Art.-Nr. 1002/710", "Артикул 987929"); this finds every token that could be one.
//
// Candidates: in each DOM text node, every run of letters and digits (with '-', '_', '.', '/'
// between them) that holds at least one digit, 3 to 40 characters, not inside a longer run. The
// value is the token as written (the benchmark compares sku strings exactly).
//
// Features (identifierFeatureNames()): a label word just before it (same node or the previous text
// node) and in the class / id / itemprop of its element and ancestors; agreement with the page's
// structured sku / mpn / gtin; shape (length, digit share, letters, separators, upper case, a valid
// GTIN, price- or date-like); the token alone in its node; repeats; position in the page and after
// the first <h1>; inside a link; navigation / footer / related-products ancestors.
//
// Bounded: at most `maxCandidates` candidates per page.

#include "document/document.h"
#include "document/structured/candidateranker.h"
#include "document/structured/structureddata.h"

#include <string>
#include <vector>

namespace folio::structured {

const std::vector<std::string> &identifierFeatureNames();

std::vector<TextCandidate> findIdentifierCandidates(const Document &doc, const StructuredData &sd,
                                                    int maxCandidates = 20000);

} // namespace folio::structured
