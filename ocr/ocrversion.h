#pragma once
// Versions of the OCR libraries linked into Folio (runtime values, not compile-time macros).
#include <QString>

namespace folio::ocr {
QString tesseractVersion();
QString leptonicaVersion();
} // namespace folio::ocr
