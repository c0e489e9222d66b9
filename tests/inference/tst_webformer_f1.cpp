// SWDE page-level F1 on real ground truth (booksamillion pages 0000-0003, title/author/isbn_13)
// with hand-written predictions; the expected numbers were worked out by hand (see comments).
#include "inference/webformer/webformereval.h"
#include "tests/common/testdata.h"

#include <QtTest>

#include <filesystem>

using namespace folio::inference;

namespace {
const std::string kGt =
    folio::test::sharedPath(QStringLiteral("data/swde-book-subset/resources/datasets/swde-17477/groundtruth/book/")).toStdString();
}

class TestWebFormerF1 : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void handCheckedScores()
    {
        FOLIO_REQUIRE_DATA(QString::fromStdString(kGt));
        PageFieldValues gold;
        for (const char *f : {"title", "author", "isbn_13"}) {
            std::string field;
            const auto byPage = readSwdeGroundTruth(kGt + "book-booksamillion-" + f + ".txt", &field);
            QCOMPARE(field, std::string(f));
            QCOMPARE(int(byPage.size()), 2000);
            for (const char *p : {"0000", "0001", "0002", "0003"})
                gold[p][f] = byPage.at(p);
        }
        QCOMPARE(gold["0002"]["author"].size(), std::size_t(4)); // Glenn Beck, Kevin Balfe, Emily Bestler, Jack Henderson
        QCOMPARE(gold["0000"]["isbn_13"][0], std::string(": 9780316125581"));
        std::map<std::string, std::map<std::string, std::string>> pred;
        pred["0000"] = {{"title", "The Short Second Life of Bree Tanner - An Eclipse Novella"}, // TP
                        {"author", "stephenie meyer"},                                          // TP (case)
                        {"isbn_13", "9780316125581"}};                                          // TP (": " stripped)
        pred["0001"] = {{"title", "Game Over!"}, // TP (edge punctuation)
                        {"author", "Fern"}};     // FP + FN; isbn missing: FN
        pred["0002"] = {{"author", "Kevin Balfe"},              // TP (second gold value); title missing: FN
                        {"isbn_13", "ISBN 9781439184301"}};     // FP + FN
        pred["0003"] = {{"title", "Foreign \t Influence"},      // TP (white space)
                        {"isbn_13", ": 9781416586593"}};        // TP; author missing: FN
        const PageLevelScore s = scorePageLevel(pred, gold);
        QCOMPARE(int(s.fields.size()), 3);
        // sorted: author, isbn_13, title
        QCOMPARE(s.fields[0].field, std::string("author"));
        QCOMPARE(s.fields[0].tp, 2);
        QCOMPARE(s.fields[0].fp, 1);
        QCOMPARE(s.fields[0].fn, 2);
        QCOMPARE(s.fields[1].tp, 2);
        QCOMPARE(s.fields[1].fp, 1);
        QCOMPARE(s.fields[1].fn, 2);
        QCOMPARE(s.fields[2].tp, 3);
        QCOMPARE(s.fields[2].fp, 0);
        QCOMPARE(s.fields[2].fn, 1);
        // title P 1, R 3/4, F1 6/7; author and isbn P 2/3, R 1/2, F1 4/7.
        QVERIFY(qAbs(s.fields[2].f1 - 6.0 / 7.0) < 1e-12);
        QVERIFY(qAbs(s.fields[0].f1 - 4.0 / 7.0) < 1e-12);
        QVERIFY(qAbs(s.precision - (1.0 + 2.0 / 3.0 + 2.0 / 3.0) / 3.0) < 1e-12);
        QVERIFY(qAbs(s.recall - (0.75 + 0.5 + 0.5) / 3.0) < 1e-12);
        QVERIFY(qAbs(s.f1 - (6.0 / 7.0 + 8.0 / 7.0) / 3.0) < 1e-12); // = 2/3
    }

    void badGroundTruthFile()
    {
        QTemporaryDir dir;
        const std::string p = dir.path().toStdString() + "/bad.txt";
        QFile f(QString::fromStdString(p));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("book\tsite\n");
        f.close();
        try {
            readSwdeGroundTruth(p);
            QFAIL("a one-line file was accepted");
        } catch (const std::runtime_error &e) {
            QVERIFY(std::string(e.what()).find("bad.txt") != std::string::npos);
        }
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, readSwdeGroundTruth(dir.path().toStdString() + "/missing.txt"));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestWebFormerF1)
#include "tst_webformer_f1.moc"
