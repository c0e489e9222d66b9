// folio-cli extract: product / field values of web pages, one JSON line per page.
//   folio-cli extract [--checkpoint DIR] [--fields a,b] [--question Q]... [--structured-only] [--no-fallback] [--no-rankers] PAGE...
// --checkpoint (--model) may be a Hugging Face MarkupLM folder (pipeline/markuplmfields.h): a QA model
// asks each field ("What is the <field>?"; default fields: the product ones) or each --question (its
// answer keyed by the question); a token classifier answers its labels (B-/I- merged, O dropped; or
// those of --fields), the nodes labelled with one making its value. Same line shape, source "model".
// Without --checkpoint the shipped product model (resources/models/product-fields) extracts; with
// --structured-only no model runs (schema.org / Open Graph values only: the baseline). When the
// checkpoint folder holds "<field>-ranker.json" for a field (price / sku from folio-cli train-rankers,
// as the shipped model does; any field of a model from Train Field Extractor; file names in lower
// case), that field follows the rule its ranker learned (pipeline::chooseRankedValue): the page's
// structured-data value or the ranker's choice among the candidates of the page text (source
// "<field>-ranker", confidence = its probability) first, the other next, else the model's. Each line:
//   {"page": "a.html", "model": DIR | null, "fields": {"price": {"value": "87.11", "text": "$87.11",
//    "source": "model" | "model:structured-data" | "structured-data" | "price-ranker" | "sku-ranker" | "default", "confidence": 0.93,
//    "span": {"xpath": "/html/body/div[2]/span/text()", "start": 0, "end_xpath": "...", "end": 6}
//           (character offsets in the text nodes' normalised text, end exclusive; null when the value
//            does not come from the page text),
//    "structured": {"source": "json-ld", "location": "/html/head/script[3]"} (structured values)}, ...},
//    "missing": [fields without a value], "notes": [...]}
// One PAGE prints its line; several pages, folders, @list.txt, --files-from or --out make a batch
// (app/cli/batch.h): one line per page {"input", "ok": true, "result": <the line above>} or
// {"input", "ok": false, "exit", "error"}, --jobs worker processes, a resumable --manifest; the exit
// code is 1 when a page failed.
#include "app/cli/batch.h"
#include "app/cli/commands.h"
#include "common/regularfile.h"

#include "document/html/htmlinput.h"
#include "document/html/htmlloader.h"
#include "document/html/htmlxpath.h"
#include "document/structured/fieldrankers.h"
#include "document/structured/structureddata.h"
#include "inference/models/modelrunner.h"
#include "inference/webformer/webformer.h"
#include "pipeline/modelinputs/productpages.h"
#include "pipeline/modelinputs/webpages.h"
#include "pipeline/markuplmfields.h"
#include "pipeline/shippedmodels.h"
#include "pipeline/webfieldextraction.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QFile>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace folio::cli {

