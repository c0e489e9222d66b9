#pragma once
// Whole text nodes as candidates for a named field (author, publisher, isbn_13, a user's own
// field...), with features that do not depend on one site's layout, so a ranker trained on one
// site can be tried on another (SWDE's unseen-site protocol; document/structured/candidateranker.h).
//
// Candidates: every non-blank DOM text node of at most 300 characters; the value is its text
// (trimmed). Features (textNodeFeatureNames()): the field's label words (fieldLabelPattern) at the
// start of the node, in the one or two text nodes before it, or in the class / id / itemprop of its
// ancestors; the node being a label itself; a leading ':'; shape (words, characters, digit, letter
// and capitalised-word shares, a valid ISBN-13, a year, a month name); <h1> / heading / link / bold
// / <title> ancestors; the node's text inside the page's <title>; position, after the first <h1>,
// repeats, navigation / footer ancestors; with the site's other pages (sitetexts.h), the share of
// them that hold the same text (0 without them).

#include "document/document.h"
#include "document/structured/candidateranker.h"
#include "document/structured/sitetexts.h"

#include <QRegularExpression>

#include <string>
#include <vector>

namespace folio::structured {

const std::vector<std::string> &textNodeFeatureNames();

// Label words of a field: a table for common ones (author: author, by, written; publisher:
// publisher, published by, imprint; publication_date: publication date, published, pub. date,
// release date; isbn_13: isbn, ean; title: title; price, sku, brand, ...) plus the field name's own
// words ("release_year" -> "release", "year"). Case-insensitive, word-bounded.
QRegularExpression fieldLabelPattern(const std::string &field);

// `site`: the pages of doc's site, doc among them (nullptr: none known).
std::vector<TextCandidate> findTextNodeCandidates(const Document &doc, const std::string &field, const SiteTexts *site = nullptr,
                                                  int maxCandidates = 20000);

} // namespace folio::structured
