#include "document/structured/normalise.h"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace folio::structured {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

std::string lowerAscii(std::string s)
{
    for (char &c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Group separators that are never a decimal mark: ASCII space, NBSP (C2 A0), narrow NBSP
// (E2 80 AF), thin space (E2 80 89), apostrophes (' and U+2019 E2 80 99). Returns its byte length.
std::size_t groupSeparatorAt(const std::string &s, std::size_t i)
{
    const auto u = [&](std::size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
    if (s[i] == ' ' || s[i] == '\'')
        return 1;
    if (u(i) == 0xC2 && u(i + 1) == 0xA0)
        return 2;
    if (u(i) == 0xE2 && u(i + 1) == 0x80 && (u(i + 2) == 0xAF || u(i + 2) == 0x89 || u(i + 2) == 0x99))
        return 3;
    return 0;
}

struct CurrencyToken
{
    const char *token;
    const char *iso;
};

// Longest tokens first so "US$" wins over "$" and "R$" over "$".
const std::vector<CurrencyToken> &currencyTokens()
{
    static const std::vector<CurrencyToken> tokens{
        {"US$", "USD"}, {"CA$", "CAD"}, {"C$", "CAD"},  {"A$", "AUD"},  {"AU$", "AUD"}, {"NZ$", "NZD"},
        {"HK$", "HKD"}, {"R$", "BRL"},  {"S$", "SGD"},  {"€", "EUR"},   {"£", "GBP"},   {"¥", "JPY"},
        {"₹", "INR"},   {"₽", "RUB"},   {"₩", "KRW"},   {"₺", "TRY"},   {"₪", "ILS"},   {"zł", "PLN"},
        {"Kč", "CZK"},  {"Ft", "HUF"},  {"lei", "RON"}, {"руб", "RUB"}, {"$", "USD"},
    };
    return tokens;
}

const std::vector<std::string> &isoCodes()
{
    static const std::vector<std::string> codes{
        "USD", "EUR", "GBP", "JPY", "CNY", "INR", "CAD", "AUD", "NZD", "CHF", "SEK", "NOK", "DKK", "PLN",
        "CZK", "HUF", "RON", "BGN", "RUB", "TRY", "BRL", "MXN", "ARS", "CLP", "COP", "ZAR", "SGD", "HKD",
        "KRW", "TWD", "THB", "MYR", "IDR", "PHP", "VND", "ILS", "AED", "SAR", "EGP", "UAH", "ISK",
    };
    return codes;
}

} // namespace

std::string cleanText(const std::string &text, std::size_t maxChars)
{
    std::string out;
    bool space = false;
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const bool ws = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
        const bool nbsp = c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xA0;
        if (ws || nbsp) {
            space = !out.empty();
            i += nbsp ? 2 : 1;
            continue;
        }
        if (space)
            out.push_back(' ');
        space = false;
        out.push_back(char(c));
        ++i;
        if (out.size() >= maxChars)
            break;
    }
    // never end inside a UTF-8 sequence
    while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) {
        std::size_t k = out.size();
        while (k > 0 && (static_cast<unsigned char>(out[k - 1]) & 0xC0) == 0x80)
            --k;
        if (k == 0)
            break;
        const unsigned char lead = static_cast<unsigned char>(out[k - 1]);
        const std::size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        if (out.size() - (k - 1) >= need)
            break;
        out.resize(k - 1);
    }
    if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0)
        out.pop_back();
    return out;
}

std::string detectCurrency(const std::string &text)
{
    for (const auto &code : isoCodes()) {
        std::size_t pos = text.find(code);
        while (pos != std::string::npos) {
            const bool left = pos == 0 || !std::isalpha(static_cast<unsigned char>(text[pos - 1]));
            const bool right = pos + 3 >= text.size() || !std::isalpha(static_cast<unsigned char>(text[pos + 3]));
            if (left && right)
                return code;
            pos = text.find(code, pos + 1);
        }
    }
    for (const auto &t : currencyTokens())
        if (text.find(t.token) != std::string::npos)
            return t.iso;
    const std::string low = lowerAscii(text);
    if (low.find("kr") != std::string::npos)
        return "SEK";
    return {};
}

