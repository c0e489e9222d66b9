#include "document/structured/structureddata.h"

#include "document/html/htmlcharset.h"
#include "document/html/htmlinput.h"
#include "document/html/htmlloader.h"
#include "document/structured/normalise.h"
#include "document/structured/productjson.h"

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <map>
#include <memory>
#include <unordered_map>

namespace folio::structured {

namespace {

constexpr int kMaxElementDepth = 1000; // elements deeper than this are not searched

struct DocDeleter
{
    void operator()(xmlDoc *d) const { xmlFreeDoc(d); }
};

std::string attr(const xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetProp(n, reinterpret_cast<const xmlChar *>(name));
    if (!v)
        return {};
    std::string s(reinterpret_cast<const char *>(v));
    xmlFree(v);
    return s;
}

bool hasAttr(const xmlNode *n, const char *name)
{
    return xmlHasProp(n, reinterpret_cast<const xmlChar *>(name)) != nullptr;
}

std::string tagOf(const xmlNode *n)
{
    std::string t = n->name ? reinterpret_cast<const char *>(n->name) : "";
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return t;
}

// XPaths as xmlGetNodePath writes them ("/html/body/script[3]": a position where same-name
// siblings exist), in time linear in the page: each parent's element children are numbered once.
// xmlGetNodePath counts a node's siblings on every call, and a page of 20,000 JSON-LD blocks in
// one <body> spent seconds there (quadratic; 100,000 did not finish in 120 s).
class NodePaths
{
public:
    std::string of(const xmlNode *n)
    {
        if (!n || n->type != XML_ELEMENT_NODE)
            return libxmlPath(n);
        std::vector<const xmlNode *> chain; // n and its element ancestors, innermost first
        for (const xmlNode *a = n; a && a->type == XML_ELEMENT_NODE; a = a->parent)
            chain.push_back(a);
        std::string path;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it)
            path += '/' + step(*it);
        return path;
    }

private:
    static std::string libxmlPath(const xmlNode *n)
    {
        xmlChar *p = n ? xmlGetNodePath(n) : nullptr;
        if (!p)
            return {};
        std::string s(reinterpret_cast<const char *>(p));
        xmlFree(p);
        return s;
    }
    static std::string nameOf(const xmlNode *e)
    {
        std::string name = e->name ? reinterpret_cast<const char *>(e->name) : "";
        if (e->ns && e->ns->prefix)
            name = reinterpret_cast<const char *>(e->ns->prefix) + (':' + name);
        return name;
    }
    const std::string &step(const xmlNode *e)
    {
        const auto known = m_steps.find(e);
        if (known != m_steps.end())
            return known->second;
        // Number the element children of e's parent (or e's siblings when it has none).
        const xmlNode *first = e;
        if (e->parent)
            first = e->parent->children;
        else
            while (first->prev)
                first = first->prev;
        std::unordered_map<std::string, int> total, seen;
        for (const xmlNode *c = first; c; c = c->next)
            if (c->type == XML_ELEMENT_NODE)
                ++total[nameOf(c)];
        for (const xmlNode *c = first; c; c = c->next)
            if (c->type == XML_ELEMENT_NODE) {
                const std::string name = nameOf(c);
                const int position = ++seen[name];
                m_steps[c] = total[name] > 1 ? name + '[' + std::to_string(position) + ']' : name;
            }
        return m_steps[e];
    }

    std::unordered_map<const xmlNode *, std::string> m_steps;
};

// Text of a subtree, at most `cap` + 1 bytes (so the caller can tell it was too long).
void textOf(const xmlNode *n, std::string *out, std::size_t cap, int depth)
{
    for (const xmlNode *c = n->children; c && out->size() <= cap; c = c->next) {
        if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
            if (c->content)
                out->append(reinterpret_cast<const char *>(c->content));
            if (out->size() > cap)
                out->resize(cap + 1);
        } else if (c->type == XML_ELEMENT_NODE && depth < kMaxElementDepth) {
            const std::string t = tagOf(c);
            if (t != "script" && t != "style")
                textOf(c, out, cap, depth + 1);
        }
    }
}

