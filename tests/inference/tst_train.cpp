// Training loop on a tiny model and synthetic pages: the loss falls, the checkpoint round-trips
// through Predictor, resume continues, cancel stops, bad input gives clear errors.
#include "inference/checkpoint/safetensors.h"
#include "inference/formtagger/predictor.h"
#include "inference/formtagger/trainer.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <set>

using namespace folio::inference;

static std::string fixtureDir() { return std::string(FOLIO_SOURCE_DIR "/tests/data/tokenizers/wordpiece"); }

static std::vector<TaggerPage> synthPages(int count, int repeats)
{
    std::vector<TaggerPage> pages;
    for (int p = 0; p < count; ++p) {
        TaggerPage page;
        page.id = "p" + std::to_string(p);
        int y = 10;
        for (int r = 0; r < repeats + p % 3; ++r, y += 30) {
            page.words.insert(page.words.end(), {"total", "date", ":", "12", "un"});
            page.tags.insert(page.tags.end(), {"B-HEADER", "B-QUESTION", "I-QUESTION", "B-ANSWER", "O"});
            page.boxes.insert(page.boxes.end(), {{100, y, 200, y + 10}, {10, y + 15, 50, y + 25}, {51, y + 15, 55, y + 25},
                                                 {80, y + 15, 120, y + 25}, {400, y + 15, 420, y + 25}});
        }
        pages.push_back(page);
    }
    return pages;
}

static TrainConfig tinyConfig(const QString &dir)
{
    TrainConfig c;
    c.outputDir = dir.toStdString();
    c.tokenizerDir = fixtureDir();
    c.hidden = 32;
    c.layers = 1;
    c.heads = 2;
    c.intermediate = 64;
    c.maxWords = 16;
    c.windowStride = 12;
    c.epochs = 6;
    c.batchSize = 4;
    c.lr = 3e-3;
    c.threads = 1;
    c.command = "tst_train";
    return c;
}

