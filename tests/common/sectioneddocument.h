#pragma once

// Text documents with a section tree, built word by word: what the question-summary tests draft
// from. Word ids are "w<index>"; words have no boxes.

#include "document/document.h"

#include <QString>

namespace folio::testing {

// Appends the space-separated words of `text`.
inline void addWords(Document &doc, const QString &text)
{
    for (const QString &t : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        Word w;
        w.id = QStringLiteral("w%1").arg(doc.words.size());
        w.text = t;
        doc.words.push_back(w);
    }
}

// A section starting at the next word: its heading words, then `body`; `parent` is a section index
// or -1 for a top-level section. Returns the new section's index.
inline int addSection(Document &doc, const QString &title, int parent, const QString &body)
{
    Section s;
    s.title = title;
    s.parent = parent;
    s.level = parent < 0 ? 1 : doc.sections[std::size_t(parent)].level + 1;
    s.firstWord = int(doc.words.size());
    addWords(doc, title);
    addWords(doc, body);
    s.endWord = int(doc.words.size());
    if (parent >= 0)
        doc.sections[std::size_t(parent)].children.push_back(int(doc.sections.size()));
    doc.sections.push_back(s);
    return int(doc.sections.size()) - 1;
}

} // namespace folio::testing
