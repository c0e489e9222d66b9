#include "document/html/mhtml.h"

#include "document/html/htmlinput.h"

#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QPair>

#include <array>
#include <cstring>

namespace folio {

namespace {

// The first `c` in [from, to) of `data`; -1 when none. Never looks past `to` (QByteArray::indexOf
// searches to the end of the whole file).
qint64 findByte(const QByteArray &data, qint64 from, qint64 to, char c)
{
    if (from >= to)
        return -1;
    const char *begin = data.constData();
    const void *hit = std::memchr(begin + from, c, size_t(to - from));
    return hit ? qint64(static_cast<const char *>(hit) - begin) : -1;
}

using Headers = QList<QPair<QByteArray, QByteArray>>; // lower-case name, value (unfolded, trimmed)

QByteArray header(const Headers &headers, const char *name)
{
    for (const auto &h : headers)
        if (h.first == name)
            return h.second;
    return {};
}

// The header block that starts at `from`: up to the first empty line (or `to`). Sets *bodyStart to
// the first byte after the empty line. False (with *why) when no empty line comes within `limit`.
bool readHeaders(const QByteArray &data, qint64 from, qint64 to, int limit, Headers *headers, qint64 *bodyStart, QString *why)
{
    headers->clear();
    qint64 pos = from;
    QByteArray current;
    auto flush = [&] {
        const int colon = int(current.indexOf(':'));
        if (colon > 0)
            headers->append({current.left(colon).trimmed().toLower(), current.mid(colon + 1).trimmed()});
        current.clear();
    };
    while (pos < to) {
        if (pos - from > limit) {
            *why = QStringLiteral("a header block is longer than %1 (no empty line ends it)").arg(humanBytes(limit));
            return false;
        }
        qint64 eol = findByte(data, pos, qMin(to, from + qint64(limit) + 2), '\n');
        if (eol < 0)
            eol = qMin(to, from + qint64(limit) + 2);
        if (eol - from > limit) {
            *why = QStringLiteral("a header block is longer than %1 (no empty line ends it)").arg(humanBytes(limit));
            return false;
        }
        QByteArray line = data.mid(pos, eol - pos);
        if (line.endsWith('\r'))
            line.chop(1);
        pos = eol + 1;
        if (line.isEmpty()) {
            flush();
            *bodyStart = qMin(pos, to);
            return true;
        }
        if ((line[0] == ' ' || line[0] == '\t') && !current.isEmpty())
            current += ' ' + line.trimmed(); // a folded line continues the header above
        else {
            flush();
            current = line;
        }
    }
    flush();
    *bodyStart = to; // headers only (a truncated part)
    return true;
}

// "multipart/related; type=\"text/html\"; boundary=\"--x\"" -> "multipart/related", {type, boundary}.
QByteArray parseContentType(const QByteArray &value, QList<QPair<QByteArray, QByteArray>> *params)
{
    int semi = int(value.indexOf(';'));
    const QByteArray type = (semi < 0 ? value : value.left(semi)).trimmed().toLower();
    while (semi >= 0) {
        int i = semi + 1;
        while (i < value.size() && (value[i] == ' ' || value[i] == '\t'))
            ++i;
        const int eq = int(value.indexOf('=', i));
        if (eq < 0)
            break;
        const QByteArray name = value.mid(i, eq - i).trimmed().toLower();
        int j = eq + 1;
        QByteArray v;
        if (j < value.size() && value[j] == '"') {
            ++j;
            while (j < value.size() && value[j] != '"') {
                if (value[j] == '\\' && j + 1 < value.size())
                    ++j;
                v += value[j++];
            }
            semi = int(value.indexOf(';', j));
        } else {
            semi = int(value.indexOf(';', j));
            v = value.mid(j, semi < 0 ? -1 : semi - j).trimmed();
        }
        params->append({name, v});
    }
    return type;
}

QByteArray param(const QList<QPair<QByteArray, QByteArray>> &params, const char *name)
{
    for (const auto &p : params)
        if (p.first == name)
            return p.second;
    return {};
}

// The next "--boundary" at the start of a line, at or after `from` and before `to`; -1 if none.
// Searches [from, to) only, so the parts of one multipart are searched once between them.
qint64 findDelimiter(const QByteArray &data, qint64 from, qint64 to, const QByteArray &delim, qint64 bodyStart)
{
    qint64 pos = from;
    while (pos < to) {
        const qint64 found = QByteArrayView(data.constData() + pos, to - pos).indexOf(QByteArrayView(delim));
        if (found < 0)
            return -1;
        const qint64 hit = pos + found;
        const bool lineStart = hit == bodyStart || data[hit - 1] == '\n';
        const qint64 after = hit + delim.size();
        const char next = after < to ? data[after] : '\n';
        const bool lineEnd = next == '-' || next == '\r' || next == '\n' || next == ' ' || next == '\t';
        if (lineStart && lineEnd)
            return hit;
        pos = hit + 1;
    }
    return -1;
}

class Parser
{
public:
    Parser(const QByteArray &data, const QString &path, const MhtmlLimits &limits, MhtmlArchive *out)
        : m_data(data), m_path(path), m_limits(limits), m_out(out)
    {
    }

