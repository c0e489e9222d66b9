#pragma once
// Internal to tokenizer_json*.cpp (tokenizer_bpe.cpp shares the UTF-8 conversions): code-point text, the character classes the Hugging Face
// `tokenizers` library uses (Rust's char methods and the unicode_categories crate, through QChar),
// and the normalisers and pre-tokenisers of a tokenizer.json (tokenizerjson.h lists them).

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace folio::inference::tokjson {

std::u32string fromUtf8(const std::string &utf8);
std::string toUtf8(const std::u32string &text);
std::string toUtf8(const std::u32string &text, std::size_t begin, std::size_t end); // [begin, end)

bool isWhitespace(char32_t c);   // Rust char::is_whitespace (White_Space)
bool isControl(char32_t c);      // unicode_categories is_other (Cc, Cf, Co, Cs; not Cn)
bool isPunctuation(char32_t c);  // unicode_categories is_punctuation (P*)
bool isBertPunctuation(char32_t c); // ASCII punctuation or P*
bool isNumeric(char32_t c);      // Rust char::is_numeric (Nd, Nl, No)
bool isAlphanumeric(char32_t c); // Rust char::is_alphanumeric
bool isNonSpacingMark(char32_t c);
bool isWordChar(char32_t c);     // the regex crate's \w
bool isCjk(char32_t c);          // BERT's CJK ideograph ranges
std::u32string lowercase(const std::u32string &text); // char by char, full mappings (İ -> i̇)

// A normaliser of tokenizer.json (null: none). Throws InferenceError naming `file` and the
// unsupported type or malformed field.
using Normalizer = std::function<void(std::u32string &)>;
Normalizer makeNormalizer(const nlohmann::json &spec, const std::string &file);

// A pre-tokeniser of tokenizer.json (null: the text whole). atStart: the text begins the word (the
// library's offsets_original().0 == 0; Metaspace's "first"). Throws as makeNormalizer does.
using PreTokenizer = std::function<std::vector<std::u32string>(const std::u32string &, bool atStart)>;
PreTokenizer makePreTokenizer(const nlohmann::json &spec, const std::string &file);

// Fields of a tokenizer.json object: its "type" (InferenceError naming `what` when absent), and a
// boolean that may be absent or null (fallback) but nothing else.
std::string specType(const nlohmann::json &spec, const std::string &file, const char *what);
bool boolField(const nlohmann::json &spec, const char *key, bool fallback, const std::string &file);

} // namespace folio::inference::tokjson
