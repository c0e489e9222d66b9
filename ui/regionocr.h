#pragma once
// RegionOcr: OCR a drawn rectangle of a page again, off the GUI thread, and merge the result into
// a copy of the document without discarding words the user corrected (ocr::mergeRegionResult).
//
//   auto *job = new folio::RegionOcr(this);
//   connect(job, &folio::RegionOcr::finished, ...);  // (updated document, words added) or failed
//   job->start(document, page, rect);
#include "document/document.h"

#include <QFutureWatcher>
#include <QObject>

namespace folio {

struct RegionOcrResult
{
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
    void start(const Document &document, int page, const QRect &pageRect);
    bool isRunning() const { return m_watcher.isRunning(); }

Q_SIGNALS:
    void finished(const folio::Document &document, int wordsAdded);
    void failed(const QString &message);

private:
    QFutureWatcher<RegionOcrResult> m_watcher;
};

} // namespace folio
