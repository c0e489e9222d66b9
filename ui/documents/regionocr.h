#pragma once
// RegionOcr: OCR a drawn rectangle of a page again, off the GUI thread, and merge the result into
// a copy of the document without discarding words the user corrected (ocr::mergeRegionResult).
//
//   auto *job = new folio::RegionOcr(this);
//   connect(job, &folio::RegionOcr::finished, ...);  // (document id, updated document, words added) or failed
//   job->start(documentId, document, page, rect);
#include "document/document.h"

#include <QFutureWatcher>
#include <QObject>

namespace folio {

struct RegionOcrResult
{
    qint64 documentId = -1;
    Document document;
    int wordsAdded = 0;
    QString error;
};

class RegionOcr : public QObject
{
    Q_OBJECT
public:
    explicit RegionOcr(QObject *parent = nullptr);
    ~RegionOcr() override;
    void start(qint64 documentId, const Document &document, int page, const QRect &pageRect);
    bool isRunning() const { return m_watcher.isRunning(); }

Q_SIGNALS:
    void finished(qint64 documentId, const folio::Document &document, int wordsAdded);
    void failed(const QString &message);

private:
    QFutureWatcher<RegionOcrResult> m_watcher;
};

} // namespace folio
