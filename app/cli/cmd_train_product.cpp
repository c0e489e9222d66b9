// folio-cli train-product: WebFormer product-field models on the Zyte product benchmark
// (pipeline/modelinputs/productpages.h), scored the benchmark's way (document/structured/benchmarkscore.h).
//   folio-cli train-product --data DATASET --out DIR --folds 5 [--variants full,no-dom,no-structured]
//       cross-validation grouped by site (no site of a test page is in its training folds; amazon.de
//       and amazon.com count as one site); per variant the out-of-fold predictions of all pages in
//       DIR/predictions/<variant>.json (+ "<variant>+fallback": structured data where the model found
//       nothing) next to the structured-data baseline, all scored into DIR/cv-metrics.json and stdout.
//   folio-cli train-product --data DATASET --out DIR --folds 0
//       one model on every page (the shipped product model), DIR = the checkpoint.
// Variants: full (DOM graph attention + structured-data candidates), no-dom (HTML tokens without
// parent/child/sibling edges), no-structured (no candidates in the input).
#include "app/cli/commands.h"

#include "document/structured/benchmarkscore.h"
#include "inference/models/modelrunner.h"
#include "inference/webformer/webformer.h"
#include "pipeline/modelinputs/productpages.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace folio::cli {

namespace {

namespace fs = std::filesystem;

struct TrainProductArgs
{
    std::string data, out, variants = "full,no-dom,no-structured";
    int folds = 5, maxPages = 0;
    inference::WebFormerTrainOptions o;
};

inference::WebFormerTrainResult trainOne(const TrainProductArgs &a, const std::string &variant, const std::string &outDir,
                                         const std::vector<inference::WebPage> &train, const std::string &description)
{
    inference::WebFormerTrainOptions o = a.o;
    o.outputDir = outDir;
    o.model.fields = pipeline::productModelFields();
    o.model.domGraph = variant != "no-dom";
    o.dataDescription = description;
    fs::create_directories(outDir);
    auto r = inference::trainWebFormer(o, train, {}, [&](const inference::WebFormerTrainProgress &p) {
        if (!p.message.empty() && !quiet())
            std::cerr << "train-product " << variant << ": " << p.message << "\n";
    });
    if (!r.ok)
        throw CliError(outDir + ": training failed: " + r.error);
    // folio-cli extract reads this to give the model its pages the way it was trained
    const fs::path folioJson = fs::path(outDir) / "folio.json";
    std::ifstream in(folioJson);
    nlohmann::json meta = nlohmann::json::parse(in, nullptr, false);
    in.close();
    if (meta.is_object()) {
        meta["structured_candidates"] = variant != "no-structured";
        meta["variant"] = variant;
        writeJsonFile(folioJson, meta);
    }
    return r;
}

void trainProductCommand(TrainProductArgs &a, const std::string &commandLine)
{
    inference::configureThreads(a.o.threads);
    a.o.command = commandLine;
    const std::vector<std::string> variants = splitCommaList(a.variants);
    for (const auto &v : variants)
        if (v != "full" && v != "no-dom" && v != "no-structured")
            throw CliError("train-product: unknown variant '" + v + "' (full, no-dom, no-structured)", ExitUsage);
    if (a.folds == 1 || a.folds < 0 || a.folds > 20)
        throw CliError("train-product: --folds must be 0 (train on everything) or 2..20", ExitUsage);
    std::vector<pipeline::ProductBenchmarkPage> pages;
    try {
        pages = pipeline::loadProductBenchmark(a.data, false, a.maxPages, [](int done, int total) {
            reportProgress("train-product: reading pages", done, total);
        });
    } catch (const std::exception &e) {
        throw CliError(e.what());
    }
    if (pages.size() < 2)
        throw CliError(a.data + ": fewer than 2 pages");
    std::vector<inference::WebPage> plain, withCandidates;
    for (auto &p : pages) {
        plain.push_back(p.page);
        inference::WebPage c = p.page;
        p.prefixWords = pipeline::prependStructuredCandidates(&c, p.sd);
        withCandidates.push_back(std::move(c));
    }
    const std::string description = "Zyte product extraction benchmark (" + a.data + ", MIT; pages belong to their sites)";
    fs::create_directories(a.out);

    if (a.folds == 0) {
        const std::string variant = variants.empty() ? std::string("full") : variants.front();
        const auto r = trainOne(a, variant, a.out, variant == "no-structured" ? plain : withCandidates, description + ", all pages");
        writeJsonFile(fs::path(a.out) / "training.json", {{"variant", variant}, {"pages", pages.size()}, {"seconds", r.seconds},
                                                      {"steps", r.steps}, {"epoch_losses", r.epochLosses}, {"command", commandLine}});
        std::cout << nlohmann::json{{"model", a.out}, {"variant", variant}, {"pages", pages.size()}, {"seconds", r.seconds}}.dump(2) << std::endl;
        return;
    }

    std::vector<std::string> sites;
    for (const auto &p : pages)
        sites.push_back(p.site);
    const std::vector<int> fold = structured::groupedFolds(sites, a.folds);
    structured::BenchmarkTruth truth;
    std::map<std::string, structured::BenchmarkPrediction> predictions; // name -> rows
    for (std::size_t i = 0; i < pages.size(); ++i) {
        truth.push_back({pages[i].key, pages[i].truth});
        predictions["structured-data"][pages[i].key] = pipeline::benchmarkRow(pipeline::structuredProductValues(pages[i].sd));
    }
    nlohmann::json timing = nlohmann::json::object();
    for (int f = 0; f < a.folds; ++f) {
        for (const std::string &variant : variants) {
            const auto &source = variant == "no-structured" ? plain : withCandidates;
            std::vector<inference::WebPage> train;
            for (std::size_t i = 0; i < pages.size(); ++i)
                if (fold[i] != f)
                    train.push_back(source[i]);
            const std::string dir = (fs::path(a.out) / "folds" / ("fold" + std::to_string(f) + "-" + variant)).string();
            std::cerr << "train-product: fold " << f + 1 << "/" << a.folds << " " << variant << ": " << train.size()
                      << " training pages\n";
            const auto r = trainOne(a, variant, dir, train, description + ", fold " + std::to_string(f));
            timing[variant].push_back(r.seconds);
            inference::WebFormerExtractor ex;
            std::string error;
            if (!ex.load(dir, &error))
                throw CliError(error);
            for (std::size_t i = 0; i < pages.size(); ++i) {
                if (fold[i] != f)
                    continue;
                std::vector<inference::FieldSpan> spans;
                if (!ex.extract(source[i], pipeline::productModelFields(), &spans, &error))
                    throw CliError(pages[i].key + ": " + error);
                const int prefix = variant == "no-structured" ? 0 : pages[i].prefixWords;
                predictions[variant][pages[i].key] = pipeline::benchmarkRow(pipeline::productValues(spans, prefix, pages[i].sd, false));
                predictions[variant + "+fallback"][pages[i].key] =
                    pipeline::benchmarkRow(pipeline::productValues(spans, prefix, pages[i].sd, true));
            }
        }
    }
    fs::create_directories(fs::path(a.out) / "predictions");
    nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
    std::vector<std::pair<std::string, structured::BenchmarkMatching>> attrs = structured::benchmarkAttributes();
    for (const char *extra : {"gtin", "mpn", "brand"})
        attrs.emplace_back(extra, structured::BenchmarkMatching::Exact);
    for (const auto &[name, rows] : predictions) {
        nlohmann::json file = nlohmann::json::object();
        for (const auto &[key, row] : rows)
            file[key] = row;
        writeJsonFile(fs::path(a.out) / "predictions" / (name + ".json"), file);
        for (const auto &[attr, matching] : attrs) {
            structured::AttributeMetrics m;
            QString scoreError;
            if (!structured::scoreAttribute(truth, rows, attr, matching, &m, &scoreError, 1000, name))
                throw CliError(scoreError.toStdString());
            metrics[name][attr] = {{"f1", m.f1}, {"f1_std", m.f1Std}, {"precision", m.precision}, {"recall", m.recall},
                                   {"support", m.support}, {"tp", m.counts.tp}, {"fp", m.counts.fp}, {"fn", m.counts.fn}};
        }
    }
    nlohmann::json folds = nlohmann::json::object();
    for (std::size_t i = 0; i < pages.size(); ++i)
        folds[pages[i].key] = {{"fold", fold[i]}, {"site", pages[i].site}};
    const nlohmann::json report{{"metrics", metrics}, {"training_seconds", timing}, {"folds", a.folds},
                                {"epochs", a.o.epochs}, {"command", commandLine}, {"pages", folds}};
    writeJsonFile(fs::path(a.out) / "cv-metrics.json", report);
    std::cout << nlohmann::json{{"metrics", metrics}, {"training_seconds", timing}}.dump(2) << std::endl;
}

} // namespace