std::vector<std::string> splitSpaces(const std::string &s)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (!cur.empty())
                out.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    if (!cur.empty())
        out.push_back(cur);
    return out;
}

enum class ItemSyntax { Microdata, Rdfa };

// Microdata / RDFa items as JSON-LD-shaped objects.
class ItemWalker
{
public:
    ItemWalker(ItemSyntax syntax, const StructuredLimits &limits, NodePaths &paths)
        : m_syntax(syntax), m_limits(limits), m_paths(paths) {}

    void walk(const xmlNode *n, nlohmann::json *item, int depth, std::string *itemPath)
    {
        for (const xmlNode *c = n->children; c; c = c->next) {
            if (c->type != XML_ELEMENT_NODE)
                continue;
            if (depth >= kMaxElementDepth) {
                m_tooDeep = true;
                continue;
            }
            element(c, item, depth + 1, itemPath);
        }
    }

    std::vector<std::pair<nlohmann::json, std::string>> topItems; // item, XPath of its element
    bool m_tooDeep = false;

private:
    void element(const xmlNode *e, nlohmann::json *item, int depth, std::string *itemPath)
    {
        const bool micro = m_syntax == ItemSyntax::Microdata;
        const std::vector<std::string> props = splitSpaces(attr(e, micro ? "itemprop" : "property"));
        const bool scope = micro ? hasAttr(e, "itemscope") : hasAttr(e, "typeof");
        if (scope) {
            nlohmann::json child = nlohmann::json::object();
            const std::string type = attr(e, micro ? "itemtype" : "typeof");
            child["@type"] = nlohmann::json::array();
            for (const auto &t : splitSpaces(type))
                child["@type"].push_back(t);
            std::string path = m_paths.of(e);
            walk(e, &child, depth, &path);
            if (item && !props.empty()) {
                for (const auto &p : props)
                    (*item)[p].push_back(child);
            } else if (int(topItems.size()) < 1000) {
                topItems.emplace_back(std::move(child), path);
            }
            return;
        }
        if (item && !props.empty()) {
            const std::string v = value(e);
            for (const auto &p : props)
                (*item)[p].push_back(v);
        }
        walk(e, item, depth, itemPath);
    }

    std::string value(const xmlNode *e) const
    {
        const std::string tag = tagOf(e);
        if (m_syntax == ItemSyntax::Rdfa)
            for (const char *a : {"content", "resource", "href", "src"})
                if (hasAttr(e, a))
                    return attr(e, a);
        if (tag == "meta" || hasAttr(e, "content"))
            return attr(e, "content");
        if (tag == "a" || tag == "link" || tag == "area")
            return attr(e, "href");
        if (tag == "img" || tag == "audio" || tag == "video" || tag == "source" || tag == "embed" || tag == "iframe")
            return attr(e, "src");
        if (tag == "object")
            return attr(e, "data");
        if (tag == "data" || tag == "meter")
            return attr(e, "value");
        if (tag == "time" && hasAttr(e, "datetime"))
            return attr(e, "datetime");
        std::string text;
        textOf(e, &text, m_limits.maxValueChars, 0);
        return text;
    }

    ItemSyntax m_syntax;
    const StructuredLimits &m_limits;
    NodePaths &m_paths;
};

// JSON-LD blocks and product meta tags, one pass over the elements.
struct PageScan
{
    std::vector<const xmlNode *> jsonLd, metas;
    bool tooDeep = false;

    void walk(const xmlNode *n, int depth)
    {
        for (const xmlNode *c = n->children; c; c = c->next) {
            if (c->type != XML_ELEMENT_NODE)
                continue;
            if (depth >= kMaxElementDepth) {
                tooDeep = true;
                continue;
            }
            const std::string t = tagOf(c);
            if (t == "script") {
                std::string type = attr(c, "type");
                std::transform(type.begin(), type.end(), type.begin(), [](unsigned char x) { return char(std::tolower(x)); });
                if (type.find("ld+json") != std::string::npos)
                    jsonLd.push_back(c);
            } else if (t == "meta") {
                metas.push_back(c);
            }
            walk(c, depth + 1);
        }
    }
};

