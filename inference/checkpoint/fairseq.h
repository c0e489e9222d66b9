#pragma once
// fairseq training checkpoints (checkpoint_best.pt) read as Folio seq2seq checkpoints, with no
// Python step (issue 32). Torch-free. The file is torch.save's zip of a dict {"args": Namespace or
// None, "cfg": dict or None, "model": state dict, "optimizer_history", "extra_state", ...}, read by
// readTorchTrainingCheckpoint (torchpickle.h: inert classes as data, anything else refused).
//
// Two forms of "model":
//  - "fairseq-bart": fairseq's own BART names (encoder.embed_tokens.weight,
//    encoder.layers.N.self_attn.k_proj.weight, decoder.output_projection.weight, ...). The
//    architecture comes from "args" (argparse.Namespace) or "cfg"["model"]: layers, heads,
//    embedding / FFN sizes, activation, embedding scale; vocabulary and positions from the weights'
//    shapes (fairseq's learned positions start at padding_idx + 1 = 2, as Hugging Face BART's).
//    The names become Hugging Face BART's (model.shared.weight, model.encoder.layers.N...), the
//    tied embeddings and output projection are checked to be one table, `*.version` is dropped,
//    and a config.json is built for it (a config.json in the folder wins). HIBRIDS tables keep
//    their names under model. (a Folio BART's encoder / decoder variant).
//  - "hf-wrapped": a Hugging Face model inside a fairseq wrapper (HIBRIDS' release: fairseq
//    model hf_led, `hf_model.led.encoder...`, `hf_model.lm_head.weight`), as HIBRIDS' own decode
//    scripts read it: the keys under `hf_model.` without the prefix. The checkpoint does not hold
//    the architecture (cfg.model.hf_model_name names the Hugging Face model, e.g.
//    allenai/led-large-16384), so the folder needs that model's config.json.
// Tokenizer: the folder's Hugging Face files (vocab.json + merges.txt), else fairseq's dict.txt +
// encoder.json + vocab.bpe (tokenizers/fairseqdictionary.h, pipeline/qs/qsinputs.h); the weights and
// config need none.

#include "inference/checkpoint/tensor.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace folio::inference {

struct FairseqCheckpointInfo
{
    std::string path;
    std::string form;        // "fairseq-bart" | "hf-wrapped"
    std::string hfModelName; // hf-wrapped: cfg.model.hf_model_name (or args.hf_model_name), may be ""
    std::string arch;        // args.arch / cfg.model._name
    nlohmann::json config;   // fairseq-bart: the Hugging Face config built from args/cfg; null otherwise
    std::map<std::string, std::vector<std::int64_t>> shapes; // by the Hugging Face names Folio loads
};

// "<dir>/checkpoint_best.pt" when the folder has it and neither model.safetensors nor
// pytorch_model.bin (those are read first); "" otherwise.
std::string fairseqCheckpointIn(const std::string &dir);

// The pickle alone (no tensor copied): form, names, shapes, the config. Throws InferenceError naming
// the file and what is missing or unsupported.
FairseqCheckpointInfo describeFairseqCheckpoint(const std::string &path);

// The model's tensors by Hugging Face names (the storages' dtype); *info as describeFairseqCheckpoint.
TensorMap readFairseqCheckpoint(const std::string &path, FairseqCheckpointInfo *info = nullptr);

} // namespace folio::inference
