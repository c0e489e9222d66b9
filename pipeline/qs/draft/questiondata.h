#pragma once
// Question-generation examples (answer + evidence -> question) for `qs train-questions` and
// `qs eval-questions` (issue 31):
//  - FairytaleQA (../shared/data/fairytaleqa, Apache-2.0): `questions/<split>/<story>-questions.csv`
//    (question, answer1, cor_section "3" or "7,8") with `section-stories/<split>/<story>-story.csv`
//    (section, text). Evidence: the sentences of the answering section(s), those sharing content
//    words with the answer first (in order), then the rest;
//  - QMSum (pipeline/qs/qmsum.h): every specific query with evidence -> its answer and the evidence turns.
// Bounded: CSV files over 16 MiB, fields over 1 MiB, rows over 64 fields and unterminated quotes are
// refused with the file named.
#include "pipeline/qs/qmsum.h"
#include "pipeline/qs/draft/questiongen.h"

#include <QString>

#include <vector>

namespace folio::pipeline {

// RFC 4180 rows ("" inside quotes, newlines inside quoted fields).
bool parseCsv(const QString &path, std::vector<QStringList> *rows, QString *error);

// One FairytaleQA story: its sections in order and its questions, each tied to the section(s)
// that answer it (indices into `sections`).
struct FairytaleQaStory
{
    QString name;
    std::vector<QStringList> sections; // sentences of section 1, 2, ...
    struct Question
    {
        QString question, answer1, answer4; // answer4: a second annotator's (val / test only)
        std::vector<int> sections;
    };
    std::vector<Question> questions;
};

// `dir` is the fairytaleqa folder (or its data-by-train-split); `split` train | val | test.
// At most `limit` stories (< 0: all), in name order.
bool readFairytaleQaStories(const QString &dir, const QString &split, std::vector<FairytaleQaStory> *out, QString *error,
                            int limit = -1);
bool readFairytaleQaExamples(const QString &dir, const QString &split, std::vector<QuestionExample> *out,
                             QString *error, int limit = -1);

std::vector<QuestionExample> qmsumQuestionExamples(const std::vector<QmsumMeeting> &meetings);

// The answer's sentences first (those sharing a content word with it, in order), then the rest.
QStringList evidenceForAnswer(const QString &answer, const QStringList &sentences);

} // namespace folio::pipeline
