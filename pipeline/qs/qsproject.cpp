#include "pipeline/qs/qsproject.h"

#include "document/project/project.h"
#include "pipeline/qs/qstrees.h"

namespace folio::pipeline {

bool readQsProject(const QString &path, std::vector<QmsumMeeting> *samples, QString *error)
{
    QString e;
    const std::unique_ptr<Project> project = Project::open(path, &e, Project::Mode::ReadOnly);
    if (!project) {
        *error = e.startsWith(path) ? e : path + QStringLiteral(": ") + e;
        return false;
    }
    samples->clear();
    for (const ProjectDocument &d : project->documents()) {
        Document doc;
        Annotations ann;
        if (!project->loadDocument(d.id, &doc, &ann, &e)) {
            *error = path + QStringLiteral(": document '") + d.name + QStringLiteral("': ") + e;
            return false;
        }
        if (ann.qsRoots.empty() && ann.qsSummary.trimmed().isEmpty())
            continue;
        QmsumMeeting m;
        m.id = d.name;
        m.input = qsInputFromDocument(doc);
        m.input.id = d.name;
        m.reference = qsHierarchyFromNodes(ann.qsSummary, ann.qsRoots);
        m.evidence.resize(m.reference.items.size());
        samples->push_back(std::move(m));
    }
    return true;
}

} // namespace folio::pipeline
