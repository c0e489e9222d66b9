#pragma once
// The simulated annotator (issue 47, `folio-cli simulate-labelling`): replays the labelling loop on a
// labelled corpus. Folio proposes the next page (most uncertain first, at random or in document
// order), its form tagger suggests labels, the simulated person fixes them into the gold labels
// (pagecorrection.h counts the edits the annotation workspace would record), and every N pages the
// tagger retrains on the pages done so far (taggertraining.h); the held-out pages only score each
// new model (entity F1, seqeval semantics), never train or pick it. Blocking; no exception leaves.

#include "pipeline/labelling/pagecorrection.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <vector>

namespace folio::inference {
struct TaggerPage;
}

namespace folio::labelling {

struct SimulationPage
{
    QString id;
    Document document;
    Annotations gold;
};

struct SimulationData
{
    std::vector<SimulationPage> pool; // the pages the person labels
    std::vector<SimulationPage> test; // held out: scores each model, never trains it
    QStringList labels;               // entity labels the person labels (FUNSD: HEADER, QUESTION, ANSWER)
    QStringList notes;                // what was decided for the user (a hold-out made automatically)
};

// A project needs this many labelled documents held out (and as many to train on) before a run.
inline constexpr int kMinHeldOutPages = 2;
inline constexpr int kMinPoolPages = 2;

// `data`: a FUNSD dataset root (training_data is the pool, testing_data held out), an XFUND file
// (the pool; `test` must name the held-out XFUND file) or a .folio project (its documents with
// accepted labels; without `test`, a fifth of them, at least kMinHeldOutPages, the last by position,
// are held out: a project needs kMinHeldOutPages + kMinPoolPages labelled documents). `test`
// (optional) overrides the held-out set: a FUNSD root (its testing_data), an XFUND file or a project.
// False + *error naming the file and the problem.
bool loadSimulationData(const QString &data, const QString &test, SimulationData *out, QString *error);

enum class PageOrder { Uncertain, Random, Document };
bool pageOrderFromName(const QString &name, PageOrder *order);
QString pageOrderName(PageOrder order);

struct SimulationConfig
{
    QString startModel;        // a folio-formtagger checkpoint folder; empty: no model (no suggestions at first)
    PageOrder order = PageOrder::Uncertain;
    int retrainEvery = 5;      // 0: never retrain (the start model stays)
    int pages = 0;             // pages to label (0: the whole pool)
    double budgetSeconds = 0;  // per retraining; 0: none (the run's epochs decide)
    unsigned seed = 1;         // random order, training
    int epochs = 10;
    int maxSteps = 0;          // per retraining (tests); 0: no limit
    int hidden = 256, layers = 4; // a model trained from scratch (a start model keeps its sizes)
    int threads = 2;
    QString workDir;           // retrained checkpoints go to <workDir>/model-<n>
    const std::atomic<bool> *cancel = nullptr;
};

struct PageRecord
{
    int index = 0;             // 1-based: pages labelled so far, this one included
    QString pageId;
    EditCounts edits;
    int editsWithoutModel = 0; // the same page labelled from nothing (the baseline, same run)
    int entityEditsWithoutModel = 0; // of which entity edits (the rest: links drawn)
    int words = 0;             // words a model sees on the page
    int suggestions = 0;       // suggested entities shown
    double uncertainty = -1;   // of the model that suggested (-1: no model)
    // Set on the page after which the model retrained:
    bool retrained = false;
    bool modelUpdated = false; // a new checkpoint took over
    double trainSeconds = 0;
    double testF1 = -1;        // of the model now in use (-1: none / not scored)
    QString trainNote;         // why the previous model stayed (failure, budget), or the head growing
    double editsPerWord() const { return words > 0 ? double(edits.total()) / words : 0; }
};

struct SimulationSummary
{
    int pages = 0;
    EditCounts edits;
    int editsWithoutModel = 0;
    int entityEditsWithoutModel = 0;
    int words = 0;
    double startTestF1 = -1;   // the start model on the held-out pages (-1: none)
    double finalTestF1 = -1;
    double trainSeconds = 0;
    int retrainings = 0;
};

// Runs the loop; onPage is called after every page (and its retraining, if any). False + *error
// when it cannot start (a start model that does not load, no pages) or was cancelled.
bool runLabellingSimulation(const SimulationData &data, const SimulationConfig &config,
                            const std::function<void(const PageRecord &)> &onPage, SimulationSummary *summary,
                            QString *error, const std::function<void(const QString &)> &note = {});

// Entity F1 of a folio-formtagger checkpoint on labelled pages (the predictor's own evaluation);
// -1 with *why set when it cannot be loaded or scored. The simulation's test score and a project
// retraining's held-out score.
double taggerF1On(const QString &checkpoint, const std::vector<inference::TaggerPage> &pages, QString *why);

} // namespace folio::labelling
