// folio-formtagger in the ModelRunner registry: word-level inputs -> logits (+ trace).
#include "inference/formtagger/detail/taggermodel.h"

#include "inference/checkpoint/modelconfig.h"
#include "inference/errors.h"

namespace folio::inference::detail {

std::vector<std::string> Tagger::inputNames() const
{
    return {"input_ids", "piece_mask", "attention_mask", "bbox", "gap_ids"};
}

AtMap Tagger::batchInputs(const Batch &b)
{
    return {{"input_ids", b.pieceIds}, {"piece_mask", b.pieceMask}, {"attention_mask", b.wordMask.to(at::kLong)},
            {"bbox", b.boxes}, {"gap_ids", b.gaps}};
}

AtMap Tagger::forward(const AtMap &inputs, const ForwardContext &ctx) const
{
    auto bad = [](const std::string &name, const std::string &what) {
        return InferenceError("folio-formtagger: input '" + name + "' " + what);
    };
    auto inRange = [](const at::Tensor &t, std::int64_t lo, std::int64_t hi) {
        return t.numel() == 0 || (t.min().item<std::int64_t>() >= lo && t.max().item<std::int64_t>() <= hi);
    };
    Batch b;
    b.pieceIds = requireInput(inputs, "input_ids").to(at::kLong).contiguous();
    if (b.pieceIds.dim() != 3)
        throw bad("input_ids", "must be [batch, words, pieces]");
    if (!inRange(b.pieceIds, 0, m_cfg.vocabSize - 1))
        throw bad("input_ids", "has piece ids outside 0.." + std::to_string(m_cfg.vocabSize - 1));
    const auto B = b.pieceIds.size(0), N = b.pieceIds.size(1);
    const at::Tensor pm = optionalInput(inputs, "piece_mask");
    b.pieceMask = pm.defined() ? pm.to(at::kFloat).contiguous() : at::ones(b.pieceIds.sizes(), at::kFloat);
    if (b.pieceMask.sizes() != b.pieceIds.sizes())
        throw bad("piece_mask", "must have the shape of input_ids");
    const at::Tensor am = optionalInput(inputs, "attention_mask");
    b.wordMask = am.defined() ? am.to(at::kBool).contiguous() : at::ones({B, N}, at::kBool);
    if (b.wordMask.sizes() != at::IntArrayRef({B, N}))
        throw bad("attention_mask", "must be [batch, words]");
    if (m_cfg.useLayout()) {
        b.boxes = requireInput(inputs, "bbox").to(at::kLong).contiguous();
        b.gaps = requireInput(inputs, "gap_ids").to(at::kLong).contiguous();
        if (b.boxes.sizes() != at::IntArrayRef({B, N, 4}) || !inRange(b.boxes, 0, 1000))
            throw bad("bbox", "must be [batch, words, 4] in 0..1000");
        if (b.gaps.sizes() != at::IntArrayRef({B, N, 4}) || !inRange(b.gaps, 0, 32))
            throw bad("gap_ids", "must be [batch, words, 4] in 0..32");
    } else {
        b.boxes = at::zeros({B, N, 4}, at::kLong);
        b.gaps = at::full({B, N, 4}, 32, at::kLong);
    }
    const std::uint32_t disabled = (ctx.enabled(Bias1D) ? 0u : std::uint32_t(Bias1D)) | (ctx.enabled(Bias2D) ? 0u : std::uint32_t(Bias2D));
    std::map<std::string, at::Tensor> trace;
    const at::Tensor logits = forward(b, false, disabled, ctx.tracing() ? &trace : nullptr);
    for (const auto &[name, t] : trace)
        ctx.record(name, t);
    return {{"logits", logits}};
}

void registerFormTagger()
{
    registerModel("folio-formtagger", [](const ModelConfig &c, ParamStore &p) {
        return std::make_unique<Tagger>(TaggerConfig::fromJson(c.json(), c.source()), p);
    });
}

} // namespace folio::inference::detail
