#include "document/structured/identifiercandidates.h"

#include "document/structured/candidatecontext.h"
#include "document/structured/normalise.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace folio::structured {

namespace {

constexpr int kMinLength = 3, kMaxLength = 40;

bool isTokenChar(QChar c) { return c.isLetterOrNumber(); }
bool isInnerMark(QChar c)
{
    return c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('.') || c == QLatin1Char('/');
}

// "SKU", "Art.-Nr.", "Artikelnummer", "Item #", "Model", "Ref.", "Product code", "Артикул", "ASIN"
// (Amazon's article number), ...
const QRegularExpression &labelWords()
{
    static const QRegularExpression re(
        QStringLiteral("sku|\\basin\\b|art(ikel)?[\\s.-]*n|artikel|item|model|ref|code|product\\s*(id|no|number|#)|part|mpn|"
                       "код|артикул|numer|kód|šifra|cikkszám|varenummer|varenr|tuotenumero|número|referencia|"
                       "référence|codice|article|prod|id\\b|no\\.|nr\\.?|#"),
        QRegularExpression::CaseInsensitiveOption);
    return re;
}

const QRegularExpression &labelAttributes()
{
    static const QRegularExpression re(QStringLiteral("sku|product-?id|productid|ref|code|model|article|item-?(number|no|id)|part|mpn"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}

struct Token
{
    int node, start, end, number;
};

} // namespace

const std::vector<std::string> &identifierFeatureNames()
{
    static const std::vector<std::string> names{
        "label_before_in_node", "label_in_previous_node", "label_attribute_d0", "label_attribute_d1_3",
        "equals_structured_sku", "equals_structured_mpn", "equals_structured_gtin", "page_has_structured_sku",
        "digit_share", "has_letters", "has_inner_mark", "log_length", "all_digits", "valid_gtin",
        "upper_share", "alone_in_node", "log_repeats", "page_position", "after_h1", "inside_link",
        "elsewhere_word_near", "price_like", "year_like", "log_candidate_index"};
    return names;
}

std::vector<TextCandidate> findIdentifierCandidates(const Document &doc, const StructuredData &sd, int maxCandidates)
{
    std::set<std::string> skus, mpns, gtins;
    for (const StructuredValue &v : sd.candidates) {
        if (v.field == "sku")
            skus.insert(v.value), skus.insert(v.raw);
        else if (v.field == "mpn")
            mpns.insert(v.value), mpns.insert(v.raw);
        else if (v.field == "gtin")
            gtins.insert(v.value), gtins.insert(v.raw);
    }
    const TextNodeOrder order = textNodeOrder(doc);
    std::vector<Token> tokens;
    for (int n : order.nodes) {
        const QString &s = doc.nodes[std::size_t(n)].text;
        for (int i = 0; i < s.size() && int(tokens.size()) < maxCandidates;) {
            if (!isTokenChar(s[i])) {
                ++i;
                continue;
            }
            int e = i;
            while (e < s.size() && (isTokenChar(s[e]) || (isInnerMark(s[e]) && e + 1 < s.size() && isTokenChar(s[e + 1]))))
                ++e;
            const QString t = s.mid(i, e - i);
            const bool digit = std::any_of(t.begin(), t.end(), [](QChar c) { return c.isDigit(); });
            if (digit && t.size() >= kMinLength && t.size() <= kMaxLength)
                tokens.push_back({n, i, e, order.number[std::size_t(n)]});
            i = e;
        }
    }
    std::map<QString, int> repeats;
    for (const Token &t : tokens)
        ++repeats[doc.nodes[std::size_t(t.node)].text.mid(t.start, t.end - t.start)];
    static const QRegularExpression priceShape(QStringLiteral("^\\d{1,3}([.,\\s]\\d{3})*[.,]\\d{2}$"));
    static const QRegularExpression yearShape(QStringLiteral("^(19|20)\\d\\d$|^\\d{1,2}[./-]\\d{1,2}[./-]\\d{2,4}$"));
    const double total = std::max<std::size_t>(1, order.nodes.size());
    std::vector<TextCandidate> out;
    out.reserve(tokens.size());
    for (std::size_t j = 0; j < tokens.size(); ++j) {
        const Token &t = tokens[j];
        const QString &s = doc.nodes[std::size_t(t.node)].text;
        const QString token = s.mid(t.start, t.end - t.start);
        TextCandidate c;
        c.node = t.node;
        c.start = t.start;
        c.end = t.end;
        c.text = token.toStdString();
        c.value = c.text;
        const QString before = s.mid(std::max(0, t.start - 30), std::min(30, t.start));
        QString previous;
        if (before.trimmed().isEmpty() && t.number >= 2)
            previous = doc.nodes[std::size_t(order.nodes[std::size_t(t.number - 2)])].text.right(30);
        const std::vector<QString> chain = ancestorDescriptions(doc, t.node, 4);
        bool attr0 = !chain.empty() && matches(labelAttributes(), chain[0]), attrUp = false, near = false;
        for (std::size_t d = 0; d < chain.size(); ++d) {
            attrUp = attrUp || (d > 0 && matches(labelAttributes(), chain[d]));
            near = near || matches(elsewhereWords(), chain[d]);
        }
        int digits = 0, letters = 0, upper = 0;
        for (QChar ch : token) {
            digits += ch.isDigit() ? 1 : 0;
            letters += ch.isLetter() ? 1 : 0;
            upper += ch.isUpper() ? 1 : 0;
        }
        const bool allDigits = digits == token.size();
        const bool mark = std::any_of(token.begin(), token.end(), isInnerMark);
        const bool afterH1 = order.h1At >= 0 && t.number > order.h1At;
        c.features = {
            matches(labelWords(), before) ? 1.f : 0.f,
            matches(labelWords(), previous) ? 1.f : 0.f,
            attr0 ? 1.f : 0.f,
            attrUp ? 1.f : 0.f,
            skus.count(c.text) ? 1.f : 0.f,
            mpns.count(c.text) ? 1.f : 0.f,
            gtins.count(c.text) ? 1.f : 0.f,
            skus.empty() ? 0.f : 1.f,
            float(double(digits) / token.size()),
            letters > 0 ? 1.f : 0.f,
            mark ? 1.f : 0.f,
            float(std::log1p(double(token.size()))),
            allDigits ? 1.f : 0.f,
            allDigits && isValidGtin(c.text) ? 1.f : 0.f,
            letters > 0 ? float(double(upper) / letters) : 0.f,
            token == s.trimmed() ? 1.f : 0.f,
            float(std::log1p(double(repeats[token]))),
            float(t.number / total),
            afterH1 ? 1.f : 0.f,
            underTag(doc, t.node, 4, {"a"}) ? 1.f : 0.f,
            near ? 1.f : 0.f,
            matches(priceShape, token) ? 1.f : 0.f,
            matches(yearShape, token) ? 1.f : 0.f,
            float(std::log1p(double(j))),
        };
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace folio::structured
