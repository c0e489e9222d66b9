// folio-cli doc FILE.json: validate a Document JSON file and print it back in canonical form.
#include "app/cli/commands.h"
#include "document/documentjson.h"

#include <CLI/CLI.hpp>

#include <cstdio>

namespace folio::cli {

void registerDocCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("doc", "Validate a Folio Document JSON file and print it in canonical form");
    auto path = std::make_shared<std::string>();
    auto compact = std::make_shared<bool>(false);
    cmd->add_option("FILE", *path, "Document JSON (as printed by 'folio-cli ocr' or 'folio-cli dom')")->required();
    cmd->add_flag("--compact", *compact, "One line instead of indented JSON");
    cmd->callback([path, compact] {
        Document doc;
        Annotations annotations;
        QString error;
        if (!readDocumentJsonFile(QString::fromStdString(*path), &doc, &annotations, &error))
            throw CliError(error.toStdString());
        const QByteArray out = documentToJson(doc, annotations.isEmpty() ? nullptr : &annotations, !*compact);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
        if (*compact) std::fputc('\n', stdout);
    });
}

} // namespace folio::cli
