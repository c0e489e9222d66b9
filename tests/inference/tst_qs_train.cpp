// trainQsModel on the shared toolkit: a tiny BART learns two examples by heart (dev loss falls, the
// written checkpoint loads in Seq2seqGenerator and greedy decoding reproduces the targets), resume
// continues after the saved epoch, float16 storage loads, cancel and bad input are reported.
#include "inference/qs/qstrain.h"

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
        QsTrainExample a{{1, 5, 6, 7, 8, 9, 2}, {20, 21, 22, 23}};
        QsTrainExample b{{1, 10, 11, 12, 13, 2}, {30, 31, 32}};
        return {a, b};
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

QTEST_GUILESS_MAIN(TestQsTrain)
#include "tst_qs_train.moc"