namespace {

constexpr const char *kShippedModel = "product-fields";

struct ExtractArgs
{
    std::string checkpoint, fields;
    std::vector<std::string> questions; // MarkupLM QA: asked as they are (keys of "fields")
    bool markup = false, markupQA = false; // the checkpoint is a Hugging Face MarkupLM folder
    BatchOptions batch; // batch.inputs: the PAGE arguments
    int threads = 0;
    bool structuredOnly = false, noFallback = false, noRanker = false;
    bool int8 = false; // dynamic int8 WebFormer (issue 35)
};

// Reads folio.json's "structured_candidates" (written by train-product): did the model train with
// structured-data candidates prepended to its pages?
bool usesCandidates(const std::string &dir)
{
    if (regularFileSize(dir + "/folio.json", FileLimits::smallJson, "folio.json", nullptr) < 0)
        return false; // missing, or a FIFO / device (issue 51): never opened
    std::ifstream in(dir + "/folio.json");
    const auto j = nlohmann::json::parse(in, nullptr, false);
    return !j.is_discarded() && j.is_object() && j.value("structured_candidates", false);
}

std::string defaultCheckpoint()
{
    return pipeline::shippedModelDir(QString::fromLatin1(kShippedModel), QStringLiteral("config.json")).toStdString();
}

// Character range of page words [first, last] in their text nodes (Document order).
nlohmann::json spanJson(const Document &doc, const std::vector<int> &order, int first, int last)
{
    if (first < 0 || last < first || last >= int(order.size()))
        return nullptr;
    auto locate = [&](int pageWord, bool end) -> std::pair<std::string, int> {
        const int w = order[std::size_t(pageWord)];
        const Word &word = doc.words[std::size_t(w)];
        const Node &node = doc.nodes[std::size_t(word.node)];
        // the word's occurrence: count earlier words of the same node, then find them in order
        int from = 0;
        for (int k = 0; k <= w; ++k) {
            if (doc.words[std::size_t(k)].node != word.node)
                continue;
            const int at = node.text.indexOf(doc.words[std::size_t(k)].text, from);
            if (at < 0)
                return {xpathOf(doc, word.node).toStdString(), -1};
            from = at + (k == w ? 0 : int(doc.words[std::size_t(k)].text.size()));
        }
        return {xpathOf(doc, word.node).toStdString(), end ? from + int(word.text.size()) : from};
    };
    const auto [startPath, start] = locate(first, false);
    const auto [endPath, end] = locate(last, true);
    return {{"xpath", startPath}, {"start", start}, {"end_xpath", endPath}, {"end", end}};
}

// A field's ranker: "<key>-ranker.json" in the model folder, key = the field name in lower case
// (price and sku their own candidates, any other field text nodes; fieldrankers.h).
struct FieldRanker
{
    std::string key;
    structured::CandidateRanker ranker;
};
using Rankers = std::map<std::string, FieldRanker>; // field (as the model names it) -> its ranker

// A ranker's answer on the page as values with page word indices (empty: none). `pageWordOf`:
// Document::words index -> page word index (the inverse of webPageWordOrder).
std::vector<pipeline::ProductValue> rankedOnPage(const std::string &field, const FieldRanker &r, const Document &doc,
                                                  const structured::StructuredData &sd, const std::vector<int> &pageWordOf)
{
    const auto ranked = structured::rankCandidates(r.ranker, structured::findCandidates(r.key, doc, sd));
    if (!ranked)
        return {};
    const std::vector<int> words =
        structured::wordsInRange(doc, ranked->candidate.node, ranked->candidate.start, ranked->candidate.end);
    const int first = words.empty() ? -1 : pageWordOf[std::size_t(words.front())];
    const int last = words.empty() ? -1 : pageWordOf[std::size_t(words.back())];
    return pipeline::rankedValues(field, *ranked, xpathOf(doc, ranked->candidate.node).toStdString(), first,
                                   first >= 0 && last >= first ? last : -1);
}

// A MarkupLM folder's answers on the page (pipeline/markuplmfields.h) as values with page word
// indices, read like WebFormer's spans (pipeline::productValues: normalised, structured-data fallback).
std::vector<pipeline::ProductValue> markupValues(const ExtractArgs &a, const Document &doc, const structured::StructuredData &sd,
                                                 const std::vector<std::string> &fields, const std::string &argument,
                                                 nlohmann::json *notes)
{
    QStringList asked;
    for (const std::string &f : fields)
        asked << QString::fromStdString(f);
    pipeline::MarkupRunOptions options;
    options.rawQuestions = !a.questions.empty();
    options.int8 = a.int8;
    const pipeline::MarkupFieldRun run = pipeline::runMarkupLM(doc, QString::fromStdString(a.checkpoint), asked, options);
    if (!run.ok)
        throw CliError(argument + ": " + run.error.toStdString());
    for (const QString &n : run.notes)
        notes->push_back(n.toStdString());
    const std::vector<int> order = pipeline::webPageWordOrder(doc);
    std::vector<int> pageWordOf(doc.words.size(), -1);
    for (int i = 0; i < int(order.size()); ++i)
        pageWordOf[std::size_t(order[std::size_t(i)])] = i;
    std::vector<inference::FieldSpan> spans;
    for (const pipeline::MarkupFieldAnswer &answer : run.answers) {
        inference::FieldSpan s;
        s.field = answer.field.toStdString();
        if (std::find(fields.begin(), fields.end(), s.field) == fields.end())
            continue;
        s.found = answer.found;
        s.value = answer.text.toStdString();
        s.confidence = answer.confidence;
        for (int w : answer.words) {
            const int p = pageWordOf[std::size_t(w)];
            if (p < 0)
                continue;
            s.firstWord = s.firstWord < 0 ? p : std::min(s.firstWord, p);
            s.lastWord = std::max(s.lastWord, p);
        }
        if (!answer.words.empty())
            s.xpath = xpathOf(doc, doc.words[std::size_t(answer.words.front())].node).toStdString();
        spans.push_back(s);
    }
    return pipeline::productValues(spans, 0, sd, !a.noFallback);
}

nlohmann::json extractPage(const ExtractArgs &a, const inference::WebFormerExtractor *model, bool candidates,
                           const Rankers &rankers, const std::vector<std::string> &fields,
                           const QString &path, const std::string &argument)
{
    structured::PageWithStructuredData loaded;
    QString error;
    if (!structured::readPageWithStructuredData(path, &loaded, &error))
        throw CliError(error.toStdString());
    const Document &doc = loaded.document;
    const structured::StructuredData &sd = loaded.data;
    nlohmann::json out{{"page", argument}, {"model", model || a.markup ? nlohmann::json(a.checkpoint) : nlohmann::json(nullptr)}};
    nlohmann::json notes = nlohmann::json::array();
    for (const QString &w : loaded.warnings)
        notes.push_back(w.toStdString());
    for (const auto &n : sd.notes)
        notes.push_back(n);
    if (doc.words.empty())
        notes.push_back(argument + ": the page has no text");

    std::vector<pipeline::ProductValue> values;
    if (a.markup) {
        values = markupValues(a, doc, sd, fields, argument, &notes);
    } else if (model) {
        inference::WebPage page = pipeline::webPageFromDocument(doc, argument);
        const int prefix = candidates ? pipeline::prependStructuredCandidates(&page, sd) : 0;
        std::size_t pieces = 0;
        for (const auto &n : page.nodes)
            pieces += n.words.size();
        if (int(pieces) > model->config().maxTextTokens)
            notes.push_back(argument + ": " + std::to_string(pieces) + " words; the model reads the first "
                            + std::to_string(model->config().maxTextTokens) + " word pieces only");
        std::vector<inference::FieldSpan> spans;
        std::string err;
        if (!model->extract(page, fields, &spans, &err))
            throw CliError(argument + ": " + err);
        values = pipeline::productValues(spans, prefix, sd, !a.noFallback);
    } else {
        values = pipeline::structuredProductValues(sd);
    }
    const std::vector<int> order = pipeline::webPageWordOrder(doc);
    std::vector<int> pageWordOf(doc.words.size(), -1);
    for (int i = 0; i < int(order.size()); ++i)
        pageWordOf[std::size_t(order[std::size_t(i)])] = i;
    for (const auto &[field, r] : rankers)
        if (std::find(fields.begin(), fields.end(), field) != fields.end())
            pipeline::chooseRankedValue(&values, sd, field, rankedOnPage(field, r, doc, sd, pageWordOf), r.ranker.structuredFirst());
    const bool product = std::find(fields.begin(), fields.end(), "price") != fields.end();
    values.erase(std::remove_if(values.begin(), values.end(), [&](const pipeline::ProductValue &v) {
                     const bool asked = std::find(fields.begin(), fields.end(), v.field) != fields.end();
                     return !asked && !(product && (v.field == "currency" || v.field == "availability"));
                 }),
                 values.end());
    nlohmann::json fieldsJson = nlohmann::json::object();
    for (const auto &v : values) {
        nlohmann::json f{{"value", v.value}, {"text", v.text}, {"source", v.source}};
        const bool learned = v.source.rfind("model", 0) == 0 || v.source.find("-ranker") != std::string::npos;
        f["confidence"] = learned ? nlohmann::json(v.confidence) : nlohmann::json(nullptr);
        f["span"] = v.firstWord >= 0 ? spanJson(doc, order, v.firstWord, v.lastWord) : nlohmann::json(nullptr);
        if (v.xpath.rfind(pipeline::kStructuredXPathPrefix, 0) == 0) {
            const std::string rest = v.xpath.substr(std::string(pipeline::kStructuredXPathPrefix).size());
            const auto space = rest.find(' ');
            std::string location = space == std::string::npos ? std::string() : rest.substr(space + 1);
            const auto hash = location.rfind(" #");
            if (hash != std::string::npos)
                location.resize(hash);
            f["structured"] = {{"source", rest.substr(0, space)}, {"location", location}};
        }
        fieldsJson[v.field] = f;
    }
    nlohmann::json missing = nlohmann::json::array();
    for (const auto &f : fields)
        if (!fieldsJson.contains(f))
            missing.push_back(f);
    out["fields"] = fieldsJson;
    out["missing"] = missing;
    out["notes"] = notes;
    return out;
}

void extractCommand(ExtractArgs &a)
{
    if (a.batch.inputs.empty() && a.batch.filesFrom.empty() && !a.batch.worker && !joinsQueue(a.batch))
        throw CliError("extract: a PAGE (or folder, @list.txt, --files-from) is required", ExitUsage);
    if (a.int8 && a.structuredOnly)
        throw CliError("extract: --int8 quantizes a WebFormer checkpoint; --structured-only runs no model", ExitUsage);
    inference::configureThreads(batchThreads(a.batch, a.threads));
    std::unique_ptr<inference::WebFormerExtractor> model;
    Rankers rankers;
    bool candidates = false;
    std::vector<std::string> fields;
    if (!a.structuredOnly) {
        if (a.checkpoint.empty())
            a.checkpoint = defaultCheckpoint();
        if (a.checkpoint.empty())
            throw CliError(std::string("extract: no --checkpoint given and the shipped model resources/models/") + kShippedModel
                           + " is missing (use --structured-only for structured data alone)");
        a.markup = pipeline::isMarkupLMFolder(QString::fromStdString(a.checkpoint));
    }
    if (a.markup) {
        QString error;
        QStringList labels;
        if (!pipeline::markupLMKind(QString::fromStdString(a.checkpoint), &a.markupQA, &labels, &error)) // before any page
            throw CliError(error.toStdString());
        if (!a.questions.empty() && !a.markupQA)
            throw CliError("extract: --question needs a MarkupLM question-answering folder; " + a.checkpoint
                           + " is a token classifier (its labels are the fields)", ExitUsage);
        if (!a.questions.empty())
            fields = a.questions;
        else if (a.markupQA)
            fields = structured::productFieldNames();
        else
            for (const QString &l : labels)
                fields.push_back(l.toStdString());
    } else if (!a.structuredOnly) {
        if (!a.questions.empty())
            throw CliError("extract: --question needs a MarkupLM question-answering folder as --checkpoint", ExitUsage);
        model = std::make_unique<inference::WebFormerExtractor>();
        std::string error;
        if (!model->load(a.checkpoint, &error)) // once, before any page
            throw CliError(error);
        if (a.int8 && !model->quantizeDynamicInt8(&error))
            throw CliError(a.checkpoint + ": " + error);
        candidates = usesCandidates(a.checkpoint);
        fields = model->config().fields;
        // the model's fields (a project's model ranks any of them), the asked ones, price and sku
        std::vector<std::string> ranked = fields;
        const std::vector<std::string> askedFields = splitCommaList(a.fields);
        ranked.insert(ranked.end(), askedFields.begin(), askedFields.end());
        ranked.insert(ranked.end(), structured::rankedFields().begin(), structured::rankedFields().end());
        for (const std::string &field : ranked) {
            const std::string key = structured::rankerKey(field);
            const std::string file = structured::rankerFile(a.checkpoint, key);
            if (a.noRanker || rankers.count(field) || !std::filesystem::exists(file))
                continue;
            FieldRanker &r = rankers[field];
            r.key = key;
            if (!r.ranker.load(file, key, structured::candidateFeatureNames(key), &error))
                throw CliError(error);
        }
    } else {
        fields = structured::productFieldNames();
    }
    const std::vector<std::string> asked = splitCommaList(a.fields);
    if (!asked.empty() && a.questions.empty())
        fields = asked;
    const auto one = [&](const QString &path, const std::string &argument) {
        return extractPage(a, model.get(), candidates, rankers, fields, path, argument);
    };
    if (isBatch(a.batch)) {
        runBatch("extract", a.batch, {"html", "htm", "xhtml", "html.gz", "htm.gz"}, one);
        return;
    }
    std::cout << one(inputPath(a.batch.inputs.front()), a.batch.inputs.front()).dump() << std::endl;
}

} // namespace

