// folio-cli eval: entity precision / recall / F1 per class (seqeval semantics) of a checkpoint
// on a FUNSD split.
#include "app/cli/commands.h"
#include "app/cli/linkscore.h"
#include "inference/models/modelrunner.h"
#include "inference/formtagger/trainer.h"
#include "pipeline/taggertraining.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <iostream>

namespace folio::cli {

void registerEvalCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("eval", "Entity P/R/F1 per class of a checkpoint on a FUNSD split");
    struct Opts
    {
        std::string checkpoint, data, split = "test", order = "annotation";
        bool argmax = false, links = false;
        int threads = 2;
    };
    auto o = std::make_shared<Opts>();
    cmd->add_option("--checkpoint", o->checkpoint, "Checkpoint folder")->required();
    cmd->add_option("--data", o->data, "FUNSD dataset root (default ../shared/data/funsd/dataset) or an XFUND file (its whole file for "
                                     "--split test or train)");
    cmd->add_option("--split", o->split, "test | dev | train-dev | train")->check(CLI::IsMember({"test", "dev", "train-dev", "train"}));
    cmd->add_option("--order", o->order, "Word order: annotation, reading or layout (XY-cut serialisation)")->check(CLI::IsMember({"annotation", "reading", "layout"}));
    cmd->add_option("--threads", o->threads, "Torch / BLAS threads");
    cmd->add_flag("--argmax", o->argmax, "Argmax decoding instead of constrained Viterbi");
    cmd->add_flag("--links", o->links, "Also score the checkpoint's key -> value link head (given gold entities and end to end)");
    cmd->callback([o]() {
        const QString dataDir = o->data.empty() ? pipeline::defaultFunsdDir() : QString::fromStdString(o->data);
        FunsdWordOrder order = FunsdWordOrder::Annotation;
        pipeline::funsdWordOrderFromName(QString::fromStdString(o->order), &order);
        std::vector<inference::TrainPage> pages;
        QString error;
        if (!pipeline::loadFunsdSplit(dataDir, QString::fromStdString(o->split), order, &pages, &error))
            throw CliError(error.toStdString());
        inference::configureThreads(o->threads);
        inference::Predictor pred;
        std::string err;
        if (!pred.load(o->checkpoint, &err))
            throw CliError(err);
        const auto t0 = std::chrono::steady_clock::now();
        std::string json;
        if (!pred.evaluate(pages, &json, &err, !o->argmax))
            throw CliError(err);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        nlohmann::json j = nlohmann::json::parse(json);
        j["split"] = o->split;
        j["pages"] = pages.size();
        j["decode"] = o->argmax ? "argmax" : "viterbi";
        j["variant"] = pred.variant();
        j["seconds"] = s;
        j["pages_per_second"] = s > 0 ? double(pages.size()) / s : 0;
        if (o->links)
            j["links"] = evaluateLinks(o->checkpoint, dataDir, o->split, o->order);
        std::cout << j.dump(2) << std::endl;
    });
}

} // namespace folio::cli
