#include "ui/workers/datasetjob.h"

#include "document/project/projectio.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>

#include <exception>

namespace folio {

namespace {

// Thrown inside a job's thread only; turned into cancelled() / failed().
struct JobCancelled
{
};
struct JobFailed
{
    QString message;
};

} // namespace

DatasetJob::DatasetJob(QObject *parent)
    : QObject(parent), m_cancel(std::make_shared<std::atomic_bool>(false)), m_running(std::make_shared<std::atomic_bool>(false))
{
    m_pool.setMaxThreadCount(1);
}

DatasetJob::~DatasetJob()
{
    m_cancel->store(true);
    m_pool.waitForDone();
}

bool DatasetJob::isRunning() const
{
    return m_running->load();
}

void DatasetJob::cancel()
{
    m_cancel->store(true);
}

void DatasetJob::run(
    std::function<QString(const std::atomic_bool &, const std::function<void(const QString &, int, int)> &)> work)
{
    m_cancel->store(false);
    m_running->store(true);
    QPointer<DatasetJob> self(this);
    auto cancel = m_cancel;
    auto running = m_running;
    m_pool.start([self, cancel, running, work] {
        const auto report = [self](const QString &stage, int done, int total) {
            QMetaObject::invokeMethod(qApp, [self, stage, done, total] {
                if (self)
                    Q_EMIT self->progress(stage, done, total);
            }, Qt::QueuedConnection);
        };
        QString summary, error;
        bool wasCancelled = false;
        try {
            summary = work(*cancel, report);
        } catch (const JobCancelled &) {
            wasCancelled = true;
        } catch (const JobFailed &f) {
            error = f.message;
        } catch (const std::exception &e) {
            error = QString::fromUtf8(e.what());
        }
        running->store(false);
        QMetaObject::invokeMethod(qApp, [self, summary, error, wasCancelled] {
            if (!self)
                return;
            if (wasCancelled)
                Q_EMIT self->cancelled();
            else if (!error.isEmpty())
                Q_EMIT self->failed(error);
            else
                Q_EMIT self->finished(summary);
        }, Qt::QueuedConnection);
    });
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
            throw JobFailed{tr("%1: not a format Folio can import").arg(format)};
        if (files.isEmpty())
            throw JobFailed{tr("No file to import")};
        // Every file is parsed before anything is written: a bad file leaves the project untouched.
        std::vector<DatasetItem> items;
        for (int i = 0; i < files.size(); ++i) {
            if (cancel.load())
                throw JobCancelled{};
            report(tr("Reading %1").arg(files[i]), i, int(files.size()));
            std::vector<DatasetItem> parsed;
            QString error;
            if (!reader->importFile(files[i], &parsed, &error))
                throw JobFailed{error};
            for (DatasetItem &item : parsed)
                items.push_back(std::move(item));
        }
        if (cancel.load())
            throw JobCancelled{};
        report(tr("Storing %n document(s) in one transaction", nullptr, int(items.size())), int(files.size()), int(files.size()));
        QString error;
        const std::unique_ptr<Project> project = Project::open(projectPath, &error);
        if (!project)
            throw JobFailed{error};
        ImportReport result;
        if (!importItemsIntoProject(*project, items, &result, &error))
            throw JobFailed{error};
        return tr("Imported %1: %2 document(s) added, %3 updated").arg(format).arg(result.added).arg(result.updated);
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
            throw JobFailed{tr("%1: not a dataset format").arg(request.format)};
        report(tr("Reading the project"), 0, 2);
        QString error;
        const std::unique_ptr<Project> project = Project::open(projectPath, &error, Project::Mode::ReadOnly);
        if (!project)
            throw JobFailed{error};
        ProjectItemFilter filter;
        filter.status = request.status;
        std::vector<DatasetItem> items;
        if (!projectItems(*project, filter, &items, &error))
            throw JobFailed{error};
        if (cancel.load())
            throw JobCancelled{};
        report(tr("Writing %n document(s)", nullptr, int(items.size())), 1, 2);
        DatasetExportOptions options;
        options.includeSuggestions = request.includeSuggestions;
        options.labels = project->labels();
        QStringList written;
        if (!writer->exportItems(items, request.outDir, options, &written, &error))
            throw JobFailed{error};
        report(tr("Done"), 2, 2);
        return tr("Exported %n document(s) as %1 into %2 (%3 file(s))", nullptr, int(items.size()))
            .arg(request.format, request.outDir)
            .arg(written.size());
    });
    return true;
}

} // namespace folio
