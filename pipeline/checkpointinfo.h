#pragma once
// What a checkpoint folder is and whether Folio can run it, told before anything is loaded
// (issue 32; `folio-cli info --checkpoint DIR`). Torch-free.
//
// The description reuses the checks each loader makes before it reads a weight: config.json
// through ModelConfig::fromDirectory (its sizes against the safetensors header shapes), the
// token classifiers' and MarkupLM's folder checks (checkFolder: model_type, id2label, tokenizer
// class / files / ids against vocab_size), the seq2seq vocabulary (loadQsVocabulary), the image
// processing of a visual checkpoint (readImageProcessing), a drafter's drafter.json (QsDrafter).
// Weights are never read: model.safetensors is memory-mapped for its header only (tensor names,
// shapes, the parameter count), pytorch_model.bin is told by its first bytes (a torch zip archive,
// or a bare pickle Folio does not read), and a fairseq checkpoint_best.pt (or FILE.pt given
// instead of a folder) by its pickle alone (inference/checkpoint/fairseq.h: form, arch, names and
// shapes; a fairseq BART's config built from its args when the folder has no config.json).
//
// The JSON:
//   folder, kind ("hugging-face" | "folio" | "folio-qs-drafter" | "unknown"), model_type,
//   architectures, head ("token-classification" | "question-answering" | "seq2seq" |
//   "span-extraction" | "encoder" | ""), task, gui (the action that runs it), cli (the command),
//   files {config, weights {file, format, bytes, tensors, parameters}, tokenizer [...], other [...]},
//   labels {count, names}, hibrids ("" | "encoder" | "decoder"), visual (bool), data and licence
//   (folio.json "data", RECIPE.md's licence paragraph), notes [...], runnable, problems [...]
//   (each names the file and what is wrong).

#include <QString>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace folio::pipeline {

// Every check (checkpointchecks.cpp: links LibTorch through the model registry and the loaders).
nlohmann::json describeCheckpoint(const QString &dir);

// The same description in a program without LibTorch (folio-cli-front, issue 46): every check
// above but the six that live in LibTorch-linked code (CheckpointChecks). *complete is false, and
// the description unfinished, when the folder needs one of them (a tagger ensemble, a drafter,
// a BART / LED, a MarkupLM, a model_type no task runs, or a config.json this cannot read as
// describeCheckpoint would); the caller then asks describeCheckpoint (folio-cli-engine). When *complete is true the
// JSON is describeCheckpoint's, byte for byte.
nlohmann::json describeCheckpointWithoutLibTorch(const QString &dir, bool *complete);

namespace detail {

// The checks describeCheckpoint makes through code that links LibTorch; a null one is a check
// the calling program cannot make.
struct CheckpointChecks
{
    std::vector<std::string> (*runnerTypes)() = nullptr;                               // ModelRunner::supportedModelTypes
    std::vector<std::string> (*ensembleMembers)(const std::string &dir) = nullptr;     // inference::taggerEnsembleMembers
    bool (*checkEnsemble)(const std::string &dir, std::string *error) = nullptr;       // inference::checkTaggerEnsemble
    bool (*loadDrafter)(const QString &dir, QString *error) = nullptr;                 // QsDrafter::load
    bool (*loadQsVocabulary)(const QString &dir, QString *error) = nullptr;            // loadQsVocabulary
    bool (*checkMarkupLm)(const std::string &dir, std::string *error) = nullptr;       // HfMarkupLM::checkFolder
};

// The description with `checks`; *complete (may be null when every check is given) false when a
// null check was needed.
nlohmann::json describeCheckpointWith(const QString &dir, const CheckpointChecks &checks, bool *complete);

} // namespace detail

} // namespace folio::pipeline
