// folio-cli train-rankers: the candidate rankers of the ranked product fields (price, sku;
// document/structured/fieldrankers.h) on the product benchmark, cross-validated by site and scored
// the benchmark's way, then trained on every page.
//   folio-cli train-rankers --data DATASET --out DIR [--folds 5] [--fields price,sku]
// DIR/<field>-ranker.json: each ranker trained on all pages (folio-cli extract and Extract Fields
// use them when they sit beside the product model). With --folds N >= 2, first a site-grouped
// cross-validation (the folds train-product uses): out-of-fold predictions of every page for
// "structured-data" (the schema.org reader alone), "rankers-alone" (each ranked field from its
// ranker alone) and "rankers+structured-data" (the rule each ranker chose on its training folds:
// structured data first or the ranker first; the one extract uses) in DIR/ranker-predictions/,
// scores per ranked field (the other attributes come from structured data in all three) in
// DIR/ranker-cv.json and on stdout.
#include "app/cli/commands.h"

#include "document/structured/benchmarkscore.h"
#include "document/structured/fieldrankers.h"
#include "document/structured/groupedfolds.h"
#include "pipeline/modelinputs/productpages.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

namespace folio::cli {

namespace {

namespace fs = std::filesystem;

struct TrainRankersArgs
{
    std::string data, out, fields = "price,sku";
    int folds = 5, maxPages = 0;
    structured::RankerOptions options;
};

struct RankedPage
{
    std::string key, site;
    std::map<std::string, std::vector<std::string>> truth;
    structured::StructuredData sd;
    std::map<std::string, std::vector<structured::TextCandidate>> candidates; // field -> candidates
    std::map<std::string, structured::RankerPage> training;                  // field -> rows and gold
};

std::vector<RankedPage> readPages(const TrainRankersArgs &a, const std::vector<std::string> &fields)
{
    const std::string gtPath = a.data + "/ground-truth.json";
    structured::BenchmarkTruth truth;
    QString truthError;
    if (!structured::readBenchmarkTruth(gtPath, &truth, &truthError))
        throw CliError(truthError.toStdString());
    std::ifstream in(gtPath);
    const auto gt = nlohmann::json::parse(in, nullptr, false);
    const int total = a.maxPages > 0 ? std::min<int>(a.maxPages, int(truth.size())) : int(truth.size());
    std::vector<RankedPage> pages;
    for (int i = 0; i < total; ++i) {
        RankedPage p;
        p.key = truth[std::size_t(i)].key;
        p.truth = truth[std::size_t(i)].values;
        const auto row = gt.is_object() && gt.contains(p.key) ? gt[p.key] : nlohmann::json();
        const std::string url = row.is_object() && row.contains("url") && row["url"].is_string() ? row["url"].get<std::string>() : p.key;
        p.site = pipeline::siteFamily(url);
        structured::PageWithStructuredData loaded;
        QString error;
        if (!structured::readPageWithStructuredData(QString::fromStdString(a.data + "/html/" + p.key + ".html.gz"), &loaded, &error))
            throw CliError(error.toStdString());
        p.sd = loaded.data;
        for (const std::string &field : fields) {
            const auto &cands = p.candidates[field] = structured::findCandidates(field, loaded.document, p.sd);
            const auto it = p.truth.find(field);
            p.training[field] = structured::rankerPage(field, cands, p.sd, it != p.truth.end() ? it->second : std::vector<std::string>(),
                                                       p.site);
        }
        pages.push_back(std::move(p));
        reportProgress("train-rankers: reading pages", i + 1, total);
    }
    return pages;
}

enum class Rule { StructuredAlone, RankerAlone, Learned };

// The page's benchmark row: structured data for every attribute, the ranked fields by structured
// data alone, their rankers alone, or the rule each ranker learned (the one extract uses).
std::map<std::string, std::string> row(const RankedPage &p, const std::map<std::string, structured::CandidateRanker> *rankers,
                                       Rule rule)
{
    std::vector<pipeline::ProductValue> values = pipeline::structuredProductValues(p.sd);
    if (!rankers)
        return pipeline::benchmarkRow(values);
    for (const auto &[field, ranker] : *rankers) {
        std::vector<pipeline::ProductValue> ranked;
        if (const auto r = structured::rankCandidates(ranker, p.candidates.at(field)))
            ranked = pipeline::rankedValues(field, *r, {}, -1, -1);
        if (rule == Rule::Learned) {
            pipeline::chooseRankedValue(&values, p.sd, field, ranked, ranker.structuredFirst());
        } else {
            const std::string f = field;
            values.erase(std::remove_if(values.begin(), values.end(), [&](const auto &v) { return v.field == f; }), values.end());
            for (const auto &v : ranked)
                if (v.field == field)
                    values.push_back(v);
        }
    }
    return pipeline::benchmarkRow(values);
}

std::vector<std::string> parseFields(const std::string &list)
{
    const std::vector<std::string> out = splitCommaList(list);
    for (const std::string &item : out)
        if (!structured::isRankedField(item))
            throw CliError("train-rankers: '" + item + "' has no ranker (ranked fields: price, sku)", ExitUsage);
    if (out.empty())
        throw CliError("train-rankers: --fields names no field", ExitUsage);
    return out;
}

std::map<std::string, structured::CandidateRanker> trainAll(const std::vector<std::string> &fields,
                                                            const std::vector<const RankedPage *> &pages,
                                                            const structured::RankerOptions &options)
{
    std::map<std::string, structured::CandidateRanker> out;
    for (const std::string &field : fields) {
        std::vector<structured::RankerPage> rows;
        for (const RankedPage *p : pages)
            rows.push_back(p->training.at(field));
        out.emplace(field, structured::CandidateRanker::train(field, structured::candidateFeatureNames(field), rows, options));
    }
    return out;
}

void trainRankersCommand(const TrainRankersArgs &a)
{
    if (a.folds == 1 || a.folds < 0 || a.folds > 20)
        throw CliError("train-rankers: --folds must be 0 (no cross-validation) or 2..20", ExitUsage);
    const std::vector<std::string> fields = parseFields(a.fields);
    const auto started = std::chrono::steady_clock::now();
    const std::vector<RankedPage> pages = readPages(a, fields);
    if (pages.size() < 2)
        throw CliError(a.data + ": fewer than 2 pages");
    std::vector<const RankedPage *> everyPage;
    for (const auto &p : pages)
        everyPage.push_back(&p);
    nlohmann::json summary{{"pages", pages.size()}};
    for (const std::string &field : fields) {
        std::size_t withGold = 0, candidates = 0, fromData = 0;
        for (const auto &p : pages) {
            const auto &t = p.training.at(field);
            candidates += t.features.size();
            withGold += std::find(t.gold.begin(), t.gold.end(), 1) != t.gold.end() ? 1 : 0;
            fromData += t.structured >= 0 ? 1 : 0;
        }
        if (withGold == 0)
            throw CliError(a.data + ": no page has its " + field + " among the candidates of its text: nothing to learn from");
        summary[field] = {{"candidates", candidates}, {"pages_with_gold_candidate", withGold}, {"pages_with_structured_value", fromData}};
    }
    fs::create_directories(a.out);
    if (a.folds >= 2) {
        std::vector<std::string> sites;
        for (const auto &p : pages)
            sites.push_back(p.site);
        const std::vector<int> fold = structured::groupedFolds(sites, a.folds);
        structured::BenchmarkTruth truth;
        std::map<std::string, structured::BenchmarkPrediction> predictions;
        std::map<std::string, nlohmann::json> thresholds;
        for (const auto &p : pages)
            truth.push_back({p.key, p.truth});
        for (int f = 0; f < a.folds; ++f) {
            std::vector<const RankedPage *> train;
            for (std::size_t i = 0; i < pages.size(); ++i)
                if (fold[i] != f)
                    train.push_back(&pages[i]);
            const auto rankers = trainAll(fields, train, a.options);
            for (const auto &[field, r] : rankers)
                thresholds[field].push_back({{"threshold", r.threshold()}, {"structured_first", r.structuredFirst()}});
            for (std::size_t i = 0; i < pages.size(); ++i) {
                if (fold[i] != f)
                    continue;
                predictions["structured-data"][pages[i].key] = row(pages[i], nullptr, Rule::StructuredAlone);
                predictions["rankers-alone"][pages[i].key] = row(pages[i], &rankers, Rule::RankerAlone);
                predictions["rankers+structured-data"][pages[i].key] = row(pages[i], &rankers, Rule::Learned);
            }
            reportProgress("train-rankers: cross-validation folds", f + 1, a.folds);
        }
        fs::create_directories(fs::path(a.out) / "ranker-predictions");
        for (const auto &[name, rows] : predictions) {
            nlohmann::json file = nlohmann::json::object();
            for (const auto &[key, r] : rows)
                file[key] = r;
            writeJsonFile(fs::path(a.out) / "ranker-predictions" / (name + ".json"), file);
            for (const std::string &field : fields) {
                const auto matching = field == "price" ? structured::BenchmarkMatching::Decimal : structured::BenchmarkMatching::Exact;
                structured::AttributeMetrics m;
                QString scoreError;
                if (!structured::scoreAttribute(truth, rows, field, matching, &m, &scoreError, 1000, name))
                    throw CliError(scoreError.toStdString());
                summary[field]["cv"][name] = {{"f1", m.f1},           {"f1_std", m.f1Std}, {"precision", m.precision},
                                              {"recall", m.recall},   {"tp", m.counts.tp}, {"fp", m.counts.fp},
                                              {"fn", m.counts.fn},    {"support", m.support}};
            }
        }
        for (const std::string &field : fields)
            summary[field]["fold_rules"] = thresholds[field];
        summary["folds"] = a.folds;
    }
    const auto rankers = trainAll(fields, everyPage, a.options);
    const nlohmann::json training{{"data", "Zyte product extraction benchmark (" + a.data + ", MIT; pages belong to their sites)"},
                                  {"pages", pages.size()},
                                  {"threshold_from", a.options.innerFolds >= 2 ? "inner " + std::to_string(a.options.innerFolds)
                                                                                    + "-fold site-grouped cross-validation"
                                                                              : std::string("none: always answers")}};
    for (const auto &[field, ranker] : rankers) {
        std::string error;
        const std::string file = structured::rankerFile(a.out, field);
        if (!ranker.save(file, training, &error))
            throw CliError(error);
        summary[field]["threshold"] = ranker.threshold();
        summary[field]["structured_first"] = ranker.structuredFirst();
        summary[field]["ranker"] = file;
    }
    summary["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (a.folds >= 2)
        writeJsonFile(fs::path(a.out) / "ranker-cv.json", summary);
    std::cout << summary.dump(2) << std::endl;
}

} // namespace

void registerTrainRankersCommand(CLI::App &app)
{
    auto args = std::make_shared<TrainRankersArgs>();
    CLI::App *cmd = app.add_subcommand("train-rankers",
                                       "Train the price and sku rankers (candidates in the page text chosen by a learned linear model) on the product benchmark");
    cmd->add_option("--data", args->data, "benchmark dataset folder (ground-truth.json, html/<key>.html.gz)")->required();
    cmd->add_option("--out", args->out, "output folder: <field>-ranker.json (+ ranker-cv.json, ranker-predictions/ with --folds)")->required();
    cmd->add_option("--folds", args->folds, "site-grouped cross-validation folds before the final training (0: none)");
    cmd->add_option("--threshold-folds", args->options.innerFolds,
                    "inner site-grouped folds that choose the abstention threshold (0: always answer)");
    cmd->add_option("--fields", args->fields, "comma-separated ranked fields (price, sku)");
    cmd->add_option("--max-pages", args->maxPages, "only the first N pages (tests)");
    cmd->callback([args] { trainRankersCommand(*args); });
}

} // namespace folio::cli
