// folio-cli qs train: a small BART for question-summary hierarchies, from scratch, on QMSum or a
// .folio project (its documents with QS hierarchies; every 10th is the dev set when there are 10+).
//   qs train --data ../shared/data/qmsum|PROJECT.folio --out DIR [--epochs N --time-budget S --resume ...]
//            [--hibrids none|encoder|decoder --seed N]
// --hibrids trains HIBRIDS bias tables with the model, fed with each example's section layout (the
// HibridsSource that qs generate also builds); BENCHMARKS.md "HIBRIDS biases: with and without".
// Vocabulary: SentencePiece (unigram, through folio-spm-train) trained on the training split's
// turns and reference texts; ids past it are the BOS / EOS and the HIBRIDS depth / paragraph
// markers (config.json "folio_qs"). Examples: every meeting (topics as sections -> the linearised
// reference tree) and every specific query with evidence (its evidence turns -> "{ question? answer").
// Model selection: dev loss on the val split.
#include "app/cli/commands.h"
#include "app/cli/qstrainrun.h"
#include "app/cli/ranklauncher.h"
#include "document/project/projectlocation.h"
#include "inference/models/modelrunner.h"
#include "inference/qs/qstrain.h"
#include "inference/tokenizers/tokenizer.h"
#include "pipeline/qs/qmsum.h"
#include "pipeline/qs/qsinputs.h"
#include "pipeline/qs/qsproject.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <thread>
#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTextStream>

#include <csignal>
#include <iostream>

namespace folio::cli {

namespace {

void writeVocabText(const std::vector<pipeline::QmsumMeeting> &meetings, const QString &path, int linesPerSample)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        throw CliError(path.toStdString() + ": cannot write: " + f.errorString().toStdString());
    QTextStream out(&f);
    for (const pipeline::QmsumMeeting &m : meetings) {
        int lines = 0;
        for (const pipeline::QsSectionText &s : m.input.sections) {
            out << s.title << '\n';
            for (const QString &p : s.paragraphs)
                if (lines++ < linesPerSample)
                    out << p << '\n';
        }
        out << QString::fromStdString(inference::linearizeQsTarget(m.reference)) << '\n';
    }
}

// The linearised source with its section layout: the HIBRIDS index of training is computed from the
// same HibridsSource that `qs generate` hands the generator (seq2seqSource).
void setSource(inference::QsTrainExample *e, inference::HibridsSource &&doc)
{
    e->source = std::move(doc.ids);
    e->sectionParent = std::move(doc.sectionParent);
    e->tokenToSection = std::move(doc.tokenToSection);
}

std::vector<inference::QsTrainExample> examplesOf(const std::vector<pipeline::QmsumMeeting> &meetings,
                                                  const pipeline::QsVocabulary &vocab, int maxSource, bool withQueries)
{
    std::vector<inference::QsTrainExample> out;
    for (const pipeline::QmsumMeeting &m : meetings) {
        inference::QsTrainExample e;
        setSource(&e, pipeline::qsSource(vocab, m.input, maxSource));
        e.target = pipeline::encodeQsText(vocab, QString::fromStdString(inference::linearizeQsTarget(m.reference)));
        out.push_back(std::move(e));
        if (!withQueries)
            continue;
        for (std::size_t k = 0; k < m.reference.items.size() && k < m.evidence.size(); ++k) {
            if (m.evidence[k].empty())
                continue;
            pipeline::QsInput in;
            pipeline::QsSectionText sec;
            for (const auto &span : m.evidence[k])
                for (int t = span.first; t <= span.second && t < int(m.turns.size()); ++t)
                    sec.paragraphs << m.turns.at(t);
            in.sections.push_back(sec);
            inference::QsHierarchy h;
            h.items.push_back(m.reference.items[k]);
            inference::QsTrainExample q;
            setSource(&q, pipeline::qsSource(vocab, in, maxSource));
            q.target = pipeline::encodeQsText(vocab, QString::fromStdString(inference::linearizeQsTarget(h)));
            out.push_back(std::move(q));
        }
    }
    return out;
}

} // namespace

