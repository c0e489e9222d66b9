#include "attention/attentionviewmodel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace folio {

AttentionViewModel::AttentionViewModel(QObject *parent) : QObject(parent) {}
AttentionViewModel::~AttentionViewModel() = default;

void AttentionViewModel::setDocument(const Document &document, const Annotations *annotations)
{
    m_document = document;
    m_annotations = annotations ? *annotations : Annotations();
    m_hasDocument = !document.isEmpty();
    // A trace of another document no longer applies.
    if (!m_trace.isEmpty() && m_hasDocument && !m_trace.documentId.isEmpty()
        && m_trace.documentId != attentionDocumentId(m_document)) {
        clear();
        return;
    }
    invalidate();
    Q_EMIT matrixChanged();
}

void AttentionViewModel::setAnnotations(const Annotations &annotations)
{
    m_annotations = annotations;
    invalidate();
    Q_EMIT matrixChanged();
}

bool AttentionViewModel::setTrace(AttentionTrace trace, QString *error)
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (trace.isEmpty())
        return fail(tr("The trace is empty: run the model with tracing on."));
    if (trace.headCount <= 0)
        return fail(tr("The trace has no attention heads."));
    if (m_hasDocument && !trace.documentId.isEmpty() && trace.documentId != attentionDocumentId(m_document))
        return fail(tr("This trace belongs to another document (%1), not to the one shown (%2); run the model on this document again.")
                        .arg(trace.documentId, attentionDocumentId(m_document)));
    for (std::size_t w = 0; w < trace.windows.size(); ++w)
        if (trace.modelWindow > 0 && trace.windows[w].length > trace.modelWindow)
            return fail(tr("Window %1 holds %2 tokens, more than the model's window of %3.")
                            .arg(w).arg(trace.windows[w].length).arg(trace.modelWindow));
    QString why;
    if (!trace.finish(&why))
        return fail(why);
    if (m_hasDocument)
        for (int w : trace.tokenWord)
            if (w >= int(m_document.words.size()))
                return fail(tr("The trace maps a token to word %1, but the document has %2 words.").arg(w).arg(m_document.words.size()));
    m_trace = std::move(trace);
    m_ablated = AttentionTrace();
    m_layer = std::clamp(m_layer, -1, m_trace.layerCount - 1);
    m_head = std::clamp(m_head, -1, m_trace.headCount - 1);
    if (m_mode != AttentionViewMode::Attention)
        m_mode = AttentionViewMode::Attention;
    m_selection.clear();
    invalidate();
    Q_EMIT traceChanged();
    Q_EMIT matrixChanged();
    Q_EMIT selectionChanged();
    return true;
}

bool AttentionViewModel::setAblatedTrace(AttentionTrace trace, QString *error)
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (m_trace.isEmpty())
        return fail(tr("Load the full trace before an ablated one."));
    QString why;
    if (trace.isEmpty() || !trace.finish(&why))
        return fail(why.isEmpty() ? tr("The ablated trace is empty.") : why);
    if (trace.documentId != m_trace.documentId || trace.checkpoint != m_trace.checkpoint)
        return fail(tr("The ablated trace comes from another document or checkpoint."));
    bool sameShape = trace.layerCount == m_trace.layerCount && trace.headCount == m_trace.headCount
                     && trace.windows.size() == m_trace.windows.size();
    for (std::size_t w = 0; sameShape && w < trace.windows.size(); ++w)
        sameShape = trace.windows[w].length == m_trace.windows[w].length;
    if (!sameShape)
        return fail(tr("The ablated trace has other layers, heads or windows than the full one."));
    m_ablated = std::move(trace);
    invalidate();
    Q_EMIT traceChanged();
    Q_EMIT matrixChanged();
    return true;
}

void AttentionViewModel::clear()
{
    m_trace = AttentionTrace();
    m_ablated = AttentionTrace();
    m_selection.clear();
    invalidate();
    Q_EMIT traceChanged();
    Q_EMIT matrixChanged();
    Q_EMIT selectionChanged();
}

void AttentionViewModel::invalidate()
{
    m_unitsValid = false;
    m_matrixValid = false;
}

