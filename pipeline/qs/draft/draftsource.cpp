#include "pipeline/qs/draft/draftsource.h"

#include "document/layoutsections.h"
#include "pipeline/qs/draft/topicsegments.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace folio::pipeline {

long DraftSource::wordCount() const
{
    long n = 0;
    for (const DraftSection &s : sections)
        for (const DraftSentence &t : s.sentences)
            n += t.wordCount;
    return n;
}

int DraftSource::depthOf(int section) const
{
    int depth = 0;
    for (int s = section; s >= 0 && depth <= int(sections.size()); s = sections[std::size_t(s)].parent)
        ++depth;
    return depth;
}

namespace {

bool isAbbreviation(const QString &word)
{
    static const QSet<QString> known{QStringLiteral("e.g."), QStringLiteral("i.e."), QStringLiteral("etc."),
                                     QStringLiteral("vs."),  QStringLiteral("mr."),  QStringLiteral("mrs."),
                                     QStringLiteral("dr."),  QStringLiteral("fig."), QStringLiteral("no."),
                                     QStringLiteral("cf."),  QStringLiteral("st."),  QStringLiteral("prof.")};
    const QString w = word.toLower();
    if (known.contains(w))
        return true;
    // "U.S.", "A." : single letters with dots
    static const QRegularExpression initials(QStringLiteral("^(\\w\\.)+$"));
    return w.size() <= 4 && initials.match(w).hasMatch();
}

bool endsSentence(const QString &word)
{
    QString w = word;
    while (!w.isEmpty() && (w.back() == QLatin1Char('"') || w.back() == QLatin1Char('\'') || w.back() == QLatin1Char(')') ||
                            w.back() == QChar(0x201D)))
        w.chop(1);
    if (w.isEmpty())
        return false;
    const QChar c = w.back();
    if (c != QLatin1Char('.') && c != QLatin1Char('!') && c != QLatin1Char('?'))
        return false;
    return c != QLatin1Char('.') || !isAbbreviation(w);
}

// A line-like unit of a word: its owner's parent (OCR line, or the element around an HTML text node).
int lineOf(const Document &doc, const Word &w)
{
    if (w.node < 0 || w.node >= int(doc.nodes.size()))
        return -1;
    return doc.nodes[std::size_t(w.node)].parent;
}

bool looksLikeHeading(const QStringList &words)
{
    if (words.isEmpty() || words.size() > 12)
        return false;
    const QChar last = words.back().back();
    if (last == QLatin1Char('.') || last == QLatin1Char(',') || last == QLatin1Char(';') || last == QLatin1Char(':'))
        return sectionNumberingDepth(words.join(QLatin1Char(' '))) > 0 && words.size() > 1;
    bool letter = false;
    for (const QString &w : words)
        for (const QChar c : w)
            letter = letter || c.isLetter();
    return letter && (words.front().front().isUpper() || words.front().front().isDigit());
}

DraftSentence makeSentence(const QStringList &words, int first, int last)
{
    DraftSentence s;
    s.text = words.join(QLatin1Char(' '));
    s.firstWord = first;
    s.lastWord = last;
    s.wordCount = int(words.size());
    return s;
}

// Sentences of doc.words[begin, end); headings-like lines are their own sentences and are marked.
std::vector<DraftSentence> documentSentences(const Document &doc, int begin, int end)
{
    std::vector<DraftSentence> out;
    QStringList cur;
    int first = -1;
    auto flush = [&](int last, bool heading) {
        if (!cur.isEmpty()) {
            out.push_back(makeSentence(cur, first, last));
            out.back().heading = heading;
        }
        cur.clear();
        first = -1;
    };
    const int stop = std::min<int>(end, int(doc.words.size()));
    for (int i = std::max(0, begin); i < stop; ++i) {
        const QString t = doc.words[std::size_t(i)].text.simplified();
        if (t.isEmpty() || t == QStringLiteral("\u00B6")) // pilcrows: the heading anchors documentation generators add
            continue;
        if (first < 0)
            first = i;
        cur << t;
        const bool lastWord = i + 1 >= stop;
        const bool lineEnds = !lastWord && lineOf(doc, doc.words[std::size_t(i)]) != lineOf(doc, doc.words[std::size_t(i) + 1]);
        const bool firstOfLine = first == std::max(0, begin) || lineOf(doc, doc.words[std::size_t(first)]) !=
                                                                        lineOf(doc, doc.words[std::size_t(std::max(first - 1, 0))]);
        if (lineEnds && firstOfLine && looksLikeHeading(cur))
            flush(i, true);
        else if (endsSentence(t) || cur.size() >= 60)
            flush(i, false);
    }
    flush(stop - 1, false);
    return out;
}

// The heading's own words open a section's range: they title it and are no summary material. When
// they ran into the first sentence (no line information), they are split off as a sentence of their own.
void splitOffHeading(std::vector<DraftSentence> *sentences, const QString &title)
{
    if (sentences->empty() || title.isEmpty())
        return;
    DraftSentence &first = sentences->front();
    QString rest;
    sectionNumberingDepth(title, &rest);
    for (const QString &heading : {title.simplified(), rest.simplified()}) {
        const int n = int(heading.count(QLatin1Char(' '))) + 1;
        if (heading.isEmpty() || n > first.wordCount)
            continue;
        const QStringList words = first.text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (words.mid(0, n).join(QLatin1Char(' ')).compare(heading, Qt::CaseInsensitive) != 0)
            continue;
        if (n == first.wordCount) {
            first.heading = true;
            return;
        }
        DraftSentence body = first;
        body.text = words.mid(n).join(QLatin1Char(' '));
        body.wordCount = first.wordCount - n;
        first.text = words.mid(0, n).join(QLatin1Char(' '));
        first.wordCount = n;
        first.heading = true;
        if (first.firstWord >= 0) { // word ranges follow the non-empty words the sentence was built from
            first.lastWord = first.firstWord + n - 1;
            body.firstWord = first.lastWord + 1;
        }
        sentences->insert(sentences->begin() + 1, body);
        return;
    }
}

void tokensOf(const std::vector<DraftSentence> &sentences, std::vector<QStringList> *tokens, QHash<QString, int> *df)
{
    for (const DraftSentence &s : sentences) {
        tokens->push_back(draftTokens(s.text));
        QSet<QString> seen(tokens->back().cbegin(), tokens->back().cend());
        for (const QString &t : seen)
            ++(*df)[t];
    }
}

// Splits section `index` into parts at heading-like lines or by topic; the parts become its
// subsections (the section keeps the sentences before the first part when it has a title), or the
// top-level sections when the section is the whole document.
void segmentSection(DraftSource *src, int index, const DraftSegmenting &opt,
                    const QHash<QString, int> &df, int sentenceCount)
{
    DraftSection &sec = src->sections[std::size_t(index)];
    const std::vector<DraftSentence> all = sec.sentences;
    std::vector<QStringList> tokens;
    QHash<QString, int> unused;
    tokensOf(all, &tokens, &unused);
    // 1. Heading-like lines with text under them.
    // Running page headers and footers repeat (with other page numbers): they are no headings.
    static const QRegularExpression digits(QStringLiteral("\\d+"));
    auto furnitureKey = [](const QString &text) { return QString(text).remove(digits).simplified().toLower(); };
    QHash<QString, int> repeats;
    for (const DraftSentence &t : all)
        if (t.heading)
            ++repeats[furnitureKey(t.text)];
    std::vector<int> starts;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all[i].heading && i + 1 < all.size() && !all[i + 1].heading && repeats.value(furnitureKey(all[i].text)) == 1 &&
            all[i].text.compare(sec.title, Qt::CaseInsensitive) != 0)
            starts.push_back(int(i));
    bool byHeadings = starts.size() >= 2 && src->wordCount() / long(starts.size() + 1) >= opt.minSegmentWords / 2;
    if (!byHeadings)
        starts = topicSegmentStarts(tokens, opt.targetSegmentWords, opt.minSegmentWords);
    if (starts.size() < 2 && !(byHeadings && !starts.empty()))
        return;
    const bool keepLead = !sec.title.isEmpty();
    // A document that is one implicit section: its parts are the document's top-level sections.
    const bool wholeDocument = sec.documentSection < 0 && sec.parent < 0 && src->sections.size() == 1;
    std::vector<DraftSection> parts;
    const std::size_t leadEnd = keepLead ? std::size_t(starts.front()) : 0;
    if (!keepLead)
        starts.front() = 0;
    for (std::size_t p = 0; p < starts.size(); ++p) {
        const std::size_t a = std::size_t(starts[p]), b = p + 1 < starts.size() ? std::size_t(starts[p + 1]) : all.size();
        DraftSection part;
        part.parent = wholeDocument ? -1 : index;
        part.segmented = true;
        if (byHeadings && all[a].heading) {
            part.title = all[a].text;
            part.segmented = false;
        } else {
            part.title = keyTermTitle(std::vector<QStringList>(tokens.begin() + long(a), tokens.begin() + long(b)), df, sentenceCount);
        }
        part.sentences.assign(all.begin() + long(a), all.begin() + long(b));
        parts.push_back(std::move(part));
    }
    sec.sentences.assign(all.begin(), all.begin() + long(leadEnd));
    src->notes << (byHeadings ? QStringLiteral("\"%1\": %2 parts at heading-like lines").arg(sec.title).arg(parts.size())
                              : QStringLiteral("\"%1\": segmented by topic into %2 parts").arg(sec.title).arg(parts.size()));
    // Insert the parts right after the section (they have no siblings below it: it had no subsections).
    src->sections.insert(src->sections.begin() + index + 1, parts.begin(), parts.end());
    for (std::size_t s = std::size_t(index) + 1 + parts.size(); s < src->sections.size(); ++s)
        if (src->sections[s].parent > index)
            src->sections[s].parent += int(parts.size());
}

} // namespace

