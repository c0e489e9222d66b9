#include "attention/attributions.h"

#include <cstddef>

namespace folio {

namespace {

bool fits(const std::vector<float> &a, int layers, int heads, int n)
{
    return layers > 0 && heads > 0 && n > 0
        && a.size() == std::size_t(layers) * std::size_t(heads) * std::size_t(n) * std::size_t(n);
}

// Â_l as [n][n] doubles: head mean + identity, rows renormalised.
std::vector<double> residualLayer(const std::vector<float> &a, int layer, int heads, int n)
{
    const std::size_t nn = std::size_t(n) * std::size_t(n);
    std::vector<double> m(nn, 0.0);
    const float *base = a.data() + std::size_t(layer) * std::size_t(heads) * nn;
    for (int h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < nn; ++i)
            m[i] += double(base[std::size_t(h) * nn + i]) / double(heads);
    for (int r = 0; r < n; ++r) {
        double *row = m.data() + std::size_t(r) * std::size_t(n);
        row[r] += 1.0;
        double sum = 0;
        for (int c = 0; c < n; ++c)
            sum += row[c];
        if (sum > 0)
            for (int c = 0; c < n; ++c)
                row[c] /= sum;
    }
    return m;
}

} // namespace

std::vector<double> attentionRollout(const std::vector<float> &attentions, int layers, int heads, int n)
{
    if (!fits(attentions, layers, heads, n))
        return {};
    const std::size_t N = std::size_t(n);
    std::vector<double> r = residualLayer(attentions, 0, heads, n);
    for (int l = 1; l < layers; ++l) {
        const std::vector<double> a = residualLayer(attentions, l, heads, n);
        std::vector<double> next(N * N, 0.0);
        for (std::size_t i = 0; i < N; ++i)
            for (std::size_t k = 0; k < N; ++k) {
                const double aik = a[i * N + k];
                if (aik == 0)
                    continue;
                for (std::size_t j = 0; j < N; ++j)
                    next[i * N + j] += aik * r[k * N + j];
            }
        r.swap(next);
    }
    return r;
}

std::vector<double> attentionRolloutRow(const std::vector<float> &attentions, int layers, int heads, int n, int target)
{
    if (!fits(attentions, layers, heads, n) || target < 0 || target >= n)
        return {};
    const std::size_t N = std::size_t(n);
    std::vector<double> row(N, 0.0);
    row[std::size_t(target)] = 1.0;
    for (int l = layers - 1; l >= 0; --l) {
        const std::vector<double> a = residualLayer(attentions, l, heads, n);
        std::vector<double> next(N, 0.0);
        for (std::size_t k = 0; k < N; ++k) {
            if (row[k] == 0)
                continue;
            for (std::size_t j = 0; j < N; ++j)
                next[j] += row[k] * a[k * N + j];
        }
        row.swap(next);
    }
    return row;
}

} // namespace folio
