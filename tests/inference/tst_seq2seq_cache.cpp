// The incremental key/value cache against the reference: decoding the parity-next cases' decoder
// inputs one position at a time through the cache gives the reference's full-forward logits
// (atol 1e-5 / rtol 1e-4) at every real position, for BART, HIBRIDS encoder and decoder variants
// (the decoder variant's bias is rebuilt from each step's penultimate cross-attention). Rows are
// compared up to their real decoder length: the full forward masks padded decoder keys, the cache
// path (generation) has none. Beams grouped per source row (cross keys / values computed once per
// source row, the self-attention cache in one reserved buffer, reordered in place) give the logits of
// expanded encoder states.
#include "inference/checkpoint/detail/convert.h"
#include "tests/common/testdata.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/qs/detail/seq2seqmodel.h"

#include <c10/core/InferenceMode.h>

#include <QFileInfo>
#include <QtTest>

using namespace folio::inference;
using namespace folio::inference::detail;

class TestSeq2seqCache : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cachedStepsEqualReferenceLogits_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("bart") << "bart_seq2seq";
        QTest::newRow("hibrids encoder variant") << "hibrids_led_enc";
        QTest::newRow("hibrids decoder variant") << "hibrids_led_dec";
    }
    void cachedStepsEqualReferenceLogits()
    {
        QFETCH(QString, name);
        const QString dir = folio::test::sharedPath(QStringLiteral("fixtures/parity-next/") + name);
        FOLIO_REQUIRE_DATA(dir + QStringLiteral("/model.safetensors"));
        c10::InferenceMode guard;
        const ModelConfig config = ModelConfig::fromDirectory(dir.toStdString());
        ParamStore params((dir + "/model.safetensors").toStdString());
        const Seq2seqModel model(config, params);
        AtMap in, out;
        for (const auto &[k, v] : readSafetensors((dir + "/inputs.safetensors").toStdString()))
            in[k] = toAten(v);
        for (const auto &[k, v] : readSafetensors((dir + "/outputs.safetensors").toStdString()))
            out[k] = toAten(v);
        const auto batch = in.at("input_ids").size(0);
        HibridsBatch hier;
        if (in.count("token_to_section")) {
            std::vector<std::vector<std::int64_t>> parents;
            for (std::int64_t b = 0; b < batch; ++b) {
                const at::Tensor p = in.at("row" + std::to_string(b) + ".section_parent").contiguous();
                parents.emplace_back(p.data_ptr<std::int64_t>(), p.data_ptr<std::int64_t>() + p.numel());
            }
            hier = hibridsBatch(parents, in.at("token_to_section"));
        }
        const bool enc = model.config().hibrids == HibridsVariant::Encoder;
        const at::Tensor global = in.count("global_attention_mask") ? in.at("global_attention_mask") : at::Tensor();
        const EncoderResult e = model.encode(in.at("input_ids"), in.at("attention_mask"), global,
                                             enc ? hier : HibridsBatch(), false);
        const at::Tensor dec = in.at("decoder_input_ids"), decMask = in.at("decoder_attention_mask");
        KvCache cache;
        std::vector<at::Tensor> steps;
        for (std::int64_t t = 0; t < dec.size(1); ++t)
            steps.push_back(model.decode(dec.slice(1, t, t + 1), {}, e.hidden, e.mask, enc ? HibridsBatch() : hier, &cache, false)
                                .logits);
        QCOMPARE(cache.length, dec.size(1));
        const at::Tensor logits = at::cat(steps, 1), want = out.at("logits");
        double worst = 0;
        for (std::int64_t b = 0; b < batch; ++b) {
            const std::int64_t real = decMask[b].sum().item<std::int64_t>();
            const at::Tensor diff = (logits[b].slice(0, 0, real) - want[b].slice(0, 0, real)).abs();
            const at::Tensor allowed = 1e-5 + 1e-4 * want[b].slice(0, 0, real).abs();
            worst = std::max(worst, diff.max().item<double>());
            QVERIFY2(diff.le(allowed).all().item<bool>(), qPrintable(QString("row %1: max |diff| %2").arg(b).arg(diff.max().item<double>())));
        }
        qInfo("%s: cached step-by-step logits vs reference, max |diff| %.3g", qPrintable(name), worst);
        // Beam reordering keeps the cache consistent: duplicating rows and reordering gives the same logits.
        KvCache twice;
        model.decode(dec.slice(1, 0, 1).repeat_interleave(2, 0), {}, e.hidden.repeat_interleave(2, 0),
                     e.mask.repeat_interleave(2, 0), enc ? HibridsBatch() : hier.expanded(2), &twice, false);
        twice.reorder(at::arange(2 * batch - 1, -1, -1, at::kLong)); // reversed rows
        QCOMPARE(twice.selfK.at(0).size(0), 2 * batch);
        QVERIFY(at::allclose(twice.keys(0)[0], cache.keys(0)[batch - 1].slice(1, 0, 1), 1e-5, 1e-6));

        // Beams grouped per source row (issue 35): 2 decoder rows per source row attend to the
        // source row's cross keys / values in place (one row of them, never expanded or reordered);
        // the self-attention buffer reserved once. Same logits as the expanded encoder states, the
        // cache grown step by step; a reorder swaps the beams of each row in place.
        const auto steps2 = std::min<std::int64_t>(dec.size(1), 3);
        const at::Tensor dec2 = dec.repeat_interleave(2, 0);
        const HibridsBatch hier2 = enc ? HibridsBatch() : hier.expanded(2);
        KvCache grouped, expanded;
        grouped.reserve(steps2);
        const at::Tensor hid2 = e.hidden.repeat_interleave(2, 0), mask2 = e.mask.repeat_interleave(2, 0);
        for (std::int64_t t = 0; t < steps2; ++t) {
            const at::Tensor a = model.decode(dec2.slice(1, t, t + 1), {}, e.hidden, e.mask, hier2, &grouped, false).logits;
            const at::Tensor b = model.decode(dec2.slice(1, t, t + 1), {}, hid2, mask2, hier2, &expanded, false).logits;
            QVERIFY2(at::allclose(a, b, 1e-4, 1e-5), qPrintable(QString("step %1: max |diff| %2").arg(t).arg((a - b).abs().max().item<double>())));
        }
        QCOMPARE(grouped.group, std::int64_t(2));
        QCOMPARE(grouped.crossK.at(0).size(0), batch);  // one row per source
        QCOMPARE(grouped.capacity, steps2);             // reserved once
        QCOMPARE(expanded.crossK.at(0).size(0), 2 * batch);
        QVERIFY(expanded.capacity >= steps2);
        std::vector<std::int64_t> swap;
        for (std::int64_t b = 0; b < batch; ++b)
            swap.insert(swap.end(), {2 * b + 1, 2 * b});
        const at::Tensor before = grouped.keys(1).clone();
        grouped.reorder(at::tensor(swap, at::kLong));
        QVERIFY(grouped.keys(1).equal(before.index_select(0, at::tensor(swap, at::kLong))));
        QCOMPARE(grouped.crossK.at(0).size(0), batch);
        // A beam may not move to another source row: the cross cache is shared by the row's beams.
        if (batch > 1)
            QVERIFY_EXCEPTION_THROWN(grouped.reorder(at::arange(2 * batch - 1, -1, -1, at::kLong)), std::exception);
        // Decoder rows that are no multiple of the source rows are refused.
        QVERIFY_EXCEPTION_THROWN(model.decode(dec.slice(0, 0, 1).slice(1, 0, 1), {}, e.hidden.repeat_interleave(2, 0),
                                              e.mask.repeat_interleave(2, 0), {}, nullptr, false),
                                 std::exception);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestSeq2seqCache)
#include "tst_seq2seq_cache.moc"
