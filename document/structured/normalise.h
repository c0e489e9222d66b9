#pragma once
// Normalising product values found in pages or structured data (pure functions, never throw).
//
//  - Prices: "$1,234.50", "1.234,50 €", "EUR 12,-", "1 299,00 zł", "CHF 1'234.–", "12.99 USD",
//    "from 9.99" -> amount "1234.50" (decimal point, no thousands separators, the digits given) and
//    currency "USD"/"EUR"/... when a symbol or ISO code is present. Separator rule: when both ','
//    and '.' occur, the last one is the decimal mark; a single kind of mark followed by exactly
//    three digits (once, or repeated as groups) is a thousands separator; otherwise it is the
//    decimal mark. Spaces, NBSP, thin spaces and apostrophes between digit groups are thousands
//    separators. The first number in the text is used; text without digits gives nothing.
//  - Currencies: ISO 4217 codes (a fixed list of the common ones) and symbols ($ US$ € £ ¥ ₹ zł
//    kr Kč Ft R$ ₽ ₩ ₺ ...); "$" alone is USD.
//  - Availability: schema.org item-availability values as URLs or bare names (any case, http or
//    https, "in_stock"/"in stock"/"instock"), and common page texts in en/de/fr/it/es/nl ->
//    "InStock", "OutOfStock", "PreOrder", "BackOrder", "Discontinued", "LimitedAvailability",
//    "SoldOut", "OnlineOnly", "InStoreOnly"; benchmarkAvailability() folds them to the benchmark's
//    two classes (OutOfStock, SoldOut, Discontinued -> OutOfStock; everything else InStock).
//  - Identifiers: GTIN-8/12/13/14 (spaces and hyphens dropped, GS1 check digit verified; an
//    ISBN-13 is a GTIN-13); sku / mpn trimmed of white space and quotes, inner white space runs made
//    one space, empty or over 64 characters refused.

#include <optional>
#include <string>

namespace folio::structured {

struct PriceValue
{
    std::string amount;   // "1234.50"
    std::string currency; // ISO code, empty when none was recognised
};

// Refuses (std::nullopt) text without digits, over 4096 bytes, or a number in a notation a price
// is never written in (priceNotationProblem).
std::optional<PriceValue> parsePrice(const std::string &text);
// Why `text` holds a number that is not a price: exponent notation ("1e308", "2.5E-3") or a
// hexadecimal number ("0x1p3", "0xFF"); empty when it holds neither. Read digit by digit these
// became "1" and "0", so they are refused instead (issue 36).
std::string priceNotationProblem(const std::string &text);
// ISO code of a currency symbol or code anywhere in `text` (empty when none).
std::string detectCurrency(const std::string &text);
// Schema.org availability name, empty when `text` is not recognised.
std::string normaliseAvailability(const std::string &text);
// "InStock" or "OutOfStock" (empty input: "InStock", the benchmark's default).
std::string benchmarkAvailability(const std::string &schemaName);
// True when the GS1 check digit of an 8/12/13/14-digit string is right.
bool isValidGtin(const std::string &digits);
// Digits of a valid GTIN, else nullopt.
std::optional<std::string> normaliseGtin(const std::string &text);
std::optional<std::string> normaliseIdentifier(const std::string &text);
// Trim + collapse white space (ASCII and NBSP), at most maxChars (UTF-8 safe cut).
std::string cleanText(const std::string &text, std::size_t maxChars = 1000);

} // namespace folio::structured
