#pragma once
// folio_ocr: scans and PDFs → folio::Document, through Tesseract 5 / Leptonica / Poppler.
//
// Basic usage (needs a QCoreApplication; the work runs in child processes):
//
//     folio::ocr::OcrOptions options;            // eng, PSM 3, 300 dpi for PDFs
//     options.languages = QStringLiteral("eng+deu");
//     folio::ocr::OcrResult r = folio::ocr::runOcr(QStringLiteral("scan.tif"), options);
//     if (!r.ok) qWarning() << r.error;          // names the file and the problem
//     else use(r.document);                       // page → block → paragraph → line → word
//
// Asynchronous (GUI): create an OcrJob, connect progress/finished, call start(); cancel() kills it.
//
// Why child processes: Tesseract's LSTM asks OpenMP for threads on every step; it is only fast
// with OMP_THREAD_LIMIT=1 set before the process starts, and that limit would also cap LibTorch in
// the same process (../shared/ENVIRONMENT.md, gotcha 6). Each worker (`folio-ocr-worker`) starts
// with OMP_THREAD_LIMIT=1, probes the file (header only: format, page count, pixel size, capped
// before any decoding), then OCRs the pages the parent hands it, one at a time; pages run in
// parallel across workers. A crash on a hostile file stays in the worker and becomes an error.
//
// No Tesseract, Leptonica or Poppler header is included from here.

#include "document/document.h"

#include <QObject>
#include <QRect>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace folio::ocr {

struct OcrOptions
{
    QString languages = QStringLiteral("eng"); // Tesseract language string, "eng+deu"
    int psm = 3;                     // page segmentation mode 0..13 (3 = fully automatic, as `tesseract`)
    int dpi = 300;                   // PDF rasterisation (and text-layer box scale), 30..1200
    QString dataPath;                // tessdata folder; empty = TESSDATA_PREFIX or Tesseract's default
    qint64 maxPixels = 150'000'000;  // refuse pages larger than this (decompression bombs), per page
    int maxPages = 5000;             // refuse documents with more pages
    int workers = 0;                 // parallel worker processes; 0 = one per core (capped by pages)
    bool usePdfTextLayer = true;     // PDF pages with a text layer: take its words and boxes, no OCR
    QString renderDir;               // when set, PDF/TIFF pages are written there as PNG and
                                     // Page::imagePath points at them (Qt cannot read TIFF here)
    QRect region;                    // when valid: OCR only this pixel rectangle (of page `regionPage`)
    int regionPage = 0;
    QString workerPath;              // folio-ocr-worker executable; empty = find it (see workerExecutable)
};

struct OcrResult
{
    bool ok = false;
    bool cancelled = false;
    QString error;            // "<file>: <problem>" when !ok
    Document document;        // kind Image or Pdf, one Page per page, OCR node tree and words
    QStringList warnings;     // non-fatal notes (e.g. a page taken from the PDF text layer)
    int pagesFromTextLayer = 0;
};

// Languages installed in the tessdata folder Tesseract would use (sorted, "osd" included).
// *resolvedDir receives that folder.
QStringList installedLanguages(const QString &dataPath = QString(), QString *resolvedDir = nullptr);

// Empty when every language of "eng+deu" is installed, otherwise a message naming the missing
// ones, the folder and the installed list.
QString checkLanguages(const QString &languages, const QString &dataPath = QString());

// The worker executable: options.workerPath, $FOLIO_OCR_WORKER, next to the running executable,
// then the build tree. Empty when none exists.
QString workerExecutable(const QString &hint = QString());

// Blocking convenience over OcrJob (spins a local event loop). `progress` (optional) gets
// (pages done, pages total) and returns false to cancel.
OcrResult runOcr(const QString &path, const OcrOptions &options = OcrOptions(),
                 const std::function<bool(int, int)> &progress = {});

// One OCR run over one file. Lives in the thread that created it (uses QProcess); every signal
// is delivered there. finished() is emitted exactly once per start().
class OcrJob : public QObject
{
    Q_OBJECT
public:
    explicit OcrJob(QObject *parent = nullptr);
    ~OcrJob() override; // kills running workers

    void start(const QString &path, const OcrOptions &options = OcrOptions());
    void cancel();     // kills the workers; finished() follows with cancelled = true
    bool isRunning() const;
    const OcrResult &result() const;

Q_SIGNALS:
    void started(int pageCount);              // after the file was probed
    void progress(int pagesDone, int pagesTotal);
    void finished(const folio::ocr::OcrResult &result);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// Re-OCR support: replace what OCR found inside `region` of `page` by `regionResult` (a result of
// an OCR run with options.region set), never discarding words with Word::userEdited. An edited
// word is kept (text, box and id); a new word overlapping a kept edited word (IoU ≥ 0.3) is
// dropped. Other words of the page whose box centre lies in the region are removed. New words get
// ids "p<page>/r<n>/b../par../l../w.." (n counts re-OCR runs, so ids stay unique). Words are
// re-listed in reading order (the new block goes where its top edge falls among the page's
// blocks). Returns the number of words added.
int mergeRegionResult(Document *doc, int page, const QRect &region, const Document &regionResult);

} // namespace folio::ocr
