#include "document/html/htmlinput.h"

#include <QFile>
#include <QFileInfo>

#include <zlib.h>

namespace folio {

QString humanBytes(qint64 bytes)
{
    if (bytes >= (qint64(1) << 30))
        return QStringLiteral("%1 GB").arg(double(bytes) / double(qint64(1) << 30), 0, 'f', 1);
    if (bytes >= (1 << 20))
        return QStringLiteral("%1 MB").arg(double(bytes) / double(1 << 20), 0, 'f', bytes % (1 << 20) ? 1 : 0);
    if (bytes >= 1024)
        return QStringLiteral("%1 KB").arg(bytes / 1024);
    return QStringLiteral("%1 bytes").arg(bytes);
}

bool gunzipBounded(const QByteArray &gz, qint64 maxBytes, QByteArray *out, QString *error)
{
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
        *error = QStringLiteral("cannot start gzip decoder");
        return false;
    }
    out->clear();
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(gz.constData()));
    zs.avail_in = uInt(gz.size());
    QByteArray chunk(256 * 1024, Qt::Uninitialized);
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        zs.next_out = reinterpret_cast<Bytef *>(chunk.data());
        zs.avail_out = uInt(chunk.size());
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) {
            inflateEnd(&zs);
            *error = QStringLiteral("corrupt gzip data (%1)").arg(QString::fromLatin1(zs.msg ? zs.msg : "truncated stream"));
            return false;
        }
        const qint64 produced = chunk.size() - zs.avail_out;
        if (out->size() + produced > maxBytes) {
            inflateEnd(&zs);
            *error = QStringLiteral("inflated size exceeds the limit of %1").arg(humanBytes(maxBytes));
            return false;
        }
        out->append(chunk.constData(), produced);
        if (rc == Z_OK && produced == 0 && zs.avail_in == 0) {
            inflateEnd(&zs);
            *error = QStringLiteral("corrupt gzip data (truncated stream)");
            return false;
        }
    }
    inflateEnd(&zs);
    return true;
}

bool readHtmlSource(const QString &path, qint64 maxBytes, QByteArray *bytes, QString *error)
{
    QFile file(path);
    if (!QFileInfo(path).isFile()) {
        *error = QStringLiteral("%1: no such file").arg(path);
        return false;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot open (%2)").arg(path, file.errorString());
        return false;
    }
    const qint64 size = file.size();
    const bool gz = path.endsWith(QLatin1String(".gz"), Qt::CaseInsensitive);
    // A gzip file is read whole (it is smaller than its output) but capped like its output.
    if (size > maxBytes) {
        *error = QStringLiteral("%1: file is %2, the limit is %3").arg(path, humanBytes(size), humanBytes(maxBytes));
        return false;
    }
    QByteArray raw = file.readAll();
    if (raw.size() != size) {
        *error = QStringLiteral("%1: read %2 of %3 bytes (%4)").arg(path).arg(raw.size()).arg(size).arg(file.errorString());
        return false;
    }
    if (gz || raw.startsWith("\x1f\x8b")) {
        QString why;
        if (!gunzipBounded(raw, maxBytes, bytes, &why)) {
            *error = QStringLiteral("%1: %2").arg(path, why);
            return false;
        }
        return true;
    }
    *bytes = std::move(raw);
    return true;
}

} // namespace folio
