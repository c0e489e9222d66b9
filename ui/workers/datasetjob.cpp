#include "ui/workers/datasetjob.h"

#include "document/project/projectio.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace folio {

DatasetJob::DatasetJob(QObject *parent)
    : QObject(parent), m_cancel(std::make_shared<std::atomic_bool>(false))
{
    connect(&m_watcher, &QFutureWatcher<DatasetJobOutcome>::finished, this, [this] {
        const DatasetJobOutcome outcome = m_watcher.result();
        if (outcome.cancelled)
            Q_EMIT cancelled();
        else if (!outcome.error.isEmpty())
            Q_EMIT failed(outcome.error);
        else
            Q_EMIT finished(outcome.summary);
    });
}

DatasetJob::~DatasetJob()
{
    m_cancel->store(true);
    m_watcher.waitForFinished();
}

bool DatasetJob::isRunning() const
{
    return m_watcher.isRunning();
}

void DatasetJob::cancel()
{
    m_cancel->store(true);
}

void DatasetJob::run(std::function<DatasetJobOutcome(const std::atomic_bool &cancel, const Report &report)> work)
{
    m_cancel->store(false);
    QPointer<DatasetJob> self(this);
    auto cancel = m_cancel;
    m_watcher.setFuture(QtConcurrent::run([self, cancel, work = std::move(work)]() -> DatasetJobOutcome {
        const Report report = [self](const QString &stage, int done, int total) {
            QMetaObject::invokeMethod(qApp, [self, stage, done, total] {
                if (self)
                    Q_EMIT self->progress(stage, done, total);
            }, Qt::QueuedConnection);
        };
        try { // the document/ calls return their errors; this keeps a surprise (bad_alloc) out of the GUI thread
            return work(*cancel, report);
        } catch (const std::exception &e) {
            return DatasetJobOutcome::failure(QString::fromUtf8(e.what()));
        }
    }));
}

bool DatasetJob::startImport(const QString &projectPath, const QString &format, const QStringList &files)
{
    if (isRunning()) {
        Q_EMIT failed(tr("Another import or export is still running"));
        return false;
    }
    run([projectPath, format, files](const std::atomic_bool &cancel, const auto &report) {
        const std::unique_ptr<DatasetFormat> reader = createDatasetFormat(format);
        if (!reader || !reader->canImport())
            return DatasetJobOutcome::failure(tr("%1: not a format Folio can import").arg(format));
        if (files.isEmpty())
            return DatasetJobOutcome::failure(tr("No file to import"));
        // Every file is parsed before anything is written: a bad file leaves the project untouched.
        std::vector<DatasetItem> items;
        for (int i = 0; i < files.size(); ++i) {
            if (cancel.load())
                return DatasetJobOutcome::stopped();
            report(tr("Reading %1").arg(files[i]), i, int(files.size()));
            std::vector<DatasetItem> parsed;
            QString error;
            if (!reader->importFile(files[i], &parsed, &error))
                return DatasetJobOutcome::failure(error);
            for (DatasetItem &item : parsed)
                items.push_back(std::move(item));
        }
        if (cancel.load())
            return DatasetJobOutcome::stopped();
        report(tr("Storing %n document(s) in one transaction", nullptr, int(items.size())), int(files.size()), int(files.size()));
        QString error;
        const std::unique_ptr<Project> project = Project::open(projectPath, &error);
        if (!project)
            return DatasetJobOutcome::failure(error);
        ImportReport result;
        if (!importItemsIntoProject(*project, items, &result, &error))
            return DatasetJobOutcome::failure(error);
        DatasetJobOutcome done;
        done.summary = tr("Imported %1: %2 document(s) added, %3 updated").arg(format).arg(result.added).arg(result.updated);
        return done;
    });
    return true;
}

bool DatasetJob::startExport(const QString &projectPath, const DatasetExportRequest &request)
{
    if (isRunning()) {
        Q_EMIT failed(tr("Another import or export is still running"));
        return false;
    }
    run([projectPath, request](const std::atomic_bool &cancel, const auto &report) {
        const std::unique_ptr<DatasetFormat> writer = createDatasetFormat(request.format);
        if (!writer)
            return DatasetJobOutcome::failure(tr("%1: not a dataset format").arg(request.format));
        report(tr("Reading the project"), 0, 2);
        QString error;
        const std::unique_ptr<Project> project = Project::open(projectPath, &error, Project::Mode::ReadOnly);
        if (!project)
            return DatasetJobOutcome::failure(error);
        ProjectItemFilter filter;
        filter.status = request.status;
        std::vector<DatasetItem> items;
        if (!projectItems(*project, filter, &items, &error))
            return DatasetJobOutcome::failure(error);
        if (cancel.load())
            return DatasetJobOutcome::stopped();
        report(tr("Writing %n document(s)", nullptr, int(items.size())), 1, 2);
        DatasetExportOptions options;
        options.includeSuggestions = request.includeSuggestions;
        options.labels = project->labels();
        QStringList written;
        if (!writer->exportItems(items, request.outDir, options, &written, &error))
            return DatasetJobOutcome::failure(error);
        report(tr("Done"), 2, 2);
        DatasetJobOutcome done;
        done.summary = tr("Exported %n document(s) as %1 into %2 (%3 file(s))", nullptr, int(items.size()))
                           .arg(request.format, request.outDir)
                           .arg(written.size());
        return done;
    });
    return true;
}

} // namespace folio
