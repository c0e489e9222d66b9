#pragma once
// Question-summary training samples from a Folio project (.folio): every document with a QS
// hierarchy (Annotations::qsSummary / qsRoots) becomes a sample, its sections the source, its tree
// (pre-order, depth 1 = child of the root) the reference. Documents without one are skipped.

#include "pipeline/qs/qmsum.h"

#include <QString>

#include <vector>

namespace folio::pipeline {

// Samples in the QMSum shape (no turns, no evidence). False and *error naming the project (and
// the document) when it cannot be opened or read; true with an empty list when no document has a tree.
bool readQsProject(const QString &path, std::vector<QmsumMeeting> *samples, QString *error);

} // namespace folio::pipeline
