#include "ui/qsworker.h"

#include "document/qstree.h"
#include "inference/qs/seq2seq.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>

#include <exception>

namespace folio {

// The generator lives in the pool's one thread and is reused while the checkpoint folder stays.
struct QsWorker::Cache
{
    QString dir;
    std::unique_ptr<inference::Seq2seqGenerator> generator;
    pipeline::QsVocabulary vocab;
};

pipeline::QsInput qsWorkerInput(const Document &doc, const Annotations &annotations, const QString &belowId)
{
    const QsNode *below = qsFind(annotations.qsRoots, belowId);
    if (!below)
        return pipeline::qsInputFromDocument(doc);
    const std::vector<int> words = qsEvidenceWords(doc, qsWordIndex(doc), *below);
    if (words.empty())
        return pipeline::qsInputFromDocument(doc);
    Document part; // the evidence alone, as one implicit section titled by the item's question
    part.title = below->question;
    part.sourcePath = doc.sourcePath;
    for (int i : words)
        part.words.push_back(doc.words[size_t(i)]);
    return pipeline::qsInputFromDocument(part);
}

// The parsed tree (pre-order items with depths) as QsNode children lists.
static std::vector<QsNode> nodesFrom(const inference::QsHierarchy &tree)
{
    const std::vector<int> parents = tree.parents();
    std::vector<QsNode> flat(tree.items.size());
    for (size_t i = 0; i < tree.items.size(); ++i) {
        flat[i].question = QString::fromStdString(tree.items[i].question);
        flat[i].summary = QString::fromStdString(tree.items[i].summary);
    }
    // Bottom-up: a child is complete before it is moved into its parent (parents come first).
    std::vector<std::vector<QsNode>> children(flat.size());
    std::vector<QsNode> roots;
    for (size_t k = flat.size(); k-- > 0;) {
        flat[k].children.assign(std::make_move_iterator(children[k].rbegin()), std::make_move_iterator(children[k].rend()));
        if (parents[k] >= 0)
            children[size_t(parents[k])].push_back(std::move(flat[k]));
        else
            roots.push_back(std::move(flat[k]));
    }
    return {std::make_move_iterator(roots.rbegin()), std::make_move_iterator(roots.rend())};
}

QsWorker::QsWorker(QObject *parent)
    : QObject(parent), m_cache(std::make_shared<Cache>()), m_cancel(std::make_shared<std::atomic_bool>(false))
{
    m_pool.setMaxThreadCount(1); // one model instance, used from one thread
}

QsWorker::~QsWorker()
{
    m_cancel->store(true);
    m_pool.waitForDone();
}

QString QsWorker::shippedCheckpoint()
{
    QStringList candidates{QCoreApplication::applicationDirPath() + QStringLiteral("/../share/folio/models/qmsum-qs")};
#ifdef FOLIO_SOURCE_DIR
    candidates << QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/qmsum-qs");
#endif
    for (const QString &dir : candidates)
        if (QFileInfo::exists(dir + QStringLiteral("/model.safetensors")))
            return QDir(dir).absolutePath();
    return {};
}

void QsWorker::cancel() { m_cancel->store(true); }

bool QsWorker::generate(const QString &checkpointDir, const pipeline::QsInput &input, const QString &belowId, int maxLength)
{
    if (m_busy)
        return false;
    m_busy = true;
    m_cancel->store(false);
    QPointer<QsWorker> self(this);
    auto cache = m_cache;
    auto cancelFlag = m_cancel;
    m_pool.start([self, cache, cancelFlag, checkpointDir, input, belowId, maxLength] {
        QsGeneration result;
        result.belowId = belowId;
        result.checkpoint = QDir(checkpointDir).dirName();
        QString error;
        bool cancelled = false;
        try {
            if (checkpointDir.isEmpty()) {
                error = QObject::tr("No question-summary model: choose a QS checkpoint folder (Model > Choose QS Model).");
            } else if (input.text().trimmed().isEmpty()) {
                error = QObject::tr("Nothing to summarise: the document has no words.");
            } else {
                if (cache->dir != checkpointDir || !cache->generator) {
                    cache->generator.reset();
                    auto generator = std::make_unique<inference::Seq2seqGenerator>();
                    std::string err;
                    if (!generator->load(checkpointDir.toStdString(), &err))
                        error = QString::fromStdString(err);
                    else if (!pipeline::loadQsVocabulary(checkpointDir, &cache->vocab, &error))
                        ;
                    else {
                        cache->generator = std::move(generator);
                        cache->dir = checkpointDir;
                    }
                }
                if (error.isEmpty()) {
                    inference::GenerationSettings settings = cache->generator->defaultSettings();
                    if (maxLength > 1)
                        settings.maxLength = maxLength;
                    const pipeline::QsGenerated g = pipeline::generateQs(
                        *cache->generator, cache->vocab, {input}, settings, [self, cancelFlag](const inference::GenerationStep &s) {
                            const int step = s.step, max = s.maxSteps;
                            QMetaObject::invokeMethod(qApp, [self, step, max] { if (self) Q_EMIT self->progress(step, max); });
                            return !cancelFlag->load();
                        });
                    cancelled = g.cancelled;
                    if (!g.ok && !cancelled)
                        error = g.error;
                    if (g.ok && !g.trees.empty()) {
                        result.rootSummary = QString::fromStdString(g.trees[0].parse.tree.rootSummary);
                        result.roots = nodesFrom(g.trees[0].parse.tree);
                        result.warnings = g.trees[0].warnings;
                    }
                }
            }
        } catch (const std::exception &e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(qApp, [self, result, error, cancelled] {
            if (!self)
                return;
            self->m_busy = false;
            if (cancelled)
                Q_EMIT self->cancelled();
            else if (!error.isEmpty())
                Q_EMIT self->failed(error);
            else
                Q_EMIT self->generated(result);
        });
    });
    return true;
}

} // namespace folio
