// folio-cli rank-swde: SWDE with text-node rankers (document/structured/textnodecandidates.h +
// candidateranker.h) instead of WebFormer, in either of train-webformer's splits:
//   folio-cli rank-swde --data DIR --test-site SITE [--out DIR]       unseen site: every page of SITE
//       is test; the other sites' pages train one ranker per field (train-webformer --test-sites'
//       train and dev pages together, since the ranker has no epochs to choose);
//   folio-cli rank-swde --data DIR [--train-pages-per-site K] [--out DIR]   seen sites: the per-site
//       split of train-webformer (first 60 % of each site's pages train, last 30 % test; the dev 10 %
//       unused), the first K training pages of each site (all when 0; --draw-seed S: K drawn at random)
//       training one ranker per field. The ranker always answers (no threshold: an inner cross-validation within one site
// would choose it on that site's layout). Prints page-level P/R/F1 per field and macro-averaged,
// scored by the rule of train-webformer (inference/webformereval.h); --out also writes
// <field>-ranker.json files and rank-swde.json (scores, predictions, the command). --l2 sets the
// rankers' L2 penalty (RankerOptions::l2); --site-texts gives every candidate the share of its
// site's other pages with the same text (sitetexts.h).
#include "app/cli/commands.h"

#include "document/html/htmlloader.h"
#include "document/structured/candidateranker.h"
#include "document/structured/fieldrankers.h"
#include "document/structured/textnodecandidates.h"
#include "inference/webformer/webformereval.h"
#include "pipeline/modelinputs/webpages.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>

namespace folio::cli {

namespace {

namespace fs = std::filesystem;

struct RankSwdeArgs
{
    std::string data, testSite, out;
    int maxPagesPerSite = 0;
    int trainPagesPerSite = 0; // seen-site split only: K training pages of each site (0: all)
    unsigned drawSeed = 0;     // 0: the first K; else K drawn at random (std::mt19937 with this seed)
    double l2 = structured::RankerOptions().l2;
    bool siteTexts = false; // candidates get the share of their site's other pages with the same text
};

// The site of a page id "<site>/<page>".
std::string siteOf(const std::string &pageId)
{
    return pageId.substr(0, pageId.find('/'));
}

// `k` pages of each site (ids "<site>/<page>"): the first ones in split order, or with a seed a
// random draw (the site's pages shuffled, then the first k); all when k <= 0.
std::vector<inference::WebPage> pagesPerSite(std::vector<inference::WebPage> pages, int k, unsigned seed)
{
    if (k <= 0)
        return pages;
    if (seed != 0) {
        std::mt19937 rng(seed);
        std::shuffle(pages.begin(), pages.end(), rng);
    }
    std::map<std::string, int> taken;
    std::vector<inference::WebPage> out;
    for (const auto &p : pages)
        if (taken[siteOf(p.id)]++ < k)
            out.push_back(p);
    return out;
}

struct SwdePage
{
    inference::WebPage page; // id, gold
    Document doc;
    const structured::SiteTexts *site = nullptr; // its site's pages (--site-texts)
};

// Each page's site texts: every page of the same set and site (training pages among themselves,
// test pages among themselves: unlabelled pages, as an extractor has them).
void attachSiteTexts(std::vector<SwdePage> *pages, std::map<std::string, structured::SiteTexts> *sites)
{
    for (const SwdePage &p : *pages)
        (*sites)[siteOf(p.page.id)].addPage(p.doc);
    for (SwdePage &p : *pages)
        p.site = &sites->at(siteOf(p.page.id));
}

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
    if (!a.testSite.empty() && (a.trainPagesPerSite > 0 || a.drawSeed != 0))
        throw CliError("rank-swde: --train-pages-per-site and --draw-seed are for the seen-site split (without --test-site)", ExitUsage);
    pipeline::SwdeSplit split;
    try {
        split = pipeline::loadSwdeSplit(a.data, a.maxPagesPerSite,
                                         a.testSite.empty() ? std::vector<std::string>() : std::vector<std::string>{a.testSite});
    } catch (const std::exception &e) {
        throw CliError(e.what());
    }
    std::vector<inference::WebPage> trainPages = pagesPerSite(split.train, a.trainPagesPerSite, a.drawSeed);
    if (!a.testSite.empty())
        trainPages.insert(trainPages.end(), split.dev.begin(), split.dev.end());
    int done = 0;
    const int total = int(trainPages.size() + split.test.size());
    std::vector<SwdePage> train = documents(trainPages, &done, total);
    std::vector<SwdePage> test = documents(split.test, &done, total);
    std::map<std::string, structured::SiteTexts> trainSites, testSites;
    if (a.siteTexts) {
        attachSiteTexts(&train, &trainSites);
        attachSiteTexts(&test, &testSites);
    }
    structured::RankerOptions options;
    options.innerFolds = 0;
    options.l2 = a.l2;
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
            rows.push_back(rankerPage(structured::findTextNodeCandidates(p.doc, field, p.site),
                                      it == p.page.gold.end() ? std::vector<std::string>() : it->second, p.page.id));
            withGold += std::find(rows.back().gold.begin(), rows.back().gold.end(), 1) != rows.back().gold.end() ? 1 : 0;
        }
        const auto ranker = structured::CandidateRanker::train(field, structured::textNodeFeatureNames(), rows, options);
        for (const SwdePage &p : test) {
            const auto it = p.page.gold.find(field);
            gold[p.page.id][field] = it == p.page.gold.end() ? std::vector<std::string>() : it->second;
            if (const auto best = structured::rankCandidates(ranker, structured::findTextNodeCandidates(p.doc, field, p.site)))
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
    nlohmann::json report{{"split", a.testSite.empty() ? "seen sites (per-site 60 / 10 / 30 %)" : "unseen site"},
                          {"draw_seed", a.drawSeed},
                          {"l2", a.l2},
                          {"site_texts", a.siteTexts},
                          {"test_site", a.testSite},
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
                                       "SWDE with text-node rankers: the unseen-site protocol (--test-site) or each site's own test pages");
    cmd->add_option("--data", args->data, "SWDE folder (groundtruth/ and testset/, or a parent of them)")->required();
    cmd->add_option("--test-site", args->testSite,
                    "the site whose pages are all test (e.g. christianbook); without it, every site's last 30 % is test");
    cmd->add_option("--train-pages-per-site", args->trainPagesPerSite,
                    "without --test-site: train on the first K training pages of each site (0: all)");
    cmd->add_option("--draw-seed", args->drawSeed, "with --train-pages-per-site: draw the K pages at random with this seed (0: the first K)");
    cmd->add_option("--l2", args->l2,
                    "the rankers' L2 penalty (default 1e-4; bench_single_source chose 1 for sites not trained on)")
        ->check(CLI::Range(0.0, 1e6));
    cmd->add_flag("--site-texts", args->siteTexts,
                  "give candidates the share of their site's other pages holding the same text (training and test pages each "
                  "among their own)");
    cmd->add_option("--out", args->out, "folder for <field>-ranker.json and rank-swde.json (optional)");
    cmd->add_option("--max-pages-per-site", args->maxPagesPerSite, "only the first N pages of each site (tests)");
    cmd->callback([args] { rankSwdeCommand(*args); });
}

} // namespace folio::cli
