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
    int updated = 0; // documents found by source path whose annotations were replaced
};

// Adds each item as a document (all new ones in one transaction), or, when a document with the
// same source path exists, replaces its annotations (imported annotations are taken as the
// user's). Files are parsed completely before this is called, so a bad file writes nothing.
bool importItemsIntoProject(Project &project, const std::vector<DatasetItem> &items, ImportReport *report,
                            QString *error);

} // namespace folio
