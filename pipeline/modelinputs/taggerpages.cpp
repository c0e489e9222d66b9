#include "pipeline/modelinputs/taggerpages.h"

#include "document/layoutorder.h"

#include <map>

namespace folio::pipeline {

using inference::TrainPage;
using inference::WordBox;

void serialiseByLayout(DocumentTrainPage &p)
{
    std::vector<QRectF> boxes;
    for (const WordBox &b : p.trainPage.boxes)
        boxes.emplace_back(QPointF(b.x0, b.y0), QPointF(b.x1, b.y1));
    const std::vector<int> order = layoutReadingOrder(boxes);
    DocumentTrainPage sorted;
    sorted.page = p.page;
    for (int k : order) {
        sorted.trainPage.words.push_back(p.trainPage.words[std::size_t(k)]);
        sorted.trainPage.boxes.push_back(p.trainPage.boxes[std::size_t(k)]);
        sorted.wordIds << p.wordIds[k];
        sorted.wordIndex.push_back(p.wordIndex[std::size_t(k)]);
    }
    p.trainPage.words = std::move(sorted.trainPage.words);
    p.trainPage.boxes = std::move(sorted.trainPage.boxes);
    p.wordIds = std::move(sorted.wordIds);
    p.wordIndex = std::move(sorted.wordIndex);
}

std::vector<DocumentTrainPage> trainPagesOfDocument(const Document &doc, const Annotations *annotations,
                                                    bool layoutOrder, bool keepBlankWords)
{
    std::map<int, DocumentTrainPage> byPage;
    std::map<int, bool> pageHasText;
    for (size_t i = 0; i < doc.words.size(); ++i) {
        const Word &w = doc.words[i];
        if (keepBlankWords)
            pageHasText[w.page] = pageHasText[w.page] || !w.text.isEmpty();
        else if (w.text.trimmed().isEmpty())
            continue;
        DocumentTrainPage &p = byPage[w.page];
        p.page = w.page;
        p.trainPage.words.push_back(w.text.toStdString());
        p.trainPage.boxes.push_back(WordBox{w.norm.x0, w.norm.y0, w.norm.x1, w.norm.y1});
        p.wordIds << w.id;
        p.wordIndex.push_back(int(i));
    }
    std::vector<DocumentTrainPage> out;
    for (auto &entry : byPage) {
        DocumentTrainPage &p = entry.second;
        if (keepBlankWords && !pageHasText[entry.first])
            continue;
        if (layoutOrder)
            serialiseByLayout(p);
        p.trainPage.id = (doc.sourcePath + QStringLiteral("#%1").arg(p.page)).toStdString();
        if (annotations)
            for (const QString &t : bioTags(*annotations, p.wordIds))
                p.trainPage.tags.push_back(t.toStdString());
        out.push_back(std::move(p));
    }
    return out;
}

TrainPage trainPageFromDocument(const Document &doc, const Annotations *annotations, const std::string &id,
                                QStringList *wordIds)
{
    TrainPage page;
    page.id = id;
    QStringList ids;
    for (const DocumentTrainPage &p : trainPagesOfDocument(doc, nullptr)) {
        page.words.insert(page.words.end(), p.trainPage.words.begin(), p.trainPage.words.end());
        page.boxes.insert(page.boxes.end(), p.trainPage.boxes.begin(), p.trainPage.boxes.end());
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
