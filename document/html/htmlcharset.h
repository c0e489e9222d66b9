#pragma once
// Charset detection for HTML bytes, in the order a browser (and libxml2) trusts the evidence:
//   1. a byte-order mark (UTF-8, UTF-16LE/BE, UTF-32LE/BE),
//   2. <meta charset="..."> or <meta http-equiv="Content-Type" content="...; charset=...">
//      in the first 64 KiB (a cheap prescan, no parsing),
//   3. the bytes are valid UTF-8 (or plain ASCII)                 -> UTF-8,
//   4. otherwise                                                  -> windows-1252, with a note.
// A declared charset that libxml2/iconv does not know falls through to 3/4 with a note, so an
// unknown encoding degrades to readable text instead of failing the load.
//
// Pure function, thread-safe, never throws.

#include <QByteArray>
#include <QString>

namespace folio {

struct HtmlCharset
{
    QByteArray name;     // canonical-ish name handed to libxml2 ("UTF-8", "windows-1252", ...)
    QString source;      // "bom", "meta", "utf8", "fallback", "forced"
    int bomLength = 0;   // bytes of BOM at the start (0 when none)
    QString note;        // non-empty when we guessed or ignored a declaration
};

// `forced` (optional) overrides detection when libxml2 knows it.
HtmlCharset detectHtmlCharset(const QByteArray &bytes, const QByteArray &forced = {});

// The charset named in a meta prescan of `bytes` (lower case), empty when none.
QByteArray prescanMetaCharset(const QByteArray &bytes);

// True when libxml2 (through its built-in handlers or iconv) can decode `name`.
bool isKnownCharset(const QByteArray &name);

// True when `bytes` is valid UTF-8.
bool isValidUtf8(const char *data, qsizetype size);

// Decodes `size` bytes of `charset` (not UTF-8) to UTF-8 with iconv, leniently: a byte sequence the
// charset does not define (0x81 in windows-1252, a lone UTF-16 surrogate, a cut-off multi-byte
// character) becomes U+FFFD, counted in *replaced, and decoding goes on. (libxml2's own converters
// stop there and the rest of the page was lost.) A null QByteArray when iconv does not know the
// charset.
QByteArray decodeToUtf8Lenient(const char *data, qsizetype size, const QByteArray &charset, int *replaced);

} // namespace folio
