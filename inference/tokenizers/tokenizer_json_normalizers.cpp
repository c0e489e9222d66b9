// The normalisers of a tokenizer.json, as the Hugging Face `tokenizers` library applies them
// (normalizers/*.rs and the spm_precompiled crate), on code points. Qt gives the Unicode data.
#include "inference/tokenizers/tokenizerjson_text.h"

#include "inference/errors.h"

#include <QByteArray>
#include <QChar>
#include <QRegularExpression>
#include <QString>
#include <QTextBoundaryFinder>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace folio::inference::tokjson {

// Decoded here, not through QString::fromUtf8 / fromUcs4, whose decoders drop a byte-order mark
// (U+FEFF), which the library keeps as a character. Malformed bytes become U+FFFD.
std::u32string fromUtf8(const std::string &utf8)
{
    std::u32string out;
    out.reserve(utf8.size());
    const auto *p = reinterpret_cast<const unsigned char *>(utf8.data());
    const std::size_t n = utf8.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned char b = p[i];
        int len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
        char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
        bool ok = len > 0 && i + std::size_t(len) <= n;
        for (int k = 1; ok && k < len; ++k) {
            if ((p[i + std::size_t(k)] & 0xC0) != 0x80)
                ok = false;
            else
                cp = (cp << 6) | (p[i + std::size_t(k)] & 0x3F);
        }
        static const char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
        if (ok && (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)))
            ok = false;
        if (!ok) {
            out += char32_t(0xFFFD);
            ++i;
            continue;
        }
        out += cp;
        i += std::size_t(len);
    }
    return out;
}

namespace {

QString toQString(const std::u32string &t)
{
    QString s;
    s.reserve(qsizetype(t.size()));
    for (const char32_t c : t) {
        if (QChar::requiresSurrogates(c)) {
            s += QChar(QChar::highSurrogate(c));
            s += QChar(QChar::lowSurrogate(c));
        } else {
            s += QChar(char16_t(c));
        }
    }
    return s;
}
std::u32string fromQString(const QString &s)
{
    const QList<uint> ucs4 = s.toUcs4();
    return std::u32string(ucs4.begin(), ucs4.end());
}

} // namespace

std::string toUtf8(const std::u32string &text, std::size_t begin, std::size_t end)
{
    std::string s;
    for (std::size_t i = begin; i < end; ++i) {
        const char32_t cp = text[i];
        if (cp < 0x80) {
            s += char(cp);
        } else if (cp < 0x800) {
            s += char(0xC0 | (cp >> 6));
            s += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            s += char(0xE0 | (cp >> 12));
            s += char(0x80 | ((cp >> 6) & 0x3F));
            s += char(0x80 | (cp & 0x3F));
        } else {
            s += char(0xF0 | (cp >> 18));
            s += char(0x80 | ((cp >> 12) & 0x3F));
            s += char(0x80 | ((cp >> 6) & 0x3F));
            s += char(0x80 | (cp & 0x3F));
        }
    }
    return s;
}

std::string toUtf8(const std::u32string &text) { return toUtf8(text, 0, text.size()); }

