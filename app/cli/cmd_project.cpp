// folio-cli project create|add|list|status: manage a .folio project from the command line.
#include "app/cli/commands.h"
#include "document/project/project.h"
#include "document/project/projectlocation.h"
#include "pipeline/documentsource.h"

#include <CLI/CLI.hpp>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <cstdio>
#include <map>

namespace folio::cli {

// Read-write on a PostgreSQL database that is still empty: it becomes a project on first use (as
// in the GUI and `import --create`); a missing .folio file is not created (a mistyped name).
static std::unique_ptr<Project> openProject(const std::string &path, bool readOnly = false)
{
    QString error;
    const QString location = QString::fromStdString(path);
    auto p = Project::open(location, &error, readOnly ? Project::Mode::ReadOnly : Project::Mode::ReadWrite);
    if (!p && !readOnly && isEmptyDatabaseError(error))
        p = Project::openOrCreate(location, &error);
    if (!p)
        throw CliError(error.toStdString());
    return p;
}

static void printJson(const QJsonDocument &doc)
{
    const QByteArray out = doc.toJson(QJsonDocument::Indented);
    std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
}

static QJsonObject infoJson(const ProjectDocument &d)
{
    QJsonObject o{{QStringLiteral("id"), d.id},
                  {QStringLiteral("name"), d.name},
                  {QStringLiteral("source"), d.sourcePath},
                  {QStringLiteral("kind"), sourceKindName(d.kind)},
                  {QStringLiteral("status"), documentStatusName(d.status)},
                  {QStringLiteral("entities"), d.entityCount},
                  {QStringLiteral("suggestions"), d.suggestionCount},
                  {QStringLiteral("revision"), d.annotationRevision},
                  {QStringLiteral("modified"), d.modified.toString(Qt::ISODate)}};
    if (d.uncertainty >= 0)
        o.insert(QStringLiteral("uncertainty"), d.uncertainty);
    return o;
}

void registerProjectCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("project", "Create and inspect .folio annotation projects");
    cmd->require_subcommand(1);

    // project create P [--labels A,B,C]
    {
        auto *sub = cmd->add_subcommand("create", "Create a new, empty project file");
        auto path = std::make_shared<std::string>();
        auto labels = std::make_shared<std::vector<std::string>>();
        sub->add_option("PROJECT", *path, "The .folio file to create (must not exist)")->required();
        sub->add_option("--labels", *labels, "Entity label set, in palette order")->delimiter(',');
        sub->callback([path, labels] {
            QString error;
            auto p = Project::create(QString::fromStdString(*path), &error);
            if (!p)
                throw CliError(error.toStdString());
            QStringList l;
            for (const std::string &s : *labels)
                l << QString::fromStdString(s);
            if (!l.isEmpty() && !p->setLabels(l, &error))
                throw CliError(error.toStdString());
            std::printf("{\"created\": \"%s\", \"schema\": %d}\n", path->c_str(), p->schemaVersion());
        });
    }
    // project add P FILE... (anything the pipeline opens, as File > Open Document does)
    {
        auto *sub = cmd->add_subcommand("add", "Add documents: Folio / FUNSD JSON, web pages (.html, .html.gz), scans, PDFs");
        auto path = std::make_shared<std::string>();
        auto files = std::make_shared<std::vector<std::string>>();
        sub->add_option("PROJECT", *path, "The .folio project")->required();
        sub->add_option("FILES", *files, "Documents (annotations inside JSON files are kept)")->required();
        sub->callback([path, files] {
            auto p = openProject(*path);
            std::vector<NewProjectDocument> docs;
            long done = 0;
            for (const std::string &f : *files) {
                pipeline::LoadedDocument loaded = pipeline::loadDocumentFile(QString::fromStdString(f));
                if (!loaded.ok)
                    throw CliError(loaded.error.toStdString());
                NewProjectDocument nd;
                nd.document = std::move(loaded.document);
                nd.annotations = std::move(loaded.annotations);
                docs.push_back(std::move(nd));
                reportProgress("read", ++done, long(files->size()));
            }
            std::vector<qint64> ids;
            QString error;
            if (!p->addDocuments(docs, &ids, &error))
                throw CliError(error.toStdString());
            QJsonArray out;
            for (qint64 id : ids)
                out.append(id);
            printJson(QJsonDocument(QJsonObject{{QStringLiteral("added"), out}}));
        });
    }
    // project list P [--order position|uncertainty]
    {
        auto *sub = cmd->add_subcommand("list", "List the documents of a project as JSON");
        auto path = std::make_shared<std::string>();
        auto order = std::make_shared<std::string>("position");
        sub->add_option("PROJECT", *path, "The .folio project")->required();
        sub->add_option("--order", *order, "position (default) or uncertainty (most uncertain first)")
            ->check(CLI::IsMember({"position", "uncertainty"}));
        sub->callback([path, order] {
            auto p = openProject(*path, /*readOnly=*/true);
            QString error;
            const auto docs = p->documents(*order == "uncertainty" ? DocumentOrder::Uncertainty : DocumentOrder::Position,
                                           &error);
            if (!error.isEmpty())
                throw CliError(error.toStdString());
            QJsonArray out;
            for (const ProjectDocument &d : docs)
                out.append(infoJson(d));
            printJson(QJsonDocument(out));
        });
    }
    // project status P [--doc ID --set todo|in-progress|done]
    {
        auto *sub = cmd->add_subcommand("status", "Summary of a project; with --doc and --set, change a status");
        auto path = std::make_shared<std::string>();
        auto doc = std::make_shared<long long>(-1);
        auto set = std::make_shared<std::string>();
        sub->add_option("PROJECT", *path, "The .folio project")->required();
        sub->add_option("--doc", *doc, "Document id (see 'project list')");
        sub->add_option("--set", *set, "New status")->check(CLI::IsMember({"todo", "in-progress", "done"}));
        sub->callback([path, doc, set] {
            auto p = openProject(*path, /*readOnly=*/set->empty());
            QString error;
            if (!set->empty()) {
                if (*doc < 0)
                    throw CliError("--set needs --doc ID", ExitUsage);
                if (!p->setStatus(*doc, documentStatusFromName(QString::fromStdString(*set)), &error))
                    throw CliError(error.toStdString());
            }
            const auto docs = p->documents(DocumentOrder::Position, &error);
            if (!error.isEmpty())
                throw CliError(error.toStdString());
            std::map<QString, int> byStatus{{QStringLiteral("todo"), 0}, {QStringLiteral("in-progress"), 0},
                                            {QStringLiteral("done"), 0}};
            int entities = 0, suggestions = 0;
            for (const ProjectDocument &d : docs) {
                ++byStatus[documentStatusName(d.status)];
                entities += d.entityCount;
                suggestions += d.suggestionCount;
            }
            QJsonObject status;
            for (const auto &[k, v] : byStatus)
                status.insert(k, v);
            printJson(QJsonDocument(QJsonObject{{QStringLiteral("project"), p->path()},
                                                {QStringLiteral("schema"), p->schemaVersion()},
                                                {QStringLiteral("documents"), int(docs.size())},
                                                {QStringLiteral("status"), status},
                                                {QStringLiteral("entities"), entities},
                                                {QStringLiteral("suggestions"), suggestions},
                                                {QStringLiteral("labels"), QJsonArray::fromStringList(p->labels())}}));
        });
    }
}

} // namespace folio::cli
