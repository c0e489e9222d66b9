// folio-cli extract-score: the product extraction benchmark's scores (document/structured/benchmarkscore.h).
//   folio-cli extract-score --truth ground-truth.json PRED.json... [--bootstrap 1000]
//   folio-cli extract-score --dataset DIR            (DIR/ground-truth.json, every DIR/output/*.json)
// Prints {system: {attribute: {f1, f1_std, precision, precision_std, recall, recall_std, support,
// tp, fp, fn}}} (metrics.json's layout plus the counts); system = the file name without .json.
#include "app/cli/commands.h"

#include "document/structured/benchmarkscore.h"

#include <QString>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

namespace folio::cli {

namespace {

struct ScoreArgs
{
    std::string truth, dataset;
    std::vector<std::string> predictions;
    int bootstrap = 1000;
};

void scoreCommand(const ScoreArgs &a)
{
    namespace fs = std::filesystem;
    std::string truthPath = a.truth;
    std::vector<std::string> preds = a.predictions;
    if (!a.dataset.empty()) {
        if (truthPath.empty())
            truthPath = (fs::path(a.dataset) / "ground-truth.json").string();
        const fs::path out = fs::path(a.dataset) / "output";
        std::error_code ec;
        if (preds.empty() && fs::is_directory(out, ec)) {
            for (const auto &e : fs::directory_iterator(out, ec))
                if (e.path().extension() == ".json")
                    preds.push_back(e.path().string());
            std::sort(preds.begin(), preds.end());
        }
    }
    if (truthPath.empty())
        throw CliError("extract-score: give --truth FILE or --dataset DIR", ExitUsage);
    if (preds.empty())
        throw CliError("extract-score: no prediction files (give PRED.json or --dataset DIR with output/*.json)", ExitUsage);
    if (a.bootstrap < 0 || a.bootstrap > 100000)
        throw CliError("extract-score: --bootstrap must be within 0..100000");
    QString error;
    structured::BenchmarkTruth truth;
    if (!structured::readBenchmarkTruth(truthPath, &truth, &error))
        throw CliError(error.toStdString());
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto &path : preds) {
        structured::BenchmarkPrediction pred;
        if (!structured::readBenchmarkPrediction(path, &pred, &error))
            throw CliError(error.toStdString());
        const std::string name = fs::path(path).stem().string();
        for (const auto &[attr, matching] : structured::benchmarkAttributes()) {
            structured::AttributeMetrics m;
            if (!structured::scoreAttribute(truth, pred, attr, matching, &m, &error, a.bootstrap, path))
                throw CliError(error.toStdString());
            out[name][attr] = {{"f1", m.f1},       {"f1_std", m.f1Std},           {"precision", m.precision},
                               {"precision_std", m.precisionStd}, {"recall", m.recall}, {"recall_std", m.recallStd},
                               {"support", m.support}, {"tp", m.counts.tp},       {"fp", m.counts.fp},
                               {"fn", m.counts.fn}};
        }
    }
    std::cout << out.dump(4) << std::endl;
}

} // namespace

void registerExtractScoreCommand(CLI::App &app)
{
    auto args = std::make_shared<ScoreArgs>();
    CLI::App *cmd = app.add_subcommand(
        "extract-score", "Score product extraction outputs the product benchmark's way (P/R/F1 per attribute, bootstrap std)");
    cmd->add_option("--truth", args->truth, "ground-truth.json ({page: {attribute: [accepted values]}})");
    cmd->add_option("--dataset", args->dataset, "benchmark folder: ground-truth.json and output/*.json");
    cmd->add_option("predictions", args->predictions, "prediction files ({page: {attribute: value}})");
    cmd->add_option("--bootstrap", args->bootstrap, "bootstrap resamples for the std (0: none)");
    cmd->callback([args] { scoreCommand(*args); });
}

} // namespace folio::cli
