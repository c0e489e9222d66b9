// folio-cli project fields PROJECT [--set name:type,...]: the project's field set (issue 15), the one
// Extract Fields looks for; printed as JSON, changed with --set (validated: names of letters,
// digits, '_', '-', '.', unique; types text|price|identifier|availability|date).
#include "app/cli/commands.h"
#include "document/project/project.h"
#include "pipeline/webfieldset.h"

#include <CLI/CLI.hpp>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace folio::cli {

void registerProjectFieldsCommand(CLI::App &app)
{
    CLI::App *project = app.get_subcommand("project");
    auto *sub = project->add_subcommand("fields", "Show or set the project's field set (Extract Fields)");
    auto path = std::make_shared<std::string>();
    auto set = std::make_shared<std::string>();
    sub->add_option("PROJECT", *path, "The .folio project")->required();
    sub->add_option("--set", *set, "New field set: name:type,... (types: text, price, identifier, availability, date)");
    sub->callback([path, set] {
        QString error;
        auto p = Project::open(QString::fromStdString(*path), &error,
                               set->empty() ? Project::Mode::ReadOnly : Project::Mode::ReadWrite);
        if (!p)
            throw CliError(error.toStdString());
        std::vector<pipeline::FieldSpec> fields;
        if (!set->empty()) {
            if (!pipeline::parseFieldSpecs(QString::fromStdString(*set), &fields, &error))
                throw CliError(p->path().toStdString() + ": --set: " + error.toStdString(), ExitUsage);
            if (!pipeline::setProjectFieldSet(*p, fields, &error))
                throw CliError(error.toStdString());
        }
        if (!pipeline::projectFieldSet(*p, &fields, &error))
            std::fprintf(stderr, "%s\n", qPrintable(error)); // the defaults are shown
        QJsonArray list;
        for (const pipeline::FieldSpec &f : fields)
            list.append(QJsonObject{{QStringLiteral("name"), f.name}, {QStringLiteral("type"), pipeline::fieldTypeName(f.type)}});
        const QByteArray out = QJsonDocument(QJsonObject{{QStringLiteral("project"), p->path()},
                                                         {QStringLiteral("fields"), list},
                                                         {QStringLiteral("field_model"), pipeline::projectFieldModel(*p)}})
                                   .toJson(QJsonDocument::Indented);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    });
}

} // namespace folio::cli
