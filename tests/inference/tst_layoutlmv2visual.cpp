// LayoutLMv2 with its detectron2 ResNeXt-FPN backbone (issue 32), on the parity-new
// `layoutlmv2_visual` fixture: the backbone's pooled features against the reference (relative
// tolerance: they reach |x| ~ 8), the encoder inputs exactly, a float image equal to the uint8 one,
// the token-classification form, a checkpoint without visual weights (text + layout only, with a
// warning), and the bad inputs: backbone weights of the wrong shape, unknown or unsupported
// detectron2 options, images of the wrong channel count or size, no image at all.
#include "inference/checkpoint/safetensors.h"
#include "inference/models/modelrunner.h"
#include "tensorcompare.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>

using namespace folio::inference;
using folio::inference::test::compareTensors;

namespace {

QString fixtureDir()
{
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-new/layoutlmv2_visual"));
}

nlohmann::json readConfig(const QString &dir)
{
    std::ifstream in((dir + "/config.json").toStdString());
    return nlohmann::json::parse(in);
}

// A checkpoint folder in `dst` with the given config and weights.
void writeCheckpoint(const QString &dst, const nlohmann::json &config, const TensorMap &weights)
{
    QDir().mkpath(dst);
    std::ofstream((dst + "/config.json").toStdString()) << config.dump(2);
    writeSafetensors((dst + "/model.safetensors").toStdString(), weights);
}

std::string loadError(const QString &dir)
{
    ModelRunner runner;
    std::string error;
    if (runner.load(dir.toStdString(), &error))
        return {};
    return error.empty() ? std::string("(failed without a message)") : error;
}

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestLayoutLMv2Visual : public QObject
{
    Q_OBJECT

private:
    QString m_dir;
    TensorMap m_inputs, m_expected, m_weights;
    nlohmann::json m_config;

    RunResult runFixture(const QString &dir, const TensorMap &inputs, bool trace = true)
    {
        configureThreads(1);
        ModelRunner runner;
        std::string error;
        RunResult r;
        if (!runner.load(dir.toStdString(), &error)) {
            r.error = "load: " + error;
            return r;
        }
        RunOptions options;
        options.trace = trace;
        return runner.run(inputs, options);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_dir = fixtureDir();
        FOLIO_REQUIRE_DATA(m_dir + "/model.safetensors");
        m_inputs = readSafetensors((m_dir + "/inputs.safetensors").toStdString());
        m_expected = readSafetensors((m_dir + "/outputs.safetensors").toStdString());
        m_weights = readSafetensors((m_dir + "/model.safetensors").toStdString());
        m_config = readConfig(m_dir);
    }

    // The backbone's pooled p2 and what the encoder receives, against the reference.
    void backboneAndEncoderInputs()
    {
        const RunResult r = runFixture(m_dir, m_inputs);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.warnings.empty());
        const auto f = compareTensors(r.outputs.at("debug.visual_features"), m_expected.at("debug.visual_features"), 1e-6, 1e-5);
        qInfo("debug.visual_features max|diff| %.3g", f.maxAbs);
        QVERIFY2(f.ok, f.message.c_str());
        for (const char *exact : {"debug.encoder_bbox", "debug.encoder_position_ids"}) {
            const auto d = compareTensors(r.outputs.at(exact), m_expected.at(exact), 0, 0);
            QVERIFY2(d.ok, (std::string(exact) + ": " + d.message).c_str());
        }
        for (const char *name : {"last_hidden_state", "pooler_output", "hidden_states.0", "hidden_states.2", "attentions.1"}) {
            const auto d = compareTensors(r.outputs.at(name), m_expected.at(name), 1e-5, 1e-4);
            QVERIFY2(d.ok, (std::string(name) + ": " + d.message).c_str());
        }
    }

