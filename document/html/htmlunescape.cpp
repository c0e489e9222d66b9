#include "document/html/htmlunescape.h"

#include <libxml/HTMLparser.h>

#include <QByteArray>

#include <optional>

namespace folio {
namespace {

// Names HTML 5 accepts without ';': the Latin-1 entities (U+00A0..U+00FF) of HTML 4, amp, lt, gt,
// quot, and the upper-case AMP, COPY, GT, LT, QUOT, REG.
std::optional<QString> lookupName(const QString &name)
{
    const bool semicolon = name.endsWith(QLatin1Char(';'));
    const QString bare = semicolon ? name.chopped(1) : name;
    if (bare.isEmpty())
        return std::nullopt;
    static const char *const upper[][2] = {{"AMP", "&"}, {"COPY", "\u00A9"}, {"GT", ">"},
                                           {"LT", "<"}, {"QUOT", "\""}, {"REG", "\u00AE"}};
    for (const auto &u : upper)
        if (bare == QLatin1String(u[0]))
            return QString::fromUtf8(u[1]);
    const QByteArray latin = bare.toUtf8();
    const htmlEntityDesc *e = htmlEntityLookup(reinterpret_cast<const xmlChar *>(latin.constData()));
    if (!e)
        return std::nullopt;
    if (!semicolon && !(e->value >= 0xA0 && e->value <= 0xFF) && e->value != '&' && e->value != '<' && e->value != '>'
        && e->value != '"')
        return std::nullopt;
    return QString::fromUcs4(reinterpret_cast<const char32_t *>(&e->value), 1);
}

QString numericReference(quint64 num)
{
    // Python's _invalid_charrefs: NUL, CR and the C1 range read as windows-1252.
    static const char16_t c1[32] = {0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
                                    0x2039, 0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
                                    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178};
    if (num == 0)
        return QString(QChar(0xFFFD));
    if (num == 0x0D)
        return QStringLiteral("\r");
    if (num >= 0x80 && num <= 0x9F)
        return QString(QChar(c1[num - 0x80]));
    if ((num >= 0xD800 && num <= 0xDFFF) || num > 0x10FFFF)
        return QString(QChar(0xFFFD));
    // Python's _invalid_codepoints: removed.
    if ((num >= 0x1 && num <= 0x8) || num == 0xB || (num >= 0xE && num <= 0x1F) || (num >= 0x7F && num <= 0x9F)
        || (num >= 0xFDD0 && num <= 0xFDEF) || (num & 0xFFFE) == 0xFFFE)
        return QString();
    const char32_t cp = char32_t(num);
    return QString::fromUcs4(&cp, 1);
}

bool isHex(QChar c) { return c.isDigit() ? c.unicode() < 128 : (c >= QLatin1Char('a') && c <= QLatin1Char('f')) || (c >= QLatin1Char('A') && c <= QLatin1Char('F')); }
bool isDec(QChar c) { return c >= QLatin1Char('0') && c <= QLatin1Char('9'); }

} // namespace

// &(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)
QString pythonHtmlUnescape(const QString &s)
{
    if (!s.contains(QLatin1Char('&')))
        return s;
    QString out;
    out.reserve(s.size());
    const qsizetype n = s.size();
    qsizetype i = 0;
    while (i < n) {
        if (s[i] != QLatin1Char('&')) {
            out += s[i++];
            continue;
        }
        qsizetype j = i + 1;
        if (j < n && s[j] == QLatin1Char('#')) {
            const bool hex = j + 1 < n && (s[j + 1] == QLatin1Char('x') || s[j + 1] == QLatin1Char('X'));
            qsizetype k = j + (hex ? 2 : 1);
            const qsizetype digits = k;
            while (k < n && (hex ? isHex(s[k]) : isDec(s[k])))
                ++k;
            if (k == digits) { // "&#" without digits: not a reference
                out += s[i++];
                continue;
            }
            quint64 num = 0;
            for (qsizetype d = digits; d < k; ++d) {
                const int v = isDec(s[d]) ? s[d].unicode() - '0' : (s[d].toLower().unicode() - 'a' + 10);
                num = num > 0x7FFFFFFFull ? num : num * (hex ? 16 : 10) + quint64(v); // saturates above U+10FFFF
            }
            if (k < n && s[k] == QLatin1Char(';'))
                ++k;
            out += numericReference(num);
            i = k;
            continue;
        }
        qsizetype k = j;
        auto nameChar = [](QChar c) {
            return c != QLatin1Char('\t') && c != QLatin1Char('\n') && c != QLatin1Char('\f') && c != QLatin1Char(' ')
                && c != QLatin1Char('<') && c != QLatin1Char('&') && c != QLatin1Char('#') && c != QLatin1Char(';');
        };
        while (k < n && k - j < 32 && nameChar(s[k]))
            ++k;
        if (k == j) {
            out += s[i++];
            continue;
        }
        if (k < n && s[k] == QLatin1Char(';'))
            ++k;
        const QString name = s.mid(j, k - j);
        if (const auto v = lookupName(name)) {
            out += *v;
        } else {
            // The longest legacy name (no ';') that starts the reference, the rest kept.
            bool found = false;
            for (qsizetype x = name.size() - 1; x > 1 && !found; --x)
                if (const auto p = lookupName(name.left(x)); p && !name.left(x).endsWith(QLatin1Char(';'))) {
                    out += *p + name.mid(x);
                    found = true;
                }
            if (!found)
                out += QLatin1Char('&') + name;
        }
        i = k;
    }
    return out;
}

} // namespace folio
