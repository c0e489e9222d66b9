// Wires the engines' loaders (HTML parser, OCR, FUNSD import) into DocumentOpener. The only place
// in ui/ that knows which engine opens which file type.
#include "ui/documentopener.h"

#include "document/documentjson.h"
#include "document/formats/funsd.h"
#include "document/html/htmlloader.h"
#include "ocr/ocr.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace folio {

static LoadedDocument loadHtml(const QString &path, const std::function<void(double)> &progress, const std::atomic_bool &)
{
    progress(0.1);
    HtmlLoadResult r = loadHtmlFile(path);
    LoadedDocument out;
    if (!r.ok)
        out.error = r.error;
    else
        out.document = std::move(r.document);
    return out;
}

// Pages of multi-page TIFFs and PDFs are rendered to PNG in a per-file cache folder so the page
// view can show them.
static QString renderCacheFor(const QString &path)
{
    const QFileInfo info(path);
    const QByteArray key = QCryptographicHash::hash(
        (info.absoluteFilePath() + QString::number(info.lastModified().toMSecsSinceEpoch())).toUtf8(),
        QCryptographicHash::Sha1).toHex().left(16);
    QString base = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (base.isEmpty())
        base = QDir::tempPath() + QStringLiteral("/folio-cache");
    const QString dir = base + QStringLiteral("/pages/") + QString::fromLatin1(key);
    QDir().mkpath(dir);
    return dir;
}

static LoadedDocument loadScan(const QString &path, const std::function<void(double)> &progress, const std::atomic_bool &cancelled)
{
    ocr::OcrOptions options;
    options.renderDir = renderCacheFor(path);
    ocr::OcrResult r = ocr::runOcr(path, options, [&](int done, int total) {
        if (total > 0)
            progress(double(done) / total);
        return !cancelled.load();
    });
    LoadedDocument out;
    if (r.cancelled)
        out.error = path + QStringLiteral(": cancelled");
    else if (!r.ok)
        out.error = r.error;
    else
        out.document = std::move(r.document);
    return out;
}

// .json: a Folio Document, or a FUNSD annotation file ({"form": [...]}, image beside it).
static LoadedDocument loadJson(const QString &path, const std::function<void(double)> &, const std::atomic_bool &)
{
    LoadedDocument out;
    QFile file(path);
    if (file.open(QIODevice::ReadOnly)) {
        const QByteArray head = file.read(4096);
        const bool folio = head.contains("\"folio.document\"");
        if (!folio && head.contains("\"form\"")) {
            importFunsdFile(path, FunsdWordOrder::Annotation, &out.document, &out.annotations, &out.error);
            return out;
        }
    }
    readDocumentJsonFile(path, &out.document, &out.annotations, &out.error);
    return out;
}

void registerEngineLoaders()
{
    DocumentOpener::registerLoader({QStringLiteral("json")}, QStringLiteral("Folio or FUNSD JSON"), loadJson);
    DocumentOpener::registerLoader({QStringLiteral("html"), QStringLiteral("htm"), QStringLiteral("xhtml"), QStringLiteral("gz")},
                                   QStringLiteral("Web pages"), loadHtml);
    DocumentOpener::registerLoader({QStringLiteral("png"), QStringLiteral("jpg"), QStringLiteral("jpeg"), QStringLiteral("tif"),
                                    QStringLiteral("tiff"), QStringLiteral("bmp"), QStringLiteral("pnm"), QStringLiteral("pdf")},
                                   QStringLiteral("Scans and PDFs"), loadScan);
}

} // namespace folio
