// seqeval-semantics entity scoring and constrained BIO Viterbi, against hand-computed cases.
#include "inference/errors.h"
#include "inference/training/metrics.h"
#include "inference/training/viterbi.h"
#include "tests/common/testdata.h"

#include <QTest>

#include <cmath>

using namespace folio::inference;

class TestMetrics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void chunksConlleval()
    {
        // seqeval get_entities(['B-PER','I-PER','O','B-LOC']) = [('PER',0,1), ('LOC',3,3)]
        auto c = extractChunks({"B-PER", "I-PER", "O", "B-LOC"});
        QCOMPARE(int(c.size()), 2);
        QVERIFY((c[0] == Chunk{"PER", 0, 1}));
        QVERIFY((c[1] == Chunk{"LOC", 3, 3}));
        // An orphan I- after O starts an entity; I-X after B-Y starts a new one.
        c = extractChunks({"O", "I-A", "I-A", "B-B", "I-A"});
        QCOMPARE(int(c.size()), 3);
        QVERIFY((c[0] == Chunk{"A", 1, 2}));
        QVERIFY((c[1] == Chunk{"B", 3, 3}));
        QVERIFY((c[2] == Chunk{"A", 4, 4}));
        // B-A B-A: two entities. Entity at the end of the sequence closes.
        c = extractChunks({"B-A", "B-A", "I-A"});
        QCOMPARE(int(c.size()), 2);
        QVERIFY((c[1] == Chunk{"A", 1, 2}));
        QVERIFY(extractChunks({}).empty());
        QVERIFY(extractChunks({"O", "O"}).empty());
    }

    void scores()
    {
        // seqeval docs example: y_true [['O','O','O','B-MISC','I-MISC','I-MISC','O'],['B-PER','I-PER','O']]
        //                       y_pred [['O','O','B-MISC','I-MISC','I-MISC','I-MISC','O'],['B-PER','I-PER','O']]
        // f1 = 0.5 (1 correct of 2 predicted, 2 gold).
        EntityScorer s;
        s.add({"O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"}, {"O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"});
        s.add({"B-PER", "I-PER", "O"}, {"B-PER", "I-PER", "O"});
        QCOMPARE(s.micro().truePositives, 1L);
        QCOMPARE(s.micro().predicted, 2L);
        QCOMPARE(s.micro().gold, 2L);
        QVERIFY(std::abs(s.micro().f1() - 0.5) < 1e-12);
        QCOMPARE(s.perClass().at("MISC").f1(), 0.0);
        QCOMPARE(s.perClass().at("PER").f1(), 1.0);
        // No cross-page entity: an I- at the start of page 2 is its own entity.
        EntityScorer t;
        t.add({"B-A"}, {"B-A"});
        t.add({"I-A", "O"}, {"B-A", "O"});
        QCOMPARE(t.micro().truePositives, 2L); // "I-A" alone = entity (A,0,0) on page 2
        QVERIFY_THROWS_EXCEPTION(InferenceError, t.add({"O"}, {"O", "O"}));
        // precision 2/3, recall 2/4 -> f1 = 2*(2/3)(1/2)/(2/3+1/2) = 4/7
        EntityScorer u;
        u.add({"B-X", "O", "B-Y", "O", "B-X", "I-X", "B-Y"}, {"B-X", "O", "B-Y", "B-Y", "O", "O", "O"});
        QCOMPARE(u.micro().gold, 4L);
        QCOMPARE(u.micro().predicted, 3L);
        QVERIFY(std::abs(u.micro().f1() - 4.0 / 7.0) < 1e-12);
    }

    void viterbiConstraints()
    {
        const std::vector<std::string> L = {"O", "B-A", "I-A", "B-B", "I-B"};
        auto lp = [](std::vector<std::vector<double>> p) {
            std::vector<float> out;
            for (auto &row : p)
                for (double v : row)
                    out.push_back(float(std::log(v)));
            return out;
        };
        // Argmax would give I-A, I-A (start with I-): Viterbi must start with B-A.
        auto s = lp({{0.05, 0.4, 0.45, 0.05, 0.05}, {0.05, 0.05, 0.8, 0.05, 0.05}});
        QCOMPARE(argmaxDecode(s, 2, 5), (std::vector<int>{2, 2}));
        QCOMPARE(viterbiDecode(s, 2, L), (std::vector<int>{1, 2}));
        // I-B after B-A is forbidden: O, B-A, then best allowed.
        s = lp({{0.9, 0.025, 0.025, 0.025, 0.025}, {0.1, 0.6, 0.1, 0.1, 0.1}, {0.1, 0.1, 0.3, 0.1, 0.4}});
        QCOMPARE(viterbiDecode(s, 3, L), (std::vector<int>{0, 1, 2}));
        // Orphan I-A after O becomes B-A or O.
        s = lp({{0.9, 0.025, 0.025, 0.025, 0.025}, {0.3, 0.1, 0.5, 0.05, 0.05}});
        QCOMPARE(viterbiDecode(s, 2, L), (std::vector<int>{0, 0}));
        QVERIFY(viterbiDecode({}, 0, L).empty());
        QVERIFY_THROWS_EXCEPTION(InferenceError, viterbiDecode({0.f}, 1, L));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
