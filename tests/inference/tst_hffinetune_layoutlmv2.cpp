// Fine-tuning LayoutLMv2 / LayoutXLM token classifiers (issue 46) with HfFineTuner: a tiny
// LayoutLMv2Model with its detectron2 ResNeXt-FPN backbone (the weights of
// ../shared/fixtures/parity-new/layoutlmv2_visual, seeded random, under "layoutlmv2.", dropout off,
// no head: the fine-tuner makes one) fine-tuned on the fixture's two pages with their images.
//  - the backbone trains as the reference's does: FrozenBN buffers and the FREEZE_AT stages (stem
//    and res2 by default; 0 and 5 tried) get no gradient and never move; res3..res5, the FPN's
//    laterals and visual_proj get gradients and move; fpn_output3..5 are off the graph;
//  - every gradient family (backbone conv, FPN, visual projection, embeddings, fused Q/K/V, the
//    relative-bias table, LayerNorm, head) equals the loss's finite-difference derivative along it;
//  - the folder written loads back through ModelRunner with the in-memory model's logits, under the
//    reference's names, with LayoutLMv2ForTokenClassification and the tokenizer files;
//  - a checkpoint without visual weights trains on text + layout only (as Folio runs it).
#include "inference/checkpoint/safetensors.h"
#include "inference/models/modelrunner.h"
#include "inference/training/hf/hffinetuner.h"
#include "tensorcompare.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace folio::inference;
using folio::inference::test::compareTensors;

