#pragma once
// Unlabelled pages for pretraining (issue 16): every document file under a folder (scans are
// OCR'd, PDFs read from their text layer or OCR'd, Folio / FUNSD JSON read for their words only)
// or every document of a project, as model pages. Pages need word boxes: a web page counts once
// rendered (its Document JSON from `folio-cli dom --render`, or a rendered page in a project); a
// bare .html file has none and is skipped as empty. A file that cannot be read
// (corrupt, encrypted, empty, no words) is skipped and counted, never fatal; FUNSD test pages are
// refused (they are what the tagger is scored on).
#include "inference/formtagger/trainer.h"
#include "pipeline/documentsource.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <vector>

namespace folio::pipeline {

struct PretrainCorpus
{
    std::vector<inference::TaggerPage> pages;
    int files = 0;        // document files (or project documents) looked at
    int used = 0;         // those that gave at least one page with words
    int unreadable = 0;   // failed to load (corrupt, encrypted, unsupported)
    int empty = 0;        // loaded but without words
    int refused = 0;      // FUNSD test pages
    long words = 0;
    QStringList skipped;  // "<file>: <why>" for the first 50 skipped files
};

// `source`: a folder (searched recursively, sorted) or a project (.folio, PostgreSQL URL, .folio-pg).
// False + *error only when the source itself cannot be read or a cancel was requested.
bool loadPretrainCorpus(const QString &source, const LoadOptions &options, PretrainCorpus *corpus, QString *error,
                        const std::function<void(int done, int total)> &progress = {},
                        const std::atomic_bool *cancel = nullptr);

// Keeps round(fraction x pages) of the corpus's pages (at least one), drawn by a fixed seeded
// shuffle of the page ids: the same pages for the same corpus and fraction, and a smaller
// fraction's pages always among a larger one's (corpus-size curves; `pretrain --corpus-fraction`).
// `words` is recounted; the file counts stay those of what was read. 0 < fraction <= 1.
void samplePretrainPages(PretrainCorpus *corpus, double fraction);

} // namespace folio::pipeline
