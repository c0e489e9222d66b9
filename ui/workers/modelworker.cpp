#include "ui/workers/modelworker.h"

#include "pipeline/documentprediction.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>

#include <exception>

namespace folio {

// The tagger lives in the pool's one thread and is reused while the checkpoint folder stays.
struct ModelWorker::Cache
{
    pipeline::DocumentTagger tagger;
};

ModelWorker::ModelWorker(QObject *parent)
    : QObject(parent), m_cache(std::make_shared<Cache>())
{
    m_pool.setMaxThreadCount(1); // one engine instance, used from one thread
}

ModelWorker::~ModelWorker()
{
    m_pool.waitForDone();
}

bool ModelWorker::isBusy() const
{
    return m_pool.activeThreadCount() > 0;
}

void ModelWorker::predict(const QString &checkpointDir, const Document &document, const Annotations &current)
{
    Q_EMIT started();
    QPointer<ModelWorker> self(this);
    auto cache = m_cache;
    m_pool.start([self, cache, checkpointDir, document, current] {
        Annotations suggestions;
        QString error;
        try {
            if (cache->tagger.load(checkpointDir, &error)
                && !pipeline::predictSuggestions(cache->tagger, document, current, &suggestions, &error) && error.isEmpty())
                error = checkpointDir + QStringLiteral(": the model run failed");
        } catch (const std::exception &e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(qApp, [self, suggestions, error] {
            if (!self)
                return;
            if (error.isEmpty())
                Q_EMIT self->predicted(suggestions);
            else
                Q_EMIT self->failed(error);
        }, Qt::QueuedConnection);
    });
}

void ModelWorker::load(const QString &checkpointDir)
{
    QPointer<ModelWorker> self(this);
    auto cache = m_cache;
    m_pool.start([self, cache, checkpointDir] {
        QString error;
        try {
            if (!cache->tagger.load(checkpointDir, &error) && error.isEmpty())
                error = checkpointDir + QStringLiteral(": cannot load the checkpoint");
        } catch (const std::exception &e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(qApp, [self, checkpointDir, error] {
            if (!self)
                return;
            if (error.isEmpty())
                Q_EMIT self->loaded(checkpointDir);
            else
                Q_EMIT self->refused(checkpointDir, error);
        }, Qt::QueuedConnection);
    });
}

} // namespace folio