    // A float image of the same values gives the same outputs as the uint8 one.
    void floatImageEqualsUint8()
    {
        TensorMap in = m_inputs;
        const Tensor &u8 = m_inputs.at("image");
        std::vector<float> values(u8.bytes.begin(), u8.bytes.end());
        in["image"] = Tensor::fromFloats(u8.shape, values);
        const RunResult a = runFixture(m_dir, m_inputs, false), b = runFixture(m_dir, in, false);
        QVERIFY2(a.ok && b.ok, (a.error + b.error).c_str());
        const auto d = compareTensors(b.outputs.at("last_hidden_state"), a.outputs.at("last_hidden_state"), 0, 0);
        QVERIFY2(d.ok, d.message.c_str());
    }

    // LayoutLMv2ForTokenClassification: `layoutlmv2.` prefix + classifier over the text positions.
    void tokenClassification()
    {
        QTemporaryDir tmp;
        TensorMap w;
        for (const auto &[name, t] : m_weights)
            w["layoutlmv2." + name] = t;
        const std::int64_t labels = 3, d = 32;
        std::vector<float> cw(static_cast<std::size_t>(labels * d)), cb{0.1f, -0.2f, 0.3f};
        for (std::size_t i = 0; i < cw.size(); ++i)
            cw[i] = static_cast<float>((static_cast<int>(i * 7 % 13) - 6) * 0.05);
        w["classifier.weight"] = Tensor::fromFloats({labels, d}, cw);
        w["classifier.bias"] = Tensor::fromFloats({labels}, cb);
        nlohmann::json config = m_config;
        config["id2label"] = {{"0", "O"}, {"1", "B"}, {"2", "I"}};
        config["label2id"] = {{"O", 0}, {"B", 1}, {"I", 2}};
        writeCheckpoint(tmp.path() + "/tok", config, w);
        const RunResult r = runFixture(tmp.path() + "/tok", m_inputs, false);
        QVERIFY2(r.ok, r.error.c_str());
        const Tensor &logits = r.outputs.at("logits");
        QCOMPARE(logits.shape, (std::vector<std::int64_t>{2, 20, labels}));
        const auto h = compareTensors(r.outputs.at("last_hidden_state"), m_expected.at("last_hidden_state"), 1e-5, 1e-4);
        QVERIFY2(h.ok, h.message.c_str());
        // logits[0, 0, 0] = classifier(last_hidden_state[0, 0]) (text position 0).
        const Tensor &hs = m_expected.at("last_hidden_state");
        double want = cb[0];
        for (std::int64_t k = 0; k < d; ++k)
            want += static_cast<double>(cw[static_cast<std::size_t>(k)]) * hs.data<float>()[k];
        QVERIFY(std::fabs(logits.data<float>()[0] - want) < 1e-4);
    }

