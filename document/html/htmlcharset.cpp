#include "document/html/htmlcharset.h"

#include <libxml/encoding.h>

#include <iconv.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace folio {

static constexpr qsizetype kPrescanBytes = 64 * 1024;

bool isValidUtf8(const char *data, qsizetype size)
{
    const auto *p = reinterpret_cast<const unsigned char *>(data);
    qsizetype i = 0;
    while (i < size) {
        const unsigned char c = p[i];
        if (c < 0x80) { ++i; continue; }
        int extra = 0;
        unsigned int cp = 0;
        if ((c & 0xE0) == 0xC0) { extra = 1; cp = c & 0x1F; }
        else if ((c & 0xF0) == 0xE0) { extra = 2; cp = c & 0x0F; }
        else if ((c & 0xF8) == 0xF0) { extra = 3; cp = c & 0x07; }
        else return false;
        if (i + extra >= size)
            return false;
        for (int k = 1; k <= extra; ++k) {
            if ((p[i + k] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        // overlong forms, surrogates, out of range
        if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000)
            || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
            return false;
        i += extra + 1;
    }
    return true;
}

QByteArray decodeToUtf8Lenient(const char *data, qsizetype size, const QByteArray &charset, int *replaced)
{
    *replaced = 0;
    iconv_t cd = iconv_open("UTF-8", charset.constData());
    if (cd == reinterpret_cast<iconv_t>(-1))
        return QByteArray();
    const QByteArray upper = charset.toUpper();
    // A bad unit is skipped whole in the wide encodings, so that the rest stays aligned.
    const size_t unit = upper.startsWith("UTF-32") ? 4 : upper.startsWith("UTF-16") ? 2 : 1;
    QByteArray out;
    out.reserve(size + size / 2 + 16);
    char buffer[16 * 1024];
    char *in = const_cast<char *>(data);
    size_t inLeft = size_t(size);
    while (inLeft > 0) {
        char *o = buffer;
        size_t oLeft = sizeof buffer;
        const size_t r = iconv(cd, &in, &inLeft, &o, &oLeft);
        out.append(buffer, o - buffer);
        if (r != size_t(-1) || errno == E2BIG)
            continue;
        // EILSEQ (undefined in the charset) or EINVAL (cut off at the end): U+FFFD, skip a unit.
        out.append("\xEF\xBF\xBD");
        ++*replaced;
        const size_t skip = std::min(unit, inLeft);
        in += skip;
        inLeft -= skip;
        iconv(cd, nullptr, nullptr, nullptr, nullptr); // back to the initial shift state
    }
    char *o = buffer;
    size_t oLeft = sizeof buffer;
    iconv(cd, nullptr, nullptr, &o, &oLeft);
    out.append(buffer, o - buffer);
    iconv_close(cd);
    return out;
}

bool isKnownCharset(const QByteArray &name)
{
    if (name.isEmpty())
        return false;
    xmlCharEncodingHandlerPtr handler = xmlFindCharEncodingHandler(name.constData());
    if (!handler)
        return false;
    xmlCharEncCloseFunc(handler);
    return true;
}

QByteArray prescanMetaCharset(const QByteArray &bytes)
{
    const QByteArray head = bytes.left(kPrescanBytes).toLower();
    qsizetype from = 0;
    while (true) {
        const qsizetype meta = head.indexOf("<meta", from);
        if (meta < 0)
            return {};
        qsizetype end = head.indexOf('>', meta);
        if (end < 0)
            end = head.size();
        const QByteArray tag = head.mid(meta, end - meta);
        from = end;
        const qsizetype cs = tag.indexOf("charset");
        if (cs < 0)
            continue;
        qsizetype i = cs + 7;
        auto skipSpace = [&] { while (i < tag.size() && (tag[i] == ' ' || tag[i] == '\t' || tag[i] == '\n' || tag[i] == '\r')) ++i; };
        skipSpace();
        if (i >= tag.size() || tag[i] != '=')
            continue;
        ++i;
        skipSpace();
        while (i < tag.size() && (tag[i] == '"' || tag[i] == '\''))
            ++i;
        const qsizetype start = i;
        while (i < tag.size() && tag[i] != '"' && tag[i] != '\'' && tag[i] != ';' && tag[i] != ' '
               && tag[i] != '/' && tag[i] != '\t' && tag[i] != '\n' && tag[i] != '\r')
            ++i;
        const QByteArray name = tag.mid(start, i - start).trimmed();
        if (!name.isEmpty())
            return name;
    }
}

static HtmlCharset guessFromBytes(const QByteArray &bytes, int bomLength, const QString &note)
{
    HtmlCharset cs;
    cs.bomLength = bomLength;
    if (isValidUtf8(bytes.constData() + bomLength, bytes.size() - bomLength)) {
        cs.name = "UTF-8";
        cs.source = QStringLiteral("utf8");
        cs.note = note;
    } else {
        cs.name = "windows-1252";
        cs.source = QStringLiteral("fallback");
        cs.note = note.isEmpty() ? QStringLiteral("no charset declared and the bytes are not UTF-8: read as windows-1252")
                                 : note + QStringLiteral("; bytes are not UTF-8: read as windows-1252");
    }
    return cs;
}

HtmlCharset detectHtmlCharset(const QByteArray &bytes, const QByteArray &forced)
{
    auto starts = [&](const char *sig, int n) {
        return bytes.size() >= n && memcmp(bytes.constData(), sig, size_t(n)) == 0;
    };
    HtmlCharset cs;
    // BOMs first (UTF-32LE before UTF-16LE: it shares the first two bytes).
    if (starts("\xEF\xBB\xBF", 3)) { cs.name = "UTF-8"; cs.bomLength = 3; }
    else if (starts("\xFF\xFE\x00\x00", 4)) { cs.name = "UTF-32LE"; cs.bomLength = 4; }
    else if (starts("\x00\x00\xFE\xFF", 4)) { cs.name = "UTF-32BE"; cs.bomLength = 4; }
    else if (starts("\xFF\xFE", 2)) { cs.name = "UTF-16LE"; cs.bomLength = 2; }
    else if (starts("\xFE\xFF", 2)) { cs.name = "UTF-16BE"; cs.bomLength = 2; }

    if (!forced.isEmpty()) {
        if (isKnownCharset(forced)) {
            cs.name = forced;
            cs.source = QStringLiteral("forced");
            return cs;
        }
        HtmlCharset g = guessFromBytes(bytes, cs.bomLength, QStringLiteral("unknown encoding '%1' asked for").arg(QString::fromLatin1(forced)));
        return g;
    }
    if (cs.bomLength > 0) {
        cs.source = QStringLiteral("bom");
        return cs;
    }

    const QByteArray declared = prescanMetaCharset(bytes);
    if (!declared.isEmpty()) {
        // HTML: a meta declaring UTF-16/32 in an ASCII-compatible stream means UTF-8.
        if (declared.startsWith("utf-16") || declared.startsWith("utf-32") || declared == "utf16")
            return guessFromBytes(bytes, 0, QStringLiteral("meta declares %1 without a BOM").arg(QString::fromLatin1(declared)));
        if (isKnownCharset(declared)) {
            cs.name = declared;
            cs.source = QStringLiteral("meta");
            return cs;
        }
        return guessFromBytes(bytes, 0, QStringLiteral("unknown encoding '%1' declared in <meta>").arg(QString::fromLatin1(declared.left(64))));
    }
    return guessFromBytes(bytes, 0, QString());
}

} // namespace folio
