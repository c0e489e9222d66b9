#include "ui/workers/qsworker.h"

#include "document/qstree.h"
#include "inference/qs/seq2seq.h"
#include "pipeline/qsdraft/drafter.h"
#include "pipeline/qsdraft/questiongen.h"
#include "pipeline/shippedmodels.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace folio {

// The generator lives in the pool's one thread and is reused while the checkpoint folder stays.
struct QsWorker::Cache
{
    QString dir;
    bool int8 = false; // the generator's Linear layers are int8
    std::unique_ptr<inference::Seq2seqGenerator> generator;
    pipeline::QsVocabulary vocab;
    QString drafterDir;
    std::unique_ptr<pipeline::QsDrafter> drafter;
    QString questionDir;
    std::shared_ptr<pipeline::QuestionGenerator> questions;
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

// The drafted items as QsNode trees with their evidence: the section (when it is one of the
// document's) and one span per summary sentence. `wordMap` maps the drafted document's word
// indices to the open document's (a part drafted below an item), empty when they are the same.
static std::vector<QsNode> nodesFromDraft(const pipeline::DraftSource &src, const pipeline::QsDraft &draft, const Document &doc,
                                          const std::vector<int> &wordMap)
{
    auto docWord = [&](int w) { return wordMap.empty() ? w : (w >= 0 && w < int(wordMap.size()) ? wordMap[std::size_t(w)] : -1); };
    std::vector<QsNode> roots;
    std::vector<QsNode *> open;
    for (const pipeline::DraftItem &item : draft.items) {
        QsNode n;
        n.question = item.question;
        n.summary = item.summary;
        n.confidence = item.confidence;
        const int docSection = src.sections[std::size_t(item.section)].documentSection;
        if (wordMap.empty() && docSection >= 0 && docSection < int(doc.sections.size()))
            n.evidenceSections << qsSectionKey(doc, docSection);
        for (const auto &[s, i] : item.evidence) {
            const pipeline::DraftSentence &t = src.sections[std::size_t(s)].sentences[std::size_t(i)];
            const int a = docWord(t.firstWord), b = docWord(t.lastWord);
            if (a >= 0 && b >= a && b < int(doc.words.size()))
                n.evidenceSpans.push_back({doc.words[std::size_t(a)].id, doc.words[std::size_t(b)].id, t.text});
        }
        const std::size_t depth = std::size_t(std::max(1, item.depth));
        open.resize(std::min(open.size(), depth - 1));
        std::vector<QsNode> &list = open.empty() ? roots : open.back()->children;
        list.push_back(std::move(n));
        open.push_back(&list.back());
        // Pointers into `list` stay valid: items are only appended below the last open node.
    }
    return roots;
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
            } else if (pipeline::QsDrafter::isDrafterFolder(checkpointDir)) {
                if (cache->drafterDir != checkpointDir || !cache->drafter) {
                    auto drafter = std::make_unique<pipeline::QsDrafter>();
                    if (drafter->load(checkpointDir, &error)) {
                        cache->drafter = std::move(drafter);
                        cache->drafterDir = checkpointDir;
                    }
                }
                // The question writer: loaded once per folder, in this thread like the drafter.
                if (error.isEmpty() && !questionDir.isEmpty() && (cache->questionDir != questionDir || !cache->questions)) {
                    auto gen = std::make_shared<pipeline::QuestionGenerator>();
                    if (gen->load(questionDir, &error)) {
                        cache->questions = std::move(gen);
                        cache->questionDir = questionDir;
                    }
                }
                if (error.isEmpty()) {
                    if (questionDir.isEmpty()) {
                        cache->drafter->questionWriter = nullptr;
                    } else {
                        std::shared_ptr<pipeline::QuestionGenerator> gen = cache->questions;
                        cache->drafter->questionWriter = [gen](const QString &answer, const QStringList &evidence) {
                            return gen->generate(answer, evidence);
                        };
                    }
                }
                if (error.isEmpty()) {
                    Document part; // below an item: its evidence words alone, drafted as one text
                    if (!evidenceWords.empty()) {
                        part.title = input.id;
                        for (int i : evidenceWords)
                            part.words.push_back(doc.words[std::size_t(i)]);
                    }
                    const Document &source = evidenceWords.empty() ? doc : part;
                    const pipeline::DraftSource src = pipeline::draftSourceFromDocument(source);
                    int count = 0;
                    const pipeline::QsDraft draft = cache->drafter->draft(
                        src, cache->drafter->defaults,
                        [self, cancelFlag](int done, int total) {
                            QMetaObject::invokeMethod(qApp, [self, done, total] { if (self) Q_EMIT self->progress(done, total); });
                            return !cancelFlag->load();
                        },
                        [self, &count](const pipeline::DraftItem &item) {
                            const int n = ++count, depth = item.depth;
                            const QString question = item.question;
                            QMetaObject::invokeMethod(qApp, [self, n, depth, question] {
                                if (self)
                                    Q_EMIT self->drafted(n, depth, question);
                            });
                        });
                    cancelled = draft.cancelled;
                    if (!draft.ok && !cancelled)
                        error = draft.error;
                    if (draft.ok) {
                        result.rootSummary = draft.rootSummary;
                        result.roots = nodesFromDraft(src, draft, doc, evidenceWords);
                        result.warnings = draft.notes;
                        for (const pipeline::DraftItem &item : draft.items)
                            result.questionsWritten += item.questionFromWriter ? 1 : 0;
                        if (!questionDir.isEmpty())
                            result.warnings << QObject::tr("%1 of %2 questions written by the question generator %3 (templates for the rest)")
                                                   .arg(result.questionsWritten)
                                                   .arg(draft.items.size())
                                                   .arg(QDir(questionDir).dirName());
                    }
                }
            } else {
                if (cache->dir != checkpointDir || !cache->generator || cache->int8 != int8) {
                    cache->generator.reset();
                    auto generator = std::make_unique<inference::Seq2seqGenerator>();
                    std::string err;
                    if (!generator->load(checkpointDir.toStdString(), &err)
                        || (int8 && !generator->quantizeDynamicInt8(&err)))
                        error = QString::fromStdString(err);
                    else if (!pipeline::loadQsVocabulary(checkpointDir, &cache->vocab, &error))
                        ;
                    else {
                        cache->generator = std::move(generator);
                        cache->dir = checkpointDir;
                        cache->int8 = int8;
                    }
                }
                result.int8 = cache->generator && cache->int8;
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
        return QsRunOutcome{result, error, cancelled};
    }));
    return true;
}

} // namespace folio
