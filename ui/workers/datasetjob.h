#pragma once
// DatasetJob: File > Import Dataset / Export Dataset off the GUI thread, with progress and cancel.
//
//   auto *job = new folio::DatasetJob(this);
//   connect(job, &folio::DatasetJob::progress, dialog, ...);     // (stage, done, total)
//   connect(job, &folio::DatasetJob::finished, this, ...);       // (one line for the status bar)
//   connect(job, &folio::DatasetJob::failed, this, ...);         // (message naming the file)
//   job->startImport(projectPath, "funsd", files);   // or startExport(projectPath, "qs", outDir, options)
//   job->cancel();                                   // cancelled() once it has stopped
//
// The job opens its own connection to the project in its thread (the GUI keeps its own). An import
// parses every file first, one by one (progress per file, cancel between files), then stores all
// items in one transaction (importItemsIntoProject): a cancelled or failed import leaves the project
// exactly as it was. An export reads the project's documents, then writes the files (each one
// atomically); cancel stops it before the next stage. Nothing throws: a stage that fails returns its
// message (DatasetJobOutcome), the one convention of ui/ workers (ui/README.md).
#include "document/formats/datasetformat.h"
#include "document/project/project.h"

#include <QObject>
#include <QStringList>
#include <QFutureWatcher>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace folio {

struct DatasetExportRequest
{
    QString format;
    QString outDir;
    std::optional<DocumentStatus> status; // only documents with this status
    bool includeSuggestions = false;
};

// What a job's thread hands back: a summary line, or the error, or that it was cancelled.
struct DatasetJobOutcome
{
    QString summary;
    QString error;
    bool cancelled = false;

    static DatasetJobOutcome failure(const QString &message) { return {QString(), message, false}; }
    static DatasetJobOutcome stopped() { return {QString(), QString(), true}; }
};

class DatasetJob : public QObject
{
    Q_OBJECT
public:
    explicit DatasetJob(QObject *parent = nullptr);
    ~DatasetJob() override; // cancels and waits

    // False (and failed() emitted) when a job is already running.
    bool startImport(const QString &projectPath, const QString &format, const QStringList &files);
    bool startExport(const QString &projectPath, const DatasetExportRequest &request);
    void cancel();
    bool isRunning() const;

Q_SIGNALS:
    void progress(const QString &stage, int done, int total);
    void finished(const QString &summary);
    void failed(const QString &message);
    void cancelled();

private:
    using Report = std::function<void(const QString &stage, int done, int total)>;
    void run(std::function<DatasetJobOutcome(const std::atomic_bool &cancel, const Report &report)> work);

    QFutureWatcher<DatasetJobOutcome> m_watcher;
    std::shared_ptr<std::atomic_bool> m_cancel;
};

} // namespace folio
