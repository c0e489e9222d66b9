#include "pipeline/modelinputs/taggerpages.h"

#include "document/layoutorder.h"

#include <map>

namespace folio::pipeline {

using inference::TaggerPage;
using inference::WordBox;

void serialiseByLayout(DocumentTaggerPage &p)
{
    std::vector<QRectF> boxes;
    for (const WordBox &b : p.taggerPage.boxes)
        boxes.emplace_back(QPointF(b.x0, b.y0), QPointF(b.x1, b.y1));
    const std::vector<int> order = layoutReadingOrder(boxes);
    DocumentTaggerPage sorted;
    sorted.page = p.page;
    for (int k : order) {
        sorted.taggerPage.words.push_back(p.taggerPage.words[std::size_t(k)]);
        sorted.taggerPage.boxes.push_back(p.taggerPage.boxes[std::size_t(k)]);
        sorted.wordIds << p.wordIds[k];
        sorted.wordIndex.push_back(p.wordIndex[std::size_t(k)]);
    }
    p.taggerPage.words = std::move(sorted.taggerPage.words);
    p.taggerPage.boxes = std::move(sorted.taggerPage.boxes);
    p.wordIds = std::move(sorted.wordIds);
    p.wordIndex = std::move(sorted.wordIndex);
}

std::vector<DocumentTaggerPage> taggerPagesOfDocument(const Document &doc, const Annotations *annotations,
                                                    bool layoutOrder, bool keepBlankWords)
{
    std::map<int, DocumentTaggerPage> byPage;
    std::map<int, bool> pageHasText;
    for (size_t i = 0; i < doc.words.size(); ++i) {
        const Word &w = doc.words[i];
        if (keepBlankWords)
            pageHasText[w.page] = pageHasText[w.page] || !w.text.isEmpty();
        else if (w.text.trimmed().isEmpty())
            continue;
        DocumentTaggerPage &p = byPage[w.page];
        p.page = w.page;
        p.taggerPage.words.push_back(w.text.toStdString());
        p.taggerPage.boxes.push_back(WordBox{w.norm.x0, w.norm.y0, w.norm.x1, w.norm.y1});
        p.wordIds << w.id;
        p.wordIndex.push_back(int(i));
    }
    std::vector<DocumentTaggerPage> out;
    for (auto &entry : byPage) {
        DocumentTaggerPage &p = entry.second;
        if (keepBlankWords && !pageHasText[entry.first])
            continue;
        if (layoutOrder)
            serialiseByLayout(p);
        p.taggerPage.id = (doc.sourcePath + QStringLiteral("#%1").arg(p.page)).toStdString();
        if (annotations)
            for (const QString &t : bioTags(*annotations, p.wordIds))
                p.taggerPage.tags.push_back(t.toStdString());
        out.push_back(std::move(p));
    }
    return out;
}

TaggerPage taggerPageFromDocument(const Document &doc, const Annotations *annotations, const std::string &id,
                                QStringList *wordIds)
{
    TaggerPage page;
    page.id = id;
    QStringList ids;
    for (const DocumentTaggerPage &p : taggerPagesOfDocument(doc, nullptr)) {
        page.words.insert(page.words.end(), p.taggerPage.words.begin(), p.taggerPage.words.end());
        page.boxes.insert(page.boxes.end(), p.taggerPage.boxes.begin(), p.taggerPage.boxes.end());
        ids << p.wordIds;
    }
    if (annotations) // over the whole document: an entity may run across a page break
        for (const QString &t : bioTags(*annotations, ids))
            page.tags.push_back(t.toStdString());
    if (wordIds)
        *wordIds = ids;
    return page;
}

} // namespace folio::pipeline
