// folio-cli qs train-questions / eval-questions (issue 31): answer-aware question generation.
//   qs train-questions --out DIR [--copy] [--fairytaleqa DIR] [--qmsum DIR] [--time-budget S ...]
//       a small BART (optionally with the pointer-generator copy head) on answer [sep] evidence ->
//       question pairs from the training splits: FairytaleQA train (questions, answer1, the
//       answering sections) and QMSum train's specific queries (answer, evidence turns). Dev loss
//       on the val splits (the first --dev examples) picks the epoch.
//   qs eval-questions [--checkpoint DIR ...] [--split test]
//       per example: question BLEU-4 (nltk method2, qsmetrics.h) against the reference and whether
//       the question's key terms occur in its evidence (questionGrounded over answer + evidence),
//       templates (the drafter's first template, {topic} = the evidence's key terms) beside every
//       checkpoint, on FairytaleQA and QMSum, in one run.
#include "app/cli/commands.h"
#include "app/cli/qstrainrun.h"
#include "app/cli/qsdraftcli.h"
#include "inference/models/modelrunner.h"
#include "inference/qs/qsmetrics.h"
#include "inference/qs/qstrain.h"
#include "inference/tokenizers/tokenizer.h"
#include "pipeline/qs/draft/questiondata.h"
#include "pipeline/qs/draft/topicsegments.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QDir>
#include <QHash>
#include <QSet>
#include <QFile>
#include <QTextStream>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <csignal>
#include <iostream>

