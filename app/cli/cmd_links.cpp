// folio-cli train-links: the key -> value link head on a tagger checkpoint's frozen encoder
// (inference/formtagger/linking.h), trained on FUNSD's links; and the link scores `eval --links`
// prints: given gold entities, and end to end from the tagger's own entities, with the head's
// cost per page against the tagger alone.
//   folio-cli train-links --checkpoint DIR [--data FUNSD] [--order reading] [--out DIR] [--epochs 30]
#include "app/cli/commands.h"
#include "app/cli/linkscore.h"

#include "inference/formtagger/linking.h"
#include "inference/models/modelrunner.h"
#include "pipeline/linkdata.h"
#include "pipeline/taggertraining.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>

namespace folio::cli {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

nlohmann::json scoreJson(const inference::LinkScore &s)
{
    return {{"precision", s.precision()}, {"recall", s.recall()}, {"f1", s.f1()}, {"tp", s.tp}, {"fp", s.fp}, {"fn", s.fn}};
}

std::vector<inference::LinkPage> loadPages(const QString &dataDir, const std::string &split, const std::string &order)
{
    FunsdWordOrder o = FunsdWordOrder::Annotation;
    pipeline::funsdWordOrderFromName(QString::fromStdString(order), &o);
    std::vector<inference::LinkPage> pages;
    QString error;
    if (!pipeline::loadFunsdLinkPages(dataDir, QString::fromStdString(split), o, &pages, &error))
        throw CliError(error.toStdString());
    return pages;
}

} // namespace

nlohmann::json evaluateLinks(const std::string &checkpoint, const QString &dataDir, const std::string &split,
                             const std::string &order)
{
    const std::vector<inference::LinkPage> pages = loadPages(dataDir, split, order);
    inference::LinkPredictor links;
    inference::Predictor tagger;
    std::string error;
    if (!links.load(checkpoint, &error) || !tagger.load(checkpoint, &error))
        throw CliError(error);
    if (!links.hasHead())
        throw CliError(checkpoint + ": the checkpoint has no link head (link_head.json); train one with folio-cli train-links");
    inference::LinkScore gold, endToEnd;
    double taggerSeconds = 0, linkSeconds = 0, ownPassSeconds = 0;
    int differingPages = 0;
    for (const inference::LinkPage &page : pages) {
        std::vector<inference::PredictedLink> predicted;
        if (!links.predict(page.page, page.entities, &predicted, &error))
            throw CliError(error);
        inference::scoreLinks(page, page.entities, predicted, &gold);

        // End to end as Suggest Labels does it: the tagger keeps its encoder states, the link head reads them.
        auto t0 = std::chrono::steady_clock::now();
        inference::PagePrediction prediction;
        inference::WordStates states;
        if (!tagger.predict(page.page, &prediction, &error, true, nullptr, nullptr, &states))
            throw CliError(error);
        taggerSeconds += secondsSince(t0);
        const std::vector<inference::LinkEntity> entities = inference::linkEntities(prediction.entities);
        t0 = std::chrono::steady_clock::now();
        if (!links.predict(page.page, states, entities, &predicted, &error))
            throw CliError(error);
        linkSeconds += secondsSince(t0);
        inference::scoreLinks(page, entities, predicted, &endToEnd);
        // The head running the encoder itself must propose the same links.
        std::vector<inference::PredictedLink> ownPass;
        t0 = std::chrono::steady_clock::now();
        if (!links.predict(page.page, entities, &ownPass, &error))
            throw CliError(error);
        ownPassSeconds += secondsSince(t0);
        const bool same = ownPass.size() == predicted.size() &&
                          std::equal(ownPass.begin(), ownPass.end(), predicted.begin(), [](const auto &a, const auto &b) {
                              return a.from == b.from && a.to == b.to && std::abs(a.confidence - b.confidence) < 1e-5;
                          });
        differingPages += same ? 0 : 1;
    }
    const double n = double(std::max<size_t>(1, pages.size()));
    return {{"split", split},
            {"pages", pages.size()},
            {"gold_entities", scoreJson(gold)},
            {"end_to_end", scoreJson(endToEnd)},
            {"tagger_ms_per_page", 1000.0 * taggerSeconds / n},
            {"link_head_ms_per_page", 1000.0 * linkSeconds / n},
            {"link_head_own_encoder_pass_ms_per_page", 1000.0 * ownPassSeconds / n},
            {"pages_where_shared_and_own_pass_links_differ", differingPages},
            {"note", "a link counts when its (from, to) equals a gold link; end to end, both ends must equal gold "
                     "entities (type and words); the link head reads the tagger's encoder states (one encoder pass a page)"}};
}

void registerTrainLinksCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("train-links", "Train the key -> value link head of a tagger checkpoint on FUNSD's links");
    struct Opts
    {
        inference::LinkTrainConfig cfg;
        std::string data, order = "reading";
    };
    auto o = std::make_shared<Opts>();
    cmd->add_option("--checkpoint", o->cfg.checkpointDir, "Tagger checkpoint folder (its encoder is used, frozen)")->required();
    cmd->add_option("--out", o->cfg.outputDir, "Where link_head.json / .safetensors go (default: the checkpoint folder)");
    cmd->add_option("--data", o->data, "FUNSD dataset root (default ../shared/data/funsd/dataset)");
    cmd->add_option("--order", o->order, "Word order the tagger was trained with: annotation, reading or layout")
        ->check(CLI::IsMember({"annotation", "reading", "layout"}));
    cmd->add_option("--epochs", o->cfg.epochs, "Epochs")->capture_default_str();
    cmd->add_option("--hidden", o->cfg.hidden, "Hidden size of the pair MLP")->capture_default_str();
    cmd->add_option("--lr", o->cfg.lr, "Learning rate")->capture_default_str();
    cmd->add_option("--seed", o->cfg.seed, "Random seed")->capture_default_str();
    cmd->add_option("--threads", o->cfg.threads, "Torch / BLAS threads")->capture_default_str();
    cmd->callback([o]() {
        const QString dataDir = o->data.empty() ? pipeline::defaultFunsdDir() : QString::fromStdString(o->data);
        const std::vector<inference::LinkPage> train = loadPages(dataDir, "train-dev", o->order);
        const std::vector<inference::LinkPage> dev = loadPages(dataDir, "dev", o->order);
        inference::LinkTrainConfig cfg = o->cfg;
        cfg.command = "folio-cli train-links --checkpoint " + cfg.checkpointDir + " --order " + o->order;
        cfg.dataDescription = "FUNSD " + dataDir.toStdString() + ": training_data minus the seed-13 dev split (" +
                              std::to_string(train.size()) + " / " + std::to_string(dev.size()) + " pages), word order " +
                              o->order;
        const inference::LinkTrainResult r = inference::trainLinkHead(cfg, train, dev, [](const inference::LinkTrainProgress &p) {
            if (!quiet())
                std::cerr << "train-links: epoch " << p.epoch << "/" << p.epochs << ": loss " << p.loss << ", dev link F1 "
                          << p.devF1 << "\n";
        }); // Ctrl-C ends the command at once (exit 3); the head is written only at the end
        if (!r.ok)
            throw CliError(r.error);
        const std::string out = cfg.outputDir.empty() ? cfg.checkpointDir : cfg.outputDir;
        nlohmann::json j{{"link_head", out}, {"best_epoch", r.bestEpoch}, {"best_dev_link_f1", r.bestDevF1}, {"threshold", r.threshold},
                         {"seconds", r.seconds}, {"train_pages", train.size()}, {"dev_pages", dev.size()}};
        std::cout << j.dump(2) << std::endl;
    });
}

} // namespace folio::cli
