#pragma once
// Torch-free facade for the seq2seq models (BART, LED, HIBRIDS on LED): load a Hugging Face
// checkpoint folder and generate from token ids, with progress and cancel. No exception leaves it.
//
// HIBRIDS checkpoints (the released ones, once converted to safetensors with their state-dict
// names minus the fairseq `hf_model.` prefix, or with it) carry their variant in the weights: an
// encoder table per layer (`led.encoder.layers.N.self_attn.longformer_self_attn.relative_hierarchical_bias.weight`)
// or one decoder table (`led.decoder.layers.<last>.encoder_attn.relative_hierarchical_bias.weight`).
// A BART trained by `qs train --hibrids` carries them as `model.encoder.layers.N.self_attn.
// relative_hierarchical_bias.weight` [600, heads] (dense bias on every position: BART has no global
// attention) or `model.decoder.layers.<last>.encoder_attn.relative_hierarchical_bias.weight` [600, 1].
//
// Limits (the reference raises; Folio reports a clear error or clips, as documented here):
//  - source longer than the encoder's positions: truncated to fit (the final token kept when it
//    is EOS), with a warning in GenerationResult::warnings;
//  - section trees whose path between two sections is 20 or longer: error (the reference's
//    KeyError; trees up to 9 levels deep always fit);
//  - sources whose length is not a multiple of attention_window: padded (the reference crashes
//    when a HIBRIDS bias is given, MODELS.md §5.10 pitfall 2);
//  - HIBRIDS decoder variant with beams and several rows: the layout is expanded over the beams
//    (the reference supports one row at a time).

#include "inference/layers/hibrids.h"
#include "inference/qs/generation.h"
#include "inference/qs/qslinearize.h"

#include <memory>
#include <string>
#include <vector>

namespace folio::inference {

namespace detail {
class Seq2seqModel;
}

struct Seq2seqSource
{
    std::vector<std::int64_t> ids;          // encoder input, e.g. [0] + chunks + [2]
    std::vector<std::int64_t> globalTokens; // LED global attention positions (HIBRIDS uses {0})
    HibridsLayout layout;                   // HIBRIDS: sectionParent + tokenToSection (one per id)
};

// A linearised document (qslinearize.h) as a generator source: its ids and section layout, global
// attention on token 0 (the HIBRIDS pipeline's choice).
inline Seq2seqSource seq2seqSource(const HibridsSource &doc)
{
    Seq2seqSource s;
    s.ids = doc.ids;
    s.globalTokens = {0};
    s.layout.sectionParent = doc.sectionParent;
    s.layout.tokenToSection = doc.tokenToSection;
    return s;
}

class Seq2seqGenerator
{
public:
    Seq2seqGenerator();
    ~Seq2seqGenerator();
    Seq2seqGenerator(const Seq2seqGenerator &) = delete;
    Seq2seqGenerator &operator=(const Seq2seqGenerator &) = delete;

    // `<dir>/config.json` + `<dir>/model.safetensors` or `pytorch_model.bin`, or a fairseq
    // `<dir>/checkpoint_best.pt` (fairseq BART, config.json optional; HIBRIDS' release with the
    // Hugging Face model's config.json; inference/checkpoint/fairseq.h); false and *error (naming
    // file and tensor) on failure.
    bool load(const std::string &checkpointDir, std::string *error);
    bool isLoaded() const { return m_model != nullptr; }
    std::string modelType() const;     // "bart" | "led"
    std::string hibridsVariant() const; // "", "encoder" or "decoder"
    GenerationSettings defaultSettings() const; // from config.json (num_beams, max_length, ...)
    int maxSourceLength() const;

    // Dynamic int8 quantization of the encoder's and decoder's Linear layers (issue 35; off unless
    // asked; the LM head stays float32): LibTorch's fbgemm engine, oneDNN where this LibTorch has
    // no fbgemm (Predictor::int8Engine). False + *error when no model is loaded or no engine;
    // idempotent. Inference only: the fp32 weights are kept.
    bool quantizeDynamicInt8(std::string *error);
    bool isInt8() const;

    // One GeneratedSequence per source (rows padded together; batch rows are independent).
    GenerationResult generate(const std::vector<Seq2seqSource> &sources, const GenerationSettings &settings,
                              const GenerationCallback &progress = {}) const;

private:
    std::unique_ptr<detail::Seq2seqModel> m_model;
};

} // namespace folio::inference
