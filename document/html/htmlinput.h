#pragma once
// Reading an HTML source file into memory, bounded: plain files and gzip (*.gz, or any file that
// starts with the gzip magic). Used by the HTML loader; engine code, never throws.

#include <QByteArray>
#include <QString>

namespace folio {

// Reads `path` (inflating gzip) into *bytes. Fails with "<path>: <problem>" in *error when the
// file is missing/unreadable, the (inflated) size exceeds maxBytes, or the gzip stream is corrupt.
bool readHtmlSource(const QString &path, qint64 maxBytes, QByteArray *bytes, QString *error);

// Inflates a gzip stream, at most maxBytes of output. Returns false with a message on error.
bool gunzipBounded(const QByteArray &gz, qint64 maxBytes, QByteArray *out, QString *error);

// A human size: "3.1 GB", "256 MB", "12 KB".
QString humanBytes(qint64 bytes);

} // namespace folio