    // Parses a multipart body [from, to); false with m_error on a fatal problem.
    bool multipart(qint64 from, qint64 to, const QByteArray &boundary, int depth)
    {
        if (boundary.isEmpty() || boundary.size() > 200) {
            m_error = QStringLiteral("the multipart boundary is %1").arg(boundary.isEmpty() ? QStringLiteral("missing") : QStringLiteral("longer than 200 characters"));
            return false;
        }
        const QByteArray delim = "--" + boundary;
        qint64 pos = findDelimiter(m_data, from, to, delim, from);
        if (pos < 0) {
            m_error = QStringLiteral("no boundary line \"%1\" in the file").arg(QString::fromLatin1(delim.left(80)));
            return false;
        }
        bool closed = false;
        while (true) {
            const qint64 after = pos + delim.size();
            if (after + 1 < to && m_data[after] == '-' && m_data[after + 1] == '-') {
                closed = true;
                break;
            }
            const qint64 eol = findByte(m_data, after, to, '\n');
            if (eol < 0)
                break;
            const qint64 partStart = eol + 1;
            const qint64 next = findDelimiter(m_data, partStart, to, delim, from);
            qint64 partEnd = next < 0 ? to : next;
            if (next >= 0 && partEnd > partStart && m_data[partEnd - 1] == '\n')
                --partEnd;
            if (next >= 0 && partEnd > partStart && m_data[partEnd - 1] == '\r')
                --partEnd;
            if (!part(partStart, qMax(partStart, partEnd), depth))
                return false;
            if (next < 0)
                break;
            pos = next;
        }
        if (!closed)
            warn(QStringLiteral("no closing boundary: the file is truncated (%1 parts read)").arg(m_partsSeen));
        return true;
    }