class TestTrain : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void splitMatchesRecipe()
    {
        // The recipe's seed-13 dev split of the 149 FUNSD train files (ids listed in §5.1).
        QDir ann(folio::test::sharedPath(QStringLiteral("data/funsd/dataset/training_data/annotations")));
        FOLIO_REQUIRE_DATA(ann.path());
        std::vector<TaggerPage> pages;
        for (const QString &f : ann.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
            TaggerPage p;
            p.id = f.chopped(5).toStdString();
            pages.push_back(p);
        }
        QCOMPARE(int(pages.size()), 149);
        std::vector<TaggerPage> train, dev;
        splitTrainDev(pages, &train, &dev);
        QCOMPARE(int(dev.size()), 20);
        QCOMPARE(int(train.size()), 129);
        const std::vector<std::string> expected = {"0000989556", "0001118259", "0011505151", "0011838621", "0060000813",
                                                   "0060024314", "0060025670", "0060029036", "0060091229", "0060207528",
                                                   "0071032790", "00836244", "00836816", "00866042", "11875011",
                                                   "80707440_7443", "80718412_8413", "91315069_91315070", "92298125",
                                                   "92433599_92433601"};
        std::vector<std::string> got;
        for (const auto &p : dev)
            got.push_back(p.id);
        QCOMPARE(got, expected);
    }

    void nestedSamplesGrowWithoutSwapping()
    {
        std::vector<TaggerPage> pages;
        for (int i = 0; i < 40; ++i) {
            TaggerPage p;
            p.id = "page" + std::to_string(1000 - i); // not in id order: the sample must not depend on it
            pages.push_back(p);
        }
        const auto ids = [](const std::vector<TaggerPage> &ps) {
            std::set<std::string> out;
            for (const auto &p : ps)
                out.insert(p.id);
            return out;
        };
        const auto s8 = ids(nestedSample(pages, 8)), s16 = ids(nestedSample(pages, 16));
        std::vector<TaggerPage> reversed(pages.rbegin(), pages.rend());
        QCOMPARE(int(s8.size()), 8);
        QCOMPARE(int(s16.size()), 16);
        QVERIFY(std::includes(s16.begin(), s16.end(), s8.begin(), s8.end()));
        QCOMPARE(ids(nestedSample(reversed, 16)), s16);   // same pages, any input order: same sample
        QVERIFY(ids(nestedSample(pages, 16, 7)) != s16);  // the seed draws it
        QCOMPARE(int(nestedSample(pages, 99).size()), 40); // more than there are: all of them
        QVERIFY(s16 != ids(std::vector<TaggerPage>(pages.begin(), pages.begin() + 16))); // a draw, not the first 16
    }

    void trainsAndRoundTrips()
    {
        QTemporaryDir dir;
        const auto pages = synthPages(12, 4); // 20-30 words per page, windows of 16
        std::vector<double> losses;
        std::vector<std::string> messages;
        TrainConfig cfg = tinyConfig(dir.path());
        const TrainResult r = train(cfg, pages, synthPages(3, 3), [&](const TrainProgress &p) {
            if (!p.message.empty()) messages.push_back(p.message);
            if (p.devF1 >= 0) losses.push_back(p.loss);
        });
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(int(losses.size()), 6);
        QVERIFY2(losses.back() < 0.5 * losses.front(), qPrintable(QStringLiteral("loss %1 -> %2").arg(losses.front()).arg(losses.back())));
        QVERIFY(r.bestDevF1 > 0.5);
        QVERIFY(r.tokensPerSecond > 0);
        for (const char *f : {"config.json", "model.safetensors", "vocab.txt", "folio.json", "last/optimizer.safetensors"})
            QVERIFY2(QFile::exists(dir.filePath(QLatin1String(f))), f);

        Predictor pred;
        std::string err;
        QVERIFY2(pred.load(dir.path().toStdString(), &err), err.c_str());
        QCOMPARE(pred.labels().size(), size_t(7));
        std::string json;
        QVERIFY2(pred.evaluate(synthPages(3, 3), &json, &err), err.c_str());
        QVERIFY(json.find("\"f1\"") != std::string::npos);
        PagePrediction a, b;
        // A page longer than the window (16 words) is windowed and merged back.
        const TaggerPage longPage = synthPages(1, 12)[0];
        QVERIFY2(pred.predict(longPage, &a, &err), err.c_str());
        QCOMPARE(a.tags.size(), longPage.words.size());
        QVERIFY(!a.entities.empty());
        Predictor again;
        QVERIFY(again.load(dir.path().toStdString(), &err));
        QVERIFY(again.predict(longPage, &b, &err));
        QCOMPARE(a.tags, b.tags);

        // Resume: two more epochs continue from the saved state.
        cfg.epochs = 8;
        cfg.resume = true;
        int firstEpoch = 0;
        const TrainResult r2 = train(cfg, pages, synthPages(3, 3), [&](const TrainProgress &p) {
            if (firstEpoch == 0 && p.epoch > 0) firstEpoch = p.epoch;
        });
        QVERIFY2(r2.ok, r2.error.c_str());
        QCOMPARE(firstEpoch, 7);
    }

    // --ema: the best checkpoint holds the weight average (not the live weights of that epoch), the
    // resume state keeps it, and a resumed run continues it; resuming without the file is refused.
    void weightAverageIsWhatIsSaved()
    {
        QTemporaryDir plainDir, avgDir;
        const auto pages = synthPages(12, 4);
        TrainConfig plain = tinyConfig(plainDir.path());
        TrainConfig averaged = tinyConfig(avgDir.path());
        averaged.emaDecay = 0.9;
        const TrainResult a = train(plain, pages, synthPages(3, 3));
        const TrainResult b = train(averaged, pages, synthPages(3, 3));
        QVERIFY2(a.ok && b.ok, (a.error + b.error).c_str());
        QVERIFY(QFile::exists(avgDir.filePath("last/weight_average.safetensors")));
        QVERIFY(!QFile::exists(plainDir.filePath("last/weight_average.safetensors")));
        // Same seed, same steps: the live weights of both runs are equal; the saved ones are not.
        const TensorMap liveA = readSafetensors(plainDir.filePath("last/model.safetensors").toStdString());
        const TensorMap liveB = readSafetensors(avgDir.filePath("last/model.safetensors").toStdString());
        const TensorMap bestB = readSafetensors(avgDir.filePath("model.safetensors").toStdString());
        const TensorMap averageB = readSafetensors(avgDir.filePath("last/weight_average.safetensors").toStdString());
        const std::string key = "classifier.weight";
        QVERIFY(liveA.at(key).bytes == liveB.at(key).bytes);
        QVERIFY(bestB.at(key).bytes != liveB.at(key).bytes);
        if (b.bestEpoch == 6) // the last epoch was the best: its checkpoint is the average itself
            QVERIFY(bestB.at(key).bytes == averageB.at(key).bytes);
        QFile meta(avgDir.filePath("folio.json"));
        QVERIFY(meta.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(meta.readAll()).object()["hyperparameters"].toObject()["ema_decay"].toDouble(), 0.9);

        averaged.epochs = 7;
        averaged.resume = true;
        const TrainResult c = train(averaged, pages, synthPages(3, 3));
        QVERIFY2(c.ok, c.error.c_str());
        QVERIFY(readSafetensors(avgDir.filePath("last/weight_average.safetensors").toStdString()).at(key).bytes !=
                averageB.at(key).bytes);
        QVERIFY(QFile::remove(avgDir.filePath("last/weight_average.safetensors")));
        averaged.epochs = 8;
        const TrainResult d = train(averaged, pages, synthPages(3, 3));
        QVERIFY(!d.ok);
        QVERIFY2(QString::fromStdString(d.error).contains("weight_average.safetensors"), d.error.c_str());
    }

    void cancelStops()
    {
        QTemporaryDir dir;
        std::atomic<bool> cancel{false};
        TrainConfig cfg = tinyConfig(dir.path());
        const TrainResult r = train(cfg, synthPages(12, 2), {}, [&](const TrainProgress &p) {
            if (p.step >= 2) cancel = true;
        }, &cancel);
        QVERIFY(r.cancelled);
        QCOMPARE(r.steps, 2L);
    }

    void badInput()
    {
        QTemporaryDir dir;
        TrainConfig cfg = tinyConfig(dir.path());
        auto pages = synthPages(2, 1);
        pages[1].tags[0] = "B-SIGNATURE";
        TrainResult r = train(cfg, pages, {});
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("B-SIGNATURE") != std::string::npos && r.error.find("label map") != std::string::npos, r.error.c_str());
        r = train(cfg, {TaggerPage{}}, {});
        QVERIFY(!r.ok);
        QVERIFY(r.error.find("no training page") != std::string::npos);

        // Train a valid tiny checkpoint, then break it.
        cfg.epochs = 1;
        r = train(cfg, synthPages(4, 1), {});
        QVERIFY2(r.ok, r.error.c_str());
        Predictor pred;
        std::string err;
        QVERIFY(pred.load(dir.path().toStdString(), &err));
        PagePrediction out;
        QVERIFY(!pred.predict(TaggerPage{}, &out, &err));
        QVERIFY2(err.find("empty document") != std::string::npos, err.c_str());
        std::vector<TaggerPage> gold = synthPages(1, 1);
        gold[0].tags[0] = "B-NOPE";
        std::string json;
        QVERIFY(!pred.evaluate(gold, &json, &err));
        QVERIFY(err.find("B-NOPE") != std::string::npos);
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("vocab.txt"))));
        Predictor broken;
        QVERIFY(!broken.load(dir.path().toStdString(), &err));
        QVERIFY2(err.find("no tokenizer files") != std::string::npos, err.c_str());
        QVERIFY(!broken.load("/nonexistent/ckpt", &err));
        QVERIFY(err.find("/nonexistent/ckpt") != std::string::npos);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestTrain)
#include "tst_train.moc"
