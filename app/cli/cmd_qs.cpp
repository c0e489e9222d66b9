// folio-cli qs: question-summary hierarchies (issue 13).
//   qs generate [--checkpoint DIR] FILE a scan / PDF / HTML / Folio JSON (sections = tree) or a
//                                       QMSum meeting JSON -> hierarchy JSON; the shipped drafter
//                                       (cmd_qsdraft.cpp) unless DIR is a seq2seq checkpoint
//   qs eval [--checkpoint DIR] --data DIR --split test   ROUGE / BLEU / hierarchy F1 of the model
//                                       next to the lead and oracle-shape baselines of the same run
//   qs train (cmd_qstrain.cpp)
#include "app/cli/batch.h"
#include "app/cli/commands.h"
#include "app/cli/qsdraftcli.h"
#include "inference/models/modelrunner.h"
#include "inference/qs/qsmetrics.h"
#include "pipeline/documentsource.h"
#include "pipeline/qs/qmsum.h"
#include "pipeline/qs/qsbaselines.h"
#include "pipeline/qs/draft/draftchecks.h"
#include "pipeline/qs/draft/saliencedata.h"
#include "pipeline/qs/qsinputs.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QDir>

#include <chrono>
#include <ctime>
#include <iostream>

namespace folio::cli {

namespace {

struct GenOpts
{
    int beams = 0, maxLength = 0, minLength = -1, noRepeat = -1, threads = 2;
    double lengthPenalty = -1;
    bool int8 = false;
};

void addGenOptions(CLI::App *cmd, GenOpts *g)
{
    cmd->add_option("--beams", g->beams, "Beam count (default: the checkpoint's)")->check(CLI::Range(1, 16));
    cmd->add_option("--max-length", g->maxLength, "Most target tokens, start token included")->check(CLI::Range(2, 4096));
    cmd->add_option("--min-length", g->minLength, "Fewest target tokens")->check(CLI::Range(0, 4096));
    cmd->add_option("--no-repeat-ngram", g->noRepeat, "Ban repeated n-grams of this size (0: off)")->check(CLI::Range(0, 10));
    cmd->add_option("--length-penalty", g->lengthPenalty, "Beam length penalty")->check(CLI::Range(0.0, 10.0));
    cmd->add_option("--threads", g->threads, "Torch / BLAS threads");
    cmd->add_flag("--int8", g->int8, "Seq2seq checkpoint: dynamic int8 quantization of the encoder's and decoder's Linear "
                                     "layers (weights int8 per output channel; BENCHMARKS.md, issue 35)");
}

// The seq2seq options and the drafter's as one run's settings (unset: the model's own).
pipeline::QsSettings settingsFrom(const GenOpts &g, const DraftCliOptions &d)
{
    pipeline::QsSettings s = draftSettings(d);
    s.beams = g.beams;
    s.maxLength = g.maxLength;
    s.minLength = g.minLength;
    s.noRepeatNgram = g.noRepeat;
    s.lengthPenalty = g.lengthPenalty;
    return s;
}

nlohmann::json hierarchyJson(const inference::QsHierarchy &h)
{
    const std::vector<int> parents = h.parents();
    std::vector<nlohmann::json> nodes(h.items.size());
    for (std::size_t i = 0; i < h.items.size(); ++i)
        nodes[i] = {{"question", h.items[i].question}, {"summary", h.items[i].summary}, {"children", nlohmann::json::array()}};
    nlohmann::json roots = nlohmann::json::array();
    // Children are attached bottom-up so every node is complete when copied into its parent.
    for (std::size_t k = h.items.size(); k-- > 0;) {
        const int p = parents[k];
        if (p >= 0)
            nodes[std::size_t(p)]["children"].insert(nodes[std::size_t(p)]["children"].begin(), nodes[k]);
    }
    for (std::size_t i = 0; i < h.items.size(); ++i)
        if (parents[i] < 0)
            roots.push_back(nodes[i]);
    return {{"summary", h.rootSummary}, {"hierarchy", roots}};
}

nlohmann::json scoresJson(const inference::QsScores &s)
{
    auto pct = [](double v) { return std::round(v * 10000.0) / 100.0; };
    return {{"rouge1", pct(s.rouge1.fmeasure)},       {"rouge2", pct(s.rouge2.fmeasure)},
            {"rougeLsum", pct(s.rougeLsum.fmeasure)}, {"question_bleu4", pct(s.questionBleu4)},
            {"hierarchy_p", pct(s.hierarchy.precision)}, {"hierarchy_r", pct(s.hierarchy.recall)},
            {"hierarchy_f1", pct(s.hierarchy.f1)}};
}

struct GenerateOpts
{
    std::string checkpoint;
    GenOpts gen;
    DraftCliOptions draft;
    BatchOptions batch;
};

// One file -> its hierarchy JSON: the drafter's (draftFile, with evidence and checks) or a seq2seq
// model's (the linearised text and the parser's repairs).
nlohmann::json generateOne(const pipeline::QsSummarizer &qs, const pipeline::QsSettings &settings, const QString &path,
                           const std::string &argument, bool showProgress)
{
    if (qs.isDrafter())
        return draftFile(qs, settings, path, argument, showProgress);
    QsFile file;
    readQsFile(path, argument, &file);
    if (file.text.input.text().trimmed().isEmpty())
        throw CliError(argument + ": no text to summarise");
    const pipeline::QsResult r = runQsFile(qs, settings, file, argument, showProgress);
    const pipeline::QsGeneratedTree &t = r.generated;
    nlohmann::json j = hierarchyJson(t.parse.tree);
    j["file"] = QString::fromUtf8(QByteArray::fromStdString(argument)).toStdString();
    j["sections"] = file.text.input.sections.size();
    j["linearised"] = t.text.toStdString();
    j["repairs"] = t.parse.repairs;
    nlohmann::json w = nlohmann::json::array();
    for (const QString &s : file.warnings + t.warnings)
        w.push_back(s.toStdString());
    j["warnings"] = w;
    return j;
}

void registerGenerate(CLI::App *qs)
{
    auto *cmd = qs->add_subcommand("generate", "Question-summary hierarchy of documents (scan, PDF, HTML, Folio JSON, QMSum JSON; "
                                               "several files or folders: one JSON line each)");
    auto o = std::make_shared<GenerateOpts>();
    cmd->add_option("--checkpoint", o->checkpoint,
                    "Drafter folder (drafter.json) or seq2seq checkpoint folder (config.json, model.safetensors or pytorch_model.bin "
                    "or fairseq checkpoint_best.pt, tokenizer); "
                    "default: the shipped drafter");
    cmd->add_option("file", o->batch.inputs, "Document to summarise; folders, @list.txt");
    addGenOptions(cmd, &o->gen);
    addDraftOptions(cmd, &o->draft);
    o->batch.threadsOption = cmd->get_option("--threads");
    addBatchOptions(cmd, &o->batch);
    cmd->callback([o]() {
        if (o->batch.inputs.empty() && o->batch.filesFrom.empty() && !o->batch.worker && !joinsQueue(o->batch))
            throw CliError("qs generate: a FILE (or folder, @list.txt, --files-from) is required", ExitUsage);
        const bool drafter = o->checkpoint.empty() || pipeline::QsDrafter::isDrafterFolder(QString::fromStdString(o->checkpoint));
        if (drafter && o->gen.int8)
            throw CliError("qs generate: --int8 needs a seq2seq --checkpoint (the drafter has no Linear layers to quantize)", ExitUsage);
        if (!drafter)
            inference::configureThreads(batchThreads(o->batch, o->gen.threads));
        pipeline::QsSummarizer qs;
        loadQsSummarizer(o->checkpoint, o->gen.int8, o->draft, &qs);
        const pipeline::QsSettings settings = settingsFrom(o->gen, o->draft);
        const CancelScope scope;
        if (isBatch(o->batch)) {
            runBatch("qs generate", o->batch, pipeline::documentFileSuffixes(),
                     [&](const QString &path, const std::string &arg) { return generateOne(qs, settings, path, arg, false); });
            return;
        }
        const std::string &file = o->batch.inputs.front();
        std::cout << generateOne(qs, settings, inputPath(file), file, true).dump(2) << std::endl;
    });
}

void registerEval(CLI::App *qs)
{
    auto *cmd = qs->add_subcommand("eval", "ROUGE / question BLEU / hierarchy F1 on a QMSum split, with lead and oracle-shape baselines");
    struct Opts
    {
        std::string checkpoint, drafter, data = "../shared/data/qmsum", split = "test";
        int limit = -1;
        bool noDrafter = false;
        GenOpts gen;
        DraftCliOptions draft;
    };
    auto o = std::make_shared<Opts>();
    cmd->add_option("--checkpoint", o->checkpoint, "Seq2seq checkpoint folder (optional: baselines only without it)");
    cmd->add_option("--data", o->data, "QMSum folder (<split>/*.json or data/ALL/<split>/*.json), or a FairytaleQA folder "
                                       "(section summaries and questions against each section's answers and questions)");
    cmd->add_option("--split", o->split, "train | val | test")->check(CLI::IsMember({"train", "val", "test"}));
    cmd->add_option("--limit", o->limit, "First N meetings only");
    cmd->add_option("--drafter", o->drafter, "Drafter folder scored beside the baselines (default: the shipped one)");
    cmd->add_flag("--no-drafter", o->noDrafter, "Baselines (and --checkpoint) only");
    addGenOptions(cmd, &o->gen);
    addDraftOptions(cmd, &o->draft);
    cmd->callback([o]() {
        if (pipeline::looksLikeFairytaleQa(QString::fromStdString(o->data))) {
            if (o->gen.int8)
                throw CliError("qs eval: --int8 is for seq2seq checkpoints on QMSum; FairytaleQA scores the drafter", ExitUsage);
            pipeline::QsSummarizer drafter;
            if (!o->noDrafter)
                loadQsSummarizer(o->checkpoint.empty() ? o->drafter : o->checkpoint, false, o->draft, &drafter, true);
            nlohmann::json j = evalSectionedStories(o->data, o->split, o->limit, drafter.drafter(),
                                                    drafter.isLoaded() ? drafter.draftOptions(draftSettings(o->draft)) : pipeline::DraftOptions{});
            if (drafter.isLoaded())
                j["drafter"]["questions"] = o->draft.questions;
            std::cout << j.dump(2) << std::endl;
            return;
        }
        std::vector<pipeline::QmsumMeeting> meetings;
        QString error;
        if (!pipeline::readQmsumSplit(QString::fromStdString(o->data), QString::fromStdString(o->split), &meetings,
                                      &error, o->limit))
            throw CliError(error.toStdString());
        const pipeline::QsSettings runSettings = settingsFrom(o->gen, o->draft);
        std::unique_ptr<pipeline::QsSummarizer> model;
        inference::GenerationSettings settings;
        if (!o->checkpoint.empty() && pipeline::QsDrafter::isDrafterFolder(QString::fromStdString(o->checkpoint))) {
            o->drafter = o->checkpoint; // a drafter folder given as the checkpoint is scored as the drafter
            o->checkpoint.clear();
        }
        if (o->checkpoint.empty() && o->gen.int8)
            throw CliError("qs eval: --int8 needs a seq2seq --checkpoint (the baselines and the drafter have no Linear layers)",
                           ExitUsage);
        if (!o->checkpoint.empty()) {
            inference::configureThreads(o->gen.threads);
            model = std::make_unique<pipeline::QsSummarizer>();
            loadQsSummarizer(o->checkpoint, o->gen.int8, o->draft, model.get());
            settings = model->generationSettings(runSettings);
        }
        std::unique_ptr<pipeline::QsSummarizer> drafter;
        pipeline::DraftOptions draftOpts;
        if (!o->noDrafter) {
            drafter = std::make_unique<pipeline::QsSummarizer>();
            loadQsSummarizer(o->drafter, false, o->draft, drafter.get(), true);
            draftOpts = drafter->draftOptions(runSettings);
        }
        pipeline::QsScoreMean lead, oracle, system, drafted;
        nlohmann::json warnings = nlohmann::json::array();
        double modelSeconds = 0, modelCpuSeconds = 0; // generation alone (the baselines and the drafter excluded)
        long repairs = 0, draftQuestions = 0, draftGrounded = 0, draftDuplicates = 0, draftFromWriter = 0;
        const auto t0 = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < meetings.size(); ++i) {
            const pipeline::QmsumMeeting &m = meetings[i];
            const pipeline::QsText text = pipeline::qsTextOfMeeting(m);
            const std::string target = inference::linearizeQsTarget(m.reference);
            lead.add(inference::scoreQs(target, inference::linearizeQsTarget(pipeline::leadBaseline(m.input))));
            oracle.add(inference::scoreQs(target, inference::linearizeQsTarget(pipeline::oracleShapeBaseline(m))));
            if (drafter) {
                const pipeline::QsResult d = drafter->generate(text, runSettings);
                if (!d.ok)
                    throw CliError(m.id.toStdString() + ": " + d.error.toStdString());
                drafted.add(inference::scoreQs(target, inference::linearizeQsTarget(d.draft.hierarchy())));
                const pipeline::DraftCheck c = pipeline::checkDraft(text.draft, d.draft);
                draftQuestions += c.questions;
                draftGrounded += c.groundedQuestions;
                draftDuplicates += c.duplicateQuestions;
                draftFromWriter += d.questionsWritten;
            }
            if (model) {
                const auto g0 = std::chrono::steady_clock::now();
                const std::clock_t c0 = std::clock();
                const pipeline::QsResult g = model->generate(text, runSettings);
                modelSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count();
                modelCpuSeconds += double(std::clock() - c0) / CLOCKS_PER_SEC; // process CPU time: less moved by load
                if (!g.ok)
                    throw CliError(m.id.toStdString() + ": " + g.error.toStdString());
                const pipeline::QsGeneratedTree &t = g.generated;
                for (const QString &w : t.warnings)
                    warnings.push_back(w.toStdString());
                repairs += long(t.parse.repairs.size());
                system.add(inference::scoreQs(target, inference::linearizeQsTarget(t.parse.tree)));
            }
            reportProgress("qs eval", long(i + 1), long(meetings.size()));
        }
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        nlohmann::json j;
        j["split"] = o->split;
        j["meetings"] = meetings.size();
        j["lead"] = scoresJson(lead.mean());
        j["oracle_shape"] = scoresJson(oracle.mean());
        if (drafter) {
            j["drafter"] = scoresJson(drafted.mean());
            j["drafter"]["max_items"] = draftOpts.maxItems;
            j["drafter"]["summary_words"] = draftOpts.summaryWords;
            j["drafter"]["questions"] = o->draft.questions;
            j["drafter"]["question_count"] = draftQuestions;
            j["drafter"]["questions_grounded"] = draftGrounded;
            j["drafter"]["duplicate_questions"] = draftDuplicates;
            j["drafter"]["questions_from_generator"] = draftFromWriter; // the rest: template fallback
        }
        if (model) {
            j["model"] = scoresJson(system.mean());
            j["model"]["checkpoint"] = o->checkpoint;
            j["model"]["parser_repairs"] = repairs;
            j["model"]["beams"] = settings.numBeams;
            j["model"]["max_length"] = settings.maxLength;
            j["model"]["int8"] = model->generator()->isInt8();
            j["model"]["seconds"] = modelSeconds;
            j["model"]["cpu_seconds"] = modelCpuSeconds;
            j["warnings"] = warnings;
        }
        j["seconds"] = s;
        std::cout << j.dump(2) << std::endl;
    });
}

} // namespace

void registerQsCommand(CLI::App &app)
{
    auto *qs = app.add_subcommand("qs", "Question-summary hierarchies: generate, eval, train");
    qs->require_subcommand(1);
    registerGenerate(qs);
    registerEval(qs);
    registerQsTrainCommand(*qs);
    registerQsDraftCommands(qs);
    registerQsQuestionCommands(qs);
}

} // namespace folio::cli
