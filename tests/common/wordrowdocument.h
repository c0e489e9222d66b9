#pragma once

// A one-page image document of `count` words in a row ("word<i>", ids "w<i>" from `firstIndex`),
// each with its word node under the root: the smallest page an annotation test can label.

#include "document/document.h"

#include <QString>

namespace folio::testing {

inline Document wordRowDocument(const QString &source, int count, int firstIndex = 0)
{
    Document doc;
    doc.sourcePath = source;
    doc.kind = SourceKind::Image;
    Page page;
    page.size = QSizeF(1000, 1000);
    doc.pages.push_back(page);
    Node root;
    root.kind = NodeKind::Root;
    root.id = QStringLiteral("root");
    doc.addNode(root, -1);
    for (int i = firstIndex; i < firstIndex + count; ++i) {
        Word w;
        w.id = QStringLiteral("w%1").arg(i);
        w.text = QStringLiteral("word%1").arg(i);
        w.box = QRectF(10 + 100 * i, 10, 90, 30);
        Node n;
        n.id = w.id;
        n.kind = NodeKind::Word;
        n.text = w.text;
        w.node = doc.addNode(n, 0);
        doc.words.push_back(w);
    }
    doc.normaliseWordBoxes();
    return doc;
}

} // namespace folio::testing
