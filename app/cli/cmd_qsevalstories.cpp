// folio-cli qs eval --data FAIRYTALEQA --split val|test (issue 31): the drafter on held-out
// section-structured documents with reference questions, beside the lead baseline of the same run.
// Per section with reference questions (cor_section):
//  - ROUGE-1/2/Lsum F of the section's item summary against its answers (answer1, one sentence
//    each); a section without an item scores 0;
//  - question BLEU-4 of the item's question against the section's reference questions: the best
//    single reference (max over references, nltk sentence BLEU, method-2 smoothing);
// and per story what `qs check` counts: items per section, top-level sections with >= 50 words that
// got an item, supported summary sentences, grounded and duplicate questions.
// Lead: every section's first two sentences, question "What was said about <key terms>?".
#include "app/cli/batch.h"
#include "app/cli/commands.h"
#include "app/cli/qsdraftcli.h"
#include "inference/qs/qsmetrics.h"
#include "pipeline/qs/qsbaselines.h"
#include "pipeline/qs/draft/draftchecks.h"
#include "pipeline/qs/draft/saliencedata.h"
#include "pipeline/qs/draft/topicsegments.h"

#include <chrono>
#include <cmath>

namespace folio::cli {

namespace {

struct SectionScores
{
    double r1 = 0, r2 = 0, rl = 0, bleu = 0, words = 0;
    long n = 0;
    void add(const QStringList &answers, const QStringList &questions, const QString &summary, const QString &question)
    {
        const std::string ref = answers.join(QLatin1Char('\n')).toStdString();
        const std::string pred = summary.toStdString();
        r1 += inference::rougeN(ref, pred, 1).fmeasure;
        r2 += inference::rougeN(ref, pred, 2).fmeasure;
        rl += inference::rougeLsum(ref, inference::splitSentences(pred)).fmeasure;
        double best = 0;
        if (!question.isEmpty())
            for (const QString &q : questions)
                best = std::max(best, inference::sentenceBleu4(inference::bleuTokenize(q.toStdString()),
                                                               inference::bleuTokenize(question.toStdString())));
        bleu += best;
        words += summary.isEmpty() ? 0 : summary.count(QLatin1Char(' ')) + 1;
        ++n;
    }
    nlohmann::json json() const
    {
        const double d = std::max(1L, n);
        auto pct = [d](double v) { return std::round(v / d * 10000.0) / 100.0; };
        return {{"rouge1", pct(r1)}, {"rouge2", pct(r2)}, {"rougeLsum", pct(rl)}, {"question_bleu4", pct(bleu)},
                {"summary_words", std::round(words / d * 10.0) / 10.0}};
    }
};

QString sectionText(const pipeline::DraftSection &sec)
{
    QStringList s;
    for (const pipeline::DraftSentence &t : sec.sentences)
        s << t.text;
    return s.join(QLatin1Char(' '));
}

// The lead baseline's question names a section by its key terms, as the drafter does for untitled parts.
QStringList keyTermTitles(const pipeline::DraftSource &src)
{
    QHash<QString, int> df;
    int sentences = 0;
    std::vector<std::vector<QStringList>> tokens(src.sections.size());
    for (std::size_t s = 0; s < src.sections.size(); ++s)
        for (const pipeline::DraftSentence &t : src.sections[s].sentences) {
            tokens[s].push_back(pipeline::draftTokens(t.text));
            const QSet<QString> seen(tokens[s].back().cbegin(), tokens[s].back().cend());
            for (const QString &w : seen)
                ++df[w];
            ++sentences;
        }
    QStringList out;
    for (std::size_t s = 0; s < src.sections.size(); ++s)
        out << (src.sections[s].title.isEmpty() ? pipeline::keyTermTitle(tokens[s], df, sentences) : src.sections[s].title);
    return out;
}

} // namespace

nlohmann::json evalSectionedStories(const std::string &data, const std::string &split, int limit,
                                    const pipeline::QsDrafter *drafter, const pipeline::DraftOptions &options)
{
    std::vector<pipeline::ReferencedDocument> docs;
    QString error;
    if (!pipeline::readFairytaleQaDocuments(QString::fromStdString(data), QString::fromStdString(split), &docs, &error, limit))
        throw CliError(error.toStdString());
    SectionScores lead, drafted;
    pipeline::DraftCheck total;
    long sections = 0, scored = 0, items = 0, fromWriter = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t k = 0; k < docs.size(); ++k) {
        const pipeline::ReferencedDocument &doc = docs[k];
        const QStringList titles = keyTermTitles(doc.source);
        std::vector<const pipeline::DraftItem *> itemOf(doc.source.sections.size(), nullptr);
        if (drafter) {
            const pipeline::QsDraft d = drafter->draft(doc.source, options);
            if (!d.ok)
                throw CliError(doc.source.title.toStdString() + ": " + d.error.toStdString());
            for (const pipeline::DraftItem &i : d.items) {
                if (i.section >= 0 && std::size_t(i.section) < itemOf.size() && !itemOf[std::size_t(i.section)])
                    itemOf[std::size_t(i.section)] = &i;
                fromWriter += i.questionFromWriter ? 1 : 0;
            }
            items += long(d.items.size());
            total += pipeline::checkDraft(doc.source, d);
            // Scored before the lead: the items point into `d`.
            for (std::size_t s = 0; s < doc.source.sections.size(); ++s)
                if (!doc.answers[s].isEmpty()) {
                    const pipeline::DraftItem *i = itemOf[s];
                    drafted.add(doc.answers[s], doc.questions[s], i ? i->summary : QString(), i ? i->question : QString());
                }
        }
        for (std::size_t s = 0; s < doc.source.sections.size(); ++s) {
            ++sections;
            if (doc.answers[s].isEmpty())
                continue;
            ++scored;
            lead.add(doc.answers[s], doc.questions[s], pipeline::leadSentences(sectionText(doc.source.sections[s]), 2),
                     pipeline::questionFromTitle(titles.at(int(s))));
        }
        reportProgress("qs eval", long(k + 1), long(docs.size()));
    }
    nlohmann::json j{{"data", data},
                     {"split", split},
                     {"stories", docs.size()},
                     {"sections", sections},
                     {"sections_with_questions", scored},
                     {"lead", lead.json()}};
    if (drafter) {
        nlohmann::json d = drafted.json();
        d["items"] = items;
        d["items_per_section"] = std::round(double(items) / double(std::max(1L, sections)) * 100.0) / 100.0;
        d["top_level_with_content"] = total.topLevelWithContent;
        d["top_level_covered"] = total.topLevelCovered;
        d["summary_sentences"] = total.summarySentences;
        d["supported_sentences"] = total.supportedSentences;
        d["question_count"] = total.questions;
        d["questions_grounded"] = total.groundedQuestions;
        d["duplicate_questions"] = total.duplicateQuestions;
        d["questions_from_generator"] = fromWriter;
        d["summary_words_option"] = options.summaryWords;
        j["drafter"] = d;
    }
    j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return j;
}

} // namespace folio::cli
