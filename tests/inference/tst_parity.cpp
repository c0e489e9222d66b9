// Parity with the reference implementations: every case folder under the parity roots
// (folio::test::parityRoots(): $FOLIO_PARITY_DIR, one folder or several separated by ':', else
// <shared>/fixtures/parity and, when present, <shared>/fixtures/parity-next, parity-new and finetune). One data
// row per case, named "<root folder>/<case>". Each case's kind is recognised explicitly
// (paritycase.h classifyParityCase):
//  - a model case (config.json `model_type`; inputs.safetensors -> outputs.safetensors, `debug.*`
//    not compared; integer outputs must be equal);
//  - a HIBRIDS index case (outputs hold `hier2index`);
//  - a LayoutLMv3 tokenizer case (cases.json + tokenizer/ of a LayoutLMv3 tokenizer class) and a
//    Hugging Face token-classification pipeline case (documents.json + checkpoint/), checked by
//    layoutlmv3cases.h;
//  - a fine-tuning case (train.json: the Hugging Face Trainer's recorded steps), finetunecases.h.
// In a lenient root (folder name ending in "-next" or "-new": cases for models being built now), a
// case Folio cannot run (unknown kind, model type not built, a checkpoint part not built: see
// parityCaseUnsupported) is skipped by name; everywhere else it fails. Zero cases found fails;
// missing default fixtures skip (fail when CI=true); a $FOLIO_PARITY_DIR folder that does not exist fails.
#include "inference/layers/buckets.h"
#include "inference/layers/hibrids.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/models/modelrunner.h"
#include "inference/checkpoint/safetensors.h"
#include "finetunecases.h"
#include "layoutlmv3cases.h"
#include "markuplmcases.h"
#include "paritycase.h"
#include "tensorcompare.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace folio::inference;
using folio::inference::test::compareTensors;

namespace {

struct ParityCase
{
    QString name; // "<root folder>/<case folder>"
    QString dir;
    bool lenient = false; // from a "-next" / "-new" root: cases Folio cannot run yet are skipped
};

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
            const bool exact = !isFloat(want); // token ids, decoded sequences
            checkOne(caseName, name, it->second, want, exact ? 0 : 1e-5, exact ? 0 : 1e-4, &ok);
            ++checked;
        }
        QVERIFY(checked > 0);
        // The untraced forward takes the inference paths (LiLT's BiACM scores in one buffer, the
        // softmax in place): its outputs against the same reference values.
        const RunResult plain = runner.run(inputs);
        QVERIFY2(plain.ok, plain.error.c_str());
        int plainChecked = 0;
        for (const auto &[name, got] : plain.outputs) {
            const auto want = expected.find(name);
            if (want == expected.end())
                continue;
            const bool exact = !isFloat(want->second);
            checkOne(caseName, "untraced " + name, got, want->second, exact ? 0 : 1e-5, exact ? 0 : 1e-4, &ok);
            ++plainChecked;
        }
        QVERIFY(plainChecked > 0);
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

    // Empty when Folio can run the case; otherwise why not (the case is then skipped or failed).
    static QString unsupportedReason(const QString &dir)
    {
        using namespace folio::inference::test;
        return parityCaseUnsupported(dir, classifyParityCase(dir));
    }

    QList<ParityCase> m_cases;

