#include "document/structured/pricecandidates.h"

#include "document/structured/benchmarkscore.h"
#include "document/structured/candidatecontext.h"
#include "document/structured/normalise.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace folio::structured {

namespace {

bool isDigitChar(QChar c) { return c >= QLatin1Char('0') && c <= QLatin1Char('9'); }
bool isGroupSeparator(QChar c)
{
    return c == QLatin1Char(' ') || c == QLatin1Char('.') || c == QLatin1Char(',') || c == QChar(0x00A0)
           || c == QChar(0x202F) || c == QLatin1Char('\'');
}
bool isDecimalMark(QChar c) { return c == QLatin1Char('.') || c == QLatin1Char(','); }

int digitsAt(const QString &s, int i, int most)
{
    int n = 0;
    while (i + n < s.size() && n < most && isDigitChar(s[i + n]))
        ++n;
    return n;
}

// CJK currency signs written straight after the number ("2900원", "99元", "500円").
bool isGluedCurrency(QChar c) { return c == QChar(0xC6D0) || c == QChar(0x5143) || c == QChar(0x5186) || c == QChar(0x5713); }

bool endsNumber(const QString &s, int end) { return end >= s.size() || !isWordChar(s[end]) || isGluedCurrency(s[end]); }

// With an optional decimal part ([.,] then 2 or 1 digits, greedy), the first end followed by no word character.
std::optional<int> withDecimals(const QString &s, int end)
{
    if (end < s.size() && isDecimalMark(s[end])) {
        const int d = digitsAt(s, end + 1, 2);
        for (int k = d; k >= 1; --k)
            if (endsNumber(s, end + 1 + k))
                return end + 1 + k;
    }
    if (endsNumber(s, end))
        return end;
    return std::nullopt;
}

// End of an amount starting at `i` (a digit not preceded by a word character, '.' or ','), the
// first alternative that fits: \d{1,3}([sep]\d{3})+([.,]\d{1,2})? then \d+([.,]\d{1,2})?, each
// followed by no word character.
std::optional<int> amountEnd(const QString &s, int i)
{
    const int lead = digitsAt(s, i, 3);
    for (int k = lead; k >= 1; --k) {
        std::vector<int> groupEnds;
        int p = i + k;
        while (p + 4 <= s.size() && isGroupSeparator(s[p]) && digitsAt(s, p + 1, 3) == 3) {
            p += 4;
            groupEnds.push_back(p);
        }
        for (auto it = groupEnds.rbegin(); it != groupEnds.rend(); ++it)
            if (const auto e = withDecimals(s, *it))
                return e;
    }
    const int run = digitsAt(s, i, s.size());
    for (int k = run; k >= 1; --k)
        if (const auto e = withDecimals(s, i + k))
            return e;
    return std::nullopt;
}

bool hasCurrencySymbol(const QString &s)
{
    static const QString symbols = QStringLiteral("$€£¥₹₽₩₺₸₴₱฿₫₪");
    for (QChar c : s)
        if (symbols.contains(c))
            return true;
    return false;
}

const std::set<QString> &currencyWords()
{
    static const std::set<QString> words{
        "usd", "eur", "gbp", "chf", "sek", "nok", "dkk", "pln", "zł", "zl", "kr", "kč", "czk", "ft", "huf",
        "lei", "ron", "rub", "руб", "грн", "uah", "kzt", "тг", "tl", "try", "lv", "lek", "nt", "rs", "inr",
        "aed", "sar", "brl", "clp", "mxn", "cop", "ars", "pen", "aud", "cad", "nzd", "jpy", "cny", "krw",
        "din", "rsd", "bgn", "лв", "ден", "eu", "euro", "р", "₽", "kn", "hrk", "원", "元", "円", "圓"};
    return words;
}

// A currency symbol in text[from, to), or a whole letter run touching that range that is a currency word.
bool currencyNear(const QString &text, int from, int to)
{
    from = std::max(0, from);
    to = std::min<int>(int(text.size()), to);
    if (from >= to)
        return false;
    if (hasCurrencySymbol(text.mid(from, to - from)))
        return true;
    int i = from;
    while (i < to) {
        if (!text[i].isLetter()) {
            ++i;
            continue;
        }
        int a = i, b = i;
        while (a > 0 && text[a - 1].isLetter())
            --a;
        while (b < text.size() && text[b].isLetter())
            ++b;
        if (isGluedCurrency(text[i]))
            return true;
        if (currencyWords().count(text.mid(a, b - a).toLower()))
            return true;
        i = b;
    }
    return false;
}

const QRegularExpression &priceWords()
{
    static const QRegularExpression re(QStringLiteral("price|preis|prix|precio|prezzo|preco|preço|cena|цен|kaina|hind|fiyat"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}
const QRegularExpression &oldPriceWords()
{
    static const QRegularExpression re(
        QStringLiteral("old|was|strike|regular|list|before|crossed|compare|rrp|uvp|original|prev|instead|msrp|statt|avant"),
        QRegularExpression::CaseInsensitiveOption);
    return re;
}
const QRegularExpression &discountWords()
{
    static const QRegularExpression re(QStringLiteral("save|saving|discount|off|%|rabatt|remise|sconto|descuento"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}

// Units of measure: a number written before one is a quantity ("4,14 € / 100 ml", "100 Gramm"),
// never the amount of a price. Currency words that are also units ("ft") are not in the list.
const std::set<QString> &measureUnits()
{
    static const std::set<QString> units{
        "g", "gr", "gramm", "grams", "kg", "mg", "ml", "cl", "dl", "l", "ltr", "liter", "litre", "oz", "lb", "lbs",
        "mm", "cm", "m", "km", "stück", "stk", "pcs", "pieces", "mah", "gb", "tb", "mb", "ghz", "mhz", "hz"};
    return units;
}

// True when a unit of measure follows s[end...] after white space: a letter run in measureUnits()
// that ends before any other letter.
bool unitFollows(const QString &s, int end)
{
    int a = end;
    while (a < s.size() && (s[a] == QLatin1Char(' ') || s[a] == QChar(0x00A0) || s[a] == QChar(0x202F)))
        ++a;
    int b = a;
    while (b < s.size() && b - a <= 6 && s[b].isLetter()) // the longest unit has 6 letters
        ++b;
    return b > a && (b == s.size() || !s[b].isLetter()) && measureUnits().count(s.mid(a, b - a).toLower());
}

// Each node's index among its parent's children (-1 for the root): one pass over the Document.
std::vector<int> childPositions(const Document &doc)
{
    std::vector<int> position(doc.nodes.size(), -1);
    for (const Node &n : doc.nodes)
        for (std::size_t k = 0; k < n.children.size(); ++k)
            if (n.children[k] >= 0 && std::size_t(n.children[k]) < position.size())
                position[std::size_t(n.children[k])] = int(k);
    return position;
}

// True when s holds nothing but white space from `end` on (stops at the first other character).
bool onlySpaceAfter(const QString &s, int end)
{
    for (int i = end; i < s.size(); ++i)
        if (!s[i].isSpace())
            return false;
    return true;
}

// The cents of a price written "173<sup>34</sup>": the element right after the text node (white-space
// text between them skipped) is a <sup> whose whole text is two digits. Empty when it is not.
// `position`: childPositions(doc).
QString superscriptCents(const Document &doc, const std::vector<int> &position, int textNode)
{
    const Node &node = doc.nodes[std::size_t(textNode)];
    if (node.parent < 0 || position[std::size_t(textNode)] < 0)
        return {};
    const std::vector<int> &siblings = doc.nodes[std::size_t(node.parent)].children;
    auto it = siblings.begin() + position[std::size_t(textNode)];
    for (++it; it != siblings.end(); ++it) {
        const Node &next = doc.nodes[std::size_t(*it)];
        if (next.kind == NodeKind::Text && next.text.trimmed().isEmpty())
            continue;
        if (next.kind != NodeKind::Element || next.tag != QLatin1String("sup"))
            return {};
        const QString cents = leadingText(doc, *it, 8).trimmed();
        return cents.size() == 2 && isDigitChar(cents[0]) && isDigitChar(cents[1]) ? cents : QString();
    }
    return {};
}

struct Found
{
    int node, start, end, textIndex;
    std::string amount;
    bool superscriptCents = false; // the amount's decimals came from a following <sup>
};

} // namespace

const std::vector<std::string> &priceFeatureNames()
{
    static const std::vector<std::string> names{
        "currency_next_to_number", "currency_in_element", "decimal_part", "looks_like_year",
        "price_word_d0", "price_word_d1", "price_word_d2", "price_word_d3",
        "old_price_word_d0", "old_price_word_d1", "old_price_word_d2", "old_price_word_d3",
        "elsewhere_word_near", "elsewhere_word_far", "struck_through", "discount_words_in_node",
        "page_position", "log_candidate_index", "log_currency_rank", "log_amount_repeats",
        "equals_structured_price", "page_has_structured_price", "number_share_of_node", "log_node_length",
        "amount_zero", "amount_below_one", "log_amount", "after_h1", "log_nodes_after_h1", "percent_follows",
        "long_bare_number", "inside_link"};
    return names;
}

std::vector<PriceCandidate> findPriceCandidates(const Document &doc, const StructuredData &sd, int maxCandidates)
{
    std::set<std::string> structuredPrices;
    for (const StructuredValue &v : sd.candidates)
        if (v.field == "price")
            if (const auto c = canonicalDecimal(v.value))
                structuredPrices.insert(*c);

    // pass 1: the numbers, in document order
    std::vector<Found> found;
    std::vector<int> positions; // childPositions, built at the first amount
    const TextNodeOrder order = textNodeOrder(doc);
    const int textNodes = int(order.nodes.size()), h1At = order.h1At;
    for (int n : order.nodes) {
        if (int(found.size()) >= maxCandidates)
            break;
        const QString &s = doc.nodes[std::size_t(n)].text;
        for (int i = 0; i < s.size() && int(found.size()) < maxCandidates; ++i) {
            if (!isDigitChar(s[i]) || (i > 0 && (isWordChar(s[i - 1]) || isDecimalMark(s[i - 1]))))
                continue;
            const auto end = amountEnd(s, i);
            if (!end)
                continue;
            const QString number = s.mid(i, *end - i);
            const auto price = parsePrice(number.toStdString());
            if (price && !unitFollows(s, *end)) {
                Found f{n, i, *end, order.number[std::size_t(n)], price->amount};
                if (positions.empty())
                    positions = childPositions(doc);
                const QString cents = price->amount.find('.') == std::string::npos && onlySpaceAfter(s, *end)
                                          ? superscriptCents(doc, positions, n)
                                          : QString();
                if (!cents.isEmpty()) {
                    f.amount += "." + cents.toStdString();
                    f.superscriptCents = true;
                }
                found.push_back(std::move(f));
            }
            i = *end - 1;
        }
    }
    std::map<std::string, int> repeats; // canonical amount -> occurrences
    for (const Found &f : found)
        if (const auto c = canonicalDecimal(f.amount))
            ++repeats[*c];

    // pass 2: features
    std::vector<PriceCandidate> out;
    out.reserve(found.size());
    int currencySeen = 0;
    const double total = std::max(1, textNodes);
    for (std::size_t j = 0; j < found.size(); ++j) {
        const Found &f = found[j];
        const Node &textNode = doc.nodes[std::size_t(f.node)];
        const QString &s = textNode.text;
        const int element = textNode.parent;
        PriceCandidate c;
        c.node = f.node;
        c.start = f.start;
        c.end = f.end;
        c.text = s.mid(f.start, f.end - f.start).toStdString();
        c.value = f.amount;
        const bool currency = currencyNear(s, f.start - 4, f.start) || currencyNear(s, f.end, f.end + 4);
        if (currency)
            c.currency = detectCurrency(s.mid(std::max(0, f.start - 4), f.end - f.start + 8).toStdString());
        const bool currencyInElement = !currency && element >= 0 && currencyNear(leadingText(doc, element, 80), 0, 80);
        currencySeen += currency ? 1 : 0;
        static const QRegularExpression decimalTail(QStringLiteral("[.,]\\d{1,2}$"));
        const bool decimals = f.superscriptCents || matches(decimalTail, s.mid(f.start, f.end - f.start));
        const double amount = std::strtod(f.amount.c_str(), nullptr);
        const bool year = !currency && !decimals && amount >= 1900 && amount <= 2100;
        float price[4] = {0, 0, 0, 0}, old[4] = {0, 0, 0, 0};
        bool near = false;
        QString far;
        const std::vector<QString> chain = ancestorDescriptions(doc, f.node, 12);
        for (std::size_t d = 0; d < chain.size(); ++d) {
            far += chain[d] + QLatin1Char(' ');
            if (d < 4) {
                price[d] = matches(priceWords(), chain[d]) ? 1 : 0;
                old[d] = matches(oldPriceWords(), chain[d]) ? 1 : 0;
                near = near || matches(elsewhereWords(), chain[d]);
            }
        }
        const bool link = underTag(doc, f.node, 4, {"a"});
        const bool struck = underTag(doc, f.node, 4, {"del", "s", "strike"});
        const std::string canonical = canonicalDecimal(f.amount).value_or(std::string());
        const QString trimmed = s.trimmed();
        const bool afterH1 = h1At >= 0 && f.textIndex > h1At;
        c.features = {
            currency ? 1.f : 0.f,
            currencyInElement ? 1.f : 0.f,
            decimals ? 1.f : 0.f,
            year ? 1.f : 0.f,
            price[0], price[1], price[2], price[3],
            old[0], old[1], old[2], old[3],
            near ? 1.f : 0.f,
            matches(elsewhereWords(), far) ? 1.f : 0.f,
            struck ? 1.f : 0.f,
            matches(discountWords(), s) ? 1.f : 0.f,
            float(f.textIndex / total),
            float(std::log1p(double(j))),
            currency ? float(std::log1p(double(currencySeen))) : 0.f,
            float(std::log1p(double(canonical.empty() ? 0 : repeats[canonical]))),
            !canonical.empty() && structuredPrices.count(canonical) ? 1.f : 0.f,
            structuredPrices.empty() ? 0.f : 1.f,
            float(double(f.end - f.start) / std::max(1, int(trimmed.size()))),
            float(std::log1p(double(s.size()))),
            amount == 0 ? 1.f : 0.f,
            amount < 1 ? 1.f : 0.f,
            float(std::log1p(std::min(amount, 1e9))),
            afterH1 ? 1.f : 0.f,
            afterH1 ? float(std::log1p(double(f.textIndex - h1At))) : 0.f,
            f.end < s.size() && (s[f.end] == QLatin1Char('%') || (f.end + 1 < s.size() && s[f.end + 1] == QLatin1Char('%'))) ? 1.f : 0.f,
            !currency && f.end - f.start >= 5 && digitsAt(s, f.start, f.end - f.start) == f.end - f.start ? 1.f : 0.f,
            link ? 1.f : 0.f,
        };
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace folio::structured
