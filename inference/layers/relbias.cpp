#include "inference/layers/detail/relbias.h"

#include "inference/layers/buckets.h"

#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>
#include <cmath>

namespace folio::inference::detail {

RelativeBucketBias::RelativeBucketBias(at::Tensor weight, int numBuckets, int maxDistance)
    : m_weight(std::move(weight)), m_range(maxDistance)
{
    const std::vector<std::int64_t> lut = t5BucketLut(numBuckets, maxDistance, m_range);
    m_lut = at::tensor(lut, at::kLong);
}

at::Tensor RelativeBucketBias::distanceTable() const
{
    return m_weight.index_select(1, m_lut); // [H, 2R+1], differentiable in W
}

at::Tensor RelativeBucketBias::dense(const at::Tensor &pos) const
{
    // pos [B, L] -> rel [B, L, L] = pos_j - pos_i, clamped to the LUT range (saturated buckets).
    const at::Tensor rel = (pos.unsqueeze(1) - pos.unsqueeze(2)).clamp(-m_range, m_range) + m_range;
    const at::Tensor table = distanceTable();                              // [H, 2R+1]
    const auto b = pos.size(0), l = pos.size(1);
    at::Tensor g = table.index_select(1, rel.reshape({-1}));               // [H, B*L*L]
    return g.view({table.size(0), b, l, l}).permute({1, 0, 2, 3}).contiguous(); // [B, H, L, L]
}

at::Tensor fusedRelativeBias(const std::vector<RelativeTerm> &terms, double divisor, const at::Tensor &mask)
{
    TORCH_CHECK(!terms.empty() || mask.defined(), "fusedRelativeBias: nothing to add");
    const at::Tensor &pos0 = terms.empty() ? mask : terms.front().pos;
    const std::int64_t b = pos0.size(0), l = pos0.size(1);
    const std::int64_t h = terms.empty() ? 1 : terms.front().table.size(0);
    at::Tensor out = at::empty({b, h, l, l}, at::kFloat);
    std::vector<at::Tensor> tables, poss;
    for (const auto &t : terms) {
        tables.push_back(t.table.detach().contiguous().to(at::kFloat));
        poss.push_back(t.pos.contiguous().to(at::kLong));
    }
    at::Tensor maskC = mask.defined() ? mask.contiguous().to(at::kFloat) : at::Tensor();
    const std::size_t nt = terms.size();
    const float div = static_cast<float>(divisor);
    float *o = out.data_ptr<float>();
    at::parallel_for(0, b * l, 16, [&](std::int64_t begin, std::int64_t end) {
        std::vector<const float *> tp(nt);
        std::vector<const std::int64_t *> pp(nt);
        std::vector<std::int64_t> rng(nt), width(nt);
        for (std::size_t t = 0; t < nt; ++t) {
            rng[t] = terms[t].range;
            width[t] = tables[t].size(1);
        }
        for (std::int64_t row = begin; row < end; ++row) {
            const std::int64_t bi = row / l, i = row % l;
            for (std::size_t t = 0; t < nt; ++t)
                pp[t] = poss[t].data_ptr<std::int64_t>() + bi * l;
            const float *m = maskC.defined() ? maskC.data_ptr<float>() + bi * l : nullptr;
            for (std::int64_t hh = 0; hh < h; ++hh) {
                for (std::size_t t = 0; t < nt; ++t)
                    tp[t] = tables[t].data_ptr<float>() + hh * width[t] + rng[t];
                float *dst = o + ((bi * h + hh) * l + i) * l;
                for (std::int64_t j = 0; j < l; ++j) {
                    float acc = 0.f;
                    if (nt > 0) {
                        auto look = [&](std::size_t t) {
                            const std::int64_t d = std::clamp(pp[t][j] - pp[t][i], -rng[t], rng[t]);
                            return tp[t][d];
                        };
                        float rest = 0.f;
                        if (nt == 1) {
                            acc = look(0);
                        } else {
                            rest = look(1);
                            for (std::size_t t = 2; t < nt; ++t)
                                rest += look(t);
                            acc = look(0) + rest;
                        }
                        acc = acc / div;
                    }
                    if (m)
                        acc = acc + m[j];
                    dst[j] = acc;
                }
            }
        }
    });
    return out;
}

namespace {

// The fused score term under autograd (training: HfFineTuner, Folio's layout tagger): the forward is
// fusedRelativeBias itself (the values of the dense gather below, bit for bit: the same float sum
// (t0 + (t1 + t2)) / divisor + mask), and the backward sums the incoming [B, H, L, L] gradient / divisor
// into each [H, 2R+1] distance table by distance, heads in parallel, in double. The dense form it
// replaces materialised an [H, B*L*L] gather per term and took its gradient through index_select's
// backward, an index_add_ of one [H] slice per (b, i, j) — one ATen call per pair, on one thread.
// Tables: up to three (1-D, x, y), an empty tensor for a term left out (range -1).
struct FusedLayoutBias : public torch::autograd::Function<FusedLayoutBias>
{
    static at::Tensor forward(torch::autograd::AutogradContext *ctx, const at::Tensor &t0, const at::Tensor &p0,
                              const at::Tensor &t1, const at::Tensor &p1, const at::Tensor &t2, const at::Tensor &p2,
                              const at::Tensor &mask, double divisor, std::int64_t r0, std::int64_t r1, std::int64_t r2)
    {
        std::vector<RelativeTerm> terms;
        const at::Tensor *tables[3] = {&t0, &t1, &t2};
        const at::Tensor *poss[3] = {&p0, &p1, &p2};
        const std::int64_t ranges[3] = {r0, r1, r2};
        for (int t = 0; t < 3; ++t)
            if (ranges[t] >= 0)
                terms.push_back({*tables[t], *poss[t], ranges[t]});
        ctx->save_for_backward({p0, p1, p2});
        ctx->saved_data["divisor"] = divisor;
        ctx->saved_data["r0"] = r0;
        ctx->saved_data["r1"] = r1;
        ctx->saved_data["r2"] = r2;
        ctx->saved_data["heads"] = terms.front().table.size(0);
        return fusedRelativeBias(terms, divisor, mask);
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext *ctx,
                                                   torch::autograd::variable_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const double divisor = ctx->saved_data["divisor"].toDouble();
        const std::int64_t ranges[3] = {ctx->saved_data["r0"].toInt(), ctx->saved_data["r1"].toInt(),
                                        ctx->saved_data["r2"].toInt()};
        const std::int64_t h = ctx->saved_data["heads"].toInt();
        const at::Tensor g = grads[0].contiguous().to(at::kFloat); // [B, H, L, L]
        const std::int64_t b = g.size(0), l = g.size(2);
        std::vector<at::Tensor> pos(3), out(3);
        for (int t = 0; t < 3; ++t)
            if (ranges[t] >= 0) {
                pos[t] = saved[std::size_t(t)].contiguous().to(at::kLong);
                out[t] = at::zeros({h, 2 * ranges[t] + 1}, at::kFloat);
            }
        const float div = static_cast<float>(divisor);
        const float *gp = g.data_ptr<float>();
        at::parallel_for(0, h, 1, [&](std::int64_t begin, std::int64_t end) {
            std::vector<double> acc[3];
            for (std::int64_t hh = begin; hh < end; ++hh) {
                for (int t = 0; t < 3; ++t)
                    if (ranges[t] >= 0)
                        acc[t].assign(std::size_t(2 * ranges[t] + 1), 0.0);
                for (std::int64_t bi = 0; bi < b; ++bi) {
                    const std::int64_t *pp[3] = {nullptr, nullptr, nullptr};
                    for (int t = 0; t < 3; ++t)
                        if (ranges[t] >= 0)
                            pp[t] = pos[std::size_t(t)].data_ptr<std::int64_t>() + bi * l;
                    const float *row = gp + (bi * h + hh) * l * l;
                    for (std::int64_t i = 0; i < l; ++i, row += l) {
                        for (int t = 0; t < 3; ++t) {
                            if (!pp[t])
                                continue;
                            const std::int64_t r = ranges[t], pi = pp[t][i];
                            double *a = acc[t].data() + r;
                            for (std::int64_t j = 0; j < l; ++j)
                                a[std::clamp(pp[t][j] - pi, -r, r)] += double(row[j] / div);
                        }
                    }
                }
                for (int t = 0; t < 3; ++t)
                    if (ranges[t] >= 0) {
                        float *o = out[std::size_t(t)].data_ptr<float>() + hh * (2 * ranges[t] + 1);
                        for (std::size_t k = 0; k < acc[t].size(); ++k)
                            o[k] = static_cast<float>(acc[t][k]);
                    }
            }
        });
        // One gradient per forward input: the three tables, then none for positions, mask and scalars.
        return {out[0], at::Tensor(), out[1], at::Tensor(), out[2], at::Tensor(), at::Tensor(), at::Tensor(),
                at::Tensor(), at::Tensor(), at::Tensor()};
    }
};

} // namespace

at::Tensor layoutBiasScores(const RelativeBucketBias *rel1d, const at::Tensor &pos, const RelativeBucketBias *relX,
                            const at::Tensor &xs, const RelativeBucketBias *relY, const at::Tensor &ys, double divisor,
                            const at::Tensor &maskAdd)
{
    const bool use2d = relX && relY;
    if (at::GradMode::is_enabled() && (rel1d || use2d) && maskAdd.defined()) {
        // Every table's gradient by distance without the dense [B, H, L, L] gathers (FusedLayoutBias).
        const auto rows = [&](const at::Tensor &p) {
            return (p.size(0) == maskAdd.size(0) ? p : p.expand({maskAdd.size(0), p.size(1)})).contiguous().to(at::kLong);
        };
        const at::Tensor none = at::empty({0}, at::kFloat), nonePos = at::empty({0}, at::kLong);
        const RelativeBucketBias *terms[3] = {rel1d, use2d ? relX : nullptr, use2d ? relY : nullptr};
        const at::Tensor *poss[3] = {&pos, &xs, &ys};
        at::Tensor t[3], p[3];
        std::int64_t r[3];
        for (int k = 0; k < 3; ++k) {
            t[k] = terms[k] ? terms[k]->distanceTable().contiguous() : none;
            p[k] = terms[k] ? rows(*poss[k]) : nonePos;
            r[k] = terms[k] ? terms[k]->range() : -1;
        }
        return FusedLayoutBias::apply(t[0], p[0], t[1], p[1], t[2], p[2], maskAdd.contiguous().to(at::kFloat), divisor,
                                      r[0], r[1], r[2]);
    }
    if (at::GradMode::is_enabled()) {
        at::Tensor sum;
        if (rel1d)
            sum = rel1d->dense(pos);
        if (use2d) {
            const at::Tensor b2 = relX->dense(xs) + relY->dense(ys);
            sum = sum.defined() ? sum + b2 : b2;
        }
        if (sum.defined() && divisor != 1.0)
            sum = sum / divisor;
        const at::Tensor m = maskAdd.unsqueeze(1).unsqueeze(2);
        return sum.defined() ? sum + m : m;
    }
    // The fused kernel wants one position row per batch entry.
    const auto rows = [&](const at::Tensor &p) {
        return p.size(0) == maskAdd.size(0) ? p : p.expand({maskAdd.size(0), p.size(1)}).contiguous();
    };
    std::vector<RelativeTerm> terms;
    if (rel1d)
        terms.push_back({rel1d->distanceTable(), rows(pos), rel1d->range()});
    if (use2d) {
        terms.push_back({relX->distanceTable(), rows(xs), relX->range()});
        terms.push_back({relY->distanceTable(), rows(ys), relY->range()});
    }
    return fusedRelativeBias(terms, divisor, maskAdd);
}

namespace {
inline std::int64_t lutAt(const std::vector<std::int64_t> &lut, std::int64_t range, std::int64_t d)
{
    return lut[static_cast<std::size_t>(std::clamp(d, -range, range) + range)];
}
} // namespace

at::Tensor fusedDisentangled(const at::Tensor &c2pIn, const at::Tensor &p2cIn, const at::Tensor &posIn,
                             const std::vector<std::int64_t> &lut, std::int64_t range, float scale,
                             bool p2cTransposedIndex)
{
    const at::Tensor c2p = c2pIn.defined() ? c2pIn.contiguous() : at::Tensor();
    const at::Tensor p2c = p2cIn.defined() ? p2cIn.contiguous() : at::Tensor();
    const at::Tensor &ref = c2p.defined() ? c2p : p2c;
    const at::Tensor pos = posIn.contiguous().to(at::kLong);
    const std::int64_t b = ref.size(0), h = ref.size(1), l = ref.size(2), w = ref.size(3);
    at::Tensor out = at::empty({b, h, l, l}, at::kFloat);
    float *o = out.data_ptr<float>();
    const float *cp = c2p.defined() ? c2p.data_ptr<float>() : nullptr;
    const float *pc = p2c.defined() ? p2c.data_ptr<float>() : nullptr;
    const std::int64_t *pp = pos.data_ptr<std::int64_t>();
    at::parallel_for(0, b * h, 1, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t bh = begin; bh < end; ++bh) {
            const std::int64_t bi = bh / h;
            const std::int64_t *p = pp + bi * l;
            const float *c2pRow = cp ? cp + bh * l * w : nullptr;
            const float *p2cRow = pc ? pc + bh * l * w : nullptr;
            for (std::int64_t i = 0; i < l; ++i) {
                float *dst = o + (bh * l + i) * l;
                for (std::int64_t j = 0; j < l; ++j) {
                    float acc = 0.f;
                    if (c2pRow)
                        acc = acc + c2pRow[i * w + lutAt(lut, range, p[i] - p[j])] / scale;
                    if (p2cRow) {
                        const std::int64_t d = p2cTransposedIndex ? p[j] - p[i] : p[i] - p[j];
                        acc = acc + p2cRow[j * w + lutAt(lut, range, d)] / scale;
                    }
                    dst[j] = acc;
                }
            }
        }
    });
    return out;
}

