#pragma once
// Which Tesseract language a page's text is written in, from the words a first OCR pass gave.
//
//   OcrLanguageGuess g = guessOcrLanguage(words);      // words of an "eng" pass
//   if (g.language == "deu") rerun with "deu";
//
// Stop words decide: the share of the page's words that are common function words of each
// language (articles, pronouns, prepositions, auxiliaries: words an OCR pass reads right even in
// the wrong language), plus German letters (ä ö ü ß) as weak evidence. A page needs at least
// kMinWordsForGuess words and a clear margin; otherwise the guess is empty ("too little text").
//
// The load option "auto" (LoadOptions::ocrLanguages, the GUI's default) reads a scan in English
// first and again in German when this guess says German and `deu` is installed.

#include <QString>
#include <QStringList>

namespace folio::pipeline {

inline constexpr int kMinWordsForGuess = 12;

struct OcrLanguageGuess
{
    QString language;      // "eng", "deu" or empty (undecided)
    double englishShare = 0; // share of words that are English stop words
    double germanShare = 0;  // share of words that are German stop words (+ German letters)
    int words = 0;           // alphabetic words looked at
};

OcrLanguageGuess guessOcrLanguage(const QStringList &words);

// The language string meaning "English first, German pages again in German".
inline QString autoOcrLanguages() { return QStringLiteral("auto"); }

} // namespace folio::pipeline
