#include "inference/layers/detail/layers.h"

#include "inference/checkpoint/detail/paramstore.h"
#include "inference/layers/detail/smallrows.h"

#include <cmath>
#include <limits>

namespace folio::inference::detail {

at::Tensor LinearW::operator()(const at::Tensor &x) const
{
    if (int8)
        return int8LinearForward(*int8, x);
    if (at::Tensor y = smallRowsLinear(x, weight, bias); y.defined())
        return y;
    return at::linear(x, weight, bias);
}

LinearW LinearW::load(ParamStore &p, const std::string &prefix, std::int64_t in, std::int64_t out, bool withBias)
{
    LinearW l;
    l.weight = p.take(prefix + ".weight", {out, in});
    if (withBias)
        l.bias = p.take(prefix + ".bias", {out});
    return l;
}

LayerNormW LayerNormW::load(ParamStore &p, const std::string &prefix, std::int64_t dim, double eps)
{
    LayerNormW n;
    n.weight = p.take(prefix + ".weight", {dim});
    n.bias = p.take(prefix + ".bias", {dim});
    n.eps = eps;
    return n;
}

FeedForwardW FeedForwardW::load(ParamStore &p, const std::string &lp, std::int64_t hidden, std::int64_t intermediate,
                                double eps)
{
    FeedForwardW f;
    f.attnOut = LinearW::load(p, lp + ".attention.output.dense", hidden, hidden);
    f.attnLn = LayerNormW::load(p, lp + ".attention.output.LayerNorm", hidden, eps);
    f.inter = LinearW::load(p, lp + ".intermediate.dense", hidden, intermediate);
    f.out = LinearW::load(p, lp + ".output.dense", intermediate, hidden);
    f.outLn = LayerNormW::load(p, lp + ".output.LayerNorm", hidden, eps);
    return f;
}

at::Tensor FeedForwardW::operator()(const at::Tensor &ctx, const at::Tensor &x) const
{
    const at::Tensor h = attnLn(attnOut(ctx) + x);
    return outLn(out(at::gelu(inter(h))) + h);
}

at::Tensor FeedForwardW::operator()(const at::Tensor &ctx, const at::Tensor &x, double dropout, bool training) const
{
    if (!training || dropout <= 0.0)
        return (*this)(ctx, x);
    const at::Tensor h = attnLn(at::dropout(attnOut(ctx), dropout, true) + x);
    return outLn(at::dropout(out(at::gelu(inter(h))), dropout, true) + h);
}

at::Tensor FeedForwardW::preLn(const at::Tensor &ctx, const at::Tensor &x, double dropout, bool training) const
{
    const double p = training ? dropout : 0.0;
    const at::Tensor x1 = x + at::dropout(attnOut(ctx), p, training);
    return x1 + at::dropout(out(at::gelu(inter(outLn(x1)))), p, training);
}

SelfAttentionW SelfAttentionW::load(ParamStore &p, const std::string &sp, std::int64_t hidden, std::int64_t heads)
{
    SelfAttentionW a;
    a.query = LinearW::load(p, sp + ".query", hidden, hidden);
    a.key = LinearW::load(p, sp + ".key", hidden, hidden);
    a.value = LinearW::load(p, sp + ".value", hidden, hidden);
    a.heads = heads;
    return a;
}

at::Tensor SelfAttentionW::operator()(const at::Tensor &h, const at::Tensor &scoreAdd, at::Tensor *probs) const
{
    const at::Tensor ctx = scaledAttention(splitHeads(query(h), heads), splitHeads(key(h), heads),
                                           splitHeads(value(h), heads), scoreAdd, probs);
    return mergeHeads(ctx);
}

at::Tensor splitHeads(const at::Tensor &x, std::int64_t heads)
{
    const auto b = x.size(0), l = x.size(1), d = x.size(2) / heads;
    return x.view({b, l, heads, d}).permute({0, 2, 1, 3});
}

at::Tensor mergeHeads(const at::Tensor &x)
{
    const auto b = x.size(0), h = x.size(1), l = x.size(2), d = x.size(3);
    return x.permute({0, 2, 1, 3}).contiguous().view({b, l, h * d});
}

at::Tensor scaledAttention(const at::Tensor &q, const at::Tensor &k, const at::Tensor &v, const at::Tensor &scoreAdd,
                           at::Tensor *probs)
{
    const double sq = std::sqrt(static_cast<double>(q.size(-1)));
    at::Tensor scores = at::matmul(q / sq, k.transpose(-1, -2)); // [B, H, Lq, Lk]
    if (scoreAdd.defined())
        scores.add_(scoreAdd);
    // Inference: the softmax in place on the fresh scores (the same kernel, so the same values; one
    // [B, H, Lq, Lk] buffer less). Under grad the out-of-place form, which autograd records.
    at::Tensor p = at::GradMode::is_enabled() ? at::softmax(scores, -1) : at::_softmax_out(scores, scores, -1, false);
    if (probs)
        *probs = p;
    return at::matmul(p, v);
}

at::Tensor additiveMask(const at::Tensor &mask01)
{
    const at::Tensor m = mask01.to(at::kFloat);
    return ((1.0 - m) * std::numeric_limits<float>::lowest()).unsqueeze(1).unsqueeze(2);
}

} // namespace folio::inference::detail
