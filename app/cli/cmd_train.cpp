// folio-cli train: trains the word-level layout tagger on FUNSD (the recipe in
// ../shared/recipes/funsd-from-scratch.md), XFUND files, several of these at once (--data A --data B
// [--weight 1 --weight 2]), or a project, and writes a Hugging Face style checkpoint.
#include "app/cli/cmd_train_hf.h"
#include "app/cli/commands.h"
#include "app/cli/ranklauncher.h"
#include "document/project/projectlocation.h"
#include "inference/formtagger/trainer.h"
#include "pipeline/hffinetuning.h"
#include "pipeline/hfpagelabeller.h"
#include "pipeline/markuplmfields.h"
#include "pipeline/projecttraining.h"
#include "pipeline/taggertraining.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>

namespace folio::cli {

namespace {
std::atomic<bool> s_cancel{false};
extern "C" void onSigint(int) { s_cancel = true; }
}

namespace {

// A SROIE folder's import report (receipts read, key fields found on no line) on stderr, from the
// load that read it.
void printSroieSummary(const QString &path, const SroieReport &report)
{
    if (!quiet() && report.receipts > 0)
        std::fprintf(stderr, "%s: %s\n", qPrintable(path), qPrintable(report.summary()));
}

} // namespace

void registerTrainCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("train", "Train the layout token classifier on FUNSD (entity labelling, BIO)");
    struct Opts
    {
        std::vector<std::string> data;
        std::vector<int> weights;
        std::string split = "train-dev", order = "annotation";
        inference::TrainConfig cfg;
        bool ship = false;
        int trainPages = 0, maxPagesPerSite = 0, maxTokens = 0;
        RankOptions ranks;
    };
    auto o = std::make_shared<Opts>();
    cmd->add_option("--out", o->cfg.outputDir, "Checkpoint folder to write")->required();
    cmd->add_option("--data", o->data,
                    "FUNSD dataset root (default ../shared/data/funsd/dataset), an XFUND file (e.g. de.train.json), a SROIE receipts folder "
                    "(box/ + key/: company, date, address, total), or a .folio project "
                    "(its accepted labels and label set). Repeat to train on several sources: the first is the target (its dev split "
                    "picks the best epoch), the others add all their pages");
    cmd->add_option("--weight", o->weights, "Pages of each --data repeated this many times per epoch (one per --data; default 1)")
        ->check(CLI::Range(1, 20));
    cmd->add_option("--arch", o->cfg.architecture, "Structure-bias architecture: layoutlmv3 | layoutlmv2 | ernie | text (recorded in config.json)")
        ->check(CLI::IsMember({"layoutlmv3", "layoutlmv2", "ernie", "text"}));
    cmd->add_option("--order", o->order, "Word order: annotation (the FUNSD protocol), reading (lines, as OCR gives them) or layout (XY-cut serialisation: columns, cells, lines)")
        ->check(CLI::IsMember({"annotation", "reading", "layout"}));
    cmd->add_option("--variant", o->cfg.variant, "full | no-spatial-bias | text");
    cmd->add_option("--tokenizer", o->cfg.tokenizerDir, "Folder with a tokenizer (default: train SentencePiece on the train words)");
    cmd->add_option("--init", o->cfg.initDir,
                    "Start from a pretrained encoder (folio-cli pretrain --out DIR): its sizes, vocabulary and weights; or "
                    "fine-tune a Hugging Face LayoutLMv3 / LiLT / LayoutLMv2 / LayoutXLM folder (config.json + weights + tokenizer), or a MarkupLM "
                    "folder on web pages (--data an SWDE or product benchmark folder), into a Hugging Face "
                    "folder at --out (defaults then: --epochs 3 --batch 2 --lr 5e-5 --weight-decay 0 --warmup 0 --seed 42)");
    cmd->add_option("--vocab-size", o->cfg.vocabSize, "SentencePiece vocabulary size when training one");
    cmd->add_option("--epochs", o->cfg.epochs, "Epochs");
    cmd->add_option("--batch", o->cfg.batchSize, "Pages per batch");
    cmd->add_option("--lr", o->cfg.lr, "Peak learning rate");
    cmd->add_option("--bias-lr-scale", o->cfg.biasLrScale, "Learning-rate factor for the relative-bias tables");
    cmd->add_option("--weight-decay", o->cfg.weightDecay, "AdamW weight decay");
    cmd->add_option("--warmup", o->cfg.warmupFraction, "Warm-up fraction of all steps");
    cmd->add_option("--dropout", o->cfg.dropout, "Dropout");
    cmd->add_option("--hidden", o->cfg.hidden, "Hidden size");
    cmd->add_option("--layers", o->cfg.layers, "Encoder layers");
    cmd->add_option("--heads", o->cfg.heads, "Attention heads");
    cmd->add_option("--intermediate", o->cfg.intermediate, "FFN size");
    cmd->add_option("--patience", o->cfg.patience, "Early stopping after this many epochs without dev improvement (0 = off)");
    cmd->add_option("--ema", o->cfg.emaDecay, "Keep an exponential moving average of the weights with this decay per step (e.g. 0.99) and "
                                              "select, save and ship the average (0 = off)")
        ->check(CLI::Range(0.0, 0.99999));
    cmd->add_option("--train-pages", o->trainPages,
                    "Train on N of FUNSD's training pages (a fixed seeded sample, the same for every --seed; a smaller N's "
                    "pages are among a larger one's; the dev split is unchanged): learning curves over labelled data")
        ->check(CLI::Range(2, 100000));
    cmd->add_option("--max-pages-per-site", o->maxPagesPerSite,
                    "With --init of a MarkupLM folder: only the first K pages of each SWDE site (product benchmark: the first K pages)")
        ->check(CLI::Range(1, 1000000));
    cmd->add_option("--max-tokens", o->maxTokens, "With --init of a Hugging Face folder: window length in tokens, specials included "
                                                  "(default: the model's)")
        ->check(CLI::Range(3, 1000000));
    cmd->add_option("--seed", o->cfg.seed, "Random seed");
    cmd->add_option("--threads", o->cfg.threads, "Torch / BLAS threads");
    cmd->add_option("--max-steps", o->cfg.maxSteps, "Stop after this many steps (smoke tests)");
    cmd->add_flag("--no-jitter", [o](std::int64_t) { o->cfg.jitter = false; }, "Disable box jitter");
    cmd->add_flag("--resume", o->cfg.resume, "Continue from <out>/last");
    cmd->add_flag("--ship", o->ship, "Afterwards store the weights as float16 and drop the resume state");
    addRankOptions(cmd, &o->ranks);
    cmd->add_option("--gradient-shards", o->cfg.gradientShards,
                    "Split each batch into N shards in this process and average their gradients (what --nproc N computes)")
        ->check(CLI::Range(1, 64));
    cmd->callback([o, &app]() {
        if (runLocalRanks(o->ranks))
            return; // the ranks did the work; rank 0 printed the result
        const bool markupLM = !o->cfg.initDir.empty() && pipeline::isMarkupLMFolder(QString::fromStdString(o->cfg.initDir));
        if (!markupLM && !o->cfg.initDir.empty() && !pipeline::isHfFineTunableFolder(QString::fromStdString(o->cfg.initDir))) {
            // A Hugging Face model type without fine-tuning yet is named, not read as a pretrain encoder.
            const QString type = pipeline::checkpointModelType(QString::fromStdString(o->cfg.initDir));
            if (!type.isEmpty() && type != QLatin1String("folio-formtagger"))
                throw CliError("--init " + o->cfg.initDir + ": config.json's model_type \"" + type.toStdString()
                               + "\" cannot be fine-tuned yet (layoutlmv3, lilt and layoutlmv2 / LayoutXLM can on pages, markuplm on web pages; a folio-cli pretrain folder starts the tagger)");
        }
        if (markupLM || (!o->cfg.initDir.empty() && pipeline::isHfFineTunableFolder(QString::fromStdString(o->cfg.initDir)))) {
            // A Hugging Face token classifier: the Trainer's fine-tuning (cmd_train_hf.cpp, issue 46).
            const CLI::App *train = app.get_subcommand("train");
            auto given = [train](const char *name) { return train->get_option(name)->count() > 0; };
            HfTrainRequest rq;
            rq.initDir = o->cfg.initDir;
            rq.outDir = o->cfg.outputDir;
            rq.data = o->data;
            rq.order = o->order;
            rq.epochs = given("--epochs") ? o->cfg.epochs : 3;
            rq.batch = given("--batch") ? o->cfg.batchSize : 2;
            rq.lr = given("--lr") ? o->cfg.lr : 5e-5;
            rq.weightDecay = given("--weight-decay") ? o->cfg.weightDecay : 0.0;
            rq.warmup = given("--warmup") ? o->cfg.warmupFraction : 0.0;
            rq.seed = given("--seed") ? o->cfg.seed : 42;
            rq.threads = o->cfg.threads;
            rq.maxSteps = o->cfg.maxSteps;
            rq.trainPages = o->trainPages;
            rq.resume = o->cfg.resume;
            rq.distributed = o->ranks.distributed;
            rq.gradientShards = o->cfg.gradientShards;
            rq.command = "folio-cli train";
            for (const auto *opt : train->get_options())
                if (opt->count() > 0 && opt->get_name() != "--help") {
                    if (opt->get_expected_min() == 0) {
                        rq.command += " " + opt->get_name();
                        continue;
                    }
                    for (const std::string &value : opt->as<std::vector<std::string>>())
                        rq.command += " " + opt->get_name() + " " + value;
                }
            rq.maxPagesPerSite = o->maxPagesPerSite;
            rq.maxTokens = o->maxTokens;
            if (markupLM) {
                runMarkupLMFineTune(rq); // web pages' text nodes (cmd_train_markuplm.cpp)
                return;
            }
            if (o->maxPagesPerSite > 0)
                throw CliError("--max-pages-per-site applies to MarkupLM on web data");
            runHfFineTune(rq);
            return;
        }
        o->cfg.distributed = o->ranks.distributed;
        const QString dataDir = o->data.empty() ? pipeline::defaultFunsdDir() : QString::fromStdString(o->data.front());
        if (!o->weights.empty() && o->weights.size() != std::max<std::size_t>(1, o->data.size()))
            throw CliError("--weight: give one per --data (" + std::to_string(o->data.size()) + "), not " + std::to_string(o->weights.size()));
        auto weightOf = [&](std::size_t k) { return o->weights.empty() ? 1 : o->weights[k]; };
        FunsdWordOrder order = FunsdWordOrder::Annotation;
        pipeline::funsdWordOrderFromName(QString::fromStdString(o->order), &order);
        std::vector<inference::TaggerPage> train, dev;
        QString error;
        for (std::size_t k = 1; k < o->data.size(); ++k)
            if (looksLikeProjectLocation(QString::fromStdString(o->data[k])) || looksLikeProjectLocation(dataDir))
                throw CliError("--data " + o->data[k] + ": a project trains on its own (one --data); several sources are FUNSD roots or XFUND files");
        if (looksLikeProjectLocation(dataDir)) {
            if (o->trainPages > 0)
                throw CliError("--train-pages applies to FUNSD data, not to a project");
            int documents = 0;
            inference::TrainConfig cfg = o->cfg;
            // A project's words keep their stored order (OCR's reading order) unless --order layout.
            const bool layout = o->order == "layout";
            cfg.wordOrder = layout ? "layout" : "";
            if (!pipeline::loadProjectTrainingData(dataDir, &train, &cfg.labels, &documents, &error, layout))
                throw CliError(error.toStdString());
            cfg.dataDescription = std::to_string(documents) + " documents of project " + dataDir.toStdString();
            cfg.command = "folio-cli train --data " + dataDir.toStdString();
            s_cancel = false;
            auto previous = std::signal(SIGINT, onSigint);
            const pipeline::TaggerTrainOutcome r = pipeline::trainTaggerOnPages(cfg, train, {}, &s_cancel);
            std::signal(SIGINT, previous);
            if (r.cancelled)
                throw CliError("training cancelled", ExitCancelled);
            if (!r.ok)
                throw CliError(r.error.toStdString());
            std::cout << nlohmann::json{{"checkpoint", cfg.outputDir}, {"best_epoch", r.bestEpoch}, {"best_dev_f1", r.bestDevF1},
                                        {"seconds", r.seconds}, {"pages", train.size()}, {"labels", cfg.labels}}
                             .dump(2)
                      << std::endl;
            return;
        }
        // The first --data is the target: its dev split picks the best epoch. Further sources add
        // all their pages to training, each page `--weight` times.
        XfundReport report;
        SroieReport sroieReport;
        if (!pipeline::loadFunsdSplit(dataDir, QStringLiteral("train-dev"), order, &train, &error, &report, &sroieReport)
            || !pipeline::loadFunsdSplit(dataDir, QStringLiteral("dev"), order, &dev, &error))
            throw CliError(error.toStdString());
        if (report.documents > 0 && !quiet())
            std::fprintf(stderr, "%s: %s\n", qPrintable(dataDir), qPrintable(report.summary()));
        printSroieSummary(dataDir, sroieReport);
        const size_t trainAvailable = train.size();
        if (o->trainPages > 0) {
            if (size_t(o->trainPages) > trainAvailable)
                throw CliError("--train-pages " + std::to_string(o->trainPages) + ": the training split has only " +
                               std::to_string(trainAvailable) + " pages");
            train = inference::nestedSample(std::move(train), o->trainPages);
        }
        const std::size_t targetPages = train.size();
        std::vector<inference::TaggerPage> targetTrain;
        for (int r = 0; r < weightOf(0); ++r)
            targetTrain.insert(targetTrain.end(), train.begin(), train.end());
        train = std::move(targetTrain);
        QStringList licences{pipeline::formSourceLicence(dataDir)};
        std::string more;
        for (std::size_t k = 1; k < o->data.size(); ++k) {
            const QString path = QString::fromStdString(o->data[k]);
            std::vector<inference::TaggerPage> extra;
            XfundReport extraReport;
            SroieReport extraSroieReport;
            if (!pipeline::loadFunsdSplit(path, QStringLiteral("train"), order, &extra, &error, &extraReport, &extraSroieReport))
                throw CliError(error.toStdString());
            if (extraReport.documents > 0 && !quiet())
                std::fprintf(stderr, "%s: %s\n", qPrintable(path), qPrintable(extraReport.summary()));
            printSroieSummary(path, extraSroieReport);
            for (int r = 0; r < weightOf(k); ++r)
                train.insert(train.end(), extra.begin(), extra.end());
            more += "; + " + o->data[k] + " (" + std::to_string(extra.size()) + " pages, all" +
                    (weightOf(k) > 1 ? ", weight " + std::to_string(weightOf(k)) : std::string()) + ")";
            if (!licences.contains(pipeline::formSourceLicence(path)))
                licences << pipeline::formSourceLicence(path);
        }
        inference::TrainConfig cfg = o->cfg;
        cfg.wordOrder = o->order;
        // The label sets of all sources, in order (FUNSD and XFUND share one; SROIE has its own).
        cfg.labels.clear();
        for (const std::string &source : o->data.empty() ? std::vector<std::string>{dataDir.toStdString()} : o->data)
            for (const std::string &tag : pipeline::formSourceTags(QString::fromStdString(source)))
                if (std::find(cfg.labels.begin(), cfg.labels.end(), tag) == cfg.labels.end())
                    cfg.labels.push_back(tag);
        cfg.dataDescription = dataDir.toStdString() + ": its training pages minus the seed-13 dev split (" +
                              (o->trainPages > 0 ? std::to_string(targetPages) + " of " + std::to_string(trainAvailable) + " (sampled)"
                                                 : std::to_string(targetPages)) +
                              " train" + (weightOf(0) > 1 ? ", weight " + std::to_string(weightOf(0)) : std::string()) + " / " +
                              std::to_string(dev.size()) + " dev pages)" + more + ", word order " + o->order +
                              "; data licences: " + licences.join(QLatin1String("; ")).toStdString();
        std::string command = "folio-cli";
        for (const std::string &a : {std::string("train")})
            command += " " + a;
        const auto args = app.get_subcommand("train")->get_options();
        for (const auto *opt : args)
            if (opt->count() > 0 && opt->get_name() != "--help") {
                if (opt->get_expected_min() == 0) {
                    command += " " + opt->get_name();
                    continue;
                }
                for (const std::string &value : opt->as<std::vector<std::string>>())
                    command += " " + opt->get_name() + " " + value;
            }
        cfg.command = command;
        s_cancel = false;
        auto previous = std::signal(SIGINT, onSigint);
        const inference::TrainResult r = inference::train(cfg, train, dev, [](const inference::TrainProgress &p) {
            if (quiet())
                return;
            if (!p.message.empty()) {
                std::fprintf(stderr, "%s\n", p.message.c_str());
            } else if (p.step % 10 == 0) {
                std::fprintf(stderr, "step %ld/%ld  epoch %d  loss %.4f  %.0f words/s  ETA %.0f s\n", p.step, p.totalSteps,
                             p.epoch, p.loss, p.tokensPerSecond, p.etaSeconds);
            }
            std::fflush(stderr);
        }, &s_cancel);
        std::signal(SIGINT, previous);
        if (r.cancelled)
            throw CliError("training cancelled; resume with --resume", ExitCancelled);
        if (!r.ok)
            throw CliError(r.error);
        std::string err;
        if (o->ship && !inference::compactCheckpoint(cfg.outputDir, &err))
            throw CliError(err);
        nlohmann::json j{{"checkpoint", cfg.outputDir}, {"best_epoch", r.bestEpoch}, {"best_dev_f1", r.bestDevF1},
                         {"seconds", r.seconds}, {"steps", r.steps}, {"train_words_per_second", r.tokensPerSecond},
                         {"train_pieces_per_second", r.piecesPerSecond}, {"final_loss", r.finalLoss}};
        std::cout << j.dump(2) << std::endl;
    });
}

} // namespace folio::cli
