#pragma once
// Moving datasets in and out of a Project (shared by folio-cli import/export, the GUI and the
// benchmark).
//
//   std::vector<folio::DatasetItem> items;
//   folio::projectItems(*project, {}, &items, &error);                 // all documents
//   folio::createDatasetFormat("hfjsonl")->exportItems(items, outDir, {}, &written, &error);
//   folio::importItemsIntoProject(*project, parsed, &report, &error);  // one transaction
#include "document/formats/datasetformat.h"
#include "document/project/project.h"

#include <optional>

namespace folio {

// The spelling of a document's source under which a project stores and finds it: an existing
// file's canonical path (relative, absolute and symlinked spellings of one file agree); any other
// source (a dataset id such as a Label Studio task name) unchanged.
QString canonicalSourcePath(const QString &source);

struct ProjectItemFilter
{
    std::optional<DocumentStatus> status; // only documents with this status
};

// Loads documents (in project order) as dataset items named after the document name without
// its extension (made unique with "-<id>" when two share a name).
bool projectItems(const Project &project, const ProjectItemFilter &filter, std::vector<DatasetItem> *items,
                  QString *error);

struct ImportReport
{
    int added = 0;   // new documents
    int updated = 0; // documents found by source whose annotations were replaced
};

// Adds each item as a document, or, when a document with the same source exists (compared by
// canonicalSourcePath; a Label Studio task exported by Folio carries its document's source),
// replaces its annotations (imported annotations are taken as the user's). Every item must pass
// checkDatasetItem (the check every export runs) before anything is written, and all writes are
// one transaction (Project::applyBatch): a failure leaves the project exactly as it was. Files
// are parsed completely before this is called.
bool importItemsIntoProject(Project &project, const std::vector<DatasetItem> &items, ImportReport *report,
                            QString *error);

// The evidence spans of each item's question-summary nodes against the document they will land
// on (the project's document of the same source, else the item's own): false and
// *error = "<where>: record \"<name>\": qs.nodes[0].children[1].spans[0]: ..." when a span names a word
// that document does not have or runs backwards (its last word before its first). A node marked
// evidenceMissing (its words are known to be gone) is not checked. importItemsIntoProject runs it
// with where "import"; folio-cli import runs it per file first, so the message names the file.
bool checkItemEvidence(const Project &project, const std::vector<DatasetItem> &items, const QString &where,
                       QString *error);
// The same with no project yet (nullptr: one about to be created, which holds no documents): each
// item's evidence against its own document. folio-cli import --create runs it before creating.
bool checkItemEvidenceIn(const Project *project, const std::vector<DatasetItem> &items, const QString &where,
                         QString *error);

} // namespace folio
