// libFuzzer target: the MHTML reader (document/html/mhtml: header blocks, multipart boundaries,
// nested multiparts, base64 / quoted-printable parts) and the page it holds through the HTML
// loader, as folio-cli and the GUI open a .mht. Any byte string must unpack or fail with a
// message naming the file, within the limits: parts, decoded bytes, nesting.
#include "documentchecks.h"
#include "fuzzsupport.h"

#include "document/html/htmlloader.h"
#include "document/html/mhtml.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace folio;
    const QByteArray bytes = fuzz::inputBytes(data, size);

    // The decoders on the raw bytes: never larger than what they decode.
    int strays = 0;
    if (decodeQuotedPrintable(bytes, &strays).size() > bytes.size())
        fuzz::invariantFailed(QStringLiteral("quoted-printable decoded to more bytes than its text"));
    QByteArray decoded;
    if (decodeBase64Strict(bytes, &decoded) && decoded.size() > (bytes.size() / 4 + 1) * 3)
        fuzz::invariantFailed(QStringLiteral("base64 decoded to more than 3 bytes per 4"));

    MhtmlLimits limits;
    limits.maxParts = 2000;
    limits.maxHeaderBytes = 4096;
    limits.maxDecodedBytes = 1 << 20;
    const MhtmlArchive a = parseMhtml(bytes, QStringLiteral("fuzz.mht"), limits);
    if (!a.ok) {
        fuzz::note(QStringLiteral("refused: ") + a.error);
        if (!a.error.startsWith(QLatin1String("fuzz.mht: ")))
            fuzz::invariantFailed(QStringLiteral("refused without a message naming the file: ") + a.error);
        if (!a.parts.empty() || a.htmlPart != -1)
            fuzz::invariantFailed(QStringLiteral("a refused archive kept parts"));
        return 0;
    }
    if (a.htmlPart < 0 || a.htmlPart >= int(a.parts.size()))
        fuzz::invariantFailed(QStringLiteral("an unpacked archive without its page"));
    if (int(a.parts.size()) > limits.maxParts)
        fuzz::invariantFailed(QStringLiteral("more parts than maxParts"));
    qint64 total = 0;
    for (const MhtmlPart &p : a.parts) {
        total += p.body.size();
        if (p.contentType.startsWith("multipart/"))
            fuzz::invariantFailed(QStringLiteral("a multipart kept as a part"));
        (void)a.findPart(QUrl(p.location));
    }
    if (total > limits.maxDecodedBytes)
        fuzz::invariantFailed(QStringLiteral("parts decoded to more than maxDecodedBytes"));
    for (const QString &w : a.warnings)
        if (!w.startsWith(QLatin1String("fuzz.mht: ")))
            fuzz::invariantFailed(QStringLiteral("a warning not naming the file: ") + w);

    HtmlLoadOptions options;
    options.maxNodes = 200'000;
    options.maxTextChars = 4096;
    options.encoding = a.parts[size_t(a.htmlPart)].charset;
    const HtmlLoadResult r = loadHtmlBytes(a.parts[size_t(a.htmlPart)].body, QStringLiteral("fuzz.mht"), options);
    if (!r.ok) {
        if (r.error.isEmpty())
            fuzz::invariantFailed(QStringLiteral("the page failed without a message"));
        return 0;
    }
    fuzz::checkDocument(r.document, QStringLiteral("fuzz.mht"));
    return 0;
}
