// The pre-tokenisers of a tokenizer.json, as the Hugging Face `tokenizers` library applies them
// (pre_tokenizers/*.rs): splitting by character classes with the library's delimiter behaviours,
// the GPT-2 pattern and byte-to-character mapping of ByteLevel, BERT's, Whitespace, Metaspace.
#include "inference/tokenizers/tokenizerjson_text.h"

#include "inference/errors.h"

#include <QChar>

#include <algorithm>
#include <vector>

namespace folio::inference::tokjson {

namespace {

// ---- splitting (the library's SplitDelimiterBehavior on a per-character pattern) ----------------

enum class Behavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

Behavior behaviorOf(const nlohmann::json &spec, const char *key, Behavior fallback, const std::string &file)
{
    if (!spec.contains(key) || spec[key].is_null())
        return fallback;
    const std::string b = spec[key].is_string() ? spec[key].get<std::string>() : std::string();
    if (b == "Removed") return Behavior::Removed;
    if (b == "Isolated") return Behavior::Isolated;
    if (b == "MergedWithPrevious") return Behavior::MergedWithPrevious;
    if (b == "MergedWithNext") return Behavior::MergedWithNext;
    if (b == "Contiguous") return Behavior::Contiguous;
    throw InferenceError(file + ": split behavior \"" + b + "\" is not one the library knows");
}

template <typename Pred>
std::vector<std::u32string> splitBy(const std::u32string &t, Pred isDelimiter, Behavior behavior)
{
    // Every matching character is its own piece; the runs between them are pieces too.
    struct Run { std::size_t b, e; bool match; };
    std::vector<Run> runs;
    std::size_t last = 0;
    for (std::size_t i = 0; i < t.size(); ++i)
        if (isDelimiter(t[i])) {
            if (last < i) runs.push_back({last, i, false});
            runs.push_back({i, i + 1, true});
            last = i + 1;
        }
    if (last < t.size()) runs.push_back({last, t.size(), false});
    std::vector<Run> out;
    switch (behavior) {
    case Behavior::Removed:
        for (const Run &r : runs)
            if (!r.match) out.push_back(r);
        break;
    case Behavior::Isolated:
        out = runs;
        break;
    case Behavior::MergedWithPrevious: {
        bool previousMatch = false;
        for (const Run &r : runs) {
            if (r.match && !previousMatch && !out.empty()) out.back().e = r.e;
            else out.push_back(r);
            previousMatch = r.match;
        }
        break;
    }
    case Behavior::MergedWithNext: {
        bool nextMatch = false;
        for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
            if (it->match && !nextMatch && !out.empty()) out.back().b = it->b;
            else out.push_back(*it);
            nextMatch = it->match;
        }
        std::reverse(out.begin(), out.end());
        break;
    }
    case Behavior::Contiguous: {
        bool previousMatch = false;
        for (const Run &r : runs) {
            if (r.match == previousMatch && !out.empty()) out.back().e = r.e;
            else out.push_back(r);
            previousMatch = r.match;
        }
        break;
    }
    }
    std::vector<std::u32string> pieces;
    for (const Run &r : out)
        if (r.e > r.b) pieces.push_back(t.substr(r.b, r.e - r.b));
    return pieces;
}

// ---- byte level -----------------------------------------------------------------------------------

const std::vector<char32_t> &byteChars()
{
    static const std::vector<char32_t> table = [] {
        std::vector<char32_t> t(256);
        char32_t extra = 0;
        for (unsigned b = 0; b < 256; ++b) {
            const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
            t[b] = printable ? char32_t(b) : char32_t(256 + extra++);
        }
        return t;
    }();
    return table;
}

bool isLetterCp(char32_t c) { return QChar::isLetter(c); }
bool isNumberCp(char32_t c) { return QChar::isNumber(c); }
bool isOtherCp(char32_t c) { return !isWhitespace(c) && !isLetterCp(c) && !isNumberCp(c); }

// 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
std::vector<std::u32string> gpt2Split(const std::u32string &t)
{
    std::vector<std::u32string> out;
    const std::size_t n = t.size();
    auto runOf = [&](std::size_t from, bool (*pred)(char32_t)) {
        std::size_t j = from;
        while (j < n && pred(t[j])) ++j;
        return j;
    };
    std::size_t i = 0;
    while (i < n) {
        std::size_t end = i;
        static const std::u32string contractions[] = {U"'s", U"'t", U"'re", U"'ve", U"'m", U"'ll", U"'d"};
        for (const std::u32string &c : contractions)
            if (t.compare(i, c.size(), c) == 0) {
                end = i + c.size();
                break;
            }
        if (end == i)
            for (bool (*pred)(char32_t) : {isLetterCp, isNumberCp, isOtherCp}) {
                const std::size_t from = (t[i] == U' ' && i + 1 < n && pred(t[i + 1])) ? i + 1 : i;
                if (pred(t[from])) {
                    end = runOf(from, pred);
                    break;
                }
            }
        if (end == i) {
            const std::size_t j = runOf(i, isWhitespace);
            end = (j == n || j - i == 1) ? j : j - 1;
        }
        out.push_back(t.substr(i, end - i));
        i = end;
    }
    return out;
}


} // namespace

std::string specType(const nlohmann::json &spec, const std::string &file, const char *what)
{
    if (!spec.is_object() || !spec.contains("type") || !spec["type"].is_string())
        throw InferenceError(file + ": " + what + " has no \"type\"");
    return spec["type"].get<std::string>();
}

bool boolField(const nlohmann::json &spec, const char *key, bool fallback, const std::string &file)
{
    if (!spec.contains(key) || spec[key].is_null())
        return fallback;
    if (!spec[key].is_boolean())
        throw InferenceError(file + ": field " + key + " is not true or false");
    return spec[key].get<bool>();
}

