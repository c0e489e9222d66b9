#pragma once
// Web page → MarkupLM nodes and XPaths, as the reference `MarkupLMFeatureExtractor` (Hugging Face
// v4.36, BeautifulSoup html.parser) gives them, on libxml2's tree (htmlparse.h, the HTML loader's
// parse step). Torch-free.
//
//   folio::MarkupNodeList r = folio::extractMarkupNodesFromFile("page.html");
//   if (!r.ok) { show(r.error); return; }
//   tokenizer.encode(r.nodes, r.xpaths)          // (as UTF-8) -> MarkupLM inputs
//
// Rules (checked on ../shared/fixtures/parity-new/markuplm_tokenizer's pages):
//  - every text run whose parent is an element is a node (text directly under the document is
//    not), and so are comments and the text of <script> / <style>; adjacent text pieces are one run;
//  - its text is Python's html.unescape applied to the already decoded text (double unescaping:
//    "&amp;lt;" gives "<"), then str.strip() (Unicode white space, NBSP included); empty: no node;
//  - its XPath runs from the root element to the text's parent: "/tag" when the element is the
//    only child of its parent with that tag name, "/tag[k]" (1-based among same-name siblings)
//    otherwise; siblings without text count too.
// Known differences from BeautifulSoup's html.parser: libxml2 repairs markup (implied <html>/<body>,
// a <p> closed by a block element, text after </html> moved into <body>), where html.parser keeps
// the tags as written; HTML 5-only entity names stay as written.
//
// Bounds: the walk is iterative; an XPath keeps its first `maxXPathUnits` units (deeper text keeps
// the path of its ancestors up to that depth: the tokenizer keeps only its first max_depth units
// anyway), node texts longer than maxTextChars are truncated (a warning), at most maxNodes nodes.
#include "document/html/htmlloader.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace folio {

struct MarkupNodeOptions
{
    HtmlLoadOptions load;      // file size, charset, maxTextChars, maxNodes (nodes here)
    int maxXPathUnits = 512;   // units kept per XPath (>= 1)
};

struct MarkupNodeList
{
    bool ok = false;
    QString error;        // "<path>: <problem>"
    QStringList warnings;
    QStringList nodes;    // node texts, document order
    QStringList xpaths;   // one per node
};

MarkupNodeList extractMarkupNodes(const QByteArray &html, const QString &sourcePath = QString(),
                                  const MarkupNodeOptions &options = {});
MarkupNodeList extractMarkupNodesFromFile(const QString &path, const MarkupNodeOptions &options = {});

} // namespace folio
