// Greedy / beam search semantics (inference/qs/generation.h) on hand-computed cases: a stateless
// step source whose next-token log-probabilities depend only on the prefix. The parity fixtures
// never emit EOS, so the scorer's EOS, early-stopping and length-penalty branches are checked here.
#include "inference/qs/detail/generate.h"
#include "tests/common/testdata.h"

#include <QtTest>

#include <cmath>
#include <map>

using namespace folio::inference;
using namespace folio::inference::detail;

namespace {

constexpr std::int64_t kVocab = 7; // 0 bos, 1 pad, 2 eos/start, 3..6 words

// Next-token probabilities by prefix (start token included); unlisted prefixes: EOS certain.
class TableSource : public StepSource
{
public:
    std::map<std::vector<std::int64_t>, std::map<std::int64_t, double>> table;
    int calls = 0;

    at::Tensor logits(const at::Tensor &prefixes) override
    {
        ++calls;
        at::Tensor out = at::full({prefixes.size(0), kVocab}, -std::numeric_limits<float>::infinity(), at::kFloat);
        for (std::int64_t r = 0; r < prefixes.size(0); ++r) {
            std::vector<std::int64_t> p(prefixes.size(1));
            for (std::int64_t i = 0; i < prefixes.size(1); ++i)
                p[static_cast<std::size_t>(i)] = prefixes[r][i].item<std::int64_t>();
            auto it = table.find(p);
            if (it == table.end()) {
                out[r][2] = 0.0;
                continue;
            }
            for (const auto &[tok, prob] : it->second)
                out[r][tok] = std::log(prob);
        }
        return out;
    }
    void reorder(const at::Tensor &) override {}
};

// Step 1: 3 (.5), 4 (.3), EOS (.2). After 3: EOS .6, 3 .4; after 4: EOS .9, 4 .1. Then EOS.
TableSource eosTable()
{
    TableSource s;
    s.table[{2}] = {{3, 0.5}, {4, 0.3}, {2, 0.2}};
    s.table[{2, 3}] = {{2, 0.6}, {3, 0.4}};
    s.table[{2, 4}] = {{2, 0.9}, {4, 0.1}};
    return s;
}

std::vector<std::int64_t> tokensOf(const at::Tensor &t)
{
    std::vector<std::int64_t> v;
    for (std::int64_t i = 0; i < t.numel(); ++i)
        v.push_back(t[i].item<std::int64_t>());
    return v;
}

} // namespace

