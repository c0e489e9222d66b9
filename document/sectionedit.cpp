#include "document/sectionedit.h"

#include <algorithm>

namespace folio {

namespace {

// The last section of the subtree rooted at `index` (pre-order), inclusive.
int subtreeEnd(const Document &doc, int index)
{
    const int level = doc.sections[size_t(index)].level;
    int end = index + 1;
    while (end < int(doc.sections.size()) && doc.sections[size_t(end)].level > level)
        ++end;
    return end;
}

QString titleFromWords(const Document &doc, int first, int end)
{
    QStringList words;
    for (int w = first; w < end && words.size() < 8; ++w)
        words << doc.words[size_t(w)].text;
    return words.join(QLatin1Char(' ')).simplified().left(200);
}

} // namespace

void relinkSections(Document *doc)
{
    std::vector<int> stack;
    for (int i = 0; i < int(doc->sections.size()); ++i) {
        Section &s = doc->sections[size_t(i)];
        s.children.clear();
        const int previous = i == 0 ? 0 : doc->sections[size_t(i) - 1].level;
        s.level = std::clamp(s.level, 1, std::min(previous + 1, kMaxSectionLevel));
        while (!stack.empty() && doc->sections[size_t(stack.back())].level >= s.level)
            stack.pop_back();
        s.parent = stack.empty() ? -1 : stack.back();
        if (s.parent >= 0)
            doc->sections[size_t(s.parent)].children.push_back(i);
        stack.push_back(i);
    }
}

int sectionOwningWord(const Document &doc, int wordIndex)
{
    for (int i = int(doc.sections.size()) - 1; i >= 0; --i) {
        const Section &s = doc.sections[size_t(i)];
        if (wordIndex >= s.firstWord && wordIndex < s.endWord)
            return i;
    }
    return -1;
}

bool splitSectionAtWord(Document *doc, int wordIndex, const QString &title, int *newIndex)
{
    if (wordIndex < 0 || wordIndex >= int(doc->words.size()))
        return false;
    const int owner = sectionOwningWord(*doc, wordIndex);
    Section fresh;
    int at = 0;
    if (owner < 0) {
        // Before every section (or none at all): a new top-level section up to the first one.
        if (!doc->sections.empty() && wordIndex >= doc->sections.front().firstWord)
            return false; // in a gap between sections (HTML): no section owns it
        fresh.level = 1;
        fresh.firstWord = wordIndex;
        fresh.endWord = doc->sections.empty() ? int(doc->words.size()) : doc->sections.front().firstWord;
        at = 0;
    } else {
        Section &s = doc->sections[size_t(owner)];
        if (wordIndex == s.firstWord)
            return false;
        fresh.level = s.level;
        fresh.firstWord = wordIndex;
        fresh.endWord = s.endWord;
        s.endWord = wordIndex;
        at = owner + 1;
    }
    fresh.title = title.trimmed().isEmpty() ? titleFromWords(*doc, fresh.firstWord, fresh.endWord)
                                            : title.simplified().left(1000);
    doc->sections.insert(doc->sections.begin() + at, fresh);
    relinkSections(doc);
    if (newIndex)
        *newIndex = at;
    return true;
}

bool mergeSectionWithPrevious(Document *doc, int index)
{
    if (index <= 0 || index >= int(doc->sections.size()))
        return false;
    Section &previous = doc->sections[size_t(index) - 1];
    const Section &gone = doc->sections[size_t(index)];
    if (gone.endWord > gone.firstWord) {
        if (previous.endWord <= previous.firstWord)
            previous.firstWord = gone.firstWord;
        previous.endWord = std::max(previous.endWord, gone.endWord);
    }
    doc->sections.erase(doc->sections.begin() + index);
    relinkSections(doc);
    return true;
}

bool changeSectionLevel(Document *doc, int index, int delta)
{
    if (index < 0 || index >= int(doc->sections.size()) || delta == 0)
        return false;
    const int level = doc->sections[size_t(index)].level;
    const int wanted = level + delta;
    const int previous = index == 0 ? 0 : doc->sections[size_t(index) - 1].level;
    if (wanted < 1 || wanted > previous + 1)
        return false;
    const int end = subtreeEnd(*doc, index);
    for (int i = index; i < end; ++i)
        if (doc->sections[size_t(i)].level + delta > kMaxSectionLevel)
            return false;
    for (int i = index; i < end; ++i)
        doc->sections[size_t(i)].level += delta;
    relinkSections(doc);
    return true;
}

bool renameSection(Document *doc, int index, const QString &title)
{
    const QString t = title.simplified();
    if (index < 0 || index >= int(doc->sections.size()) || t.isEmpty() || t.size() > 1000
        || t == doc->sections[size_t(index)].title)
        return false;
    doc->sections[size_t(index)].title = t;
    return true;
}

} // namespace folio
