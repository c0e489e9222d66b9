#pragma once
// A rendered page's geometry (what the DOM snapshot script returns) and its merge into a Document.
//
//   DomSnapshot snap;
//   QString error;
//   if (!parseDomSnapshotJson(jsonFromTheRenderer, &snap, &error)) ...
//   SnapshotMergeStats stats = mergeDomSnapshot(&doc, snap);   // boxes, visibility, page size
//
// The snapshot is produced by ui/documents/websnapshot (QtWebEngine, isolated world) or by the
// `folio-websnapshot` helper; this half is plain data so engines and folio-cli can use it
// without WebEngine.
//
// JSON (version 1):
//   { "format": "folio.domsnapshot", "version": 1, "url": str,
//     "width": scrollWidth, "height": scrollHeight, "viewport": [w, h], "blocked_requests"?: n,
//     "nodes": [ { "xpath": str, "text"?: normalised text (text nodes only),
//                  "box": [x, y, w, h] (CSS px, page coordinates), "visible": bool,
//                  "words"?: [[x, y, w, h], ...] (text nodes: one per white-space token) } ] }
//
// Matching: by XPath first (the script writes XPaths the way the HTML loader does); Document text
// nodes left unmatched (Blink inserts <tbody>, moves misplaced table content...) are then matched
// in order to unmatched snapshot text nodes with the same text. Word boxes are taken from the
// snapshot's per-token boxes when the token counts agree, else each word gets its node's box.

#include "document/document.h"

#include <QByteArray>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <vector>

namespace folio {

struct DomSnapshotNode
{
    QString xpath;
    QString text;               // text nodes: normalised text; empty for elements
    bool isText = false;
    QRectF box;                 // CSS px in page coordinates
    bool visible = true;
    std::vector<QRectF> words;  // text nodes: one per token
};

struct DomSnapshot
{
    QString url;
    QSizeF pageSize;            // document scroll size (CSS px)
    QSizeF viewport;
    std::vector<DomSnapshotNode> nodes;
    int blockedRequests = -1;   // requests the renderer refused (network, files elsewhere); -1 unknown
};

struct SnapshotMergeStats
{
    int nodesMatchedByXPath = 0;
    int textNodesMatchedByText = 0;
    int nodesUnmatched = 0;     // Document element/text nodes with no snapshot counterpart
    int wordsBoxed = 0;         // words that received a box
    int wordsFromNodeBox = 0;   // of those, from the node box (token counts disagreed)
};

// Bounded parser (64 MB of JSON); never throws; *error says what is wrong.
bool parseDomSnapshotJson(const QByteArray &json, DomSnapshot *snapshot, QString *error);

// Sets Document::pages to one page of the snapshot's size, node boxes (page 0) and visibility,
// word boxes and 0-1000 boxes. Nodes with no counterpart keep a null box.
SnapshotMergeStats mergeDomSnapshot(Document *doc, const DomSnapshot &snapshot);

} // namespace folio
