#include "pipeline/qs/qssummarizer.h"

#include "document/qstree.h"
#include "pipeline/qs/qstrees.h"
#include "pipeline/qs/draft/questiongen.h"

#include <QDir>
#include <QObject>

#include <exception>

namespace folio::pipeline {

struct QsSummarizer::Impl
{
    QString dir;
    bool int8 = false; // the generator's Linear layers are int8
    std::unique_ptr<QsDrafter> drafter;
    std::unique_ptr<inference::Seq2seqGenerator> generator;
    QsVocabulary vocab;
    QString questionDir;
    std::shared_ptr<QuestionGenerator> questions;

    void useQuestionWriter()
    {
        if (!drafter)
            return;
        if (!questions) {
            drafter->questionWriter = nullptr;
            return;
        }
        std::shared_ptr<QuestionGenerator> gen = questions;
        drafter->questionWriter = [gen](const QString &answer, const QStringList &evidence) { return gen->generate(answer, evidence); };
    }
};

QsInput qsInputBelow(const Document &doc, const Annotations &annotations, const QString &belowId)
{
    const QsNode *below = qsFind(annotations.qsRoots, belowId);
    if (!below)
        return qsInputFromDocument(doc);
    const std::vector<int> words = qsEvidenceWords(doc, qsWordIndex(doc), *below);
    if (words.empty())
        return qsInputFromDocument(doc);
    Document part; // the evidence alone, as one implicit section titled by the item's question
    part.title = below->question;
    part.sourcePath = doc.sourcePath;
    for (int i : words)
        part.words.push_back(doc.words[std::size_t(i)]);
    return qsInputFromDocument(part);
}

QsText qsTextOfDocument(const Document &doc, const QsInput &input, const std::vector<int> &evidenceWords)
{
    QsText text;
    text.input = input;
    text.document = &doc;
    if (evidenceWords.empty()) {
        text.draft = draftSourceFromDocument(doc);
        return text;
    }
    Document part; // below an item: its evidence words alone, drafted as one text
    part.title = input.id;
    for (int i : evidenceWords)
        part.words.push_back(doc.words[std::size_t(i)]);
    text.draft = draftSourceFromDocument(part);
    text.wordMap = evidenceWords;
    return text;
}

QsText qsTextOfDocument(const Document &doc, const Annotations &annotations, const QString &belowId)
{
    std::vector<int> evidenceWords;
    if (const QsNode *below = belowId.isEmpty() ? nullptr : qsFind(annotations.qsRoots, belowId))
        evidenceWords = qsEvidenceWords(doc, qsWordIndex(doc), *below);
    return qsTextOfDocument(doc, qsInputBelow(doc, annotations, belowId), evidenceWords);
}

QsText qsTextOfMeeting(const QmsumMeeting &meeting)
{
    QsText text;
    text.input = meeting.input;
    text.draft = draftSourceFromMeeting(meeting);
    return text;
}

QsSummarizer::QsSummarizer() : m_impl(std::make_unique<Impl>()) {}
QsSummarizer::~QsSummarizer() = default;

bool QsSummarizer::load(const QString &dir, QString *error, bool int8)
{
    try {
        if (QsDrafter::isDrafterFolder(dir)) {
            if (m_impl->drafter && m_impl->dir == dir)
                return true;
            auto drafter = std::make_unique<QsDrafter>();
            if (!drafter->load(dir, error))
                return false;
            m_impl->generator.reset();
            m_impl->drafter = std::move(drafter);
            m_impl->dir = dir;
            m_impl->int8 = false;
            m_impl->useQuestionWriter();
            return true;
        }
        if (m_impl->generator && m_impl->dir == dir && m_impl->int8 == int8)
            return true;
        m_impl->generator.reset(); // one model in memory at a time
        auto generator = std::make_unique<inference::Seq2seqGenerator>();
        std::string err;
        if (!generator->load(dir.toStdString(), &err)) {
            *error = QString::fromStdString(err);
            return false;
        }
        if (int8 && !generator->quantizeDynamicInt8(&err)) {
            *error = dir + QStringLiteral(": ") + QString::fromStdString(err);
            return false;
        }
        QsVocabulary vocab;
        if (!loadQsVocabulary(dir, &vocab, error))
            return false;
        m_impl->drafter.reset();
        m_impl->generator = std::move(generator);
        m_impl->vocab = std::move(vocab);
        m_impl->dir = dir;
        m_impl->int8 = int8;
        return true;
    } catch (const std::exception &e) {
        *error = dir + QStringLiteral(": ") + QString::fromUtf8(e.what());
        return false;
    }
}

bool QsSummarizer::isLoaded() const { return m_impl->drafter || m_impl->generator; }
bool QsSummarizer::isDrafter() const { return m_impl->drafter != nullptr; }
bool QsSummarizer::isInt8() const { return m_impl->generator && m_impl->int8; }
QString QsSummarizer::checkpointDir() const { return isLoaded() ? m_impl->dir : QString(); }
QString QsSummarizer::checkpointName() const { return QDir(checkpointDir()).dirName(); }

bool QsSummarizer::setQuestionModel(const QString &dir, QString *error)
{
    if (dir.isEmpty()) {
        m_impl->questions.reset();
        m_impl->questionDir.clear();
        m_impl->useQuestionWriter();
        return true;
    }
    if (m_impl->questions && m_impl->questionDir == dir)
        return true;
    try {
        auto gen = std::make_shared<QuestionGenerator>();
        if (!gen->load(dir, error))
            return false;
        m_impl->questions = std::move(gen);
        m_impl->questionDir = dir;
        m_impl->useQuestionWriter();
        return true;
    } catch (const std::exception &e) {
        *error = dir + QStringLiteral(": ") + QString::fromUtf8(e.what());
        return false;
    }
}

QString QsSummarizer::questionModel() const { return m_impl->questions ? m_impl->questionDir : QString(); }
const QsDrafter *QsSummarizer::drafter() const { return m_impl->drafter.get(); }
const inference::Seq2seqGenerator *QsSummarizer::generator() const { return m_impl->generator.get(); }
const QsVocabulary &QsSummarizer::vocabulary() const { return m_impl->vocab; }

DraftOptions QsSummarizer::draftOptions(const QsSettings &settings) const
{
    DraftOptions d = m_impl->drafter ? m_impl->drafter->defaults : DraftOptions{};
    if (settings.maxItems > 0)
        d.maxItems = settings.maxItems;
    if (settings.maxDepth > 0)
        d.maxDepth = settings.maxDepth;
    if (settings.summaryWords > 0)
        d.summaryWords = settings.summaryWords;
    return d;
}

inference::GenerationSettings QsSummarizer::generationSettings(const QsSettings &settings) const
{
    inference::GenerationSettings s = m_impl->generator ? m_impl->generator->defaultSettings() : inference::GenerationSettings{};
    if (settings.beams > 0)
        s.numBeams = settings.beams;
    if (settings.maxLength > 1)
        s.maxLength = settings.maxLength;
    if (settings.minLength >= 0)
        s.minLength = settings.minLength;
    if (settings.noRepeatNgram >= 0)
        s.noRepeatNgramSize = settings.noRepeatNgram;
    if (settings.lengthPenalty >= 0)
        s.lengthPenalty = settings.lengthPenalty;
    return s;
}

QsResult QsSummarizer::generate(const Document &document, const Annotations &annotations, const QString &belowId,
                                const QsSettings &settings, const QsProgress &progress, const std::atomic_bool *cancel,
                                const DraftItemSink &itemDrafted) const
{
    return generate(qsTextOfDocument(document, annotations, belowId), settings, progress, cancel, itemDrafted);
}

QsResult QsSummarizer::generate(const QsText &text, const QsSettings &settings, const QsProgress &progress,
                                const std::atomic_bool *cancel, const DraftItemSink &itemDrafted) const
{
    QsResult result;
    result.checkpoint = checkpointName();
    auto keepGoing = [progress, cancel](int done, int total) {
        if (progress)
            progress(done, total);
        return !(cancel && cancel->load());
    };
    try {
        if (m_impl->drafter) {
            result.draft = m_impl->drafter->draft(text.draft, draftOptions(settings), keepGoing, itemDrafted);
            result.ok = result.draft.ok;
            result.cancelled = result.draft.cancelled;
            result.error = result.draft.error;
            if (!result.ok)
                return result;
            result.rootSummary = result.draft.rootSummary;
            result.roots = qsNodesFromDraft(text.draft, result.draft, text.document ? *text.document : Document{}, text.wordMap);
            result.warnings = result.draft.notes;
            for (const DraftItem &item : result.draft.items)
                result.questionsWritten += item.questionFromWriter ? 1 : 0;
            if (m_impl->questions)
                result.warnings << QObject::tr("%1 of %2 questions written by the question generator %3 (templates for the rest)")
                                       .arg(result.questionsWritten)
                                       .arg(result.draft.items.size())
                                       .arg(QDir(m_impl->questionDir).dirName());
            return result;
        }
        if (!m_impl->generator) {
            result.error = QObject::tr("No question-summary model loaded.");
            return result;
        }
        result.int8 = m_impl->int8;
        const QsGenerated g = generateQs(*m_impl->generator, m_impl->vocab, {text.input}, generationSettings(settings),
                                         [&keepGoing](const inference::GenerationStep &s) { return keepGoing(s.step, s.maxSteps); });
        result.cancelled = g.cancelled;
        result.error = g.error;
        if (!g.ok || g.trees.empty()) {
            if (g.ok)
                result.error = QObject::tr("The model generated no tree.");
            return result;
        }
        result.ok = true;
        result.generated = g.trees.front();
        result.rootSummary = QString::fromStdString(result.generated.parse.tree.rootSummary);
        result.roots = qsNodesFromHierarchy(result.generated.parse.tree);
        result.warnings = result.generated.warnings;
    } catch (const std::exception &e) {
        result.ok = false;
        result.error = QString::fromUtf8(e.what());
    }
    return result;
}

} // namespace folio::pipeline
