#include "pipeline/projecttraining.h"

#include "document/project/project.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "pipeline/taggertraining.h"

#include <QFileInfo>

#include <algorithm>
#include <set>

namespace folio::pipeline {

std::vector<inference::TaggerPage> labelledProjectPages(Project *project, int *documents, bool layoutOrder)
{
    std::vector<inference::TaggerPage> pages;
    *documents = 0;
    for (const ProjectDocument &info : project->documents()) {
        if (info.entityCount == 0)
            continue;
        Document doc;
        Annotations annotations;
        QString error;
        if (!project->loadDocument(info.id, &doc, &annotations, &error))
            continue;
        Annotations accepted = annotations;
        accepted.entities.erase(std::remove_if(accepted.entities.begin(), accepted.entities.end(),
                                               [](const Entity &e) { return e.state != ReviewState::Accepted; }),
                                accepted.entities.end());
        if (accepted.entities.empty())
            continue;
        for (DocumentTaggerPage &p : taggerPagesOfDocument(doc, &accepted, layoutOrder))
            pages.push_back(std::move(p.taggerPage));
        ++*documents;
    }
    return pages;
}

bool labelSetOfPages(const std::vector<inference::TaggerPage> &pages, std::vector<std::string> *labels, QString *error)
{
    std::set<std::string> types;
    for (const inference::TaggerPage &page : pages) {
        for (const std::string &tag : page.tags) {
            if (tag == "O")
                continue;
            if (tag.size() < 3 || (tag[0] != 'B' && tag[0] != 'I') || tag[1] != '-') {
                *error = QStringLiteral("page %1: tag \"%2\" is not O, B-<label> or I-<label>")
                             .arg(QString::fromStdString(page.id), QString::fromStdString(tag));
                return false;
            }
            types.insert(tag.substr(2));
        }
    }
    labels->assign(1, "O");
    for (const std::string &t : types) {
        labels->push_back("B-" + t);
        labels->push_back("I-" + t);
    }
    return true;
}

bool loadProjectTrainingData(const QString &projectPath, std::vector<inference::TaggerPage> *pages,
                             std::vector<std::string> *labels, int *documents, QString *error, bool layoutOrder)
{
    QString openError;
    const std::unique_ptr<Project> project = Project::open(projectPath, &openError, Project::Mode::ReadOnly);
    if (!project) {
        *error = openError.contains(projectPath) ? openError : QStringLiteral("%1: %2").arg(projectPath, openError);
        return false;
    }
    *pages = labelledProjectPages(project.get(), documents, layoutOrder);
    if (pages->size() < 2) {
        *error = QStringLiteral("%1: training needs at least 2 pages with accepted labels (found %2)")
                     .arg(projectPath).arg(pages->size());
        return false;
    }
    if (!labelSetOfPages(*pages, labels, error)) {
        *error = projectPath + QStringLiteral(": ") + *error;
        return false;
    }
    return true;
}

bool loadExtraTrainingSource(const QString &source, bool layoutOrder, std::vector<inference::TaggerPage> *pages,
                             QString *description, QString *error)
{
    pages->clear();
    const bool project = source.endsWith(QLatin1String(".folio")) || source.startsWith(QLatin1String("postgresql://"))
                         || source.startsWith(QLatin1String("postgres://"));
    if (project) {
        std::vector<std::string> labels;
        int documents = 0;
        if (!loadProjectTrainingData(source, pages, &labels, &documents, error, layoutOrder))
            return false;
        *description = QStringLiteral("%1: %2 pages of %3 documents").arg(source).arg(pages->size()).arg(documents);
        return true;
    }
    if (!QFileInfo::exists(source)) {
        *error = QStringLiteral("%1: no such file or folder").arg(source);
        return false;
    }
    // Datasets keep their own word order (FUNSD's protocol, XFUND's, a receipt's lines) unless the
    // run serialises by layout.
    const FunsdWordOrder order = layoutOrder ? FunsdWordOrder::Layout : FunsdWordOrder::Annotation;
    if (!loadFunsdSplit(source, QStringLiteral("train"), order, pages, error))
        return false;
    *description = QStringLiteral("%1: %2 pages (%3)").arg(source).arg(pages->size()).arg(formSourceLicence(source));
    return true;
}

} // namespace folio::pipeline
