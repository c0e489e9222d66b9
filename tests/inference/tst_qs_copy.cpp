// The pointer-generator copy head of the seq2seq (issue 31): the mixed distribution sums to 1 and
// agrees with and without the key/value cache; a token the vocabulary side cannot produce is
// copied from the source; a tiny copy model learns two examples (greedy and beam, cache on and off);
// the checkpoint round-trips (config flag, tensor names); a folder whose config says copy but lacks
// the gate's tensors, or has them without the flag, is refused with the tensor named.
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/models/modelrunner.h"
#include "inference/qs/detail/seq2seqmodel.h"
#include "inference/qs/qstrain.h"
#include "inference/training/detail/trainkit.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace folio::inference;

class TestQsCopy : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // vocab 40: 0 pad, 1 bos, 2 eos. The targets repeat source tokens (6 7, 11 12).
    static std::vector<QsTrainExample> examples()
    {
        QsTrainExample a{{1, 5, 6, 7, 8, 9, 2}, {20, 6, 7}, {}, {}};
        QsTrainExample b{{1, 10, 11, 12, 13, 2}, {30, 11, 12, 31}, {}, {}};
        return {a, b};
    }

    static QsTrainOptions options(const QString &dir, int epochs)
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
        o.epochs = epochs;
        o.batch = 2;
        o.lr = 1e-2;
        o.copy = true;
        return o;
    }

    static QJsonObject readConfig(const QString &dir)
    {
        QFile f(QDir(dir).filePath(QStringLiteral("config.json")));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QJsonDocument::fromJson(f.readAll()).object();
    }

    static void writeConfig(const QString &dir, const QJsonObject &c)
    {
        QFile f(QDir(dir).filePath(QStringLiteral("config.json")));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(c).toJson());
    }

    static void copyFolder(const QString &from, const QString &to)
    {
        QDir().mkpath(to);
        for (const QString &name : {QStringLiteral("config.json"), QStringLiteral("model.safetensors")}) {
            QFile::remove(QDir(to).filePath(name));
            QVERIFY(QFile::copy(QDir(from).filePath(name), QDir(to).filePath(name)));
        }
    }

    static GenerationSettings plain(int beams, bool cache)
    {
        GenerationSettings s;
        s.numBeams = beams;
        s.maxLength = 8;
        s.useCache = cache;
        return s;
    }

    static std::vector<std::int64_t> generated(const Seq2seqGenerator &g, const std::vector<std::int64_t> &src,
                                               const GenerationSettings &s)
    {
        Seq2seqSource source;
        source.ids = src;
        const GenerationResult r = g.generate({source}, s);
        if (!r.ok || r.rows.size() != 1)
            return {-1};
        std::vector<std::int64_t> t(r.rows.front().tokens.begin() + 1, r.rows.front().tokens.end());
        while (!t.empty() && (t.back() == 2 || t.back() == 0))
            t.pop_back();
        return t;
    }

    QString trained()
    {
        const QString dir = m_dir.filePath(QStringLiteral("trained"));
        if (!QFile::exists(QDir(dir).filePath(QStringLiteral("model.safetensors")))) {
            const QsTrainResult r = trainQsModel(examples(), examples(), options(dir, 80));
            if (!r.ok)
                qWarning("%s", r.error.c_str());
        }
        return dir;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        configureThreads(1);
    }

    void distributionSumsToOneWithAndWithoutCache()
    {
        nlohmann::json c = {{"model_type", "bart"}, {"d_model", 32}, {"encoder_layers", 1}, {"decoder_layers", 2},
                            {"encoder_attention_heads", 2}, {"decoder_attention_heads", 2}, {"encoder_ffn_dim", 64},
                            {"decoder_ffn_dim", 64}, {"vocab_size", 40}, {"max_position_embeddings", 32},
                            {"pad_token_id", 0}, {"bos_token_id", 1}, {"eos_token_id", 2}, {"decoder_start_token_id", 2},
                            {"folio_copy_head", true}};
        const ModelConfig mc = ModelConfig::fromJson(c, "test config.json");
        folio::inference::detail::ParamStore fresh = folio::inference::detail::ParamStore::fresh();
        { folio::inference::detail::Seq2seqModel probe(mc, fresh); }
        auto params = fresh.parameters();
        QVERIFY(params.count("copy_head.p_gen.weight") && params.count("copy_head.p_gen.bias"));
        QCOMPARE(params.at("copy_head.p_gen.weight").size(1), 96);
        folio::inference::detail::initialiseParameters(params, 7, 0.3);
        {
            at::NoGradGuard g;
            params.at("copy_head.p_gen.bias").fill_(0.3); // p_gen away from 0 and 1
        }
        folio::inference::detail::ParamStore store = folio::inference::detail::ParamStore::fromTensors(params);
        const folio::inference::detail::Seq2seqModel model(mc, store);
        at::NoGradGuard g;
        const at::Tensor src = at::tensor({1, 5, 9, 9, 33, 2, 1, 7, 8, 2, 0, 0}, at::kLong).view({2, 6});
        const at::Tensor mask = src.ne(0).to(at::kLong);
        const folio::inference::detail::EncoderResult enc = model.encode(src, mask, {}, {}, false);
        const at::Tensor dec = at::tensor({2, 9, 33, 4, 2, 8, 8, 3}, at::kLong).view({2, 4});
        const folio::inference::detail::DecoderResult full = model.decode(dec, {}, enc.hidden, enc.mask, {}, nullptr, false);
        const at::Tensor scores = model.outputScores(full, enc.ids);
        QCOMPARE(scores.sizes().vec(), (std::vector<std::int64_t>{2, 4, 40}));
        QVERIFY(at::allclose(scores.exp().sum(-1), at::ones({2, 4}), 1e-5, 1e-5));
        // The copy part puts mass on source tokens only, and none on padding positions.
        const at::Tensor gate = full.copyGate;
        QVERIFY(gate.min().item<double>() > 0.0 && gate.max().item<double>() < 1.0);
        QVERIFY(at::allclose(full.copyAttention.sum(-1), at::ones({2, 4}), 1e-5, 1e-5));
        QCOMPARE(full.copyAttention[1].slice(-1, 4).abs().max().item<double>(), 0.0);
        // Step by step with the cache: the same scores.
        folio::inference::detail::KvCache cache;
        for (int t = 0; t < 4; ++t) {
            const folio::inference::detail::DecoderResult step = model.decode(dec.slice(1, t, t + 1), {}, enc.hidden, enc.mask, {}, &cache, false);
            const at::Tensor s = model.outputScores(step, enc.ids).select(1, 0);
            QVERIFY2(at::allclose(s, scores.select(1, t), 1e-4, 1e-4), qPrintable(QStringLiteral("step %1").arg(t)));
        }
        QVERIFY_EXCEPTION_THROWN(model.outputScores(full, enc.ids.slice(1, 0, 3)), std::exception);
    }

    void learnsTwoExamples()
    {
        const QString dir = trained();
        QVERIFY(QFile::exists(QDir(dir).filePath(QStringLiteral("model.safetensors"))));
        Seq2seqGenerator g;
        std::string error;
        QVERIFY2(g.load(dir.toStdString(), &error), error.c_str());
        for (const QsTrainExample &e : examples())
            for (int beams : {1, 2})
                for (bool cache : {true, false})
                    QCOMPARE(generated(g, e.source, plain(beams, cache)), e.target);
    }

    void checkpointRoundTrip()
    {
        const QString dir = trained();
        QVERIFY(readConfig(dir).value(QStringLiteral("folio_copy_head")).toBool());
        const TensorMap w = readSafetensors(QDir(dir).filePath(QStringLiteral("model.safetensors")).toStdString());
        QVERIFY(w.count("copy_head.p_gen.weight") && w.count("copy_head.p_gen.bias"));
        QCOMPARE(w.at("copy_head.p_gen.weight").shape, (std::vector<std::int64_t>{1, 96}));
        // Written again from what was read: the same generations.
        const QString again = m_dir.filePath(QStringLiteral("again"));
        copyFolder(dir, again);
        writeSafetensors(QDir(again).filePath(QStringLiteral("model.safetensors")).toStdString(), w, {{"format", "pt"}});
        Seq2seqGenerator a, b;
        std::string error;
        QVERIFY2(a.load(dir.toStdString(), &error), error.c_str());
        QVERIFY2(b.load(again.toStdString(), &error), error.c_str());
        for (const QsTrainExample &e : examples())
            QCOMPARE(generated(b, e.source, plain(2, true)), generated(a, e.source, plain(2, true)));
    }

    void copiesATokenTheVocabularyCannotProduce()
    {
        // Token 37 never occurs in training and its logit is pushed to -1e4: only copying can write it.
        const QString dir = trained();
        TensorMap w = readSafetensors(QDir(dir).filePath(QStringLiteral("model.safetensors")).toStdString());
        std::vector<float> bias(40, 0.0f);
        bias[37] = -1e4f;
        w["final_logits_bias"] = Tensor::fromFloats({1, 40}, bias);
        const std::vector<std::int64_t> source{1, 37, 37, 37, 37, 2};
        auto withGateBias = [&](float b) {
            const QString d = m_dir.filePath(QStringLiteral("gate%1").arg(b));
            copyFolder(dir, d);
            TensorMap m = w;
            m["copy_head.p_gen.bias"] = Tensor::fromFloats({1}, {b});
            writeSafetensors(QDir(d).filePath(QStringLiteral("model.safetensors")).toStdString(), m, {{"format", "pt"}});
            Seq2seqGenerator g;
            std::string error;
            if (!g.load(d.toStdString(), &error))
                qWarning("%s", error.c_str());
            return generated(g, source, plain(1, true));
        };
        const std::vector<std::int64_t> copying = withGateBias(-30.0f); // p_gen ~ 0: the copy side decides
        const std::vector<std::int64_t> generating = withGateBias(30.0f); // p_gen ~ 1: the vocabulary decides
        QVERIFY(!copying.empty());
        QCOMPARE(copying.front(), std::int64_t(37));
        QVERIFY(std::find(generating.begin(), generating.end(), std::int64_t(37)) == generating.end());
    }

    void missingCopyWeightsRefused()
    {
        const QString dir = trained();
        const QString bad = m_dir.filePath(QStringLiteral("nocopyweights"));
        copyFolder(dir, bad);
        TensorMap w = readSafetensors(QDir(dir).filePath(QStringLiteral("model.safetensors")).toStdString());
        w.erase("copy_head.p_gen.weight");
        writeSafetensors(QDir(bad).filePath(QStringLiteral("model.safetensors")).toStdString(), w, {{"format", "pt"}});
        Seq2seqGenerator g;
        std::string error;
        QVERIFY(!g.load(bad.toStdString(), &error));
        QVERIFY2(error.find("copy_head.p_gen.weight") != std::string::npos, error.c_str());
        QVERIFY2(error.find("folio_copy_head") != std::string::npos, error.c_str());

        // The gate's tensors without the config flag: unused tensors, named.
        const QString noFlag = m_dir.filePath(QStringLiteral("noflag"));
        copyFolder(dir, noFlag);
        QJsonObject c = readConfig(noFlag);
        c.remove(QStringLiteral("folio_copy_head"));
        writeConfig(noFlag, c);
        error.clear();
        QVERIFY(!g.load(noFlag.toStdString(), &error));
        QVERIFY2(error.find("copy_head.p_gen") != std::string::npos, error.c_str());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestQsCopy)
#include "tst_qs_copy.moc"
