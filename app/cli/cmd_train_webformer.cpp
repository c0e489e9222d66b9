// folio-cli train-webformer: train WebFormer on an SWDE folder and report page-level F1.
//   folio-cli train-webformer --data DIR --out DIR [--epochs N] [--hidden 128] [--layers 2]
//       [--heads 4] [--radius 31] [--max-text 4096] [--lr 1e-3] [--seed 1] [--threads 2]
//       [--max-minutes M] [--max-pages-per-site K]
// Split (pipeline/modelinputs/webpages.h): per site the last 30% of pages are test, the 10% before them
// dev, the rest train (--test-sites: the unseen-site protocol, pipeline/modelinputs/webpages.h); the best epoch on dev page-level F1 is kept, test is scored once at the end
// and written with the dev score into <out>/folio.json. JSON summary on stdout.
#include "app/cli/commands.h"

#include "inference/models/modelrunner.h"
#include "inference/webformer/webformer.h"
#include "inference/webformer/webformereval.h"
#include "pipeline/modelinputs/webpages.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <memory>

namespace folio::cli {

namespace {

struct TrainWebArgs
{
    std::string data, out;
    inference::WebFormerTrainOptions o;
    double maxMinutes = 0;
    int maxPagesPerSite = 0;
    std::vector<std::string> testSites; // the unseen-site protocol
};

void trainWebCommand(TrainWebArgs &a, const std::string &commandLine)
{
    pipeline::SwdeSplit split;
    try {
        split = pipeline::loadSwdeSplit(a.data, a.maxPagesPerSite, a.testSites);
    } catch (const std::exception &e) {
        throw CliError(e.what());
    }
    std::cerr << "train-webformer: " << split.train.size() << " train, " << split.dev.size() << " dev, " << split.test.size()
              << " test pages; fields:";
    for (const auto &f : split.fields)
        std::cerr << ' ' << f;
    std::cerr << "\n";
    a.o.outputDir = a.out;
    a.o.model.fields = split.fields;
    a.o.maxSeconds = a.maxMinutes * 60.0;
    a.o.command = commandLine;
    std::string testSites;
    for (const std::string &s : a.testSites)
        testSites += (testSites.empty() ? "" : ", ") + s;
    a.o.dataDescription = "SWDE " + split.root +
                          (a.testSites.empty() ? " (per site: first 60% train, next 10% dev, last 30% test)"
                                               : " (unseen sites: every page of " + testSites +
                                                     " is test; the other sites' first 90% train, last 10% dev)");
    const inference::WebFormerTrainResult r = inference::trainWebFormer(a.o, split.train, split.dev, [](const inference::WebFormerTrainProgress &p) {
        if (!p.message.empty() && !quiet())
            std::cerr << "train-webformer: " << p.message << "\n";
        else
            reportProgress("train-webformer step", p.step, p.totalSteps);
    });
    if (!r.ok)
        throw CliError(a.out + ": training failed: " + r.error);

    inference::WebFormerExtractor ex;
    std::string error;
    if (!ex.load(a.out, &error))
        throw CliError(error);
    std::map<std::string, std::map<std::string, std::string>> pred;
    inference::PageFieldValues gold;
    for (const auto &page : split.test) {
        std::vector<inference::FieldSpan> spans;
        if (!ex.extract(page, split.fields, &spans, &error))
            throw CliError(error);
        for (const auto &s : spans)
            if (s.found)
                pred[page.id][s.field] = s.value;
        for (const auto &f : split.fields)
            gold[page.id][f] = page.gold.count(f) ? page.gold.at(f) : std::vector<std::string>();
    }
    const nlohmann::json test = pageLevelScoreJson(inference::scorePageLevel(pred, gold));
    nlohmann::json folio;
    {
        std::ifstream in(a.out + "/folio.json");
        folio = nlohmann::json::parse(in, nullptr, false);
        if (folio.is_discarded())
            folio = nlohmann::json::object();
    }
    folio["test_page_level"] = test;
    folio["train_seconds"] = r.seconds;
    folio["steps"] = r.steps;
    std::ofstream(a.out + "/folio.json") << folio.dump(2) << "\n";
    nlohmann::json out{{"checkpoint", a.out}, {"train_pages", split.train.size()}, {"dev_pages", split.dev.size()},
                       {"test_pages", split.test.size()}, {"best_epoch", r.bestEpoch}, {"best_dev_f1", r.bestDevF1},
                       {"seconds", r.seconds}, {"steps", r.steps}, {"epoch_losses", r.epochLosses}, {"test", test}};
    std::cout << out.dump(2) << std::endl;
}

} // namespace

nlohmann::json pageLevelScoreJson(const inference::PageLevelScore &s)
{
    nlohmann::json j{{"precision", s.precision}, {"recall", s.recall}, {"f1", s.f1}, {"fields", nlohmann::json::object()}};
    for (const auto &f : s.fields)
        j["fields"][f.field] = {{"precision", f.precision}, {"recall", f.recall}, {"f1", f.f1}, {"tp", f.tp}, {"fp", f.fp}, {"fn", f.fn}, {"pages", f.pages}};
    return j;
}

void registerTrainWebFormerCommand(CLI::App &app)
{
    auto a = std::make_shared<TrainWebArgs>();
    a->o.model.hidden = 128;
    a->o.model.layers = 2;
    a->o.model.heads = 4;
    a->o.model.intermediate = 512;
    CLI::App *cmd = app.add_subcommand("train-webformer", "Train WebFormer field extraction on an SWDE folder; reports page-level F1");
    cmd->add_option("--data", a->data, "SWDE folder (with groundtruth/ and testset/, or a parent)")->required();
    cmd->add_option("--out", a->out, "checkpoint folder to write")->required();
    cmd->add_option("--epochs", a->o.epochs, "epochs")->capture_default_str();
    cmd->add_option("--hidden", a->o.model.hidden, "hidden size")->capture_default_str();
    cmd->add_option("--layers", a->o.model.layers, "encoder layers")->capture_default_str();
    cmd->add_option("--heads", a->o.model.heads, "attention heads")->capture_default_str();
    cmd->add_option("--intermediate", a->o.model.intermediate, "FFN size")->capture_default_str();
    cmd->add_option("--radius", a->o.model.radius, "T2T local radius")->capture_default_str();
    cmd->add_option("--max-text", a->o.model.maxTextTokens, "text tokens kept per page")->capture_default_str();
    cmd->add_option("--vocab-size", a->o.vocabSize, "WordPiece vocabulary size")->capture_default_str();
    cmd->add_option("--lr", a->o.lr, "peak learning rate")->capture_default_str();
    cmd->add_option("--seed", a->o.seed, "random seed")->capture_default_str();
    cmd->add_option("--threads", a->o.threads, "threads")->capture_default_str();
    cmd->add_option("--max-minutes", a->maxMinutes, "stop training after this many minutes (0 = no limit)");
    cmd->add_option("--max-pages-per-site", a->maxPagesPerSite, "use only the first K pages of each site (0 = all)");
    cmd->add_option("--test-sites", a->testSites,
                    "unseen-site protocol: every page of these sites is test, the others train (90%) and dev (10%)")
        ->delimiter(',');
    cmd->callback([a, cmd] {
        std::string line = "folio-cli train-webformer";
        for (const auto &o : cmd->get_options())
            if (o->count() > 0 && !o->get_lnames().empty())
                line += " --" + o->get_lnames()[0] + " " + o->as<std::string>();
        trainWebCommand(*a, line);
    });
}

} // namespace folio::cli
