#pragma once
// QMSum meetings (../shared/data/qmsum/SOURCE.md) as question-summary samples:
//  - source: the topics as sections (title = topic, paragraphs = "speaker: content" of the turns in
//    its spans, in order); a meeting without topics is one section of every turn;
//  - reference: the first general query's answer is the root summary, every specific query is a
//    child (depth 1) with its answer and evidence turn spans. Further general queries are kept in
//    `extraGeneral` (not scored).
// Bounded: files over 64 MiB, spans outside the transcript or reversed, and wrong types are
// refused with the file named.

#include "inference/qs/qslinearize.h"
#include "pipeline/qs/qsinputs.h"

#include <QString>

#include <utility>
#include <vector>

namespace folio::pipeline {

struct QmsumMeeting
{
    QString id; // file base name
    QsInput input;
    QStringList turns;                                 // "speaker: content"
    std::vector<std::vector<std::pair<int, int>>> sectionSpans; // per section, inclusive turn spans
    inference::QsHierarchy reference;
    std::vector<std::vector<std::pair<int, int>>> evidence; // per reference item
    QStringList extraGeneral;
};

// The section whose turn spans the reference item's evidence overlaps most (the first on ties),
// -1 when the evidence overlaps none.
int evidenceSection(const QmsumMeeting &meeting, std::size_t item);

// True for a JSON object with "meeting_transcripts" (cheap check on parsed content).
bool looksLikeQmsum(const QString &path);
bool readQmsumMeeting(const QString &path, QmsumMeeting *meeting, QString *error);
// `dir` holds <split>/*.json or data/ALL/<split>/*.json; files in name order, at most `limit` (< 0: all).
bool readQmsumSplit(const QString &dir, const QString &split, std::vector<QmsumMeeting> *meetings, QString *error,
                    int limit = -1);

} // namespace folio::pipeline
