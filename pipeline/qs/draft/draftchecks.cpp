#include "pipeline/qs/draft/draftchecks.h"

#include "pipeline/qs/draft/topicsegments.h"

#include <QSet>

namespace folio::pipeline {

namespace {

// Sections [s, end) of a pre-order list: s and its descendants.
int subtreeEnd(const DraftSource &src, int s)
{
    int e = s + 1;
    while (e < int(src.sections.size())) {
        int a = src.sections[std::size_t(e)].parent;
        while (a >= 0 && a != s && a > s)
            a = src.sections[std::size_t(a)].parent;
        if (a != s)
            break;
        ++e;
    }
    return e;
}

QSet<QString> subtreeWords(const DraftSource &src, int s, bool withTitles)
{
    QSet<QString> words;
    const int end = s < 0 ? int(src.sections.size()) : subtreeEnd(src, s);
    for (int t = std::max(0, s); t < end; ++t) {
        if (withTitles)
            words.unite(draftContentWords(src.sections[std::size_t(t)].title));
        for (const DraftSentence &d : src.sections[std::size_t(t)].sentences)
            words.unite(draftContentWords(d.text + QLatin1Char(' ') + d.speaker));
    }
    return words;
}

void countSupported(const QString &summary, const QSet<QString> &evidence, DraftCheck *c)
{
    for (const QString &sentence : splitDraftSentences(summary)) {
        ++c->summarySentences;
        const QSet<QString> w = draftContentWords(sentence);
        bool all = true;
        for (const QString &x : w)
            all = all && evidence.contains(x);
        c->supportedSentences += all ? 1 : 0;
    }
}

} // namespace

DraftCheck checkDraft(const DraftSource &src, const QsDraft &draft, int minWords)
{
    DraftCheck c;
    QSet<int> itemSections;
    for (const DraftItem &i : draft.items)
        itemSections.insert(i.section);
    for (int s = 0; s < int(src.sections.size()); ++s) {
        if (src.sections[std::size_t(s)].parent >= 0)
            continue;
        ++c.topLevelSections;
        long words = 0;
        const int end = subtreeEnd(src, s);
        for (int t = s; t < end; ++t)
            for (const DraftSentence &d : src.sections[std::size_t(t)].sentences)
                words += d.heading ? 0 : d.wordCount;
        if (words >= minWords) {
            ++c.topLevelWithContent;
            c.topLevelCovered += itemSections.contains(s) ? 1 : 0;
        }
    }
    countSupported(draft.rootSummary, subtreeWords(src, -1, false), &c);
    QSet<QString> seen;
    for (const DraftItem &i : draft.items) {
        ++c.items;
        countSupported(i.summary, subtreeWords(src, i.section, false), &c);
        ++c.questions;
        const QString norm = draftTokens(i.question).join(QLatin1Char(' '));
        c.duplicateQuestions += seen.contains(norm) ? 1 : 0;
        seen.insert(norm);
        // Key terms: the question's content words that its template did not bring.
        const QSet<QString> evidence = subtreeWords(src, i.section, true);
        static const QSet<QString> templateWords = draftContentWords(
            QStringLiteral("summarize summarise discussion discuss discussed group team document say said think thought "
                           "decision decide decided part meeting"));
        bool grounded = true;
        for (const QString &w : draftContentWords(i.question))
            if (!templateWords.contains(w) && !evidence.contains(w))
                grounded = false;
        c.groundedQuestions += grounded ? 1 : 0;
    }
    return c;
}

} // namespace folio::pipeline
