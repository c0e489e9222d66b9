#pragma once
// Entities and key -> value links of documents as link-head pages (inference/formtagger/linking.h):
// FUNSD splits for training and evaluation, and the conversion of one page's entities.
// No exception leaves these functions.

#include "document/annotations.h"
#include "document/formats/funsd.h"
#include "inference/formtagger/linking.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace folio::pipeline {

// The entities of `annotations` that lie on the page whose words are `pageWordIds` (word indices
// into that list; words elsewhere dropped), and the links between them. `acceptedOnly` keeps only
// what the user made or accepted (training data from a project).
inference::LinkPage linkPageOf(const inference::TaggerPage &page, const QStringList &pageWordIds,
                               const Annotations &annotations, bool acceptedOnly = false);

// A FUNSD split (train, train-dev, dev, test; the same pages as loadFunsdSplit; an XFUND file too)
// as link pages.
bool loadFunsdLinkPages(const QString &datasetDir, const QString &split, FunsdWordOrder order,
                        std::vector<inference::LinkPage> *pages, QString *error);

} // namespace folio::pipeline
