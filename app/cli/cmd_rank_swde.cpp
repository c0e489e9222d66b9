// folio-cli rank-swde: SWDE's unseen-site protocol with text-node rankers
// (document/structured/textnodecandidates.h + candidateranker.h) instead of WebFormer.
//   folio-cli rank-swde --data DIR --test-site SITE [--out DIR]
// Every page of SITE is test; the other sites' pages train one ranker per field (the split of
// train-webformer --test-sites: its train and dev pages together, since the ranker has no epochs to
// choose). The ranker always answers (no threshold: an inner cross-validation within one site
// would choose it on that site's layout). Prints page-level P/R/F1 per field and macro-averaged,
// scored by the rule of train-webformer (inference/webformereval.h); --out also writes
// <field>-ranker.json files and rank-swde.json (scores, predictions, the command).
#include "app/cli/commands.h"

#include "document/html/htmlloader.h"
#include "document/structured/candidateranker.h"
#include "document/structured/fieldrankers.h"
#include "document/structured/textnodecandidates.h"
#include "inference/webformer/webformerdata.h"
#include "inference/webformer/webformereval.h"

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

struct RankSwdeArgs
{
    std::string data, testSite, out;
    int maxPagesPerSite = 0;
};

struct SwdePage
{
    inference::WebPage page; // id, gold
    Document doc;
};

std::vector<SwdePage> documents(const std::vector<inference::WebPage> &pages, int *done, int total)
{
    std::vector<SwdePage> out;
    for (const auto &p : pages) {
        const HtmlLoadResult r = loadHtmlFile(QString::fromStdString(p.source));
        if (!r.ok)
            throw CliError(r.error.toStdString());
        out.push_back({p, r.document});
        reportProgress("rank-swde: reading pages", ++*done, total);
    }
    return out;
}

structured::RankerPage rankerPage(const std::vector<structured::TextCandidate> &candidates, const std::vector<std::string> &gold,
                                  const std::string &group)
{
    std::set<std::string> accepted;
    for (const auto &g : gold)
        accepted.insert(inference::normaliseFieldValue(g));
    structured::RankerPage r;
    for (const auto &c : candidates) {
        r.features.push_back(c.features);
        r.gold.push_back(accepted.count(inference::normaliseFieldValue(c.value)) ? 1 : 0);
    }
    r.group = group;
    r.hasGold = !gold.empty();
    return r;
}

void rankSwdeCommand(const RankSwdeArgs &a)
{
    const auto started = std::chrono::steady_clock::now();
    inference::SwdeSplit split;
    try {
        split = inference::loadSwdeSplit(a.data, a.maxPagesPerSite, {a.testSite});
    } catch (const std::exception &e) {
        throw CliError(e.what());
    }
    std::vector<inference::WebPage> trainPages = split.train;
    trainPages.insert(trainPages.end(), split.dev.begin(), split.dev.end());
    int done = 0;
    const int total = int(trainPages.size() + split.test.size());
    const std::vector<SwdePage> train = documents(trainPages, &done, total);
    const std::vector<SwdePage> test = documents(split.test, &done, total);
    structured::RankerOptions options;
    options.innerFolds = 0;
    std::map<std::string, std::map<std::string, std::string>> predicted;
    inference::PageFieldValues gold;
    nlohmann::json fields = nlohmann::json::object();
    if (!a.out.empty())
        fs::create_directories(a.out);
    for (const std::string &field : split.fields) {
        std::vector<structured::RankerPage> rows;
        int withGold = 0;
        for (const SwdePage &p : train) {
            const auto it = p.page.gold.find(field);
            rows.push_back(rankerPage(structured::findTextNodeCandidates(p.doc, field),
                                      it == p.page.gold.end() ? std::vector<std::string>() : it->second, p.page.id));
            withGold += std::find(rows.back().gold.begin(), rows.back().gold.end(), 1) != rows.back().gold.end() ? 1 : 0;
        }
        const auto ranker = structured::CandidateRanker::train(field, structured::textNodeFeatureNames(), rows, options);
        for (const SwdePage &p : test) {
            const auto it = p.page.gold.find(field);
            gold[p.page.id][field] = it == p.page.gold.end() ? std::vector<std::string>() : it->second;
            if (const auto best = structured::rankCandidates(ranker, structured::findTextNodeCandidates(p.doc, field)))
                predicted[p.page.id][field] = best->candidate.value;
        }
        fields[field] = {{"training_pages_with_gold_node", withGold}};
        if (!a.out.empty()) {
            std::string error;
            if (!ranker.save(structured::rankerFile(a.out, field),
                             {{"data", "SWDE " + split.root}, {"test_site", a.testSite}, {"training_pages", train.size()}}, &error))
                throw CliError(error);
        }
    }
    const nlohmann::json score = pageLevelScoreJson(inference::scorePageLevel(predicted, gold));
    nlohmann::json report{{"test_site", a.testSite},
                          {"training_pages", train.size()},
                          {"test_pages", test.size()},
                          {"fields", fields},
                          {"test_page_level", score},
                          {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()}};
    if (!a.out.empty()) {
        nlohmann::json withPredictions = report;
        withPredictions["predictions"] = predicted;
        writeJsonFile(fs::path(a.out) / "rank-swde.json", withPredictions);
    }
    std::cout << report.dump(2) << std::endl;
}

} // namespace

void registerRankSwdeCommand(CLI::App &app)
{
    auto args = std::make_shared<RankSwdeArgs>();
    CLI::App *cmd = app.add_subcommand("rank-swde",
                                       "SWDE unseen-site protocol with text-node rankers: train on the other sites, score the named one");
    cmd->add_option("--data", args->data, "SWDE folder (groundtruth/ and testset/, or a parent of them)")->required();
    cmd->add_option("--test-site", args->testSite, "the site whose pages are all test (e.g. christianbook)")->required();
    cmd->add_option("--out", args->out, "folder for <field>-ranker.json and rank-swde.json (optional)");
    cmd->add_option("--max-pages-per-site", args->maxPagesPerSite, "only the first N pages of each site (tests)");
    cmd->callback([args] { rankSwdeCommand(*args); });
}

} // namespace folio::cli
