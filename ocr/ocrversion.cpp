#include "ocr/ocrversion.h"

#include <leptonica/allheaders.h>
#include <tesseract/baseapi.h>

namespace folio::ocr {

QString tesseractVersion()
{
    return QString::fromLatin1(tesseract::TessBaseAPI::Version());
}

QString leptonicaVersion()
{
    char *text = getLeptonicaVersion(); // "leptonica-1.82.0", caller frees
    QString version = QString::fromLatin1(text);
    lept_free(text);
    return version.startsWith(QLatin1String("leptonica-")) ? version.mid(10) : version;
}

} // namespace folio::ocr