at::Tensor gatherDisentangled(const at::Tensor &c2p, const at::Tensor &p2c, const at::Tensor &pos,
                              const std::vector<std::int64_t> &lut, std::int64_t range, float scale,
                              bool p2cTransposedIndex)
{
    const at::Tensor lutT = at::tensor(lut, at::kLong);
    const at::Tensor dist = (pos.unsqueeze(2) - pos.unsqueeze(1)).clamp(-range, range) + range; // [B, L, L] = p_i - p_j
    const at::Tensor idx = lutT.index_select(0, dist.reshape({-1})).view(dist.sizes());
    const auto &ref = c2p.defined() ? c2p : p2c;
    const std::int64_t h = ref.size(1);
    at::Tensor out = at::zeros({ref.size(0), h, ref.size(2), ref.size(2)}, ref.options());
    if (c2p.defined())
        out = out + at::gather(c2p, 3, idx.unsqueeze(1).expand({-1, h, -1, -1})) / scale;
    if (p2c.defined()) {
        // p2c term for (i, j) reads row j of p2c: gather over [B, H, L_key, L_query] then transpose.
        const at::Tensor idxT = p2cTransposedIndex ? idx : idx.transpose(1, 2);
        out = out + at::gather(p2c, 3, idxT.unsqueeze(1).expand({-1, h, -1, -1}).contiguous()).transpose(2, 3) / scale;
    }
    return out;
}

