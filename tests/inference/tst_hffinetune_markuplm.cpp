// HfFineTuner's step for MarkupLM token classifiers (issue 46, engine only: no page pipeline feeds
// it yet): the seeded random tiny MarkupLMForTokenClassification of
// ../shared/fixtures/parity-new/markuplm_tokcls (5 labels) fine-tuned on the fixture's two node
// sequences (input_ids, xpath_tags_seq, xpath_subs_seq) with labels of 3 classes (a new head).
//  - every gradient family (word, position and per-depth xpath tag / subscript tables, the xpath
//    MLP, Q/K/V, FFN, LayerNorm, head) equals the loss's finite-difference derivative along it;
//  - xpath_unitseq2_embeddings (saved by the reference, never run) is carried unchanged, the folder
//    written is MarkupLMForTokenClassification under the reference's names and loads back through
//    ModelRunner with the in-memory logits;
//  - dropout follows config.json only inside a step (same seed: same loss; none: another loss).
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

#include <cmath>
#include <fstream>

using namespace folio::inference;
using folio::inference::test::compareTensors;

namespace {

const std::vector<std::string> kLabels{"O", "B-TITLE", "B-AUTHOR"};
const std::string kUnitSeq2 = "markuplm.embeddings.xpath_embeddings.xpath_unitseq2_embeddings.weight";

QString fixture()
{
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-new/markuplm_tokcls"));
}

nlohmann::json readJson(const QString &path)
{
    std::ifstream in(path.toStdString());
    return nlohmann::json::parse(in, nullptr, false);
}

// The fixture's folder with the dropout `p` (hidden and attention).
void makeFolder(const QString &dir, double p)
{
    nlohmann::json config = readJson(fixture() + "/config.json");
    QVERIFY(config.is_object());
    config["hidden_dropout_prob"] = p;
    config["attention_probs_dropout_prob"] = p;
    QVERIFY(QDir().mkpath(dir));
    std::ofstream(dir.toStdString() + "/config.json") << config.dump(2);
    QFile::remove(dir + "/model.safetensors");
    QVERIFY(QFile::copy(fixture() + "/model.safetensors", dir + "/model.safetensors"));
}

TensorMap batch()
{
    TensorMap b = readSafetensors((fixture() + "/inputs.safetensors").toStdString());
    const Tensor &mask = b.at("attention_mask");
    std::vector<std::int64_t> labels(std::size_t(mask.numel()));
    for (std::size_t i = 0; i < labels.size(); ++i)
        labels[i] = (i % 24 == 0 || mask.data<std::int64_t>()[i] == 0) ? -100 : std::int64_t((i * 5) % 3);
    b["labels"] = Tensor::fromInt64(mask.shape, labels);
    return b;
}

HfFineTuner loaded(const QString &dir, double lr, std::uint64_t seed = 42)
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
    o.totalSteps = 10;
    o.seed = seed;
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

} // namespace

