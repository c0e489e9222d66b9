#include "attention/attentiontrace.h"

#include "document/document.h"

#include <QCryptographicHash>
#include <QSet>

#include <algorithm>
#include <cstring>

namespace folio {

QString attentionBiasFamilyName(std::uint32_t family)
{
    switch (family) {
    case AttnBias1D: return QStringLiteral("1-D");
    case AttnBias2D: return QStringLiteral("2-D x/y");
    case AttnBiasDisentangled: return QStringLiteral("disentangled");
    case AttnBiasHierarchical: return QStringLiteral("hierarchical");
    case AttnBiasGraph: return QStringLiteral("graph");
    case AttnBiasLayoutFlow: return QStringLiteral("layout flow");
    default: return QString();
    }
}

std::uint32_t biasFamilyOfTerm(const QString &name)
{
    if (!name.startsWith(QLatin1String("bias.")))
        return AttnBiasNone;
    const QString rest = name.mid(5);
    if (rest.startsWith(QLatin1String("1d")))
        return AttnBias1D;
    if (rest.startsWith(QLatin1String("2d")))
        return AttnBias2D;
    if (rest.startsWith(QLatin1String("c2p")) || rest.startsWith(QLatin1String("p2c")))
        return AttnBiasDisentangled;
    if (rest.startsWith(QLatin1String("hier")) || rest.startsWith(QLatin1String("hibrids")))
        return AttnBiasHierarchical;
    if (rest.startsWith(QLatin1String("layout_flow")))
        return AttnBiasLayoutFlow;
    if (rest.startsWith(QLatin1String("graph")) || rest.startsWith(QLatin1String("h2h")) || rest.startsWith(QLatin1String("h2t"))
        || rest.startsWith(QLatin1String("t2h")) || rest.startsWith(QLatin1String("t2t")))
        return AttnBiasGraph;
    return AttnBiasNone;
}

int AttentionTrace::totalWindowTokens() const
{
    int n = 0;
    for (const AttentionWindow &w : windows)
        n += w.length;
    return n;
}

QStringList AttentionTrace::biasTermNames() const
{
    QSet<QString> names;
    for (const AttentionWindow &w : windows)
        for (const auto &entry : w.biasTerms)
            names.insert(entry.first);
    QStringList out(names.begin(), names.end());
    out.sort();
    return out;
}

std::uint32_t AttentionTrace::biasFamiliesPresent() const
{
    std::uint32_t f = 0;
    for (const QString &n : biasTermNames())
        f |= biasFamilyOfTerm(n);
    return f;
}

const float *AttentionTrace::layerData(int window, int layer) const
{
    if (window < 0 || window >= int(windows.size()) || layer < 0 || layer >= int(windows[window].layers.size()))
        return nullptr;
    const std::vector<float> &v = windows[window].layers[layer];
    return v.empty() ? nullptr : v.data();
}

bool AttentionTrace::ingest(const QString &name, const std::vector<std::int64_t> &shapeIn, const float *data,
                            const std::vector<int> &rowsIn, QString *error)
{
    const bool isAttention = name.startsWith(QLatin1String("attentions."));
    const bool isBias = name.startsWith(QLatin1String("bias."));
    if (!isAttention && !isBias)
        return true;
    auto fail = [&](const QString &why) {
        if (error)
            *error = QStringLiteral("trace output '%1': %2").arg(name, why);
        return false;
    };
    std::vector<std::int64_t> shape = shapeIn;
    if (shape.size() == 3)
        shape.insert(shape.begin(), 1);
    const bool square = shape.size() == 4 && shape[2] == shape[3] && shape[0] > 0 && shape[1] > 0 && shape[2] > 0;
    // Blockwise parts ("attentions.3.t2t", WebFormer's graph attention) and non-square bias terms
    // are not query x key matrices: listed as skipped, not shown.
    if ((isAttention && name.indexOf(QLatin1Char('.'), 11) >= 0) || (isBias && !square)) {
        if (!skipped.contains(name))
            skipped << name;
        return true;
    }
    if (!square)
        return fail(QStringLiteral("expected a [B, H, L, L] float matrix"));
    if (!data)
        return fail(QStringLiteral("no data"));
    const int b = int(shape[0]), h = int(shape[1]), l = int(shape[2]);
    std::vector<int> rows = rowsIn;
    if (rows.empty())
        for (int r = 0; r < b; ++r)
            rows.push_back(r);
    for (int r : rows)
        if (r < 0 || r >= b)
            return fail(QStringLiteral("batch row %1 out of range (batch %2)").arg(r).arg(b));

    int layer = -1;
    if (isAttention) {
        bool ok = false;
        layer = name.mid(11).toInt(&ok);
        if (!ok || layer < 0 || layer > 4096)
            return fail(QStringLiteral("bad layer number"));
        if (headCount == 0)
            headCount = h;
        if (h != headCount)
            return fail(QStringLiteral("%1 heads, the trace has %2").arg(h).arg(headCount));
    }
    if (windows.empty()) {
        int first = 0;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            AttentionWindow w;
            w.firstToken = first;
            w.length = l;
            first += l;
            windows.push_back(std::move(w));
        }
    }
    if (windows.size() != rows.size())
        return fail(QStringLiteral("%1 batch rows, the trace has %2 windows").arg(rows.size()).arg(windows.size()));
    const std::size_t block = std::size_t(h) * l * l;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        AttentionWindow &w = windows[i];
        if (w.length != l)
            return fail(QStringLiteral("window length %1, the trace has %2").arg(l).arg(w.length));
        const float *src = data + std::size_t(rows[i]) * block;
        std::vector<float> copy(src, src + block);
        if (isAttention) {
            if (int(w.layers.size()) <= layer)
                w.layers.resize(std::size_t(layer) + 1);
            w.layers[std::size_t(layer)] = std::move(copy);
        } else {
            w.biasTerms[name] = std::move(copy);
        }
    }
    if (isAttention)
        layerCount = std::max(layerCount, layer + 1);
    return true;
}

