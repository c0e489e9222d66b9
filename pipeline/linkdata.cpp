#include "pipeline/linkdata.h"

#include "pipeline/modelinputs/taggerpages.h"
#include "pipeline/taggertraining.h"

#include <QFileInfo>
#include <QHash>

#include <set>

namespace folio::pipeline {

inference::LinkPage linkPageOf(const inference::TaggerPage &page, const QStringList &pageWordIds,
                               const Annotations &annotations, bool acceptedOnly)
{
    inference::LinkPage out;
    out.page = page;
    QHash<QString, int> wordAt;
    for (int i = 0; i < pageWordIds.size(); ++i)
        wordAt.insert(pageWordIds[i], i);
    QHash<QString, int> entityAt;
    for (const Entity &e : annotations.entities) {
        if (acceptedOnly && e.state != ReviewState::Accepted)
            continue;
        inference::LinkEntity le;
        le.type = e.label.toStdString();
        for (const QString &w : e.wordIds) {
            const auto it = wordAt.constFind(w);
            if (it != wordAt.constEnd())
                le.words.push_back(it.value());
        }
        if (le.words.empty())
            continue;
        entityAt.insert(e.id, int(out.entities.size()));
        out.entities.push_back(std::move(le));
    }
    std::set<std::pair<int, int>> seen;
    for (const Link &l : annotations.links) {
        if (acceptedOnly && l.state != ReviewState::Accepted)
            continue;
        const auto a = entityAt.constFind(l.from), b = entityAt.constFind(l.to);
        if (a == entityAt.constEnd() || b == entityAt.constEnd() || a.value() == b.value())
            continue;
        if (seen.insert({a.value(), b.value()}).second)
            out.links.emplace_back(a.value(), b.value());
    }
    return out;
}

bool loadFunsdLinkPages(const QString &datasetDir, const QString &split, FunsdWordOrder order,
                        std::vector<inference::LinkPage> *pages, QString *error)
{
    if (isXfundFile(datasetDir)) {
        std::vector<XfundPage> docs;
        if (!loadXfundSplitDocuments(datasetDir, split, order, &docs, error))
            return false;
        pages->clear();
        for (const XfundPage &d : docs) {
            QStringList wordIds;
            const inference::TaggerPage page = taggerPageFromDocument(d.document, nullptr, d.document.title.toStdString(), &wordIds);
            pages->push_back(linkPageOf(page, wordIds, d.annotations));
        }
        return true;
    }
    // The split's page ids, exactly as the tagger's data loader cuts it.
    std::vector<inference::TaggerPage> chosen;
    if (!loadFunsdSplit(datasetDir, split, order, &chosen, error))
        return false;
    std::set<std::string> ids;
    for (const inference::TaggerPage &p : chosen)
        ids.insert(p.id);
    pages->clear();
    for (const QString &f : funsdSplitFiles(datasetDir, split == QLatin1String("test") ? split : QStringLiteral("train"))) {
        const std::string id = QFileInfo(f).completeBaseName().toStdString();
        if (!ids.count(id))
            continue;
        Document doc;
        Annotations annotations;
        if (!importFunsdFile(f, order, &doc, &annotations, error))
            return false;
        QStringList wordIds;
        const inference::TaggerPage page = taggerPageFromDocument(doc, nullptr, id, &wordIds);
        pages->push_back(linkPageOf(page, wordIds, annotations));
    }
    return true;
}

} // namespace folio::pipeline