    QString error() const { return m_error; }

private:
    bool part(qint64 from, qint64 to, int depth)
    {
        if (m_limits.cancel && m_limits.cancel->load()) {
            m_error = QStringLiteral("cancelled");
            m_cancelled = true;
            return false;
        }
        if (++m_partsSeen > m_limits.maxParts) {
            m_error = QStringLiteral("more than %1 parts").arg(m_limits.maxParts);
            return false;
        }
        Headers headers;
        qint64 bodyStart = from;
        QString why;
        if (!readHeaders(m_data, from, to, m_limits.maxHeaderBytes, &headers, &bodyStart, &why)) {
            m_error = QStringLiteral("part %1: %2").arg(m_partsSeen).arg(why);
            return false;
        }
        QList<QPair<QByteArray, QByteArray>> params;
        QByteArray type = parseContentType(header(headers, "content-type"), &params);
        if (type.isEmpty())
            type = "text/plain"; // RFC 2046's default
        const int index = m_partsSeen;
        if (type.startsWith("multipart/")) {
            if (depth + 1 >= m_limits.maxDepth) {
                warn(QStringLiteral("part %1: multiparts nested deeper than %2 levels are skipped").arg(index).arg(m_limits.maxDepth));
                return true;
            }
            // A nested multipart: flattened into the archive. A problem inside it spoils only it.
            Parser nested(m_data, m_path, m_limits, m_out);
            nested.m_partsSeen = m_partsSeen;
            nested.m_shared = m_shared;
            if (!nested.multipart(bodyStart, to, param(params, "boundary"), depth + 1)) {
                if (nested.m_partsSeen > m_limits.maxParts || nested.m_cancelled || nested.m_overBudget) {
                    m_cancelled = nested.m_cancelled;
                    m_overBudget = nested.m_overBudget;
                    m_error = nested.m_error;
                    return false;
                }
                warn(QStringLiteral("part %1: nested multipart skipped (%2)").arg(index).arg(nested.m_error));
            }
            m_partsSeen = nested.m_partsSeen;
            return true;
        }
        MhtmlPart p;
        p.contentType = type;
        p.charset = param(params, "charset").toLower();
        p.location = QString::fromUtf8(header(headers, "content-location"));
        QByteArray cid = header(headers, "content-id");
        if (cid.startsWith('<') && cid.endsWith('>'))
            cid = cid.mid(1, cid.size() - 2);
        p.contentId = QString::fromUtf8(cid);
        const QByteArray encoding = header(headers, "content-transfer-encoding").trimmed().toLower();
        // The encoded text in place (no copy of it); what it decodes to is counted against the
        // budget before anything is allocated (base64: at most 3 bytes per 4).
        const QByteArray raw = QByteArray::fromRawData(m_data.constData() + bodyStart, to - bodyStart);
        const qint64 bound = encoding == "base64" ? (raw.size() / 4 + 1) * 3 : raw.size();
        if (m_shared->decoded + bound > m_limits.maxDecodedBytes) {
            m_error = QStringLiteral("part %1 (%2): the parts decode to more than %3, the limit")
                          .arg(index).arg(describe(p), humanBytes(m_limits.maxDecodedBytes));
            m_overBudget = true;
            return false;
        }
        if (encoding == "base64") {
            if (!decodeBase64Strict(raw, &p.body)) {
                warn(QStringLiteral("part %1 (%2): corrupt base64, part skipped").arg(index).arg(describe(p)));
                return true;
            }
        } else if (encoding == "quoted-printable") {
            int strays = 0;
            p.body = decodeQuotedPrintable(raw, &strays);
            if (strays > 0)
                warn(QStringLiteral("part %1 (%2): %3 stray '=' in quoted-printable kept as is").arg(index).arg(describe(p)).arg(strays));
        } else {
            if (!encoding.isEmpty() && encoding != "7bit" && encoding != "8bit" && encoding != "binary")
                warn(QStringLiteral("part %1 (%2): unknown transfer encoding \"%3\", read as is")
                         .arg(index).arg(describe(p), QString::fromLatin1(encoding.left(40))));
            p.body = QByteArray(raw.constData(), raw.size()); // a copy: the file's bytes go away
        }
        m_shared->decoded += p.body.size();
        m_out->parts.push_back(std::move(p));
        return true;
    }

    static QString describe(const MhtmlPart &p)
    {
        QString where = p.location.isEmpty() ? p.contentId : p.location;
        if (where.size() > 100)
            where = where.left(97) + QStringLiteral("...");
        return where.isEmpty() ? QString::fromLatin1(p.contentType) : where;
    }

    // At most kMaxWarnings kept (19,000 skipped parts made 19,000 lines); the rest are counted.
    void warn(const QString &text)
    {
        if (m_out->warnings.size() < kMaxWarnings)
            m_out->warnings << m_path + QStringLiteral(": ") + text;
        else
            ++m_shared->moreWarnings;
    }

public:
    static constexpr int kMaxWarnings = 50;
    // What nested parsers share with the top-level one.
    struct Shared
    {
        qint64 decoded = 0;   // bytes of decoded bodies
        int moreWarnings = 0; // warnings past kMaxWarnings
    };
    int moreWarnings() const { return m_shared->moreWarnings; }

private:

