#pragma once
// Schema.org structured data of a web page: JSON-LD (<script type="application/ld+json">, @graph,
// arrays, nested offers / AggregateOffer / priceSpecification, brand objects), microdata
// (itemscope / itemtype / itemprop, nested items), RDFa (typeof / property, prefixes dropped) and
// Open Graph / product meta tags (og:*, product:*). Read with libxml2 (HTML parser) and
// nlohmann-json; product fields normalised with normalise.h.
//
// Bounded and quiet: the page is at most `maxHtmlBytes`; a JSON-LD block over `maxJsonBytes`,
// nested deeper than `maxDepth`, or not valid JSON is skipped with a note (the rest of the page is
// still read); strings over `maxValueChars` are dropped with a note; element nesting deeper than
// `maxDepth` is not searched for microdata/RDFa. Never throws; thread-safe.
//
//   StructuredData sd = readStructuredData(bytes, "page.html");
//   for (const auto &c : sd.candidates) ...           // every product value found, in page order
//   ProductFields best = productFields(sd);           // one value per field

#include "document/document.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <map>
#include <string>
#include <vector>

namespace folio::structured {

struct StructuredLimits
{
    qint64 maxHtmlBytes = qint64(256) << 20;
    qint64 maxJsonBytes = qint64(4) << 20; // one JSON-LD block
    int maxDepth = 64;                     // JSON nesting and element nesting searched
    std::size_t maxValueChars = 4096;      // longer strings are not product values
    int maxCandidates = 10000;
};

// The product fields the reader fills (also the benchmark's attributes, plus name).
const std::vector<std::string> &productFieldNames(); // name, price, currency, sku, gtin, mpn, brand, availability

struct StructuredValue
{
    std::string field;    // one of productFieldNames()
    std::string value;    // normalised: price "1234.50", currency ISO, availability schema name, gtin digits
    std::string raw;      // as written in the page
    std::string source;   // "json-ld", "microdata", "rdfa", "meta"
    std::string location; // XPath of the element that holds it (the <script> for JSON-LD)
    int item = 0;         // which product item (0 = the first product of its source)
};

struct StructuredData
{
    std::vector<StructuredValue> candidates;
    std::vector<std::string> notes; // "page.html: JSON-LD block 2 skipped: nested deeper than 64"
    int jsonLdBlocks = 0, products = 0;
};

StructuredData readStructuredData(const QByteArray &html, const QString &name, const StructuredLimits &limits = {});
// readHtmlSource (gzip too) + readStructuredData; false + *error naming the file.
bool readStructuredDataFile(const QString &path, StructuredData *out, QString *error,
                            const StructuredLimits &limits = {});

// A web page file read once for both: its Document (document/html/htmlloader.h) and its structured
// data. readHtmlSource (gzip too, at most 256 MiB) + loadHtmlBytes + readStructuredData; false +
// *error naming the file.
struct PageWithStructuredData
{
    Document document;
    StructuredData data;
    QStringList warnings; // the loader's (truncated text nodes, flattened nesting, ...)
};
bool readPageWithStructuredData(const QString &path, PageWithStructuredData *out, QString *error);

// One value per field: the first product's value from the most trusted source
// (json-ld > microdata > rdfa > meta), page order within a source. Availability: the first offer
// that is available (InStock, LimitedAvailability, PreOrder, ...) among the product's offers and
// those of the same-named products of that source (variants listed one product per size) when one
// is, else the product's first.
using ProductFields = std::map<std::string, StructuredValue>;
ProductFields productFields(const StructuredData &data);

} // namespace folio::structured
