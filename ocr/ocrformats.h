#pragma once
// Text forms of an OCR Document, as the `tesseract` command writes them.
//
// documentToTsv: Tesseract's TSV (header + one row per page/block/paragraph/line/word, 1-based
// page numbers, block/par/line/word counters as TessBaseAPI::GetTSVText numbers them, word
// confidences printed as std::to_string(float)). For a Document made by folio_ocr from an image
// the rows equal `tesseract IMG - --psm N tsv` (same engine underneath).
// documentToHocr: a plain hOCR 1.2 page per Document page (ocr_page, ocr_carea, ocr_par,
// ocr_line, ocrx_word with bbox and x_wconf).

#include "document/document.h"

#include <QByteArray>

namespace folio::ocr {

QByteArray documentToTsv(const Document &doc);
QByteArray documentToHocr(const Document &doc);

} // namespace folio::ocr
