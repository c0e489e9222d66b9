#pragma once
// AttentionViewModel: what the attention heatmap and the page overlay show, computed from an
// AttentionTrace (widgets/attentiontrace.h). Torch-free and engine-free.
//
//   AttentionViewModel vm;
//   vm.setDocument(doc, &annotations);          // optional: words/entities/sections/DOM nodes
//   if (!vm.setTrace(trace, &error)) ...        // refuses a trace of another document/checkpoint
//   vm.setLayer(3); vm.setHead(-1);             // -1 = average over layers / heads
//   vm.setMode(AttentionViewMode::BiasTerm, "bias.2d_x");
//   vm.setGranularity(AttentionGranularity::Words);
//   vm.setSelection({12, 13});                  // multi-selection: sums
//   vm.matrix();      // query x key matrix of the current view (units of the granularity)
//   vm.outgoing();    // per unit: how much the selection attends to it
//   vm.incoming();    // per unit: how much it attends to the selection
//   vm.perWord(vm.outgoing());                  // expand unit values to document words
//
// Roll-up rule: see widgets/attentionrollup.h (attention: sum over keys, mean over query
// sub-tokens; bias terms: mean over both). Matrices are recomputed lazily and cached: a layer or
// head change recomputes one [L, L] block per window, a selection change only the sums.

#include "document/annotations.h"
#include "document/document.h"
#include "attention/attentionrollup.h"
#include "attention/attentiontrace.h"

#include <QObject>

#include <map>
#include <memory>
#include <string>

namespace folio {

enum class AttentionViewMode {
    Attention,      // post-softmax probabilities
    BiasTerm,       // one bias term on its own (biasTerm() names it)
    Ablated,        // attention of the run with ablatedFamilies() switched off
    AblationDelta,  // attention minus ablated attention
};

struct AttentionMatrixView
{
    int rows = 0, cols = 0;
    std::vector<float> values; // row-major, NaN = not computed
    QStringList rowLabels, colLabels;
    QString title;             // e.g. "layer 3 · head 5 · attention · words"
    bool diverging = false;    // signed values (bias terms, deltas): colour around 0
    float minValue = 0, maxValue = 0;
};

// Named float matrices plus identity metadata, ready for a safetensors writer.
struct AttentionExport
{
    struct Matrix
    {
        std::string name;
        std::vector<std::int64_t> shape;
        std::vector<float> values;
    };
    std::vector<Matrix> matrices;
    std::map<std::string, std::string> metadata;
};

class AttentionViewModel : public QObject
{
    Q_OBJECT
public:
    // Larger unit sets are not drawn as a matrix (it would need units² cells): the view asks for a
    // coarser granularity instead (long documents at token level).
    static constexpr int kMaxMatrixUnits = 4096;

    explicit AttentionViewModel(QObject *parent = nullptr);
    ~AttentionViewModel() override;

    // The document the trace belongs to (empty document = none: prepared inputs).
    void setDocument(const Document &document, const Annotations *annotations = nullptr);
    void setAnnotations(const Annotations &annotations);
    const Document &document() const { return m_document; }

    // Takes a finished trace. Returns false with a message (and keeps the current one) when it
    // belongs to another document, is empty, or its windows exceed the model's window.
    bool setTrace(AttentionTrace trace, QString *error);
    // The same run with bias families switched off (trace.disabledBiases). Must match the main
    // trace's document, checkpoint, layers, heads and windows.
    bool setAblatedTrace(AttentionTrace trace, QString *error);
    void clear();
    bool hasTrace() const { return !m_trace.isEmpty(); }
    const AttentionTrace &trace() const { return m_trace; }
    const AttentionTrace *ablatedTrace() const { return m_ablated.isEmpty() ? nullptr : &m_ablated; }

    int layerCount() const { return m_trace.layerCount; }
    int headCount() const { return m_trace.headCount; }
    int layer() const { return m_layer; }
    int head() const { return m_head; }
    AttentionViewMode mode() const { return m_mode; }
    QString biasTerm() const { return m_biasTerm; }
    AttentionGranularity granularity() const { return m_granularity; }
    const std::vector<int> &selection() const { return m_selection; }
    // "" or e.g. "stitched from 3 windows of 512 tokens: attention across windows not computed".
    QString windowNote() const;
    QString describe() const; // one line: layer, head, mode, granularity, window note

    // The units of the current granularity.
    const AttentionUnits &units() const;
    // The current view's matrix (units x units).
    const AttentionMatrixView &matrix() const;
    // Token-level [Lw, Lw] matrix of one window for the current layer/head/mode.
    std::vector<float> windowMatrix(int window) const;
    std::vector<float> outgoing() const; // per unit
    std::vector<float> incoming() const; // per unit
    // Expands per-unit values to the document's words (0 for words without a unit).
    std::vector<float> perWord(const std::vector<float> &unitValues) const;
    // Units of a word (for clicks on the page): -1 when the word is in no unit.
    int unitOfWord(int wordIndex) const;

    AttentionExport exportMatrices() const;

public Q_SLOTS:
    void setLayer(int layer); // -1 = average over layers; clamped
    void setHead(int head);   // -1 = average over heads; clamped
    void setMode(folio::AttentionViewMode mode, const QString &biasTerm = QString());
    void setGranularity(folio::AttentionGranularity granularity);
    void setSelection(const std::vector<int> &units); // duplicates and out-of-range dropped
    void clearSelection();

Q_SIGNALS:
    void traceChanged();
    void matrixChanged();
    void selectionChanged();

private:
    void invalidate();
    void accumulateLayer(const AttentionTrace &t, int window, int layer, std::vector<float> *out) const;
    std::vector<float> attentionWindow(const AttentionTrace &t, int window) const;
    std::vector<float> biasWindow(int window) const;

    Document m_document;
    Annotations m_annotations;
    bool m_hasDocument = false;
    AttentionTrace m_trace;
    AttentionTrace m_ablated;
    int m_layer = 0;
    int m_head = 0;
    AttentionViewMode m_mode = AttentionViewMode::Attention;
    QString m_biasTerm;
    AttentionGranularity m_granularity = AttentionGranularity::Tokens;
    std::vector<int> m_selection;

    mutable bool m_unitsValid = false;
    mutable AttentionUnits m_units;
    mutable bool m_matrixValid = false;
    mutable AttentionMatrixView m_matrix;
    mutable UnitMatrix m_unitMatrix;
};

} // namespace folio
