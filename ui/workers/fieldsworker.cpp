#include "ui/workers/fieldsworker.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace folio {

FieldsWorker::FieldsWorker(QObject *parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<void>::finished, this, [this] {
        const std::function<void()> deliver = std::move(m_deliver);
        m_deliver = nullptr;
        if (deliver)
            deliver();
    });
}

FieldsWorker::~FieldsWorker()
{
    cancel();
    m_watcher.waitForFinished();
}

bool FieldsWorker::isBusy() const { return m_watcher.isRunning(); }

void FieldsWorker::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void FieldsWorker::wait()
{
    if (!m_watcher.isRunning())
        return;
    m_watcher.waitForFinished();
    QCoreApplication::processEvents(); // lets the watcher's finished() deliver the result
}

void FieldsWorker::begin() { m_cancel = std::make_shared<std::atomic_bool>(false); }

void FieldsWorker::reportProgress(int done, int total, const QString &message)
{
    QPointer<FieldsWorker> self(this);
    QMetaObject::invokeMethod(qApp, [self, done, total, message] {
        if (self)
            Q_EMIT self->progress(done, total, message);
    }, Qt::QueuedConnection);
}

bool FieldsWorker::extract(qint64 documentId, const Document &document, const std::vector<pipeline::FieldSpec> &fields,
                           const QString &checkpointDir)
{
    if (isBusy())
        return false;
    begin();
    auto result = std::make_shared<pipeline::FieldExtraction>();
    m_deliver = [this, documentId, result] { Q_EMIT extracted(documentId, *result); };
    auto cancelFlag = m_cancel;
    const bool int8 = m_int8;
    m_watcher.setFuture(QtConcurrent::run([this, document, fields, checkpointDir, cancelFlag, result, int8] {
        pipeline::FieldExtractionOptions options;
        options.checkpointDir = checkpointDir;
        options.int8 = int8;
        options.cancel = cancelFlag.get();
        options.progress = [this](int done, int total) { reportProgress(done, total, tr("Extracting fields…")); };
        try { // the pipeline does not throw; this keeps a surprise (bad_alloc) out of the GUI thread
            *result = pipeline::extractFields(document, fields, options);
        } catch (const std::exception &e) {
            result->error = QStringLiteral("%1: field extraction failed: %2").arg(document.sourcePath, QString::fromUtf8(e.what()));
        }
    }));
    return true;
}

bool FieldsWorker::train(const inference::WebFormerTrainOptions &options, pipeline::FieldTrainingData data)
{
    if (isBusy())
        return false;
    begin();
    auto outcome = std::make_shared<pipeline::FieldTrainingOutcome>();
    m_deliver = [this, outcome] { Q_EMIT trained(*outcome); };
    auto cancelFlag = m_cancel;
    m_watcher.setFuture(QtConcurrent::run([this, options, data = std::move(data), cancelFlag, outcome] {
        const auto report = [this](const inference::WebFormerTrainProgress &p) {
            reportProgress(int(p.step), int(p.totalSteps),
                           tr("Epoch %1/%2, loss %3%4")
                               .arg(p.epoch).arg(p.epochs).arg(p.loss, 0, 'f', 4)
                               .arg(p.devF1 >= 0 ? tr(", dev F1 %1").arg(p.devF1, 0, 'f', 3) : QString()));
        };
        try {
            *outcome = pipeline::trainFieldExtractor(options, data, report, cancelFlag.get());
        } catch (const std::exception &e) {
            outcome->error = tr("field extractor training failed: %1").arg(QString::fromUtf8(e.what()));
        }
    }));
    return true;
}

} // namespace folio