    // No `visual.*` weights: text + layout only, said in the result; the image is not needed.
    void withoutVisualWeightsWarns()
    {
        QTemporaryDir tmp;
        TensorMap w;
        for (const auto &[name, t] : m_weights)
            if (name.rfind("visual", 0) != 0)
                w[name] = t;
        writeCheckpoint(tmp.path() + "/text", m_config, w);
        TensorMap in = m_inputs;
        in.erase("image");
        const RunResult r = runFixture(tmp.path() + "/text", in, false);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.warnings.size(), std::size_t(1));
        QVERIFY2(contains(r.warnings[0], "text + layout only"), r.warnings[0].c_str());
        QCOMPARE(r.outputs.at("last_hidden_state").shape, (std::vector<std::int64_t>{2, 20, 32}));
    }

    void badBackboneShapeRefused()
    {
        QTemporaryDir tmp;
        TensorMap w = m_weights;
        const std::string key = "visual.backbone.bottom_up.res3.0.conv2.weight";
        QVERIFY(w.count(key));
        Tensor &t = w[key];
        t.shape[1] *= 2; // as if NUM_GROUPS were half
        t.bytes.resize(t.bytes.size() * 2);
        writeCheckpoint(tmp.path() + "/shape", m_config, w);
        const std::string e = loadError(tmp.path() + "/shape");
        QVERIFY2(contains(e, key), e.c_str());

        TensorMap w2 = m_weights;
        w2.erase("visual.backbone.fpn_output4.bias");
        writeCheckpoint(tmp.path() + "/missing", m_config, w2);
        const std::string e2 = loadError(tmp.path() + "/missing");
        QVERIFY2(contains(e2, "fpn_output4.bias"), e2.c_str());
    }

    void badDetectron2Options_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value"); // JSON
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown option") << "MODEL.RESNETS.STEM_KIND" << "\"deep\"" << "MODEL.RESNETS.STEM_KIND";
        QTest::newRow("sync bn") << "MODEL.RESNETS.NORM" << "\"SyncBN\"" << "only FrozenBN";
        QTest::newRow("deformable") << "MODEL.RESNETS.DEFORM_ON_PER_STAGE" << "[false, true, true, true]" << "deformable";
        QTest::newRow("dilation") << "MODEL.RESNETS.RES5_DILATION" << "2" << "RES5_DILATION";
        QTest::newRow("depth 34") << "MODEL.RESNETS.DEPTH" << "34" << "bottleneck depths";
        QTest::newRow("no fpn") << "MODEL.BACKBONE.NAME" << "\"build_resnet_backbone\"" << "build_resnet_fpn_backbone";
        QTest::newRow("fpn avg") << "MODEL.FPN.FUSE_TYPE" << "\"avg\"" << "'sum'";
        QTest::newRow("fpn inputs") << "MODEL.FPN.IN_FEATURES" << "[\"res3\", \"res4\", \"res5\"]" << "res2";
        QTest::newRow("groups 1e9") << "MODEL.RESNETS.NUM_GROUPS" << "1000000000" << "allowed 1..1024";
        QTest::newRow("std 4 channels") << "MODEL.PIXEL_STD" << "[1, 2, 3, 4]" << "3 per-channel";
        QTest::newRow("std zero") << "MODEL.PIXEL_STD" << "[57.375, 0, 58.395]" << "positive";
        QTest::newRow("groups mismatch weights") << "MODEL.RESNETS.NUM_GROUPS" << "4" << "res2.0.conv1.weight";
    }

    void badDetectron2Options()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        const QString dir = tmp.path() + "/cfg";
        QDir().mkpath(dir);
        nlohmann::json config = m_config;
        config["detectron2_config_args"][key.toStdString()] = nlohmann::json::parse(value.toStdString());
        std::ofstream((dir + "/config.json").toStdString()) << config.dump(2);
        QVERIFY(QFile::link(m_dir + "/model.safetensors", dir + "/model.safetensors"));
        const std::string e = loadError(dir);
        QVERIFY2(!e.empty(), "loaded");
        QVERIFY2(contains(e, expected.toStdString()), e.c_str());
        QVERIFY2(contains(e, "config.json") || contains(e, "model.safetensors"), e.c_str());
    }

    void badPoolShapeRefused()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.path() + "/pool";
        QDir().mkpath(dir);
        nlohmann::json config = m_config;
        config["image_feature_pool_shape"] = {7, 7, 32}; // FPN gives 16 channels
        std::ofstream((dir + "/config.json").toStdString()) << config.dump(2);
        QVERIFY(QFile::link(m_dir + "/model.safetensors", dir + "/model.safetensors"));
        const std::string e = loadError(dir);
        QVERIFY2(contains(e, "image_feature_pool_shape"), e.c_str());
    }

    void badImageRefused_data()
    {
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("size");
        QTest::addColumn<QString>("expected");
        QTest::newRow("4 channels") << 4 << 224 << "[B, 3, H, W]";
        QTest::newRow("1 channel") << 1 << 224 << "[B, 3, H, W]";
        QTest::newRow("200 px") << 3 << 200 << "multiples of 32";
        QTest::newRow("none") << 0 << 0 << "'image' input";
    }

    void badImageRefused()
    {
        QFETCH(int, channels);
        QFETCH(int, size);
        QFETCH(QString, expected);
        TensorMap in = m_inputs;
        if (channels == 0)
            in.erase("image");
        else
            in["image"] = Tensor::zeros(DType::U8, {2, channels, size, size});
        const RunResult r = runFixture(m_dir, in, false);
        QVERIFY(!r.ok);
        QVERIFY2(contains(r.error, expected.toStdString()), r.error.c_str());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestLayoutLMv2Visual)
#include "tst_layoutlmv2visual.moc"