void registerQsTrainCommand(CLI::App &qs)
{
    auto *cmd = qs.add_subcommand("train", "Train a small BART from scratch on QMSum (vocabulary, examples, dev selection on val)");
    struct Opts
    {
        std::string data = "../shared/data/qmsum", out;
        int epochs = 3, batch = 4, vocab = 6000, dModel = 256, layers = 3, heads = 4, ffn = 1024;
        int maxSource = 512, maxTarget = 256, threads = 2, limit = -1;
        double lr = 5e-4, budget = 0;
        bool resume = false, float16 = false, noQueries = false;
        std::string vocabModel, hibrids = "none";
        std::uint64_t seed = 13;
        int gradientShards = 1;
        RankOptions ranks;
    };
    auto o = std::make_shared<Opts>();
    cmd->add_option("--data", o->data, "QMSum folder (train and val splits) or a .folio project with QS hierarchies");
    cmd->add_option("--out", o->out, "Checkpoint folder to write")->required();
    cmd->add_option("--epochs", o->epochs, "Epochs")->check(CLI::Range(1, 1000));
    cmd->add_option("--batch", o->batch, "Examples per optimiser step")->check(CLI::Range(1, 256));
    cmd->add_option("--lr", o->lr, "Peak learning rate")->check(CLI::Range(1e-7, 1.0));
    cmd->add_option("--vocab-size", o->vocab, "SentencePiece vocabulary size")->check(CLI::Range(200, 64000));
    cmd->add_option("--d-model", o->dModel, "Hidden size")->check(CLI::Range(16, 2048));
    cmd->add_option("--layers", o->layers, "Encoder and decoder layers each")->check(CLI::Range(1, 24));
    cmd->add_option("--heads", o->heads, "Attention heads")->check(CLI::Range(1, 32));
    cmd->add_option("--ffn", o->ffn, "Feed-forward size")->check(CLI::Range(16, 8192));
    cmd->add_option("--max-source", o->maxSource, "Source tokens kept (sections cut at the limit)")->check(CLI::Range(16, 16384));
    cmd->add_option("--max-target", o->maxTarget, "Target tokens kept")->check(CLI::Range(8, 4096));
    cmd->add_option("--time-budget", o->budget, "Stop after the epoch that passes this many seconds (0: none)");
    cmd->add_option("--limit", o->limit, "First N training meetings only");
    cmd->add_option("--threads", o->threads, "Torch / BLAS threads");
    cmd->add_option("--hibrids", o->hibrids,
                    "HIBRIDS biases trained with the model: none, encoder (a table per encoder layer) or decoder "
                    "(the last cross-attention); tables start at N(0, 0.02)")
        ->check(CLI::IsMember({"none", "encoder", "decoder"}));
    cmd->add_option("--seed", o->seed, "Seed of the initial weights and the example order");
    cmd->add_flag("--resume", o->resume, "Continue from <out>/resume (weights, optimiser, epoch)");
    cmd->add_flag("--float16", o->float16, "Store the selected weights as float16");
    cmd->add_flag("--no-query-examples", o->noQueries, "Only whole meetings (no evidence -> query examples)");
    cmd->add_option("--vocab", o->vocabModel, "Use this SentencePiece .model instead of training one (the same file on every machine)");
    addRankOptions(cmd, &o->ranks);
    cmd->add_option("--gradient-shards", o->gradientShards,
                    "Split each batch into N shards in this process and average their gradients (what --nproc N computes)")
        ->check(CLI::Range(1, 64));
    cmd->callback([o]() {
        if (runLocalRanks(o->ranks))
            return; // the ranks did the work; rank 0 printed the result
        const QString data = QString::fromStdString(o->data);
        std::vector<pipeline::QmsumMeeting> train, val;
        QString error;
        if (QFileInfo(data).isFile() || looksLikeProjectLocation(data)) { // a .folio project: documents with a QS tree, every 10th for dev
            std::vector<pipeline::QmsumMeeting> all;
            if (!pipeline::readQsProject(data, &all, &error))
                throw CliError(error.toStdString());
            if (all.empty())
                throw CliError(o->data + ": no document has a question-summary hierarchy to learn from");
            for (std::size_t i = 0; i < all.size(); ++i)
                ((all.size() >= 10 && i % 10 == 9) ? val : train).push_back(std::move(all[i]));
            if (o->limit >= 0 && int(train.size()) > o->limit)
                train.resize(std::size_t(o->limit));
        } else if (!pipeline::readQmsumSplit(data, QStringLiteral("train"), &train, &error, o->limit)
                   || !pipeline::readQmsumSplit(data, QStringLiteral("val"), &val, &error)) {
            throw CliError(error.toStdString());
        }
        const QString out = QString::fromStdString(o->out);
        const QString vocabDir = QDir(out).filePath(QStringLiteral("vocab"));
        if (!QDir().mkpath(vocabDir))
            throw CliError(vocabDir.toStdString() + ": cannot create");
        const QString spmModel = QDir(vocabDir).filePath(QStringLiteral("spm.model"));
        const QString ready = QDir(vocabDir).filePath(QStringLiteral("ready"));
        const inference::DistributedConfig &dist = o->ranks.distributed;
        if (!o->vocabModel.empty()) {
            QFile::remove(spmModel);
            if (!QFile::copy(QString::fromStdString(o->vocabModel), spmModel))
                throw CliError(o->vocabModel + ": cannot copy the vocabulary into " + vocabDir.toStdString());
        } else if (dist.enabled() && !dist.writes()) {
            // Rank 0 trains the vocabulary into the (shared) output folder; the others wait for it.
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(std::max(60, dist.timeoutSeconds));
            while (!QFile::exists(ready)) {
                if (std::chrono::steady_clock::now() > until)
                    throw CliError("rank " + std::to_string(dist.rank) + ": no vocabulary from rank 0 in " + vocabDir.toStdString() +
                                   "; across machines give --vocab FILE (the same .model everywhere)");
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
            }
        } else if (!(o->resume && QFile::exists(spmModel))) {
            QFile::remove(ready);
            const QString text = QDir(vocabDir).filePath(QStringLiteral("text.txt"));
            writeVocabText(train, text, 150);
            std::cerr << "qs train: SentencePiece vocabulary (" << o->vocab << ")" << std::endl;
            inference::trainSentencePiece(text.toStdString(), QDir(vocabDir).filePath(QStringLiteral("spm")).toStdString(),
                                          o->vocab, "unigram", 1.0);
            QFile::remove(text);
            QFile marker(ready);
            if (!marker.open(QIODevice::WriteOnly))
                throw CliError(ready.toStdString() + ": cannot write");
        }
        const pipeline::QsVocabulary vocab = pipeline::folioQsVocabulary(inference::makeSentencePieceTokenizer(spmModel.toStdString()));
        const int v = vocab.tokenizer->vocabSize();

        inference::QsTrainOptions t;
        t.outDir = o->out;
        t.size.dModel = o->dModel;
        t.size.encoderLayers = t.size.decoderLayers = o->layers;
        t.size.heads = o->heads;
        t.size.ffn = o->ffn;
        t.size.vocab = v + 10;
        t.size.maxSourcePositions = o->maxSource;
        t.size.maxTargetPositions = o->maxTarget;
        t.size.pad = int(vocab.pad);
        t.size.bos = v;
        t.size.eos = t.size.decoderStart = v + 1;
        t.epochs = o->epochs;
        t.batch = o->batch;
        t.lr = o->lr;
        t.seed = o->seed;
        t.hibrids = o->hibrids;
        t.timeBudgetSeconds = o->budget;
        t.resume = o->resume;
        t.float16 = o->float16;
        t.copyFiles = {spmModel.toStdString()};
        t.distributed = dist;
        t.gradientShards = o->gradientShards;
        t.extraConfigJson = nlohmann::json{{"folio_qs",
                                            {{"depth_markers", vocab.markers.depth},
                                             {"paragraph_separator", vocab.markers.paragraphSeparator},
                                             {"data", o->data},
                                             {"source", "QMSum topics as sections; targets: intended linearisation"}}}}
                                .dump();
        const auto trainEx = examplesOf(train, vocab, o->maxSource, !o->noQueries);
        const auto devEx = examplesOf(val, vocab, o->maxSource, false);
        std::cerr << "qs train: " << trainEx.size() << " training examples (" << train.size() << " meetings), "
                  << devEx.size() << " dev meetings" << std::endl;
        inference::configureThreads(o->threads);
        const inference::QsTrainResult r = runQsTraining("qs train", trainEx, devEx, t, o->out, 10);
        nlohmann::json j = {{"out", o->out},
                            {"epochs_run", r.epochsRun},
                            {"best_epoch", r.bestEpoch},
                            {"best_dev_loss", r.bestDevLoss},
                            {"last_train_loss", r.lastTrainLoss},
                            {"steps", r.steps},
                            {"hibrids", o->hibrids},
                            {"seed", o->seed},
                            {"seconds", r.seconds},
                            {"cancelled", r.cancelled},
                            {"train_examples", trainEx.size()}};
        std::cout << j.dump(2) << std::endl;
        if (r.cancelled)
            throw CliError("cancelled (resume with --resume)", ExitCancelled);
    });
}

} // namespace folio::cli
