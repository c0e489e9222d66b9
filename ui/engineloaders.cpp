// Wires the engines' loaders (HTML parser, OCR) into DocumentOpener. The only place in ui/ that
// knows which engine opens which file type.
#include "ui/documentopener.h"

namespace folio {

void registerEngineLoaders()
{
    // HTML: document/htmlloader.h; images and PDFs: ocr/ (registered as the engines land).
}

} // namespace folio
