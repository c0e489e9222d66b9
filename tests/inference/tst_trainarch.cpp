// Architectures selectable in training (issue 12): layoutlmv3 (bucketed 1-D + 2-D biases / sqrt(d)),
// layoutlmv2 (the same, not scaled), ernie (ERNIE-Layout paper form, disentangled 1-D / x / y) and
// text train a few steps on 3 FUNSD pages with the same recipe and vocabulary, the loss falls, the
// architecture is recorded in config.json, and the checkpoint round-trips: the registry
// (ModelRunner), the tagger rebuilt from the file and a re-saved copy give identical logits, and
// Predictor labels a page with it. Bad architecture names are refused.
#include "document/formats/funsd.h"
#include "inference/checkpoint/detail/convert.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/formtagger/detail/taggermodel.h"
#include "inference/formtagger/predictor.h"
#include "inference/formtagger/trainer.h"
#include "inference/models/modelrunner.h"
#include "inference/tokenizers/tokenizer.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

using folio::Annotations;
using folio::Document;
using folio::FunsdWordOrder;
using namespace folio::inference;
using namespace folio::pipeline;

namespace {

QString sharedDir()
{
    return qEnvironmentVariableIsSet("FOLIO_SHARED_DIR") ? qEnvironmentVariable("FOLIO_SHARED_DIR")
                                                        : QStringLiteral(FOLIO_SHARED_DIR);
}

std::vector<TaggerPage> funsdPages(int count, QString *error)
{
    std::vector<TaggerPage> pages;
    const QStringList files = folio::funsdSplitFiles(sharedDir() + "/data/funsd/dataset", "train");
    for (const QString &f : files.mid(0, count)) {
        Document doc;
        Annotations annotations;
        if (!folio::importFunsdFile(f, FunsdWordOrder::Annotation, &doc, &annotations, error))
            return {};
        pages.push_back(taggerPageFromDocument(doc, &annotations, QFileInfo(f).completeBaseName().toStdString()));
    }
    return pages;
}

TrainConfig tinyConfig(const QString &out, const std::string &arch)
{
    TrainConfig c;
    c.architecture = arch;
    c.outputDir = out.toStdString();
    c.tokenizerDir = FOLIO_SOURCE_DIR "/tests/data/tokenizers/wordpiece";
    c.hidden = 32;
    c.layers = 2;
    c.heads = 2;
    c.intermediate = 64;
    c.maxWords = 128;
    c.windowStride = 96;
    c.epochs = 6;
    c.batchSize = 1;
    c.lr = 3e-3;
    c.threads = 1;
    c.jitter = false;
    c.patience = 0;
    c.command = "tst_trainarch";
    return c;
}

nlohmann::json readJson(const QString &path)
{
    std::ifstream in(path.toStdString());
    return nlohmann::json::parse(in);
}

// Word-level inputs of one page window for the registry path.
folio::inference::detail::Batch pageBatch(const QString &checkpoint, const TaggerPage &page, folio::inference::detail::TaggerConfig *cfgOut)
{
    const folio::inference::detail::TaggerConfig cfg = folio::inference::detail::TaggerConfig::fromJsonFile((checkpoint + "/config.json").toStdString());
    const std::unique_ptr<Tokenizer> tok = Tokenizer::fromDirectory(checkpoint.toStdString());
    TaggerPage unlabelled = page;
    unlabelled.tags.clear();
    static folio::inference::detail::EncodedPage encoded;
    encoded = folio::inference::detail::encodePage(*tok, unlabelled, cfg, {}, 0, std::min<int>(cfg.maxWords, int(page.words.size())));
    *cfgOut = cfg;
    return folio::inference::detail::makeBatch({&encoded}, cfg, nullptr);
}

at::Tensor runnerLogits(const QString &dir, const folio::inference::detail::Batch &batch, std::string *error)
{
    ModelRunner runner;
    if (!runner.load(dir.toStdString(), error))
        return {};
    TensorMap inputs;
    for (const auto &[name, t] : folio::inference::detail::Tagger::batchInputs(batch))
        inputs[name] = folio::inference::detail::fromAten(t);
    const RunResult r = runner.run(inputs);
    if (!r.ok) {
        *error = r.error;
        return {};
    }
    return folio::inference::detail::toAten(r.outputs.at("logits"));
}

} // namespace

