// folio-cli import --format F FILE... --project P: read a dataset into a project.
#include "app/cli/commands.h"
#include "document/formats/datasetformat.h"
#include "document/formats/datasetlimits.h"
#include "document/project/projectio.h"
#include "document/project/projectlocation.h"

#include <CLI/CLI.hpp>
#include <QFile>
#include <QFileInfo>

#include <cstdio>

namespace folio::cli {

std::vector<std::string> datasetFormatChoices()
{
    std::vector<std::string> names;
    for (const QString &n : datasetFormatNames())
        names.push_back(n.toStdString());
    return names;
}

void registerImportCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("import", "Import dataset files into a .folio project");
    auto format = std::make_shared<std::string>();
    auto files = std::make_shared<std::vector<std::string>>();
    auto project = std::make_shared<std::string>();
    auto create = std::make_shared<bool>(false);
    cmd->add_option("--format", *format, datasetFormatNames().join(QStringLiteral(" | ")).toStdString())
        ->required()
        ->check(CLI::IsMember(datasetFormatChoices()));
    cmd->add_option("FILES", *files, "Files to import (FUNSD: annotations/*.json)")->required();
    cmd->add_option("--project", *project, "The .folio project")->required();
    cmd->add_flag("--create", *create, "Create the project when it does not exist");
    cmd->callback([format, files, project, create] {
        // Parse everything first: a bad file leaves the project untouched.
        std::vector<std::vector<DatasetItem>> perFile;
        const QString fmt = QString::fromStdString(*format);
        long done = 0;
        for (const std::string &f : *files) {
            const QString path = QString::fromStdString(f);
            QString error;
            std::vector<DatasetItem> parsed;
            if (!createDatasetFormat(fmt)->importFile(path, &parsed, &error))
                throw CliError(error.toStdString());
            perFile.push_back(std::move(parsed));
            reportProgress("parsed", ++done, long(files->size()));
        }
        QString error;
        const QString projectPath = QString::fromStdString(*project);
        // --create: a missing file, or an empty PostgreSQL database, becomes a project - only once
        // everything that needs no project has been checked, and a failed import removes a file it
        // created: a failed `import --create` leaves no empty project behind.
        std::unique_ptr<Project> p = Project::open(projectPath, &error);
        bool createdFile = false;
        if (!p) {
            ProjectLocation location;
            QString locationError;
            const bool isFile = parseProjectLocation(projectPath, &location, &locationError) && location.kind == ProjectLocation::Kind::File;
            const bool fresh = *create && (isFile ? !QFileInfo::exists(projectPath) : isEmptyDatabaseError(error));
            if (!fresh)
                throw CliError(error.toStdString());
            for (size_t i = 0; i < perFile.size(); ++i) {
                const QString where = QString::fromStdString((*files)[i]);
                if (!checkDatasetItems(perFile[i], where, &error) || !checkItemEvidenceIn(nullptr, perFile[i], where, &error))
                    throw CliError(error.toStdString());
            }
            p = Project::create(projectPath, &error);
            if (!p)
                throw CliError(error.toStdString());
            createdFile = isFile;
        }
        const auto fail = [&](const QString &message) {
            if (createdFile) {
                p.reset();
                for (const char *suffix : {"", "-wal", "-shm", "-journal"})
                    QFile::remove(projectPath + QLatin1String(suffix));
            }
            throw CliError(message.toStdString());
        };
        // Evidence spans against the documents they will rest on, per file so the message names it.
        std::vector<DatasetItem> items;
        for (size_t i = 0; i < perFile.size(); ++i) {
            if (!checkItemEvidence(*p, perFile[i], QString::fromStdString((*files)[i]), &error))
                fail(error);
            for (DatasetItem &item : perFile[i])
                items.push_back(std::move(item));
        }
        ImportReport report;
        if (!importItemsIntoProject(*p, items, &report, &error))
            fail(error);
        std::printf("{\"added\": %d, \"updated\": %d}\n", report.added, report.updated);
    });
}

} // namespace folio::cli
