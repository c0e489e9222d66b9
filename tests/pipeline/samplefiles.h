#pragma once
// Test inputs made at test time from the bundled samples (header-only; needs Qt6::Gui and zlib):
// a 2-page PDF of resources/samples/sample-form.png and gzip streams (.html.gz).
#include <QByteArray>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QString>

#include <zlib.h>

namespace folio::test {

inline QString sampleFormPath()
{
    return QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png");
}

// Page 1: the sample form (150 dpi on Letter paper, as scanned). Page 2: the same form, or with
// `shiftSecondPage` its lower two thirds moved to the top (other words in other places).
inline bool writeSampleFormPdf(const QString &path, bool shiftSecondPage)
{
    const QImage form(sampleFormPath());
    if (form.isNull())
        return false;
    QPdfWriter writer(path);
    writer.setResolution(150);
    writer.setPageSize(QPageSize(QPageSize::Letter));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter painter(&writer);
    painter.drawImage(QPoint(0, 0), form);
    if (!writer.newPage())
        return false;
    const int top = shiftSecondPage ? form.height() / 3 : 0;
    painter.drawImage(QPoint(0, 0), form, QRect(0, top, form.width(), form.height() - top));
    return painter.end();
}

// A gzip stream (RFC 1952) of `data`; empty on failure.
inline QByteArray gzipBytes(const QByteArray &data)
{
    z_stream zs{};
    if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return QByteArray();
    QByteArray out(int(deflateBound(&zs, uLong(data.size()))) + 32, '\0');
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    zs.avail_in = uInt(data.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = uInt(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    out.resize(int(zs.total_out));
    deflateEnd(&zs);
    return rc == Z_STREAM_END ? out : QByteArray();
}

} // namespace folio::test
