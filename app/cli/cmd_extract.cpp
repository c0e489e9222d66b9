// folio-cli extract: WebFormer field values of a web page as JSON.
//   folio-cli extract --checkpoint DIR PAGE.html [--fields title,author,...] [--threads N]
// Prints {"page": ..., "fields": [{"field", "found", "value", "xpath", "first_word", "last_word",
// "confidence"}]} on stdout. Fields default to the checkpoint's list (config.json "fields").
#include "app/cli/commands.h"

#include "inference/models/modelrunner.h"
#include "inference/webformer/webformer.h"
#include "inference/webformer/webformerdata.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <sstream>

namespace folio::cli {

namespace {

struct ExtractArgs
{
    std::string checkpoint, page, fields;
    int threads = 0;
};

void extractCommand(const ExtractArgs &a)
{
    inference::configureThreads(a.threads);
    inference::WebFormerExtractor ex;
    std::string error;
    if (!ex.load(a.checkpoint, &error))
        throw CliError(error);
    inference::WebPage page;
    if (!inference::loadWebPage(a.page, &page, &error))
        throw CliError(error);
    std::vector<std::string> fields;
    std::stringstream ss(a.fields);
    std::string item;
    while (std::getline(ss, item, ','))
        if (!item.empty())
            fields.push_back(item);
    std::vector<inference::FieldSpan> spans;
    if (!ex.extract(page, fields, &spans, &error))
        throw CliError(error);
    nlohmann::json out{{"page", a.page}, {"checkpoint", a.checkpoint}, {"fields", nlohmann::json::array()}};
    for (const auto &s : spans) {
        nlohmann::json f{{"field", s.field}, {"found", s.found}, {"confidence", s.confidence}};
        if (s.found) {
            f["value"] = s.value;
            f["xpath"] = s.xpath;
            f["first_word"] = s.firstWord;
            f["last_word"] = s.lastWord;
        } else {
            f["value"] = nullptr;
        }
        out["fields"].push_back(f);
    }
    std::cout << out.dump(2) << std::endl;
}

} // namespace

void registerExtractCommand(CLI::App &app)
{
    auto args = std::make_shared<ExtractArgs>();
    CLI::App *cmd = app.add_subcommand("extract", "Extract field values from a web page with a WebFormer checkpoint (JSON)");
    cmd->add_option("--checkpoint", args->checkpoint, "WebFormer checkpoint folder (config.json, model.safetensors, vocab.txt)")
        ->required();
    cmd->add_option("page", args->page, "HTML file")->required();
    cmd->add_option("--fields", args->fields, "comma-separated field names (default: the checkpoint's fields)");
    cmd->add_option("--threads", args->threads, "intra-op threads (0 = all cores)");
    cmd->callback([args] { extractCommand(*args); });
}

} // namespace folio::cli
