// folio-cli eval: entity precision / recall / F1 per class (seqeval semantics) of a checkpoint
// on a FUNSD split.
#include "app/cli/commands.h"
#include "app/cli/linkscore.h"
#include "inference/formtagger/predictor.h"
#include "inference/models/modelrunner.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "pipeline/receiptfields.h"
#include "pipeline/taggertraining.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <iostream>

namespace folio::cli {

namespace {

nlohmann::json countsJson(const pipeline::FieldCounts &c)
{
    return {{"precision", c.precision()}, {"recall", c.recall()}, {"f1", c.f1()},
            {"predicted", c.predicted}, {"gold", c.gold}, {"correct", c.correct}};
}

// SROIE task 3 on a split: the model's fields against the key files, and beside them the ceiling
// of the labelling itself (the fields read off the gold entities the import placed).
nlohmann::json receiptFieldScores(const inference::Predictor &pred, const QString &folder, const std::string &split, bool viterbi)
{
    std::vector<SroieReceipt> receipts;
    QString error;
    if (!pipeline::loadSroieSplit(folder, QString::fromStdString(split), &receipts, &error))
        throw CliError(error.toStdString());
    pipeline::ReceiptFieldScores model, ceiling;
    for (const SroieReceipt &r : receipts) {
        const inference::TaggerPage page = pipeline::taggerPageFromDocument(r.document, nullptr, r.id.toStdString());
        inference::PagePrediction prediction;
        std::string err;
        if (!pred.predict(page, &prediction, &err, viterbi))
            throw CliError(r.id.toStdString() + ": " + err);
        model.add(pipeline::receiptFieldsFromPrediction(page, prediction), r.keys);
        QMap<QString, QString> gold;
        for (const QString &label : sroieLabels())
            gold.insert(sroieKeyOfLabel(label), sroieFieldText(r.document, r.annotations, label));
        ceiling.add(gold, r.keys);
    }
    nlohmann::json j = countsJson(model.all);
    for (auto it = model.byField.cbegin(); it != model.byField.cend(); ++it)
        j["by_field"][it.key().toStdString()] = countsJson(it.value());
    j["labelling_ceiling"] = countsJson(ceiling.all);
    j["receipts"] = receipts.size();
    j["metric"] = "SROIE task 3: a field is right when its text equals the key file's (white-space runs as one space)";
    return j;
}

} // namespace

void registerEvalCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("eval", "Entity P/R/F1 per class of a checkpoint on a FUNSD split");
    struct Opts
    {
        std::string checkpoint, data, split = "test", order = "annotation";
        bool argmax = false, links = false, int8 = false;
        int threads = 2;
    };
    auto o = std::make_shared<Opts>();
    cmd->add_option("--checkpoint", o->checkpoint, "Checkpoint folder")->required();
    cmd->add_option("--data", o->data, "FUNSD dataset root (default ../shared/data/funsd/dataset), an XFUND file (its whole file for "
                                     "--split test or train) or a SROIE receipts folder (also scores the key fields, task 3)");
    cmd->add_option("--split", o->split, "test | dev | train-dev | train")->check(CLI::IsMember({"test", "dev", "train-dev", "train"}));
    cmd->add_option("--order", o->order, "Word order: annotation, reading or layout (XY-cut serialisation)")->check(CLI::IsMember({"annotation", "reading", "layout"}));
    cmd->add_option("--threads", o->threads, "Torch / BLAS threads");
    cmd->add_flag("--argmax", o->argmax, "Argmax decoding instead of constrained Viterbi");
    cmd->add_flag("--int8", o->int8, "Dynamic int8 quantization of the tagger's Linear layers (fbgemm, else oneDNN / QNNPACK; "
                                      "BENCHMARKS.md, issue 35: its speed and F1 against float32)");
    cmd->add_flag("--links", o->links, "Also score the checkpoint's key -> value link head (given gold entities and end to end)");
    cmd->callback([o]() {
        const QString dataDir = o->data.empty() ? pipeline::defaultFunsdDir() : QString::fromStdString(o->data);
        FunsdWordOrder order = FunsdWordOrder::Annotation;
        pipeline::funsdWordOrderFromName(QString::fromStdString(o->order), &order);
        std::vector<inference::TaggerPage> pages;
        QString error;
        if (!pipeline::loadFunsdSplit(dataDir, QString::fromStdString(o->split), order, &pages, &error))
            throw CliError(error.toStdString());
        inference::configureThreads(o->threads);
        inference::Predictor pred;
        std::string err;
        if (!pred.load(o->checkpoint, &err))
            throw CliError(err);
        if (o->int8 && !pred.quantizeDynamicInt8(&err))
            throw CliError("--int8: " + err);
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
        j["int8"] = o->int8 ? nlohmann::json(inference::Predictor::int8Engine()) : nlohmann::json(false);
        j["seconds"] = s;
        j["pages_per_second"] = s > 0 ? double(pages.size()) / s : 0;
        if (o->links)
            j["links"] = evaluateLinks(o->checkpoint, dataDir, o->split, o->order);
        if (isSroieFolder(dataDir))
            j["fields"] = receiptFieldScores(pred, dataDir, o->split, !o->argmax);
        std::cout << j.dump(2) << std::endl;
    });
}

} // namespace folio::cli
