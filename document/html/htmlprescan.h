#pragma once
// A cheap count of the nodes an HTML page will become, read from the raw markup before libxml2
// builds its tree: the loader refuses a page whose count alone passes its node limit, so a
// 2.5 M-element page costs its bytes, not 3.7 GB of trees first.
//
//   if (estimateHtmlNodes(data, size, options.maxNodes) > options.maxNodes) refuse();
//
// Counted: start tags (`<` + an ASCII letter; attribute values in quotes are skipped, so a `>`
// inside one ends nothing) and runs of non-white text between tags. Not counted: end tags,
// comments, doctype / processing instructions, the content of <script>, <style> (not kept by the
// loader), <textarea> and <title> (one text run). The parser adds html/head/body where they are
// missing and may merge or drop text, so the count is an estimate near the real node count; the
// loader still counts the nodes it makes. Bytes are read as ASCII-compatible (UTF-8 after
// decoding); counting stops once it passes `stopAfter`.
#include <QtGlobal>

namespace folio {

qint64 estimateHtmlNodes(const char *data, qint64 size, qint64 stopAfter);

} // namespace folio
