// Parity with the reference implementations: every case directory under FOLIO_PARITY_DIR
// (default ../shared/fixtures/parity). A directory with a config.json `model_type` is a model
// case (inputs.safetensors -> outputs.safetensors, `debug.*` skipped); a directory whose outputs
// hold `hier2index` is a HIBRIDS index case.
#include "inference/layers/buckets.h"
#include "inference/layers/hibrids.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/models/modelrunner.h"
#include "inference/checkpoint/safetensors.h"
#include "tensorcompare.h"

#include <QDir>
#include <QFileInfo>
#include <QtTest>

using namespace folio::inference;
using folio::inference::test::compareTensors;

namespace {

QString parityRoot()
{
    const QByteArray env = qgetenv("FOLIO_PARITY_DIR");
    return env.isEmpty() ? QStringLiteral(FOLIO_SHARED_DIR "/fixtures/parity") : QString::fromLocal8Bit(env);
}

std::vector<std::int64_t> int64s(const Tensor &t)
{
    std::vector<std::int64_t> v(static_cast<std::size_t>(t.numel()));
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<std::int64_t>(folio::inference::test::valueAt(t, static_cast<std::int64_t>(i)));
    return v;
}

bool isFloat(const Tensor &t)
{
    return t.dtype == DType::F32 || t.dtype == DType::F64;
}

} // namespace

class TestParity : public QObject
{
    Q_OBJECT

private:
    void checkOne(const QString &caseName, const std::string &name, const Tensor &actual, const Tensor &expected,
                  double atol, double rtol, bool *allOk)
    {
        const auto d = compareTensors(actual, expected, atol, rtol);
        qInfo("%s: %-32s max|diff| %.3g %s", qPrintable(caseName), name.c_str(), d.maxAbs, d.ok ? "ok" : "FAIL");
        if (!d.ok) {
            qWarning("%s: %s: %s", qPrintable(caseName), name.c_str(), d.message.c_str());
            *allOk = false;
        }
    }

    void runModelCase(const QString &dir)
    {
        const QString caseName = QFileInfo(dir).fileName();
        configureThreads();
        ModelRunner runner;
        std::string error;
        QVERIFY2(runner.load(dir.toStdString(), &error), error.c_str());
        const TensorMap inputs = readSafetensors((dir + "/inputs.safetensors").toStdString());
        const TensorMap expected = readSafetensors((dir + "/outputs.safetensors").toStdString());
        RunOptions options;
        options.trace = true;
        const RunResult result = runner.run(inputs, options);
        QVERIFY2(result.ok, result.error.c_str());
        bool ok = true;
        int checked = 0;
        for (const auto &[name, want] : expected) {
            if (name.rfind("debug.", 0) == 0)
                continue;
            auto it = result.outputs.find(name);
            QVERIFY2(it != result.outputs.end(), ("output '" + name + "' not produced").c_str());
            checkOne(caseName, name, it->second, want, 1e-5, 1e-4, &ok);
            ++checked;
        }
        QVERIFY(checked > 0);
        QVERIFY2(ok, "outputs differ from the reference beyond atol 1e-5 / rtol 1e-4");
    }