private Q_SLOTS:
    void initTestCase()
    {
        const bool explicitRoots = !qEnvironmentVariableIsEmpty("FOLIO_PARITY_DIR");
        const QStringList roots = folio::test::parityRoots();
        if (!explicitRoots)
            FOLIO_REQUIRE_DATA(roots.first()); // fixtures/parity; fixtures/parity-next is read when present
        for (const QString &root : roots) {
            const QDir dir(root);
            if (!dir.exists()) {
                QVERIFY2(!explicitRoots, qPrintable("FOLIO_PARITY_DIR names a folder that does not exist: " + root));
                qInfo("parity root %s not present: not read", qPrintable(root));
                continue;
            }
            const QString rootName = QFileInfo(dir.absolutePath()).fileName();
            const bool lenient = rootName.endsWith(QLatin1String("-next")) || rootName.endsWith(QLatin1String("-new"));
            for (const QFileInfo &e : dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
                m_cases.append({rootName + QLatin1Char('/') + e.fileName(), e.filePath(), lenient});
        }
        QVERIFY2(!m_cases.isEmpty(), qPrintable("no parity cases (case folders) under " + roots.join(QLatin1String(", "))));
        qInfo("%d parity cases under %s", int(m_cases.size()), qPrintable(roots.join(QLatin1String(", "))));
    }

    void parity_data()
    {
        QTest::addColumn<QString>("dir");
        QTest::addColumn<bool>("lenient");
        for (const ParityCase &c : m_cases)
            QTest::newRow(qPrintable(c.name)) << c.dir << c.lenient;
    }

    void parity()
    {
        QFETCH(QString, dir);
        QFETCH(bool, lenient);
        using namespace folio::inference::test;
        const ParityCaseInfo info = classifyParityCase(dir);
        const QString notYet = parityCaseUnsupported(dir, info);
        if (!notYet.isEmpty()) {
            if (lenient)
                FOLIO_SKIP_CASE(qPrintable(QFileInfo(dir).fileName() + ": " + notYet));
            QFAIL(qPrintable(QFileInfo(dir).fileName() + ": " + notYet));
        }
        switch (info.kind) {
        case ParityCaseKind::Model:
            if (info.modelType == "markuplm") { // noxpath.* outputs come from a second run (markuplmcases.h)
                checkMarkupLMModelCase(dir);
                return;
            }
            runModelCase(dir);
            return;
        case ParityCaseKind::LayoutLMv3Tokenizer:
            checkLayoutLMv3TokenizerCase(dir);
            return;
        case ParityCaseKind::MarkupLMTokenizer:
            checkMarkupLMTokenizerCase(dir);
            return;
        case ParityCaseKind::TokenClassifierPipeline:
            checkLayoutLMv3PipelineCase(dir);
            return;
        case ParityCaseKind::Hibrids:
            runHibridsCase(dir);
            return;
        case ParityCaseKind::FineTune:
            checkFineTuneCase(dir);
            return;
        case ParityCaseKind::Unknown:
            break;
        }
        QFAIL(qPrintable(dir + ": case format not recognised (" + info.description + ")"));
    }

    // The helper that finds the cases: parityRoots() follows $FOLIO_PARITY_DIR, and the reasons
    // for not running a case are given (only unbuilt model types remain).
    void parityRootsFollowTheEnvironment()
    {
        const QByteArray saved = qgetenv("FOLIO_PARITY_DIR");
        qputenv("FOLIO_PARITY_DIR", "/a/one:/b/two/");
        const QStringList roots = folio::test::parityRoots();
        if (saved.isEmpty())
            qunsetenv("FOLIO_PARITY_DIR");
        else
            qputenv("FOLIO_PARITY_DIR", saved);
        QCOMPARE(roots, QStringList({QStringLiteral("/a/one"), QStringLiteral("/b/two")}));
        if (saved.isEmpty()) {
            const QStringList defaults = folio::test::parityRoots();
            QCOMPARE(defaults.size(), 4);
            QVERIFY(defaults[0].endsWith(QLatin1String("/fixtures/parity")));
            QVERIFY(defaults[1].endsWith(QLatin1String("/fixtures/parity-next")));
            QVERIFY(defaults[2].endsWith(QLatin1String("/fixtures/parity-new")));
            QVERIFY(defaults[3].endsWith(QLatin1String("/fixtures/finetune")));
        }
    }

    void unsupportedCasesAreNamed()
    {
        using namespace folio::inference::test;
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QDir d(tmp.path());
        QVERIFY(d.mkpath(QStringLiteral("model")) && d.mkpath(QStringLiteral("tok/tokenizer"))
                && d.mkpath(QStringLiteral("pipe/checkpoint")) && d.mkpath(QStringLiteral("odd")));
        auto write = [](const QString &path, const QByteArray &text) {
            QFile f(path);
            return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
        };
        auto path = [&d](const char *p) { return d.filePath(QLatin1String(p)); };
        QVERIFY(write(path("model/config.json"), "{\"model_type\": \"no-such-model\"}"));
        QVERIFY(write(path("tok/cases.json"), "{}"));
        QVERIFY(write(path("tok/tokenizer/tokenizer_config.json"), "{\"tokenizer_class\": \"LayoutLMv3Tokenizer\"}"));
        QVERIFY(write(path("pipe/documents.json"), "[]"));
        QVERIFY(write(path("pipe/checkpoint/config.json"), "{\"model_type\": \"layoutlmv3\"}"));
        QVERIFY(write(path("odd/notes.txt"), "?"));
        QVERIFY(unsupportedReason(path("model")).contains(QLatin1String("'no-such-model'")));
        // Tokenizer and pipeline cases have runners (layoutlmv3cases.h).
        QVERIFY(classifyParityCase(path("tok")).kind == ParityCaseKind::LayoutLMv3Tokenizer);
        QCOMPARE(unsupportedReason(path("tok")), QString());
        QVERIFY(classifyParityCase(path("pipe")).kind == ParityCaseKind::TokenClassifierPipeline);
        QCOMPARE(unsupportedReason(path("pipe")), QString());
        QVERIFY(write(path("model/config.json"), "{\"model_type\": \"layoutlmv3\"}"));
        QCOMPARE(unsupportedReason(path("model")), QString());
        QVERIFY(write(path("model/config.json"), "{\"model_type\": \"lilt\"}"));
        QCOMPARE(unsupportedReason(path("model")), QString());
        // cases.json + tokenizer/ of MarkupLM's tokenizer is its own kind (markuplmcases.h), never run
        // as a LayoutLMv3 tokenizer case; another tokenizer class is an unknown kind, named.
        QVERIFY(write(path("tok/tokenizer/tokenizer_config.json"), "{\"tokenizer_class\": \"MarkupLMTokenizer\"}"));
        QVERIFY(classifyParityCase(path("tok")).kind == ParityCaseKind::MarkupLMTokenizer);
        QCOMPARE(unsupportedReason(path("tok")), QString());
        QVERIFY(write(path("tok/tokenizer/tokenizer_config.json"), "{\"tokenizer_class\": \"XLMRobertaTokenizer\"}"));
        QVERIFY(classifyParityCase(path("tok")).kind == ParityCaseKind::Unknown);
        QVERIFY(unsupportedReason(path("tok")).contains(QLatin1String("XLMRobertaTokenizer")));
        QVERIFY(QFile::remove(path("tok/tokenizer/tokenizer_config.json")));
        QVERIFY(unsupportedReason(path("tok")).contains(QLatin1String("not known")));
        QVERIFY(unsupportedReason(path("odd")).contains(QLatin1String("notes.txt")));
        // A pipeline of a model type HfTokenClassifier does not run.
        QVERIFY(write(path("pipe/checkpoint/config.json"), "{\"model_type\": \"no-such-model\"}"));
        QVERIFY(unsupportedReason(path("pipe")).contains(QLatin1String("'no-such-model'")));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestParity)
#include "tst_parity.moc"