void AttentionViewModel::setLayer(int layer)
{
    layer = std::clamp(layer, -1, std::max(-1, m_trace.layerCount - 1));
    if (layer == m_layer)
        return;
    m_layer = layer;
    m_matrixValid = false;
    Q_EMIT matrixChanged();
}

void AttentionViewModel::setHead(int head)
{
    head = std::clamp(head, -1, std::max(-1, m_trace.headCount - 1));
    if (head == m_head)
        return;
    m_head = head;
    m_matrixValid = false;
    Q_EMIT matrixChanged();
}

void AttentionViewModel::setMode(AttentionViewMode mode, const QString &biasTerm)
{
    if (mode == m_mode && biasTerm == m_biasTerm)
        return;
    m_mode = mode;
    m_biasTerm = mode == AttentionViewMode::BiasTerm ? biasTerm : QString();
    m_matrixValid = false;
    Q_EMIT matrixChanged();
}

void AttentionViewModel::setGranularity(AttentionGranularity granularity)
{
    if (granularity == m_granularity)
        return;
    m_granularity = granularity;
    m_selection.clear();
    invalidate();
    Q_EMIT matrixChanged();
    Q_EMIT selectionChanged();
}

void AttentionViewModel::setSelection(const std::vector<int> &units)
{
    const int n = this->units().count();
    std::vector<int> sel;
    QSet<int> seen;
    for (int u : units)
        if (u >= 0 && u < n && !seen.contains(u)) {
            seen.insert(u);
            sel.push_back(u);
        }
    if (sel == m_selection)
        return;
    m_selection = std::move(sel);
    Q_EMIT selectionChanged();
}

void AttentionViewModel::clearSelection()
{
    setSelection({});
}

QString AttentionViewModel::windowNote() const
{
    if (!m_trace.isStitched())
        return QString();
    int longest = 0;
    for (const AttentionWindow &w : m_trace.windows)
        longest = std::max(longest, w.length);
    return tr("stitched from %1 windows of up to %2 tokens: attention across windows is not computed (grey)")
        .arg(m_trace.windows.size())
        .arg(longest);
}

QString AttentionViewModel::describe() const
{
    if (m_trace.isEmpty())
        return tr("no trace");
    QString what;
    switch (m_mode) {
    case AttentionViewMode::Attention: what = tr("attention"); break;
    case AttentionViewMode::BiasTerm: what = tr("bias %1").arg(m_biasTerm); break;
    case AttentionViewMode::Ablated:
        what = tr("attention without %1").arg(attentionBiasFamilyName(m_ablated.disabledBiases));
        break;
    case AttentionViewMode::AblationDelta:
        what = tr("attention minus attention without %1").arg(attentionBiasFamilyName(m_ablated.disabledBiases));
        break;
    }
    QString s = tr("layer %1 · head %2 · %3 · %4")
                    .arg(m_layer < 0 ? tr("avg") : QString::number(m_layer), m_head < 0 ? tr("avg") : QString::number(m_head),
                         what, attentionGranularityName(m_granularity));
    const QString note = windowNote();
    if (!note.isEmpty())
        s += QStringLiteral(" · ") + note;
    return s;
}

const AttentionUnits &AttentionViewModel::units() const
{
    if (!m_unitsValid) {
        m_units = buildAttentionUnits(m_granularity, m_trace, m_hasDocument ? &m_document : nullptr, &m_annotations);
        m_unitsValid = true;
    }
    return m_units;
}

void AttentionViewModel::accumulateLayer(const AttentionTrace &t, int window, int layer, std::vector<float> *out) const
{
    const float *d = t.layerData(window, layer);
    if (!d)
        return;
    const std::size_t ll = out->size();
    float *o = out->data();
    if (m_head >= 0) {
        const float *src = d + std::size_t(m_head) * ll;
        for (std::size_t i = 0; i < ll; ++i)
            o[i] += src[i];
        return;
    }
    for (int h = 0; h < t.headCount; ++h) {
        const float *src = d + std::size_t(h) * ll;
        for (std::size_t i = 0; i < ll; ++i)
            o[i] += src[i];
    }
}

