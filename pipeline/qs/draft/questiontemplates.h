#pragma once
// Questions for drafted items (issue 31): templates with slots, mined from the questions of a
// training set, filled with terms copied from the item's own section and evidence.
//
//   QuestionTemplates t = mineQuestionTemplates(trainingMeetings);   // QMSum train queries
//   QString q = fillTemplate(t.section.front(), {{"topic", "the remote control"}});
//
// Mining: a query that contains the title of the section its evidence rests on (case-insensitive)
// has it replaced by {topic}; a speaker of the meeting named in it becomes {speaker}. Templates
// seen at least `minCount` times are kept, most frequent first: `section` ({topic} only) and
// `speaker` ({speaker} and {topic}). Written documents (no speakers) use `written` templates,
// {topic} filled with the section title or, for parts found by topic segmentation, its key terms.
#include "pipeline/qs/qmsum.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <vector>

namespace folio::pipeline {

struct QuestionTemplate
{
    QString text;  // e.g. "Summarize the discussion about {topic}"
    int count = 0; // how often the training questions had this form
};

struct QuestionTemplates
{
    std::vector<QuestionTemplate> section;
    std::vector<QuestionTemplate> speaker;
    std::vector<QuestionTemplate> written;
    long questionsSeen = 0, questionsMatched = 0;
};

QuestionTemplates mineQuestionTemplates(const std::vector<QmsumMeeting> &meetings, int minCount = 3);
// The written-document templates Folio uses when none are given.
std::vector<QuestionTemplate> defaultWrittenTemplates();

// Replaces {name} by its value; a topic that is not a proper name starts lower-case after the
// template's first word ("the remote control", but "ATLAS"). A trailing '?' is added when the
// template starts with a question word and has none.
QString fillTemplate(const QString &templ, const QList<QPair<QString, QString>> &values);
// Topic text as it reads inside a sentence: simplified, final punctuation dropped, the first
// letter lower-cased unless the first word is an acronym or a proper name.
QString topicPhrase(const QString &title);

} // namespace folio::pipeline