void registerTrainProductCommand(CLI::App &app)
{
    auto args = std::make_shared<TrainProductArgs>();
    args->o.epochs = 8;
    CLI::App *cmd = app.add_subcommand("train-product",
                                       "Train WebFormer product-field models on the product benchmark (site-grouped cross-validation, or one model on all pages)");
    cmd->add_option("--data", args->data, "benchmark dataset folder (ground-truth.json, html/<key>.html.gz)")->required();
    cmd->add_option("--out", args->out, "output folder (cross-validation results, or the checkpoint with --folds 0)")->required();
    cmd->add_option("--folds", args->folds, "cross-validation folds grouped by site (0: one model on every page)");
    cmd->add_option("--variants", args->variants, "comma-separated: full, no-dom, no-structured (with --folds 0: the first)");
    cmd->add_option("--epochs", args->o.epochs, "epochs per training");
    cmd->add_option("--max-seconds", args->o.maxSeconds, "time budget per training (0: none)");
    cmd->add_option("--hidden", args->o.model.hidden, "hidden size");
    cmd->add_option("--layers", args->o.model.layers, "layers");
    cmd->add_option("--heads", args->o.model.heads, "attention heads");
    cmd->add_option("--intermediate", args->o.model.intermediate, "FFN size");
    cmd->add_option("--max-text", args->o.model.maxTextTokens, "text tokens per page (the tail is cut)");
    cmd->add_option("--vocab-size", args->o.vocabSize, "WordPiece vocabulary size");
    cmd->add_option("--lr", args->o.lr, "peak learning rate");
    cmd->add_option("--seed", args->o.seed, "seed");
    cmd->add_option("--threads", args->o.threads, "intra-op threads");
    cmd->add_option("--max-pages", args->maxPages, "only the first N pages (tests)");
    cmd->callback([args, &app] {
        std::string line = "folio-cli train-product";
        for (const auto &o : app.get_subcommand("train-product")->get_options())
            if (o->count() > 0 && o->get_name() != "--help")
                line += " " + o->get_name() + " " + o->as<std::string>();
        trainProductCommand(*args, line);
    });
}

} // namespace folio::cli
