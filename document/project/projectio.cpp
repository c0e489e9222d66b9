#include "document/project/projectio.h"

#include <QFileInfo>
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

bool importItemsIntoProject(Project &project, const std::vector<DatasetItem> &items, ImportReport *report,
                            QString *error)
{
    ImportReport r;
    std::vector<NewProjectDocument> fresh;
    for (const DatasetItem &item : items) {
        const QString source = item.document.sourcePath.isEmpty() ? item.name : item.document.sourcePath;
        const qint64 existing = project.findDocument(source);
        if (existing >= 0) {
            if (!project.saveAnnotations(existing, item.annotations, error))
                return false;
            ++r.updated;
            continue;
        }
        NewProjectDocument nd;
        nd.document = item.document;
        nd.document.sourcePath = source;
        nd.annotations = item.annotations;
        nd.name = item.name;
        fresh.push_back(std::move(nd));
    }
    if (!fresh.empty() && !project.addDocuments(fresh, nullptr, error))
        return false;
    r.added = int(fresh.size());
    if (report)
        *report = r;
    return true;
}

} // namespace folio
