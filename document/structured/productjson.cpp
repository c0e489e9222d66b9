#include "document/structured/productjson.h"

#include "document/structured/normalise.h"

#include <algorithm>

namespace folio::structured::detail {

namespace {

// The local name of a schema.org term: "http://schema.org/Product" -> "Product", "schema:price" -> "price".
std::string localName(const std::string &term)
{
    const auto cut = term.find_last_of("/#:");
    return cut == std::string::npos ? term : term.substr(cut + 1);
}

bool hasType(const nlohmann::json &node, std::initializer_list<const char *> names)
{
    if (!node.is_object())
        return false;
    auto match = [&](const nlohmann::json &t) {
        if (!t.is_string())
            return false;
        const std::string n = localName(t.get<std::string>());
        return std::any_of(names.begin(), names.end(), [&](const char *x) { return n == x; });
    };
    for (const char *key : {"@type", "type"}) {
        const auto it = node.find(key);
        if (it == node.end())
            continue;
        if (match(*it))
            return true;
        if (it->is_array())
            for (const auto &t : *it)
                if (match(t))
                    return true;
    }
    return false;
}

bool isProduct(const nlohmann::json &node)
{
    return hasType(node, {"Product", "ProductGroup", "ProductModel", "IndividualProduct", "SomeProducts", "Vehicle", "Book"});
}

// A property's values (a property may be a value or an array of values; keys compared by local name).
std::vector<const nlohmann::json *> values(const nlohmann::json &node, const char *prop)
{
    std::vector<const nlohmann::json *> out;
    if (!node.is_object())
        return out;
    for (auto it = node.begin(); it != node.end(); ++it) {
        if (localName(it.key()) != prop)
            continue;
        if (it->is_array()) {
            for (const auto &v : *it)
                out.push_back(&v);
        } else {
            out.push_back(&*it);
        }
    }
    return out;
}

bool scalarText(const nlohmann::json &v, std::string *text)
{
    if (v.is_string()) {
        *text = v.get<std::string>();
        return true;
    }
    if (v.is_number_integer() || v.is_number_unsigned() || v.is_number_float()) {
        *text = v.dump();
        return true;
    }
    if (v.is_object()) { // {"@value": ...} or {"@id": ...}
        for (const char *k : {"@value", "@id", "value"}) {
            const auto it = v.find(k);
            if (it != v.end() && (it->is_string() || it->is_number()))
                return scalarText(*it, text);
        }
    }
    return false;
}

void addScalars(ProductSink &sink, const nlohmann::json &node, const char *prop, const std::string &field, int item)
{
    std::string text;
    for (const nlohmann::json *v : values(node, prop))
        if (scalarText(*v, &text))
            addCandidate(sink, field, text, item);
}

void readOffer(const nlohmann::json &offer, ProductSink &sink, int item, int depth)
{
    if (depth > sink.limits->maxDepth || !offer.is_object())
        return;
    addScalars(sink, offer, "price", "price", item);
    addScalars(sink, offer, "lowPrice", "price", item);
    addScalars(sink, offer, "priceCurrency", "currency", item);
    addScalars(sink, offer, "availability", "availability", item);
    for (const char *id : {"sku", "mpn"})
        addScalars(sink, offer, id, id, item);
    for (const char *g : {"gtin", "gtin8", "gtin12", "gtin13", "gtin14"})
        addScalars(sink, offer, g, "gtin", item);
    for (const nlohmann::json *spec : values(offer, "priceSpecification"))
        readOffer(*spec, sink, item, depth + 1);
    for (const nlohmann::json *inner : values(offer, "offers")) // AggregateOffer.offers
        readOffer(*inner, sink, item, depth + 1);
}

void readProduct(const nlohmann::json &p, ProductSink &sink, int depth)
{
    const int item = (*sink.productCounter)++;
    ++sink.out->products;
    addScalars(sink, p, "name", "name", item);
    for (const char *id : {"sku", "mpn"})
        addScalars(sink, p, id, id, item);
    for (const char *g : {"gtin", "gtin8", "gtin12", "gtin13", "gtin14", "isbn"})
        addScalars(sink, p, g, "gtin", item);
    for (const nlohmann::json *b : values(p, "brand")) {
        std::string text;
        if (b->is_object()) {
            for (const nlohmann::json *n : values(*b, "name"))
                if (scalarText(*n, &text))
                    addCandidate(sink, "brand", text, item);
        } else if (scalarText(*b, &text)) {
            addCandidate(sink, "brand", text, item);
        }
    }
    for (const nlohmann::json *o : values(p, "offers"))
        readOffer(*o, sink, item, depth + 1);
    addScalars(sink, p, "price", "price", item); // microdata pages sometimes put price on the product
    addScalars(sink, p, "priceCurrency", "currency", item);
    addScalars(sink, p, "availability", "availability", item);
}

void walk(const nlohmann::json &node, ProductSink &sink, int depth)
{
    if (depth > sink.limits->maxDepth || int(sink.out->candidates.size()) >= sink.limits->maxCandidates)
        return;
    if (isProduct(node)) {
        readProduct(node, sink, depth);
        // related products (isRelatedTo, isSimilarTo, hasVariant) become further items
        for (const char *rel : {"hasVariant", "isRelatedTo", "isSimilarTo", "isVariantOf"})
            for (const nlohmann::json *v : values(node, rel))
                walk(*v, sink, depth + 1);
        return;
    }
    if (node.is_array()) {
        for (const auto &v : node)
            walk(v, sink, depth + 1);
    } else if (node.is_object()) {
        for (const auto &v : node)
            if (v.is_object() || v.is_array())
                walk(v, sink, depth + 1);
    }
}

} // namespace

void collectProducts(const nlohmann::json &root, ProductSink &sink)
{
    walk(root, sink, 0);
}

int jsonNestingDepth(const std::string &text, int cap)
{
    int depth = 0, deepest = 0;
    bool inString = false, escape = false;
    for (char c : text) {
        if (inString) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > cap)
                return deepest;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

void addCandidate(ProductSink &sink, const std::string &field, const std::string &raw, int item)
{
    if (int(sink.out->candidates.size()) >= sink.limits->maxCandidates)
        return;
    if (raw.size() > sink.limits->maxValueChars) {
        if (sink.out->notes.size() < 100)
            sink.out->notes.push_back(sink.location + ": a " + field + " value of " + std::to_string(raw.size())
                                      + " bytes was ignored (limit " + std::to_string(sink.limits->maxValueChars) + ")");
        return;
    }
    std::string value;
    if (field == "price") {
        const auto p = parsePrice(raw);
        if (!p) {
            const std::string problem = priceNotationProblem(raw);
            if (!problem.empty() && sink.out->notes.size() < 100)
                sink.out->notes.push_back((sink.where.empty() ? sink.source + " " + sink.location : sink.where) + ": price \""
                                          + cleanText(raw, 64) + "\" ignored: " + problem);
            return;
        }
        value = p->amount;
        if (!p->currency.empty())
            sink.out->candidates.push_back({"currency", p->currency, raw, sink.source, sink.location, item});
    } else if (field == "currency") {
        const std::string clean = cleanText(raw, 64);
        value = detectCurrency(clean);
        if (value.empty() && clean.size() == 3 && std::all_of(clean.begin(), clean.end(), ::isupper))
            value = clean;
    } else if (field == "availability") {
        value = normaliseAvailability(raw);
    } else if (field == "gtin") {
        value = normaliseGtin(raw).value_or(std::string());
    } else if (field == "sku" || field == "mpn") {
        value = normaliseIdentifier(raw).value_or(std::string());
    } else {
        value = cleanText(raw, 500);
    }
    if (value.empty())
        return;
    sink.out->candidates.push_back({field, value, cleanText(raw, 500), sink.source, sink.location, item});
}

} // namespace folio::structured::detail
