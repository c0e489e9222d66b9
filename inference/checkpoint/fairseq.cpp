// fairseq checkpoint_best.pt as a Folio seq2seq checkpoint (see fairseq.h).
#include "inference/checkpoint/fairseq.h"

#include "inference/checkpoint/torchpickle.h"
#include "inference/errors.h"
#include "common/regularfile.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>

namespace folio::inference {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char *kWrapper = "hf_model.";

bool startsWith(const std::string &s, const std::string &prefix)
{
    return s.compare(0, prefix.size(), prefix) == 0;
}

bool endsWith(const std::string &s, const std::string &suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The architecture settings: "args" (argparse.Namespace, older fairseq) or "cfg"["model"] (hydra;
// a dict, or a Namespace for the legacy architectures).
json architectureOf(const json &entries, std::string *from)
{
    if (entries.contains("args") && entries["args"].is_object()) {
        *from = "args";
        return entries["args"];
    }
    if (entries.contains("cfg") && entries["cfg"].is_object() && entries["cfg"].contains("model")
        && entries["cfg"]["model"].is_object()) {
        *from = "cfg.model";
        return entries["cfg"]["model"];
    }
    *from = "";
    return json::object();
}

// Hugging Face BART name of a fairseq BART tensor; "" drops it (fairseq's `version` buffers and the
// tied copies of the token table, checked separately).
std::string hfBartName(const std::string &name)
{
    if (name == "encoder.embed_tokens.weight")
        return "model.shared.weight";
    if (name == "decoder.embed_tokens.weight" || name == "decoder.output_projection.weight" || endsWith(name, ".version"))
        return "";
    if (startsWith(name, "encoder.") || startsWith(name, "decoder."))
        return "model." + name;
    return name; // anything else (classification heads, ...) keeps its name: the loader names it as unexpected
}

class ArchReader
{
public:
    ArchReader(const json &a, const std::string &source) : m_a(a), m_source(source) {}
    bool has(const char *key) const { return m_a.contains(key) && !m_a[key].is_null(); }
    long long integer(const char *key, long long fallback) const
    {
        if (!has(key))
            return fallback;
        if (!m_a[key].is_number_integer())
            throw InferenceError(m_source + ": '" + key + "' is not an integer");
        return m_a[key].get<long long>();
    }
    long long required(const char *key) const
    {
        if (!has(key))
            throw InferenceError(m_source + ": no '" + key + "' (the architecture is read from it; the weights do not tell it)");
        return integer(key, 0);
    }
    bool flag(const char *key, bool fallback) const
    {
        if (!has(key))
            return fallback;
        if (!m_a[key].is_boolean())
            throw InferenceError(m_source + ": '" + key + "' is not a boolean");
        return m_a[key].get<bool>();
    }
    std::string text(const char *key, const std::string &fallback) const
    {
        return has(key) && m_a[key].is_string() ? m_a[key].get<std::string>() : fallback;
    }

private:
    const json &m_a;
    const std::string &m_source;
};

// The Hugging Face BART config.json of a fairseq BART (what transformers' conversion script writes).
json bartConfig(const json &a, const std::string &source, const std::map<std::string, std::vector<std::int64_t>> &fsShapes)
{
    const ArchReader r(a, source);
    const auto shapeOf = [&](const std::string &name) -> const std::vector<std::int64_t> & {
        const auto it = fsShapes.find(name);
        if (it == fsShapes.end())
            throw InferenceError(source + ": the model has no tensor '" + name + "'"
                                 + (name.find("embed_positions") != std::string::npos
                                        ? " (sinusoidal positions: Folio runs BART's learned positions only)" : ""));
        return it->second;
    };
    // Every tensor whose size the config is built from must be a matrix of positive sizes (issue 51:
    // a 0-dim decoder.layers.0.fc1.weight was read as a size at index 0 of an empty shape).
    for (const auto &[name, shape] : fsShapes) {
        const bool sizing = name == "encoder.embed_tokens.weight" || name == "decoder.embed_tokens.weight"
                            || endsWith(name, "embed_positions.weight") || endsWith(name, ".fc1.weight");
        if (sizing && (shape.size() != 2 || shape[0] < 1 || shape[1] < 1))
            throw InferenceError(source + ": tensor '" + name + "' has shape " + shapeString(shape)
                                 + "; a fairseq BART has a matrix [rows, columns] there");
    }
    const auto &tokens = shapeOf("encoder.embed_tokens.weight");
    const long long d = r.integer("encoder_embed_dim", tokens[1]);
    if (d != tokens[1] || r.integer("decoder_embed_dim", d) != d)
        throw InferenceError(source + ": encoder_embed_dim / decoder_embed_dim differ from the token table's width "
                             + std::to_string(tokens[1]));
    if (r.flag("encoder_normalize_before", false) || r.flag("decoder_normalize_before", false))
        throw InferenceError(source + ": encoder/decoder_normalize_before is set (pre-LayerNorm, mBART-style); Folio's "
                                      "BART is post-LayerNorm");
    if (!r.flag("layernorm_embedding", true))
        throw InferenceError(source + ": layernorm_embedding is false; Folio's BART has the embedding LayerNorm");
    if (!r.flag("share_all_embeddings", true) && fsShapes.count("decoder.embed_tokens.weight")
        && fsShapes.at("decoder.embed_tokens.weight") != tokens)
        throw InferenceError(source + ": encoder and decoder token tables differ (share_all_embeddings false); Folio's "
                                      "BART has one table");
    const auto countLayers = [&](const std::string &prefix) {
        long long n = 0;
        while (fsShapes.count(prefix + std::to_string(n) + ".fc1.weight"))
            ++n;
        return n;
    };
    const long long encLayers = r.integer("encoder_layers", countLayers("encoder.layers."));
    const long long decLayers = r.integer("decoder_layers", countLayers("decoder.layers."));
    const auto ffn = [&](const char *key, const char *side) {
        const std::string fc1 = std::string(side) + ".layers.0.fc1.weight";
        return r.integer(key, fsShapes.count(fc1) ? fsShapes.at(fc1)[0] : 4 * d);
    };
    // fairseq's learned positions: max_positions + padding_idx + 1 rows, the first real one at row 2.
    const long long encPositions = shapeOf("encoder.embed_positions.weight")[0] - 2;
    const long long decPositions = shapeOf("decoder.embed_positions.weight")[0] - 2;
    if (encPositions != decPositions)
        throw InferenceError(source + ": encoder and decoder position tables differ in length; Hugging Face BART has one "
                                      "max_position_embeddings");
    json c = {{"model_type", "bart"},
              {"architectures", {"BartForConditionalGeneration"}},
              {"d_model", d},
              {"vocab_size", tokens[0]},
              {"encoder_layers", encLayers},
              {"decoder_layers", decLayers},
              {"encoder_attention_heads", r.required("encoder_attention_heads")},
              {"decoder_attention_heads", r.integer("decoder_attention_heads", r.required("encoder_attention_heads"))},
              {"encoder_ffn_dim", ffn("encoder_ffn_embed_dim", "encoder")},
              {"decoder_ffn_dim", ffn("decoder_ffn_embed_dim", "decoder")},
              {"max_position_embeddings", encPositions},
              {"activation_function", r.text("activation_fn", "gelu")},
              {"scale_embedding", !r.flag("no_scale_embedding", false)},
              // fairseq's Dictionary: <s> 0, <pad> 1, </s> 2, <unk> 3; generation starts with </s>.
              {"bos_token_id", 0},
              {"pad_token_id", 1},
              {"eos_token_id", 2},
              {"decoder_start_token_id", 2},
              {"forced_eos_token_id", 2},
              {"tie_word_embeddings", true},
              {"is_encoder_decoder", true},
              {"folio_source", "fairseq checkpoint " + source}};
    return c;
}

FairseqCheckpointInfo describeRead(const std::string &path, const TorchTrainingCheckpoint &ckpt)
{
    FairseqCheckpointInfo info;
    info.path = path;
    std::string from;
    const json arch = architectureOf(ckpt.entries, &from);
    const std::string source = path + (from.empty() ? std::string() : " (" + from + ")");
    info.arch = arch.contains("arch") && arch["arch"].is_string()   ? arch["arch"].get<std::string>()
                : arch.contains("_name") && arch["_name"].is_string() ? arch["_name"].get<std::string>()
                                                                      : std::string();
    const bool wrapped = std::any_of(ckpt.shapes.begin(), ckpt.shapes.end(),
                                     [](const auto &kv) { return startsWith(kv.first, kWrapper); });
    if (wrapped) {
        info.form = "hf-wrapped";
        if (arch.contains("hf_model_name") && arch["hf_model_name"].is_string())
            info.hfModelName = arch["hf_model_name"].get<std::string>();
        for (const auto &[name, shape] : ckpt.shapes)
            if (startsWith(name, kWrapper))
                info.shapes[name.substr(std::strlen(kWrapper))] = shape;
        return info;
    }
    if (!ckpt.shapes.count("encoder.embed_tokens.weight") || !ckpt.shapes.count("decoder.layers.0.fc1.weight"))
        throw InferenceError(path + ": \"model\" holds neither fairseq BART names (encoder.embed_tokens.weight, "
                                    "decoder.layers.N...) nor a Hugging Face model under 'hf_model.'; not a seq2seq "
                                    "checkpoint Folio reads");
    if (from.empty())
        throw InferenceError(path + ": neither \"args\" nor \"cfg\"[\"model\"] holds the architecture");
    info.form = "fairseq-bart";
    info.config = bartConfig(arch, source, ckpt.shapes);
    for (const auto &[name, shape] : ckpt.shapes) {
        const std::string hf = hfBartName(name);
        if (!hf.empty())
            info.shapes[hf] = shape;
    }
    return info;
}

// The tied copies of the token table must be the same numbers (Folio's BART has one table).
void checkTied(const std::string &path, const TensorMap &read)
{
    const Tensor &tokens = read.at("encoder.embed_tokens.weight");
    for (const char *name : {"decoder.embed_tokens.weight", "decoder.output_projection.weight"}) {
        const auto it = read.find(name);
        if (it != read.end() && (it->second.shape != tokens.shape || it->second.dtype != tokens.dtype
                                 || it->second.bytes != tokens.bytes))
            throw InferenceError(path + ": tensor '" + name + "' differs from encoder.embed_tokens.weight; Folio's BART "
                                 "ties the decoder's input and output embeddings to the encoder's token table");
    }
}

} // namespace

std::string fairseqCheckpointIn(const std::string &dir)
{
    const fs::path d(dir);
    if (pathExists((d / "model.safetensors").string()) || pathExists((d / "pytorch_model.bin").string()))
        return {};
    // Anything by that name (a FIFO, a link to /dev/zero) is the checkpoint: StoredZip refuses what
    // is not a regular file by name (issue 51) instead of "config.json: cannot open".
    const std::string pt = (d / "checkpoint_best.pt").string();
    return pathExists(pt) ? pt : std::string();
}

FairseqCheckpointInfo describeFairseqCheckpoint(const std::string &path)
{
    return describeRead(path, readTorchTrainingCheckpoint(path, "model", false));
}

TensorMap readFairseqCheckpoint(const std::string &path, FairseqCheckpointInfo *infoOut)
{
    TorchTrainingCheckpoint ckpt = readTorchTrainingCheckpoint(path, "model", true);
    FairseqCheckpointInfo info = describeRead(path, ckpt);
    if (info.form == "fairseq-bart")
        checkTied(path, ckpt.tensors);
    TensorMap out;
    for (auto it = ckpt.tensors.begin(); it != ckpt.tensors.end(); it = ckpt.tensors.erase(it)) {
        std::string name = it->first;
        if (info.form == "hf-wrapped") {
            if (!startsWith(name, kWrapper))
                continue; // the wrapper's own buffers (HIBRIDS' decode scripts drop them too)
            name = name.substr(std::strlen(kWrapper));
        } else {
            name = hfBartName(name);
            if (name.empty())
                continue;
        }
        out.emplace(name, std::move(it->second));
    }
    if (infoOut)
        *infoOut = std::move(info);
    return out;
}

} // namespace folio::inference
