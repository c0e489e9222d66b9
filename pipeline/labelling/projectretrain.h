#pragma once
// One retraining of the labelling loop on a project (issue 47, the GUI's "retrain every N accepted
// pages"): the project's labelled documents, a fifth of them (at least kMinHeldOutPages) held out as
// loadSimulationData holds them out; the tagger trained on the rest from the current model (its
// encoder and vocabulary, a head over the project's labels: labels it has never seen grow it); the
// current and the new model scored on the held-out pages; the new one takes over only when it scores
// better. Blocking (run it off the GUI thread); reads the project read-only, so the user's edits are
// never touched; no exception leaves.

#include "pipeline/labelling/labellingsimulation.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <utility>
#include <vector>

namespace folio::labelling {

struct ProjectRetrainConfig
{
    QString currentModel;      // folio-formtagger folder in use; empty: none yet (train from scratch)
    QString outputDir;         // the new checkpoint's folder (replaced)
    int epochs = 20;
    int maxSteps = 0;          // tests; 0: no limit
    int hidden = 256, layers = 4; // from scratch only
    unsigned seed = 1;
    int threads = 1;
    const std::atomic<bool> *cancel = nullptr;
};

struct ProjectRetrainOutcome
{
    bool ok = false;           // a new model was trained and scored (whether or not it took over)
    bool tookOver = false;
    bool cancelled = false;
    QString model;             // the model in use afterwards (the new one, or currentModel)
    double previousF1 = -1;    // -1: no model before, or it could not be scored (labels it lacks)
    double newF1 = -1;
    int heldOutPages = 0, trainPages = 0;
    double seconds = 0;
    QStringList grownLabels;   // project labels the current model had never seen
    QString error;
    QString message;           // the status line: "model updated: F1 61.2 → 66.8 on 8 held-out pages"
    // When the new model took over: 1 - mean confidence of its suggestions on each page of
    // RetrainPages::unlabelled (the "most uncertain first" order), by page id; pages it could not
    // label are left out.
    std::vector<std::pair<QString, double>> uncertainties;
    // With uncertainties: each such page's annotations with the new model's suggestions merged in
    // (the user's own entities kept, mergeModelAnnotations), for the window to store.
    std::vector<std::pair<QString, Annotations>> suggestions;
};

ProjectRetrainOutcome retrainFromProject(const QString &projectPath, const ProjectRetrainConfig &config);

// What one retraining reads, already in memory (the GUI's snapshot of a project, taken on its own
// thread: the run never touches the project, so edits and deletions during it cannot disturb it).
struct RetrainPages
{
    QString source;                      // named in the checkpoint's data description
    std::vector<SimulationPage> train;   // accepted pages it learns from
    std::vector<SimulationPage> heldOut; // accepted pages that only score the current and the new model
    std::vector<SimulationPage> unlabelled; // pages not yet accepted: their uncertainty under a new model
    QStringList labels;                  // entity labels (labelsOfPages(train) when empty)
};

// The accepted (or edited) entity labels of `pages`, sorted, "other" left out.
QStringList labelsOfPages(const std::vector<SimulationPage> &pages);

// "model updated: F1 61.2 → 66.8 on 8 held-out pages (new labels: KEY)" / "model kept: ... (the new one
// is not better)" from an outcome that was scored (ok).
QString retrainStatusLine(const ProjectRetrainOutcome &outcome);

// retrainFromProject on pages in memory. Needs kMinPoolPages to train on and kMinHeldOutPages held out.
ProjectRetrainOutcome retrainOnPages(const RetrainPages &pages, const ProjectRetrainConfig &config);

// 1 - mean confidence of `checkpoint`'s suggestions on each page (its own accepted entities kept, as
// AnnotationSession::applyPredictions records it), by page id; a folio-formtagger or a Hugging Face
// token-classification folder. Pages it cannot label are left out; stops early when `cancel` is set.
// `suggestions` (optional) gets each scored page's annotations with the suggestions merged in.
std::vector<std::pair<QString, double>> uncertaintiesOf(const QString &checkpoint, const std::vector<SimulationPage> &pages,
                                                       const std::atomic<bool> *cancel,
                                                       std::vector<std::pair<QString, Annotations>> *suggestions = nullptr);

// The training pages of a retraining (accepted and edited entities only) and the held-out pages'
// targets (labellingTarget over `labels`) as the tagger reads them; pages without words are left out.
void retrainTaggerPages(const RetrainPages &pages, const QStringList &labels, std::vector<inference::TaggerPage> *train,
                        std::vector<inference::TaggerPage> *heldOut);

} // namespace folio::labelling
