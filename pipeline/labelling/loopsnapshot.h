#pragma once
// The GUI's labelling loop (issue 47) reads a project through this: the project setting "retrain in
// the background every N accepted pages" and a snapshot of the pages one background retraining needs
// (accepted pages to train on, held-out pages to score, pages not yet accepted to rank by uncertainty),
// copied into memory so that the run never reads the project itself. readLoopSnapshot reads it on the
// calling thread (the background worker's) through a connection of its own, so that a large project
// never stalls the window; takeLoopSnapshot reads an open Project on that Project's thread.
//
// Accepted pages: documents marked done whose annotations have accepted (or edited) entities.
// Held-out pages: chosen once there are enough accepted pages (kMinHeldOutPages + kMinPoolPages):
// a fifth of them, at least kMinHeldOutPages, the newest by position; remembered in the project
// (setting kHeldOutSetting) so that the same pages score every later model and are never trained on.
// A held-out document deleted or reopened drops out and is replaced by the newest accepted page.

#include "pipeline/labelling/projectretrain.h"

#include <QHash>
#include <QList>
#include <QString>

#include <functional>

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
    QHash<qint64, int> revisions; // pages.unlabelled: the annotation revision listed before they were read
};

// Reads `project` (its thread). `maxUnlabelled` caps the pages ranked by uncertainty. Documents that
// fail to load are skipped (a document deleted meanwhile). False + *error when the list cannot be read.
// The held-out choice is stored through `project` (one transaction; a read-only project chooses again
// next time). `afterListing` (tests) runs once the document list is read, before any document is.
bool takeLoopSnapshot(Project &project, LoopSnapshot *out, QString *error, int maxUnlabelled = 200,
                      const std::function<void()> &afterListing = {});

// takeLoopSnapshot through a connection of its own to `location` (a .folio file, a PostgreSQL URL or
// a .folio-pg file), opened and closed on the calling thread: for a worker thread, while the
// window's Project keeps its own connection. `readOnly`: opened read-only (nothing is stored).
// False + *error naming the project when it cannot be opened (a PostgreSQL URL whose password the
// window was given: put it in PGPASSWORD, ~/.pgpass or a .folio-pg file) or read.
bool readLoopSnapshot(const QString &location, bool readOnly, LoopSnapshot *out, QString *error, int maxUnlabelled = 200,
                      const std::function<void()> &afterListing = {});

} // namespace folio::labelling
