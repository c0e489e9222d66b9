#include "document/project/projectio.h"

#include "document/formats/datasetlimits.h"

#include <QFileInfo>
#include <QHash>
#include <QSet>

namespace folio {

bool projectItems(const Project &project, const ProjectItemFilter &filter, std::vector<DatasetItem> *items,
                  QString *error)
{
    QString e;
    const std::vector<ProjectDocument> docs = project.documents(DocumentOrder::Position, &e);
    if (!e.isEmpty()) {
        *error = e;
        return false;
    }
    std::vector<DatasetItem> out;
    out.reserve(docs.size());
    QSet<QString> used;
    for (const ProjectDocument &d : docs) {
        if (filter.status && d.status != *filter.status)
            continue;
        DatasetItem item;
        item.name = QFileInfo(d.name).completeBaseName();
        if (item.name.isEmpty())
            item.name = QStringLiteral("doc%1").arg(d.id);
        if (used.contains(item.name))
            item.name += QStringLiteral("-%1").arg(d.id);
        used.insert(item.name);
        if (!project.loadDocument(d.id, &item.document, &item.annotations, error))
            return false;
        out.push_back(std::move(item));
    }
    *items = std::move(out);
    return true;
}

QString canonicalSourcePath(const QString &source)
{
    if (source.isEmpty())
        return source;
    const QFileInfo info(source);
    if (!info.exists())
        return source; // a dataset id, not a file
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? info.absoluteFilePath() : canonical;
}

bool importItemsIntoProject(Project &project, const std::vector<DatasetItem> &items, ImportReport *report,
                            QString *error)
{
    // The same check as every export, before anything is written.
    if (!checkDatasetItems(items, QStringLiteral("import"), error))
        return false;
    ImportReport r;
    ProjectBatch batch;
    QHash<QString, size_t> freshBySource; // one document per source, also within this import
    QHash<qint64, size_t> updateById;
    for (const DatasetItem &item : items) {
        const QString source = canonicalSourcePath(item.document.sourcePath.isEmpty() ? item.name : item.document.sourcePath);
        const qint64 existing = project.findDocument(source);
        if (existing >= 0) {
            const auto seen = updateById.constFind(existing);
            if (seen != updateById.constEnd()) {
                batch.annotationUpdates[*seen].second = item.annotations;
                continue;
            }
            updateById.insert(existing, batch.annotationUpdates.size());
            batch.annotationUpdates.emplace_back(existing, item.annotations);
            continue;
        }
        const auto seen = freshBySource.constFind(source);
        if (seen != freshBySource.constEnd()) {
            batch.newDocuments[*seen].annotations = item.annotations;
            continue;
        }
        NewProjectDocument nd;
        nd.document = item.document;
        nd.document.sourcePath = source;
        nd.annotations = item.annotations;
        nd.name = item.name;
        freshBySource.insert(source, batch.newDocuments.size());
        batch.newDocuments.push_back(std::move(nd));
    }
    // One transaction: the updates and the additions land together or not at all.
    if (!project.applyBatch(batch, nullptr, error))
        return false;
    r.added = int(batch.newDocuments.size());
    r.updated = int(batch.annotationUpdates.size());
    if (report)
        *report = r;
    return true;
}

} // namespace folio
