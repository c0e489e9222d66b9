// trainQsModel on the shared toolkit: a tiny BART learns two examples by heart (dev loss falls, the
// written checkpoint loads in Seq2seqGenerator and greedy decoding reproduces the targets), resume
// continues after the saved epoch, float16 storage loads, cancel and bad input are reported.
// HIBRIDS: encoder / decoder tables train (they move from their N(0, 0.02) start), the checkpoint
// reloads as that variant and generates from a section layout, one seed gives the same weights.
#include "inference/checkpoint/safetensors.h"
#include "inference/models/modelrunner.h"
#include "inference/qs/qstrain.h"
#include "tests/common/testdata.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace folio::inference;

class TestQsTrain : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static std::vector<QsTrainExample> examples()
    {
        // vocab 40: 0 pad, 1 bos, 2 eos; sources and targets use ids 3..39.
        QsTrainExample a{{1, 5, 6, 7, 8, 9, 2}, {20, 21, 22, 23}, {}, {}};
        QsTrainExample b{{1, 10, 11, 12, 13, 2}, {30, 31, 32}, {}, {}};
        return {a, b};
    }

    // The examples with a section layout: a has sections 0 (bos), 1 and its child 2; b three top-level ones.
    static std::vector<QsTrainExample> layoutExamples()
    {
        std::vector<QsTrainExample> e = examples();
        e[0].sectionParent = {-1, -1, 1};
        e[0].tokenToSection = {0, 1, 1, 2, 2, 2, 2};
        e[1].sectionParent = {-1, -1, -1};
        e[1].tokenToSection = {0, 1, 1, 1, 2, 2};
        return e;
    }

    static Seq2seqSource layoutSource(const QsTrainExample &e)
    {
        Seq2seqSource s;
        s.ids = e.source;
        s.globalTokens = {0};
        s.layout.sectionParent = e.sectionParent;
        s.layout.tokenToSection = e.tokenToSection;
        return s;
    }

    static std::vector<float> floats(const TensorMap &m, const std::string &name)
    {
        const auto it = m.find(name);
        if (it == m.end())
            qFatal("no tensor %s", name.c_str());
        const Tensor &t = it->second;
        return std::vector<float>(t.data<float>(), t.data<float>() + t.bytes.size() / sizeof(float));
    }

    static QsTrainOptions options(const QString &dir)
    {
        QsTrainOptions o;
        o.outDir = dir.toStdString();
        o.size.dModel = 32;
        o.size.encoderLayers = o.size.decoderLayers = 1;
        o.size.heads = 2;
        o.size.ffn = 64;
        o.size.vocab = 40;
        o.size.maxSourcePositions = 16;
        o.size.maxTargetPositions = 8;
        o.size.pad = 0;
        o.size.bos = 1;
        o.size.eos = o.size.decoderStart = 2;
        o.epochs = 60;
        o.batch = 2;
        o.lr = 1e-2;
        o.extraConfigJson = R"({"folio_qs": {"note": "test"}})";
        return o;
    }

    static std::vector<std::int64_t> greedy(const Seq2seqGenerator &g, const std::vector<std::int64_t> &source)
    {
        Seq2seqSource s;
        s.ids = source;
        GenerationSettings settings;
        settings.maxLength = 8;
        const GenerationResult r = g.generate({s}, settings);
        if (!r.ok)
            qFatal("generate: %s", r.error.c_str());
        return r.rows.front().tokens;
    }

