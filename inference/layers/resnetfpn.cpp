#include "inference/layers/detail/resnetfpn.h"

#include "inference/checkpoint/detail/paramstore.h"
#include "inference/errors.h"

#include <algorithm>

namespace folio::inference::detail {

ResNetFpn::ConvBn ResNetFpn::loadConvBn(ParamStore &p, const std::string &name, std::int64_t out, std::int64_t in,
                                        std::int64_t k, std::int64_t stride, std::int64_t groups)
{
    ConvBn c;
    c.weight = p.take(name + ".weight", {out, in / groups, k, k});
    c.bnWeight = p.take(name + ".norm.weight", {out});
    c.bnBias = p.take(name + ".norm.bias", {out});
    c.bnMean = p.take(name + ".norm.running_mean", {out});
    c.bnVar = p.take(name + ".norm.running_var", {out});
    p.ignore(name + ".norm.num_batches_tracked");
    c.stride = stride;
    c.padding = k / 2;
    c.groups = groups;
    return c;
}

at::Tensor ResNetFpn::ConvBn::operator()(const at::Tensor &x) const
{
    const at::Tensor y = at::conv2d(x, weight, {}, {stride, stride}, {padding, padding}, {1, 1}, groups);
    // FrozenBatchNorm2d without grad: F.batch_norm(training=False, eps=1e-5).
    return at::batch_norm(y, bnWeight, bnBias, bnMean, bnVar, false, 0.1, 1e-5, true);
}

ResNetFpn::ResNetFpn(const ResNetFpnOptions &o, ParamStore &p, const std::string &prefix) : m_o(o)
{
    m_mean = at::tensor(std::vector<double>(o.pixelMean.begin(), o.pixelMean.end()), at::kFloat).view({3, 1, 1});
    m_std = at::tensor(std::vector<double>(o.pixelStd.begin(), o.pixelStd.end()), at::kFloat).view({3, 1, 1});
    const std::string bu = prefix + "bottom_up.";
    m_stemConv = loadConvBn(p, bu + "stem.conv1", o.stemOut, 3, 7, 2, 1);

    std::int64_t in = o.stemOut, out = o.res2Out, bottleneck = o.groups * o.widthPerGroup;
    std::array<std::int64_t, 4> stageOut{};
    const std::vector<int> blocks = o.blocksPerStage();
    for (int s = 0; s < 4; ++s) {
        std::vector<Block> stage;
        for (int i = 0; i < blocks[static_cast<std::size_t>(s)]; ++i) {
            const std::int64_t stride = (i == 0 && s > 0) ? 2 : 1;
            const std::int64_t s1 = o.strideIn1x1 ? stride : 1, s3 = o.strideIn1x1 ? 1 : stride;
            const std::string bp = bu + "res" + std::to_string(s + 2) + "." + std::to_string(i);
            Block b;
            if (in != out)
                b.shortcut = loadConvBn(p, bp + ".shortcut", out, in, 1, stride, 1);
            b.conv1 = loadConvBn(p, bp + ".conv1", bottleneck, in, 1, s1, 1);
            b.conv2 = loadConvBn(p, bp + ".conv2", bottleneck, bottleneck, 3, s3, o.groups);
            b.conv3 = loadConvBn(p, bp + ".conv3", out, bottleneck, 1, 1, 1);
            stage.push_back(std::move(b));
            in = out;
        }
        m_stages.push_back(std::move(stage));
        stageOut[static_cast<std::size_t>(s)] = out;
        out *= 2;
        bottleneck *= 2;
    }
    for (int s = 0; s < 4; ++s) {
        const std::string n = std::to_string(s + 2);
        const auto i = static_cast<std::size_t>(s);
        m_latW[i] = p.take(prefix + "fpn_lateral" + n + ".weight", {o.fpnOut, stageOut[i], 1, 1});
        m_latB[i] = p.take(prefix + "fpn_lateral" + n + ".bias", {o.fpnOut});
        // p3..p5 are discarded by LayoutLMv2: checked, not kept.
        const at::Tensor w = p.take(prefix + "fpn_output" + n + ".weight", {o.fpnOut, o.fpnOut, 3, 3});
        const at::Tensor b = p.take(prefix + "fpn_output" + n + ".bias", {o.fpnOut});
        if (s == 0) {
            m_out2W = w;
            m_out2B = b;
        }
    }
}

at::Tensor ResNetFpn::p2(const at::Tensor &image) const
{
    if (image.dim() != 4 || image.size(1) != 3)
        throw InferenceError("image must be [B, 3, H, W] (BGR, 0..255); got " + std::to_string(image.dim()) + " dims"
                             + (image.dim() >= 2 ? " with " + std::to_string(image.size(1)) + " channels" : std::string()));
    const auto h = image.size(2), w = image.size(3);
    if (h < 32 || w < 32 || h % 32 != 0 || w % 32 != 0)
        throw InferenceError("image height and width must be positive multiples of 32 (the FPN's stride); got "
                             + std::to_string(h) + "x" + std::to_string(w));
    if (!at::isFloatingType(image.scalar_type()) && image.scalar_type() != at::kByte)
        throw InferenceError("image must be uint8 or float");
    // (image - PIXEL_MEAN) / PIXEL_STD: uint8 promotes to float32 as in the reference.
    at::Tensor x = (image.to(at::kFloat) - m_mean) / m_std;

    x = at::relu(m_stemConv(x));
    x = at::max_pool2d(x, {3, 3}, {2, 2}, {1, 1});
    std::array<at::Tensor, 4> feats;
    for (std::size_t s = 0; s < m_stages.size(); ++s) {
        for (const Block &b : m_stages[s]) {
            at::Tensor y = at::relu(b.conv1(x));
            y = at::relu(b.conv2(y));
            y = b.conv3(y);
            y = y + (b.shortcut.weight.defined() ? b.shortcut(x) : x);
            x = at::relu(y);
        }
        feats[s] = x;
    }
    // FPN top-down ("sum"): prev = lateral5(res5); prev = lateral_s(res_s) + up2(prev), s = 4..2.
    at::Tensor prev = at::conv2d(feats[3], m_latW[3], m_latB[3]);
    for (int s = 2; s >= 0; --s) {
        const auto i = static_cast<std::size_t>(s);
        const at::Tensor up = at::upsample_nearest2d(prev, {prev.size(2) * 2, prev.size(3) * 2}, 2.0, 2.0);
        prev = at::conv2d(feats[i], m_latW[i], m_latB[i]) + up;
    }
    return at::conv2d(prev, m_out2W, m_out2B, {1, 1}, {1, 1});
}

} // namespace folio::inference::detail