    const QByteArray &m_data;
    QString m_path;
    MhtmlLimits m_limits;
    MhtmlArchive *m_out;
    int m_partsSeen = 0;
    Shared m_ownShared;
    Shared *m_shared = &m_ownShared;
    bool m_cancelled = false, m_overBudget = false;
    QString m_error;
};

// The lookup key of a URL: host and path (and query), the scheme left out (http and https name
// the same saved resource); a URL without a host keys on its path.
QString locationKey(const QUrl &url)
{
    QString key = url.host().toLower() + url.path(QUrl::FullyEncoded);
    if (url.hasQuery())
        key += QLatin1Char('?') + url.query(QUrl::FullyEncoded);
    return key;
}

} // namespace

int MhtmlArchive::findPart(const QUrl &url) const
{
    if (url.scheme().compare(QLatin1String("cid"), Qt::CaseInsensitive) == 0) {
        const QString id = QUrl::fromPercentEncoding(url.path(QUrl::FullyEncoded).toUtf8());
        for (size_t i = 0; i < parts.size(); ++i)
            if (!parts[i].contentId.isEmpty() && parts[i].contentId == id)
                return int(i);
        return -1;
    }
    const QString key = locationKey(url.adjusted(QUrl::RemoveFragment));
    if (key.isEmpty())
        return -1;
    for (size_t i = 0; i < parts.size(); ++i)
        if (!parts[i].location.isEmpty() && locationKey(QUrl(parts[i].location).adjusted(QUrl::RemoveFragment)) == key)
            return int(i);
    return -1;
}

bool hasMhtmlSuffix(const QString &path)
{
    return path.endsWith(QLatin1String(".mht"), Qt::CaseInsensitive) || path.endsWith(QLatin1String(".mhtml"), Qt::CaseInsensitive);
}

bool looksLikeMhtml(const QByteArray &head)
{
    Headers headers;
    qint64 bodyStart = 0;
    QString why;
    const QByteArray block = head.left(8192);
    if (!readHeaders(block, 0, block.size(), 8192, &headers, &bodyStart, &why) || headers.isEmpty())
        return false;
    QList<QPair<QByteArray, QByteArray>> params;
    return parseContentType(header(headers, "content-type"), &params).startsWith("multipart/");
}

QByteArray decodeQuotedPrintable(const QByteArray &text, int *strays)
{
    auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        return -1;
    };
    QByteArray out;
    out.reserve(text.size());
    const qint64 n = text.size();
    for (qint64 i = 0; i < n; ++i) {
        const char c = text[i];
        if (c != '=') {
            out += c;
            continue;
        }
        if (i + 1 < n && text[i + 1] == '\n') { // soft line break
            i += 1;
            continue;
        }
        if (i + 2 < n && text[i + 1] == '\r' && text[i + 2] == '\n') {
            i += 2;
            continue;
        }
        if (i + 2 < n && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
            out += char(hex(text[i + 1]) * 16 + hex(text[i + 2]));
            i += 2;
            continue;
        }
        if (i + 1 == n)
            continue; // a final soft break without its line end
        out += c;
        if (strays)
            ++*strays;
    }
    return out;
}

