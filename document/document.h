#pragma once
// Document: the spine every part of Folio speaks.
//
// A Document is what a loader made of one source file (web page, scan, PDF):
//  - pages (size in pixels, optional image path),
//  - a node tree (DOM elements and text nodes, or OCR blocks > paragraphs > lines > words),
//  - the reading-order list of words with pixel boxes and 0-1000 boxes,
//  - a section tree (headings / <section> nesting / OCR layout).
// Nodes and words carry stable ids (DOM path + offsets, OCR word ids) so annotations survive
// re-rendering and re-OCR. Everything is plain data: copyable, no Qt object ownership.

#include <QList>
#include <QPair>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <vector>

namespace folio {

// A box in 0..1000 page-normalised integer coordinates, as the layout models consume them:
// x = int(1000 * px / pageWidth) (truncation), clamped to [0, 1000].
struct NormBox
{
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool operator==(const NormBox &o) const { return x0 == o.x0 && y0 == o.y0 && x1 == o.x1 && y1 == o.y1; }
};

// Normalise a pixel box on a page of the given size (truncation towards zero, clamped).
NormBox normaliseBox(const QRectF &pixels, const QSizeF &pageSize);

enum class SourceKind { Unknown, Html, Image, Pdf };
QString sourceKindName(SourceKind kind);
SourceKind sourceKindFromName(const QString &name);

enum class NodeKind {
    Root,      // the document itself (one per Document, index 0)
    Element,   // an HTML element
    Text,      // an HTML text node
    Page,      // a scanned/PDF page
    Block,     // OCR block
    Paragraph, // OCR paragraph
    Line,      // OCR text line
    Word,      // OCR word (also listed in Document::words)
};
QString nodeKindName(NodeKind kind);
NodeKind nodeKindFromName(const QString &name, bool *ok = nullptr);

struct Page
{
    QSizeF size;        // pixels (or CSS pixels for web pages)
    QString imagePath;  // rendered/scanned image, empty when none
    double dpi = 0;     // 0 when unknown
};

struct Node
{
    QString id;              // stable id: "h<index>" for DOM nodes (older files: their XPath), "p1/b2/l3/w4" for OCR
    QString step;            // DOM nodes: the XPath step ("div[2]", "text()"); see document/html/htmlxpath.h
    NodeKind kind = NodeKind::Root;
    int parent = -1;         // index into Document::nodes, -1 for the root
    std::vector<int> children;
    QString tag;             // element tag (lower case), empty otherwise
    QString text;            // text nodes, OCR words/lines: normalised text
    QList<QPair<QString, QString>> attributes; // element attributes, in source order
    int page = -1;           // page index, -1 when unknown / not rendered
    QRectF box;              // pixel box on its page; null when unknown
    bool visible = true;     // false when rendering found it hidden
    double confidence = -1;  // OCR confidence 0..100, -1 when not applicable
};

struct Word
{
    QString id;            // stable id, unique in the document
    QString text;
    int page = 0;
    QRectF box;            // pixels on its page
    NormBox norm;          // 0..1000 on its page
    int node = -1;         // owning node (OCR word node or DOM text node)
    double confidence = -1;
    bool userEdited = false; // text corrected by the user: re-OCR keeps it
};

struct Section
{
    QString title;
    int level = 0;         // 1 = top level (h1), 0 = virtual root
    int parent = -1;       // index into Document::sections, -1 for top-level sections
    std::vector<int> children;
    int node = -1;         // heading / <section> node, -1 when none
    int firstWord = 0;     // word range [firstWord, endWord) owned directly by the section
    int endWord = 0;
};

struct Document
{
    QString sourcePath;
    SourceKind kind = SourceKind::Unknown;
    QString title;
    std::vector<Page> pages;
    std::vector<Node> nodes;       // nodes[0] is the root when non-empty
    std::vector<Word> words;       // reading order
    std::vector<Section> sections; // document order (pre-order)

    bool isEmpty() const { return nodes.empty() && words.empty(); }
    int wordIndex(const QString &wordId) const; // -1 when absent (linear; use an index for bulk)
    // Recompute Word::norm from boxes and page sizes.
    void normaliseWordBoxes();
    // Ids of the words owned by `node` or any node below it, in reading order.
    QStringList wordIdsUnder(int node) const;
    // Append a node under parent; returns its index and keeps children lists in sync.
    int addNode(Node node, int parent);
};

} // namespace folio
