// folio-cli pretrain --corpus DIR|PROJECT --out DIR: self-supervised pretraining of the layout
// tagger's encoder on unlabelled documents (inference/formtagger/pretrain.h, pipeline/pretraincorpus.h).
#include "app/cli/commands.h"

#include "inference/formtagger/pretrain.h"
#include "pipeline/pretraincorpus.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <csignal>
#include <iostream>
#include <iterator>

namespace folio::cli {

namespace {
std::atomic<bool> s_stop{false};
extern "C" void onStop(int) { s_stop = true; }
} // namespace

void registerPretrainCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("pretrain", "Pretrain the layout tagger's encoder on unlabelled scans, PDFs and web pages "
                                               "(whole-word masked language modelling + masked box prediction)");
    struct Opts
    {
        std::vector<std::string> corpus;
        std::string lang = "eng";
        int dpi = 150, ocrWorkers = 0;
        double corpusFraction = 1.0;
        inference::PretrainConfig cfg;
    };
    auto o = std::make_shared<Opts>();
    cmd->add_option("--corpus", o->corpus, "A folder of documents (searched recursively) or a project; repeat for several")->required();
    cmd->add_option("--out", o->cfg.outputDir, "Output folder (the encoder, its vocabulary, last/ for --resume)")->required();
    cmd->add_option("--steps", o->cfg.steps, "Optimiser steps")->capture_default_str();
    cmd->add_option("--batch", o->cfg.batchSize, "Windows per step")->capture_default_str();
    cmd->add_option("--lr", o->cfg.lr, "Peak learning rate")->capture_default_str();
    cmd->add_option("--vocab-size", o->cfg.vocabSize, "SentencePiece vocabulary trained on the corpus")->capture_default_str();
    cmd->add_option("--tokenizer", o->cfg.tokenizerDir, "Use this folder's tokenizer instead of training one");
    cmd->add_option("--hidden", o->cfg.hidden, "Hidden size")->capture_default_str();
    cmd->add_option("--layers", o->cfg.layers, "Encoder layers")->capture_default_str();
    cmd->add_option("--heads", o->cfg.heads, "Attention heads")->capture_default_str();
    cmd->add_option("--intermediate", o->cfg.intermediate, "FFN size")->capture_default_str();
    cmd->add_option("--mask", o->cfg.maskFraction, "Fraction of words masked")->capture_default_str();
    cmd->add_option("--box-weight", o->cfg.boxLossWeight, "Weight of the masked box loss")->capture_default_str();
    cmd->add_option("--checkpoint-every", o->cfg.checkpointEvery, "Steps between resumable checkpoints")->capture_default_str();
    cmd->add_option("--corpus-fraction", o->corpusFraction,
                    "Pretrain on this fraction of the corpus's pages (a fixed seeded sample; smaller fractions are "
                    "subsets of larger ones): corpus-size curves")
        ->check(CLI::Range(0.0001, 1.0))
        ->capture_default_str();
    cmd->add_option("--min-words", o->cfg.minWords, "Refuse a corpus with fewer words")->capture_default_str();
    cmd->add_option("--seed", o->cfg.seed, "Random seed")->capture_default_str();
    cmd->add_option("--threads", o->cfg.threads, "Torch / BLAS threads")->capture_default_str();
    cmd->add_flag("--resume", o->cfg.resume, "Continue from <out>/last where an earlier run stopped");
    cmd->add_option("--lang", o->lang, "OCR languages for scans");
    cmd->add_option("--dpi", o->dpi, "PDF rasterisation for OCR and text-layer boxes")->check(CLI::Range(30, 1200));
    cmd->add_option("--ocr-workers", o->ocrWorkers, "OCR worker processes (0: one per core)");
    cmd->callback([o]() {
        std::signal(SIGINT, onStop);
        std::signal(SIGTERM, onStop);
        pipeline::LoadOptions load;
        load.ocrLanguages = QString::fromStdString(o->lang);
        load.pdfDpi = o->dpi;
        load.ocrWorkers = o->ocrWorkers;
        pipeline::PretrainCorpus corpus;
        std::string sources;
        for (const std::string &c : o->corpus) {
            pipeline::PretrainCorpus part;
            QString error;
            if (!pipeline::loadPretrainCorpus(QString::fromStdString(c), load, &part, &error,
                                              [](int done, int total) { reportProgress("pretrain: reading the corpus", done, total); },
                                              &s_stop))
                throw CliError(error.toStdString(), s_stop ? ExitCancelled : ExitFailure);
            corpus.files += part.files;
            corpus.used += part.used;
            corpus.unreadable += part.unreadable;
            corpus.empty += part.empty;
            corpus.refused += part.refused;
            corpus.words += part.words;
            corpus.skipped += part.skipped;
            std::move(part.pages.begin(), part.pages.end(), std::back_inserter(corpus.pages));
            sources += (sources.empty() ? "" : " ") + c;
        }
        const size_t pagesRead = corpus.pages.size();
        pipeline::samplePretrainPages(&corpus, o->corpusFraction);
        for (const QString &why : corpus.skipped)
            if (!quiet())
                std::cerr << "pretrain: skipped " << why.toStdString() << "\n";
        inference::PretrainConfig cfg = o->cfg;
        const bool sampled = corpus.pages.size() != pagesRead;
        cfg.command = "folio-cli pretrain --corpus " + sources + " --out " + cfg.outputDir + " --steps " + std::to_string(cfg.steps) +
                      (sampled ? " --corpus-fraction " + std::to_string(o->corpusFraction) : "");
        cfg.dataDescription = sources + ": " + std::to_string(corpus.used) + " of " + std::to_string(corpus.files) + " files, " +
                              (sampled ? std::to_string(corpus.pages.size()) + " of " + std::to_string(pagesRead) + " pages (sampled)"
                                       : std::to_string(corpus.pages.size()) + " pages") +
                              ", " + std::to_string(corpus.words) + " words";
        const inference::PretrainResult r = inference::pretrain(cfg, corpus.pages, [](const inference::PretrainProgress &p) {
            if (!quiet())
                std::cerr << "pretrain: step " << p.step << "/" << p.steps << ": MLM loss " << p.mlmLoss << ", box loss "
                          << p.boxLoss << ", " << long(p.wordsPerSecond) << " words/s, ETA " << long(p.etaSeconds) << " s\n";
        }, &s_stop);
        nlohmann::json corpusJson{{"files", corpus.files}, {"used", corpus.used}, {"unreadable", corpus.unreadable},
                                  {"empty", corpus.empty}, {"refused", corpus.refused}, {"pages", corpus.pages.size()},
                                  {"words", corpus.words}, {"pages_read", pagesRead}};
        if (r.cancelled) {
            std::cout << nlohmann::json{{"cancelled", true}, {"steps", r.steps}, {"resume", "folio-cli pretrain ... --resume"},
                                        {"corpus", corpusJson}}.dump(2) << std::endl;
            throw CliError("pretrain: stopped at step " + std::to_string(r.steps) + "; --resume continues from there", ExitCancelled);
        }
        if (!r.ok)
            throw CliError(r.error);
        std::cout << nlohmann::json{{"out", cfg.outputDir}, {"steps", r.steps}, {"seconds", r.seconds},
                                    {"words_per_second", r.wordsPerSecond}, {"first_mlm_loss", r.firstMlmLoss},
                                    {"last_mlm_loss", r.lastMlmLoss}, {"last_box_loss", r.lastBoxLoss}, {"corpus", corpusJson}}
                         .dump(2)
                  << std::endl;
    });
}

} // namespace folio::cli
