#pragma once
// HTML → folio::Document, on libxml2's HTML parser (the parser under lxml).
//
//   folio::HtmlLoadResult r = folio::loadHtmlFile("page.html");
//   if (!r.ok) { show(r.error); return; }            // "page.html: file is 3.1 GB, limit 256 MB"
//   for (const QString &w : r.warnings) log(w);       // charset guesses, truncated text nodes
//   const folio::Document &doc = r.document;          // nodes, words, sections; no boxes yet
//
// What the Document holds:
//  - nodes[0] is the Root; then every element (NodeKind::Element, lower-case tag, attributes in
//    source order) and every text node (NodeKind::Text), in document order (pre-order), so a
//    node's subtree is a contiguous index range.
//  - Node::id is compact, "h<node index>" (the root: "/"); Node::step is the node's XPath step,
//    and xpathOf() (htmlxpath.h) gives the XPath as lxml's getpath() writes it:
//    "/html/body/div[2]/p", a position only where same-tag siblings exist; text nodes end in
//    "/text()" or "/text()[k]". Memory and JSON stay linear in the page (ids that were whole
//    XPaths grew with nodes x depth).
//  - Text nodes: adjacent libxml2 text/CDATA siblings are merged (as lxml's .text/.tail do),
//    whitespace is normalised (runs of HTML whitespace " \t\n\r\f" → one space, trimmed) and
//    whitespace-only text nodes are dropped. Text inside <script> and <style> is not kept
//    (the elements are); comments and processing instructions are skipped.
//    textNodeSequence() is therefore exactly: lxml's .text and .tail strings in document order,
//    skipping comment/PI content and script/style content, normalised the same way, empties
//    dropped (tests/document/lxml_text_nodes.py is the reference).
//  - words: one Word per token of a text node split on Unicode white space (NBSP included),
//    Word::node = its text node, Word::id = "<text node id>#<char offset in node text>".
//    Word::page = 0 with a null box until a rendered snapshot merges boxes in; pages holds one
//    page of unknown (0 x 0) size until then.
//  - sections: from h1–h6 and <section> nesting (see htmlsections.h).
//  - title: the <title> text.
//
// Charset: BOM, <meta> charset/http-equiv, valid UTF-8, else windows-1252 (see htmlcharset.h);
// the choice lands in HtmlLoadResult::encoding and any guess in warnings.
// Gzip files (*.gz) are inflated first (bounded by maxFileBytes too).
//
// Robustness: the tree walk is iterative (100,000-deep nesting is fine), sizes are bounded
// (file bytes, node count, characters per text node: longer ones are truncated with a warning),
// binary junk is refused with a message; malformed markup is repaired the way libxml2 does.
// Thread-safe (one libxml2 parser context per call), never throws.

#include "document/document.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

#include <vector>

namespace folio {

struct HtmlLoadOptions
{
    qint64 maxFileBytes = qint64(256) << 20; // bytes read (after gunzip); larger files fail
    int maxNodes = 5'000'000;                // Document nodes; more fails the load
    int maxTextChars = 1 << 20;              // characters kept per text node; longer ones are truncated
    QByteArray encoding;                     // force a charset (empty: detect)
};

struct HtmlLoadResult
{
    bool ok = false;
    QString error;        // "<path>: <problem>" when !ok
    QStringList warnings; // "<path>: <note>" (charset guesses, truncations, parser repairs count)
    QByteArray encoding;  // the charset used
    QString encodingSource; // "bom", "meta", "utf8", "fallback", "forced"
    Document document;
};

HtmlLoadResult loadHtmlFile(const QString &path, const HtmlLoadOptions &options = {});
// `sourcePath` only names the source in messages and Document::sourcePath.
HtmlLoadResult loadHtmlBytes(const QByteArray &bytes, const QString &sourcePath,
                             const HtmlLoadOptions &options = {});

// Normalise HTML whitespace: runs of " \t\n\r\f" become one space; leading/trailing removed.
QString normaliseHtmlWhitespace(const QString &text);

// Indices of the Text nodes in document order (the "text node sequence").
std::vector<int> textNodeSequence(const Document &doc);

// Node id → node index, for selecting by id (by XPath: XPathIndex in htmlxpath.h).
QHash<QString, int> nodeIndexById(const Document &doc);

} // namespace folio