std::string priceNotationProblem(const std::string &text)
{
    // Only the number parsePrice would read: the first run of digits and marks.
    std::size_t start = 0;
    while (start < text.size() && !isDigit(text[start]))
        ++start;
    if (start == text.size())
        return {};
    std::size_t end = start;
    while (end < text.size() && (isDigit(text[end]) || text[end] == '.' || text[end] == ','))
        ++end;
    const auto hex = [](char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); };
    if (end == start + 1 && text[start] == '0' && end + 1 < text.size() && (text[end] == 'x' || text[end] == 'X')
        && hex(text[end + 1]))
        return "a hexadecimal number, not a price";
    if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
        std::size_t k = end + 1;
        if (k < text.size() && (text[k] == '+' || text[k] == '-'))
            ++k;
        if (k < text.size() && isDigit(text[k]))
            return "a number in exponent notation, not a price";
    }
    return {};
}

std::optional<PriceValue> parsePrice(const std::string &text)
{
    if (text.size() > 4096 || !priceNotationProblem(text).empty())
        return std::nullopt;
    // The first run of digits and separators.
    std::size_t start = 0;
    while (start < text.size() && !isDigit(text[start]))
        ++start;
    if (start == text.size())
        return std::nullopt;
    // A leading ".99" / ",99"
    const bool leadingMark = start > 0 && (text[start - 1] == '.' || text[start - 1] == ',')
        && (start < 2 || !isDigit(text[start - 2]));
    std::string run;       // digits and the marks '.' ','
    std::size_t i = start;
    while (i < text.size()) {
        const char c = text[i];
        if (isDigit(c) || c == '.' || c == ',') {
            run.push_back(c);
            ++i;
            continue;
        }
        const std::size_t g = groupSeparatorAt(text, i);
        if (g && !run.empty() && isDigit(run.back()) && i + g + 2 < text.size() + 0 && isDigit(text[i + g])
            && isDigit(text[i + g + 1]) && isDigit(text[i + g + 2])
            && (i + g + 3 >= text.size() || !isDigit(text[i + g + 3]))) {
            i += g; // "1 234" / "1'234": grouping
            continue;
        }
        break;
    }
    while (!run.empty() && !isDigit(run.back()))
        run.pop_back();
    if (leadingMark)
        run.insert(run.begin(), '.');
    const auto lastDot = run.rfind('.'), lastComma = run.rfind(',');
    char decimalMark = 0;
    if (lastDot != std::string::npos && lastComma != std::string::npos) {
        decimalMark = lastDot > lastComma ? '.' : ',';
    } else if (lastDot != std::string::npos || lastComma != std::string::npos) {
        const char mark = lastDot != std::string::npos ? '.' : ',';
        const std::size_t last = std::max(lastDot == std::string::npos ? 0 : lastDot, lastComma == std::string::npos ? 0 : lastComma);
        const std::size_t count = std::count(run.begin(), run.end(), mark);
        const std::size_t after = run.size() - last - 1;
        const bool thousands = (after == 3 && last > 0) || count > 1;
        decimalMark = thousands ? 0 : mark;
    }
    std::string amount;
    for (std::size_t k = 0; k < run.size(); ++k) {
        const char c = run[k];
        if (isDigit(c))
            amount.push_back(c);
        else if (c == decimalMark && k == (decimalMark == '.' ? lastDot : lastComma))
            amount.push_back('.');
    }
    if (amount.empty() || amount == ".")
        return std::nullopt;
    if (amount.front() == '.')
        amount.insert(amount.begin(), '0');
    // drop leading zeros of the integer part ("007.5" -> "7.5")
    while (amount.size() > 1 && amount[0] == '0' && isDigit(amount[1]))
        amount.erase(0, 1);
    if (amount.size() > 32)
        return std::nullopt;
    return PriceValue{amount, detectCurrency(text)};
}