void registerExtractCommand(CLI::App &app)
{
    auto args = std::make_shared<ExtractArgs>();
    CLI::App *cmd = app.add_subcommand("extract", "Product / field values of web pages with WebFormer and structured data (one JSON line per page)");
    cmd->add_option("--checkpoint,--model", args->checkpoint,
                    "WebFormer checkpoint or Hugging Face MarkupLM folder (default: the shipped product model "
                    "resources/models/product-fields)");
    cmd->add_option("--question", args->questions,
                    "MarkupLM question answering: a question to ask (repeatable; its answer is keyed by the question), "
                    "instead of \"What is the <field>?\" for each field")
        ->allow_extra_args(false); // one question per --question: PAGE stays a page
    cmd->add_option("pages", args->batch.inputs, "HTML files (.html, .html.gz); several, folders or @list.txt: a batch");
    cmd->add_option("--fields", args->fields, "comma-separated field names (default: the checkpoint's fields)");
    cmd->add_flag("--structured-only", args->structuredOnly, "no model: schema.org / Open Graph values only");
    cmd->add_flag("--no-fallback", args->noFallback, "no structured-data values for fields the model leaves empty");
    cmd->add_flag("--no-rankers", args->noRanker,
                  "price and sku from the model even when the checkpoint has <field>-ranker.json files (default: the page's "
                  "structured-data value, else the ranker's, else the model's)");
    cmd->add_flag("--int8", args->int8,
                  "WebFormer or a MarkupLM folder: dynamic int8 quantization of the encoder's Linear layers (BENCHMARKS.md, issue 35)");
    args->batch.threadsOption = cmd->add_option("--threads", args->threads, "intra-op threads (0 = all cores)");
    addBatchOptions(cmd, &args->batch);
    cmd->callback([args] { extractCommand(*args); });
}

} // namespace folio::cli
