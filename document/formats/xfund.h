#pragma once
// XFUND (Xu et al., Findings of ACL 2022): multilingual forms labelled like FUNSD, one JSON file
// per language and split: {"lang", "split", "documents": [{"id", "img": {"fname", "width",
// "height"}, "document": [entity...]}]}, each entity as in FUNSD ({"id", "box", "text", "label",
// "words": [{"box", "text"}], "linking": [[from, to], ...]}, boxes in pixels of the page image).
// Each document becomes one FUNSD-style Document + Annotations (funsdFromJson: same node tree,
// ids and labels), sized from "img" (the images themselves are not needed).
//
// Damage inside a document is repaired, counted and reported, and the rest imported: an entity
// whose label is not header/question/answer/other is dropped with its words; a link naming an
// entity the document does not have is dropped; a box reaching outside the page is clipped to it.
// A document that still cannot be read (no page size, malformed entity) is skipped and named.
// The whole file is refused only when it is not XFUND JSON at all or exceeds the size limit.
// XFUND is CC BY-NC-SA 4.0 (../shared/data/xfund-de/SOURCE.md). Torch-free.
#include "document/annotations.h"
#include "document/document.h"
#include "document/formats/funsd.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace folio {

struct XfundPage
{
    Document document;
    Annotations annotations;
};

struct XfundReport
{
    QString language, split;
    int documents = 0;        // in the file
    int imported = 0;
    int skippedDocuments = 0;
    int droppedEntities = 0;  // label not in the FUNSD label set
    int droppedLinks = 0;     // naming an entity that is not there
    int clippedBoxes = 0;     // reaching outside the page
    QStringList problems;     // "<document id>: what" (at most 50 kept, the counts are complete)
    QString summary() const;  // one line for a log
};

// The FUNSD label set, lower case: header, question, answer, other.
const QStringList &xfundLabels();

// True when `path` looks like an XFUND file (a .json whose top level holds "documents").
bool isXfundFile(const QString &path);

// Reads an XFUND file. False + *error (naming the file) only when nothing can be read from it.
bool importXfundFile(const QString &path, FunsdWordOrder order, std::vector<XfundPage> *pages, XfundReport *report,
                     QString *error);

} // namespace folio
