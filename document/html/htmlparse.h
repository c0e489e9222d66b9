#pragma once
// The libxml2 parse step of the HTML loader, shared by every reader of raw HTML trees
// (htmlloader.cpp builds the Document from it, markupnodes.cpp the MarkupLM node list): size and
// binary-junk checks, charset detection and decoding (htmlcharset.h), libxml2's HTML parser with
// lxml's options. Internal to document/ (exposes libxml2 types).
#include "document/html/htmlloader.h"

#include <libxml/tree.h>

namespace folio {

// Returns the parsed tree (free with xmlFreeDoc) or nullptr: then out->error says why, or
// *emptyInput is true for zero bytes (not an error). Charset notes go to out->warnings and
// out->encoding / encodingSource are set. `name` names the source in messages.
xmlDoc *parseHtmlBytes(const QByteArray &bytes, const QString &name, const HtmlLoadOptions &options,
                       HtmlLoadResult *out, bool *emptyInput);

// libxml2's UTF-8 as a QString, a leading U+FEFF kept (QString::fromUtf8 would drop it). size < 0: up to NUL.
QString fromXmlUtf8(const char *utf8, qsizetype size = -1);

} // namespace folio
