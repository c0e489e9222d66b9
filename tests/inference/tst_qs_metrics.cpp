// QS metrics (inference/qs/qsmetrics.h) on hand-computed cases: Porter stems (NLTK extensions),
// ROUGE-1/2/Lsum, BLEU-4 with smoothing method2, hierarchy P/R/F1.
#include "inference/qs/qsmetrics.h"
#include "tests/common/testdata.h"

#include <QtTest>

#include <cmath>

using namespace folio::inference;

namespace {
bool near(double a, double b)
{
    return std::fabs(a - b) < 1e-6;
}

QsHierarchy tree(const std::string &b)
{
    QsHierarchy t;
    t.rootSummary = "alpha beta";
    t.items = {{"what a?", "gamma delta", 1}, {"why b?", b, 2}};
    return t;
}
} // namespace

class TestQsMetrics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void porter_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<QString>("stem");
        const char *pairs[][2] = {{"caresses", "caress"}, {"ponies", "poni"},     {"ties", "tie"},
                                  {"cats", "cat"},         {"feed", "feed"},       {"agreed", "agre"},
                                  {"plastered", "plaster"}, {"motoring", "motor"}, {"sing", "sing"},
                                  {"conflated", "conflat"}, {"troubled", "troubl"}, {"sized", "size"},
                                  {"hopping", "hop"},      {"falling", "fall"},    {"hissing", "hiss"},
                                  {"filing", "file"},      {"happy", "happi"},     {"sky", "sky"},
                                  {"dying", "die"},        {"relational", "relat"}, {"conditional", "condit"},
                                  {"generalization", "gener"}, {"electrical", "electr"}, {"hopeful", "hope"},
                                  {"goodness", "good"},    {"adjustment", "adjust"}, {"meeting", "meet"},
                                  {"running", "run"},      {"discussed", "discuss"}, {"questions", "question"},
                                  {"summaries", "summari"}, {"controll", "control"}, {"by", "by"}};
        for (const auto &p : pairs)
            QTest::newRow(p[0]) << QString(p[0]) << QString(p[1]);
    }
    void porter()
    {
        QFETCH(QString, word);
        QFETCH(QString, stem);
        QCOMPARE(QString::fromStdString(porterStem(word.toStdString())), stem);
    }

    void tokenizer()
    {
        QCOMPARE(rougeTokenize("The Meetings discussed budgets, 2024!"),
                 (std::vector<std::string>{"the", "meet", "discuss", "budget", "2024"}));
        QCOMPARE(rougeTokenize("The Meetings", false), (std::vector<std::string>{"the", "meetings"}));
        QCOMPARE(bleuTokenize("What did the Group decide?"),
                 (std::vector<std::string>{"what", "did", "the", "group", "decide", "?"}));
    }

    void rouge()
    {
        // 6 target unigrams, 5 predicted, 5 hits; bigrams 5 / 4 / 3.
        const RougeScore r1 = rougeN("the cat sat on the mat", "the cat on the mat", 1);
        QVERIFY(near(r1.precision, 1.0));
        QVERIFY(near(r1.recall, 5.0 / 6));
        QVERIFY(near(r1.fmeasure, 10.0 / 11));
        const RougeScore r2 = rougeN("the cat sat on the mat", "the cat on the mat", 2);
        QVERIFY(near(r2.fmeasure, 2 * 0.75 * 0.6 / 1.35));
        QVERIFY(near(rougeLsum("the cat sat on the mat", "the cat on the mat").fmeasure, 10.0 / 11));
        // Summary level: union LCS per reference sentence: a,b,c (3) + e (1) = 4 hits of 5 / 4.
        const RougeScore ls = rougeLsum("a b c\nd e", "a c\nb e");
        QVERIFY(near(ls.precision, 1.0));
        QVERIFY(near(ls.recall, 0.8));
        // Stemming makes inflections match.
        QVERIFY(near(rougeN("meetings discussed", "meeting discusses", 1).fmeasure, 1.0));
        QVERIFY(near(rougeN("", "anything", 1).fmeasure, 0.0));
        QCOMPARE(QString::fromStdString(splitSentences("One. Two! Three? Four")), QString("One.\nTwo!\nThree?\nFour"));
    }

    void bleu()
    {
        const auto ref = bleuTokenize("what did the group decide about the budget ?");
        // p = 9/10, 7/9, 5/8, 3/7 (method2), brevity penalty 1: 0.1875^0.25.
        QVERIFY(near(sentenceBleu4(ref, bleuTokenize("what did the group say about the budget ?")), std::pow(0.1875, 0.25)));
        // Two tokens: 3/3, 1/2, 1/2, 1/2, brevity exp(1 - 9/2).
        QVERIFY(near(sentenceBleu4(ref, {"what", "?"}), std::exp(-3.5) * std::pow(0.125, 0.25)));
        QCOMPARE(sentenceBleu4(ref, {"nothing"}), 0.0);
        QCOMPARE(sentenceBleu4(ref, {}), 0.0);
        QVERIFY(near(sentenceBleu4(ref, ref), 1.0));
    }

    void hierarchy()
    {
        const QsHierarchy target = tree("epsilon zeta");
        HierarchyScore s = hierarchyScore(target, target);
        QVERIFY(near(s.f1, 1.0));
        // Flattened prediction: its (b, root) relation holds (root is an ancestor of b in the
        // target), but the target's (b, a) does not hold in the prediction.
        QsHierarchy flat = target;
        flat.items[1].depth = 1;
        s = hierarchyScore(target, flat);
        QVERIFY(near(s.precision, 1.0));
        QVERIFY(near(s.recall, 0.5));
        QVERIFY(near(s.f1, 2.0 / 3));
        // A partly right summary aligns with R1 F 0.5 + R2 F 0: (0.5 + 2) / 4 for its relation.
        s = hierarchyScore(target, tree("epsilon eta"));
        QVERIFY(near(s.precision, (1.0 + 0.625) / 2));
        QVERIFY(near(s.recall, (1.0 + 0.625) / 2));
        // Root only on both sides: no relations, 1 by the reference's convention.
        QsHierarchy root;
        root.rootSummary = "x";
        QVERIFY(near(hierarchyScore(root, root).f1, 1.0));
        QVERIFY(near(hierarchyScore(target, root).recall, 0.0));
    }

    void scoreText()
    {
        const std::string t = "alpha beta {{ what a? gamma delta {{ why b? epsilon zeta";
        const QsScores same = scoreQs(t, t);
        QVERIFY(near(same.rouge1.fmeasure, 1.0));
        QVERIFY(near(same.rougeLsum.fmeasure, 1.0));
        QVERIFY(near(same.questionBleu4, 1.0));
        QVERIFY(near(same.hierarchy.f1, 1.0));
        const QsScores garbage = scoreQs(t, "}}} ||||");
        QVERIFY(near(garbage.rouge1.fmeasure, 0.0));
        QCOMPARE(garbage.questionBleu4, 0.0);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestQsMetrics)
#include "tst_qs_metrics.moc"
