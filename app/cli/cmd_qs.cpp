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
#include "inference/qs/seq2seq.h"
#include "pipeline/documentsource.h"
#include "pipeline/qmsum.h"
#include "pipeline/qsbaselines.h"
#include "pipeline/qsdraft/draftchecks.h"
#include "pipeline/qsdraft/saliencedata.h"
#include "pipeline/qsinputs.h"

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

inference::GenerationSettings settingsFrom(const inference::Seq2seqGenerator &gen, const GenOpts &g)
{
    inference::GenerationSettings s = gen.defaultSettings();
    if (g.beams > 0)
        s.numBeams = g.beams;
    if (g.maxLength > 0)
        s.maxLength = g.maxLength;
    if (g.minLength >= 0)
        s.minLength = g.minLength;
    if (g.noRepeat >= 0)
        s.noRepeatNgramSize = g.noRepeat;
    if (g.lengthPenalty >= 0)
        s.lengthPenalty = g.lengthPenalty;
    return s;
}

struct LoadedModel
{
    inference::Seq2seqGenerator generator;
    pipeline::QsVocabulary vocab;
};

void loadModel(const std::string &dir, bool int8, LoadedModel *m)
{
    std::string err;
    if (!m->generator.load(dir, &err))
        throw CliError(err);
    if (int8 && !m->generator.quantizeDynamicInt8(&err))
        throw CliError(dir + ": " + err);
    QString error;
    if (!pipeline::loadQsVocabulary(QString::fromStdString(dir), &m->vocab, &error))
        throw CliError(error.toStdString());
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

nlohmann::json generateOne(const LoadedModel &model, const inference::GenerationSettings &settings, const QString &path,
                           const std::string &argument, bool showProgress)
{
    pipeline::QsInput input;
    QStringList warnings;
    if (pipeline::looksLikeQmsum(path)) {
        pipeline::QmsumMeeting m;
        QString error;
        if (!pipeline::readQmsumMeeting(path, &m, &error))
            throw CliError(error.toStdString());
        input = m.input;
    } else {
        const pipeline::LoadedDocument d = pipeline::loadDocumentFile(path);
        if (!d.ok)
            throw CliError(d.error.toStdString());
        warnings += d.warnings;
        input = pipeline::qsInputFromDocument(d.document);
        input.id = path;
    }
    if (input.text().trimmed().isEmpty())
        throw CliError(argument + ": no text to summarise");
    const pipeline::QsGenerated g = pipeline::generateQs(model.generator, model.vocab, {input}, settings,
                                                         [showProgress](const inference::GenerationStep &s) {
                                                             if (showProgress)
                                                                 reportProgress("generate", s.step, s.maxSteps);
                                                             return !cancelRequested();
                                                         });
    if (!g.ok)
        throw CliError(argument + ": " + g.error.toStdString(), g.cancelled ? ExitCancelled : ExitFailure);
    const pipeline::QsGeneratedTree &t = g.trees.front();
    nlohmann::json j = hierarchyJson(t.parse.tree);
    j["file"] = QString::fromUtf8(QByteArray::fromStdString(argument)).toStdString();
    j["sections"] = input.sections.size();
    j["linearised"] = t.text.toStdString();
    j["repairs"] = t.parse.repairs;
    nlohmann::json w = nlohmann::json::array();
    for (const QString &s : warnings + t.warnings)
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
        if (o->checkpoint.empty() || pipeline::QsDrafter::isDrafterFolder(QString::fromStdString(o->checkpoint))) {
            if (o->gen.int8)
                throw CliError("qs generate: --int8 needs a seq2seq --checkpoint (the drafter has no Linear layers to quantize)",
                               ExitUsage);
            pipeline::QsDrafter drafter = loadDrafter(o->checkpoint);
            useQuestionOptions(&drafter, o->draft);
            const pipeline::DraftOptions options = draftOptions(drafter, o->draft);
            const CancelScope scope;
            if (isBatch(o->batch)) {
                runBatch("qs generate", o->batch, pipeline::documentFileSuffixes(),
                         [&](const QString &path, const std::string &arg) { return draftFile(drafter, options, path, arg, false); });
                return;
            }
            const std::string &file = o->batch.inputs.front();
            std::cout << draftFile(drafter, options, inputPath(file), file, true).dump(2) << std::endl;
            return;
        }
        inference::configureThreads(batchThreads(o->batch, o->gen.threads));
        LoadedModel model;
        loadModel(o->checkpoint, o->gen.int8, &model);
        const inference::GenerationSettings settings = settingsFrom(model.generator, o->gen);
        const CancelScope scope;
        if (isBatch(o->batch)) {
            runBatch("qs generate", o->batch, pipeline::documentFileSuffixes(),
                     [&](const QString &path, const std::string &arg) { return generateOne(model, settings, path, arg, false); });
            return;
        }
        const std::string &file = o->batch.inputs.front();
        std::cout << generateOne(model, settings, inputPath(file), file, true).dump(2) << std::endl;
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
            std::unique_ptr<pipeline::QsDrafter> drafter;
            if (!o->noDrafter)
                drafter = std::make_unique<pipeline::QsDrafter>(loadDrafter(o->checkpoint.empty() ? o->drafter : o->checkpoint));
            if (drafter)
                useQuestionOptions(drafter.get(), o->draft);
            nlohmann::json j = evalSectionedStories(o->data, o->split, o->limit, drafter.get(),
                                                    drafter ? draftOptions(*drafter, o->draft) : pipeline::DraftOptions{});
            if (drafter)
                j["drafter"]["questions"] = o->draft.questions;
            std::cout << j.dump(2) << std::endl;
            return;
        }
        std::vector<pipeline::QmsumMeeting> meetings;
        QString error;
        if (!pipeline::readQmsumSplit(QString::fromStdString(o->data), QString::fromStdString(o->split), &meetings,
                                      &error, o->limit))
            throw CliError(error.toStdString());
        std::unique_ptr<LoadedModel> model;
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
            model = std::make_unique<LoadedModel>();
            loadModel(o->checkpoint, o->gen.int8, model.get());
            settings = settingsFrom(model->generator, o->gen);
        }
        std::unique_ptr<pipeline::QsDrafter> drafter;
        pipeline::DraftOptions draftOpts;
        if (!o->noDrafter) {
            drafter = std::make_unique<pipeline::QsDrafter>(loadDrafter(o->drafter));
            useQuestionOptions(drafter.get(), o->draft);
            draftOpts = draftOptions(*drafter, o->draft);
        }
        pipeline::QsScoreMean lead, oracle, system, drafted;
        nlohmann::json warnings = nlohmann::json::array();
        double modelSeconds = 0, modelCpuSeconds = 0; // generation alone (the baselines and the drafter excluded)
        long repairs = 0, draftQuestions = 0, draftGrounded = 0, draftDuplicates = 0, draftFromWriter = 0;
        const auto t0 = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < meetings.size(); ++i) {
            const pipeline::QmsumMeeting &m = meetings[i];
            const std::string target = inference::linearizeQsTarget(m.reference);
            lead.add(inference::scoreQs(target, inference::linearizeQsTarget(pipeline::leadBaseline(m.input))));
            oracle.add(inference::scoreQs(target, inference::linearizeQsTarget(pipeline::oracleShapeBaseline(m))));
            if (drafter) {
                const pipeline::DraftSource src = pipeline::draftSourceFromMeeting(m);
                const pipeline::QsDraft d = drafter->draft(src, draftOpts);
                if (!d.ok)
                    throw CliError(m.id.toStdString() + ": " + d.error.toStdString());
                drafted.add(inference::scoreQs(target, inference::linearizeQsTarget(d.hierarchy())));
                const pipeline::DraftCheck c = pipeline::checkDraft(src, d);
                draftQuestions += c.questions;
                draftGrounded += c.groundedQuestions;
                draftDuplicates += c.duplicateQuestions;
                for (const pipeline::DraftItem &item : d.items)
                    draftFromWriter += item.questionFromWriter ? 1 : 0;
            }
            if (model) {
                const auto g0 = std::chrono::steady_clock::now();
                const std::clock_t c0 = std::clock();
                const pipeline::QsGenerated g = pipeline::generateQs(model->generator, model->vocab, {m.input}, settings);
                modelSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count();
                modelCpuSeconds += double(std::clock() - c0) / CLOCKS_PER_SEC; // process CPU time: less moved by load
                if (!g.ok)
                    throw CliError(m.id.toStdString() + ": " + g.error.toStdString());
                const pipeline::QsGeneratedTree &t = g.trees.front();
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
            j["model"]["int8"] = model->generator.isInt8();
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
