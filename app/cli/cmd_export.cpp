// folio-cli export --format F --project P --out DIR: write a project as a dataset.
#include "app/cli/commands.h"
#include "document/formats/datasetformat.h"
#include "document/project/projectio.h"

#include <CLI/CLI.hpp>
#include <QDir>

#include <cstdio>

namespace folio::cli {

void registerExportCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("export", "Export a .folio project as a dataset");
    auto format = std::make_shared<std::string>();
    auto project = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    auto status = std::make_shared<std::string>();
    auto suggestions = std::make_shared<bool>(false);
    auto name = std::make_shared<std::string>();
    cmd->add_option("--format", *format, datasetFormatNames().join(QStringLiteral(" | ")).toStdString())
        ->required()
        ->check(CLI::IsMember(datasetFormatChoices()));
    cmd->add_option("--project", *project, "The .folio project")->required();
    cmd->add_option("--out", *out, "Output folder (created when missing)")->required();
    cmd->add_option("--status", *status, "Only documents with this status")
        ->check(CLI::IsMember({"todo", "in-progress", "done"}));
    cmd->add_flag("--include-suggestions", *suggestions, "Also export model suggestions not yet reviewed");
    cmd->add_option("--name", *name, "Output file stem (default: data)");
    cmd->callback([=] {
        QString error;
        auto p = Project::open(QString::fromStdString(*project), &error, Project::Mode::ReadOnly);
        if (!p)
            throw CliError(error.toStdString());
        ProjectItemFilter filter;
        if (!status->empty())
            filter.status = documentStatusFromName(QString::fromStdString(*status));
        std::vector<DatasetItem> items;
        if (!projectItems(*p, filter, &items, &error))
            throw CliError(error.toStdString());
        const QString outDir = QString::fromStdString(*out);
        QStringList written;
        DatasetExportOptions options;
        options.includeSuggestions = *suggestions;
        options.labels = p->labels();
        options.baseName = QString::fromStdString(*name);
        if (!createDatasetFormat(QString::fromStdString(*format))->exportItems(items, outDir, options, &written, &error))
            throw CliError(error.toStdString());
        std::printf("{\"documents\": %d, \"files\": %lld}\n", int(items.size()), static_cast<long long>(written.size()));
    });
}

} // namespace folio::cli