std::vector<float> AttentionViewModel::attentionWindow(const AttentionTrace &t, int window) const
{
    const int lw = t.windows[std::size_t(window)].length;
    std::vector<float> out(std::size_t(lw) * lw, 0.0f);
    int layers = 0;
    for (int l = 0; l < t.layerCount; ++l) {
        if (m_layer >= 0 && l != m_layer)
            continue;
        accumulateLayer(t, window, l, &out);
        ++layers;
    }
    const float div = float(layers * (m_head >= 0 ? 1 : t.headCount));
    if (div > 1)
        for (float &v : out)
            v /= div;
    return out;
}

// The bias entries a term name covers for the current layer: "bias.2d_x" itself, or for per-layer
// terms ("bias.c2p" with entries "bias.c2p.N") the current layer's entry (all of them when -1).
static std::vector<const std::vector<float> *> termEntries(const AttentionWindow &w, const QString &term, int layer)
{
    std::vector<const std::vector<float> *> out;
    auto it = w.biasTerms.find(term);
    if (it != w.biasTerms.end()) {
        out.push_back(&it->second);
        return out;
    }
    for (const auto &entry : w.biasTerms) {
        if (!entry.first.startsWith(term + QLatin1Char('.')))
            continue;
        bool ok = false;
        const int l = entry.first.mid(term.size() + 1).toInt(&ok);
        if (ok && (layer < 0 || l == layer))
            out.push_back(&entry.second);
    }
    return out;
}

std::vector<float> AttentionViewModel::biasWindow(int window) const
{
    const AttentionWindow &w = m_trace.windows[std::size_t(window)];
    const std::size_t ll = std::size_t(w.length) * w.length;
    std::vector<float> out(ll, 0.0f);
    int count = 0;
    for (const std::vector<float> *v : termEntries(w, m_biasTerm, m_layer)) {
        const int heads = int(v->size() / ll);
        for (int h = 0; h < heads; ++h) {
            if (m_head >= 0 && h != std::min(m_head, heads - 1))
                continue;
            const float *src = v->data() + std::size_t(h) * ll;
            for (std::size_t i = 0; i < ll; ++i)
                out[i] += src[i];
            ++count;
        }
    }
    if (count > 1)
        for (float &x : out)
            x /= float(count);
    return out;
}

std::vector<float> AttentionViewModel::windowMatrix(int window) const
{
    if (window < 0 || window >= int(m_trace.windows.size()))
        return {};
    switch (m_mode) {
    case AttentionViewMode::Attention: return attentionWindow(m_trace, window);
    case AttentionViewMode::BiasTerm: return biasWindow(window);
    case AttentionViewMode::Ablated:
        return m_ablated.isEmpty() ? std::vector<float>() : attentionWindow(m_ablated, window);
    case AttentionViewMode::AblationDelta: {
        if (m_ablated.isEmpty())
            return {};
        std::vector<float> a = attentionWindow(m_trace, window);
        const std::vector<float> b = attentionWindow(m_ablated, window);
        for (std::size_t i = 0; i < a.size(); ++i)
            a[i] -= b[i];
        return a;
    }
    }
    return {};
}

