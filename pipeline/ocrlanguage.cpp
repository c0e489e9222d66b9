#include "pipeline/ocrlanguage.h"

#include <QSet>

namespace folio::pipeline {

namespace {

// Function words only: they occur on every kind of page (forms, letters, manuals) and do not
// belong to the other language. Words both languages share ("in", "an", "was", "am", "so", "man",
// "also", "will", "name") are left out.
const QSet<QString> &englishStopWords()
{
    static const QSet<QString> words = {
        QStringLiteral("the"), QStringLiteral("and"), QStringLiteral("of"), QStringLiteral("to"),
        QStringLiteral("is"), QStringLiteral("for"), QStringLiteral("with"), QStringLiteral("on"),
        QStringLiteral("by"), QStringLiteral("this"), QStringLiteral("that"), QStringLiteral("are"),
        QStringLiteral("from"), QStringLiteral("be"), QStringLiteral("or"), QStringLiteral("at"),
        QStringLiteral("as"), QStringLiteral("have"), QStringLiteral("has"), QStringLiteral("not"),
        QStringLiteral("your"), QStringLiteral("you"), QStringLiteral("it"), QStringLiteral("which"),
        QStringLiteral("date"), QStringLiteral("please"), QStringLiteral("our"), QStringLiteral("their"),
        QStringLiteral("should"), QStringLiteral("would"), QStringLiteral("been"), QStringLiteral("were"),
        QStringLiteral("if"), QStringLiteral("no"), QStringLiteral("all"), QStringLiteral("any"),
    };
    return words;
}

const QSet<QString> &germanStopWords()
{
    static const QSet<QString> words = {
        QStringLiteral("der"), QStringLiteral("die"), QStringLiteral("das"), QStringLiteral("und"),
        QStringLiteral("ist"), QStringLiteral("nicht"), QStringLiteral("mit"), QStringLiteral("für"),
        QStringLiteral("von"), QStringLiteral("zu"), QStringLiteral("den"), QStringLiteral("im"),
        QStringLiteral("auf"), QStringLiteral("des"), QStringLiteral("dem"), QStringLiteral("ein"),
        QStringLiteral("eine"), QStringLiteral("einer"), QStringLiteral("eines"), QStringLiteral("einem"),
        QStringLiteral("sie"), QStringLiteral("ich"), QStringLiteral("wir"), QStringLiteral("bitte"),
        QStringLiteral("oder"), QStringLiteral("bei"), QStringLiteral("nach"), QStringLiteral("aus"),
        QStringLiteral("sind"), QStringLiteral("wird"), QStringLiteral("werden"), QStringLiteral("zum"),
        QStringLiteral("zur"), QStringLiteral("über"), QStringLiteral("unter"), QStringLiteral("datum"),
        QStringLiteral("ihre"), QStringLiteral("ihr"), QStringLiteral("sich"), QStringLiteral("auch"),
        QStringLiteral("wenn"), QStringLiteral("durch"), QStringLiteral("gemäß"), QStringLiteral("straße"),
        QStringLiteral("herr"), QStringLiteral("frau"), QStringLiteral("nein"), QStringLiteral("ja"),
    };
    return words;
}

// Lower case, trailing and leading punctuation cut ("Datum:" -> "datum").
QString bareWord(const QString &word)
{
    int begin = 0, end = int(word.size());
    while (begin < end && !word.at(begin).isLetter())
        ++begin;
    while (end > begin && !word.at(end - 1).isLetter())
        --end;
    return word.mid(begin, end - begin).toLower();
}

bool hasGermanLetter(const QString &word)
{
    for (const QChar c : word) {
        const char16_t u = c.unicode();
        if (u == u'ä' || u == u'ö' || u == u'ü' || u == u'ß')
            return true;
    }
    return false;
}

} // namespace

OcrLanguageGuess guessOcrLanguage(const QStringList &words)
{
    OcrLanguageGuess g;
    int english = 0, german = 0, germanLetters = 0;
    for (const QString &raw : words) {
        const QString w = bareWord(raw);
        if (w.isEmpty())
            continue;
        ++g.words;
        if (englishStopWords().contains(w))
            ++english;
        if (germanStopWords().contains(w))
            ++german;
        else if (hasGermanLetter(w))
            ++germanLetters;
    }
    if (g.words == 0)
        return g;
    g.englishShare = double(english) / g.words;
    // An "eng" pass often reads ä as a, so German letters are weak evidence: half a stop word each.
    g.germanShare = (german + 0.5 * germanLetters) / g.words;
    if (g.words < kMinWordsForGuess)
        return g;
    // A clear margin and a floor: forms are mostly nouns and numbers, so shares are small.
    constexpr double kFloor = 0.03;
    if (g.germanShare >= kFloor && g.germanShare > 1.5 * g.englishShare)
        g.language = QStringLiteral("deu");
    else if (g.englishShare >= kFloor && g.englishShare > 1.5 * g.germanShare)
        g.language = QStringLiteral("eng");
    return g;
}

} // namespace folio::pipeline
