#include "attention/imagepatches.h"

#include <algorithm>
#include <cmath>

namespace folio {

namespace {

int squareSide(int n)
{
    const int s = int(std::lround(std::sqrt(double(std::max(0, n)))));
    return s > 0 && s * s == n ? s : 0;
}

// Mean over the chosen layers and heads of element (q, k) of the window's attention.
float meanAttention(const AttentionTrace &trace, int window, int layer, int head, int q, int k)
{
    const AttentionWindow &w = trace.windows[std::size_t(window)];
    const std::size_t L = std::size_t(w.length);
    double sum = 0;
    int n = 0;
    for (int l = layer < 0 ? 0 : layer; l < (layer < 0 ? trace.layerCount : layer + 1); ++l) {
        const float *data = trace.layerData(window, l);
        if (!data)
            continue;
        for (int h = head < 0 ? 0 : head; h < (head < 0 ? trace.headCount : head + 1); ++h) {
            sum += data[(std::size_t(h) * L + std::size_t(q)) * L + std::size_t(k)];
            ++n;
        }
    }
    return n ? float(sum / n) : 0.f;
}

bool validLayerHead(const AttentionTrace &trace, int layer, int head)
{
    return layer < trace.layerCount && head < trace.headCount;
}

} // namespace

bool imagePatchGrid(const AttentionTrace &trace, int window, ImagePatchGrid *grid, QString *why)
{
    const auto fail = [&](const QString &m) {
        if (why)
            *why = m;
        return false;
    };
    const QString model = trace.modelType.isEmpty() ? QStringLiteral("this checkpoint") : trace.modelType;
    if (window < 0 || window >= int(trace.windows.size()))
        return fail(QStringLiteral("window %1: the trace has %2").arg(window + 1).arg(trace.windows.size()));
    const AttentionWindow &w = trace.windows[std::size_t(window)];
    // Image tokens: the "visual N" tokens at the window's end (no word).
    int count = 0;
    for (int t = w.length - 1; t >= 0; --t) {
        const int g = w.firstToken + t;
        if (g >= trace.tokenText.size() || !trace.tokenText.at(g).startsWith(QLatin1String("visual ")))
            break;
        ++count;
    }
    if (count == 0)
        return fail(QStringLiteral("%1 has no image branch in this run: the model saw no image tokens, so there is no "
                                   "patch attention to draw (LayoutLMv3 with visual_embed, LayoutLMv2 with its visual backbone have one)")
                        .arg(model));
    ImagePatchGrid g;
    g.window = window;
    if (const int s = squareSide(count)) {
        g.side = s;
        g.firstPatch = w.length - count;
    } else if (const int s1 = squareSide(count - 1)) {
        g.side = s1;
        g.visualCls = true;
        g.firstPatch = w.length - count + 1;
    } else {
        return fail(QStringLiteral("%1: %2 image tokens in window %3 are not a square grid of patches").arg(model).arg(count).arg(window + 1));
    }
    if (grid)
        *grid = g;
    return true;
}

int imagePatchWindowOfToken(const AttentionTrace &trace, int token)
{
    for (std::size_t w = 0; w < trace.windows.size(); ++w) {
        const AttentionWindow &win = trace.windows[w];
        if (token >= win.firstToken && token < win.firstToken + win.length && imagePatchGrid(trace, int(w), nullptr, nullptr))
            return int(w);
    }
    return -1;
}

std::vector<float> attentionToPatches(const AttentionTrace &trace, const ImagePatchGrid &grid, int token, int layer, int head)
{
    if (grid.window < 0 || grid.window >= int(trace.windows.size()) || !validLayerHead(trace, layer, head))
        return {};
    const AttentionWindow &w = trace.windows[std::size_t(grid.window)];
    const int q = token - w.firstToken;
    if (q < 0 || q >= w.length || grid.firstPatch + grid.patchCount() > w.length)
        return {};
    std::vector<float> out(std::size_t(grid.patchCount()));
    for (int p = 0; p < grid.patchCount(); ++p)
        out[std::size_t(p)] = meanAttention(trace, grid.window, layer, head, q, grid.firstPatch + p);
    return out;
}

std::vector<float> patchAttentionToWords(const AttentionTrace &trace, const ImagePatchGrid &grid, int patch, int layer, int head,
                                         int wordCount)
{
    std::vector<float> out(std::size_t(std::max(0, wordCount)), 0.f);
    if (grid.window < 0 || grid.window >= int(trace.windows.size()) || patch < 0 || patch >= grid.patchCount() ||
        !validLayerHead(trace, layer, head))
        return out;
    const AttentionWindow &w = trace.windows[std::size_t(grid.window)];
    const int q = grid.firstPatch + patch;
    if (q >= w.length)
        return out;
    for (int k = 0; k < w.length; ++k) {
        const int g = w.firstToken + k;
        const int word = g < int(trace.tokenWord.size()) ? trace.tokenWord[std::size_t(g)] : -1;
        if (word >= 0 && word < wordCount)
            out[std::size_t(word)] += meanAttention(trace, grid.window, layer, head, q, k);
    }
    return out;
}

} // namespace folio
