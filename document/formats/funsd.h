#pragma once
// FUNSD (Jaume et al., ICDAR-OST 2019) import and export. Torch-free.
//
// One FUNSD page is `annotations/<id>.json` = {"form": [entity...]} plus `images/<id>.png`.
// Import gives a Document (one page sized from the PNG header; nodes Root > Page > Block per
// entity (id "e<id>", text and box of the entity) > Word) and Annotations (one Entity per FUNSD
// entity, label upper-cased: QUESTION / ANSWER / HEADER / OTHER; one Link per distinct `linking`
// pair). Word ids are "e<entity>w<k>". Every word is kept (also empty ones, so export is
// lossless); training drops words whose text is blank (see funsdTrainingWordIds).
//
// Word order: FunsdWordOrder::Annotation is the standard protocol's order (entity by entity, in
// file order, as the HF loader and the LayoutLM scripts); FunsdWordOrder::Reading re-sorts words
// into line-by-line reading order (lines top to bottom, words left to right), which is what an
// OCR engine produces; FunsdWordOrder::Layout is the layout-aware serialisation of
// document/layoutorder.h (recursive XY-cut: columns, cells, lines). Entities keep their words in
// the chosen order.
//
// FUNSD is released for non-commercial research and educational use only (see
// ../shared/data/funsd/SOURCE.md).

#include "document/annotations.h"
#include "document/document.h"

#include <QByteArray>
#include <QSize>
#include <QString>
#include <QStringList>

namespace folio {

enum class FunsdWordOrder { Annotation, Reading, Layout };

// Width and height from a PNG's IHDR chunk. Returns false with a message naming the file.
bool readPngSize(const QString &path, QSize *size, QString *error);

// The start of a one-page labelled form (FUNSD, XFUND, SROIE): an Image document with one page of
// `pageSize` pixels, its root node ("doc") and its page node ("p1"); returns the page node's index.
int startSinglePageDocument(Document *d, const QSizeF &pageSize);

// Parses FUNSD JSON text. `pageSize` is the image size in pixels (needed for 0-1000 boxes).
bool funsdFromJson(const QByteArray &json, const QSize &pageSize, FunsdWordOrder order,
                   Document *doc, Annotations *annotations, QString *error);

// Reads `<dir>/annotations/<id>.json` and sizes the page from the PNG next to it
// (`../images/<id>.png`, else `<id>.png` beside the JSON), or from `imagePath` when given.
bool importFunsdFile(const QString &jsonPath, FunsdWordOrder order, Document *doc, Annotations *annotations,
                     QString *error, const QString &imagePath = QString());

// The FUNSD JSON of a Document + Annotations. Entities appear in FUNSD id order ("e<n>" ids
// from an import keep their number; others are numbered after them); each entity's words come
// from its Block node when the document was imported from FUNSD, otherwise from its words.
QByteArray funsdToJson(const Document &doc, const Annotations &annotations, bool indented = true);

// The annotation files of a split of the dataset root (`.../funsd/dataset`): split is
// "train" (training_data) or "test" (testing_data). Sorted by file name.
QStringList funsdSplitFiles(const QString &datasetDir, const QString &split);

// Ids of the words a model trains on: non-blank text, in document (word list) order.
QStringList funsdTrainingWordIds(const Document &doc);

} // namespace folio
