#include "ui/modelworker.h"

#include "inference/formtagger/trainer.h"
#include "inference/formtagger/trainpages.h"

#include <QDir>
#include <QMetaObject>
#include <QCoreApplication>
#include <QPointer>

#include <exception>

namespace folio {

// Entities predicted on a page, as model suggestions from `checkpoint`.
static void appendPredictedEntities(const inference::DocumentTrainPage &page, const inference::PagePrediction &prediction,
                                    const QString &checkpoint, Annotations *out)
{
    for (const inference::PredictedEntity &e : prediction.entities) {
        Entity entity;
        entity.label = QString::fromStdString(e.label);
        for (int i = e.firstWord; i <= e.lastWord && i < page.wordIds.size(); ++i)
            entity.wordIds << page.wordIds[i];
        if (entity.wordIds.isEmpty())
            continue;
        entity.id = out->freshId(QStringLiteral("m"));
        entity.source = AnnotationSource{AnnotationSource::Model, checkpoint};
        entity.confidence = e.confidence;
        entity.state = ReviewState::Suggested;
        out->entities.push_back(entity);
    }
}

struct ModelWorker::Cache
{
    QString checkpointDir;
    std::unique_ptr<inference::Predictor> predictor;
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

void ModelWorker::predict(const QString &checkpointDir, const Document &document)
{
    Q_EMIT started();
    QPointer<ModelWorker> self(this);
    auto cache = m_cache;
    m_pool.start([self, cache, checkpointDir, document] {
        Annotations suggestions;
        QString error;
        try {
            if (!cache->predictor || cache->checkpointDir != checkpointDir) {
                auto predictor = std::make_unique<inference::Predictor>();
                std::string message;
                if (!predictor->load(checkpointDir.toStdString(), &message))
                    error = QString::fromStdString(message);
                else {
                    cache->predictor = std::move(predictor);
                    cache->checkpointDir = checkpointDir;
                }
            }
            const std::vector<inference::DocumentTrainPage> pages = inference::trainPagesOfDocument(document, nullptr);
            if (error.isEmpty() && pages.empty())
                error = document.sourcePath + QStringLiteral(": the document has no words to label");
            const QString checkpoint = QDir(checkpointDir).dirName();
            for (const inference::DocumentTrainPage &page : pages) {
                if (!error.isEmpty())
                    break;
                inference::PagePrediction prediction;
                std::string message;
                if (!cache->predictor->predict(page.trainPage, &prediction, &message))
                    error = QString::fromStdString(message);
                else
                    appendPredictedEntities(page, prediction, checkpoint, &suggestions);
            }
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

} // namespace folio
