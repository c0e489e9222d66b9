#pragma once
// The GUI's labelling loop (issue 47) reads a project through this: the project setting "retrain in
// the background every N accepted pages" and a snapshot of the pages one background retraining needs
// (accepted pages to train on, held-out pages to score, pages not yet accepted to rank by uncertainty),
// copied into memory on the project's own thread so that the run never reads the project itself.
//
// Accepted pages: documents marked done whose annotations have accepted (or edited) entities.
// Held-out pages: chosen once there are enough accepted pages (kMinHeldOutPages + kMinPoolPages):
// a fifth of them, at least kMinHeldOutPages, the newest by position; remembered in the project
// (setting kHeldOutSetting) so that the same pages score every later model and are never trained on.
// A held-out document deleted or reopened drops out and is replaced by the newest accepted page.

#include "pipeline/labelling/projectretrain.h"

#include <QList>
#include <QString>

namespace folio {
class Project;
}

namespace folio::labelling {

inline constexpr char kRetrainEverySetting[] = "labelling/retrainEvery";
inline constexpr char kHeldOutSetting[] = "labelling/heldOutDocuments";
inline constexpr int kDefaultRetrainEvery = 5;

// 0: off (a project that never set it, or an unreadable value); N: after every N newly accepted pages.
int retrainEvery(const Project &project);
bool setRetrainEvery(Project &project, int everyPages, QString *error);

struct LoopSnapshot
{
    RetrainPages pages;          // page ids are the documents' ids
    QList<qint64> heldOutIds;
    int accepted = 0;            // accepted pages in the project
    int needed = 0;              // > 0: accepted pages still missing before a retraining can score a model
    QString note;                // set when held-out pages were chosen now ("held out 2 accepted pages ...")
    QString waitMessage;         // with needed > 0: how many pages are needed, and why
};

// Reads `project` (its thread). `maxUnlabelled` caps the pages ranked by uncertainty. Documents that
// fail to load are skipped (a document deleted meanwhile). False + *error when the list cannot be read.
bool takeLoopSnapshot(Project &project, LoopSnapshot *out, QString *error, int maxUnlabelled = 200);

} // namespace folio::labelling