namespace {

const std::string kBottomUp = "layoutlmv2.visual.backbone.bottom_up.";
const std::vector<std::string> kLabels{"O", "B-QUESTION", "I-QUESTION"};

QString v2Fixture()
{
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-new/layoutlmv2_visual"));
}

nlohmann::json readJson(const QString &path)
{
    std::ifstream in(path.toStdString());
    return nlohmann::json::parse(in, nullptr, false);
}

bool has(const std::vector<std::string> &v, const std::string &s)
{
    return std::find(v.begin(), v.end(), s) != v.end();
}

// A LayoutLMv2Model folder (no head) with dropout off; freezeAt < 0 leaves MODEL.BACKBONE.FREEZE_AT
// out (the reference's default, 2). Without `backbone` the visual weights are left out.
void makeFolder(const QString &dir, int freezeAt = -1, bool backbone = true)
{
    nlohmann::json config = readJson(v2Fixture() + "/config.json");
    QVERIFY(config.is_object());
    config["hidden_dropout_prob"] = 0.0;
    config["attention_probs_dropout_prob"] = 0.0;
    config.erase("id2label");
    config.erase("label2id");
    if (freezeAt >= 0)
        config["detectron2_config_args"]["MODEL.BACKBONE.FREEZE_AT"] = freezeAt;
    QVERIFY(QDir().mkpath(dir));
    std::ofstream(dir.toStdString() + "/config.json") << config.dump(2);
    TensorMap weights;
    for (auto &kv : readSafetensors((v2Fixture() + "/model.safetensors").toStdString()))
        if (backbone || kv.first.rfind("visual", 0) != 0)
            weights["layoutlmv2." + kv.first] = kv.second;
    writeSafetensors(dir.toStdString() + "/model.safetensors", weights);
    // A tokenizer file for saveFolder() to copy.
    QFile::remove(dir + "/vocab.txt");
    QVERIFY(QFile::copy(QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizers/layoutlmv2/vocab.txt"), dir + "/vocab.txt"));
}

// The fixture's two pages with their images and a label on most tokens (-100 on the first and
// on padded positions).
TensorMap batch(bool withImage = true)
{
    const TensorMap in = readSafetensors((v2Fixture() + "/inputs.safetensors").toStdString());
    TensorMap b;
    for (const char *k : {"input_ids", "bbox", "attention_mask", "token_type_ids"})
        b[k] = in.at(k);
    if (withImage)
        b["image"] = in.at("image");
    else
        b["visual_tokens"] = Tensor::fromInt64({1}, {0});
    const Tensor &mask = in.at("attention_mask");
    std::vector<std::int64_t> labels(std::size_t(mask.numel()));
    for (std::size_t i = 0; i < labels.size(); ++i)
        labels[i] = (i % 20 == 0 || mask.data<std::int64_t>()[i] == 0) ? -100 : std::int64_t((i * 7) % 3);
    b["labels"] = Tensor::fromInt64(mask.shape, labels);
    return b;
}

// Row `row` of every [B, ...] tensor of a batch ([1] tensors as they are), as a batch of one.
TensorMap rowOf(const TensorMap &batch, std::int64_t row)
{
    TensorMap out;
    for (const auto &[name, t] : batch) {
        if (t.shape.size() < 2) {
            out[name] = t;
            continue;
        }
        Tensor r = t;
        r.shape[0] = 1;
        const std::size_t bytes = t.bytes.size() / std::size_t(t.shape[0]);
        r.bytes.assign(t.bytes.begin() + long(bytes * std::size_t(row)), t.bytes.begin() + long(bytes * std::size_t(row + 1)));
        out[name] = std::move(r);
    }
    return out;
}

HfFineTuner loaded(const QString &dir, double lr)
{
    HfFineTuner t;
    std::string error;
    if (!t.load(dir.toStdString(), &error))
        qFatal("%s", error.c_str());
    bool newHead = false;
    if (!t.setLabels(kLabels, 7, &newHead, &error))
        qFatal("%s", error.c_str());
    HfFineTuneOptions o;
    o.lr = lr;
    o.weightDecay = 0.01;
    o.totalSteps = 10;
    o.warmupSteps = 0;
    t.setOptions(o);
    return t;
}

double l2(const Tensor &t)
{
    double s = 0;
    for (std::int64_t i = 0; i < t.numel(); ++i)
        s += double(t.data<float>()[i]) * double(t.data<float>()[i]);
    return std::sqrt(s);
}

// t + eps * d (float32 tensors of one shape).
Tensor moved(const Tensor &t, const Tensor &d, double eps)
{
    std::vector<float> v(std::size_t(t.numel()));
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = float(double(t.data<float>()[i]) + eps * double(d.data<float>()[i]));
    return Tensor::fromFloats(t.shape, v);
}

} // namespace

class TestHfFineTuneLayoutLMv2 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { FOLIO_REQUIRE_DATA(v2Fixture() + "/model.safetensors"); }

    void backboneTrainsAsTheReference_data()
    {
        QTest::addColumn<int>("freezeAt");
        QTest::newRow("FREEZE_AT absent (2)") << -1;
        QTest::newRow("FREEZE_AT 0") << 0;
        QTest::newRow("FREEZE_AT 5") << 5;
    }
    void backboneTrainsAsTheReference()
    {
        QFETCH(int, freezeAt);
        const int effective = freezeAt < 0 ? 2 : freezeAt;
        QTemporaryDir tmp;
        makeFolder(tmp.path() + "/base", freezeAt);
        HfFineTuner t = loaded(tmp.path() + "/base", 1e-2);
        QCOMPARE(t.modelType(), std::string("layoutlmv2"));
        QCOMPARE(t.imageInputName(), std::string("image"));
        const std::vector<std::string> frozen = t.frozenParameters();
        QVERIFY(!frozen.empty());
        for (const std::string &n : frozen)
            QVERIFY2(n.rfind(kBottomUp, 0) == 0, n.c_str()); // only the ResNet body is ever frozen
        // FrozenBN buffers always; the stem from FREEZE_AT 1; res<k> from FREEZE_AT k.
        QVERIFY(has(frozen, kBottomUp + "res3.0.conv1.norm.weight"));
        QVERIFY(has(frozen, kBottomUp + "res4.1.conv2.norm.running_var"));
        QCOMPARE(has(frozen, kBottomUp + "stem.conv1.weight"), effective >= 1);
        QCOMPARE(has(frozen, kBottomUp + "res2.0.conv1.weight"), effective >= 2);
        QCOMPARE(has(frozen, kBottomUp + "res2.0.shortcut.weight"), effective >= 2);
        QCOMPARE(has(frozen, kBottomUp + "res3.0.conv2.weight"), effective >= 3);
        QCOMPARE(has(frozen, kBottomUp + "res5.2.conv3.weight"), effective >= 5);
        for (const std::string &n : t.noDecayParameters())
            QVERIFY2(!has(frozen, n), n.c_str()); // not in the optimiser at all

        const TensorMap before = t.parameters();
        t.setKeepGradients(true);
        const HfStepResult r = t.step(batch());
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(std::isfinite(r.loss) && r.loss > 0);
        const TensorMap &grads = t.lastGradients();
        const std::vector<std::string> without = t.parametersWithoutGradient();
        for (const std::string &n : frozen)
            QVERIFY2(has(without, n) && !grads.count(n), n.c_str());
        // Off the graph: the FPN outputs LayoutLMv2 discards.
        QVERIFY(has(without, "layoutlmv2.visual.backbone.fpn_output3.weight"));
        // Trained: the unfrozen stages, the FPN laterals, the projection, the text side, the head.
        for (const std::string &n : {kBottomUp + "res5.0.conv1.weight", std::string("layoutlmv2.visual.backbone.fpn_lateral2.weight"),
                                     std::string("layoutlmv2.visual.backbone.fpn_output2.weight"),
                                     std::string("layoutlmv2.visual_proj.weight"), std::string("layoutlmv2.visual_LayerNorm.weight"),
                                     std::string("layoutlmv2.embeddings.word_embeddings.weight"),
                                     std::string("layoutlmv2.encoder.layer.1.attention.self.qkv_linear.weight"),
                                     std::string("classifier.weight")}) {
            if (effective >= 5 && n.rfind(kBottomUp + "res5", 0) == 0)
                continue;
            QVERIFY2(grads.count(n), n.c_str());
            QVERIFY2(l2(grads.at(n)) > 0, n.c_str());
        }
        if (effective < 1)
            QVERIFY(grads.count(kBottomUp + "stem.conv1.weight"));
        const TensorMap after = t.parameters();
        for (const std::string &n : frozen)
            QVERIFY2(after.at(n).bytes == before.at(n).bytes, n.c_str());
        QVERIFY(after.at("layoutlmv2.visual_proj.weight").bytes != before.at("layoutlmv2.visual_proj.weight").bytes);
        if (effective < 3)
            QVERIFY(after.at(kBottomUp + "res3.0.conv2.weight").bytes != before.at(kBottomUp + "res3.0.conv2.weight").bytes);
    }

    // The gradient of each family equals the central difference of the loss along it (the loss of
    // a fresh tuner on the folder written with the weights moved by +-eps * g / |g|).
    void gradientsMatchFiniteDifferences()
    {
        QTemporaryDir tmp;
        makeFolder(tmp.path() + "/base");
        HfFineTuner t = loaded(tmp.path() + "/base", 0.0); // learning rate 0: the weights stay
        t.setKeepGradients(true);
        const TensorMap b = batch();
        const HfStepResult r = t.step(b);
        QVERIFY2(r.ok, r.error.c_str());
        const TensorMap grads = t.lastGradients();
        std::string error;
        const QString start = tmp.path() + "/start";
        QVERIFY2(t.saveFolder(start.toStdString(), {}, {}, &error), error.c_str());
        const TensorMap weights = readSafetensors((start + "/model.safetensors").toStdString());
        auto lossAt = [&](const std::string &name, const Tensor &value) {
            const QString dir = tmp.path() + "/moved";
            QDir(dir).removeRecursively();
            QDir().mkpath(dir);
            QFile::copy(start + "/config.json", dir + "/config.json");
            TensorMap w = weights;
            w[name] = value;
            writeSafetensors(dir.toStdString() + "/model.safetensors", w);
            HfFineTuner m = loaded(dir, 0.0);
            const HfStepResult s = m.step(b);
            return s.ok ? s.loss : std::nan("");
        };
        const std::vector<std::string> names{
            kBottomUp + "res3.0.conv2.weight", kBottomUp + "res5.2.conv3.weight",
            "layoutlmv2.visual.backbone.fpn_lateral4.weight", "layoutlmv2.visual.backbone.fpn_output2.bias",
            "layoutlmv2.visual_proj.weight", "layoutlmv2.embeddings.word_embeddings.weight",
            "layoutlmv2.embeddings.x_position_embeddings.weight", "layoutlmv2.encoder.layer.0.attention.self.qkv_linear.weight",
            "layoutlmv2.encoder.layer.1.attention.self.q_bias", "layoutlmv2.encoder.rel_pos_bias.weight",
            "layoutlmv2.encoder.layer.1.output.LayerNorm.weight", "classifier.weight"};
        const double eps = 1e-2;
        for (const std::string &n : names) {
            QVERIFY2(grads.count(n), n.c_str());
            const Tensor &g = grads.at(n);
            const double norm = l2(g);
            QVERIFY2(norm > 1e-3, n.c_str()); // a check along a (near) zero gradient would prove nothing
            std::vector<float> dir(std::size_t(g.numel()));
            for (std::size_t i = 0; i < dir.size(); ++i)
                dir[i] = float(double(g.data<float>()[i]) / norm);
            const Tensor d = Tensor::fromFloats(g.shape, dir);
            const double plus = lossAt(n, moved(weights.at(n), d, eps));
            const double minus = lossAt(n, moved(weights.at(n), d, -eps));
            const double fd = (plus - minus) / (2 * eps);
            const QString what = QStringLiteral("%1: |g| %2, finite difference %3").arg(QString::fromStdString(n)).arg(norm).arg(fd);
            qInfo("%s", qPrintable(what));
            QVERIFY2(std::fabs(fd - norm) <= 0.02 * norm + 1e-5, qPrintable(what));
        }
    }

    // The data-parallel arithmetic (--gradient-shards / --nproc): two one-page shards average their
    // gradients; the frozen part stays out of it.
    void shardsAverageTheirGradients()
    {
        QTemporaryDir tmp;
        makeFolder(tmp.path() + "/base");
        std::vector<HfFineTuner> t;
        for (int i = 0; i < 3; ++i) {
            t.push_back(loaded(tmp.path() + "/base", 0.0));
            t.back().setKeepGradients(true);
        }
        const TensorMap b = batch();
        QVERIFY(t[0].step(rowOf(b, 0)).ok);
        QVERIFY(t[1].step(rowOf(b, 1)).ok);
        const HfStepResult both = t[2].step(std::vector<TensorMap>{rowOf(b, 0), rowOf(b, 1)});
        QVERIFY2(both.ok, both.error.c_str());
        QCOMPARE(t[2].parametersWithoutGradient(), t[0].parametersWithoutGradient());
        int compared = 0;
        for (const auto &[name, g] : t[2].lastGradients()) {
            const Tensor &g0 = t[0].lastGradients().at(name), &g1 = t[1].lastGradients().at(name);
            std::vector<float> mean(std::size_t(g.numel()));
            for (std::size_t i = 0; i < mean.size(); ++i)
                mean[i] = 0.5f * (g0.data<float>()[i] + g1.data<float>()[i]);
            const auto diff = compareTensors(g, Tensor::fromFloats(g.shape, mean), 1e-7, 1e-5);
            QVERIFY2(diff.ok, (name + ": " + diff.message).c_str());
            ++compared;
        }
        QVERIFY2(compared > 60, qPrintable(QString::number(compared)));
        QVERIFY(!t[2].lastGradients().count(kBottomUp + "stem.conv1.weight"));
    }

    void folderLoadsBackWithTheSameLogits()
    {
        QTemporaryDir tmp;
        const QString base = tmp.path() + "/base", out = tmp.path() + "/out";
        makeFolder(base);
        HfFineTuner t = loaded(base, 1e-3);
        for (int i = 0; i < 2; ++i) {
            const HfStepResult r = t.step(batch());
            QVERIFY2(r.ok, r.error.c_str());
        }
        std::string error;
        QVERIFY2(t.saveFolder(out.toStdString(), base.toStdString(), "# card\n", &error), error.c_str());
        const nlohmann::json config = readJson(out + "/config.json");
        QCOMPARE(config["architectures"], nlohmann::json::array({"LayoutLMv2ForTokenClassification"}));
        QCOMPARE(config["id2label"]["1"].get<std::string>(), kLabels[1]);
        QCOMPARE(config["label2id"]["I-QUESTION"].get<int>(), 2);
        QCOMPARE(config["model_type"].get<std::string>(), std::string("layoutlmv2"));
        QVERIFY(QFile::exists(out + "/vocab.txt"));
        QVERIFY(QFile::exists(out + "/README.md"));
        const TensorMap saved = readSafetensors((out + "/model.safetensors").toStdString());
        for (const char *n : {"layoutlmv2.visual.backbone.bottom_up.res3.0.conv1.weight",
                              "layoutlmv2.visual.backbone.bottom_up.stem.conv1.norm.running_mean",
                              "layoutlmv2.encoder.layer.0.attention.self.qkv_linear.weight", "classifier.weight",
                              "classifier.bias"})
            QVERIFY2(saved.count(n), n);
        for (const auto &kv : saved)
            QVERIFY2(kv.first.rfind("layoutlmv2.", 0) == 0 || kv.first.rfind("classifier.", 0) == 0, kv.first.c_str());
        // Frozen weights are the base folder's, byte for byte.
        const TensorMap original = readSafetensors((base + "/model.safetensors").toStdString());
        QVERIFY(saved.at(kBottomUp + "stem.conv1.weight").bytes == original.at(kBottomUp + "stem.conv1.weight").bytes);
        QVERIFY(saved.at(kBottomUp + "res4.0.conv1.weight").bytes != original.at(kBottomUp + "res4.0.conv1.weight").bytes);

        TensorMap in = batch();
        in.erase("labels");
        const RunResult mem = t.forward(in);
        QVERIFY2(mem.ok, mem.error.c_str());
        ModelRunner runner;
        QVERIFY2(runner.load(out.toStdString(), &error), error.c_str());
        QVERIFY(runner.warnings().empty()); // the backbone is there: the full model runs
        const RunResult disk = runner.run(in);
        QVERIFY2(disk.ok, disk.error.c_str());
        QCOMPARE(disk.outputs.at("logits").shape, (std::vector<std::int64_t>{2, 20, 3}));
        const auto diff = compareTensors(disk.outputs.at("logits"), mem.outputs.at("logits"), 1e-6, 1e-6);
        QVERIFY2(diff.ok, diff.message.c_str());
        // And the base model's logits are not these (the steps moved the weights).
        HfFineTuner fresh = loaded(base, 1e-3);
        const RunResult first = fresh.forward(in);
        QVERIFY(!compareTensors(first.outputs.at("logits"), mem.outputs.at("logits"), 1e-6, 1e-6).ok);
        // Fine-tuned again from the written folder: the same head is kept, the same parameters frozen.
        HfFineTuner again;
        QVERIFY2(again.load(out.toStdString(), &error), error.c_str());
        QCOMPARE(again.labels(), kLabels);
        QCOMPARE(again.frozenParameters(), t.frozenParameters());
    }

    void textOnlyCheckpointTrains()
    {
        QTemporaryDir tmp;
        const QString base = tmp.path() + "/base", out = tmp.path() + "/out";
        makeFolder(base, -1, false);
        HfFineTuner t = loaded(base, 1e-3);
        QCOMPARE(t.imageInputName(), std::string());
        QVERIFY(t.frozenParameters().empty());
        TensorMap b = batch(false);
        b.erase("visual_tokens");
        const HfStepResult r = t.step(b);
        QVERIFY2(r.ok, r.error.c_str());
        std::string error;
        QVERIFY2(t.saveFolder(out.toStdString(), base.toStdString(), {}, &error), error.c_str());
        ModelRunner runner;
        QVERIFY2(runner.load(out.toStdString(), &error), error.c_str());
        QVERIFY(!runner.warnings().empty()); // text + layout only, said
        b.erase("labels");
        const RunResult disk = runner.run(b);
        QVERIFY2(disk.ok, disk.error.c_str());
        const auto diff = compareTensors(disk.outputs.at("logits"), t.forward(b).outputs.at("logits"), 1e-6, 1e-6);
        QVERIFY2(diff.ok, diff.message.c_str());
        // A backbone checkpoint given no page image trains on text + layout (visual_tokens = 0).
        makeFolder(tmp.path() + "/visual");
        HfFineTuner v = loaded(tmp.path() + "/visual", 1e-3);
        const HfStepResult noImage = v.step(batch(false));
        QVERIFY2(noImage.ok, noImage.error.c_str());
        TensorMap missing = batch(false);
        missing.erase("visual_tokens");
        const HfStepResult refused = v.step(missing);
        QVERIFY(!refused.ok);
        QVERIFY2(QString::fromStdString(refused.error).contains(QLatin1String("image")), refused.error.c_str());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestHfFineTuneLayoutLMv2)
#include "tst_hffinetune_layoutlmv2.moc"
