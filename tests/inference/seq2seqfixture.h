#pragma once
// Reading the seq2seq parity cases' inputs (../shared/fixtures/parity-next: bart_seq2seq,
// hibrids_led_enc, hibrids_led_dec) for tst_seq2seq and tst_seq2seq_checkpoints.
#include "inference/qs/seq2seq.h"
#include "tensorcompare.h"

#include <cstdint>
#include <string>
#include <vector>

namespace folio::inference::test {

// Row r of a [B, L] tensor (a 1-D one: the whole tensor) as int64, its first n values (n < 0: all).
inline std::vector<std::int64_t> tensorRow(const Tensor &t, std::int64_t r, std::int64_t n = -1)
{
    const std::int64_t width = t.shape.size() > 1 ? t.shape[1] : t.numel();
    std::vector<std::int64_t> v;
    for (std::int64_t i = 0; i < (n < 0 ? width : n); ++i)
        v.push_back(static_cast<std::int64_t>(valueAt(t, r * width + i)));
    return v;
}

// One source per batch row of a case's inputs, cut to its real length (attention_mask), with the
// global tokens and HIBRIDS section layout where the case has them.
inline std::vector<Seq2seqSource> fixtureSources(const TensorMap &in)
{
    std::vector<Seq2seqSource> out;
    const Tensor &ids = in.at("input_ids");
    for (std::int64_t b = 0; b < ids.shape[0]; ++b) {
        std::int64_t n = 0;
        for (auto m : tensorRow(in.at("attention_mask"), b))
            n += m;
        Seq2seqSource s;
        s.ids = tensorRow(ids, b, n);
        if (in.count("global_attention_mask")) {
            const auto global = tensorRow(in.at("global_attention_mask"), b, n);
            for (std::int64_t i = 0; i < n; ++i)
                if (global[static_cast<std::size_t>(i)])
                    s.globalTokens.push_back(i);
        }
        if (in.count("token_to_section")) {
            s.layout.sectionParent = tensorRow(in.at("row" + std::to_string(b) + ".section_parent"), 0);
            s.layout.tokenToSection = tensorRow(in.at("token_to_section"), b, n);
        }
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace folio::inference::test
