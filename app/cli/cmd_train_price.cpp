// folio-cli train-price: the price ranker (document/structured/priceranker.h) on the product
// benchmark, cross-validated by site and scored the benchmark's way, then trained on every page.
//   folio-cli train-price --data DATASET --out DIR [--folds 5]
// DIR/price-ranker.json: the ranker trained on all pages (folio-cli extract and Extract Fields use
// it when it sits beside the product model). With --folds N >= 2, first a site-grouped
// cross-validation (the folds train-product uses): out-of-fold predictions of every page for
// "structured-data" (the schema.org reader alone), "price-ranker" (the ranker alone) and
// "structured-data+price-ranker" (the reader's price when the page has one, else the ranker's, the
// rule extract uses) in DIR/price-predictions/, scores (price; the other attributes come from
// structured data in all three) in DIR/price-cv.json and on stdout.
#include "app/cli/commands.h"

#include "document/html/htmlinput.h"
#include "document/html/htmlloader.h"
#include "document/structured/benchmarkscore.h"
#include "document/structured/pricecandidates.h"
#include "document/structured/priceranker.h"
#include "inference/webformer/productpages.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>

namespace folio::cli {

namespace {

namespace fs = std::filesystem;

struct TrainPriceArgs
{
    std::string data, out;
    int folds = 5, maxPages = 0;
    structured::PriceRankerOptions options;
};

struct PricePage
{
    std::string key, site;
    std::map<std::string, std::vector<std::string>> truth;
    structured::StructuredData sd;
    std::vector<structured::PriceCandidate> candidates;
    structured::PriceRankerPage training;
};

std::vector<PricePage> readPages(const TrainPriceArgs &a)
{
    const std::string gtPath = a.data + "/ground-truth.json";
    structured::BenchmarkTruth truth;
    try {
        truth = structured::readBenchmarkTruth(gtPath);
    } catch (const std::exception &e) {
        throw CliError(e.what());
    }
    std::ifstream in(gtPath);
    const auto gt = nlohmann::json::parse(in, nullptr, false);
    const int total = a.maxPages > 0 ? std::min<int>(a.maxPages, int(truth.size())) : int(truth.size());
    std::vector<PricePage> pages;
    for (int i = 0; i < total; ++i) {
        PricePage p;
        p.key = truth[std::size_t(i)].key;
        p.truth = truth[std::size_t(i)].values;
        const auto row = gt.is_object() && gt.contains(p.key) ? gt[p.key] : nlohmann::json();
        const std::string url = row.is_object() && row.contains("url") && row["url"].is_string() ? row["url"].get<std::string>() : p.key;
        p.site = inference::siteFamily(url);
        const QString path = QString::fromStdString(a.data + "/html/" + p.key + ".html.gz");
        QByteArray bytes;
        QString error;
        if (!readHtmlSource(path, qint64(256) << 20, &bytes, &error))
            throw CliError(error.toStdString());
        const HtmlLoadResult loaded = loadHtmlBytes(bytes, path);
        if (!loaded.ok)
            throw CliError(loaded.error.toStdString());
        p.sd = structured::readStructuredData(bytes, path);
        p.candidates = structured::findPriceCandidates(loaded.document, p.sd);
        std::set<std::string> gold;
        const auto prices = p.truth.find("price");
        if (prices != p.truth.end())
            for (const auto &g : prices->second)
                if (const auto c = structured::canonicalDecimal(g))
                    gold.insert(*c);
        for (const auto &c : p.candidates) {
            p.training.features.push_back(c.features);
            const auto amount = structured::canonicalDecimal(c.amount);
            p.training.gold.push_back(amount && gold.count(*amount) ? 1 : 0);
        }
        p.training.group = p.site;
        p.training.hasGold = !gold.empty();
        p.training.usesRanker = structured::productFields(p.sd).count("price") == 0;
        pages.push_back(std::move(p));
        reportProgress("train-price: reading pages", i + 1, total);
    }
    return pages;
}

void writeJson(const fs::path &path, const nlohmann::json &j)
{
    std::ofstream f(path);
    f << j.dump(2) << "\n";
    if (!f)
        throw CliError(path.string() + ": cannot write the file");
}

// The page's benchmark row: structured data for every attribute, the price by `rule`.
std::map<std::string, std::string> row(const PricePage &p, const structured::PriceRanker *ranker, bool structuredFirst)
{
    std::vector<inference::ProductValue> values = inference::structuredProductValues(p.sd);
    if (!ranker)
        return inference::benchmarkRow(values);
    std::vector<inference::ProductValue> ranked;
    if (const auto r = structured::rankPrice(*ranker, p.candidates))
        ranked = inference::rankedPriceValues(*r, {}, -1, -1);
    if (structuredFirst) {
        inference::choosePrice(&values, p.sd, ranked);
    } else {
        values.erase(std::remove_if(values.begin(), values.end(), [](const auto &v) { return v.field == "price"; }), values.end());
        for (const auto &v : ranked)
            if (v.field == "price")
                values.push_back(v);
    }
    return inference::benchmarkRow(values);
}

void trainPriceCommand(const TrainPriceArgs &a)
{
    if (a.folds == 1 || a.folds < 0 || a.folds > 20)
        throw CliError("train-price: --folds must be 0 (no cross-validation) or 2..20", ExitUsage);
    const auto started = std::chrono::steady_clock::now();
    const std::vector<PricePage> pages = readPages(a);
    if (pages.size() < 2)
        throw CliError(a.data + ": fewer than 2 pages");
    std::vector<structured::PriceRankerPage> all;
    std::size_t withGold = 0, candidates = 0;
    for (const auto &p : pages) {
        all.push_back(p.training);
        candidates += p.candidates.size();
        withGold += std::find(p.training.gold.begin(), p.training.gold.end(), 1) != p.training.gold.end() ? 1 : 0;
    }
    if (withGold == 0)
        throw CliError(a.data + ": no page has a price among its text's numbers: nothing to learn from");
    fs::create_directories(a.out);
    nlohmann::json summary{{"pages", pages.size()},
                           {"candidates", candidates},
                           {"pages_with_gold_candidate", withGold},
                           {"pages_with_structured_price",
                            std::count_if(pages.begin(), pages.end(), [](const auto &p) { return !p.training.usesRanker; })}};
    if (a.folds >= 2) {
        std::vector<std::string> sites;
        for (const auto &p : pages)
            sites.push_back(p.site);
        const std::vector<int> fold = structured::groupedFolds(sites, a.folds);
        structured::BenchmarkTruth truth;
        std::map<std::string, structured::BenchmarkPrediction> predictions;
        nlohmann::json thresholds = nlohmann::json::array();
        for (const auto &p : pages)
            truth.push_back({p.key, p.truth});
        for (int f = 0; f < a.folds; ++f) {
            std::vector<structured::PriceRankerPage> train;
            for (std::size_t i = 0; i < pages.size(); ++i)
                if (fold[i] != f)
                    train.push_back(pages[i].training);
            const structured::PriceRanker ranker = structured::PriceRanker::train(train, a.options);
            thresholds.push_back(ranker.threshold());
            for (std::size_t i = 0; i < pages.size(); ++i) {
                if (fold[i] != f)
                    continue;
                predictions["structured-data"][pages[i].key] = row(pages[i], nullptr, false);
                predictions["price-ranker"][pages[i].key] = row(pages[i], &ranker, false);
                predictions["structured-data+price-ranker"][pages[i].key] = row(pages[i], &ranker, true);
            }
            reportProgress("train-price: cross-validation folds", f + 1, a.folds);
        }
        fs::create_directories(fs::path(a.out) / "price-predictions");
        nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
        for (const auto &[name, rows] : predictions) {
            nlohmann::json file = nlohmann::json::object();
            for (const auto &[key, r] : rows)
                file[key] = r;
            writeJson(fs::path(a.out) / "price-predictions" / (name + ".json"), file);
            const auto m = structured::scoreAttribute(truth, rows, "price", structured::BenchmarkMatching::Decimal, 1000, name);
            metrics[name] = {{"f1", m.f1},   {"f1_std", m.f1Std}, {"precision", m.precision}, {"recall", m.recall},
                             {"tp", m.counts.tp}, {"fp", m.counts.fp}, {"fn", m.counts.fn}, {"support", m.support}};
        }
        summary["folds"] = a.folds;
        summary["thresholds"] = thresholds;
        summary["price"] = metrics;
    }
    const structured::PriceRanker ranker = structured::PriceRanker::train(all, a.options);
    summary["threshold"] = ranker.threshold();
    summary["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const nlohmann::json training{{"data", "Zyte product extraction benchmark (" + a.data + ", MIT; pages belong to their sites)"},
                                  {"pages", pages.size()},
                                  {"threshold_from", a.options.innerFolds >= 2 ? "inner " + std::to_string(a.options.innerFolds)
                                                                                    + "-fold site-grouped cross-validation"
                                                                              : std::string("none: always answers")}};
    std::string error;
    const std::string file = (fs::path(a.out) / "price-ranker.json").string();
    if (!ranker.save(file, training, &error))
        throw CliError(error);
    if (a.folds >= 2)
        writeJson(fs::path(a.out) / "price-cv.json", summary);
    summary["ranker"] = file;
    std::cout << summary.dump(2) << std::endl;
}

} // namespace

void registerTrainPriceCommand(CLI::App &app)
{
    auto args = std::make_shared<TrainPriceArgs>();
    CLI::App *cmd = app.add_subcommand("train-price",
                                       "Train the price ranker (numbers in the page text, scored by a learned linear model) on the product benchmark");
    cmd->add_option("--data", args->data, "benchmark dataset folder (ground-truth.json, html/<key>.html.gz)")->required();
    cmd->add_option("--out", args->out, "output folder: price-ranker.json (+ price-cv.json, price-predictions/ with --folds)")->required();
    cmd->add_option("--folds", args->folds, "site-grouped cross-validation folds before the final training (0: none)");
    cmd->add_option("--threshold-folds", args->options.innerFolds,
                    "inner site-grouped folds that choose the abstention threshold (0: always answer)");
    cmd->add_option("--max-pages", args->maxPages, "only the first N pages (tests)");
    cmd->callback([args] { trainPriceCommand(*args); });
}

} // namespace folio::cli