const AttentionMatrixView &AttentionViewModel::matrix() const
{
    if (m_matrixValid)
        return m_matrix;
    m_matrix = AttentionMatrixView();
    m_unitMatrix = UnitMatrix();
    m_matrixValid = true;
    if (m_trace.isEmpty())
        return m_matrix;
    const AttentionUnits &u = units();
    if (u.count() > kMaxMatrixUnits) {
        m_matrix.title = tr("%1 %2 are too many for a matrix view (at most %3): choose a coarser granularity")
                             .arg(u.count())
                             .arg(attentionGranularityName(m_granularity))
                             .arg(kMaxMatrixUnits);
        return m_matrix;
    }
    std::vector<std::vector<float>> windows;
    for (int w = 0; w < int(m_trace.windows.size()); ++w)
        windows.push_back(windowMatrix(w));
    const bool bias = m_mode == AttentionViewMode::BiasTerm;
    m_unitMatrix = rollUpAttention(m_trace, windows, u, bias ? RollUpRule::MeanBoth : RollUpRule::SumKeysMeanQueries);
    m_matrix.rows = m_matrix.cols = m_unitMatrix.size;
    m_matrix.values = m_unitMatrix.values;
    m_matrix.rowLabels = m_matrix.colLabels = u.labels;
    m_matrix.title = describe();
    m_matrix.diverging = bias || m_mode == AttentionViewMode::AblationDelta;
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (float v : m_matrix.values)
        if (!std::isnan(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    if (lo > hi)
        lo = hi = 0;
    m_matrix.minValue = lo;
    m_matrix.maxValue = hi;
    return m_matrix;
}

std::vector<float> AttentionViewModel::outgoing() const
{
    matrix();
    return selectionOutgoing(m_unitMatrix, m_selection);
}

std::vector<float> AttentionViewModel::incoming() const
{
    matrix();
    return selectionIncoming(m_unitMatrix, m_selection);
}

std::vector<float> AttentionViewModel::perWord(const std::vector<float> &unitValues) const
{
    const AttentionUnits &u = units();
    std::vector<float> out(u.wordUnit.size(), 0.0f);
    for (std::size_t w = 0; w < u.wordUnit.size(); ++w) {
        const int unit = u.wordUnit[w];
        if (unit >= 0 && unit < int(unitValues.size()))
            out[w] = unitValues[std::size_t(unit)];
    }
    return out;
}

int AttentionViewModel::unitOfWord(int wordIndex) const
{
    const AttentionUnits &u = units();
    if (wordIndex < 0 || wordIndex >= int(u.wordUnit.size()))
        return -1;
    return u.wordUnit[std::size_t(wordIndex)];
}

AttentionExport AttentionViewModel::exportMatrices() const
{
    AttentionExport out;
    if (m_trace.isEmpty())
        return out;
    const AttentionMatrixView &m = matrix();
    out.matrices.push_back({"view", {m.rows, m.cols}, m.values});
    for (int w = 0; w < int(m_trace.windows.size()); ++w) {
        const int lw = m_trace.windows[std::size_t(w)].length;
        out.matrices.push_back({"window." + std::to_string(w), {lw, lw}, windowMatrix(w)});
    }
    QJsonArray labels;
    for (const QString &l : m.rowLabels)
        labels.append(l);
    QJsonArray windows;
    for (const AttentionWindow &w : m_trace.windows)
        windows.append(QJsonArray{w.firstToken, w.length});
    auto &md = out.metadata;
    md["format"] = "folio.attention/1";
    md["model_type"] = m_trace.modelType.toStdString();
    md["checkpoint"] = m_trace.checkpoint.toStdString();
    md["document"] = m_trace.documentId.toStdString();
    if (m_hasDocument)
        md["document_source"] = m_document.sourcePath.toStdString();
    md["layer"] = m_layer < 0 ? "avg" : std::to_string(m_layer);
    md["head"] = m_head < 0 ? "avg" : std::to_string(m_head);
    md["layers"] = std::to_string(m_trace.layerCount);
    md["heads"] = std::to_string(m_trace.headCount);
    md["mode"] = m_mode == AttentionViewMode::Attention   ? "attention"
                 : m_mode == AttentionViewMode::BiasTerm  ? "bias"
                 : m_mode == AttentionViewMode::Ablated   ? "ablated"
                                                          : "ablation_delta";
    if (m_mode == AttentionViewMode::BiasTerm)
        md["bias_term"] = m_biasTerm.toStdString();
    if (m_mode == AttentionViewMode::Ablated || m_mode == AttentionViewMode::AblationDelta)
        md["disabled_biases"] = attentionBiasFamilyName(m_ablated.disabledBiases).toStdString();
    md["granularity"] = attentionGranularityName(m_granularity).toStdString();
    md["roll_up"] = m_mode == AttentionViewMode::BiasTerm ? "mean over query and key sub-tokens"
                                                          : "sum over key sub-tokens, mean over query sub-tokens";
    md["windows"] = QJsonDocument(windows).toJson(QJsonDocument::Compact).toStdString();
    md["labels"] = QJsonDocument(labels).toJson(QJsonDocument::Compact).toStdString();
    if (m_trace.isStitched())
        md["note"] = windowNote().toStdString();
    return out;
}

} // namespace folio