bool isWhitespace(char32_t c) { return QChar::isSpace(c); }
bool isControl(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Other_Surrogate:
    case QChar::Other_PrivateUse:
        return true; // not Cn: the crate's is_other leaves unassigned code points (and Qt 6.4's
                     // tables know nothing after Unicode 14, e.g. U+1FAE8) alone, as the library does
    default:
        return false;
    }
}
bool isPunctuation(char32_t c) { return QChar::isPunct(c); }
bool isBertPunctuation(char32_t c)
{
    const bool asciiPunct = (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
    return asciiPunct || isPunctuation(c);
}
bool isNumeric(char32_t c) { return QChar::isNumber(c); }
bool isAlphanumeric(char32_t c) { return QChar::isLetterOrNumber(c); }
bool isNonSpacingMark(char32_t c) { return QChar::category(c) == QChar::Mark_NonSpacing; }
bool isWordChar(char32_t c)
{
    return QChar::isLetterOrNumber(c) || QChar::isMark(c) || QChar::category(c) == QChar::Punctuation_Connector
           || c == 0x200C || c == 0x200D;
}
bool isCjk(char32_t c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF)
           || (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF)
           || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

std::u32string lowercase(const std::u32string &text)
{
    std::u32string out;
    out.reserve(text.size());
    for (const char32_t c : text) {
        if (c < 0x80) {
            out += (c >= 'A' && c <= 'Z') ? char32_t(c + 32) : c;
            continue;
        }
        out += fromQString(toQString(std::u32string(1, c)).toLower());
    }
    return out;
}

namespace {

std::u32string normalizedForm(const std::u32string &t, QString::NormalizationForm form)
{
    return fromQString(toQString(t).normalized(form));
}

std::string typeOf(const nlohmann::json &spec, const std::string &file, const char *what)
{
    if (!spec.is_object() || !spec.contains("type") || !spec["type"].is_string())
        throw InferenceError(file + ": " + what + " has no \"type\"");
    return spec["type"].get<std::string>();
}

bool flag(const nlohmann::json &spec, const char *key, bool fallback, const std::string &file)
{
    if (!spec.contains(key) || spec[key].is_null())
        return fallback;
    if (!spec[key].is_boolean())
        throw InferenceError(file + ": normalizer field " + key + " is not true or false");
    return spec[key].get<bool>();
}

std::string text(const nlohmann::json &spec, const char *key, const std::string &file)
{
    if (!spec.contains(key) || !spec[key].is_string())
        throw InferenceError(file + ": normalizer field " + key + " is not a string");
    return spec[key].get<std::string>();
}

// SentencePiece's compiled character map (the spm_precompiled crate): a little-endian u32 with the
// trie's size in bytes, a darts-clone double array of u32 units, then NUL-terminated replacements.
class PrecompiledMap
{
public:
    PrecompiledMap(const QByteArray &bytes, const std::string &file)
    {
        if (bytes.size() < 4)
            throw InferenceError(file + ": precompiled_charsmap is shorter than its header");
        std::uint32_t trieBytes = 0;
        std::memcpy(&trieBytes, bytes.constData(), 4);
        if (trieBytes % 4 != 0 || std::uint64_t(trieBytes) + 4 > std::uint64_t(bytes.size()))
            throw InferenceError(file + ": precompiled_charsmap's trie size " + std::to_string(trieBytes)
                                 + " does not fit the map's " + std::to_string(bytes.size()) + " bytes");
        m_units.resize(trieBytes / 4);
        std::memcpy(m_units.data(), bytes.constData() + 4, trieBytes);
        m_normalized.assign(bytes.constData() + 4 + trieBytes, bytes.constData() + bytes.size());
        if (m_units.empty())
            throw InferenceError(file + ": precompiled_charsmap has an empty trie");
    }

    // The replacement of the shortest prefix of `chunk` in the trie (the crate takes the first
    // result of its common-prefix search), or false.
    bool transform(const std::string &chunk, std::string *out) const
    {
        std::size_t pos = 0;
        std::uint32_t unit = m_units[0];
        pos ^= offset(unit);
        for (const char ch : chunk) {
            const unsigned char c = static_cast<unsigned char>(ch);
            if (c == 0)
                return false;
            pos ^= c;
            if (pos >= m_units.size())
                return false;
            unit = m_units[pos];
            if (label(unit) != c)
                return false;
            pos ^= offset(unit);
            if (pos >= m_units.size())
                return false;
            if ((unit >> 8) & 1) {
                const std::size_t at = m_units[pos] & 0x7FFFFFFFu;
                if (at >= m_normalized.size())
                    return false;
                const std::size_t end = m_normalized.find('\0', at);
                *out = m_normalized.substr(at, end == std::string::npos ? std::string::npos : end - at);
                return true;
            }
        }
        return false;
    }

    void apply(std::u32string &t) const
    {
        const QString s = toQString(t);
        QTextBoundaryFinder graphemes(QTextBoundaryFinder::Grapheme, s);
        std::string out;
        qsizetype from = 0;
        for (qsizetype to = graphemes.toNextBoundary(); to != -1; to = graphemes.toNextBoundary()) {
            // Qt 6.4 may report a boundary inside a surrogate pair (seen after a Devanagari letter
            // followed by an emoji modifier); a grapheme never splits a character.
            if (to < s.size() && s.at(to).isLowSurrogate() && s.at(to - 1).isHighSurrogate())
                continue;
            const QString g = s.mid(from, to - from);
            from = to;
            const QByteArray utf8 = g.toUtf8();
            std::string replacement;
            if (utf8.size() < 6 && transform(utf8.toStdString(), &replacement)) {
                out += replacement;
                continue;
            }
            for (const uint cp : g.toUcs4()) {
                const char32_t c = cp;
                const std::string part = toUtf8(std::u32string(1, c));
                out += transform(part, &replacement) ? replacement : part;
            }
        }
        t = fromUtf8(out);
    }

private:
    static std::uint32_t label(std::uint32_t unit) { return unit & ((1u << 31) | 0xFFu); }
    static std::size_t offset(std::uint32_t unit) { return std::size_t(unit >> 10) << ((unit & (1u << 9)) >> 6); }

    std::vector<std::uint32_t> m_units;
    std::string m_normalized;
};

void bertNormalize(std::u32string &t, bool cleanText, bool chinese, bool stripAccents, bool lower)
{
    if (cleanText) {
        std::u32string out;
        for (const char32_t c : t) {
            if (c == 0 || c == 0xFFFD)
                continue;
            // Control characters go first (U+0085 is both Cc and White_Space: dropped), then white space
            // becomes ' '; tab, newline and carriage return count as white space, not control.
            const bool tabOrNewline = c == '\t' || c == '\n' || c == '\r';
            if (!tabOrNewline && isControl(c))
                continue;
            out += (tabOrNewline || isWhitespace(c)) ? char32_t(' ') : c;
        }
        t = std::move(out);
    }
    if (chinese) {
        std::u32string out;
        for (const char32_t c : t) {
            if (isCjk(c)) {
                out += ' ';
                out += c;
                out += ' ';
            } else {
                out += c;
            }
        }
        t = std::move(out);
    }
    if (stripAccents) {
        std::u32string out;
        for (const char32_t c : normalizedForm(t, QString::NormalizationForm_D))
            if (!isNonSpacingMark(c))
                out += c;
        t = std::move(out);
    }
    if (lower)
        t = lowercase(t);
}

} // namespace

Normalizer makeNormalizer(const nlohmann::json &spec, const std::string &file)
{
    if (spec.is_null())
        return [](std::u32string &) {};
    const std::string type = typeOf(spec, file, "the normalizer");
    if (type == "Sequence") {
        if (!spec.contains("normalizers") || !spec["normalizers"].is_array())
            throw InferenceError(file + ": normalizer Sequence has no \"normalizers\" list");
        std::vector<Normalizer> parts;
        for (const auto &p : spec["normalizers"])
            parts.push_back(makeNormalizer(p, file));
        return [parts](std::u32string &t) {
            for (const Normalizer &n : parts)
                n(t);
        };
    }
    if (type == "BertNormalizer") {
        const bool clean = flag(spec, "clean_text", true, file), chinese = flag(spec, "handle_chinese_chars", true, file);
        const bool lower = flag(spec, "lowercase", true, file);
        const bool strip = flag(spec, "strip_accents", lower, file); // null: as lowercase
        return [=](std::u32string &t) { bertNormalize(t, clean, chinese, strip, lower); };
    }
    if (type == "Lowercase")
        return [](std::u32string &t) { t = lowercase(t); };
    if (type == "NFC" || type == "NFD" || type == "NFKC" || type == "NFKD") {
        const QString::NormalizationForm form = type == "NFC" ? QString::NormalizationForm_C
                                                : type == "NFD" ? QString::NormalizationForm_D
                                                : type == "NFKC" ? QString::NormalizationForm_KC
                                                                 : QString::NormalizationForm_KD;
        return [form](std::u32string &t) { t = normalizedForm(t, form); };
    }
    if (type == "StripAccents")
        return [](std::u32string &t) {
            std::u32string out;
            for (const char32_t c : t)
                if (!isNonSpacingMark(c))
                    out += c;
            t = std::move(out);
        };
    if (type == "Strip") {
        const bool left = flag(spec, "strip_left", true, file), right = flag(spec, "strip_right", true, file);
        return [=](std::u32string &t) {
            std::size_t b = 0, e = t.size();
            while (left && b < e && isWhitespace(t[b])) ++b;
            while (right && e > b && isWhitespace(t[e - 1])) --e;
            t = t.substr(b, e - b);
        };
    }
    if (type == "Prepend") {
        const std::u32string prefix = fromUtf8(text(spec, "prepend", file));
        return [prefix](std::u32string &t) {
            if (!t.empty())
                t = prefix + t;
        };
    }
    if (type == "Replace") {
        const std::u32string content = fromUtf8(text(spec, "content", file));
        const nlohmann::json &pattern = spec.contains("pattern") ? spec["pattern"] : nlohmann::json();
        if (pattern.is_object() && pattern.contains("String") && pattern["String"].is_string()) {
            const std::u32string from = fromUtf8(pattern["String"].get<std::string>());
            if (from.empty())
                throw InferenceError(file + ": normalizer Replace has an empty pattern");
            return [from, content](std::u32string &t) {
                std::u32string out;
                std::size_t i = 0;
                for (std::size_t hit; (hit = t.find(from, i)) != std::u32string::npos; i = hit + from.size())
                    out += t.substr(i, hit - i) + content;
                out += t.substr(i);
                t = std::move(out);
            };
        }
        if (pattern.is_object() && pattern.contains("Regex") && pattern["Regex"].is_string()) {
            const QRegularExpression re(QString::fromStdString(pattern["Regex"].get<std::string>()),
                                        QRegularExpression::UseUnicodePropertiesOption);
            if (!re.isValid())
                throw InferenceError(file + ": normalizer Replace's regex \"" + pattern["Regex"].get<std::string>()
                                     + "\" is not valid: " + re.errorString().toStdString());
            const QString with = toQString(content);
            return [re, with](std::u32string &t) { t = fromQString(toQString(t).replace(re, with)); };
        }
        throw InferenceError(file + ": normalizer Replace has no String or Regex pattern");
    }
    if (type == "Precompiled") {
        const std::string b64 = spec.contains("precompiled_charsmap") && spec["precompiled_charsmap"].is_string()
                                    ? spec["precompiled_charsmap"].get<std::string>() : std::string();
        if (b64.empty()) // the library treats an empty map as no normalisation
            return [](std::u32string &) {};
        const auto decoded = QByteArray::fromBase64Encoding(QByteArray::fromStdString(b64), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            throw InferenceError(file + ": precompiled_charsmap is not valid base64");
        const auto map = std::make_shared<PrecompiledMap>(*decoded, file);
        return [map](std::u32string &t) { map->apply(t); };
    }
    throw InferenceError(file + ": normalizer \"" + type + "\" is not supported by Folio (supported: BertNormalizer, "
                         "Lowercase, NFC, NFD, NFKC, NFKD, StripAccents, Strip, Replace, Prepend, Precompiled, Sequence)");
}

} // namespace folio::inference::tokjson