namespace folio::cli {

namespace {

struct Data
{
    std::string fairytaleqa = "../shared/data/fairytaleqa", qmsum = "../shared/data/qmsum";
};

void addDataOptions(CLI::App *cmd, Data *d)
{
    cmd->add_option("--fairytaleqa", d->fairytaleqa, "FairytaleQA folder ('' to leave it out)");
    cmd->add_option("--qmsum", d->qmsum, "QMSum folder ('' to leave it out)");
}

// FairytaleQA examples first, then QMSum's, of one split.
std::vector<pipeline::QuestionExample> examplesOf(const Data &d, const QString &split, std::vector<std::string> *sets = nullptr)
{
    std::vector<pipeline::QuestionExample> out;
    QString error;
    if (!d.fairytaleqa.empty()) {
        if (!pipeline::readFairytaleQaExamples(QString::fromStdString(d.fairytaleqa), split, &out, &error))
            throw CliError(error.toStdString());
        if (sets)
            sets->resize(out.size(), "fairytaleqa");
    }
    if (!d.qmsum.empty()) {
        std::vector<pipeline::QmsumMeeting> meetings;
        if (!pipeline::readQmsumSplit(QString::fromStdString(d.qmsum), split, &meetings, &error))
            throw CliError(error.toStdString());
        for (auto &e : pipeline::qmsumQuestionExamples(meetings))
            out.push_back(std::move(e));
        if (sets)
            sets->resize(out.size(), "qmsum");
    }
    if (out.empty())
        throw CliError("qs: no question examples in the " + split.toStdString() + " split");
    return out;
}

inference::QsTrainExample trainExample(const pipeline::QsVocabulary &v, const pipeline::QuestionExample &e, int maxSource)
{
    inference::QsTrainExample t;
    t.source = pipeline::questionSource(v, e.answer, e.evidence, maxSource);
    t.target = pipeline::encodeQsText(v, e.question);
    return t;
}

void registerTrain(CLI::App *qs)
{
    auto *cmd = qs->add_subcommand("train-questions", "Train an answer-aware question generator (small BART, optional copy head) "
                                                      "on FairytaleQA and QMSum training pairs");
    struct Opts
    {
        Data data;
        std::string out, vocabModel;
        bool copy = false, float16 = false;
        int epochs = 4, batch = 16, vocab = 4000, dModel = 128, layers = 2, heads = 4, ffn = 512;
        int maxSource = 192, maxTarget = 48, threads = 1, dev = 300, limit = -1;
        double lr = 1e-3, budget = 0;
        std::uint64_t seed = 13;
    };
    auto o = std::make_shared<Opts>();
    addDataOptions(cmd, &o->data);
    cmd->add_option("--out", o->out, "Checkpoint folder to write")->required();
    cmd->add_flag("--copy", o->copy, "Pointer-generator copy head (config folio_copy_head)");
    cmd->add_option("--epochs", o->epochs)->check(CLI::Range(1, 1000));
    cmd->add_option("--batch", o->batch, "Examples per optimiser step")->check(CLI::Range(1, 256));
    cmd->add_option("--lr", o->lr, "Peak learning rate")->check(CLI::Range(1e-7, 1.0));
    cmd->add_option("--vocab-size", o->vocab, "SentencePiece vocabulary size")->check(CLI::Range(200, 64000));
    cmd->add_option("--vocab", o->vocabModel, "Use this SentencePiece .model instead of training one");
    cmd->add_option("--d-model", o->dModel)->check(CLI::Range(16, 2048));
    cmd->add_option("--layers", o->layers, "Encoder and decoder layers each")->check(CLI::Range(1, 24));
    cmd->add_option("--heads", o->heads)->check(CLI::Range(1, 32));
    cmd->add_option("--ffn", o->ffn)->check(CLI::Range(16, 8192));
    cmd->add_option("--max-source", o->maxSource, "Source tokens (answer <= a third)")->check(CLI::Range(16, 4096));
    cmd->add_option("--max-target", o->maxTarget, "Question tokens")->check(CLI::Range(8, 512));
    cmd->add_option("--dev", o->dev, "Dev examples (val split, FairytaleQA then QMSum, evenly spaced)")->check(CLI::Range(0, 100000));
    cmd->add_option("--limit", o->limit, "First N training examples after shuffling (0..)");
    cmd->add_option("--time-budget", o->budget, "Stop after the epoch that passes this many seconds (0: none)");
    cmd->add_option("--threads", o->threads, "Torch / BLAS threads");
    cmd->add_option("--seed", o->seed);
    cmd->add_flag("--float16", o->float16, "Store the weights as float16");
    cmd->callback([o]() {
        const auto train = examplesOf(o->data, QStringLiteral("train"));
        const auto val = examplesOf(o->data, QStringLiteral("val"));
        const QString out = QString::fromStdString(o->out);
        const QString vocabDir = QDir(out).filePath(QStringLiteral("vocab"));
        if (!QDir().mkpath(vocabDir))
            throw CliError(vocabDir.toStdString() + ": cannot create");
        const QString spmModel = QDir(vocabDir).filePath(QStringLiteral("spm.model"));
        if (!o->vocabModel.empty()) {
            QFile::remove(spmModel);
            if (!QFile::copy(QString::fromStdString(o->vocabModel), spmModel))
                throw CliError(o->vocabModel + ": cannot copy the vocabulary into " + vocabDir.toStdString());
        } else {
            const QString text = QDir(vocabDir).filePath(QStringLiteral("text.txt"));
            QFile f(text);
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
                throw CliError(text.toStdString() + ": cannot write");
            QTextStream ts(&f);
            for (const auto &e : train)
                ts << e.question << '\n' << e.answer << '\n' << e.evidence.mid(0, 8).join(QLatin1Char('\n')) << '\n';
            f.close();
            std::cerr << "qs train-questions: SentencePiece vocabulary (" << o->vocab << ")" << std::endl;
            inference::trainSentencePiece(text.toStdString(), QDir(vocabDir).filePath(QStringLiteral("spm")).toStdString(),
                                          o->vocab, "unigram", 1.0);
            QFile::remove(text);
        }
        const pipeline::QsVocabulary vocab = pipeline::folioQsVocabulary(inference::makeSentencePieceTokenizer(spmModel.toStdString()));
        inference::QsTrainOptions t;
        t.outDir = o->out;
        t.size.dModel = o->dModel;
        t.size.encoderLayers = t.size.decoderLayers = o->layers;
        t.size.heads = o->heads;
        t.size.ffn = o->ffn;
        t.size.vocab = int(vocab.markers.paragraphSeparator) + 1;
        t.size.maxSourcePositions = o->maxSource;
        t.size.maxTargetPositions = o->maxTarget;
        t.size.pad = int(vocab.pad);
        t.size.bos = int(vocab.markers.bos);
        t.size.eos = t.size.decoderStart = int(vocab.markers.eos);
        t.epochs = o->epochs;
        t.batch = o->batch;
        t.lr = o->lr;
        t.seed = o->seed;
        t.copy = o->copy;
        t.timeBudgetSeconds = o->budget;
        t.float16 = o->float16;
        t.copyFiles = {spmModel.toStdString()};
        nlohmann::json extra = pipeline::folioQsConfig(vocab);
        extra["folio_questions"] = {{"max_source", o->maxSource},
                                    {"source", "answer [paragraph_separator] evidence sentences"},
                                    {"data", {o->data.fairytaleqa, o->data.qmsum}}};
        extra["num_beams"] = 2;
        extra["max_length"] = o->maxTarget;
        extra["min_length"] = 3;
        t.extraConfigJson = extra.dump();
        std::vector<inference::QsTrainExample> trainEx, devEx;
        for (const auto &e : train)
            trainEx.push_back(trainExample(vocab, e, o->maxSource));
        std::mt19937 rng(std::uint32_t(o->seed));
        std::shuffle(trainEx.begin(), trainEx.end(), rng);
        if (o->limit >= 0 && std::size_t(o->limit) < trainEx.size())
            trainEx.resize(std::size_t(o->limit));
        const std::size_t devCount = std::min(val.size(), std::size_t(o->dev));
        for (std::size_t k = 0; k < devCount; ++k)
            devEx.push_back(trainExample(vocab, val[k * val.size() / devCount], o->maxSource));
        std::cerr << "qs train-questions: " << trainEx.size() << " training pairs, " << devEx.size() << " dev pairs, copy head "
                  << (o->copy ? "on" : "off") << std::endl;
        inference::configureThreads(o->threads);
        const inference::QsTrainResult r = runQsTraining("qs train-questions", trainEx, devEx, t, o->out, 50);
        std::cout << nlohmann::json{{"out", o->out},           {"copy_head", o->copy},
                                    {"epochs_run", r.epochsRun}, {"best_epoch", r.bestEpoch},
                                    {"best_dev_loss", r.bestDevLoss}, {"last_train_loss", r.lastTrainLoss},
                                    {"steps", r.steps},          {"seconds", r.seconds},
                                    {"cancelled", r.cancelled},  {"train_examples", trainEx.size()},
                                    {"dev_examples", devEx.size()}}
                         .dump(2)
                  << std::endl;
        if (r.cancelled)
            throw CliError("cancelled", ExitCancelled);
    });
}

// The template baseline for one example: the drafter's first template, {topic} = the key terms of
// the evidence (keyTermTitle, as the drafter titles parts without headings).
QString templateQuestion(const pipeline::QsDrafter &drafter, const pipeline::QuestionExample &e, bool conversation)
{
    std::vector<QStringList> tokens;
    QHash<QString, int> df;
    for (const QString &s : e.evidence) {
        tokens.push_back(pipeline::draftTokens(s));
        for (const QString &w : QSet<QString>(tokens.back().cbegin(), tokens.back().cend()))
            ++df[w];
    }
    QString topic = pipeline::keyTermTitle(tokens, df, int(tokens.size()));
    if (topic.isEmpty())
        topic = QStringLiteral("this part");
    const auto &list = conversation ? drafter.questions.section : drafter.questions.written;
    return list.empty() ? QString() : pipeline::fillTemplate(list.front().text, {{QStringLiteral("topic"), topic}});
}

struct SystemScore
{
    double bleu = 0;
    long grounded = 0, count = 0, words = 0, empty = 0;
    double seconds = 0;
    nlohmann::json examples = nlohmann::json::array();
    void add(const pipeline::QuestionExample &e, const QString &q)
    {
        ++count;
        if (q.isEmpty()) {
            ++empty;
            return;
        }
        bleu += inference::sentenceBleu4(inference::bleuTokenize(e.question.toStdString()), inference::bleuTokenize(q.toStdString()));
        grounded += pipeline::questionGrounded(q, e.answer + QLatin1Char(' ') + e.evidence.join(QLatin1Char(' '))) ? 1 : 0;
        words += long(pipeline::draftTokens(q).size());
        if (examples.size() < 5)
            examples.push_back({{"reference", e.question.toStdString()}, {"generated", q.toStdString()}});
    }
    nlohmann::json json() const
    {
        auto pct = [](double v) { return std::round(v * 10000.0) / 100.0; };
        const double n = double(std::max(1L, count));
        return {{"question_bleu4", pct(bleu / n)}, {"key_terms_in_evidence", pct(double(grounded) / n)},
                {"examples", count},               {"empty", empty},
                {"mean_words", double(words) / n}, {"seconds", seconds},
                {"samples", examples}};
    }
};

void registerEvalQuestions(CLI::App *qs)
{
    auto *cmd = qs->add_subcommand("eval-questions", "Question BLEU-4 and key terms in evidence: templates beside question generators, "
                                                     "FairytaleQA and QMSum (answer + evidence -> question)");
    struct Opts
    {
        Data data;
        std::vector<std::string> checkpoints;
        std::string drafter, split = "test";
        int limit = -1, beams = 0, threads = 1;
    };
    auto o = std::make_shared<Opts>();
    addDataOptions(cmd, &o->data);
    cmd->add_option("--checkpoint", o->checkpoints, "Question generator folders (qs train-questions), each scored");
    cmd->add_option("--drafter", o->drafter, "Drafter folder whose templates are the baseline (default: the shipped one)");
    cmd->add_option("--split", o->split)->check(CLI::IsMember({"train", "val", "test"}));
    cmd->add_option("--limit", o->limit, "First N examples of each data set");
    cmd->add_option("--beams", o->beams, "Beams (default: the checkpoint's)")->check(CLI::Range(1, 16));
    cmd->add_option("--threads", o->threads);
    cmd->callback([o]() {
        inference::configureThreads(o->threads);
        const pipeline::QsDrafter drafter = loadDrafter(o->drafter);
        std::vector<std::pair<std::string, pipeline::QuestionGenerator>> models;
        for (const std::string &dir : o->checkpoints) {
            pipeline::QuestionGenerator g;
            QString error;
            if (!g.load(QString::fromStdString(dir), &error))
                throw CliError(error.toStdString());
            if (o->beams > 0)
                g.settings.numBeams = o->beams;
            models.emplace_back(dir, std::move(g));
        }
        nlohmann::json j;
        j["split"] = o->split;
        for (const char *set : {"fairytaleqa", "qmsum"}) {
            Data only;
            only.fairytaleqa = std::string(set) == "fairytaleqa" ? o->data.fairytaleqa : std::string();
            only.qmsum = std::string(set) == "qmsum" ? o->data.qmsum : std::string();
            if (only.fairytaleqa.empty() && only.qmsum.empty())
                continue;
            std::vector<pipeline::QuestionExample> ex = examplesOf(only, QString::fromStdString(o->split));
            if (o->limit >= 0 && std::size_t(o->limit) < ex.size())
                ex.resize(std::size_t(o->limit));
            const bool conversation = std::string(set) == "qmsum";
            nlohmann::json r;
            r["examples"] = ex.size();
            SystemScore templ;
            auto t0 = std::chrono::steady_clock::now();
            for (const auto &e : ex)
                templ.add(e, templateQuestion(drafter, e, conversation));
            templ.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            r["templates"] = templ.json();
            for (const auto &[dir, g] : models) {
                SystemScore sc;
                t0 = std::chrono::steady_clock::now();
                for (std::size_t i = 0; i < ex.size(); ++i) {
                    sc.add(ex[i], g.generate(ex[i].answer, ex[i].evidence));
                    reportProgress("eval-questions", long(i + 1), long(ex.size()));
                }
                sc.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                r[dir] = sc.json();
                r[dir]["copy_head"] = g.hasCopyHead();
                r[dir]["beams"] = g.settings.numBeams;
            }
            j[set] = r;
        }
        std::cout << j.dump(2) << std::endl;
    });
}

} // namespace

void registerQsQuestionCommands(CLI::App *qs)
{
    registerTrain(qs);
    registerEvalQuestions(qs);
}

} // namespace folio::cli
