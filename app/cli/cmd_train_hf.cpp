// folio-cli train --init HFDIR: a Hugging Face LayoutLMv3 / LiLT / LayoutLMv2 (LayoutXLM) token classifier fine-tuned on
// FUNSD, XFUND, SROIE or a project's accepted labels, written back as a Hugging Face folder
// (pipeline/hffinetuning.h).
#include "app/cli/cmd_train_hf.h"

#include "app/cli/commands.h"
#include "document/project/projectlocation.h"
#include "inference/formtagger/trainer.h"
#include "inference/models/modelrunner.h"
#include "pipeline/hffinetuning.h"
#include "pipeline/projecttraining.h"
#include "pipeline/taggertraining.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iostream>

namespace folio::cli {

namespace {

std::vector<pipeline::HfTrainPage> withImages(std::vector<inference::TaggerPage> pages, const QString &source)
{
    const bool funsd = QFileInfo(source).isDir() && QDir(source + QStringLiteral("/training_data/images")).exists();
    std::vector<pipeline::HfTrainPage> out;
    for (inference::TaggerPage &p : pages) {
        pipeline::HfTrainPage h;
        h.imagePath = funsd ? pipeline::funsdPageImage(source, p.id) : QString();
        h.page = std::move(p);
        out.push_back(std::move(h));
    }
    return out;
}

} // namespace

pipeline::HfFineTuneConfig hfFineTuneConfig(const HfTrainRequest &rq)
{
    pipeline::HfFineTuneConfig cfg;
    cfg.initDir = inputPath(rq.initDir);
    cfg.outDir = inputPath(rq.outDir);
    if (QDir(cfg.outDir).absolutePath() == QDir(cfg.initDir).absolutePath())
        throw CliError("--out " + rq.outDir + ": the folder --init reads from; write the fine-tuned model to another folder");
    cfg.epochs = rq.epochs;
    cfg.batchSize = rq.batch;
    cfg.lr = rq.lr;
    cfg.weightDecay = rq.weightDecay;
    cfg.warmupRatio = rq.warmup;
    cfg.maxSteps = rq.maxSteps;
    cfg.seed = rq.seed;
    cfg.resume = rq.resume;
    cfg.maxTokens = rq.maxTokens;
    cfg.distributed = rq.distributed;
    cfg.gradientShards = rq.gradientShards;
    cfg.command = rq.command;
    return cfg;
}

void runHfFineTune(const HfTrainRequest &rq)
{
    inference::configureThreads(rq.threads);
    const QString target = rq.data.empty() ? pipeline::defaultFunsdDir() : inputPath(rq.data.front());
    pipeline::HfFineTuneConfig cfg = hfFineTuneConfig(rq);

    std::vector<inference::TaggerPage> train, dev;
    QString error;
    std::string description;
    QStringList licences;
    if (looksLikeProjectLocation(target)) {
        if (rq.data.size() > 1)
            throw CliError("--data " + rq.data[1] + ": a project trains on its own (one --data)");
        if (rq.trainPages > 0)
            throw CliError("--train-pages applies to FUNSD data, not to a project");
        std::vector<inference::TaggerPage> pages;
        int documents = 0;
        if (!pipeline::loadProjectTrainingData(target, &pages, &cfg.labels, &documents, &error, rq.order == "layout"))
            throw CliError(error.toStdString());
        if (pages.size() < 2)
            throw CliError(target.toStdString() + ": fine-tuning needs at least 2 labelled pages (one for dev), found "
                           + std::to_string(pages.size()));
        inference::splitTrainDev(pages, &train, &dev, 13, std::max(1, int(pages.size()) * 15 / 100));
        description = std::to_string(documents) + " documents of project " + target.toStdString() + " (" + std::to_string(train.size())
                      + " train / " + std::to_string(dev.size()) + " dev pages, seed-13 split of its accepted labels)";
        licences << QStringLiteral("the project's own documents");
    } else {
        FunsdWordOrder order = FunsdWordOrder::Annotation;
        pipeline::funsdWordOrderFromName(QString::fromStdString(rq.order), &order);
        if (!pipeline::loadFunsdSplit(target, QStringLiteral("train-dev"), order, &train, &error)
            || !pipeline::loadFunsdSplit(target, QStringLiteral("dev"), order, &dev, &error))
            throw CliError(error.toStdString());
        if (rq.trainPages > 0) {
            if (std::size_t(rq.trainPages) > train.size())
                throw CliError("--train-pages " + std::to_string(rq.trainPages) + ": the training split has only "
                               + std::to_string(train.size()) + " pages");
            train = inference::nestedSample(std::move(train), rq.trainPages);
        }
        for (const std::string &tag : pipeline::formSourceTags(target))
            cfg.labels.push_back(tag);
        description = target.toStdString() + ": " + std::to_string(train.size()) + " train pages (its training split minus the seed-13 dev split"
                      + (rq.trainPages > 0 ? ", sampled" : "") + ") / " + std::to_string(dev.size()) + " dev pages, word order " + rq.order;
        licences << pipeline::formSourceLicence(target);
    }
    std::vector<pipeline::HfTrainPage> trainPages = withImages(std::move(train), target);
    for (std::size_t k = 1; k < rq.data.size(); ++k) {
        const QString path = inputPath(rq.data[k]);
        if (looksLikeProjectLocation(path))
            throw CliError("--data " + rq.data[k] + ": a project trains on its own (one --data)");
        std::vector<inference::TaggerPage> extra;
        if (!pipeline::loadFunsdSplit(path, QStringLiteral("train"), FunsdWordOrder::Annotation, &extra, &error))
            throw CliError(error.toStdString());
        for (const std::string &tag : pipeline::formSourceTags(path))
            if (std::find(cfg.labels.begin(), cfg.labels.end(), tag) == cfg.labels.end())
                cfg.labels.push_back(tag);
        description += "; + " + rq.data[k] + " (" + std::to_string(extra.size()) + " pages, all train)";
        if (!licences.contains(pipeline::formSourceLicence(path)))
            licences << pipeline::formSourceLicence(path);
        auto more = withImages(std::move(extra), path);
        trainPages.insert(trainPages.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
    cfg.dataDescription = description + ". Data licences: " + licences.join(QLatin1String("; ")).toStdString()
                          + "; the base model's licence is its own (see its model card).";
    const std::vector<pipeline::HfTrainPage> devPages = withImages(std::move(dev), target);

    CancelScope cancelScope;
    std::atomic<bool> cancel{false};
    const pipeline::HfFineTuneOutcome r = pipeline::fineTuneHfTokenClassifier(
        cfg, trainPages, devPages,
        [&cancel, &rq](const pipeline::HfFineTuneProgress &p) {
            if (cancelRequested())
                cancel = true;
            if (quiet() || !rq.distributed.writes())
                return;
            if (!p.message.empty())
                std::fprintf(stderr, "%s\n", p.message.c_str());
            else if (p.step % 10 == 0 || p.step == p.totalSteps)
                std::fprintf(stderr, "step %ld/%ld  epoch %d/%d  loss %.4f  lr %.3g  ETA %.0f s\n", p.step, p.totalSteps, p.epoch,
                             p.epochs, p.loss, p.lr, p.etaSeconds);
            std::fflush(stderr);
        },
        &cancel);
    if (r.cancelled)
        throw CliError("training cancelled; resume with --resume", ExitCancelled);
    if (!r.ok)
        throw CliError(r.error.toStdString());
    nlohmann::json j{{"checkpoint", rq.outDir},      {"base", rq.initDir},           {"new_head", r.newHead},
                     {"labels", cfg.labels},         {"train_windows", r.trainWindows}, {"dev_windows", r.devWindows},
                     {"steps", r.steps},             {"seconds", r.seconds},         {"final_loss", r.finalLoss},
                     {"best_epoch", r.bestEpoch},    {"dev_f1_per_epoch", r.devF1PerEpoch},
                     {"pages_without_image", r.pagesWithoutImage}};
    if (r.bestDevF1 >= 0)
        j["best_dev_f1"] = r.bestDevF1;
    std::cout << j.dump(2) << std::endl;
}

} // namespace folio::cli
