#pragma once
// Price candidates in a web page's visible text, with the features a ranker scores them by
// (document/structured/priceranker.h). Pages without schema.org prices still show their price as
// text; this finds every number that could be one and describes it.
//
// Candidates: in each DOM text node of the Document (script/style are not text there), every
// number written like an amount: digit groups with thousands separators (space, NBSP, thin space,
// '.', ',' or apostrophe between groups of three) and an optional decimal part of 1-2 digits, or a
// plain digit run with an optional 1-2 digit decimal part; not glued to letters or digits on either
// side. The amount is read with normalise.h's separator rule (parsePrice), so "24.990" is 24990.
// A number followed by a unit of measure ("/ 100 ml", "100 Gramm") is a quantity and no candidate;
// a whole number ending its text node whose next element is a two-digit <sup> takes those digits as
// its cents ("173<sup>34</sup>" is 173.34; the candidate's span stays the "173" in its node).
//
// Features (priceFeatureNames(), all numbers, no text): currency symbol or code next to the number
// or in its element; decimal part; looks like a year; "price"-like / "old price"-like /
// cart-navigation-like words in the class, id, itemprop or tag of the element and its ancestors;
// strike-through (del, s, strike); discount words; position in the page and after the first <h1>;
// how often the amount repeats; whether the page's structured data gives the same price; the size of
// the amount and of its text node.
//
// Bounded: at most `maxCandidates` candidates per page (the rest of the page is not searched).

#include "document/document.h"
#include "document/structured/candidateranker.h"
#include "document/structured/structureddata.h"

#include <optional>
#include <string>
#include <vector>

namespace folio::structured {

using PriceCandidate = TextCandidate; // value: parsePrice's amount ("1299.00")

const std::vector<std::string> &priceFeatureNames();

std::vector<PriceCandidate> findPriceCandidates(const Document &doc, const StructuredData &sd,
                                                int maxCandidates = 20000);


} // namespace folio::structured
