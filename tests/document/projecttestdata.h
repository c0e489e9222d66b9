#pragma once
// Small synthetic documents for the project-store and format tests.
#include "document/annotations.h"
#include "document/document.h"
#include "document/wordnodes.h"

#include <QString>

namespace folio::test {

// A one-page document of `words` words laid out in lines of 8, with stable ids "w<i>".
inline Document makeDocument(const QString &source, int words)
{
    Document doc;
    doc.sourcePath = source;
    doc.kind = SourceKind::Image;
    doc.title = source;
    Page page;
    page.size = QSizeF(1000, 1400);
    page.imagePath = source + QStringLiteral(".png");
    doc.pages.push_back(page);
    addRootNode(doc);
    for (int i = 0; i < words; ++i) {
        Word w;
        w.id = QStringLiteral("w%1").arg(i);
        w.text = QStringLiteral("word%1").arg(i);
        w.page = 0;
        w.box = QRectF(20 + (i % 8) * 120, 30 + (i / 8) * 40, 100, 30);
        appendWordWithNode(doc, w, 0);
    }
    doc.normaliseWordBoxes();
    return doc;
}

// `count` entities of two words each (labels cycling QUESTION/ANSWER/HEADER), a link from each
// question to the following answer, and one model suggestion.
inline Annotations makeAnnotations(const Document &doc, int count)
{
    static const char *labels[] = {"QUESTION", "ANSWER", "HEADER"};
    Annotations a;
    for (int i = 0; i < count && 2 * i + 1 < int(doc.words.size()); ++i) {
        Entity e;
        e.id = QStringLiteral("e%1").arg(i);
        e.label = QString::fromLatin1(labels[i % 3]);
        e.wordIds = {doc.words[2 * i].id, doc.words[2 * i + 1].id};
        if (i == count - 1 && count > 2) {
            e.source.kind = AnnotationSource::Model;
            e.source.checkpoint = QStringLiteral("ckpt-1");
            e.confidence = 0.5;
            e.state = ReviewState::Suggested;
        }
        a.entities.push_back(e);
        if (i % 3 == 1) {
            Link l;
            l.id = QStringLiteral("l%1").arg(i);
            l.from = QStringLiteral("e%1").arg(i - 1);
            l.to = e.id;
            a.links.push_back(l);
        }
    }
    return a;
}

} // namespace folio::test