bool AttentionTrace::finish(QString *error)
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (windows.empty() || layerCount == 0)
        return fail(QStringLiteral("the trace holds no attention (was the model run with tracing on?)"));
    for (std::size_t wi = 0; wi < windows.size(); ++wi) {
        const AttentionWindow &w = windows[wi];
        if (int(w.layers.size()) != layerCount)
            return fail(QStringLiteral("window %1 has %2 layers, expected %3").arg(wi).arg(w.layers.size()).arg(layerCount));
        for (int li = 0; li < layerCount; ++li)
            if (w.layers[std::size_t(li)].size() != std::size_t(headCount) * w.length * w.length)
                return fail(QStringLiteral("layer %1 of window %2 is missing").arg(li).arg(wi));
        for (const auto &entry : w.biasTerms)
            if (entry.second.size() % (std::size_t(w.length) * w.length) != 0)
                return fail(QStringLiteral("bias term %1 has a bad size").arg(entry.first));
    }
    const int n = totalWindowTokens();
    if (!tokenWord.empty() && int(tokenWord.size()) != n)
        return fail(QStringLiteral("token map covers %1 tokens, the windows hold %2").arg(tokenWord.size()).arg(n));
    if (tokenWord.empty())
        tokenWord.assign(std::size_t(n), -1);
    return true;
}

bool AttentionTrace::appendWindows(const AttentionTrace &other, QString *error)
{
    if (windows.empty()) {
        *this = other;
        return true;
    }
    if (other.layerCount != layerCount || other.headCount != headCount) {
        if (error)
            *error = QStringLiteral("window of %1 layers x %2 heads, the trace has %3 x %4")
                         .arg(other.layerCount).arg(other.headCount).arg(layerCount).arg(headCount);
        return false;
    }
    const int offset = totalWindowTokens();
    const int ownTokens = offset;
    for (AttentionWindow w : other.windows) {
        w.firstToken += offset;
        windows.push_back(std::move(w));
    }
    // Token maps: pad ours to our window tokens, then add theirs (or -1 where they have none).
    tokenWord.resize(std::size_t(ownTokens), -1);
    while (tokenText.size() < ownTokens)
        tokenText << QString();
    const int theirs = other.totalWindowTokens();
    for (int t = 0; t < theirs; ++t) {
        tokenWord.push_back(t < int(other.tokenWord.size()) ? other.tokenWord[std::size_t(t)] : -1);
        tokenText << (t < other.tokenText.size() ? other.tokenText.at(t) : QString());
    }
    return true;
}

QString attentionDocumentId(const Document &document)
{
    QCryptographicHash hash(QCryptographicHash::Sha1);
    hash.addData(document.sourcePath.toUtf8());
    for (const Word &w : document.words) {
        hash.addData(QByteArrayView("\x1f", 1));
        hash.addData(w.id.toUtf8());
        hash.addData(QByteArrayView("\x1e", 1));
        hash.addData(w.text.toUtf8());
    }
    return QString::fromLatin1(hash.result().toHex().left(16));
}

} // namespace folio