std::string normaliseAvailability(const std::string &text)
{
    std::string t = lowerAscii(cleanText(text, 200));
    for (const char *prefix : {"https://schema.org/", "http://schema.org/", "schema:", "https://schema.org", "http://schema.org"})
        if (t.rfind(prefix, 0) == 0)
            t = t.substr(std::string(prefix).size());
    std::string key;
    for (char c : t)
        if (std::isalnum(static_cast<unsigned char>(c)))
            key.push_back(c);
    static const std::vector<std::pair<std::string, std::string>> names{
        {"instock", "InStock"}, {"outofstock", "OutOfStock"}, {"preorder", "PreOrder"}, {"presale", "PreOrder"},
        {"backorder", "BackOrder"}, {"discontinued", "Discontinued"}, {"limitedavailability", "LimitedAvailability"},
        {"soldout", "SoldOut"}, {"onlineonly", "OnlineOnly"}, {"instoreonly", "InStoreOnly"},
        {"available", "InStock"}, {"availableforsale", "InStock"}, {"inventory", "InStock"}, {"true", "InStock"},
        {"unavailable", "OutOfStock"}, {"notavailable", "OutOfStock"}, {"currentlyunavailable", "OutOfStock"},
        {"false", "OutOfStock"}, {"oos", "OutOfStock"}, {"outofstockonline", "OutOfStock"},
    };
    for (const auto &[k, v] : names)
        if (key == k)
            return v;
    // page texts (lower case, UTF-8)
    static const std::vector<std::pair<std::string, std::string>> phrases{
        {"out of stock", "OutOfStock"}, {"sold out", "SoldOut"}, {"currently unavailable", "OutOfStock"},
        {"no longer available", "Discontinued"}, {"ausverkauft", "SoldOut"}, {"nicht verfügbar", "OutOfStock"},
        {"nicht lieferbar", "OutOfStock"}, {"épuisé", "SoldOut"}, {"rupture de stock", "OutOfStock"},
        {"esaurito", "SoldOut"}, {"non disponibile", "OutOfStock"}, {"agotado", "SoldOut"},
        {"no disponible", "OutOfStock"}, {"uitverkocht", "SoldOut"}, {"niet op voorraad", "OutOfStock"},
        {"in stock", "InStock"}, {"auf lager", "InStock"}, {"en stock", "InStock"}, {"disponibile", "InStock"},
        {"op voorraad", "InStock"}, {"lieferbar", "InStock"}, {"disponible", "InStock"},
    };
    if (t.size() <= 80)
        for (const auto &[p, v] : phrases)
            if (t.find(p) != std::string::npos)
                return v;
    return {};
}

std::string benchmarkAvailability(const std::string &schemaName)
{
    if (schemaName == "OutOfStock" || schemaName == "SoldOut" || schemaName == "Discontinued")
        return "OutOfStock";
    return "InStock";
}

bool isValidGtin(const std::string &digits)
{
    const std::size_t n = digits.size();
    if (n != 8 && n != 12 && n != 13 && n != 14)
        return false;
    if (!std::all_of(digits.begin(), digits.end(), isDigit))
        return false;
    // GS1: from the right, excluding the check digit, weights 3,1,3,1,...
    int sum = 0;
    for (std::size_t k = 0; k + 1 < n; ++k) {
        const int d = digits[n - 2 - k] - '0';
        sum += (k % 2 == 0) ? 3 * d : d;
    }
    return (10 - sum % 10) % 10 == digits[n - 1] - '0';
}

std::optional<std::string> normaliseGtin(const std::string &text)
{
    if (text.size() > 64)
        return std::nullopt;
    std::string digits;
    for (char c : text) {
        if (isDigit(c))
            digits.push_back(c);
        else if (c != ' ' && c != '-')
            return std::nullopt;
    }
    if (!isValidGtin(digits))
        return std::nullopt;
    return digits;
}

std::optional<std::string> normaliseIdentifier(const std::string &text)
{
    if (text.size() > 1000)
        return std::nullopt;
    std::string s = cleanText(text, 1000);
    while (!s.empty() && (s.front() == '"' || s.front() == '\''))
        s.erase(0, 1);
    while (!s.empty() && (s.back() == '"' || s.back() == '\''))
        s.pop_back();
    if (s.empty() || s.size() > 64)
        return std::nullopt;
    return s;
}

} // namespace folio::structured