void readJsonLdBlock(const xmlNode *script, int index, const QString &name, const StructuredLimits &limits, NodePaths &paths,
                     StructuredData *out, int *counter)
{
    std::string text;
    for (const xmlNode *c = script->children; c; c = c->next)
        if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content) {
            text.append(reinterpret_cast<const char *>(c->content));
            if (qint64(text.size()) > limits.maxJsonBytes)
                break;
        }
    const std::string where = name.toStdString() + ": JSON-LD block " + std::to_string(index + 1);
    if (qint64(text.size()) > limits.maxJsonBytes) {
        out->notes.push_back(where + " skipped: larger than " + std::to_string(limits.maxJsonBytes) + " bytes");
        return;
    }
    if (detail::jsonNestingDepth(text, limits.maxDepth) > limits.maxDepth) {
        out->notes.push_back(where + " skipped: nested deeper than " + std::to_string(limits.maxDepth));
        return;
    }
    // Pages often wrap JSON-LD in HTML comments or CDATA markers; drop them at both ends.
    auto trim = [&text] {
        const auto b = text.find_first_not_of(" \t\r\n");
        const auto e = text.find_last_not_of(" \t\r\n");
        text = b == std::string::npos ? std::string() : text.substr(b, e - b + 1);
    };
    trim();
    for (const std::string open : {"<!--", "//<![CDATA[", "<![CDATA["})
        if (text.rfind(open, 0) == 0) {
            text.erase(0, open.size());
            trim();
        }
    for (const std::string close : {"-->", "//]]>", "]]>"})
        if (text.size() >= close.size() && text.compare(text.size() - close.size(), close.size(), close) == 0) {
            text.resize(text.size() - close.size());
            trim();
        }
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded()) {
        out->notes.push_back(where + " skipped: not valid JSON");
        return;
    }
    ++out->jsonLdBlocks;
    detail::ProductSink sink{out, &limits, "json-ld", paths.of(script), counter, where};
    detail::collectProducts(json, sink);
}

void readMetaTags(const std::vector<const xmlNode *> &metas, const StructuredLimits &limits, NodePaths &paths,
                  StructuredData *out)
{
    static const std::vector<std::pair<const char *, const char *>> keys{
        {"og:price:amount", "price"},         {"product:price:amount", "price"},
        {"og:price:currency", "currency"},    {"product:price:currency", "currency"},
        {"og:availability", "availability"},  {"product:availability", "availability"},
        {"product:retailer_item_id", "sku"},  {"product:sku", "sku"},
        {"product:mfr_part_no", "mpn"},       {"product:brand", "brand"},
        {"og:brand", "brand"},                {"product:upc", "gtin"},
        {"product:ean", "gtin"},              {"product:gtin", "gtin"},
        {"og:title", "name"},
    };
    int counter = 0;
    detail::ProductSink sink{out, &limits, "meta", std::string(), &counter};
    for (const xmlNode *m : metas) {
        std::string key = attr(m, "property");
        if (key.empty())
            key = attr(m, "name");
        std::transform(key.begin(), key.end(), key.begin(), [](unsigned char x) { return char(std::tolower(x)); });
        for (const auto &[k, field] : keys)
            if (key == k) {
                sink.location = paths.of(m);
                detail::addCandidate(sink, field, attr(m, "content"), 0);
            }
    }
}

} // namespace

const std::vector<std::string> &productFieldNames()
{
    static const std::vector<std::string> names{"name", "price", "currency", "sku", "gtin", "mpn", "brand", "availability"};
    return names;
}

