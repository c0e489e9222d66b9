#pragma once
// AttentionTrace (view side): the matrices one traced model run produced, as plain floats, plus
// what the view needs to put them on a document (token -> word map, identities, windows).
// Engine-independent and torch-free: it is filled from the named outputs of
// folio::inference::ModelRunner::run(trace = true) ("attentions.N" [B, H, L, L] post-softmax,
// "bias.*" [B, H, L, L] score terms) through ingest(), one call per output, so widgets/ never
// include an engine header.
//
// Windows: a document longer than the model's window is run as several windows (batch rows or
// separate runs). Each window keeps its own [layers][heads, Lw, Lw] block; tokens are numbered
// globally by concatenating the windows (a word in two overlapping windows has a token in each).
// Attention across windows was never computed: the view shows it as "not computed".

#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <vector>

namespace folio {

struct Document;

// Bias families as the view names them (same bits as inference::BiasFamily, plus graph).
enum AttentionBiasFamily : std::uint32_t {
    AttnBiasNone = 0,
    AttnBias1D = 1u << 0,
    AttnBias2D = 1u << 1,
    AttnBiasDisentangled = 1u << 2,
    AttnBiasHierarchical = 1u << 3,
    AttnBiasGraph = 1u << 4,
    AttnBiasLayoutFlow = 1u << 5, // LiLT's layout-flow scores (BiACM), "bias.layout_flow.N"
};
QString attentionBiasFamilyName(std::uint32_t family); // "1-D", "2-D", ... ("" for none)
// Family of a trace output name ("bias.1d" -> AttnBias1D, "bias.c2p.3" -> disentangled); None if unknown.
std::uint32_t biasFamilyOfTerm(const QString &termName);

struct AttentionWindow
{
    int firstToken = 0; // global index of this window's first token
    int length = 0;     // Lw
    std::vector<std::vector<float>> layers;          // per layer: [heads, Lw, Lw]
    std::map<QString, std::vector<float>> biasTerms; // name -> [heads, Lw, Lw]
};

struct AttentionTrace
{
    // Identity: a view refuses to mix a trace with another document or checkpoint.
    QString modelType;
    QString checkpoint;  // checkpoint folder (or id)
    QString documentId;  // attentionDocumentId(document), or the inputs file for prepared inputs
    int modelWindow = 0; // the model's maximum tokens per window (0 = unknown)
    std::uint32_t disabledBiases = AttnBiasNone; // families switched off for this run

    int layerCount = 0;
    int headCount = 0;
    std::vector<AttentionWindow> windows;
    // Global tokens (all windows concatenated).
    QStringList tokenText;       // display text per token ("[CLS]", "▁in", ...); may be empty
    std::vector<int> tokenWord;  // word index per token, -1 for special/padding tokens
    QStringList skipped;         // outputs ingest() could not show (blockwise graph attention parts)

    int tokenCount() const { return tokenWord.empty() ? totalWindowTokens() : int(tokenWord.size()); }
    int totalWindowTokens() const;
    bool isEmpty() const { return windows.empty() || layerCount == 0; }
    bool isStitched() const { return windows.size() > 1; }
    QStringList biasTermNames() const; // sorted union over windows
    std::uint32_t biasFamiliesPresent() const;

    // Adds one named output of a traced run. `shape` is [B, H, L, L] (or [H, L, L]) float32,
    // row-major; batch rows listed in `rows` become windows in that order (empty = every row).
    // Names that are not "attentions.N" or "bias.*" are ignored (returns true). Returns false and
    // sets *error for a shape that does not fit the trace so far.
    bool ingest(const QString &name, const std::vector<std::int64_t> &shape, const float *data,
                const std::vector<int> &rows, QString *error);
    // After every ingest(): checks layers are contiguous and every window complete, fills
    // tokenWord with -1 where missing. Returns false with a message otherwise.
    bool finish(QString *error);
    // Appends the windows of another run of the same model (a later window of a long document):
    // its tokens follow this trace's tokens. Layers and heads must match.
    bool appendWindows(const AttentionTrace &other, QString *error);

    // [heads, Lw, Lw] of one layer of one window (nullptr when out of range).
    const float *layerData(int window, int layer) const;
};

// A stable identity of a document's words (source path + word ids and texts), for refusing traces
// from another document.
QString attentionDocumentId(const Document &document);

} // namespace folio
