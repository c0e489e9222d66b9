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
// atomically); cancel stops it before the next stage. Nothing throws into the GUI.
#include "document/formats/datasetformat.h"
#include "document/project/project.h"

#include <QObject>
#include <QStringList>
#include <QThreadPool>

#include <atomic>
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
    void run(std::function<QString(const std::atomic_bool &, const std::function<void(const QString &, int, int)> &)> work);

    std::shared_ptr<std::atomic_bool> m_cancel;
    std::shared_ptr<std::atomic_bool> m_running;
    QThreadPool m_pool;
};

} // namespace folio
