#pragma once
// Private to ocr/ (the worker and tests): in-process probing and OCR of one page.
// Runs Tesseract/Leptonica/Poppler in the calling process: only the worker should call these
// (OMP_THREAD_LIMIT=1 in its environment, crashes contained). No C library header here either.

#include "ocr/ocr.h"

#include <QSize>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

namespace folio::ocr::detail {

enum class InputFormat { Unknown, Png, Jpeg, Tiff, Pdf };

struct InputInfo
{
    InputFormat format = InputFormat::Unknown;
    int pageCount = 0;
    std::vector<QSize> pageSizes; // pixels (PDF: at options.dpi)
};

// Magic bytes only (never the file name). Reads at most 1 KiB.
InputFormat sniffFormat(const QString &path, QString *error);

// Header-only probe: format, page count and size of each page, refused when a page exceeds
// options.maxPixels, when the file is empty, unsupported, encrypted or unreadable. Messages do
// not repeat the path (the caller prefixes it).
bool probeInput(const QString &path, const OcrOptions &options, InputInfo *info, QString *error);

// Tesseract with one configuration, initialised once, reused for many pages.
class PageRecognizer
{
public:
    PageRecognizer();
    ~PageRecognizer();
    PageRecognizer(const PageRecognizer &) = delete;
    PageRecognizer &operator=(const PageRecognizer &) = delete;

    // Init with languages/psm/dataPath; on failure the message lists the installed languages.
    bool init(const OcrOptions &options, QString *error);
    bool isInitialised() const;

    // Decode page `page` of `path` (probed as `info`) and OCR it (or read the PDF text layer)
    // into `out`: one Page (index `page`) plus its node subtree under a fresh root, and its words.
    // Ids are "p<page>/b<i>/par<j>/l<k>/w<m>" (0-based). Initialises Tesseract lazily.
    bool recognizePage(const QString &path, const InputInfo &info, int page, const OcrOptions &options,
                       Document *out, QString *error, bool *fromTextLayer = nullptr);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// Merge one-page documents (as made by recognizePage) into one, pages in index order.
Document mergePages(std::vector<Document> pages, const QString &sourcePath, SourceKind kind);

} // namespace folio::ocr::detail
