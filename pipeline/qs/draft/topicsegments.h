#pragma once
// Topic segmentation of a run of sentences (TextTiling, Hearst 1997, in its block-comparison form),
// for long texts without marked-up headings, and key terms to title the parts.
//
//   std::vector<int> starts = topicSegmentStarts(sentenceTokens, 450, 120);  // first sentence of each part
//   QString title = keyTermTitle(tokensOfPart, documentFrequency, sentenceCount);
//
// Gaps between sentences are scored by the cosine between the bag of content words of the ~120
// words before and after; a gap's depth is how far it lies below the highest similarity on each side.
// Boundaries are taken deepest first while every part keeps at least `minWords` words, until the
// parts average `targetWords`. Linear in the text (windows slide), deterministic.
#include <QString>
#include <QStringList>

#include <QHash>
#include <QSet>
#include <vector>

namespace folio::pipeline {

// Lower-cased letters-and-digits tokens (Unicode letters kept), as every drafter feature counts words.
QStringList draftTokens(const QString &text);
bool isDraftStopword(const QString &token);
// The distinct content words of a text: draftTokens minus stop words.
QSet<QString> draftContentWords(const QString &text);

std::vector<int> topicSegmentStarts(const std::vector<QStringList> &sentenceTokens, int targetWords, int minWords);

// Up to three of the part's most distinctive content words (tf x idf over the document's
// sentences), in the order they first occur, joined by ", ".
QString keyTermTitle(const std::vector<QStringList> &partTokens, const QHash<QString, int> &sentenceFrequency,
                     int sentences);

} // namespace folio::pipeline
