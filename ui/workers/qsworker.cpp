#include "ui/workers/qsworker.h"

#include "pipeline/qs/qssummarizer.h"
#include "pipeline/shippedmodels.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace folio {

// The model lives in the pool's one thread and is reused while the checkpoint folder stays.
struct QsWorker::Cache
{
    pipeline::QsSummarizer qs;
};

pipeline::QsInput qsWorkerInput(const Document &doc, const Annotations &annotations, const QString &belowId)
{
    return pipeline::qsInputBelow(doc, annotations, belowId);
}

QsWorker::QsWorker(QObject *parent)
    : QObject(parent), m_cache(std::make_shared<Cache>()), m_cancel(std::make_shared<std::atomic_bool>(false))
{
    m_pool.setMaxThreadCount(1); // one model instance, used from one thread
    connect(&m_watcher, &QFutureWatcher<QsRunOutcome>::finished, this, [this] {
        const QsRunOutcome outcome = m_watcher.result();
        m_busy = false;
        if (outcome.cancelled)
            Q_EMIT cancelled();
        else if (!outcome.error.isEmpty())
            Q_EMIT failed(outcome.error);
        else
            Q_EMIT generated(outcome.generation);
    });
}

QsWorker::~QsWorker()
{
    m_cancel->store(true);
    m_watcher.waitForFinished();
}

QString QsWorker::shippedCheckpoint()
{
    return pipeline::shippedQsDrafterDir();
}

void QsWorker::cancel() { m_cancel->store(true); }

bool QsWorker::generate(const QString &checkpointDir, const pipeline::QsInput &input, const QString &belowId, int maxLength,
                        const Document &doc, const std::vector<int> &evidenceWords)
{
    if (m_busy)
        return false;
    m_busy = true;
    m_cancel->store(false);
    QPointer<QsWorker> self(this);
    auto cache = m_cache;
    auto cancelFlag = m_cancel;
    const QString questionDir = m_questionModel;
    const bool int8 = m_int8;
    m_watcher.setFuture(QtConcurrent::run(&m_pool, [self, cache, cancelFlag, checkpointDir, input, belowId, maxLength, doc,
                                                    evidenceWords, questionDir, int8]() -> QsRunOutcome {
        QsRunOutcome out;
        out.generation.belowId = belowId;
        out.generation.checkpoint = QDir(checkpointDir).dirName();
        if (checkpointDir.isEmpty()) {
            out.error = QObject::tr("No question-summary model: choose a QS checkpoint folder (Model > Choose QS Model).");
            return out;
        }
        if (input.text().trimmed().isEmpty()) {
            out.error = QObject::tr("Nothing to summarise: the document has no words.");
            return out;
        }
        try {
            pipeline::QsSummarizer &qs = cache->qs; // loaded once per folder, in this thread
            if (!qs.load(checkpointDir, &out.error, int8) || (qs.isDrafter() && !qs.setQuestionModel(questionDir, &out.error)))
                return out;
            pipeline::QsSettings settings;
            settings.maxLength = maxLength;
            int count = 0;
            const pipeline::QsResult r = qs.generate(
                pipeline::qsTextOfDocument(doc, input, evidenceWords), settings,
                [self](int done, int total) {
                    QMetaObject::invokeMethod(qApp, [self, done, total] { if (self) Q_EMIT self->progress(done, total); });
                },
                cancelFlag.get(),
                [self, &count](const pipeline::DraftItem &item) {
                    const int n = ++count, depth = item.depth;
                    const QString question = item.question;
                    QMetaObject::invokeMethod(qApp, [self, n, depth, question] { if (self) Q_EMIT self->drafted(n, depth, question); });
                });
            out.cancelled = r.cancelled;
            if (!r.ok && !r.cancelled)
                out.error = r.error;
            if (r.ok) {
                out.generation.rootSummary = r.rootSummary;
                out.generation.roots = r.roots;
                out.generation.warnings = r.warnings;
                out.generation.questionsWritten = r.questionsWritten;
                out.generation.int8 = r.int8;
            }
        } catch (const std::exception &e) {
            out.error = QString::fromUtf8(e.what());
        }
        return out;
    }));
    return true;
}

} // namespace folio