bool decodeBase64Strict(const QByteArray &text, QByteArray *out)
{
    // One pass, white space skipped, into a buffer of the largest size the text can decode to
    // (no compacted copy of the text). Padding only at the end; the length (without white space)
    // a multiple of 4, or unpadded with 2 or 3 characters in the last group.
    static const auto table = [] {
        std::array<signed char, 256> t{};
        t.fill(-1);
        const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < 64; ++i)
            t[static_cast<unsigned char>(alphabet[i])] = static_cast<signed char>(i);
        return t;
    }();
    QByteArray decoded(qsizetype((text.size() / 4 + 1) * 3), Qt::Uninitialized);
    char *o = decoded.data();
    quint32 group = 0;
    int inGroup = 0, padding = 0;
    for (const char c : text) {
        if (c == '\r' || c == '\n' || c == ' ' || c == '\t')
            continue;
        if (c == '=') {
            if (inGroup < 2 || ++padding + inGroup > 4)
                return false;
            continue;
        }
        const int v = table[static_cast<unsigned char>(c)];
        if (v < 0 || padding > 0)
            return false; // a bad character, or data after the padding
        group = (group << 6) | quint32(v);
        if (++inGroup == 4) {
            *o++ = char(group >> 16);
            *o++ = char(group >> 8);
            *o++ = char(group);
            group = 0;
            inGroup = 0;
        }
    }
    if (padding > 0 && inGroup + padding != 4)
        return false;
    if (inGroup == 1)
        return false;
    if (inGroup == 2) {
        *o++ = char(group >> 4);
    } else if (inGroup == 3) {
        *o++ = char(group >> 10);
        *o++ = char(group >> 2);
    }
    decoded.truncate(o - decoded.constData());
    *out = std::move(decoded);
    return true;
}

MhtmlArchive parseMhtml(const QByteArray &bytes, const QString &sourcePath, const MhtmlLimits &limits)
{
    MhtmlArchive a;
    auto fail = [&](const QString &problem) {
        a.ok = false;
        a.error = sourcePath + QStringLiteral(": ") + problem;
        a.parts.clear();
        a.htmlPart = -1;
        return a;
    };
    if (bytes.size() > limits.maxFileBytes)
        return fail(QStringLiteral("file is %1, the limit is %2").arg(humanBytes(bytes.size()), humanBytes(limits.maxFileBytes)));
    Headers headers;
    qint64 bodyStart = 0;
    QString why;
    if (!readHeaders(bytes, 0, bytes.size(), limits.maxHeaderBytes, &headers, &bodyStart, &why))
        return fail(QStringLiteral("not an MHTML file: %1").arg(why));
    QList<QPair<QByteArray, QByteArray>> params;
    const QByteArray type = parseContentType(header(headers, "content-type"), &params);
    if (!type.startsWith("multipart/"))
        return fail(type.isEmpty() ? QStringLiteral("not an MHTML file: no Content-Type header")
                                   : QStringLiteral("not an MHTML file: the Content-Type is \"%1\", not multipart/related")
                                         .arg(QString::fromLatin1(type.left(80))));
    Parser parser(bytes, sourcePath, limits, &a);
    if (!parser.multipart(bodyStart, bytes.size(), param(params, "boundary"), 0))
        return fail(parser.error());
    if (parser.moreWarnings() > 0)
        a.warnings << sourcePath + QStringLiteral(": %1 more warnings like these").arg(parser.moreWarnings());
    for (size_t i = 0; i < a.parts.size(); ++i) {
        if (a.parts[i].contentType == "text/html" || a.parts[i].contentType == "application/xhtml+xml") {
            a.htmlPart = int(i);
            break;
        }
    }
    if (a.htmlPart < 0)
        return fail(a.parts.empty() ? QStringLiteral("no readable part (see the warnings)")
                                    : QStringLiteral("no text/html part among its %1 parts").arg(a.parts.size()));
    a.ok = true;
    return a;
}

MhtmlArchive readMhtmlFile(const QString &path, const MhtmlLimits &limits)
{
    MhtmlArchive a;
    QFile file(path);
    if (!QFileInfo(path).isFile()) {
        a.error = path + QStringLiteral(": no such file");
        return a;
    }
    if (file.size() > limits.maxFileBytes) {
        a.error = QStringLiteral("%1: file is %2, the limit is %3").arg(path, humanBytes(file.size()), humanBytes(limits.maxFileBytes));
        return a;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        a.error = QStringLiteral("%1: cannot open (%2)").arg(path, file.errorString());
        return a;
    }
    const QByteArray bytes = file.readAll();
    if (bytes.size() != file.size()) {
        a.error = QStringLiteral("%1: read %2 of %3 bytes").arg(path).arg(bytes.size()).arg(file.size());
        return a;
    }
    return parseMhtml(bytes, path, limits);
}

} // namespace folio
