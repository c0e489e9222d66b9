#include "inference/layers/hibrids.h"

#include "inference/layers/buckets.h"
#include "inference/layers/detail/hibrids.h"
#include "inference/checkpoint/detail/convert.h"
#include "inference/errors.h"

#include <c10/core/InferenceMode.h>

#include <cmath>

namespace folio::inference {

namespace {

// [S, S] int64 tensor of table rows.
at::Tensor sectionIndexTensor(const HibridsLayout &layout)
{
    const auto s = static_cast<std::int64_t>(layout.sectionParent.size());
    if (layout.sectionIndex.size() != static_cast<std::size_t>(s * s))
        throw InferenceError("HIBRIDS: layout not prepared (call hibridsPrepare)");
    return at::tensor(std::vector<std::int32_t>(layout.sectionIndex), at::kInt).view({s, s}).to(at::kLong);
}

at::Tensor tokenMap(const HibridsLayout &layout)
{
    const auto s = static_cast<std::int64_t>(layout.sectionParent.size());
    for (auto v : layout.tokenToSection)
        if (v < 0 || v >= s)
            throw InferenceError("HIBRIDS: token_to_section value " + std::to_string(v) + " outside [0, "
                                 + std::to_string(s) + ")");
    return at::tensor(layout.tokenToSection, at::kLong);
}

// Section-level per-head table [H, S, S] = W[index(s1, s2), h] (index_select keeps it differentiable).
at::Tensor sectionTable(const at::Tensor &weight, const at::Tensor &secIndex)
{
    const auto s = secIndex.size(0);
    return weight.index_select(0, secIndex.reshape({-1})).view({s, s, weight.size(1)}).permute({2, 0, 1});
}

at::Tensor checkedWeight(const Tensor &w)
{
    if (w.shape.size() != 2 || w.shape[0] < 419)
        throw InferenceError("HIBRIDS: bias table must be [>=419, heads], got " + shapeString(w.shape));
    return detail::toAten(w).to(at::kFloat);
}

} // namespace

namespace detail {

at::Tensor hibridsDecoderBias(const at::Tensor &prev, const at::Tensor &beta, const at::Tensor &tokenToSection,
                              const at::Tensor &sectionIndex)
{
    const auto n = prev.size(0), h = prev.size(1), t = prev.size(2), s = prev.size(3);
    const auto ns = sectionIndex.size(1);
    const at::Tensor keys = tokenToSection.view({n, 1, 1, s}).expand({n, h, t, s});
    const at::Tensor pooled = at::zeros({n, h, t, ns}, prev.options()).scatter_add_(3, keys, prev);
    const at::Tensor table = beta.reshape({-1}).index_select(0, sectionIndex.reshape({-1})).view({n, 1, ns, ns});
    return at::matmul(pooled, table).gather(3, keys);
}

} // namespace detail

void hibridsPrepare(HibridsLayout *layout)
{
    layout->sectionIndex = hibridsSectionIndex(layout->sectionParent);
}

Tensor hibridsEncoderBias(const Tensor &weight, const HibridsLayout &layout, const std::vector<std::int64_t> &globalTokens,
                          std::string *error)
{
    try {
        c10::InferenceMode guard;
        const at::Tensor w = checkedWeight(weight);
        const at::Tensor t2s = tokenMap(layout);
        const at::Tensor sec = sectionTable(w, sectionIndexTensor(layout));          // [H, S, S]
        at::Tensor bias = sec.index_select(1, t2s).index_select(2, t2s).contiguous(); // [H, L, L]
        for (auto g : globalTokens) {
            if (g < 0 || g >= bias.size(1))
                throw InferenceError("HIBRIDS: global token " + std::to_string(g) + " out of range");
            bias.select(1, g).zero_();
            bias.select(2, g).zero_();
        }
        return detail::fromAten(bias);
    } catch (const std::exception &e) {
        if (error)
            *error = e.what();
    }
    return {};
}

Tensor hibridsBandedBias(const Tensor &weight, const HibridsLayout &layout, std::int64_t w1, std::string *error)
{
    try {
        c10::InferenceMode guard;
        const at::Tensor w = checkedWeight(weight);
        const at::Tensor t2s = tokenMap(layout);
        const auto l = t2s.size(0), h = w.size(1);
        const at::Tensor sec = sectionTable(w, sectionIndexTensor(layout)).permute({1, 2, 0}).contiguous(); // [S, S, H]
        const auto s = sec.size(0);
        at::Tensor out = at::zeros({l, h, 2 * w1 + 1}, at::kFloat);
        const float *sp = sec.data_ptr<float>();
        const std::int64_t *tp = t2s.data_ptr<std::int64_t>();
        float *op = out.data_ptr<float>();
        at::parallel_for(0, l, 64, [&](std::int64_t b, std::int64_t e) {
            for (std::int64_t i = b; i < e; ++i) {
                const float *row = sp + tp[i] * s * h;
                for (std::int64_t k = 0; k <= 2 * w1; ++k) {
                    const std::int64_t j = i + k - w1;
                    if (j < 0 || j >= l)
                        continue;
                    const float *cell = row + tp[j] * h;
                    for (std::int64_t hh = 0; hh < h; ++hh)
                        op[(i * h + hh) * (2 * w1 + 1) + k] = cell[hh];
                }
            }
        });
        return detail::fromAten(out);
    } catch (const std::exception &e) {
        if (error)
            *error = e.what();
    }
    return {};
}

HibridsTokenRelations hibridsTokenRelations(const HibridsLayout &layout)
{
    const auto &t2s = layout.tokenToSection;
    const auto s = layout.sectionParent.size();
    const auto l = static_cast<std::int64_t>(t2s.size());
    const auto &table = hibridsHier2Index();
    std::vector<std::int64_t> idx(static_cast<std::size_t>(l * l)), pl(idx.size()), ld(idx.size());
    for (std::int64_t i = 0; i < l; ++i) {
        for (std::int64_t j = 0; j < l; ++j) {
            const auto k = static_cast<std::size_t>(i * l + j);
            idx[k] = layout.sectionIndex[static_cast<std::size_t>(t2s[static_cast<std::size_t>(i)]) * s
                                         + static_cast<std::size_t>(t2s[static_cast<std::size_t>(j)])];
            pl[k] = table[static_cast<std::size_t>(idx[k])].first;
            ld[k] = table[static_cast<std::size_t>(idx[k])].second;
        }
    }
    return {Tensor::fromInt64({l, l}, idx), Tensor::fromInt64({l, l}, pl), Tensor::fromInt64({l, l}, ld)};
}

HibridsDecoderResult hibridsDecoderCrossAttention(const HibridsDecoderWeights &w, const Tensor &hidden,
                                                  const Tensor &encoderHidden, const Tensor &mask4d,
                                                  const Tensor &previousAttn, const std::vector<HibridsLayout> &layouts)
{
    HibridsDecoderResult r;
    try {
        c10::InferenceMode guard;
        using detail::toAten;
        const at::Tensor x = toAten(hidden).to(at::kFloat);        // [B, T, D]
        const at::Tensor enc = toAten(encoderHidden).to(at::kFloat); // [B, S, D]
        const at::Tensor mask = toAten(mask4d).to(at::kFloat);     // [B, 1, T, S]
        const at::Tensor prev = toAten(previousAttn).to(at::kFloat); // [B, H, T, S]
        const at::Tensor beta = checkedWeight(w.beta);             // [600, 1]
        const auto b = x.size(0), t = x.size(1), d = x.size(2), s = enc.size(1), h = static_cast<std::int64_t>(w.heads);
        if (static_cast<std::int64_t>(layouts.size()) != b)
            throw InferenceError("HIBRIDS decoder: one layout per batch row expected");
        const auto hd = d / h;
        const double scaling = std::pow(static_cast<double>(hd), -0.5);
        const at::Tensor q = at::linear(x, toAten(w.qW), toAten(w.qB)) * scaling;
        const at::Tensor k = at::linear(enc, toAten(w.kW), toAten(w.kB));
        const at::Tensor v = at::linear(enc, toAten(w.vW), toAten(w.vB));
        auto heads = [&](const at::Tensor &z, std::int64_t len) {
            return z.view({b, len, h, hd}).transpose(1, 2).contiguous(); // [B, H, len, hd]
        };
        at::Tensor scores = at::matmul(heads(q, t), heads(k, s).transpose(-1, -2)) + mask; // [B, H, T, S]

        // Hierarchical term at section granularity (detail::hibridsDecoderBias).
        std::int64_t n = 1;
        for (const HibridsLayout &lay : layouts)
            n = std::max<std::int64_t>(n, static_cast<std::int64_t>(lay.sectionParent.size()));
        at::Tensor t2s = at::zeros({b, s}, at::kLong), secIdx = at::zeros({b, n, n}, at::kLong);
        for (std::int64_t bi = 0; bi < b; ++bi) {
            const HibridsLayout &lay = layouts[static_cast<std::size_t>(bi)];
            const at::Tensor row = tokenMap(lay);
            if (row.size(0) != s)
                throw InferenceError("HIBRIDS decoder: token_to_section must cover all " + std::to_string(s) + " positions");
            t2s[bi].copy_(row);
            const at::Tensor rowIdx = sectionIndexTensor(lay);
            secIdx[bi].slice(0, 0, rowIdx.size(0)).slice(1, 0, rowIdx.size(0)).copy_(rowIdx);
        }
        const at::Tensor bias = detail::hibridsDecoderBias(prev, beta, t2s, secIdx);
        scores = scores + bias;
        const at::Tensor probs = at::softmax(scores, -1);
        const at::Tensor ctx = at::matmul(probs, heads(v, s)).transpose(1, 2).reshape({b, t, d});
        r.attnOutput = detail::fromAten(at::linear(ctx, toAten(w.outW), toAten(w.outB)));
        r.attnWeights = detail::fromAten(probs);
        r.hierBias = detail::fromAten(bias);
    } catch (const c10::Error &e) {
        r.error = e.what_without_backtrace();
    } catch (const std::exception &e) {
        r.error = e.what();
    }
    return r;
}

} // namespace folio::inference