private Q_SLOTS:
    void learnsTwoExamples()
    {
        const QString dir = m_dir.filePath(QStringLiteral("tiny"));
        std::vector<QsTrainProgress> epochs;
        const QsTrainResult r = trainQsModel(examples(), examples(), options(dir), [&](const QsTrainProgress &p) {
            if (p.devLoss >= 0)
                epochs.push_back(p);
        });
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.epochsRun, 60);
        QCOMPARE(r.steps, 60L);
        QCOMPARE(epochs.size(), std::size_t(60));
        QVERIFY2(epochs.back().devLoss < 0.2 * epochs.front().devLoss,
                 qPrintable(QStringLiteral("%1 -> %2").arg(epochs.front().devLoss).arg(epochs.back().devLoss)));
        QVERIFY(epochs.back().etaSeconds >= 0);

        Seq2seqGenerator g;
        std::string error;
        QVERIFY2(g.load(dir.toStdString(), &error), error.c_str());
        QCOMPARE(g.modelType(), std::string("bart"));
        QCOMPARE(g.maxSourceLength(), 16);
        QCOMPARE(greedy(g, examples()[0].source), (std::vector<std::int64_t>{2, 20, 21, 22, 23, 2}));
        QCOMPARE(greedy(g, examples()[1].source), (std::vector<std::int64_t>{2, 30, 31, 32, 2}));

        QFile config(dir + QStringLiteral("/config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        const QJsonObject c = QJsonDocument::fromJson(config.readAll()).object();
        QCOMPARE(c.value("model_type").toString(), QStringLiteral("bart"));
        QCOMPARE(c.value("folio_qs").toObject().value("note").toString(), QStringLiteral("test"));
        QVERIFY(QFile::exists(dir + QStringLiteral("/folio.json")));
        QVERIFY(QFile::exists(dir + QStringLiteral("/resume/optimiser.safetensors")));
    }

    void resumeContinuesAfterTheSavedEpoch()
    {
        const QString dir = m_dir.filePath(QStringLiteral("resume"));
        QsTrainOptions o = options(dir);
        o.epochs = 5;
        // Interrupted after epoch 3 (cancel polled before the next step), then resumed: the same
        // losses as the uninterrupted run (same schedule, optimiser state, shuffles).
        std::atomic<bool> cancel{false};
        const QsTrainResult first = trainQsModel(examples(), examples(), o, [&](const QsTrainProgress &p) {
            if (p.devLoss >= 0 && p.epoch == 3)
                cancel = true;
        }, &cancel);
        QVERIFY(first.cancelled);
        QCOMPARE(first.epochsRun, 3);
        QsTrainOptions full = options(m_dir.filePath(QStringLiteral("full")));
        full.epochs = 5;
        const QsTrainResult a = trainQsModel(examples(), examples(), full);
        o.resume = true;
        std::vector<int> seen;
        const QsTrainResult b = trainQsModel(examples(), examples(), o, [&](const QsTrainProgress &p) {
            if (p.devLoss >= 0)
                seen.push_back(p.epoch);
        });
        QVERIFY2(b.ok, b.error.c_str());
        QCOMPARE(seen, (std::vector<int>{4, 5}));
        QCOMPARE(b.steps, 5L);
        QVERIFY2(qAbs(a.lastTrainLoss - b.lastTrainLoss) < 1e-4 * qMax(1.0, a.lastTrainLoss),
                 qPrintable(QStringLiteral("%1 vs %2").arg(a.lastTrainLoss).arg(b.lastTrainLoss)));
    }

    void float16Loads()
    {
        const QString dir = m_dir.filePath(QStringLiteral("half"));
        QsTrainOptions o = options(dir);
        o.epochs = 2;
        o.float16 = true;
        QVERIFY(trainQsModel(examples(), {}, o).ok);
        const qint64 halfBytes = QFileInfo(dir + QStringLiteral("/model.safetensors")).size();
        const qint64 fullBytes = QFileInfo(dir + QStringLiteral("/resume/model.safetensors")).size();
        QVERIFY2(halfBytes < fullBytes * 6 / 10, qPrintable(QStringLiteral("%1 vs %2").arg(halfBytes).arg(fullBytes)));
        Seq2seqGenerator g;
        std::string error;
        QVERIFY2(g.load(dir.toStdString(), &error), error.c_str());
        QCOMPARE(greedy(g, examples()[0].source).front(), std::int64_t(2));
    }

    void hibridsTablesTrainAndReload()
    {
        configureThreads(1);
        QsTrainOptions o = options(m_dir.filePath(QStringLiteral("hinit")));
        o.size.decoderLayers = 2;
        o.hibrids = "encoder";
        o.epochs = 4;
        std::atomic<bool> cancel{true}; // cancelled before the first step: the initial weights are written
        QVERIFY(trainQsModel(layoutExamples(), {}, o, {}, &cancel).cancelled);
        o.outDir = m_dir.filePath(QStringLiteral("henc")).toStdString();
        const QsTrainResult r = trainQsModel(layoutExamples(), layoutExamples(), o);
        QVERIFY2(r.ok, r.error.c_str());

        const std::string table = "model.encoder.layers.0.self_attn.relative_hierarchical_bias.weight";
        const TensorMap init = readSafetensors(m_dir.filePath(QStringLiteral("hinit/model.safetensors")).toStdString());
        const TensorMap trained = readSafetensors(o.outDir + "/model.safetensors");
        QCOMPARE(trained.at(table).shape, (std::vector<std::int64_t>{600, 2}));
        const std::vector<float> a = floats(init, table), b = floats(trained, table);
        double sd = 0, moved = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            sd += double(a[i]) * a[i];
            moved = std::max(moved, double(std::abs(a[i] - b[i])));
        }
        sd = std::sqrt(sd / double(a.size()));
        QVERIFY2(sd > 0.01 && sd < 0.03, qPrintable(QString::number(sd))); // N(0, 0.02)
        QVERIFY2(moved > 1e-3, qPrintable(QString::number(moved)));
        // The same base initialisation as a model without tables (the tables draw from their own seed).
        QsTrainOptions plain = options(m_dir.filePath(QStringLiteral("hplain")));
        plain.size.decoderLayers = 2;
        cancel = true;
        QVERIFY(trainQsModel(examples(), {}, plain, {}, &cancel).cancelled);
        const TensorMap plainInit = readSafetensors(plain.outDir + "/model.safetensors");
        QCOMPARE(floats(plainInit, "model.shared.weight"), floats(init, "model.shared.weight"));

        Seq2seqGenerator g;
        std::string error;
        QVERIFY2(g.load(o.outDir, &error), error.c_str());
        QCOMPARE(g.hibridsVariant(), std::string("encoder"));
        GenerationSettings settings;
        settings.maxLength = 8;
        const GenerationResult gen = g.generate({layoutSource(layoutExamples()[0])}, settings);
        QVERIFY2(gen.ok, gen.error.c_str());
        Seq2seqSource bare;
        bare.ids = examples()[0].source;
        const GenerationResult noLayout = g.generate({bare}, settings);
        QVERIFY(!noLayout.ok);
        QVERIFY2(noLayout.error.find("one section per token") != std::string::npos, noLayout.error.c_str());

        // One seed, one thread: the same weights, byte for byte.
        o.outDir = m_dir.filePath(QStringLiteral("henc2")).toStdString();
        QVERIFY(trainQsModel(layoutExamples(), layoutExamples(), o).ok);
        const TensorMap again = readSafetensors(o.outDir + "/model.safetensors");
        QCOMPARE(again.size(), trained.size());
        for (const auto &[name, t] : trained)
            QVERIFY2(again.at(name).bytes == t.bytes, name.c_str());

        o.outDir = m_dir.filePath(QStringLiteral("hdec")).toStdString();
        o.hibrids = "decoder";
        o.epochs = 2;
        QVERIFY(trainQsModel(layoutExamples(), layoutExamples(), o).ok);
        Seq2seqGenerator d;
        QVERIFY2(d.load(o.outDir, &error), error.c_str());
        QCOMPARE(d.hibridsVariant(), std::string("decoder"));
        QVERIFY(d.generate({layoutSource(layoutExamples()[1])}, settings).ok);
    }

    void hibridsBadInput()
    {
        QsTrainOptions o = options(m_dir.filePath(QStringLiteral("hbad")));
        o.hibrids = "encoder";
        QsTrainResult r = trainQsModel(examples(), {}, o); // no layouts
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("training example 0: HIBRIDS training needs one section per source token (0 for 7)")
                     != std::string::npos, r.error.c_str());
        std::vector<QsTrainExample> bad = layoutExamples();
        bad[1].tokenToSection.back() = 3;
        r = trainQsModel(bad, {}, o);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("training example 1: token section 3 outside the 3 sections") != std::string::npos, r.error.c_str());
        o.hibrids = "sideways";
        r = trainQsModel(layoutExamples(), {}, o);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("HIBRIDS variant 'sideways'") != std::string::npos, r.error.c_str());
        o.hibrids = "decoder"; // one decoder layer: no penultimate layer to weight the bias with
        r = trainQsModel(layoutExamples(), {}, o);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("at least 2 decoder layers") != std::string::npos, r.error.c_str());
    }

    void cancelAndBadInput()
    {
        std::atomic<bool> cancel{true};
        const QsTrainResult c = trainQsModel(examples(), {}, options(m_dir.filePath(QStringLiteral("c"))), {}, &cancel);
        QVERIFY(c.cancelled);
        QCOMPARE(c.steps, 0L);

        QsTrainResult r = trainQsModel({}, {}, options(m_dir.filePath(QStringLiteral("e"))));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("no training examples") != std::string::npos, r.error.c_str());

        std::vector<QsTrainExample> bad = examples();
        bad[1].target.push_back(40);
        r = trainQsModel(bad, {}, options(m_dir.filePath(QStringLiteral("b"))));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("training example 1: token id 40 outside the vocabulary of 40") != std::string::npos,
                 r.error.c_str());

        QsTrainOptions noOut = options(QString());
        r = trainQsModel(examples(), {}, noOut);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("no output folder") != std::string::npos, r.error.c_str());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestQsTrain)
#include "tst_qs_train.moc"
