#include "pipeline/modelinputs/productpages.h"

#include "document/html/htmlinput.h"
#include "document/html/htmlloader.h"
#include "document/structured/benchmarkscore.h"
#include "document/structured/normalise.h"
#include "pipeline/modelinputs/webpages.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace folio::pipeline {

using inference::FieldSpan;
using inference::WebNode;
using inference::WebPage;

namespace {

std::vector<std::string> words(const std::string &s)
{
    std::istringstream in(s);
    std::vector<std::string> out;
    std::string w;
    while (in >> w)
        out.push_back(w);
    return out;
}

bool hasDigit(const std::string &s)
{
    return std::any_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool isCurrencyToken(const std::string &w)
{
    return !hasDigit(w) && w.size() <= 4 && !structured::detectCurrency(w).empty();
}

} // namespace

const std::vector<std::string> &productModelFields()
{
    static const std::vector<std::string> fields{"price", "sku", "gtin", "mpn", "brand"};
    return fields;
}

int prependStructuredCandidates(WebPage *page, const structured::StructuredData &sd)
{
    std::vector<WebNode> prefix;
    WebNode dl;
    dl.tag = "dl";
    dl.xpath = std::string(kStructuredXPathPrefix) + "dl";
    prefix.push_back(dl);
    int added = 0;
    for (const std::string &field : structured::productFieldNames()) {
        std::set<std::string> seen;
        for (const auto &c : sd.candidates) {
            if (c.field != field || seen.count(c.value) || seen.size() >= 2)
                continue;
            seen.insert(c.value);
            const std::vector<std::string> valueWords = words(c.value);
            if (valueWords.empty() || valueWords.size() > 24)
                continue;
            const std::string where = std::string(kStructuredXPathPrefix) + c.source + " " + c.location + " #" + field;
            // <dt>field</dt><dd>value</dd>: an element under the <dl> and its one text node
            auto addEntry = [&](const char *tag, std::vector<std::string> entryWords) {
                WebNode element;
                element.tag = tag;
                element.parent = 0;
                element.xpath = where;
                prefix.push_back(element);
                WebNode text;
                text.isText = true;
                text.tag = "#text";
                text.parent = int(prefix.size()) - 1;
                text.xpath = where;
                text.words = std::move(entryWords);
                prefix.push_back(text);
            };
            addEntry("dt", {field});
            addEntry("dd", valueWords);
            added += 1 + int(valueWords.size());
        }
    }
    if (added == 0)
        return 0;
    const int offset = int(prefix.size());
    for (WebNode &n : page->nodes) {
        if (n.parent >= 0)
            n.parent += offset;
        prefix.push_back(std::move(n));
    }
    page->nodes = std::move(prefix);
    return added;
}

void attachProductGold(WebPage *page, const std::map<std::string, std::vector<std::string>> &truth)
{
    std::vector<std::string> all;
    for (const WebNode &n : page->nodes)
        if (n.isText)
            all.insert(all.end(), n.words.begin(), n.words.end());
    for (const std::string &field : productModelFields()) {
        const auto it = truth.find(field);
        std::vector<std::string> gold;
        if (it != truth.end() && field == "price") {
            std::set<std::string> amounts, surfaces;
            for (const auto &v : it->second)
                if (auto a = structured::canonicalDecimal(v))
                    amounts.insert(*a);
            auto matches = [&](const std::string &text) {
                const auto p = structured::parsePrice(text);
                if (!p)
                    return false;
                const auto a = structured::canonicalDecimal(p->amount);
                return a && amounts.count(*a);
            };
            for (std::size_t i = 0; i < all.size() && !amounts.empty(); ++i) {
                if (!hasDigit(all[i]) && !isCurrencyToken(all[i]))
                    continue;
                if (hasDigit(all[i]) && all[i].size() <= 40 && matches(all[i])) {
                    surfaces.insert(all[i]);
                    continue;
                }
                if (i + 1 < all.size() && all[i + 1].size() <= 40
                    && (isCurrencyToken(all[i]) || isCurrencyToken(all[i + 1]) || (hasDigit(all[i]) && hasDigit(all[i + 1])))
                    && matches(all[i] + " " + all[i + 1]))
                    surfaces.insert(all[i] + " " + all[i + 1]);
            }
            // the benchmark's own spelling too: a structured-data candidate shows the normalised amount
            for (const auto &v : it->second) {
                surfaces.insert(v);
                if (const auto p = structured::parsePrice(v))
                    surfaces.insert(p->amount);
            }
            gold.assign(surfaces.begin(), surfaces.end());
        } else if (it != truth.end()) {
            gold = it->second;
        }
        page->gold[field] = gold;
    }
}

std::string siteFamily(const std::string &url)
{
    std::string host = url;
    const auto scheme = host.find("://");
    if (scheme != std::string::npos)
        host = host.substr(scheme + 3);
    host = host.substr(0, host.find_first_of("/:?#"));
    std::transform(host.begin(), host.end(), host.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    std::vector<std::string> labels;
    std::stringstream ss(host);
    std::string l;
    while (std::getline(ss, l, '.'))
        if (!l.empty())
            labels.push_back(l);
    static const std::set<std::string> suffix{"com", "co", "net", "org", "gov", "edu", "ac", "www"};
    while (labels.size() > 1 && (labels.back().size() == 2 || suffix.count(labels.back())))
        labels.pop_back();
    return labels.empty() ? host : labels.back();
}

std::vector<ProductBenchmarkPage> loadProductBenchmark(const std::string &datasetDir, bool structuredCandidates,
                                                       int maxPages, const std::function<void(int, int)> &progress)
{
    const std::string gtPath = datasetDir + "/ground-truth.json";
    std::ifstream in(gtPath);
    if (!in)
        throw std::runtime_error(gtPath + ": cannot open the file");
    const auto gt = nlohmann::ordered_json::parse(in, nullptr, false);
    if (gt.is_discarded() || !gt.is_object())
        throw std::runtime_error(gtPath + ": not a JSON object {page: {attribute: [values]}}");
    structured::BenchmarkTruth truth;
    QString truthError;
    if (!structured::readBenchmarkTruth(gtPath, &truth, &truthError))
        throw std::runtime_error(truthError.toStdString());
    std::vector<ProductBenchmarkPage> pages;
    const int total = maxPages > 0 ? std::min<int>(maxPages, int(truth.size())) : int(truth.size());
    for (int i = 0; i < total; ++i) {
        ProductBenchmarkPage p;
        p.key = truth[i].key;
        p.truth = truth[i].values;
        const auto &row = gt.at(p.key);
        p.url = row.contains("url") && row["url"].is_string() ? row["url"].get<std::string>() : std::string();
        p.site = siteFamily(p.url);
        structured::PageWithStructuredData loaded;
        QString error;
        if (!structured::readPageWithStructuredData(QString::fromStdString(datasetDir + "/html/" + p.key + ".html.gz"), &loaded,
                                                    &error))
            throw std::runtime_error(error.toStdString());
        p.page = webPageFromDocument(loaded.document, p.key);
        p.sd = std::move(loaded.data);
        attachProductGold(&p.page, p.truth);
        if (structuredCandidates)
            p.prefixWords = prependStructuredCandidates(&p.page, p.sd);
        pages.push_back(std::move(p));
        if (progress)
            progress(i + 1, total);
    }
    return pages;
}

namespace {

// A structured-data value as a product value (source "structured-data", its origin in the XPath).
ProductValue structuredValue(const std::string &field, const structured::StructuredValue &s)
{
    ProductValue v;
    v.field = field;
    v.value = s.value;
    v.text = s.raw;
    v.source = "structured-data";
    v.xpath = std::string(kStructuredXPathPrefix) + s.source + " " + s.location;
    v.confidence = 1.0;
    return v;
}

} // namespace

std::vector<ProductValue> productValues(const std::vector<FieldSpan> &spans, int prefixWords,
                                        const structured::StructuredData &sd, bool fallback)
{
    std::vector<ProductValue> out;
    std::set<std::string> have;
    std::string priceText;
    double priceConfidence = 0;
    for (const FieldSpan &s : spans) {
        if (!s.found)
            continue;
        ProductValue v;
        v.field = s.field;
        v.text = s.value;
        v.confidence = s.confidence;
        v.xpath = s.xpath;
        const bool onCandidate = s.xpath.rfind(kStructuredXPathPrefix, 0) == 0;
        // a candidate of another field (the sku's digits as a price) is no answer for this one
        if (onCandidate && (s.xpath.size() < s.field.size() + 2
                            || s.xpath.compare(s.xpath.size() - s.field.size() - 2, std::string::npos, " #" + s.field) != 0))
            continue;
        v.source = onCandidate ? "model:structured-data" : "model";
        if (!onCandidate) {
            v.firstWord = s.firstWord - prefixWords;
            v.lastWord = s.lastWord - prefixWords;
        }
        if (s.field == "price") {
            const auto p = structured::parsePrice(s.value);
            if (!p)
                continue;
            v.value = p->amount;
            priceText = s.value;
            priceConfidence = s.confidence;
        } else if (s.field == "gtin") {
            const auto g = structured::normaliseGtin(s.value);
            v.value = g ? *g : structured::normaliseIdentifier(s.value).value_or(std::string());
        } else if (s.field == "sku" || s.field == "mpn") {
            v.value = structured::normaliseIdentifier(s.value).value_or(std::string());
        } else {
            v.value = structured::cleanText(s.value, 500);
        }
        if (v.value.empty() || have.count(v.field))
            continue;
        have.insert(v.field);
        out.push_back(v);
    }
    const structured::ProductFields best = structured::productFields(sd);
    auto fromStructured = [&](const std::string &field) {
        const auto it = best.find(field);
        if (it == best.end())
            return false;
        out.push_back(structuredValue(field, it->second));
        have.insert(field);
        return true;
    };
    if (fallback)
        for (const std::string &f : productModelFields())
            if (!have.count(f))
                fromStructured(f);
    if (!have.count("currency")) {
        const std::string c = priceText.empty() ? std::string() : structured::detectCurrency(priceText);
        if (!c.empty())
            out.push_back({"currency", c, priceText, "model", {}, -1, -1, priceConfidence}); // read off the price
        else
            fromStructured("currency");
    }
    if (!have.count("name") && fallback)
        fromStructured("name");
    if (!fromStructured("availability"))
        out.push_back({"availability", "InStock", {}, "default", {}, -1, -1, 0});
    for (ProductValue &v : out)
        if (v.field == "availability")
            v.value = structured::benchmarkAvailability(v.value);
    return out;
}

std::vector<ProductValue> structuredProductValues(const structured::StructuredData &sd)
{
    return productValues({}, 0, sd, true);
}

std::vector<ProductValue> rankedValues(const std::string &field, const structured::RankedCandidate &ranked,
                                       const std::string &xpath, int firstWord, int lastWord)
{
    ProductValue v;
    v.field = field;
    v.value = ranked.candidate.value;
    v.text = ranked.candidate.text;
    v.source = field + "-ranker";
    v.xpath = xpath;
    v.firstWord = firstWord;
    v.lastWord = lastWord;
    v.confidence = ranked.probability;
    std::vector<ProductValue> out{v};
    if (field == "price" && !ranked.candidate.currency.empty())
        out.push_back({"currency", ranked.candidate.currency, ranked.candidate.text, v.source, xpath, firstWord, lastWord,
                       ranked.probability});
    return out;
}

void chooseRankedValue(std::vector<ProductValue> *values, const structured::StructuredData &sd, const std::string &field,
                       const std::vector<ProductValue> &ranked, bool structuredFirst)
{
    const structured::ProductFields best = structured::productFields(sd);
    const auto find = [&](const std::string &name) {
        return std::find_if(values->begin(), values->end(), [&](const ProductValue &v) { return v.field == name; });
    };
    const auto put = [&](const ProductValue &v) {
        const auto it = find(v.field);
        if (it != values->end())
            *it = v;
        else
            values->push_back(v);
    };
    const auto fromStructured = [&](const std::string &name) { return structuredValue(name, best.at(name)); };
    if (best.count(field) && (structuredFirst || ranked.empty())) {
        put(fromStructured(field));
        if (field == "price" && best.count("currency"))
            put(fromStructured("currency"));
        return;
    }
    for (const ProductValue &v : ranked) {
        const auto have = find(v.field);
        if (v.field == field || have == values->end() || have->source != "structured-data")
            put(v); // a currency from the page's own data stays
    }
}

std::map<std::string, std::string> benchmarkRow(const std::vector<ProductValue> &values)
{
    std::map<std::string, std::string> row;
    for (const ProductValue &v : values)
        row[v.field] = v.value;
    const std::string a = row.count("availability") ? row["availability"] : "InStock";
    row["availability"] = a;
    row[a] = a;
    return row;
}

} // namespace folio::pipeline