class TestTrainArch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void trainsAndRoundTrips_data()
    {
        QTest::addColumn<QString>("arch");
        for (const char *a : {"layoutlmv3", "layoutlmv2", "ernie", "text"})
            QTest::newRow(a) << QString(a);
    }
    void trainsAndRoundTrips()
    {
        QFETCH(QString, arch);
        QString error;
        const std::vector<TaggerPage> pages = funsdPages(3, &error);
        QVERIFY2(pages.size() == 3, qPrintable("FUNSD pages: " + error));
        QTemporaryDir tmp;
        const QString out = tmp.path() + "/ckpt";
        std::map<int, double> epochLoss;
        const TrainResult r = train(tinyConfig(out, arch.toStdString()), pages, pages, [&](const TrainProgress &p) {
            if (p.message.empty())
                epochLoss[p.epoch] = p.loss;
        });
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(epochLoss.size() >= 5);
        const double first = epochLoss.begin()->second, last = epochLoss.rbegin()->second;
        qInfo("%s: epoch loss %.6f -> %.6f", qPrintable(arch), first, last);
        QVERIFY2(last < 0.8 * first, qPrintable(QString("loss %1 -> %2").arg(first).arg(last)));

        const nlohmann::json config = readJson(out + "/config.json");
        QCOMPARE(QString::fromStdString(config.value("architecture", std::string())), arch);
        QCOMPARE(QString::fromStdString(config.value("variant", std::string())), arch == "text" ? QString("text") : QString("full"));

        // Registry path == the tagger rebuilt from the file == a re-saved copy, bit for bit.
        folio::inference::detail::TaggerConfig cfg;
        const folio::inference::detail::Batch batch = pageBatch(out, pages[0], &cfg);
        std::string err;
        const at::Tensor viaRunner = runnerLogits(out, batch, &err);
        QVERIFY2(viaRunner.defined(), err.c_str());
        at::NoGradGuard noGrad;
        folio::inference::detail::ParamStore store((out + "/model.safetensors").toStdString());
        const folio::inference::detail::Tagger tagger(cfg, store);
        store.finish();
        const at::Tensor direct = tagger.forward(batch, false);
        QVERIFY(at::equal(viaRunner, direct));
        const QString copy = tmp.path() + "/copy";
        QDir().mkpath(copy);
        tagger.save((copy + "/model.safetensors").toStdString());
        QFile::copy(out + "/config.json", copy + "/config.json");
        const at::Tensor reloaded = runnerLogits(copy, batch, &err);
        QVERIFY2(reloaded.defined(), err.c_str());
        QVERIFY(at::equal(reloaded, direct));
        QVERIFY(at::isfinite(direct).all().item<bool>());

        // The ERNIE form has its relative embeddings and no bucket tables; the others the reverse.
        const std::vector<std::string> keys = store.keys();
        const bool hasRelEmb = std::count(keys.begin(), keys.end(), "encoder.rel_embeddings.x.weight") > 0;
        const bool hasBucket = std::count(keys.begin(), keys.end(), "encoder.rel_pos_bias.weight") > 0;
        QCOMPARE(hasRelEmb, arch == "ernie");
        QCOMPARE(hasBucket, arch != "ernie");
        // The structure terms learned something (they start at zero / small).
        const char *relKey = arch == "ernie" ? "encoder.rel_embeddings.x.weight" : "encoder.rel_pos_bias.weight";
        const float relNorm = store.parameters().at(relKey).abs().max().item<float>();
        qInfo("%s: max |%s| = %g", qPrintable(arch), relKey, double(relNorm));
        QVERIFY(relNorm > 1e-4f);

        // Prediction through Predictor (predict / eval / Suggest Labels).
        Predictor predictor;
        QVERIFY2(predictor.load(out.toStdString(), &err), err.c_str());
        PagePrediction prediction;
        QVERIFY2(predictor.predict(pages[1], &prediction, &err), err.c_str());
        QCOMPARE(prediction.tags.size(), pages[1].words.size());
    }

    void v3ScalesWhereV2DoesNot()
    {
        // The same weights read as layoutlmv2 (unscaled) and layoutlmv3 (/ sqrt(d)) give different
        // logits: the architecture in config.json is what the registry builds.
        QString error;
        const std::vector<TaggerPage> pages = funsdPages(3, &error);
        QVERIFY2(pages.size() == 3, qPrintable(error));
        QTemporaryDir tmp;
        TrainConfig c = tinyConfig(tmp.path() + "/v2", "layoutlmv2");
        c.epochs = 2;
        const TrainResult r = train(c, pages, pages);
        QVERIFY2(r.ok, r.error.c_str());
        folio::inference::detail::TaggerConfig cfg;
        const folio::inference::detail::Batch batch = pageBatch(tmp.path() + "/v2", pages[0], &cfg);
        std::string err;
        const at::Tensor v2 = runnerLogits(tmp.path() + "/v2", batch, &err);
        QVERIFY2(v2.defined(), err.c_str());
        nlohmann::json config = readJson(tmp.path() + "/v2/config.json");
        config["architecture"] = "layoutlmv3";
        std::ofstream(QString(tmp.path() + "/v2/config.json").toStdString()) << config.dump(2);
        const at::Tensor v3 = runnerLogits(tmp.path() + "/v2", batch, &err);
        QVERIFY2(v3.defined(), err.c_str());
        QVERIFY(!at::allclose(v2, v3));
    }

    void badArchitectureRefused()
    {
        QString error;
        const std::vector<TaggerPage> pages = funsdPages(3, &error);
        QVERIFY2(pages.size() == 3, qPrintable(error));
        QTemporaryDir tmp;
        const TrainResult r = train(tinyConfig(tmp.path() + "/x", "layoutlmv4"), pages, pages);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("unknown architecture \"layoutlmv4\"") != std::string::npos, r.error.c_str());

        // A config.json whose architecture and variant disagree, or an unknown one, is refused on load.
        TrainConfig c = tinyConfig(tmp.path() + "/t", "text");
        c.epochs = 1;
        QVERIFY(train(c, pages, pages).ok);
        for (const char *arch : {"ernie", "bert"}) {
            nlohmann::json config = readJson(tmp.path() + "/t/config.json");
            config["architecture"] = arch;
            std::ofstream(QString(tmp.path() + "/t/config.json").toStdString()) << config.dump(2);
            std::string err;
            Predictor p;
            QVERIFY(!p.load(QString(tmp.path() + "/t").toStdString(), &err));
            QVERIFY2(err.find("config.json") != std::string::npos && err.find(arch) != std::string::npos, err.c_str());
        }
    }
};

FOLIO_TEST_GUILESS_MAIN(TestTrainArch)
#include "tst_trainarch.moc"
