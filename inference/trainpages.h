#pragma once
// Document + Annotations -> TrainPage (header-only, torch-free; needs folio_document where it
// is used). Blank words are dropped, as the FUNSD protocol does; "other"/unlabelled words are O.

#include "document/annotations.h"
#include "document/document.h"
#include "inference/trainer.h"

#include <QStringList>

namespace folio::inference {

// `wordIds` (out, optional) receives the ids of the kept words, in order.
inline TrainPage trainPageFromDocument(const Document &doc, const Annotations *annotations, const std::string &id,
                                       QStringList *wordIds = nullptr)
{
    TrainPage page;
    page.id = id;
    QStringList ids;
    for (const Word &w : doc.words) {
        if (w.text.trimmed().isEmpty())
            continue;
        ids << w.id;
        page.words.push_back(w.text.toStdString());
        page.boxes.push_back(WordBox{w.norm.x0, w.norm.y0, w.norm.x1, w.norm.y1});
    }
    if (annotations)
        for (const QString &t : bioTags(*annotations, ids))
            page.tags.push_back(t.toStdString());
    if (wordIds)
        *wordIds = ids;
    return page;
}

} // namespace folio::inference
