#include "ui/documents/regionocr.h"

#include "ocr/ocr.h"

#include <QtConcurrent/QtConcurrentRun>

namespace folio {

RegionOcr::RegionOcr(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<RegionOcrResult>::finished, this, [this] {
        const RegionOcrResult r = m_watcher.result();
        if (r.error.isEmpty())
            Q_EMIT finished(r.documentId, r.document, r.wordsAdded);
        else
            Q_EMIT failed(r.error);
    });
}

RegionOcr::~RegionOcr()
{
    m_watcher.waitForFinished();
}

void RegionOcr::start(qint64 documentId, const Document &document, int page, const QRect &pageRect)
{
    if (m_watcher.isRunning())
        return;
    m_watcher.setFuture(QtConcurrent::run([documentId, document, page, pageRect]() -> RegionOcrResult {
        RegionOcrResult out;
        out.documentId = documentId;
        if (page < 0 || page >= int(document.pages.size()) || document.pages[size_t(page)].imagePath.isEmpty()) {
            out.error = document.sourcePath + QStringLiteral(": page %1 has no image to OCR").arg(page + 1);
            return out;
        }
        ocr::OcrOptions options;
        options.region = pageRect;
        options.regionPage = 0; // the page image itself is a one-page file
        const ocr::OcrResult r = ocr::runOcr(document.pages[size_t(page)].imagePath, options);
        if (!r.ok) {
            out.error = r.error;
            return out;
        }
        out.document = document;
        out.wordsAdded = ocr::mergeRegionResult(&out.document, page, pageRect, r.document);
        return out;
    }));
}

} // namespace folio
