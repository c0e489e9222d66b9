#include "inference/layers/detail/smallrows.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace folio::inference::detail {

namespace {

#if defined(__x86_64__) && defined(__GNUC__)
#define FOLIO_SMALLROWS_AVX2 1

__attribute__((target("avx2,fma"))) inline float horizontalSum(__m256 v)
{
    const __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 h = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(h, _mm_shuffle_ps(h, h, 1)));
}

// Output columns [begin, end) of y[M, N] = x[M, K] · w[N, K]^T + b: two accumulators per row (even
// and odd 8-float blocks) so that the FMA chains overlap; the tail of K in scalar arithmetic.
template <int M>
__attribute__((target("avx2,fma"))) void smallRowsKernel(const float *x, std::int64_t k, const float *w,
                                                          std::int64_t n, const float *b, float *y,
                                                          std::int64_t begin, std::int64_t end)
{
    for (std::int64_t o = begin; o < end; ++o) {
        const float *wr = w + o * k;
        __m256 even[M], odd[M];
        for (int r = 0; r < M; ++r)
            even[r] = odd[r] = _mm256_setzero_ps();
        std::int64_t i = 0;
        for (; i + 16 <= k; i += 16) {
            const __m256 w0 = _mm256_loadu_ps(wr + i), w1 = _mm256_loadu_ps(wr + i + 8);
            for (int r = 0; r < M; ++r) {
                even[r] = _mm256_fmadd_ps(w0, _mm256_loadu_ps(x + r * k + i), even[r]);
                odd[r] = _mm256_fmadd_ps(w1, _mm256_loadu_ps(x + r * k + i + 8), odd[r]);
            }
        }
        for (; i + 8 <= k; i += 8) {
            const __m256 w0 = _mm256_loadu_ps(wr + i);
            for (int r = 0; r < M; ++r)
                even[r] = _mm256_fmadd_ps(w0, _mm256_loadu_ps(x + r * k + i), even[r]);
        }
        for (int r = 0; r < M; ++r) {
            float s = horizontalSum(_mm256_add_ps(even[r], odd[r]));
            for (std::int64_t j = i; j < k; ++j)
                s += wr[j] * x[r * k + j];
            y[r * n + o] = b ? s + b[o] : s;
        }
    }
}

using Kernel = void (*)(const float *, std::int64_t, const float *, std::int64_t, const float *, float *,
                        std::int64_t, std::int64_t);
constexpr Kernel kKernels[kSmallRowsMax] = {smallRowsKernel<1>, smallRowsKernel<2>, smallRowsKernel<3>,
                                            smallRowsKernel<4>, smallRowsKernel<5>, smallRowsKernel<6>,
                                            smallRowsKernel<7>, smallRowsKernel<8>};

bool cpuHasAvx2Fma()
{
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return has;
}

bool isCpuFloat(const at::Tensor &t)
{
    return t.defined() && t.device().is_cpu() && t.scalar_type() == at::kFloat;
}

// Whether `rows` rows of length k go through the kernels at all.
bool applicable(std::int64_t rows, std::int64_t k)
{
    return rows >= 1 && rows <= kSmallRowsMax && k > 0 && cpuHasAvx2Fma() && !at::GradMode::is_enabled();
}

// y[i] = x[i] · w[i]^T (+ b) for `batch` pairs of x [rows, k] and w [n, k], all contiguous, into a
// fresh [batch, rows, n]. One pair: tasks take bands of output columns (whole weight rows); several:
// tasks take whole pairs. About 256 K multiply-adds a task, so small products stay on one thread.
at::Tensor multiply(const at::Tensor &xc, const at::Tensor &wc, const float *bias, std::int64_t batch,
                    std::int64_t rows, std::int64_t k, std::int64_t n)
{
    at::Tensor y = at::empty({batch, rows, n}, xc.options());
    const Kernel kernel = kKernels[rows - 1];
    const float *xp = xc.data_ptr<float>(), *wp = wc.data_ptr<float>();
    float *yp = y.data_ptr<float>();
    const std::int64_t columnGrain = std::max<std::int64_t>(1, (std::int64_t(1) << 18) / k);
    if (batch == 1) {
        at::parallel_for(0, n, columnGrain, [&](std::int64_t begin, std::int64_t end) {
            kernel(xp, k, wp, n, bias, yp, begin, end);
        });
    } else {
        at::parallel_for(0, batch, std::max<std::int64_t>(1, columnGrain / n), [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i)
                kernel(xp + i * rows * k, k, wp + i * n * k, n, bias, yp + i * rows * n, 0, n);
        });
    }
    return y;
}
#endif

} // namespace

at::Tensor smallRowsLinear(const at::Tensor &x, const at::Tensor &weight, const at::Tensor &bias)
{
#ifdef FOLIO_SMALLROWS_AVX2
    if (x.dim() < 1 || weight.dim() != 2 || x.size(-1) != weight.size(1))
        return {};
    const std::int64_t k = x.size(-1), n = weight.size(0), rows = k > 0 ? x.numel() / k : 0;
    if (!applicable(rows, k) || !isCpuFloat(x) || !isCpuFloat(weight)
        || (bias.defined() && (!isCpuFloat(bias) || bias.numel() != n)))
        return {};
    const at::Tensor bc = bias.defined() ? bias.contiguous() : at::Tensor();
    std::vector<std::int64_t> shape(x.sizes().begin(), x.sizes().end());
    shape.back() = n;
    return multiply(x.contiguous(), weight.contiguous(), bc.defined() ? bc.data_ptr<float>() : nullptr, 1, rows, k, n)
        .view(shape);
#else
    (void)x;
    (void)weight;
    (void)bias;
    return {};
#endif
}

at::Tensor smallRowsBatchedProduct(const at::Tensor &x, const at::Tensor &w)
{
#ifdef FOLIO_SMALLROWS_AVX2
    if (x.dim() != 3 || w.dim() != 3 || x.size(0) != w.size(0) || x.size(2) != w.size(2))
        return {};
    const std::int64_t batch = x.size(0), rows = x.size(1), k = x.size(2), n = w.size(1);
    if (!applicable(rows, k) || !isCpuFloat(x) || !isCpuFloat(w))
        return {};
    return multiply(x.contiguous(), w.contiguous(), nullptr, batch, rows, k, n);
#else
    (void)x;
    (void)w;
    return {};
#endif
}

} // namespace folio::inference::detail
