#pragma once
// Train on Project for web fields (issue 15): WebFormer training pages from what users answered
// in a project, shared by the GUI's field training dialog (and anything headless).
//
// A page is a web document of the project with at least one accepted field answer (a value, or
// "no value on this page"). Its gold values per field are the accepted values' texts; a field of
// the field set the user has not answered on such a page counts as "no value" there. Suggestions
// the user has not accepted are not ground truth. Fields of the field set without a single example
// value are left out of training (the model will not know them) and named in the outcome.
// No exception leaves these functions.

#include "document/document.h"
#include "document/structured/candidateranker.h"
#include "inference/webformer/webformer.h"
#include "pipeline/webfieldset.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <map>
#include <vector>

namespace folio {
class Project;
}

namespace folio::pipeline {

// Pages (with the value among their candidates) a project needs before its own ranker is tried: one
// held-out page per inner fold. Measured on Amazon (BENCHMARKS.md, bench_site_ranker): from 4 pages
// the rule gains 0.56 sku F1 and loses 0.02 price F1 against keeping the shipped rankers.
constexpr int kMinRankerPages = 4;
// Answered pages a field's ranker learns from at most (the first in project order): rankers learn
// a site from a few pages (BENCHMARKS.md: SWDE, 2 pages a site), and every page's candidates are
// held in memory while training.
constexpr int kMaxRankerPages = 200;

struct FieldTrainingData
{
    std::vector<inference::WebPage> pages;
    std::vector<std::string> fields;   // the fields with at least one example value
    QStringList fieldsWithoutExamples; // of the field set; left out
    int webDocuments = 0;              // web documents in the project
    // The answered pages the rankers learn from (at most kMaxRankerPages, project order): the page
    // and its accepted values per field of the set (as in WebPage::gold). Their candidates are
    // found in trainFieldExtractor (the worker), not while loading (the GUI thread).
    struct RankerSource
    {
        Document doc;
        std::map<std::string, std::vector<std::string>> gold;
    };
    std::vector<RankerSource> rankerSources;
    // Where a field's ranker comes from when the project cannot train a better one (the shipped
    // product model by default; empty: nowhere).
    QString rankersFallbackDir;
};

// False + *error (naming the project) when the project cannot be read, has no web page with an
// accepted answer, or no field of the set has an example value.
bool loadFieldTrainingData(Project *project, const std::vector<FieldSpec> &fieldSet, FieldTrainingData *data,
                           QString *error);

struct FieldTrainingOutcome
{
    bool ok = false;
    bool cancelled = false;
    QString error;
    QString checkpointDir;
    QStringList fields;
    double bestDevF1 = -1; // -1: no dev pages
    double seconds = 0;
    long steps = 0;
    QStringList rankerNotes; // per ranked field: which ranker the model folder holds, and why
};

// The rankers' training rows: per field with an example value, one row per answered page
// (document/structured/fieldrankers.h; price and sku their own candidates, any other field whole
// text nodes), keyed by the ranker's field name (the field name in lower case). A value answered
// with a text that does not read as one ("call us" for a price) leaves that page out of that field.
// Empty when `cancel` is set on the way.
std::map<std::string, std::vector<structured::RankerPage>> rankerRows(const FieldTrainingData &data,
                                                                      const std::atomic<bool> *cancel = nullptr);

// Trains a small WebFormer (every 5th page held out as dev from 5 pages on) into options.outputDir.
// Then, for each field with examples, the model folder gets the better of two candidate rankers,
// compared on the project's own answered pages: one trained on them (from kMinRankerPages pages
// whose value is among the page's candidates; its F1 from a 4-fold cross-validation over those
// pages) and the fallback folder's (price and sku: the shipped ones; its F1 on the same pages, none
// of which it was trained on). A tie keeps the fallback; a ranker with cross-validated F1 0 is not
// kept. Extract Fields then answers the field with the ranker's pick (webfieldextraction.h): on
// the pages of a site it was taught, a text-node ranker from a few pages is far ahead of the small
// WebFormer (BENCHMARKS.md: SWDE seen sites, 0.95 from 2 pages a site against 0.29 from 30).
FieldTrainingOutcome trainFieldExtractor(const inference::WebFormerTrainOptions &options, const FieldTrainingData &data,
                                         const std::function<void(const inference::WebFormerTrainProgress &)> &progress = {},
                                         const std::atomic<bool> *cancel = nullptr);

} // namespace folio::pipeline
