#pragma once
// Conversions between a Document and the word-level pages the layout tagger trains on and
// predicts: one page per Document page, blank words skipped, 0-1000 boxes.
#include "document/annotations.h"
#include "document/document.h"
#include "inference/trainer.h"

#include <QStringList>

#include <vector>

namespace folio {

struct TaggerPage
{
    inference::TrainPage page;
    QStringList wordIds; // the Document word of each page word
};

// Pages of `doc` (with BIO tags from `annotations` when given).
std::vector<TaggerPage> taggerPages(const Document &doc, const Annotations *annotations = nullptr);

// Entities predicted on a page, as model suggestions from `checkpoint`.
void appendPredictedEntities(const TaggerPage &page, const inference::PagePrediction &prediction,
                             const QString &checkpoint, Annotations *out);

} // namespace folio
