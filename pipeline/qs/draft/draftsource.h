#pragma once
// The material the question-summary drafter reads (issue 31): a document as sections of sentences,
// each sentence tied back to the words it came from, so a draft's evidence can be highlighted.
//
//   DraftSource src = draftSourceFromDocument(doc);     // sections from the section tree; a long
//                                                        // unstructured text is segmented by topic
//   DraftSource m = draftSourceFromMeeting(meeting);     // QMSum: topics as sections, speakers kept
//
// Torch-free and model-free: sentence splitting, disfluency clean-up of transcripts, heading-like
// lines and TextTiling-style topic segmentation (topicsegments.h) for documents whose headings are
// not marked up.
#include "document/document.h"
#include "pipeline/qs/qmsum.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace folio::pipeline {

struct DraftSentence
{
    QString text;          // cleaned, as it may appear in a summary
    QString speaker;       // transcripts only
    int firstWord = -1;    // Document::words index range (inclusive), -1 without a Document
    int lastWord = -1;
    int unit = -1;         // where it came from outside a Document (a QMSum turn index), -1 otherwise
    int wordCount = 0;
    bool heading = false;  // a short heading-like line: it can title a part, it is never summarised
};

struct DraftSection
{
    QString title;
    int parent = -1;          // index into DraftSource::sections, parents first; -1 = top level
    int documentSection = -1; // index into Document::sections, -1 for implicit / segmented ones
    bool segmented = false;   // found by topic segmentation (its title is made of key terms)
    std::vector<DraftSentence> sentences; // the section's own sentences (not its subsections')
};

struct DraftSource
{
    QString title;
    bool conversation = false; // sentences carry speakers
    std::vector<DraftSection> sections;
    QStringList notes;         // what was done to find structure ("segmented by topic into 7 parts")
    long wordCount() const;
    int depthOf(int section) const; // 1 = top level
};

struct DraftSegmenting
{
    int minWordsToSegment = 900; // a section with no subsections and this many own words is segmented
    int targetSegmentWords = 450;
    int minSegmentWords = 120;
};

// Splits `words` (already cleaned) into sentences: after . ! ? (not after single letters or common
// abbreviations), and at most `maxWords` words each.
QStringList splitDraftSentences(const QString &text, int maxWords = 60);
// Transcript clean-up: {disfmarker}-style markers, um / uh, immediate word repeats, space before punctuation.
QString cleanSpokenText(const QString &text);

DraftSource draftSourceFromDocument(const Document &doc, const DraftSegmenting &segmenting = {});
DraftSource draftSourceFromMeeting(const QmsumMeeting &meeting);
// A QsInput (e.g. a project sample): paragraphs split into sentences, no word ranges.
DraftSource draftSourceFromInput(const QsInput &input);

} // namespace folio::pipeline
