#include "document/layoutsections.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace folio {

namespace {

struct LayoutLine
{
    int firstWord = 0;
    int endWord = 0;
    int node = -1;       // the Line node, -1 when the words hang elsewhere
    int page = 0;
    double size = 0;     // median word height
    double top = 0, bottom = 0;
    bool startsParagraph = false;
    QString text;
};

struct HeadingMark
{
    int firstWord = 0;
    int rawLevel = 1;
    int node = -1;
    QString title;
};

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
}

bool isRoman(const QString &s)
{
    static const QRegularExpression re(QStringLiteral("^(X{0,3})(IX|IV|V?I{0,3})$"));
    return !s.isEmpty() && s.size() <= 6 && re.match(s).hasMatch();
}

// The line node owning word `w` (its word node's parent), -1 when none.
int lineNodeOf(const Document &doc, const Word &w)
{
    if (w.node < 0 || w.node >= int(doc.nodes.size()))
        return -1;
    const int parent = doc.nodes[size_t(w.node)].parent;
    if (parent < 0 || parent >= int(doc.nodes.size()) || doc.nodes[size_t(parent)].kind != NodeKind::Line)
        return -1;
    return parent;
}

std::vector<LayoutLine> collectLines(const Document &doc)
{
    std::vector<LayoutLine> lines;
    const int n = int(doc.words.size());
    for (int i = 0; i < n;) {
        const int node = lineNodeOf(doc, doc.words[size_t(i)]);
        int j = i + 1;
        while (j < n && node >= 0 && lineNodeOf(doc, doc.words[size_t(j)]) == node
               && doc.words[size_t(j)].page == doc.words[size_t(i)].page)
            ++j;
        LayoutLine line;
        line.firstWord = i;
        line.endWord = j;
        line.node = node;
        line.page = doc.words[size_t(i)].page;
        std::vector<double> heights;
        QStringList texts;
        line.top = 1e18;
        line.bottom = -1e18;
        for (int k = i; k < j; ++k) {
            const Word &w = doc.words[size_t(k)];
            texts << w.text;
            if (!w.box.isNull()) {
                heights.push_back(w.box.height());
                line.top = std::min(line.top, w.box.top());
                line.bottom = std::max(line.bottom, w.box.bottom());
            }
        }
        // The line's extent without outliers: its second-largest word height from 3 words on (a
        // quote or a merged box can be much taller), the n/4-th largest from 8.
        std::sort(heights.begin(), heights.end(), std::greater<double>());
        line.size = heights.empty() ? 0 : heights[heights.size() < 3 ? 0 : std::max<size_t>(1, heights.size() / 4)];
        line.text = texts.join(QLatin1Char(' ')).simplified();
        if (node >= 0) {
            const int par = doc.nodes[size_t(node)].parent;
            line.startsParagraph = par >= 0 && !doc.nodes[size_t(par)].children.empty()
                                   && doc.nodes[size_t(par)].children.front() == node;
        }
        lines.push_back(std::move(line));
        i = j;
    }
    return lines;
}

// Pre-order marks with raw levels -> doc->sections (levels = depth, ranges to the next section).
void buildTree(Document *doc, const std::vector<HeadingMark> &marks)
{
    doc->sections.clear();
    std::vector<std::pair<int, int>> stack; // (section index, raw level)
    int previousStart = 0;
    for (const HeadingMark &m : marks) {
        while (!stack.empty() && stack.back().second >= m.rawLevel)
            stack.pop_back();
        Section s;
        s.title = m.title;
        s.parent = stack.empty() ? -1 : stack.back().first;
        s.level = s.parent < 0 ? 1 : doc->sections[size_t(s.parent)].level + 1;
        s.node = m.node;
        s.firstWord = std::clamp(m.firstWord, previousStart, int(doc->words.size()));
        previousStart = s.firstWord;
        const int index = int(doc->sections.size());
        if (s.parent >= 0)
            doc->sections[size_t(s.parent)].children.push_back(index);
        doc->sections.push_back(s);
        stack.push_back({index, m.rawLevel});
    }
    for (size_t i = 0; i < doc->sections.size(); ++i)
        doc->sections[i].endWord = i + 1 < doc->sections.size() ? doc->sections[i + 1].firstWord : int(doc->words.size());
}

} // namespace

int sectionNumberingDepth(const QString &text, QString *rest)
{
    const QString t = text.trimmed();
    const int space = int(t.indexOf(QLatin1Char(' ')));
    const QString token = space < 0 ? t : t.left(space);
    if (rest)
        *rest = space < 0 ? QString() : t.mid(space + 1).trimmed();
    if (token.isEmpty() || token.size() > 24)
        return 0;
    const bool trailingDot = token.endsWith(QLatin1Char('.'));
    QStringList parts = token.split(QLatin1Char('.'));
    if (trailingDot)
        parts.removeLast();
    if (parts.isEmpty() || parts.size() > 8)
        return 0;
    static const QRegularExpression digits(QStringLiteral("^[0-9]{1,3}$"));
    static const QRegularExpression letter(QStringLiteral("^[A-Z]$"));
    for (int i = 1; i < parts.size(); ++i)
        if (!digits.match(parts[i]).hasMatch())
            return 0;
    const QString &first = parts.front();
    const bool needsMore = !trailingDot && parts.size() == 1;
    if (digits.match(first).hasMatch()) {
        if (first.size() == 1 || first.front() != QLatin1Char('0'))
            return int(parts.size());
        return 0;
    }
    if ((letter.match(first).hasMatch() || isRoman(first)) && !needsMore)
        return int(parts.size());
    return 0;
}

