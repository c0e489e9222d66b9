#pragma once
// File-type dispatch: which engine turns a file into a Document. The one copy used by folio-cli
// (predict, vocab, attention, ...) and the GUI (DocumentOpener).
//
//   folio::pipeline::LoadedDocument d = folio::pipeline::loadDocumentFile(path);
//   if (!d.ok) fail(d.error);                       // "notes.xyz: unsupported file type: ..."
//   use(d.document, d.annotations);                 // gold annotations of FUNSD / Folio JSON
//
// The kind is sniffed from the content, never from a substring of it, and the suffix only breaks
// ties between text formats:
//  - PNG, JPEG, TIFF, BMP, PNM magic: a scan (OCR); "%PDF-" in the first KiB: a PDF (its text
//    layer or OCR);
//  - gzip magic: inflated (bounded) and sniffed again; only HTML may be inside (.html.gz);
//  - text starting with '{' (after a UTF-8 BOM / white space): parsed as JSON; an object with
//    "format": "folio.document" is a Folio Document, one with a "form" array and no "format"
//    is a FUNSD annotation file (its image beside it), one with a "meeting_transcripts" array a
//    QMSum meeting transcript (document/formats/qmsumformat.h: turns as paragraphs, topics as
//    sections, its queries as the gold question-summary hierarchy), anything else is refused;
//  - text starting with '<', or an .html/.htm/.xhtml name: HTML (libxml2 loader);
//  - a MIME header block with a multipart Content-Type, or an .mht/.mhtml name: an MHTML archive
//    (document/html/mhtml.h); its first text/html part is loaded as the page (the same Document as
//    that HTML saved bare, sourcePath the archive);
//  - a folder: the "Web Page, complete" it holds (X.html beside X_files/, document/html/savedpage.h),
//    loaded as that HTML file (sourcePath the .html);
//  - everything else (empty files, unknown binaries) is refused with the file named.
// Blocking; no exception leaves these functions.

#include "document/annotations.h"
#include "document/document.h"
#include "document/formats/funsd.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>

namespace folio::pipeline {

enum class FileKind { Unknown, Scan, Pdf, Html, FunsdJson, FolioJson, Transcript };

// "scan", "pdf", "html", "funsd-json", "folio-json", "transcript", "unknown".
QString fileKindName(FileKind kind);

struct FileSniff
{
    FileKind kind = FileKind::Unknown;
    bool gzip = false; // the file is gzip-compressed (the kind is its content's)
    bool mhtml = false; // an MHTML archive (.mht / .mhtml): the kind is its page's (Html)
    QString error;     // "<path>: <problem>" when kind is Unknown
};

// Reads as much of the file as it takes to decide (JSON files are parsed whole, up to 1 GiB;
// gzip files are inflated whole, up to 256 MiB).
FileSniff sniffDocumentFile(const QString &path);

struct LoadOptions
{
    FunsdWordOrder funsdOrder = FunsdWordOrder::Annotation; // word order of FUNSD input
    // Tesseract languages ("eng", "deu", "eng+deu") or "auto": English, and pages whose text reads
    // German again in German (pipeline/ocrlanguage.h; a note in LoadedDocument::warnings says so).
    QString ocrLanguages = QStringLiteral("eng");
    int pdfDpi = 300;                                       // PDF rasterisation (and text-layer box scale)
    // Scans: render PDF / TIFF pages to PNG in pageRenderCacheDir(path) (Page::imagePath) so a
    // page view can show them.
    bool renderPages = false;
    int ocrWorkers = 0;                      // OCR worker processes for scans (0: one per core)
    std::function<void(double)> progress;    // 0..1, optional
    const std::atomic_bool *cancel = nullptr; // polled between OCR pages, optional
};

struct LoadedDocument
{
    bool ok = false;
    bool cancelled = false;
    QString error; // "<path>: <problem>" when !ok
    FileKind kind = FileKind::Unknown;
    Document document;
    Annotations annotations; // gold annotations (FUNSD / Folio JSON with annotations)
    QStringList warnings;
};

LoadedDocument loadDocumentFile(const QString &path, const LoadOptions &options = {});

// Lower-case suffixes (no dot) offered in file dialogs, per group: "Scans and PDFs", "Web pages",
// "Folio or FUNSD JSON". Content decides the kind; these only filter the dialog.
QString documentFileDialogFilter();
bool hasDocumentSuffix(const QString &path);
// The same suffixes as a list ("png", "pdf", "html.gz", "json", ...), for searching folders.
QStringList documentFileSuffixes();

// A per-file folder under the user's cache location for rendered PDF / TIFF pages (created).
QString pageRenderCacheDir(const QString &path);

} // namespace folio::pipeline