    void runHibridsCase(const QString &dir)
    {
        const QString caseName = QFileInfo(dir).fileName();
        const TensorMap in = readSafetensors((dir + "/inputs.safetensors").toStdString());
        const TensorMap out = readSafetensors((dir + "/outputs.safetensors").toStdString());
        const TensorMap model = readSafetensors((dir + "/model.safetensors").toStdString());
        const ModelConfig config = ModelConfig::fromDirectory(dir.toStdString());
        const int heads = static_cast<int>(config.getInt("num_heads", 16));
        bool ok = true;

        // The 419-entry (PathLen, LvlDiff) order.
        const auto &h2i = hibridsHier2Index();
        std::vector<std::int64_t> flat;
        for (const auto &p : h2i) {
            flat.push_back(p.first);
            flat.push_back(p.second);
        }
        checkOne(caseName, "hier2index", Tensor::fromInt64({static_cast<std::int64_t>(h2i.size()), 2}, flat),
                 out.at("hier2index"), 0, 0, &ok);

        // Per tree: section table, token relations, encoder bias (exact).
        std::vector<HibridsLayout> layouts;
        for (int k = 0;; ++k) {
            const std::string p = "t" + std::to_string(k) + ".";
            if (!in.count(p + "section_parent"))
                break;
            HibridsLayout lay;
            lay.sectionParent = int64s(in.at(p + "section_parent"));
            lay.tokenToSection = int64s(in.at(p + "token_to_section"));
            hibridsPrepare(&lay);
            const auto s = static_cast<std::int64_t>(lay.sectionParent.size());
            std::vector<std::int64_t> sec(lay.sectionIndex.begin(), lay.sectionIndex.end());
            checkOne(caseName, p + "section_index", Tensor::fromInt64({s, s}, sec), out.at(p + "section_index"), 0, 0, &ok);
            const auto depths = hibridsSectionDepths(lay.sectionParent);
            checkOne(caseName, p + "section_depth",
                     Tensor::fromInt64({s}, std::vector<std::int64_t>(depths.begin(), depths.end())),
                     in.at(p + "section_depth"), 0, 0, &ok);
            const HibridsTokenRelations rel = hibridsTokenRelations(lay);
            checkOne(caseName, p + "index", rel.index, out.at(p + "index"), 0, 0, &ok);
            checkOne(caseName, p + "pathlen", rel.pathLen, out.at(p + "pathlen"), 0, 0, &ok);
            checkOne(caseName, p + "lvldiff", rel.lvlDiff, out.at(p + "lvldiff"), 0, 0, &ok);
            std::string error;
            const Tensor bias = hibridsEncoderBias(model.at("relative_hierarchical_bias.weight"), lay, {}, &error);
            QVERIFY2(error.empty(), error.c_str());
            checkOne(caseName, p + "bias", bias, out.at(p + "bias"), 0, 0, &ok);
            layouts.push_back(std::move(lay));
        }
        QVERIFY(!layouts.empty());

        // Decoder variant on the collated batch: padding belongs to the last (EOS) section.
        if (in.count("dec.hidden_states")) {
            const std::int64_t lmax = in.at("dec.encoder_hidden_states").shape[1];
            for (auto &lay : layouts)
                while (static_cast<std::int64_t>(lay.tokenToSection.size()) < lmax)
                    lay.tokenToSection.push_back(static_cast<std::int64_t>(lay.sectionParent.size()) - 1);
            HibridsDecoderWeights w;
            const std::string pre = "decoder_cross_attn.";
            w.qW = model.at(pre + "q_proj.weight"); w.qB = model.at(pre + "q_proj.bias");
            w.kW = model.at(pre + "k_proj.weight"); w.kB = model.at(pre + "k_proj.bias");
            w.vW = model.at(pre + "v_proj.weight"); w.vB = model.at(pre + "v_proj.bias");
            w.outW = model.at(pre + "out_proj.weight"); w.outB = model.at(pre + "out_proj.bias");
            w.beta = model.at(pre + "relative_hierarchical_bias.weight");
            w.heads = heads;
            const HibridsDecoderResult r = hibridsDecoderCrossAttention(
                w, in.at("dec.hidden_states"), in.at("dec.encoder_hidden_states"), in.at("dec.attention_mask_4d"),
                in.at("dec.previous_attn_weights"), layouts);
            QVERIFY2(r.error.empty(), r.error.c_str());
            checkOne(caseName, "dec.hier_bias", r.hierBias, out.at("dec.hier_bias"), 1e-5, 1e-4, &ok);
            checkOne(caseName, "dec.attn_weights", r.attnWeights, out.at("dec.attn_weights"), 1e-5, 1e-4, &ok);
            checkOne(caseName, "dec.attn_output", r.attnOutput, out.at("dec.attn_output"), 1e-5, 1e-4, &ok);
        }
        QVERIFY2(ok, "HIBRIDS outputs differ from the reference");
    }

private Q_SLOTS:
    void parity_data()
    {
        QTest::addColumn<QString>("dir");
        const QDir root(parityRoot());
        QVERIFY2(root.exists(), qPrintable("fixture root not found: " + root.absolutePath()));
        const auto entries = root.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        for (const QFileInfo &e : entries)
            if (QFileInfo::exists(e.filePath() + "/outputs.safetensors"))
                QTest::newRow(qPrintable(e.fileName())) << e.filePath();
    }

    void parity()
    {
        QFETCH(QString, dir);
        const ModelConfig config = ModelConfig::fromDirectory(dir.toStdString());
        if (!config.modelType().empty()) {
            runModelCase(dir);
            return;
        }
        SafetensorsFile outputs((dir + "/outputs.safetensors").toStdString());
        if (outputs.contains("hier2index")) {
            runHibridsCase(dir);
            return;
        }
        QFAIL("case format not recognised (no model_type, no hier2index)");
    }
};

QTEST_GUILESS_MAIN(TestParity)
#include "tst_parity.moc"