class TestHfFineTuneMarkupLM : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { FOLIO_REQUIRE_DATA(fixture() + "/model.safetensors"); }

    void gradientsMatchFiniteDifferences()
    {
        QTemporaryDir tmp;
        makeFolder(tmp.path() + "/base", 0.0);
        HfFineTuner t = loaded(tmp.path() + "/base", 0.0);
        QCOMPARE(t.modelType(), std::string("markuplm"));
        t.setKeepGradients(true);
        const TensorMap b = batch();
        const HfStepResult r = t.step(b);
        QVERIFY2(r.ok, r.error.c_str());
        const TensorMap grads = t.lastGradients();
        QVERIFY(!grads.count(kUnitSeq2)); // never run, no gradient (as in the reference)
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
        const std::string xp = "markuplm.embeddings.xpath_embeddings.";
        const std::vector<std::string> names{"markuplm.embeddings.word_embeddings.weight",
                                             "markuplm.embeddings.position_embeddings.weight",
                                             xp + "xpath_tag_sub_embeddings.0.weight",
                                             xp + "xpath_subs_sub_embeddings.2.weight",
                                             xp + "xpath_unitseq2_inner.weight",
                                             xp + "inner2emb.bias",
                                             "markuplm.embeddings.LayerNorm.weight",
                                             "markuplm.encoder.layer.0.attention.self.query.weight",
                                             "markuplm.encoder.layer.1.attention.self.value.weight",
                                             "markuplm.encoder.layer.1.intermediate.dense.weight",
                                             "classifier.weight"};
        const double eps = 1e-2;
        for (const std::string &n : names) {
            QVERIFY2(grads.count(n), n.c_str());
            const Tensor &g = grads.at(n);
            const double norm = l2(g);
            QVERIFY2(norm > 1e-3, n.c_str());
            std::vector<float> plus(std::size_t(g.numel())), minus(plus.size());
            for (std::size_t i = 0; i < plus.size(); ++i) {
                const double w = weights.at(n).data<float>()[i], d = g.data<float>()[i] / norm;
                plus[i] = float(w + eps * d);
                minus[i] = float(w - eps * d);
            }
            const double fd = (lossAt(n, Tensor::fromFloats(g.shape, plus)) - lossAt(n, Tensor::fromFloats(g.shape, minus))) / (2 * eps);
            const QString what = QStringLiteral("%1: |g| %2, finite difference %3").arg(QString::fromStdString(n)).arg(norm).arg(fd);
            qInfo("%s", qPrintable(what));
            QVERIFY2(std::fabs(fd - norm) <= 0.02 * norm + 1e-5, qPrintable(what));
        }
    }

    void folderLoadsBackWithTheSameLogits()
    {
        QTemporaryDir tmp;
        const QString base = tmp.path() + "/base", out = tmp.path() + "/out";
        makeFolder(base, 0.1);
        HfFineTuner t = loaded(base, 1e-3);
        for (int i = 0; i < 2; ++i) {
            const HfStepResult r = t.step(batch());
            QVERIFY2(r.ok, r.error.c_str());
        }
        std::string error;
        QVERIFY2(t.saveFolder(out.toStdString(), base.toStdString(), "# card\n", &error), error.c_str());
        const nlohmann::json config = readJson(out + "/config.json");
        QCOMPARE(config["architectures"], nlohmann::json::array({"MarkupLMForTokenClassification"}));
        QCOMPARE(config["id2label"]["2"].get<std::string>(), kLabels[2]);
        const TensorMap saved = readSafetensors((out + "/model.safetensors").toStdString());
        const TensorMap original = readSafetensors((fixture() + "/model.safetensors").toStdString());
        QVERIFY(saved.count(kUnitSeq2));
        QVERIFY(saved.at(kUnitSeq2).bytes == original.at(kUnitSeq2).bytes);
        QCOMPARE(saved.at("classifier.weight").shape, (std::vector<std::int64_t>{3, 32}));
        for (const auto &kv : original)
            if (kv.first.rfind("classifier.", 0) != 0)
                QVERIFY2(saved.count(kv.first), kv.first.c_str()); // every tensor of the reference's kept

        TensorMap in = batch();
        in.erase("labels");
        const RunResult mem = t.forward(in);
        QVERIFY2(mem.ok, mem.error.c_str());
        ModelRunner runner;
        QVERIFY2(runner.load(out.toStdString(), &error), error.c_str());
        const RunResult disk = runner.run(in);
        QVERIFY2(disk.ok, disk.error.c_str());
        const auto diff = compareTensors(disk.outputs.at("logits"), mem.outputs.at("logits"), 1e-6, 1e-6);
        QVERIFY2(diff.ok, diff.message.c_str());
        // Loaded again: the head is kept, the carried tensor stays fixed.
        HfFineTuner again;
        QVERIFY2(again.load(out.toStdString(), &error), error.c_str());
        QCOMPARE(again.labels(), kLabels);
        const std::vector<std::string> fixed = again.frozenParameters();
        QVERIFY(std::find(fixed.begin(), fixed.end(), kUnitSeq2) != fixed.end());
    }

    void dropoutOnlyInsideAStep()
    {
        QTemporaryDir tmp;
        makeFolder(tmp.path() + "/drop", 0.3);
        makeFolder(tmp.path() + "/none", 0.0);
        HfFineTuner a = loaded(tmp.path() + "/drop", 0.0), b = loaded(tmp.path() + "/drop", 0.0),
                    c = loaded(tmp.path() + "/drop", 0.0, 7), d = loaded(tmp.path() + "/none", 0.0);
        const TensorMap in = batch();
        const double la = a.step(in).loss, lb = b.step(in).loss, lc = c.step(in).loss, ld = d.step(in).loss;
        QCOMPARE(la, lb);      // the same seed draws the same masks
        QVERIFY(la != lc);     // another seed others
        QVERIFY(la != ld);     // and dropout changes the loss
        TensorMap plain = in;
        plain.erase("labels");
        const auto diff = compareTensors(a.forward(plain).outputs.at("logits"), d.forward(plain).outputs.at("logits"), 0, 0);
        QVERIFY2(diff.ok, diff.message.c_str()); // outside a step nothing is dropped
    }
};

FOLIO_TEST_GUILESS_MAIN(TestHfFineTuneMarkupLM)
#include "tst_hffinetune_markuplm.moc"
