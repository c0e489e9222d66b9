// libFuzzer target: the project opener (document/project). The bytes are written to a .folio file
// and opened read-only (what `list` and `export` do) and then read-write (which migrates older
// schemas); an opened project lists its documents, and each of the first documents loads (its
// stored Document JSON parsed) or fails with a message. Corrupt or foreign files must be refused
// with a message that names the file, never crash.
#include "documentchecks.h"
#include "fuzzsupport.h"

#include "document/project/project.h"

#include <QFile>

namespace {

void readProject(folio::Project &project, const QString &path)
{
    using namespace folio;
    (void)project.labels();
    (void)project.setting(QStringLiteral("fields"));
    (void)project.documentCount();
    QString error;
    const std::vector<ProjectDocument> docs = project.documents(DocumentOrder::Uncertainty, &error);
    int loaded = 0;
    for (const ProjectDocument &info : docs) {
        if (++loaded > 8)
            break;
        Document doc;
        Annotations annotations;
        if (project.loadDocument(info.id, &doc, &annotations, &error)) {
            fuzz::note(QStringLiteral("loaded document %1: %2 words").arg(info.id).arg(doc.words.size()));
            fuzz::checkDocument(doc, path + QStringLiteral(": document %1").arg(info.id));
        } else {
            fuzz::note(QStringLiteral("document refused: ") + error);
            if (error.isEmpty())
                fuzz::invariantFailed(QStringLiteral("loadDocument failed without a message"));
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace folio;
    fuzz::ensureCoreApplication();
    const QString path = fuzz::scratchDir() + QStringLiteral("/fuzz.folio");
    QFile::remove(path + QStringLiteral("-wal"));
    QFile::remove(path + QStringLiteral("-shm"));
    QFile::remove(path + QStringLiteral("-journal"));
    fuzz::writeScratchFile(QStringLiteral("fuzz.folio"), fuzz::inputBytes(data, size));
    for (const Project::Mode mode : {Project::Mode::ReadOnly, Project::Mode::ReadWrite}) {
        QString error;
        const std::unique_ptr<Project> project = Project::open(path, &error, mode);
        if (!project) {
            fuzz::note(QStringLiteral("refused: ") + error);
            if (!error.contains(path))
                fuzz::invariantFailed(QStringLiteral("open failed with a message that does not name the file: ") + error);
            continue;
        }
        readProject(*project, path);
    }
    return 0;
}