QString cleanSpokenText(const QString &text)
{
    static const QRegularExpression markers(QStringLiteral("\\{[a-z]+\\}"));
    static const QRegularExpression fillers(QStringLiteral("\\b(um+|uh+|mm+|hmm+|mm-hmm|uh-huh)\\b[ ,]*"),
                                            QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression spaceBeforePunct(QStringLiteral("\\s+([,.?!;:])"));
    static const QRegularExpression repeats(QStringLiteral("\\b(\\w+)(?: \\1\\b)+"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression leadingPunct(QStringLiteral("^[\\s,.;:]+"));
    QString s = text;
    s.replace(markers, QStringLiteral(" "));
    s.replace(fillers, QStringLiteral(" "));
    s = s.simplified();
    s.replace(spaceBeforePunct, QStringLiteral("\\1"));
    s.replace(repeats, QStringLiteral("\\1"));
    s.replace(QStringLiteral(" ' "), QStringLiteral("'"));
    s.replace(QStringLiteral(" 's"), QStringLiteral("'s"));
    s.replace(QStringLiteral(" n't"), QStringLiteral("n't"));
    s.remove(leadingPunct);
    return s.simplified();
}

QStringList splitDraftSentences(const QString &text, int maxWords)
{
    QStringList out, cur;
    for (const QString &w : text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        cur << w;
        if (endsSentence(w) || cur.size() >= maxWords) {
            out << cur.join(QLatin1Char(' '));
            cur.clear();
        }
    }
    if (!cur.isEmpty())
        out << cur.join(QLatin1Char(' '));
    return out;
}

DraftSource draftSourceFromDocument(const Document &doc, const DraftSegmenting &segmenting)
{
    DraftSource src;
    src.title = doc.title;
    const int firstOwned = doc.sections.empty() ? int(doc.words.size()) : doc.sections.front().firstWord;
    const bool implicit = doc.sections.empty() || firstOwned > 0;
    if (implicit) {
        DraftSection s;
        s.title = doc.sections.empty() ? doc.title.simplified() : QString();
        s.sentences = documentSentences(doc, 0, firstOwned);
        src.sections.push_back(std::move(s));
    }
    const int offset = implicit ? 1 : 0;
    for (std::size_t i = 0; i < doc.sections.size(); ++i) {
        const Section &sec = doc.sections[i];
        DraftSection s;
        s.title = sec.title.simplified();
        s.parent = sec.parent < 0 || sec.parent >= int(i) ? -1 : sec.parent + offset;
        s.documentSection = int(i);
        s.sentences = documentSentences(doc, sec.firstWord, sec.endWord);
        splitOffHeading(&s.sentences, s.title);
        src.sections.push_back(std::move(s));
    }
    // Topic segmentation of long sections without subsections (documents without marked-up headings).
    std::vector<QStringList> tokens;
    QHash<QString, int> df;
    for (const DraftSection &s : src.sections)
        tokensOf(s.sentences, &tokens, &df);
    const int sentenceCount = int(tokens.size());
    std::vector<bool> hasChildren(src.sections.size(), false);
    for (const DraftSection &s : src.sections)
        if (s.parent >= 0)
            hasChildren[std::size_t(s.parent)] = true;
    for (int i = int(src.sections.size()) - 1; i >= 0; --i) { // back to front: inserting keeps earlier indices
        long words = 0;
        for (const DraftSentence &t : src.sections[std::size_t(i)].sentences)
            words += t.wordCount;
        if (!hasChildren[std::size_t(i)] && words >= segmenting.minWordsToSegment)
            segmentSection(&src, i, segmenting, df, sentenceCount);
    }
    return src;
}

DraftSource draftSourceFromMeeting(const QmsumMeeting &meeting)
{
    DraftSource src;
    src.title = meeting.id;
    src.conversation = true;
    for (std::size_t s = 0; s < meeting.input.sections.size(); ++s) {
        DraftSection sec;
        sec.title = meeting.input.sections[s].title;
        sec.parent = meeting.input.sections[s].parent;
        std::vector<int> turns;
        if (s < meeting.sectionSpans.size())
            for (const auto &[a, b] : meeting.sectionSpans[s])
                for (int t = a; t <= b && t < int(meeting.turns.size()); ++t)
                    turns.push_back(t);
        else
            for (int t = 0; t < int(meeting.turns.size()); ++t)
                turns.push_back(t);
        for (int t : turns) {
            const QString &turn = meeting.turns.at(t);
            const int colon = turn.indexOf(QStringLiteral(": "));
            const QString speaker = colon > 0 && colon < 40 ? turn.left(colon) : QString();
            const QString content = cleanSpokenText(speaker.isEmpty() ? turn : turn.mid(colon + 2));
            for (const QString &text : splitDraftSentences(content)) {
                DraftSentence d;
                d.text = text;
                d.speaker = speaker;
                d.unit = t;
                d.wordCount = int(text.count(QLatin1Char(' '))) + 1;
                sec.sentences.push_back(d);
            }
        }
        src.sections.push_back(std::move(sec));
    }
    return src;
}

DraftSource draftSourceFromInput(const QsInput &input)
{
    DraftSource src;
    src.title = input.id;
    for (const QsSectionText &s : input.sections) {
        DraftSection sec;
        sec.title = s.title;
        sec.parent = s.parent;
        for (const QString &p : s.paragraphs)
            for (const QString &text : splitDraftSentences(p)) {
                DraftSentence d;
                d.text = text;
                d.wordCount = int(text.count(QLatin1Char(' '))) + 1;
                sec.sentences.push_back(d);
            }
        src.sections.push_back(std::move(sec));
    }
    return src;
}

} // namespace folio::pipeline
