#pragma once
// Document + Annotations -> TrainPage (header-only, torch-free; needs folio_document where it
// is used). Blank words are dropped, as the FUNSD protocol does; "other"/unlabelled words are O.

#include "document/annotations.h"
#include "document/document.h"
#include "document/layoutorder.h"
#include "inference/formtagger/trainer.h"

#include <QStringList>

#include <map>
#include <vector>

namespace folio::inference {

// One model page: the TrainPage and, for each of its words, the Document word it came from.
struct DocumentTrainPage
{
    int page = 0;                // Document page number
    TrainPage trainPage;
    QStringList wordIds;         // Document word id of each page word
    std::vector<int> wordIndex;  // Document::words index of each page word
};

// A page's words in the layout-aware order (document/layoutorder.h) instead of the Document's.
inline void serialiseByLayout(DocumentTrainPage &p)
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

// One DocumentTrainPage per Document page that has non-blank words (multi-page scans are labelled
// page by page), ids "<source>#<page>"; tags from `annotations` when given. `layoutOrder`: each
// page's words in the layout-aware order instead of the Document's (OCR) order. `keepBlankWords`:
// every word of the page, white-space-only and empty ones too, and a page as soon as one word has
// text (what a Hugging Face tokenizer is fed: a tab is a token there, pipeline/hfpagelabeller.h).
inline std::vector<DocumentTrainPage> trainPagesOfDocument(const Document &doc, const Annotations *annotations,
                                                           bool layoutOrder = false, bool keepBlankWords = false)
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

// The whole document as one page (single-page data sets such as FUNSD).
// `wordIds` (out, optional) receives the ids of the kept words, in order.
inline TrainPage trainPageFromDocument(const Document &doc, const Annotations *annotations, const std::string &id,
                                       QStringList *wordIds = nullptr)
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

} // namespace folio::inference
