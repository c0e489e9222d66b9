#include "ui/workers/modelworker.h"

#include "pipeline/documentprediction.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

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

template<typename Result, typename Job, typename Deliver>
void ModelWorker::enqueue(Job job, Deliver deliver)
{
    auto *watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcher<Result>::finished, this, [watcher, deliver] {
        watcher->deleteLater();
        deliver(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, std::move(job)));
}

namespace {
struct Prediction
{
    Annotations suggestions;
    QStringList warnings;
    QString error;
    bool int8 = false; // the model ran in int8
};
} // namespace

void ModelWorker::predict(const QString &checkpointDir, const Document &document, const Annotations &current)
{
    Q_EMIT started();
    auto cache = m_cache;
    const bool int8 = m_int8;
    enqueue<Prediction>([cache, checkpointDir, document, current, int8] {
        Prediction p;
        try { // the pipeline returns its errors; this keeps a surprise (bad_alloc) out of the GUI thread
            pipeline::DocumentPrediction prediction;
            if (cache->tagger.load(checkpointDir, &p.error, int8)
                && !pipeline::predictSuggestions(cache->tagger, document, current, &p.suggestions, &p.error, {}, &prediction)
                && p.error.isEmpty())
                p.error = checkpointDir + QStringLiteral(": the model run failed");
            p.warnings = prediction.warnings;
            p.int8 = cache->tagger.isInt8();
        } catch (const std::exception &e) {
            p.error = QString::fromUtf8(e.what());
        }
        return p;
    }, [this](const Prediction &p) {
        m_lastRunInt8 = p.error.isEmpty() && p.int8;
        if (p.error.isEmpty())
            Q_EMIT predicted(p.suggestions, p.warnings);
        else
            Q_EMIT failed(p.error);
    });
}

void ModelWorker::load(const QString &checkpointDir)
{
    auto cache = m_cache;
    const bool int8 = m_int8;
    enqueue<QString>([cache, checkpointDir, int8] {
        QString error;
        try {
            if (!cache->tagger.load(checkpointDir, &error, int8) && error.isEmpty())
                error = checkpointDir + QStringLiteral(": cannot load the checkpoint");
        } catch (const std::exception &e) {
            error = QString::fromUtf8(e.what());
        }
        return error;
    }, [this, checkpointDir](const QString &error) {
        if (error.isEmpty())
            Q_EMIT loaded(checkpointDir);
        else
            Q_EMIT refused(checkpointDir, error);
    });
}

} // namespace folio
