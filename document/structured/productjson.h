#pragma once
// Internal to folio_structured: schema.org Product values from a JSON-LD-shaped tree. JSON-LD
// blocks are read as they are; microdata and RDFa items are first converted to the same shape
// ({"@type": ..., "prop": [values or nested items]}), so one extractor serves all three.

#include "document/structured/structureddata.h"

#include <nlohmann/json.hpp>

#include <string>

namespace folio::structured::detail {

struct ProductSink
{
    StructuredData *out = nullptr;
    const StructuredLimits *limits = nullptr;
    std::string source, location; // for every value added
    int *productCounter = nullptr; // products of this source so far (item index)
    std::string where;             // for notes: "page.html: JSON-LD block 2"; empty: source + location
};

// Finds every Product (Product, ProductGroup, ProductModel, IndividualProduct, also under @graph,
// arrays and other nodes' properties) in `root` and adds its values. `root` must already be
// depth-checked (jsonNestingDepth); recursion is bounded by limits.maxDepth anyway.
void collectProducts(const nlohmann::json &root, ProductSink &sink);

// Deepest nesting of arrays/objects in JSON text (strings skipped); stops counting at `cap` + 1.
int jsonNestingDepth(const std::string &text, int cap);

// Normalises `raw` for `field` and appends a candidate (no-op when it does not normalise).
void addCandidate(ProductSink &sink, const std::string &field, const std::string &raw, int item);

} // namespace folio::structured::detail
