// WebFormer training on 3 real SWDE pages: the loss falls within a few dozen steps (every epoch
// below the first), a field of a training page comes out right, cancel and bad input behave, the
// checkpoint (config.json model_type "webformer", model.safetensors, vocab.txt, folio.json)
// loads through WebFormerExtractor and ModelRunner, and extraction returns XPaths of the page.
// The checkpoint is generated here (SWDE has no licence to ship weights trained on it).
#include "inference/models/modelrunner.h"
#include "inference/webformer/webformer.h"
#include "inference/webformer/webformereval.h"
#include "pipeline/modelinputs/webpages.h"
#include "tests/common/testdata.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <numeric>

using namespace folio::inference;
using namespace folio::pipeline;

namespace {
const std::string kSwde =
    folio::test::sharedPath(QStringLiteral("data/swde-book-subset/resources/datasets/swde-17477")).toStdString();
}

class TestWebFormerTrain : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void lossFallsOnThreePages()
    {
        FOLIO_REQUIRE_DATA(QString::fromStdString(kSwde));
        const auto t0 = std::chrono::steady_clock::now();
        const std::string site = kSwde + "/testset/book/book-booksamillion-2000/";
        std::map<std::string, std::map<std::string, std::vector<std::string>>> gold;
        for (const char *f : {"title", "author", "isbn_13"})
            gold[f] = readSwdeGroundTruth(kSwde + "/groundtruth/book/book-booksamillion-" + f + ".txt");
        std::vector<WebPage> pages;
        for (const char *id : {"0000", "0001", "0002"}) {
            WebPage p;
            std::string error;
            QVERIFY2(loadWebPage(site + id + ".htm", &p, &error), error.c_str());
            p.id = id;
            for (const auto &[f, byPage] : gold)
                p.gold[f] = byPage.at(id);
            pages.push_back(p);
        }
        QTemporaryDir dir;
        WebFormerTrainOptions o;
        o.model.hidden = 32;
        o.model.heads = 2;
        o.model.layers = 2;
        o.model.intermediate = 64;
        o.model.radius = 15;
        o.model.maxTextTokens = 400; // title, author and ISBN of these pages lie in their first 400 pieces
        o.model.dropout = 0.0;
        o.model.fields = {"title", "author", "isbn_13"};
        o.outputDir = dir.path().toStdString() + "/ckpt";
        o.epochs = 10;
        o.lr = 5e-3;
        o.vocabSize = 1500;
        o.warmupFraction = 0.05;
        const WebFormerTrainResult r = trainWebFormer(o, pages, {});
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(int(r.stepLosses.size()), 30);
        const double first = std::accumulate(r.stepLosses.begin(), r.stepLosses.begin() + 3, 0.0) / 3;
        const double last = std::accumulate(r.stepLosses.end() - 3, r.stepLosses.end(), 0.0) / 3;
        qInfo("loss: first 3 steps %.3f, last 3 steps %.3f", first, last);
        QVERIFY2(last < 0.6 * first, qPrintable(QString("loss did not fall: %1 -> %2").arg(first).arg(last)));
        // Every later epoch's mean loss is below the first's; without a dev set the last epoch is kept.
        QCOMPARE(int(r.epochLosses.size()), 10);
        for (size_t e = 1; e < r.epochLosses.size(); ++e)
            QVERIFY2(r.epochLosses[e] < r.epochLosses[0],
                     qPrintable(QString("epoch %1 loss %2 >= epoch 1 loss %3").arg(e + 1).arg(r.epochLosses[e]).arg(r.epochLosses[0])));
        QCOMPARE(r.bestEpoch, 10);
        QCOMPARE(r.steps, 30L);

        for (const char *f : {"config.json", "model.safetensors", "vocab.txt", "folio.json"})
            QVERIFY2(std::filesystem::exists(o.outputDir + "/" + f), f);
        WebFormerExtractor ex;
        std::string error;
        QVERIFY2(ex.load(o.outputDir, &error), error.c_str());
        std::vector<FieldSpan> spans;
        QVERIFY2(ex.extract(pages[0], {}, &spans, &error), error.c_str());
        QCOMPARE(int(spans.size()), 3);
        int correct = 0;
        for (const FieldSpan &s : spans) {
            if (!s.found)
                continue;
            QVERIFY(!s.xpath.empty() && s.xpath.front() == '/');
            QVERIFY(s.confidence > 0 && s.confidence <= 1);
            for (const auto &g : pages[0].gold.at(s.field))
                correct += normaliseFieldValue(g) == normaliseFieldValue(s.value);
        }
        qInfo("fields right on a training page after 30 steps: %d/3", correct);
        QVERIFY2(correct >= 1, "no field of a training page is extracted right after 30 steps");

        ModelRunner runner;
        QVERIFY2(runner.load(o.outputDir, &error), error.c_str());
        QCOMPARE(runner.modelType(), std::string("webformer"));
        // A checkpoint missing its vocabulary is refused with the file named.
        std::filesystem::remove(o.outputDir + "/vocab.txt");
        WebFormerExtractor broken;
        QVERIFY(!broken.load(o.outputDir, &error));
        QVERIFY2(error.find("vocab.txt") != std::string::npos, error.c_str());

        // Cancel before the first step: ok, no step taken, a checkpoint is still written.
        const std::atomic<bool> stopNow{true};
        WebFormerTrainOptions oc = o;
        oc.outputDir = dir.path().toStdString() + "/cancelled";
        const WebFormerTrainResult rc = trainWebFormer(oc, pages, {}, {}, &stopNow);
        QVERIFY2(rc.ok, rc.error.c_str());
        QCOMPARE(rc.steps, 0L);
        QVERIFY(std::filesystem::exists(oc.outputDir + "/model.safetensors"));
        // Bad input: no pages, no output folder.
        const WebFormerTrainResult none = trainWebFormer(o, {}, {});
        QVERIFY(!none.ok);
        QVERIFY2(none.error.find("no training pages") != std::string::npos, none.error.c_str());
        WebFormerTrainOptions noOut = o;
        noOut.outputDir.clear();
        const WebFormerTrainResult rn = trainWebFormer(noOut, pages, {});
        QVERIFY(!rn.ok);
        QVERIFY2(rn.error.find("no output folder") != std::string::npos, rn.error.c_str());

        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        qInfo("train test took %.1f s", secs);
    }

    // The two splits of the SWDE subset: per site 60/10/30 by file name, and the unseen-site protocol
    // (every page of the named site is test, the other site trains), with its refusals.
    void swdeSplits()
    {
        FOLIO_REQUIRE_DATA(QString::fromStdString(kSwde));
        const SwdeSplit perSite = loadSwdeSplit(kSwde, 10);
        QCOMPARE(int(perSite.train.size()), 12); // 2 sites x (10 - 3 test - 1 dev)
        QCOMPARE(int(perSite.dev.size()), 2);
        QCOMPARE(int(perSite.test.size()), 6);
        const SwdeSplit unseen = loadSwdeSplit(kSwde, 10, {"christianbook"});
        QCOMPARE(int(unseen.test.size()), 10);
        QCOMPARE(int(unseen.train.size()) + int(unseen.dev.size()), 10);
        QCOMPARE(int(unseen.dev.size()), 1);
        for (const WebPage &p : unseen.test)
            QVERIFY2(p.id.rfind("book-christianbook/", 0) == 0, p.id.c_str());
        for (const auto *pages : {&unseen.train, &unseen.dev})
            for (const WebPage &p : *pages)
                QVERIFY2(p.id.rfind("book-booksamillion/", 0) == 0, p.id.c_str());
        QCOMPARE(int(loadSwdeSplit(kSwde, 10, {"book-booksamillion"}).test.size()), 10);
        try {
            loadSwdeSplit(kSwde, 10, {"amazon"});
            QFAIL("an unknown test site was accepted");
        } catch (const std::exception &e) {
            QVERIFY2(std::string(e.what()).find("\"amazon\" not found") != std::string::npos, e.what());
        }
        try {
            loadSwdeSplit(kSwde, 10, {"christianbook", "booksamillion"});
            QFAIL("a split with nothing to train on was accepted");
        } catch (const std::exception &e) {
            QVERIFY2(std::string(e.what()).find("no SWDE pages left to train on") != std::string::npos, e.what());
        }
    }
};

FOLIO_TEST_GUILESS_MAIN(TestWebFormerTrain)
#include "tst_webformer_train.moc"
