#pragma once
// MHTML (.mht / .mhtml, RFC 2557): a web page and its resources in one multipart/related MIME file,
// as browsers write it with "Save as: Web Page, single file". A bounded parser, engine code.
//
//   folio::MhtmlArchive a = folio::readMhtmlFile("shop.mhtml");
//   if (!a.ok) fail(a.error);                            // "shop.mhtml: no closing boundary and no part"
//   const folio::MhtmlPart &page = a.parts[a.htmlPart];  // the first text/html part: the page
//   int css = a.findPart(QUrl("https://shop.example/site.css")); // by Content-Location / Content-ID
//
// What is read: the top-level header block (folded lines unfolded), its multipart/* Content-Type
// with a boundary; every part's Content-Type (and charset), Content-Location, Content-ID and
// Content-Transfer-Encoding (base64, quoted-printable, 7bit/8bit/binary). Nested multiparts are
// flattened (at most MhtmlLimits::maxDepth levels; deeper ones are skipped with a warning).
// Best effort where a browser would be lenient, with a warning naming the part: a missing closing
// boundary (a truncated file: the parts read so far are kept), a part whose base64 is corrupt (it
// is skipped), stray '=' in quoted-printable (kept as is). Errors (ok == false): no multipart
// Content-Type or boundary, a header block larger than maxHeaderBytes, more than maxParts parts,
// a file larger than maxFileBytes (checked before reading), no text/html part, parts that would
// decode to more than maxDecodedBytes together (checked before each part is allocated), a raised
// `cancel` flag (polled between parts: "cancelled").
// Linear in the file: every search for a boundary or a line end stops at the end of the part it
// is in (a 31 MB file of 19,000 parts naming boundaries that never appear searched to the end of
// the file for each: quadratic, it ran for hours), and nesting is at most maxDepth levels.
// Decoded parts are never larger than their encoded text (base64 is decoded in place, without a
// copy of the encoded text), so memory stays within about twice the file size.
// Thread-safe, never throws.

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <atomic>
#include <vector>

namespace folio {

struct MhtmlLimits
{
    qint64 maxFileBytes = qint64(256) << 20; // the whole file
    int maxHeaderBytes = 64 * 1024;          // one header block (top level or a part's)
    int maxParts = 20000;                    // parts, nested ones included
    int maxDepth = 4;                        // multipart nesting
    qint64 maxDecodedBytes = qint64(256) << 20; // all parts' bodies together, once decoded
    const std::atomic_bool *cancel = nullptr; // polled between parts (the GUI's Cancel); optional
};

struct MhtmlPart
{
    QByteArray contentType; // lower case, no parameters: "text/html", "image/png"
    QByteArray charset;     // the Content-Type's charset parameter, lower case ("" when none)
    QString location;       // Content-Location, as written
    QString contentId;      // Content-ID without its angle brackets
    QByteArray body;        // decoded
};

struct MhtmlArchive
{
    bool ok = false;
    QString error;        // "<path>: <problem>" when !ok
    QStringList warnings; // "<path>: <note>"
    std::vector<MhtmlPart> parts;
    int htmlPart = -1;    // index of the page (the first text/html part)

    // The part a URL refers to: a cid: URL by Content-ID, others by Content-Location (fragment
    // ignored; http and https are the same resource); -1 when the archive does not hold it.
    int findPart(const QUrl &url) const;
};

// True when the bytes start like a MIME message whose Content-Type is multipart (a header block of
// "Name: value" lines within the first 8 KiB naming a multipart/ Content-Type).
bool looksLikeMhtml(const QByteArray &head);
// True for the .mht / .mhtml suffixes (any case).
bool hasMhtmlSuffix(const QString &path);

MhtmlArchive parseMhtml(const QByteArray &bytes, const QString &sourcePath, const MhtmlLimits &limits = {});
MhtmlArchive readMhtmlFile(const QString &path, const MhtmlLimits &limits = {});

// Decoders (exposed for tests). Quoted-printable: "=XX" and soft line breaks; a stray '=' is kept
// and counted in *strays. Base64: white space ignored; false on any other bad character or length.
QByteArray decodeQuotedPrintable(const QByteArray &text, int *strays = nullptr);
bool decodeBase64Strict(const QByteArray &text, QByteArray *out);

} // namespace folio
