// Batch results into a project (batchproject.h).
#include "app/cli/batchproject.h"
#include "app/cli/commands.h"

#include "document/project/project.h"
#include "document/project/projectlocation.h"
#include "document/project/projectio.h"

namespace folio::cli {

ProjectSink::ProjectSink(const std::string &project, bool createIfEmpty) : m_path(project)
{
    QString error;
    m_project = Project::open(QString::fromStdString(project), &error);
    if (!m_project && createIfEmpty && isEmptyDatabaseError(error))
        m_project = Project::openOrCreate(QString::fromStdString(project), &error);
    if (!m_project)
        throw CliError(error.toStdString());
}

ProjectSink::~ProjectSink() = default;

qint64 ProjectSink::find(const QString &path, Document *document, Annotations *annotations) const
{
    const qint64 id = m_project->findDocument(canonicalSourcePath(path));
    if (id < 0)
        return -1;
    QString error;
    if (!m_project->loadDocument(id, document, annotations, &error))
        throw CliError(m_path + ": " + error.toStdString());
    return id;
}

qint64 ProjectSink::add(Document document, const Annotations &annotations)
{
    document.sourcePath = canonicalSourcePath(document.sourcePath);
    QString error;
    const qint64 id = m_project->addDocument(document, annotations, &error);
    if (id < 0)
        throw CliError(m_path + ": " + error.toStdString());
    return id;
}

Annotations ProjectSink::annotations(qint64 id) const
{
    Annotations current;
    QString error;
    if (!m_project->loadAnnotations(id, &current, &error))
        throw CliError(m_path + ": " + error.toStdString());
    return current;
}

void ProjectSink::mergeSuggestions(qint64 id, const Annotations &suggestions)
{
    Annotations current = annotations(id);
    QString error;
    mergeModelAnnotations(current, suggestions);
    if (!m_project->saveAnnotations(id, current, &error))
        throw CliError(m_path + ": " + error.toStdString());
}

} // namespace folio::cli