class TestSeq2seqSearch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Step 2 finishes [2,3] (log .3, rank 0) and [2,4] (log .27, rank 1): two hypotheses = done.
    void beamEarlyStopping()
    {
        TableSource src = eosTable();
        GenerationSettings s;
        s.numBeams = 2;
        s.maxLength = 4;
        s.earlyStopping = true;
        const SearchOutput r = beamSearch(src, 1, s, SpecialTokens{}, {});
        QCOMPARE(r.rows.at(0).tokens, (std::vector<std::int64_t>{2, 3, 2}));
        QVERIFY(std::fabs(r.rows[0].score - std::log(0.3) / 2) < 1e-6);
        QCOMPARE(r.steps, 2);
    }

    // Without early stopping the row goes on while a running beam could still win:
    // step 2: worst log(.27)/2 = -0.655 < best running log(.3)/2 = -0.602, go on;
    // step 3: [2,3,3] ends with log(.2)/3 = -0.536 and replaces [2,4]; the best.
    void beamNoEarlyStopping()
    {
        TableSource src = eosTable();
        src.table[{2, 3, 3}] = {{2, 1.0}};
        src.table[{2, 4, 4}] = {{2, 1.0}};
        GenerationSettings s;
        s.numBeams = 2;
        s.maxLength = 4;
        const SearchOutput r = beamSearch(src, 1, s, SpecialTokens{}, {});
        QCOMPARE(r.rows.at(0).tokens, (std::vector<std::int64_t>{2, 3, 3, 2}));
        QVERIFY(std::fabs(r.rows[0].score - std::log(0.2) / 3) < 1e-6);
    }

    // length_penalty 0: raw sums. After step 3 the worst kept (log .27) beats the best running
    // (log .2): done; the best is [2,3] with log .3.
    void beamLengthPenaltyZero()
    {
        TableSource src = eosTable();
        GenerationSettings s;
        s.numBeams = 2;
        s.maxLength = 6;
        s.lengthPenalty = 0.0;
        const SearchOutput r = beamSearch(src, 1, s, SpecialTokens{}, {});
        QCOMPARE(r.rows.at(0).tokens, (std::vector<std::int64_t>{2, 3, 2}));
        QVERIFY(std::fabs(r.rows[0].score - std::log(0.3)) < 1e-6);
        QCOMPARE(r.steps, 3);
    }

    // At max_length with no hypothesis the live beams are finalised without EOS appended.
    void beamMaxLengthWithoutEos()
    {
        TableSource src;
        src.table[{2}] = {{3, 0.6}, {4, 0.4}};
        src.table[{2, 3}] = {{5, 0.5}, {6, 0.5}};
        src.table[{2, 4}] = {{5, 0.9}, {6, 0.1}};
        GenerationSettings s;
        s.numBeams = 2;
        s.maxLength = 3;
        const SearchOutput r = beamSearch(src, 1, s, SpecialTokens{}, {});
        // [2,4,5]: .36 beats [2,3,5] / [2,3,6]: .30
        QCOMPARE(r.rows.at(0).tokens, (std::vector<std::int64_t>{2, 4, 5}));
        QVERIFY(std::fabs(r.rows[0].score - std::log(0.36) / 3) < 1e-6);
    }

    // Greedy takes the argmax and stops at EOS (or at max_length).
    void greedyStopsAtEos()
    {
        TableSource src;
        src.table[{2}] = {{3, 0.6}, {4, 0.4}};
        src.table[{2, 3}] = {{5, 0.7}, {2, 0.3}};
        src.table[{2, 3, 5}] = {{6, 1.0}};
        GenerationSettings s;
        s.maxLength = 5;
        const SearchOutput r = greedySearch(src, 1, s, SpecialTokens{}, {}, true);
        QCOMPARE(r.rows.at(0).tokens, (std::vector<std::int64_t>{2, 3, 5, 6, 2}));
        QVERIFY(std::fabs(r.rows[0].score - std::log(0.6 * 0.7)) < 1e-6);
        QCOMPARE(r.stepLogits.sizes().vec(), (std::vector<std::int64_t>{1, 4, kVocab}));
        s.maxLength = 20;
        TableSource two = src;
        const SearchOutput r2 = greedySearch(two, 1, s, SpecialTokens{}, {}, false);
        QCOMPARE(r2.rows.at(0).tokens, (std::vector<std::int64_t>{2, 3, 5, 6, 2})); // stopped at EOS
    }

    void logitsProcessors()
    {
        GenerationSettings s;
        s.noRepeatNgramSize = 2;
        const SpecialTokens t;
        // [2,5,6,5]: bigrams (2,5) (5,6) (6,5); last token 5 -> 6 banned.
        at::Tensor scores = at::zeros({1, kVocab});
        applyLogitsProcessors(scores, at::tensor(std::vector<std::int64_t>{2, 5, 6, 5}).view({1, 4}), s, t);
        QCOMPARE(tokensOf(at::isinf(scores[0]).nonzero().view({-1})), (std::vector<std::int64_t>{6}));
        // trigrams: prefix (5, 6) was followed by 5 -> 5 banned; (6, 5) never -> nothing.
        s.noRepeatNgramSize = 3;
        scores = at::zeros({2, kVocab});
        applyLogitsProcessors(scores, at::tensor(std::vector<std::int64_t>{5, 6, 5, 6, 2, 6, 5, 2}).view({2, 4}), s, t);
        QCOMPARE(tokensOf(at::isinf(scores[0]).nonzero().view({-1})), (std::vector<std::int64_t>{5}));
        QCOMPARE(at::isinf(scores[1]).sum().item<std::int64_t>(), std::int64_t(0));
        // min_length: EOS banned while cur_len < min_length.
        s = GenerationSettings();
        s.minLength = 3;
        scores = at::zeros({1, kVocab});
        applyLogitsProcessors(scores, at::full({1, 2}, 2, at::kLong), s, t);
        QCOMPARE(tokensOf(at::isinf(scores[0]).nonzero().view({-1})), (std::vector<std::int64_t>{2}));
        scores = at::zeros({1, kVocab});
        applyLogitsProcessors(scores, at::full({1, 3}, 2, at::kLong), s, t);
        QCOMPARE(at::isinf(scores).sum().item<std::int64_t>(), std::int64_t(0));
        // forced BOS at cur_len 1, forced EOS at max_length - 1.
        s = GenerationSettings();
        s.forcedBosTokenId = 0;
        s.forcedEosTokenId = 2;
        s.maxLength = 4;
        scores = at::zeros({1, kVocab});
        applyLogitsProcessors(scores, at::full({1, 1}, 2, at::kLong), s, t);
        QCOMPARE(tokensOf(at::isfinite(scores[0]).nonzero().view({-1})), (std::vector<std::int64_t>{0}));
        scores = at::zeros({1, kVocab});
        applyLogitsProcessors(scores, at::full({1, 3}, 3, at::kLong), s, t);
        QCOMPARE(tokensOf(at::isfinite(scores[0]).nonzero().view({-1})), (std::vector<std::int64_t>{2}));
    }

    void badSettings()
    {
        TableSource src = eosTable();
        GenerationSettings s;
        s.maxLength = 0;
        QVERIFY_THROWS_EXCEPTION(std::exception, greedySearch(src, 1, s, SpecialTokens{}, {}, false));
        s.maxLength = 5;
        s.numBeams = 0;
        QVERIFY_THROWS_EXCEPTION(std::exception, beamSearch(src, 1, s, SpecialTokens{}, {}));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestSeq2seqSearch)
#include "tst_seq2seq_search.moc"
