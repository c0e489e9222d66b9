#include "ui/documentpages.h"

#include <map>

namespace folio {

std::vector<TaggerPage> taggerPages(const Document &doc, const Annotations *annotations)
{
    std::map<int, TaggerPage> byPage;
    for (const Word &w : doc.words) {
        if (w.text.trimmed().isEmpty())
            continue;
        TaggerPage &p = byPage[w.page];
        p.page.words.push_back(w.text.toStdString());
        p.page.boxes.push_back(inference::WordBox{w.norm.x0, w.norm.y0, w.norm.x1, w.norm.y1});
        p.wordIds << w.id;
    }
    std::vector<TaggerPage> out;
    for (auto &[page, p] : byPage) {
        p.page.id = (doc.sourcePath + QStringLiteral("#%1").arg(page)).toStdString();
        if (annotations) {
            for (const QString &tag : bioTags(*annotations, p.wordIds))
                p.page.tags.push_back(tag.toStdString());
        }
        out.push_back(std::move(p));
    }
    return out;
}

void appendPredictedEntities(const TaggerPage &page, const inference::PagePrediction &prediction,
                             const QString &checkpoint, Annotations *out)
{
    for (const inference::PredictedEntity &e : prediction.entities) {
        Entity entity;
        entity.label = QString::fromStdString(e.label);
        for (int i = e.firstWord; i <= e.lastWord && i < page.wordIds.size(); ++i)
            entity.wordIds << page.wordIds[i];
        if (entity.wordIds.isEmpty())
            continue;
        entity.id = out->freshId(QStringLiteral("m"));
        entity.source = AnnotationSource{AnnotationSource::Model, checkpoint};
        entity.confidence = e.confidence;
        entity.state = ReviewState::Suggested;
        out->entities.push_back(entity);
    }
}

} // namespace folio
