#include "ui/team/projectservice.h"

#include "document/project/project.h"
#include "document/project/projectio.h"
#include "document/project/projectlocation.h"
#include "ui/annotation/annotationsession.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace folio {

static const char kLastProjectKey[] = "project/last";

ProjectService::ProjectService(AnnotationSession *session, QObject *parent) : QObject(parent), m_session(session) {}

ProjectService::~ProjectService()
{
    blockSignals(true); // the receivers may be half destroyed
    close();
}

QString ProjectService::path() const { return m_project ? m_project->path() : QString(); }

int ProjectService::documentCount() const { return m_project ? m_project->documentCount() : 0; }

QString ProjectService::defaultProjectPath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return dir + QStringLiteral("/default.folio");
}

QString ProjectService::lastProjectPath()
{
    const QString last = QSettings().value(QLatin1String(kLastProjectKey)).toString();
    if (isPostgresProjectUrl(last))
        return last; // a server may be down for a moment: opening it says so
    return !last.isEmpty() && QFileInfo::exists(last) ? last : QString();
}

// Read-only when the file or its folder cannot be written (read-only media, permissions).
static Project::Mode modeFor(const QString &path)
{
    const QFileInfo file(path);
    const QFileInfo folder(file.absolutePath());
    return file.isWritable() && folder.isWritable() ? Project::Mode::ReadWrite : Project::Mode::ReadOnly;
}

bool ProjectService::open(const QString &path)
{
    if (path.isEmpty()) {
        Q_EMIT failed(tr("Cannot open project"), tr("no project path given"));
        return false;
    }
    QString error;
    std::unique_ptr<Project> project;
    if (isPostgresProjectUrl(path) || path.endsWith(QLatin1String(".folio-pg"))) {
        // A server database (by URL or connection file): an empty one becomes a project.
        project = Project::openOrCreate(isPostgresProjectUrl(path) ? path : QFileInfo(path).absoluteFilePath(), &error);
    } else {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        project = QFileInfo::exists(absolute) ? Project::open(absolute, &error, modeFor(absolute))
                                              : Project::create(absolute, &error);
    }
    if (!project) {
        Q_EMIT failed(tr("Cannot open project"), error);
        return false;
    }
    return adopt(std::move(project));
}

bool ProjectService::create(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (m_project && m_project->path() == absolute)
        close();
    if (QFileInfo::exists(absolute) && !QFile::remove(absolute)) {
        Q_EMIT failed(tr("Cannot create project"), absolute + tr(": cannot replace the existing file"));
        return false;
    }
    QString error;
    std::unique_ptr<Project> project = Project::create(absolute, &error);
    if (!project) {
        Q_EMIT failed(tr("Cannot create project"), error);
        return false;
    }
    return adopt(std::move(project));
}

bool ProjectService::openLastOrDefault()
{
    const QString last = lastProjectPath();
    return open(last.isEmpty() ? defaultProjectPath() : last);
}

bool ProjectService::ensureOpen() { return m_project || openLastOrDefault(); }

bool ProjectService::adopt(std::unique_ptr<Project> project)
{
    close();
    m_project = std::move(project);
    if (m_session)
        m_session->setProject(m_project.get());
    QSettings().setValue(QLatin1String(kLastProjectKey), m_project->path());
    Q_EMIT projectOpened(m_project->path(), m_project->documentCount());
    return true;
}

void ProjectService::close()
{
    if (!m_project)
        return;
    if (m_session)
        m_session->setProject(nullptr); // the session drops its pointer (and undo stack) first
    m_project.reset();
    Q_EMIT projectClosed();
}

qint64 ProjectService::findDocument(const QString &path) const
{
    return m_project ? m_project->findDocument(canonicalSourcePath(path)) : -1;
}

qint64 ProjectService::addDocument(const QString &path, const Document &document, const Annotations &annotations)
{
    if (!ensureOpen())
        return -1;
    Document doc = document;
    doc.sourcePath = canonicalSourcePath(doc.sourcePath.isEmpty() ? path : doc.sourcePath);
    QString error;
    const qint64 id = m_project->addDocument(doc, annotations, &error);
    if (id < 0) {
        Q_EMIT failed(tr("Cannot add %1").arg(QFileInfo(path).fileName()), error);
        return -1;
    }
    Q_EMIT documentAdded(id);
    if (m_session)
        m_session->openDocument(id);
    return id;
}

bool ProjectService::applyRegionOcr(qint64 documentId, const Document &updated, int wordsAdded)
{
    if (!m_session || !m_project || documentId < 0 || documentId != m_session->currentDocumentId()) {
        Q_EMIT failed(tr("Re-OCR"), tr("%1: another document is shown now; the re-OCR result was not applied")
                                        .arg(updated.sourcePath));
        return false;
    }
    if (!m_session->replaceDocument(updated, tr("Re-OCR region (%n word(s) added)", nullptr, wordsAdded)))
        return false;
    Q_EMIT documentUpdated(documentId);
    return true;
}

bool ProjectService::applyRenderedPage(const Document &withBoxes)
{
    if (!m_session || !m_project || m_session->currentDocumentId() < 0)
        return false;
    if (!m_session->applyRenderedGeometry(withBoxes))
        return false; // a page of another document finished rendering: nothing to take
    Q_EMIT documentUpdated(m_session->currentDocumentId());
    return true;
}

} // namespace folio