PreTokenizer makePreTokenizer(const nlohmann::json &spec, const std::string &file)
{
    if (spec.is_null())
        return [](const std::u32string &t, bool) { return std::vector<std::u32string>{t}; };
    const std::string type = specType(spec, file, "the pre_tokenizer");
    if (type == "Sequence") {
        if (!spec.contains("pretokenizers") || !spec["pretokenizers"].is_array())
            throw InferenceError(file + ": pre_tokenizer Sequence has no \"pretokenizers\" list");
        std::vector<PreTokenizer> parts;
        for (const auto &p : spec["pretokenizers"])
            parts.push_back(makePreTokenizer(p, file));
        return [parts](const std::u32string &t, bool atStart) {
            std::vector<std::u32string> pieces{t};
            for (const PreTokenizer &p : parts) {
                std::vector<std::u32string> next;
                for (std::size_t k = 0; k < pieces.size(); ++k) {
                    // Only a first piece that still begins the text begins the word.
                    const bool start = atStart && k == 0 && t.compare(0, pieces[k].size(), pieces[k]) == 0;
                    for (std::u32string &s : p(pieces[k], start))
                        next.push_back(std::move(s));
                }
                pieces = std::move(next);
            }
            return pieces;
        };
    }
    if (type == "ByteLevel") {
        const bool prefix = boolField(spec, "add_prefix_space", true, file), regex = boolField(spec, "use_regex", true, file);
        return [prefix, regex](const std::u32string &t, bool) {
            std::u32string s = t;
            if (prefix && (s.empty() || s.front() != U' '))
                s.insert(s.begin(), U' ');
            std::vector<std::u32string> pieces = regex ? gpt2Split(s) : std::vector<std::u32string>{s};
            for (std::u32string &p : pieces) {
                std::u32string mapped;
                for (const unsigned char byte : toUtf8(p))
                    mapped += byteChars()[byte];
                p = std::move(mapped);
            }
            return pieces;
        };
    }
    if (type == "BertPreTokenizer")
        return [](const std::u32string &t, bool) {
            std::vector<std::u32string> out;
            for (const std::u32string &w : splitBy(t, isWhitespace, Behavior::Removed))
                for (std::u32string &p : splitBy(w, isBertPunctuation, Behavior::Isolated))
                    out.push_back(std::move(p));
            return out;
        };
    if (type == "WhitespaceSplit")
        return [](const std::u32string &t, bool) { return splitBy(t, isWhitespace, Behavior::Removed); };
    if (type == "Whitespace") // \w+|[^\w\s]+
        return [](const std::u32string &t, bool) {
            std::vector<std::u32string> out;
            for (std::size_t i = 0; i < t.size();) {
                if (isWhitespace(t[i]) && !isWordChar(t[i])) {
                    ++i;
                    continue;
                }
                const bool word = isWordChar(t[i]);
                std::size_t j = i;
                while (j < t.size() && (word ? isWordChar(t[j]) : (!isWordChar(t[j]) && !isWhitespace(t[j])))) ++j;
                out.push_back(t.substr(i, j - i));
                i = j;
            }
            return out;
        };
    if (type == "Punctuation") {
        const Behavior b = behaviorOf(spec, "behavior", Behavior::Isolated, file);
        return [b](const std::u32string &t, bool) { return splitBy(t, isBertPunctuation, b); };
    }
    if (type == "Digits") {
        const bool individual = boolField(spec, "individual_digits", false, file);
        return [individual](const std::u32string &t, bool) {
            return splitBy(t, isNumeric, individual ? Behavior::Isolated : Behavior::Contiguous);
        };
    }
    if (type == "Metaspace") {
        std::u32string rep = U"\u2581";
        if (spec.contains("replacement")) {
            if (!spec["replacement"].is_string() || fromUtf8(spec["replacement"].get<std::string>()).size() != 1)
                throw InferenceError(file + ": Metaspace replacement is not one character");
            rep = fromUtf8(spec["replacement"].get<std::string>());
        }
        std::string scheme = "always";
        if (spec.contains("prepend_scheme") && spec["prepend_scheme"].is_string())
            scheme = spec["prepend_scheme"].get<std::string>();
        else if (spec.contains("add_prefix_space")) // files from before prepend_scheme
            scheme = boolField(spec, "add_prefix_space", true, file) ? "always" : "never";
        if (scheme != "always" && scheme != "first" && scheme != "never")
            throw InferenceError(file + ": Metaspace prepend_scheme \"" + scheme + "\" is not always, first or never");
        const bool split = boolField(spec, "split", true, file);
        const char32_t r = rep[0];
        // Each word is a sequence of its own: "first" prepends to the text that begins the word
        // (not to the text after an added token inside it).
        const bool always = scheme == "always", first = scheme == "first";
        return [r, always, first, split](const std::u32string &t, bool atStart) {
            std::u32string s = t;
            std::replace(s.begin(), s.end(), U' ', r);
            if ((always || (first && atStart)) && (s.empty() || s.front() != r))
                s.insert(s.begin(), r);
            if (!split)
                return std::vector<std::u32string>{s};
            return splitBy(s, [r](char32_t c) { return c == r; }, Behavior::MergedWithNext);
        };
    }
    throw InferenceError(file + ": pre_tokenizer \"" + type + "\" is not supported by Folio (supported: ByteLevel, "
                         "BertPreTokenizer, Whitespace, WhitespaceSplit, Metaspace, Punctuation, Digits, Sequence)");
}

} // namespace folio::inference::tokjson
