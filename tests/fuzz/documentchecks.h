#pragma once
// Invariants every Document a parser returns must hold (fuzz targets on document parsers): node
// tree in pre-order with consistent children, words and sections pointing inside the document,
// and a JSON form that reads back (what `folio-cli dom` writes, a project stores and import reads).

#include "document/annotations.h"
#include "document/document.h"

#include <QString>

namespace folio::fuzz {

// Aborts through invariantFailed naming `where` and the first broken rule.
void checkDocument(const Document &doc, const QString &where);
// documentToJson then documentFromJson must succeed and give the same JSON again.
void checkJsonRoundTrip(const Document &doc, const Annotations *annotations, const QString &where);

} // namespace folio::fuzz
