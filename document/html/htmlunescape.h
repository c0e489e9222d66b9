#pragma once
// Python's html.unescape (3.11), as the MarkupLM feature extractor applies it to text libxml2 /
// BeautifulSoup already decoded (so "&amp;lt;" in the source ends up as "<"): numeric references
// with Python's replacement rules (C1 controls read as windows-1252, surrogates and > U+10FFFF as
// U+FFFD, noncharacters and most controls dropped), named references with or without ';', longest
// legacy prefix for names without ';'. Named references come from libxml2's HTML 4 table (every
// HTML 4 name; names only HTML 5 defines stay as written).
#include <QString>

namespace folio {

QString pythonHtmlUnescape(const QString &text);

} // namespace folio
