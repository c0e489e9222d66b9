// Fine-tuning Hugging Face token classifiers (inference/training/hf/, issue 46) beyond the recorded
// Trainer steps of tst_inference_parity: the decay rule by name, the schedule, the loss's -100,
// the data-parallel arithmetic (two half-batches' gradients averaged = the shards' step), a new
// head as the reference makes one, the folder written and read back (same logits through
// HfFineTuner and ModelRunner, the reference's names), the optimiser state, a disk that fills while
// the folder is written, and bad input.
#include "inference/checkpoint/detail/convert.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/models/modelrunner.h"
#include "inference/training/hf/detail/hfoptim.h"
#include "inference/training/hf/hffinetuner.h"
#include "tensorcompare.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <csignal>

#include <sys/resource.h>

using namespace folio::inference;
namespace hfd = folio::inference::detail;
using folio::inference::test::compareTensors;

namespace {

QString fixture(const char *name)
{
    return folio::test::sharedPath(QStringLiteral("fixtures/finetune/%1").arg(QLatin1String(name)));
}

// Row `row` of every [B, ...] tensor of a batch, as a batch of one.
TensorMap rowOf(const TensorMap &batch, std::int64_t row)
{
    TensorMap out;
    for (const auto &[name, t] : batch) {
        Tensor r;
        r.dtype = t.dtype;
        r.shape = t.shape;
        r.shape[0] = 1;
        const std::size_t bytes = t.bytes.size() / std::size_t(t.shape[0]);
        r.bytes.assign(t.bytes.begin() + long(bytes * std::size_t(row)), t.bytes.begin() + long(bytes * std::size_t(row + 1)));
        out[name] = std::move(r);
    }
    return out;
}

HfFineTuneOptions fixtureOptions()
{
    HfFineTuneOptions o;
    o.lr = 1e-3;
    o.weightDecay = 0.01;
    o.warmupSteps = 1;
    o.totalSteps = 6;
    return o;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeText(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

} // namespace

class TestHfFineTune : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { configureThreads(1); }

    void decayRuleIsByName()
    {
        using hfd::hfDecays;
        QVERIFY(hfDecays("layoutlmv3.encoder.layer.0.attention.self.query.weight"));
        QVERIFY(hfDecays("layoutlmv3.embeddings.word_embeddings.weight"));
        QVERIFY(hfDecays("classifier.weight"));
        QVERIFY(hfDecays("layoutlmv3.cls_token")); // 3-D, not a LayerNorm, no "bias": decays
        QVERIFY(!hfDecays("classifier.bias"));
        QVERIFY(!hfDecays("layoutlmv3.encoder.rel_pos_bias.weight")); // a weight whose name contains "bias"
        QVERIFY(!hfDecays("layoutlmv3.encoder.layer.1.output.LayerNorm.weight"));
        QVERIFY(!hfDecays("layoutlmv3.norm.weight")); // LayoutLMv3's patch LayerNorm
        QVERIFY(!hfDecays("lilt.layout_embeddings.LayerNorm.weight"));
        QVERIFY(hfDecays("lilt.layout_embeddings.box_linear_embeddings.weight"));
        QVERIFY(hfDecays("model.normalizer.weight")); // a module merely starting with "norm"
    }

    void scheduleStartsAtZero()
    {
        using hfd::hfLinearScheduleFactor;
        const double want[] = {0.0, 1.0, 0.8, 0.6, 0.4, 0.2, 0.0, 0.0};
        for (int s = 0; s < 8; ++s)
            QCOMPARE(hfLinearScheduleFactor(s, 1, 6), want[s]);
        QCOMPARE(hfLinearScheduleFactor(0, 0, 4), 1.0); // no warm-up: the first step at full rate
        QCOMPARE(hfLinearScheduleFactor(1, 4, 10), 0.25);
    }

    void lossIgnoresMinus100()
    {
        at::manual_seed(3);
        const at::Tensor logits = at::randn({2, 3, 4});
        const at::Tensor labels = at::tensor(std::vector<std::int64_t>{1, -100, 3, -100, 0, -100}, at::kLong).view({2, 3});
        const at::Tensor loss = hfd::tokenClassificationLoss(logits, labels);
        const at::Tensor lp = at::log_softmax(logits.view({6, 4}), 1);
        const double want = -(lp[0][1] + lp[2][3] + lp[4][0]).item<double>() / 3.0;
        QVERIFY(std::fabs(loss.item<double>() - want) < 1e-6);
        QVERIFY(!hfd::tokenClassificationLoss(logits, at::full({2, 3}, -100, at::kLong)).defined());
    }

    // What `--nproc 2` ranks compute: each half-batch's mean loss and gradients, averaged.
    void shardsAverageHalfBatchGradients()
    {
        const QString dir = fixture("finetune_lilt_tokcls");
        FOLIO_REQUIRE_DATA(dir + QStringLiteral("/train.json"));
        const TensorMap batch = readSafetensors((dir + "/inputs.safetensors").toStdString());
        std::vector<HfFineTuner> t(3);
        std::string error;
        for (HfFineTuner &x : t) {
            QVERIFY2(x.load(dir.toStdString(), &error), error.c_str());
            x.setOptions(fixtureOptions());
            x.setKeepGradients(true);
        }
        const HfStepResult a = t[0].step(rowOf(batch, 0)), b = t[1].step(rowOf(batch, 1));
        const HfStepResult both = t[2].step(std::vector<TensorMap>{rowOf(batch, 0), rowOf(batch, 1)});
        QVERIFY(a.ok && b.ok && both.ok);
        QVERIFY(std::fabs(both.loss - (a.loss + b.loss) / 2) < 1e-6);
        QVERIFY(std::fabs(a.loss - b.loss) > 1e-4); // the halves differ: the average is not trivially either
        const TensorMap &ga = t[0].lastGradients(), &gb = t[1].lastGradients(), &g = t[2].lastGradients();
        QCOMPARE(g.size(), ga.size());
        for (const auto &[name, grad] : g) {
            const at::Tensor want = (hfd::toAten(ga.at(name)) + hfd::toAten(gb.at(name))) / 2;
            const auto d = compareTensors(grad, hfd::fromAten(want), 1e-6, 1e-5);
            QVERIFY2(d.ok, (name + ": " + d.message).c_str());
        }
        // Every shard's weights move by the same step (lr 0 at step 0; the next step differs from a half's).
        const HfStepResult next = t[2].step(std::vector<TensorMap>{rowOf(batch, 0), rowOf(batch, 1)});
        QVERIFY(next.ok && next.lr > 0);
    }

    // Labels that differ: a new head as the reference makes one; the folder written loads back in
    // HfFineTuner and ModelRunner with the same logits, under the reference's names.
    void newHeadSavedAndReloaded()
    {
        const QString dir = fixture("finetune_layoutlmv3_tokcls");
        FOLIO_REQUIRE_DATA(dir + QStringLiteral("/train.json"));
        HfFineTuner tuner;
        std::string error;
        QVERIFY2(tuner.load(dir.toStdString(), &error), error.c_str());
        QCOMPARE(tuner.labels().size(), std::size_t(7));
        bool fresh = true;
        QVERIFY(tuner.setLabels(tuner.labels(), 1, &fresh, &error));
        QVERIFY(!fresh); // the same labels keep the head
        std::vector<std::string> labels{"O"};
        for (const char *e : {"A", "B", "C", "D", "E"})
            for (const char *p : {"B-", "I-"})
                labels.push_back(std::string(p) + e);
        QVERIFY2(tuner.setLabels(labels, 7, &fresh, &error), error.c_str());
        QVERIFY(fresh);
        const TensorMap before = tuner.parameters();
        QVERIFY(!before.count("classifier.weight")); // 11 labels: LayoutLMv3ClassificationHead
        const at::Tensor dense = hfd::toAten(before.at("classifier.dense.weight"));
        const at::Tensor out = hfd::toAten(before.at("classifier.out_proj.weight"));
        QCOMPARE(out.size(0), 11);
        QVERIFY(std::fabs(dense.std().item<double>() - 0.02) < 0.002); // N(0, initializer_range)
        QVERIFY(std::fabs(dense.mean().item<double>()) < 0.002);
        QCOMPARE(hfd::toAten(before.at("classifier.out_proj.bias")).abs().max().item<double>(), 0.0);
        const TensorMap original = readSafetensors((dir + "/model.safetensors").toStdString());
        QCOMPARE(hfd::toAten(before.at("layoutlmv3.embeddings.word_embeddings.weight"))
                     .equal(hfd::toAten(original.at("layoutlmv3.embeddings.word_embeddings.weight"))),
                 true); // the encoder kept

        TensorMap batch = readSafetensors((dir + "/inputs.safetensors").toStdString());
        {
            at::Tensor l = hfd::toAten(batch.at("labels"));
            l.masked_fill_(l.ge(0), 9); // a label only the new head has
            batch["labels"] = hfd::fromAten(l);
        }
        tuner.setOptions(fixtureOptions());
        for (int s = 0; s < 3; ++s) {
            const HfStepResult r = tuner.step(batch);
            QVERIFY2(r.ok, r.error.c_str());
        }
        const RunResult mine = tuner.forward(batch);
        QVERIFY2(mine.ok, mine.error.c_str());

        QTemporaryDir tmp;
        const QString outDir = tmp.filePath(QStringLiteral("out"));
        QVERIFY(writeText(tmp.filePath(QStringLiteral("vocab.json")), "{}")); // a processor file to copy
        QVERIFY(writeText(tmp.filePath(QStringLiteral("preprocessor_config.json")), "{\"apply_ocr\": false}"));
        QVERIFY2(tuner.saveFolder(outDir.toStdString(), tmp.path().toStdString(), "# card\n", &error), error.c_str());
        for (const char *f : {"config.json", "model.safetensors", "vocab.json", "preprocessor_config.json", "README.md"})
            QVERIFY2(QFile::exists(outDir + QLatin1Char('/') + QLatin1String(f)), f);
        QFile cf(outDir + QStringLiteral("/config.json"));
        QVERIFY(cf.open(QIODevice::ReadOnly));
        const QJsonObject config = QJsonDocument::fromJson(cf.readAll()).object();
        QCOMPARE(config.value(QStringLiteral("architectures")).toArray().first().toString(),
                 QStringLiteral("LayoutLMv3ForTokenClassification"));
        QCOMPARE(config.value(QStringLiteral("id2label")).toObject().value(QStringLiteral("10")).toString(), QStringLiteral("I-E"));
        QCOMPARE(config.value(QStringLiteral("label2id")).toObject().value(QStringLiteral("B-C")).toInt(), 5);
        // The reference's names and shapes: the input's, the old head replaced by the new one.
        const TensorMap written = readSafetensors((outDir + "/model.safetensors").toStdString());
        QCOMPARE(SafetensorsFile((outDir + "/model.safetensors").toStdString()).metadata().at("format"), std::string("pt"));
        for (const auto &[name, t] : original) {
            if (name.rfind("classifier.", 0) == 0) {
                QVERIFY(!written.count(name));
                continue;
            }
            QVERIFY2(written.count(name), name.c_str());
            QVERIFY(written.at(name).shape == t.shape);
        }
        QCOMPARE(written.size(), original.size() - 2 + 4);

        HfFineTuner again;
        QVERIFY2(again.load(outDir.toStdString(), &error), error.c_str());
        QCOMPARE(again.labels(), labels);
        const RunResult back = again.forward(batch);
        QVERIFY2(back.ok, back.error.c_str());
        QVERIFY(compareTensors(back.outputs.at("logits"), mine.outputs.at("logits"), 0, 0).ok);
        ModelRunner runner;
        QVERIFY2(runner.load(outDir.toStdString(), &error), error.c_str());
        TensorMap in = batch;
        in.erase("labels");
        const RunResult ran = runner.run(in);
        QVERIFY2(ran.ok, ran.error.c_str());
        const auto d = compareTensors(ran.outputs.at("logits"), mine.outputs.at("logits"), 1e-6, 1e-5);
        QVERIFY2(d.ok, d.message.c_str());
    }

    // Dropout as the config asks, in training only: the same seed draws the same masks (the same
    // loss and step), another seed others; the eval forward drops nothing.
    void dropoutFollowsConfigAndSeed()
    {
        const QString dir = fixture("finetune_lilt_tokcls");
        FOLIO_REQUIRE_DATA(dir + QStringLiteral("/train.json"));
        QTemporaryDir tmp;
        QJsonObject config = QJsonDocument::fromJson(readAll(dir + QStringLiteral("/config.json"))).object();
        config.insert(QStringLiteral("hidden_dropout_prob"), 0.3);
        config.insert(QStringLiteral("attention_probs_dropout_prob"), 0.3);
        QVERIFY(writeText(tmp.filePath(QStringLiteral("config.json")), QJsonDocument(config).toJson()));
        QVERIFY(QFile::copy(dir + QStringLiteral("/model.safetensors"), tmp.filePath(QStringLiteral("model.safetensors"))));
        const TensorMap batch = readSafetensors((dir + "/inputs.safetensors").toStdString());
        HfFineTuneOptions o = fixtureOptions();
        o.warmupSteps = 0;
        auto run = [&](const QString &from, std::uint64_t seed, HfStepResult *r) {
            HfFineTuner t;
            std::string error;
            if (!t.load(from.toStdString(), &error))
                return TensorMap();
            o.seed = seed;
            t.setOptions(o);
            *r = t.step(batch);
            return t.parameters();
        };
        HfStepResult a, b, c, plain;
        const TensorMap wa = run(tmp.path(), 1, &a), wb = run(tmp.path(), 1, &b), wc = run(tmp.path(), 2, &c);
        const TensorMap wp = run(dir, 1, &plain);
        QVERIFY(a.ok && b.ok && c.ok && plain.ok);
        QCOMPARE(a.loss, b.loss);
        QVERIFY(a.loss != c.loss && a.loss != plain.loss);
        for (const auto &[name, t] : wa)
            QVERIFY2(compareTensors(wb.at(name), t, 0, 0).ok, name.c_str());
        QVERIFY(!compareTensors(wc.at("classifier.weight"), wa.at("classifier.weight"), 0, 0).ok);
        // Eval: no dropout, the fixture's logits.
        HfFineTuner t;
        std::string error;
        QVERIFY(t.load(tmp.path().toStdString(), &error));
        const RunResult ev = t.forward(batch);
        QVERIFY(ev.ok);
        const TensorMap expected = readSafetensors((dir + "/outputs.safetensors").toStdString());
        QVERIFY(compareTensors(ev.outputs.at("logits"), expected.at("logits_before"), 1e-5, 1e-4).ok);
    }

    // The same labels in another order keep the head: each label's logit column follows it.
    void reorderedLabelsKeepTheHead()
    {
        const QString dir = fixture("finetune_lilt_tokcls");
        FOLIO_REQUIRE_DATA(dir + QStringLiteral("/train.json"));
        HfFineTuner t;
        std::string error;
        QVERIFY(t.load(dir.toStdString(), &error));
        const TensorMap batch = readSafetensors((dir + "/inputs.safetensors").toStdString());
        const RunResult before = t.forward(batch);
        std::vector<std::string> labels = t.labels();
        std::reverse(labels.begin(), labels.end());
        bool fresh = true;
        QVERIFY2(t.setLabels(labels, 1, &fresh, &error), error.c_str());
        QVERIFY(!fresh);
        QCOMPARE(t.labels(), labels);
        const RunResult after = t.forward(batch);
        QVERIFY(before.ok && after.ok);
        const at::Tensor a = hfd::toAten(before.outputs.at("logits")), b = hfd::toAten(after.outputs.at("logits"));
        QVERIFY(at::allclose(b, a.flip({2}), 0, 1e-6)); // the same products, columns reordered (GEMM blocking may round apart)
        // A label the head does not have: a new head.
        labels[0] = "B-NEW";
        QVERIFY(t.setLabels(labels, 1, &fresh, &error));
        QVERIFY(fresh);
    }

    // The optimiser state saved and restored: the next step is the one an uninterrupted run takes.
    void optimiserStateResumes()
    {
        const QString dir = fixture("finetune_lilt_tokcls");
        FOLIO_REQUIRE_DATA(dir + QStringLiteral("/train.json"));
        const TensorMap batch = readSafetensors((dir + "/inputs.safetensors").toStdString());
        QTemporaryDir tmp;
        std::string error;
        HfFineTuner a;
        QVERIFY(a.load(dir.toStdString(), &error));
        a.setOptions(fixtureOptions());
        QVERIFY(!a.saveOptimiserState(tmp.filePath(QStringLiteral("none")).toStdString(), &error)); // no step yet
        QVERIFY(a.step(batch).ok && a.step(batch).ok);
        QVERIFY2(a.saveFolder(tmp.filePath(QStringLiteral("w")).toStdString(), {}, {}, &error), error.c_str());
        QVERIFY2(a.saveOptimiserState(tmp.filePath(QStringLiteral("w/optimizer.safetensors")).toStdString(), &error), error.c_str());
        HfFineTuner b;
        QVERIFY2(b.load(tmp.filePath(QStringLiteral("w")).toStdString(), &error), error.c_str());
        b.setOptions(fixtureOptions());
        QVERIFY2(b.loadOptimiserState(tmp.filePath(QStringLiteral("w/optimizer.safetensors")).toStdString(), &error), error.c_str());
        QCOMPARE(b.steps(), 2L);
        const HfStepResult ra = a.step(batch), rb = b.step(batch);
        QVERIFY(ra.ok && rb.ok);
        QCOMPARE(rb.lr, ra.lr);
        const TensorMap pa = a.parameters(), pb = b.parameters();
        for (const auto &[name, t] : pa)
            QVERIFY2(compareTensors(pb.at(name), t, 1e-7, 0).ok, name.c_str());
        // A state file of another model is refused, naming the tensor.
        HfFineTuner other;
        QVERIFY(other.load(fixture("finetune_layoutlmv3_tokcls").toStdString(), &error));
        other.setOptions(fixtureOptions());
        QVERIFY(!other.loadOptimiserState(tmp.filePath(QStringLiteral("w/optimizer.safetensors")).toStdString(), &error));
        QVERIFY2(QString::fromStdString(error).contains(QLatin1String("belongs to no parameter")), error.c_str());
    }

    // A disk that fills while the folder is written (RLIMIT_FSIZE below the weights' size): the
    // save is refused naming the file, the previous folder stays byte for byte, nothing staged stays.
    void fullDiskLeavesPreviousFolder()
    {
        const QString dir = fixture("finetune_lilt_tokcls");
        FOLIO_REQUIRE_DATA(dir + QStringLiteral("/train.json"));
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("out"));
        std::string error;
        HfFineTuner t;
        QVERIFY(t.load(dir.toStdString(), &error));
        QVERIFY2(t.saveFolder(out.toStdString(), {}, "# first\n", &error), error.c_str());
        const QByteArray weights = readAll(out + QStringLiteral("/model.safetensors"));
        const QByteArray config = readAll(out + QStringLiteral("/config.json"));
        QVERIFY(weights.size() > 200 * 1024);
        QVERIFY(t.setLabels({"O", "B-X", "I-X"}, 3, nullptr, &error)); // other weights and another config
        struct rlimit old;
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto previous = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit small = old;
        small.rlim_cur = 100 * 1024;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const bool saved = t.saveFolder(out.toStdString(), {}, "# second\n", &error);
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, previous);
        QVERIFY(!saved);
        QVERIFY2(QString::fromStdString(error).contains(QLatin1String("model.safetensors")), error.c_str());
        QCOMPARE(readAll(out + QStringLiteral("/model.safetensors")), weights);
        QCOMPARE(readAll(out + QStringLiteral("/config.json")), config);
        QCOMPARE(readAll(out + QStringLiteral("/README.md")), QByteArray("# first\n"));
        const QStringList left = QDir(out).entryList(QDir::Files | QDir::Hidden, QDir::Name | QDir::IgnoreCase);
        QCOMPARE(left, QStringList({QStringLiteral("config.json"), QStringLiteral("model.safetensors"), QStringLiteral("README.md")}));
        // With room again the new folder replaces the old one.
        QVERIFY2(t.saveFolder(out.toStdString(), {}, "# second\n", &error), error.c_str());
        QVERIFY(readAll(out + QStringLiteral("/config.json")) != config);
    }

    void badInput()
    {
        const QString dir = fixture("finetune_lilt_tokcls");
        FOLIO_REQUIRE_DATA(dir + QStringLiteral("/train.json"));
        std::string error;
        HfFineTuner t;
        QVERIFY(!t.step(TensorMap{}).ok); // nothing loaded
        // A model type without fine-tuning: named.
        QTemporaryDir tmp;
        QVERIFY(writeText(tmp.filePath(QStringLiteral("config.json")), "{\"model_type\": \"bert\"}"));
        QVERIFY(!t.load(tmp.path().toStdString(), &error));
        QVERIFY2(QString::fromStdString(error).contains(QLatin1String("\"bert\" cannot be fine-tuned")), error.c_str());
        QVERIFY(!t.isLoaded());
        QVERIFY2(t.load(dir.toStdString(), &error), error.c_str());
        t.setOptions(fixtureOptions());
        TensorMap batch = readSafetensors((dir + "/inputs.safetensors").toStdString());
        TensorMap noLabels = batch;
        noLabels.erase("labels");
        HfStepResult r = t.step(noLabels);
        QVERIFY(!r.ok && QString::fromStdString(r.error).contains(QLatin1String("'labels'")));
        TensorMap unlabelled = batch;
        unlabelled["labels"] = hfd::fromAten(at::full({2, 20}, -100, at::kLong));
        r = t.step(unlabelled);
        QVERIFY(!r.ok && QString::fromStdString(r.error).contains(QLatin1String("every label is -100")));
        QCOMPARE(t.steps(), 0L); // nothing stepped
        QVERIFY(!t.setLabels({}, 1, nullptr, &error));
        // A failed save leaves no partial folder content behind as the final names.
        const QString blocked = tmp.filePath(QStringLiteral("file"));
        QVERIFY(writeText(blocked, "x"));
        QVERIFY(!t.saveFolder(blocked.toStdString(), {}, {}, &error));
        QVERIFY2(QString::fromStdString(error).contains(blocked.toStdString().c_str()), error.c_str());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestHfFineTune)
#include "tst_hffinetune.moc"
