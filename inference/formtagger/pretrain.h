#pragma once
// Self-supervised pretraining of the layout tagger's encoder on unlabelled pages (issue 16).
// Torch-free facade; no exception leaves pretrain().
//
// Objectives, on the tagger's own encoder (detail/taggermodel.h, same weight names, so that
// `folio-cli train --init DIR` starts from it):
//  - masked language modelling over whole words: maskFraction of the words are chosen; 80 % of
//    them have every sub-token replaced by the mask piece (the vocabulary's unknown piece), 10 % a
//    random piece, 10 % stay; the model predicts each chosen word's first sub-token;
//  - masked box prediction: the chosen words' boxes and neighbour gaps are hidden from the input
//    and the model regresses them (0-1 coordinates, L1).
// Data order and masks are functions of (seed, step), so an interrupted run resumed from its last
// checkpoint continues exactly where it stopped.
//
// Output folder: config.json + model.safetensors (a folio-formtagger with one label, loadable
// as an encoder), spm.model (the vocabulary, trained on the corpus unless given), heads.safetensors
// (the MLM and box heads), folio.json (corpus, steps, losses, throughput), and last/ (weights,
// heads, optimiser state and step every checkpointEvery steps) for --resume.
#include "inference/formtagger/trainer.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace folio::inference {

struct PretrainConfig
{
    std::string outputDir;
    std::string tokenizerDir;  // a folder with a tokenizer; empty: SentencePiece trained on the corpus words
    int vocabSize = 4000;
    int hidden = 256, layers = 4, heads = 4, intermediate = 1024;
    int maxWords = 512;        // pages are cut into windows of this many words
    long steps = 1000;
    int batchSize = 8;
    double lr = 5e-4, weightDecay = 0.01, warmupFraction = 0.06, clipNorm = 1.0, dropout = 0.1;
    double maskFraction = 0.15;
    double boxLossWeight = 1.0;
    long checkpointEvery = 100;
    long minWords = 2000;      // a smaller corpus is refused with a message
    unsigned seed = 1;
    int threads = 2;
    bool resume = false;
    std::string command, dataDescription; // recorded in folio.json
};

struct PretrainProgress
{
    long step = 0, steps = 0;
    double mlmLoss = 0, boxLoss = 0; // running means since the last report
    double wordsPerSecond = 0;
    double etaSeconds = 0;
};

struct PretrainResult
{
    bool ok = false;
    bool cancelled = false; // stopped on request after writing a resumable checkpoint
    std::string error;
    long steps = 0;         // optimiser steps done in total (resumed runs included)
    double seconds = 0;     // training time of this run
    double wordsPerSecond = 0;
    double firstMlmLoss = 0, lastMlmLoss = 0, lastBoxLoss = 0; // means over the first / last 10 steps of this run
    long corpusWords = 0;
};

PretrainResult pretrain(const PretrainConfig &config, const std::vector<TaggerPage> &corpus,
                        const std::function<void(const PretrainProgress &)> &progress = {},
                        const std::atomic<bool> *cancel = nullptr);

} // namespace folio::inference
