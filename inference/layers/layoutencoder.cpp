#include "inference/layers/detail/layoutencoder.h"

#include "inference/layers/detail/int8linear.h"
#include "inference/training/hf/detail/hfoptim.h" // TrainingDropout

#include "inference/models/detail/model.h"
#include "inference/checkpoint/detail/paramstore.h"

#include <cmath>

namespace folio::inference::detail {

LayoutEncoder::LayoutEncoder(const LayoutEncoderOptions &o, ParamStore &p, const std::string &prefix) : m_o(o)
{
    const auto d = o.hidden;
    for (std::int64_t i = 0; i < o.layers; ++i) {
        const std::string lp = prefix + "layer." + std::to_string(i);
        Layer layer;
        if (o.fastQkv) {
            // attention.self.qkv_linear.weight [3D, D]; attention.self.q_bias / v_bias [1, 1, D]
            layer.qkv.weight = p.take(lp + ".attention.self.qkv_linear.weight", {3 * d, d});
            const at::Tensor qb = p.take(lp + ".attention.self.q_bias", {1, 1, d}).view({d});
            const at::Tensor vb = p.take(lp + ".attention.self.v_bias", {1, 1, d}).view({d});
            layer.qkv.bias = at::cat({qb, at::zeros({d}), vb});
        } else {
            // attention.self.{query,key,value}.{weight [D, D], bias [D]}
            const LinearW q = LinearW::load(p, lp + ".attention.self.query", d, d);
            const LinearW k = LinearW::load(p, lp + ".attention.self.key", d, d);
            const LinearW v = LinearW::load(p, lp + ".attention.self.value", d, d);
            layer.qkv.weight = at::cat({q.weight, k.weight, v.weight});
            layer.qkv.bias = at::cat({q.bias, k.bias, v.bias});
        }
        layer.ffn = FeedForwardW::load(p, lp, d, o.intermediate, o.eps);
        m_layers.push_back(std::move(layer));
    }
    if (o.relative1d)
        m_rel1d = RelativeBucketBias(p.take(prefix + "rel_pos_bias.weight", {o.heads, o.relBins}), o.relBins, o.maxRel);
    if (o.spatial2d) {
        m_relX = RelativeBucketBias(p.take(prefix + "rel_pos_x_bias.weight", {o.heads, o.rel2dBins}), o.rel2dBins,
                                    o.maxRel2d);
        m_relY = RelativeBucketBias(p.take(prefix + "rel_pos_y_bias.weight", {o.heads, o.rel2dBins}), o.rel2dBins,
                                    o.maxRel2d);
    }
}

void LayoutEncoder::quantizeDynamicInt8()
{
    for (Layer &layer : m_layers) {
        detail::quantizeDynamicInt8(layer.qkv);
        detail::quantizeDynamicInt8(layer.ffn);
    }
}

at::Tensor LayoutEncoder::forward(const at::Tensor &x, const at::Tensor &pos, const at::Tensor &bbox,
                                  const at::Tensor &maskAdd, const ForwardContext &ctx,
                                  std::vector<at::Tensor> *hiddenStates) const
{
    const auto h = m_o.heads;
    const double sqrtD = std::sqrt(static_cast<double>(m_o.hidden / h));
    // Which terms enter the scores (v3 adds nothing when only the spatial flag is on).
    const bool use1d = m_rel1d.isValid() && ctx.enabled(Bias1D);
    const bool use2d = m_relX.isValid() && ctx.enabled(Bias2D) && (!m_o.scaleBiases || m_rel1d.isValid());
    const at::Tensor xs = bbox.select(2, 0).contiguous(); // left edge
    const at::Tensor ys = bbox.select(2, 3).contiguous(); // bottom edge
    // One [B, H, L, L] score term per forward = (1-D + (x + y)) [/ sqrt(d)] + key mask.
    const at::Tensor scoreAdd = layoutBiasScores(use1d ? &m_rel1d : nullptr, pos, use2d ? &m_relX : nullptr, xs,
                                                 use2d ? &m_relY : nullptr, ys, m_o.scaleBiases ? sqrtD : 1.0, maskAdd);
    if (ctx.tracing()) {
        if (m_rel1d.isValid())
            ctx.record("bias.1d", m_rel1d.dense(pos));
        if (m_relX.isValid()) {
            ctx.record("bias.2d_x", m_relX.dense(xs));
            ctx.record("bias.2d_y", m_relY.dense(ys));
        }
    }

    at::Tensor hs = x;
    if (hiddenStates)
        hiddenStates->push_back(hs);
    const TrainingDropout &drop = currentTrainingDropout(); // HfFineTuner's training forward; zero otherwise
    for (std::size_t i = 0; i < m_layers.size(); ++i) {
        const Layer &layer = m_layers[i];
        const at::Tensor qkv = layer.qkv(hs); // [B, L, 3D]
        const auto chunks = qkv.chunk(3, -1);
        if (drop.active()) {
            // Fine-tuning with the checkpoint's dropout, where the reference applies it: on the
            // attention probabilities and on both sub-layer outputs before their residual adds.
            const at::Tensor q = splitHeads(chunks[0], h), k = splitHeads(chunks[1], h), v = splitHeads(chunks[2], h);
            const double sq = std::sqrt(static_cast<double>(q.size(-1)));
            const at::Tensor p = at::dropout(at::softmax(at::matmul(q / sq, k.transpose(-1, -2)) + scoreAdd, -1), drop.attention, true);
            hs = layer.ffn(mergeHeads(at::matmul(p, v)), hs, drop.hidden, true);
            if (hiddenStates)
                hiddenStates->push_back(hs);
            continue;
        }
        at::Tensor probs;
        const at::Tensor ctxT = scaledAttention(splitHeads(chunks[0], h), splitHeads(chunks[1], h),
                                                splitHeads(chunks[2], h), scoreAdd, ctx.tracing() ? &probs : nullptr);
        if (ctx.tracing())
            ctx.record("attentions." + std::to_string(i), probs);
        hs = layer.ffn(mergeHeads(ctxT), hs);
        if (hiddenStates)
            hiddenStates->push_back(hs);
    }
    return hs;
}

} // namespace folio::inference::detail