StructuredData readStructuredData(const QByteArray &html, const QString &name, const StructuredLimits &limits)
{
    StructuredData out;
    if (html.size() > limits.maxHtmlBytes) {
        out.notes.push_back(name.toStdString() + ": larger than the limit of " + std::to_string(limits.maxHtmlBytes)
                            + " bytes; no structured data read");
        return out;
    }
    if (html.isEmpty())
        return out;
    const HtmlCharset charset = detectHtmlCharset(html);
    const int parseOptions = HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_COMPACT | HTML_PARSE_NOERROR
        | HTML_PARSE_NOWARNING | XML_PARSE_HUGE;
    const int size = int(html.size() - charset.bomLength);
    std::unique_ptr<xmlDoc, DocDeleter> doc(
        htmlReadMemory(html.constData() + charset.bomLength, size, nullptr, charset.name.constData(), parseOptions));
    if (!doc) {
        out.notes.push_back(name.toStdString() + ": libxml2 could not parse the HTML");
        return out;
    }
    const xmlNode *root = reinterpret_cast<const xmlNode *>(doc.get());
    PageScan scan;
    scan.walk(root, 0);
    int jsonCounter = 0;
    NodePaths paths;
    for (int i = 0; i < int(scan.jsonLd.size()); ++i)
        readJsonLdBlock(scan.jsonLd[i], i, name, limits, paths, &out, &jsonCounter);
    for (ItemSyntax syntax : {ItemSyntax::Microdata, ItemSyntax::Rdfa}) {
        ItemWalker w(syntax, limits, paths);
        w.walk(root, nullptr, 0, nullptr);
        int counter = 0;
        for (const auto &[item, path] : w.topItems) {
            detail::ProductSink sink{&out, &limits, syntax == ItemSyntax::Microdata ? "microdata" : "rdfa", path, &counter};
            detail::collectProducts(item, sink);
        }
        scan.tooDeep = scan.tooDeep || w.m_tooDeep;
    }
    readMetaTags(scan.metas, limits, paths, &out);
    if (scan.tooDeep)
        out.notes.push_back(name.toStdString() + ": elements nested deeper than " + std::to_string(kMaxElementDepth)
                            + " were not searched for structured data");
    return out;
}

bool readStructuredDataFile(const QString &path, StructuredData *out, QString *error, const StructuredLimits &limits)
{
    QByteArray bytes;
    if (!readHtmlSource(path, limits.maxHtmlBytes, &bytes, error))
        return false;
    *out = readStructuredData(bytes, path, limits);
    return true;
}

ProductFields productFields(const StructuredData &data)
{
    ProductFields best;
    for (const char *source : {"json-ld", "microdata", "rdfa", "meta"})
        for (const auto &c : data.candidates)
            if (c.source == source && c.item == 0 && !best.count(c.field))
                best[c.field] = c;
    // a source whose first product has no value: later products of the most trusted source
    for (const char *source : {"json-ld", "microdata", "rdfa"})
        for (const auto &c : data.candidates)
            if (c.source == source && !best.count(c.field))
                best[c.field] = c;
    // A product sold in several offers (sizes, colours, sellers) is available when one of them is;
    // so is one whose variants are listed as products of the same name in the same source (a
    // shop with one Product per size).
    const auto availability = best.find("availability");
    if (availability != best.end() && benchmarkAvailability(availability->second.value) == "OutOfStock") {
        const StructuredValue chosen = availability->second;
        std::map<int, std::string> names; // item -> its first name, in the chosen source (one pass: linear)
        for (const auto &c : data.candidates)
            if (c.field == "name" && c.source == chosen.source)
                names.emplace(c.item, c.value);
        const auto nameOf = [&](int item) {
            const auto it = names.find(item);
            return it == names.end() ? std::string() : it->second;
        };
        const std::string name = nameOf(chosen.item);
        for (const auto &c : data.candidates)
            if (c.field == "availability" && c.source == chosen.source && benchmarkAvailability(c.value) == "InStock"
                && (c.item == chosen.item || (!name.empty() && nameOf(c.item) == name))) {
                availability->second = c;
                break;
            }
    }
    return best;
}

bool readPageWithStructuredData(const QString &path, PageWithStructuredData *out, QString *error)
{
    QByteArray bytes;
    if (!readHtmlSource(path, qint64(256) << 20, &bytes, error))
        return false;
    HtmlLoadResult loaded = loadHtmlBytes(bytes, path);
    if (!loaded.ok) {
        *error = loaded.error;
        return false;
    }
    out->document = std::move(loaded.document);
    out->warnings = loaded.warnings;
    out->data = readStructuredData(bytes, path);
    return true;
}

} // namespace folio::structured
