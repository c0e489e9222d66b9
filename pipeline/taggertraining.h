#pragma once
// Training data and training runs of the layout tagger, shared by `folio-cli train / eval` and the
// GUI's TrainWorker: FUNSD splits as model pages, and a training run over labelled pages with the
// dev share carved from them. Blocking; no exception leaves these functions.

#include "document/formats/funsd.h"
#include "document/formats/sroie.h"
#include "document/formats/xfund.h"
#include "inference/formtagger/trainer.h"

#include <QString>

#include <atomic>
#include <vector>

namespace folio::pipeline {

// The default FUNSD root: $FOLIO_FUNSD_DIR, else ../shared/data/funsd/dataset beside the sources.
QString defaultFunsdDir();

// "annotation" (the FUNSD protocol's order), "reading" (lines, as OCR gives them) or "layout" (the
// XY-cut serialisation of document/layoutorder.h); false otherwise.
bool funsdWordOrderFromName(const QString &name, FunsdWordOrder *order);

// split: "train" (all 149 pages), "train-dev" (the 129 after the seed-13 dev split), "dev" (its
// 20), "test" (50). False + *error naming the folder or file on failure.
// `datasetDir` may also be an XFUND file (FUNSD's labels in another language, one file per split):
// "train" and "test" are then the whole file, "train-dev" / "dev" its seed-13 split with 15 % of
// the pages (at least one) as dev; the file's repairs are reported on stderr-free *report
// (a SROIE folder's import on *sroieReport).
bool loadFunsdSplit(const QString &datasetDir, const QString &split, FunsdWordOrder order,
                    std::vector<inference::TaggerPage> *pages, QString *error, XfundReport *report = nullptr,
                    SroieReport *sroieReport = nullptr);

// `datasetDir` may also be a SROIE receipts folder (document/formats/sroie.h): "test" is its held-out
// fifth (isSroieHeldOut), "train" the other receipts, "train-dev" / "dev" their seed-13 split with
// 15 % as dev; tags are B-/I-COMPANY, DATE, ADDRESS, TOTAL.
bool loadSroieSplit(const QString &folder, const QString &split, std::vector<SroieReceipt> *receipts, QString *error,
                    SroieReport *report = nullptr);

// BIO tag set of a labelled source: FUNSD's (HEADER, QUESTION, ANSWER) for FUNSD and XFUND, the
// four key fields for SROIE. A training run over several sources takes the union, in order.
std::vector<std::string> formSourceTags(const QString &datasetDir);

// The documents of an XFUND file's split as above (Document + Annotations, for link pages).
bool loadXfundSplitDocuments(const QString &path, const QString &split, FunsdWordOrder order, std::vector<XfundPage> *pages,
                             QString *error, XfundReport *report = nullptr);

// Licence line of a labelled-form source, recorded in checkpoints trained on it.
QString formSourceLicence(const QString &datasetDir);

struct TaggerTrainOutcome
{
    bool ok = false;
    bool cancelled = false;
    QString error;
    QString checkpointDir;
    double bestDevF1 = 0;
    int bestEpoch = 0;
    double seconds = 0;
};

// Trains on labelled pages (at least 2); about 15% of them (at least one) are held out as the dev
// pages that pick the best epoch (never a test split). `extraTrain`: pages of further sources that
// only train (the dev pages come from `pages` alone: the run is chosen for the target's data).
TaggerTrainOutcome trainTaggerOnPages(const inference::TrainConfig &config, const std::vector<inference::TaggerPage> &pages,
                                      const inference::ProgressCallback &progress, std::atomic<bool> *cancel,
                                      const std::vector<inference::TaggerPage> &extraTrain = {});

} // namespace folio::pipeline
