#pragma once
// The JSON form of a Document and its Annotations (what `folio-cli` prints and reads).
//
// Format (version 1), one object:
//   { "format": "folio.document", "version": 1,
//     "source": path, "kind": "html"|"image"|"pdf"|"unknown", "title": str,
//     "pages":    [ { "width": px, "height": px, "image"?: path, "dpi"?: n } ],
//     "nodes":    [ { "id": str, "kind": "root"|"element"|"text"|"page"|"block"|"paragraph"|"line"|"word",
//                     "parent": index (-1 for the root), "step"?: XPath step (web pages: the XPath is
//                     the steps from the root, document/html/htmlxpath.h), "tag"?: str, "text"?: str,
//                     "attributes"?: [[name, value], ...], "page"?: n, "box"?: [x0, y0, x1, y1],
//                     "hidden"?: true, "confidence"?: 0..100 } ],
//     "words":    [ { "id": str, "text": str, "page": n, "box": [x0, y0, x1, y1] (pixels),
//                     "norm": [x0, y0, x1, y1] (0..1000), "node": index, "confidence"?: 0..100,
//                     "edited"?: true } ],
//     "sections": [ { "title": str, "level": n, "parent": index, "node": index, "words": [first, end] } ],
//     "annotations"?: { "entities": [ { "id", "label", "words": [word ids], "source": "user"|"model:<ckpt>",
//                                       "confidence", "state": "accepted"|"suggested"|"rejected" } ],
//                       "links":    [ { "id", "from", "to", "source", "confidence", "state" } ],
//                       "fields":   [ { "field", "words", "text", "source", "confidence", "state" } ],
//                       "qs": { "summary": str, "nodes": [ { "id", "question", "summary", "evidence": [section keys|titles],
//                               "spans"?: [ { "first", "last", "text" } ], "source"?, "confidence"?, "state"?,
//                               "evidenceMissing"?: true, "children": [..] } ] } } }   (document/qstree.h)
// Children lists are not stored: they follow from "parent" in node order. Optional keys ("?")
// are omitted when they hold their default. Reading then writing gives back the same text.

#include "document/annotations.h"
#include "document/document.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

class QIODevice;

namespace folio {

QJsonObject documentToJsonObject(const Document &doc, const Annotations *annotations = nullptr);
QByteArray documentToJson(const Document &doc, const Annotations *annotations = nullptr, bool indented = true);
// The same text, written to `out` one node / word at a time (no whole JSON tree in memory: for
// large pages). False when a write fails.
bool writeDocumentJson(QIODevice *out, const Document &doc, const Annotations *annotations = nullptr, bool indented = true);

QJsonObject annotationsToJsonObject(const Annotations &annotations);
// Returns false and fills *error ("where: what") on malformed input; never throws.
bool annotationsFromJsonObject(const QJsonObject &object, Annotations *annotations, QString *error);

// Parses a Document (and its annotations, when present and asked for). Validates indices,
// kinds and types; returns false with a message naming the first problem.
bool documentFromJson(const QByteArray &json, Document *doc, Annotations *annotations, QString *error);

// Reads a file (capped at maxBytes) and parses it; messages start with the file path.
bool readDocumentJsonFile(const QString &path, Document *doc, Annotations *annotations, QString *error,
                          qint64 maxBytes = qint64(1) << 30);

} // namespace folio