at::Tensor ernieLayoutPaperScores(const at::Tensor &q, const at::Tensor &k, const std::vector<at::Tensor> &relQ,
                                  const std::vector<at::Tensor> &relK, const std::vector<at::Tensor> &pos,
                                  std::int64_t span)
{
    // δ(i,j) = clamp(p_i - p_j + k, 0, 2k-1): LUT over d in [-k, k].
    std::vector<std::int64_t> lut(static_cast<std::size_t>(2 * span + 1));
    for (std::int64_t d = -span; d <= span; ++d)
        lut[static_cast<std::size_t>(d + span)] = std::clamp<std::int64_t>(d + span, 0, 2 * span - 1);
    at::Tensor scores = at::matmul(q, k.transpose(-1, -2)); // [B, H, L, L]
    for (std::size_t t = 0; t < relQ.size(); ++t) {
        const at::Tensor c2p = at::matmul(q, relK[t].transpose(-1, -2).unsqueeze(0)); // [B, H, L, 2k]
        const at::Tensor p2c = at::matmul(k, relQ[t].transpose(-1, -2).unsqueeze(0)); // [B, H, L, 2k]
        // Kc_j · Q_{δ(j,i)}: p2c row j at index lut[p_j - p_i]  -> transposed distance.
        const bool grad = at::GradMode::is_enabled();
        scores = scores + (grad ? gatherDisentangled(c2p, p2c, pos[t], lut, span, 1.0f, true)
                                : fusedDisentangled(c2p, p2c, pos[t], lut, span, 1.0f, true));
    }
    const double d = static_cast<double>(q.size(-1));
    return scores / std::sqrt(3.0 * d);
}

at::Tensor gridBoxes(std::int64_t g, bool withCls)
{
    return gridBoxes(g, g, withCls);
}

at::Tensor gridBoxes(std::int64_t gh, std::int64_t gw, bool withCls)
{
    std::vector<std::int64_t> v;
    if (withCls)
        v.insert(v.end(), {1, 1, 999, 999});
    auto edge = [](std::int64_t k, std::int64_t g) { return k * 1000 / g; }; // trunc == floor for k >= 0
    for (std::int64_t r = 0; r < gh; ++r)
        for (std::int64_t c = 0; c < gw; ++c)
            v.insert(v.end(), {edge(c, gw), edge(r, gh), edge(c + 1, gw), edge(r + 1, gh)});
    return at::tensor(v, at::kLong).view({-1, 4});
}

} // namespace folio::inference::detail
