// folio-cli predict --checkpoint DIR FILE: labelled entities of one document as JSON, page by page.
// FILE is anything the pipeline opens (pipeline/documentsource.h): a FUNSD annotation JSON (its
// gold words and boxes), a Folio document JSON, an HTML page (the loader's words; no rendering,
// so no boxes) or a scan / PDF (every page through the OCR workers). Each page is predicted on its
// own; entities carry their page. A MarkupLM token-classification folder labels a web page's nodes
// (as the reference feature extractor gives them): "nodes" with their labels, and one entity per label.
#include "app/cli/batch.h"
#include "app/cli/batchproject.h"
#include "app/cli/commands.h"
#include "inference/models/modelrunner.h"
#include "pipeline/documentprediction.h"
#include "pipeline/documentsource.h"
#include "pipeline/markuplmfields.h"
#include "pipeline/taggertraining.h"

#include <QHash>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace folio::cli {

namespace {

nlohmann::json entityJson(const pipeline::PredictedSpan &span, const Document &doc)
{
    nlohmann::json words = nlohmann::json::array();
    QStringList text;
    for (int w : span.words) {
        words.push_back(doc.words[std::size_t(w)].id.toStdString());
        text << doc.words[std::size_t(w)].text;
    }
    const NormBox b = pipeline::spanNormBox(span, doc);
    return {{"page", span.page}, {"label", span.label.toStdString()}, {"text", text.join(QLatin1Char(' ')).toStdString()},
            {"words", words}, {"box_norm", {b.x0, b.y0, b.x1, b.y1}}, {"confidence", span.confidence}};
}

// Links among the run's own entities: "from"/"to" index the "entities" array (same order).
nlohmann::json linksJson(const Annotations &own)
{
    QHash<QString, int> indexOf;
    for (int i = 0; i < int(own.entities.size()); ++i)
        indexOf.insert(own.entities[size_t(i)].id, i);
    nlohmann::json links = nlohmann::json::array();
    for (const Link &l : own.links)
        if (indexOf.contains(l.from) && indexOf.contains(l.to))
            links.push_back({{"from", indexOf.value(l.from)}, {"to", indexOf.value(l.to)}, {"confidence", l.confidence}});
    return links;
}

// A name for the JSON: bytes that are not UTF-8 (a folder named so, issue 51) as U+FFFD.
std::string printableName(const std::string &name)
{
    return QString::fromUtf8(QByteArray::fromStdString(name)).toStdString();
}

struct PredictOpts
{
    std::string checkpoint, order = "annotation", lang = "eng";
    QString checkpointDir; // `checkpoint` as a Qt path (inputPath: a name that is not UTF-8 too, issue 51)
    bool argmax = false, wordLabels = false, int8 = false;
    int threads = 2, dpi = 300;
    std::string project;
    BatchOptions batch;
};

nlohmann::json predictOne(const PredictOpts &o, const pipeline::DocumentTagger &tagger, const QString &path,
                          const std::string &argument, ProjectSink *sink)
{
    pipeline::LoadOptions load;
    pipeline::funsdWordOrderFromName(QString::fromStdString(o.order), &load.funsdOrder);
    load.ocrLanguages = QString::fromStdString(o.lang);
    load.pdfDpi = o.dpi;
    if (o.batch.worker || isBatch(o.batch))
        load.ocrWorkers = 1; // a batch runs its inputs side by side instead
    // In a project already: predict on its copy, so the suggestions fit the words it holds.
    pipeline::LoadedDocument loaded;
    const qint64 storedId = sink ? sink->find(path, &loaded.document, &loaded.annotations) : -1;
    if (storedId >= 0) {
        loaded.ok = true;
        loaded.kind = pipeline::FileKind::FolioJson;
    } else {
        loaded = pipeline::loadDocumentFile(path, load);
    }
    if (!loaded.ok)
        throw CliError(loaded.error.toStdString(), loaded.cancelled ? ExitCancelled : ExitFailure);
    const std::string file = QString::fromUtf8(QByteArray::fromStdString(argument)).toStdString();
    nlohmann::json j{{"file", file}, {"kind", pipeline::fileKindName(loaded.kind).toStdString()}, {"checkpoint", printableName(o.checkpoint)},
                     {"decode", o.argmax ? "argmax" : "viterbi"}};
    if (o.int8)
        j["int8"] = true;
    if (loaded.document.words.empty()) {
        // Like `ocr`, a page without words (a blank scan, a 1x1 image) is a result, not an error:
        // an empty prediction, exit 0, and a note on stderr (issue 18).
        std::fprintf(stderr, "folio-cli: %s: no words found on %zu page(s); nothing to label\n", file.c_str(),
                     loaded.document.pages.size());
        nlohmann::json pages = nlohmann::json::array();
        for (std::size_t i = 0; i < loaded.document.pages.size(); ++i)
            pages.push_back({{"page", i}, {"words", 0}, {"entities", 0}});
        j["words"] = 0;
        j["pages"] = pages;
        j["entities"] = nlohmann::json::array();
        if (o.wordLabels)
            j["word_labels"] = nlohmann::json::array();
        return j;
    }
    pipeline::PredictOptions options;
    options.viterbi = !o.argmax;
    options.layoutOrder = o.order == "layout"; // FUNSD input is already in that order; any other page is serialised here
    if (!isBatch(o.batch))
        options.progress = [](int done, int total) { reportProgress("predict: pages", done, total); };
    // The model's own view: entities, and links among them (the checkpoint's link head, if any).
    pipeline::DocumentPrediction prediction;
    Annotations own;
    QString error;
    if (!pipeline::predictSuggestions(tagger, loaded.document, Annotations(), &own, &error, options, &prediction))
        throw CliError(error.toStdString());
    nlohmann::json pages = nlohmann::json::array();
    for (const pipeline::PagePredictionInfo &p : prediction.pages)
        pages.push_back({{"page", p.page}, {"words", p.words}, {"entities", p.entities}});
    nlohmann::json entities = nlohmann::json::array();
    for (const pipeline::PredictedSpan &span : prediction.entities)
        entities.push_back(entityJson(span, loaded.document));
    if (sink) {
        // Into the project: merged with what is stored there, links among the merged entities.
        const qint64 id = storedId >= 0 ? storedId : sink->add(loaded.document, loaded.annotations);
        Annotations suggestions;
        if (!pipeline::suggestionsFromPrediction(tagger, prediction, loaded.document, sink->annotations(id), &suggestions, &error, options))
            throw CliError(error.toStdString());
        sink->mergeSuggestions(id, suggestions);
        j["project_document"] = id;
    }
    j["words"] = prediction.words();
    j["pages"] = pages;
    j["entities"] = entities;
    if (!prediction.warnings.isEmpty()) {
        nlohmann::json warnings = nlohmann::json::array();
        for (const QString &w : prediction.warnings)
            warnings.push_back(w.toStdString());
        j["warnings"] = warnings;
    }
    if (o.wordLabels) {
        nlohmann::json labels = nlohmann::json::array();
        for (std::size_t w = 0; w < loaded.document.words.size(); ++w) {
            const QString label = w < std::size_t(prediction.wordLabels.size()) ? prediction.wordLabels[int(w)] : QString();
            labels.push_back({{"word", loaded.document.words[w].id.toStdString()},
                              {"label", label.isEmpty() ? nlohmann::json() : nlohmann::json(label.toStdString())}});
        }
        j["word_labels"] = labels;
    }
    if (tagger.hasLinkHead())
        j["links"] = linksJson(own);
    return j;
}

// A Hugging Face MarkupLM token-classification folder on a web page (pipeline/markuplmfields.h):
// every node's label ("nodes": text, xpath, label, the page words it holds) and one entity per label
// (the nodes labelled with it, B-/I- merged), in the shape of the tagger's entities (page 0, no box).
nlohmann::json predictMarkupLM(const PredictOpts &o, const QString &path, const std::string &argument)
{
    pipeline::LoadedDocument loaded = pipeline::loadDocumentFile(path, {});
    if (!loaded.ok)
        throw CliError(loaded.error.toStdString(), loaded.cancelled ? ExitCancelled : ExitFailure);
    if (loaded.document.kind != SourceKind::Html)
        throw CliError(argument + ": a MarkupLM folder labels web pages (HTML) only; this is "
                       + pipeline::fileKindName(loaded.kind).toStdString());
    pipeline::MarkupRunOptions options;
    options.int8 = o.int8;
    const pipeline::MarkupFieldRun run = pipeline::runMarkupLM(loaded.document, o.checkpointDir, {}, options);
    if (!run.ok)
        throw CliError(argument + ": " + run.error.toStdString());
    const Document &doc = loaded.document;
    const auto wordIds = [&](const std::vector<int> &words) {
        nlohmann::json ids = nlohmann::json::array();
        for (int w : words)
            ids.push_back(doc.words[std::size_t(w)].id.toStdString());
        return ids;
    };
    nlohmann::json nodes = nlohmann::json::array();
    for (int n = 0; n < run.nodes.size(); ++n) {
        const QString label = n < run.nodeLabels.size() ? run.nodeLabels[n] : QString();
        nodes.push_back({{"text", run.nodes[n].toStdString()}, {"xpath", run.xpaths[n].toStdString()},
                         {"label", label.isEmpty() ? nlohmann::json() : nlohmann::json(label.toStdString())},
                         {"words", wordIds(run.nodeWords[std::size_t(n)])}});
    }
    nlohmann::json entities = nlohmann::json::array();
    for (const pipeline::MarkupFieldAnswer &a : run.answers)
        entities.push_back({{"page", 0}, {"label", a.field.toStdString()}, {"text", a.text.toStdString()},
                            {"words", wordIds(a.words)}, {"box_norm", nullptr}, {"confidence", a.confidence},
                            {"nodes", a.nodes}});
    nlohmann::json notes = nlohmann::json::array();
    for (const QString &n : run.notes)
        notes.push_back(n.toStdString());
    return {{"file", argument}, {"kind", pipeline::fileKindName(loaded.kind).toStdString()}, {"checkpoint", printableName(o.checkpoint)},
            {"model", "markuplm"}, {"words", doc.words.size()}, {"pages", {{{"page", 0}, {"words", doc.words.size()},
            {"entities", entities.size()}}}}, {"nodes", nodes}, {"entities", entities}, {"notes", notes}};
}

} // namespace

void registerPredictCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("predict", "Label the entities of documents with a checkpoint, page by page (JSON on stdout; "
                                              "several files or folders: one JSON line each)");
    auto o = std::make_shared<PredictOpts>();
    cmd->add_option("--checkpoint", o->checkpoint, "Checkpoint folder: folio-formtagger, a Hugging Face LayoutLMv3, LiLT, LayoutLMv2 or LayoutXLM token-classification folder, or a MarkupLM token-classification folder (web pages: node labels)")->required();
    cmd->add_option("file", o->batch.inputs, "FUNSD JSON, Folio document JSON, HTML (.html.gz too), image or PDF; folders, @list.txt");
    cmd->add_option("--order", o->order, "Word order: annotation or reading (FUNSD input), layout (XY-cut serialisation of any document before the model; always so for a checkpoint trained with --order layout)")
        ->check(CLI::IsMember({"annotation", "reading", "layout"}));
    cmd->add_option("--lang", o->lang, "OCR languages for scans, e.g. eng+deu, or auto (English; pages whose text reads German again in German)");
    cmd->add_option("--dpi", o->dpi, "PDF rasterisation (dots per inch)")->check(CLI::Range(30, 1200));
    o->batch.threadsOption = cmd->add_option("--threads", o->threads, "Torch / BLAS threads");
    cmd->add_flag("--argmax", o->argmax, "Argmax decoding instead of constrained Viterbi");
    cmd->add_flag("--int8", o->int8, "Dynamic int8 quantization of the encoder's Linear layers: a folio-formtagger, or a Hugging "
                                      "Face LayoutLMv3, LiLT, LayoutLMv2, LayoutXLM or MarkupLM folder (off by default; BENCHMARKS.md, issue 35)");
    cmd->add_flag("--word-labels", o->wordLabels, "Also print every word's own label as \"word_labels\" (the tagger's tag, or a "
                                                  "Hugging Face folder's first sub-token argmax; null: none)");
    cmd->add_option("--project", o->project, "Also store the documents and their suggestions in this .folio project");
    addBatchOptions(cmd, &o->batch, true, &o->project);
    cmd->callback([o]() {
        if (o->batch.inputs.empty() && o->batch.filesFrom.empty() && !o->batch.worker && !joinsQueue(o->batch))
            throw CliError("predict: a FILE (or folder, @list.txt, --files-from) is required", ExitUsage);
        // The folder's bytes as given: `info` and `predict` reach the same folder (issue 51).
        o->checkpointDir = inputPath(o->checkpoint);
        if (pipeline::isMarkupLMFolder(o->checkpointDir)) {
            bool qa = false;
            QStringList labels;
            QString error;
            if (!pipeline::markupLMKind(o->checkpointDir, &qa, &labels, &error)) // before any page
                throw CliError(error.toStdString());
            if (qa)
                throw CliError(o->checkpoint + ": a MarkupLM question-answering folder answers questions: use folio-cli "
                               "extract --checkpoint DIR [--question Q] PAGE", ExitUsage);
            inference::configureThreads(batchThreads(o->batch, o->threads));
            const auto one = [&](const QString &path, const std::string &arg) { return predictMarkupLM(*o, path, arg); };
            if (isBatch(o->batch)) {
                runBatch("predict", o->batch, {"html", "htm", "xhtml", "html.gz", "htm.gz"}, one);
                return;
            }
            std::cout << one(inputPath(o->batch.inputs.front()), o->batch.inputs.front()).dump(2) << std::endl;
            return;
        }
        pipeline::DocumentTagger tagger;
        QString error;
        if (!tagger.load(o->checkpointDir, &error, o->int8)) // before OCR: a broken checkpoint fails fast
            throw CliError(error.toStdString());
        inference::configureThreads(batchThreads(o->batch, o->threads));
        std::unique_ptr<ProjectSink> sink;
        if (!o->project.empty())
            sink = std::make_unique<ProjectSink>(o->project, joinsQueue(o->batch) && (!o->batch.inputs.empty() || !o->batch.filesFrom.empty()));
        if (isBatch(o->batch)) {
            runBatch("predict", o->batch, pipeline::documentFileSuffixes(), [&](const QString &path, const std::string &arg) {
                return predictOne(*o, tagger, path, arg, sink.get());
            });
            return;
        }
        std::cout << predictOne(*o, tagger, inputPath(o->batch.inputs.front()), o->batch.inputs.front(), sink.get()).dump(2)
                  << std::endl;
    });
}

} // namespace folio::cli
