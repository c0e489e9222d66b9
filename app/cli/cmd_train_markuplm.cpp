// folio-cli train --init MARKUPLM_DIR --data SWDE_OR_PRODUCT_DIR_OR_PROJECT --out DIR: a Hugging Face MarkupLM
// token classifier fine-tuned on web pages' text nodes (pipeline/markuplmtraining.h, issue 46),
// written back as a Hugging Face folder that Extract Fields / `folio-cli extract` run; the test
// split scored once at the end (SWDE page-level F1) through that folder.
#include "app/cli/cmd_train_hf.h"

#include "app/cli/commands.h"
#include "document/project/project.h"
#include "document/project/projectlocation.h"
#include "inference/models/modelrunner.h"
#include "pipeline/markuplmtraining.h"

#include <nlohmann/json.hpp>

#include <QFile>

#include <atomic>
#include <cstdio>
#include <iostream>
#include <memory>

namespace folio::cli {

namespace {

nlohmann::json scoreJson(const pipeline::MarkupFieldScore &s)
{
    nlohmann::json fields = nlohmann::json::object(), top1 = nlohmann::json::object();
    for (const auto &[f, v] : s.fieldF1)
        fields[f] = v;
    for (const auto &[f, v] : s.top1FieldF1)
        top1[f] = v;
    // "f1": the argmax labels decoded as Extract Fields shows them; "top1": the node of each field's
    // highest probability (the dev score).
    return {{"precision", s.precision}, {"recall", s.recall}, {"f1", s.f1}, {"fields", fields},
            {"top1", {{"precision", s.top1Precision}, {"recall", s.top1Recall}, {"f1", s.top1F1}, {"fields", top1}}}};
}

} // namespace

void runMarkupLMFineTune(const HfTrainRequest &rq)
{
    inference::configureThreads(rq.threads);
    if (rq.data.empty())
        throw CliError("--data: MarkupLM fine-tunes on web pages: give an SWDE folder (groundtruth/ + testset/), the Zyte "
                       "product benchmark folder (ground-truth.json + html/) or a project with answered web pages");
    if (rq.data.size() > 1)
        throw CliError("--data " + rq.data[1] + ": MarkupLM fine-tuning takes one web data set");
    if (rq.trainPages > 0)
        throw CliError("--train-pages applies to FUNSD data; web data takes --max-pages-per-site");
    if (rq.distributed.enabled() || rq.gradientShards > 1)
        throw CliError("--init " + rq.initDir + ": data-parallel MarkupLM fine-tuning is not offered; run it in one process");
    const QString target = inputPath(rq.data.front());
    pipeline::HfFineTuneConfig cfg = hfFineTuneConfig(rq); // data-parallel refused above

    pipeline::MarkupTrainingSet set;
    if (looksLikeProjectLocation(target)) {
        // A project's web pages with accepted field answers (Train on Project's pages).
        if (rq.maxPagesPerSite > 0)
            throw CliError("--max-pages-per-site applies to SWDE / product data, not to a project");
        QString error;
        std::unique_ptr<Project> project = Project::open(target, &error, Project::Mode::ReadOnly);
        if (!project || !pipeline::loadProjectMarkupTrainingSet(project.get(), &set, &error))
            throw CliError(error.toStdString());
    } else try {
        set = pipeline::loadMarkupTrainingSet(target.toStdString(), rq.maxPagesPerSite);
    } catch (const std::exception &e) {
        throw CliError("--data " + rq.data.front() + ": a MarkupLM folder fine-tunes on web pages (an SWDE folder or the product "
                       "benchmark), not on FUNSD / XFUND / SROIE pages: " + e.what());
    }
    int found = 0, missed = 0;
    for (const auto &p : set.train) {
        found += p.valuesFound;
        missed += p.valuesMissed;
    }
    if (!quiet()) {
        std::fprintf(stderr, "train --init %s: %zu train, %zu dev, %zu test pages; fields:", rq.initDir.c_str(), set.train.size(),
                     set.dev.size(), set.test.size());
        for (const std::string &f : set.fields)
            std::fprintf(stderr, " %s", f.c_str());
        std::fprintf(stderr, "; %d of %d training gold values found as whole nodes\n", found, found + missed);
    }
    cfg.dataDescription = set.description + ". " + std::to_string(found) + " of " + std::to_string(found + missed)
                          + " training gold values are whole text nodes (or runs of up to "
                          + std::to_string(pipeline::kMaxValueNodes) + " nodes) and are labelled; the base model's licence is its own "
                            "(see its model card).";

    CancelScope cancelScope;
    std::atomic<bool> cancel{false};
    std::vector<std::string> labels;
    const pipeline::HfFineTuneOutcome r = pipeline::fineTuneMarkupLM(
        cfg, set.train, set.dev, set.fields,
        [&cancel](const pipeline::HfFineTuneProgress &p) {
            if (cancelRequested())
                cancel = true;
            if (quiet())
                return;
            if (!p.message.empty())
                std::fprintf(stderr, "%s\n", p.message.c_str());
            else if (p.step % 10 == 0 || p.step == p.totalSteps)
                std::fprintf(stderr, "step %ld/%ld  epoch %d/%d  loss %.4f  lr %.3g  ETA %.0f s\n", p.step, p.totalSteps, p.epoch,
                             p.epochs, p.loss, p.lr, p.etaSeconds);
            std::fflush(stderr);
        },
        &cancel, &labels);
    if (r.cancelled)
        throw CliError("training cancelled; resume with --resume", ExitCancelled);
    if (!r.ok)
        throw CliError(r.error.toStdString());

    nlohmann::json j{{"checkpoint", rq.outDir},         {"base", rq.initDir},          {"new_head", r.newHead},
                     {"labels", labels},                {"train_pages", set.train.size()}, {"dev_pages", set.dev.size()},
                     {"test_pages", set.test.size()},   {"train_windows", r.trainWindows}, {"dev_windows", r.devWindows},
                     {"gold_values_found", found},      {"gold_values_missed", missed},
                     {"steps", r.steps},                {"seconds", r.seconds},        {"final_loss", r.finalLoss},
                     {"best_epoch", r.bestEpoch},       {"dev_f1_per_epoch", r.devF1PerEpoch}, {"loss_per_epoch", r.lossPerEpoch}};
    if (r.bestDevF1 >= 0)
        j["best_dev_f1"] = r.bestDevF1;
    if (!set.test.empty()) {
        // The test split, once, through the folder written (HfMarkupLM, what Extract Fields runs).
        const pipeline::MarkupFieldScore test = pipeline::scoreMarkupFolder(cfg.outDir, set.test, set.fields);
        if (!test.ok)
            throw CliError(cfg.outDir.toStdString() + ": scoring the test pages failed: " + test.error);
        j["test_page_level"] = scoreJson(test);
        QFile card(cfg.outDir + QStringLiteral("/README.md"));
        if (card.open(QIODevice::Append)) {
            char line[160];
            std::snprintf(line, sizeof line, "\n## Test\n\n%zu test pages, page-level F1 macro over the fields.\n\n", set.test.size());
            std::string text = line;
            text += "| decoding | P | R | F1 | per field |\n|---|---:|---:|---:|---|\n";
            auto row = [&](const char *name, double p, double r, double f1, const std::map<std::string, double> &byField) {
                std::snprintf(line, sizeof line, "| %s | %.4f | %.4f | %.4f | ", name, p, r, f1);
                text += line;
                for (const auto &[f, v] : byField) {
                    std::snprintf(line, sizeof line, "%s %.3f ", f.c_str(), v);
                    text += line;
                }
                text += "|\n";
            };
            row("labels as Extract Fields shows them", test.precision, test.recall, test.f1, test.fieldF1);
            row("top-1 node per field", test.top1Precision, test.top1Recall, test.top1F1, test.top1FieldF1);
            card.write(text.data(), qint64(text.size()));
        }
    }
    std::cout << j.dump(2) << std::endl;
}

} // namespace folio::cli
