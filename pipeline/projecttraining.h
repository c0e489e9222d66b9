#pragma once
// Training data from a Folio project (issue 12: train on what users labelled, with their own label
// set), shared by `folio-cli train --data x.folio` and the GUI's Model > Train on Project.
// No exception leaves these functions.

#include "inference/formtagger/trainer.h"

#include <QString>

#include <string>
#include <vector>

namespace folio {
class Project;
}

namespace folio::pipeline {

// Pages of the documents with at least one accepted entity (suggestions the user has not accepted
// are not ground truth), tagged BIO from the accepted entities; *documents counts the documents.
// `layoutOrder`: each page's words in the layout-aware order (document/layoutorder.h).
std::vector<inference::TaggerPage> labelledProjectPages(Project *project, int *documents, bool layoutOrder = false);

// The label set the pages use: "O" first, then B-/I- per entity label in name order. Tags that are
// not "O", "B-x" or "I-x" are refused (false + *error naming the page and the tag).
bool labelSetOfPages(const std::vector<inference::TaggerPage> &pages, std::vector<std::string> *labels, QString *error);

// Opens `projectPath` read-only and returns its labelled pages and label set; false + *error naming
// the project when it cannot be opened or has fewer than 2 labelled pages.
bool loadProjectTrainingData(const QString &projectPath, std::vector<inference::TaggerPage> *pages,
                             std::vector<std::string> *labels, int *documents, QString *error, bool layoutOrder = false);

// A further labelled source for a training run (Train on Project's "Also train on"): another
// project (.folio, or a PostgreSQL project URL: its accepted labels), a FUNSD dataset root, an
// XFUND file or a SROIE receipts folder (their training pages). All its pages train; none is used to
// pick the best epoch. *description: "<source>: N pages". False + *error naming the source.
bool loadExtraTrainingSource(const QString &source, bool layoutOrder, std::vector<inference::TaggerPage> *pages,
                             QString *description, QString *error);

} // namespace folio::pipeline