int buildLayoutSections(Document *doc, const LayoutSectionOptions &options)
{
    const std::vector<LayoutLine> lines = collectLines(*doc);
    std::vector<double> weighted;
    for (const LayoutLine &l : lines)
        if (l.size > 0)
            for (int k = l.firstWord; k < l.endWord; ++k)
                weighted.push_back(l.size);
    const double body = median(weighted);
    // A heading has a word of two letters or more (not "A M", index letters, page numbers).
    static const QRegularExpression hasLetters(QStringLiteral("\\p{L}\\p{L}"));

    struct Candidate { size_t line; int numbering; };
    std::vector<Candidate> candidates;
    for (size_t i = 0; i < lines.size(); ++i) {
        const LayoutLine &l = lines[i];
        const int words = l.endWord - l.firstWord;
        if (words > options.maxHeadingWords || !hasLetters.match(l.text).hasMatch())
            continue;
        const bool large = body > 0 && l.size >= options.sizeRatio * body;
        QString rest;
        const int numbering = sectionNumberingDepth(l.text, &rest);
        bool numberedHeading = false;
        if (numbering > 0 && hasLetters.match(rest).hasMatch()) {
            const bool firstOnPage = i == 0 || lines[i - 1].page != l.page;
            const double gap = i == 0 ? 0 : l.top - lines[i - 1].bottom;
            const bool spaced = firstOnPage || l.startsParagraph || (body > 0 && gap > 0.6 * body);
            const QChar last = rest.back();
            const bool sentence = last == QLatin1Char('.') || last == QLatin1Char(',') || last == QLatin1Char(';');
            numberedHeading = spaced && !sentence && rest.front().isUpper() && l.size >= 0.85 * body;
        }
        if (large || numberedHeading)
            candidates.push_back({i, numberedHeading ? numbering : 0});
    }
    // Size tiers of the unnumbered headings.
    std::vector<double> sizes;
    for (const Candidate &c : candidates)
        if (c.numbering == 0)
            sizes.push_back(lines[c.line].size);
    std::sort(sizes.begin(), sizes.end(), std::greater<double>());
    std::vector<double> tierStarts;
    for (double s : sizes)
        if (tierStarts.empty() || s < 0.88 * tierStarts.back())
            tierStarts.push_back(s);
    auto tierOf = [&](double size) {
        int tier = 0;
        for (size_t t = 0; t < tierStarts.size(); ++t)
            if (size <= tierStarts[t] * 1.0001)
                tier = int(t);
        return tier + 1;
    };
    std::vector<HeadingMark> marks;
    for (const Candidate &c : candidates) {
        const LayoutLine &l = lines[c.line];
        marks.push_back({l.firstWord, c.numbering > 0 ? c.numbering : tierOf(l.size), l.node, l.text});
    }
    buildTree(doc, marks);
    return int(doc->sections.size());
}

int buildOutlineSections(Document *doc, const std::vector<OutlineEntry> &outline)
{
    const int pages = int(doc->pages.size());
    const int n = int(doc->words.size());
    // pageStart[p] = index of the first word on page >= p (words are grouped by page).
    std::vector<int> pageStart(size_t(std::max(0, pages)) + 1, n);
    for (int i = n - 1; i >= 0; --i) {
        const int p = doc->words[size_t(i)].page;
        if (p >= 0 && p < pages)
            pageStart[size_t(p)] = i;
    }
    for (int p = pages - 1; p >= 0; --p)
        pageStart[size_t(p)] = std::min(pageStart[size_t(p)], pageStart[size_t(p) + 1]);
    std::vector<HeadingMark> marks;
    int previous = 0;
    for (const OutlineEntry &e : outline) {
        int start = previous;
        if (e.page >= 0 && e.page < pages) {
            start = pageStart[size_t(e.page)];
            const double height = doc->pages[size_t(e.page)].size.height();
            if (e.top > 0 && height > 0) {
                const double y = e.top * height - 0.02 * height;
                while (start < n && doc->words[size_t(start)].page == e.page && doc->words[size_t(start)].box.bottom() < y)
                    ++start;
            }
        }
        previous = std::max(previous, start);
        const int node = start < n ? lineNodeOf(*doc, doc->words[size_t(start)]) : -1;
        marks.push_back({start, std::max(1, e.level), node, e.title.simplified()});
    }
    buildTree(doc, marks);
    return int(doc->sections.size());
}

void rebaseSections(Document *doc, const QStringList &oldWordIds)
{
    QHash<QString, int> now;
    now.reserve(int(doc->words.size()));
    for (int i = 0; i < int(doc->words.size()); ++i)
        now.insert(doc->words[size_t(i)].id, i);
    // mapped[i]: the new index of old word i when it survived, else the place just after the last
    // old word before it that survived (where replacement words were put); mapped[n] = the end.
    const int oldCount = int(oldWordIds.size());
    std::vector<int> mapped(size_t(oldCount) + 1, int(doc->words.size()));
    int afterSurvivor = 0;
    for (int i = 0; i < oldCount; ++i) {
        const auto it = now.constFind(oldWordIds[i]);
        mapped[size_t(i)] = it != now.constEnd() ? it.value() : afterSurvivor;
        if (it != now.constEnd())
            afterSurvivor = it.value() + 1;
    }
    auto map = [&](int old) { return mapped[size_t(std::clamp(old, 0, oldCount))]; };
    int previous = 0;
    for (Section &s : doc->sections) {
        s.firstWord = std::max(previous, map(s.firstWord));
        s.endWord = std::max(s.firstWord, map(s.endWord));
        previous = s.firstWord;
        s.node = s.firstWord < int(doc->words.size()) ? lineNodeOf(*doc, doc->words[size_t(s.firstWord)]) : -1;
    }
}

} // namespace folio
