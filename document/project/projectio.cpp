#include "document/project/projectio.h"

#include "document/formats/datasetlimits.h"
#include "document/qstree.h"

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

static bool hasEvidenceSpans(const std::vector<QsNode> &roots)
{
    std::vector<const QsNode *> stack;
    for (const QsNode &r : roots)
        stack.push_back(&r);
    while (!stack.empty()) {
        const QsNode *n = stack.back();
        stack.pop_back();
        if (!n->evidenceSpans.empty())
            return true;
        for (const QsNode &c : n->children)
            stack.push_back(&c);
    }
    return false;
}

static bool checkSpans(const Document &doc, const std::vector<QsNode> &roots, const QString &where, QString *error)
{
    const QHash<QString, int> index = qsWordIndex(doc);
    std::vector<std::pair<const QsNode *, QString>> stack;
    for (size_t i = 0; i < roots.size(); ++i)
        stack.emplace_back(&roots[i], QStringLiteral("qs.nodes[%1]").arg(i));
    while (!stack.empty()) {
        const auto [node, path] = stack.back();
        stack.pop_back();
        for (size_t k = 0; k < node->evidenceSpans.size() && !node->evidenceMissing; ++k) {
            const QsEvidenceSpan &s = node->evidenceSpans[k];
            const QString at = QStringLiteral("%1: %2.spans[%3]").arg(where, path).arg(k);
            for (const QString &w : {s.firstWord, s.lastWord})
                if (!index.contains(w)) {
                    *error = QStringLiteral("%1: names the word \"%2\", which the document does not have (%3 words)%4")
                                 .arg(at, w)
                                 .arg(doc.words.size())
                                 .arg(doc.words.empty() ? QStringLiteral("; import the document with its words first")
                                                        : QString());
                    return false;
                }
            if (index.value(s.lastWord) < index.value(s.firstWord)) {
                *error = QStringLiteral("%1: a reversed span: its last word \"%2\" comes before its first \"%3\"")
                             .arg(at, s.lastWord, s.firstWord);
                return false;
            }
        }
        for (size_t c = 0; c < node->children.size(); ++c)
            stack.emplace_back(&node->children[c], path + QStringLiteral(".children[%1]").arg(c));
    }
    return true;
}

bool checkItemEvidence(const Project &project, const std::vector<DatasetItem> &items, const QString &where,
                       QString *error)
{
    return checkItemEvidenceIn(&project, items, where, error);
}

bool checkItemEvidenceIn(const Project *project, const std::vector<DatasetItem> &items, const QString &where,
                         QString *error)
{
    for (const DatasetItem &item : items) {
        if (!hasEvidenceSpans(item.annotations.qsRoots))
            continue;
        const QString source = canonicalSourcePath(item.document.sourcePath.isEmpty() ? item.name : item.document.sourcePath);
        const qint64 existing = project ? project->findDocument(source) : -1;
        const QString at = QStringLiteral("%1: record \"%2\"").arg(where, item.name);
        if (existing < 0) {
            if (!checkSpans(item.document, item.annotations.qsRoots, at, error))
                return false;
            continue;
        }
        Document doc;
        Annotations ignored;
        if (!project->loadDocument(existing, &doc, &ignored, error))
            return false;
        if (!checkSpans(doc, item.annotations.qsRoots, at, error))
            return false;
    }
    return true;
}

bool importItemsIntoProject(Project &project, const std::vector<DatasetItem> &items, ImportReport *report,
                            QString *error)
{
    // The same check as every export, before anything is written; then the evidence against the
    // documents it will rest on.
    if (!checkDatasetItems(items, QStringLiteral("import"), error) || !checkItemEvidence(project, items, QStringLiteral("import"), error))
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
