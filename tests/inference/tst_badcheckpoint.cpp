// Bad-checkpoint catalogue (issue 18): each row mutates one config.json key of a copy of a real
// fixture checkpoint (the weights are symlinked, never copied) and checks that loading fails
// quickly with a message naming config.json and the key, before anything of the lying size is
// allocated. Plus: non-finite weights and truncated weights are refused with the tensor / file
// named; the unmutated copies load (so a loader that refuses everything fails this test); peak RSS
// of the whole catalogue stays under 1 GB. And a LayoutLMv3 folder whose weights are a generated
// pytorch_model.bin (issue 36): the faithful file loads, hostile numbers in one tensor are refused
// naming the file and the tensor.
#include "inference/checkpoint/configcheck.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/errors.h"
#include "inference/formtagger/predictor.h"
#include "inference/models/modelrunner.h"
#include "tests/inference/torchbinwriter.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include <sys/resource.h>

using namespace folio::inference;

namespace {

QString fixture(const QString &name)
{
    if (name == "funsd-layout")
        return QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout");
    const QString shared = qEnvironmentVariableIsSet("FOLIO_SHARED_DIR") ? qEnvironmentVariable("FOLIO_SHARED_DIR")
                                                                        : QStringLiteral(FOLIO_SHARED_DIR);
    for (const char *root : {"/fixtures/parity/", "/fixtures/parity-next/"})
        if (QFileInfo::exists(shared + root + name + "/config.json"))
            return shared + root + name;
    return {};
}

// Copies `src` into `dst`: config.json as JSON (so rows can edit it), everything else symlinked.
nlohmann::json copyCheckpoint(const QString &src, const QString &dst)
{
    QDir().mkpath(dst);
    for (const QFileInfo &fi : QDir(src).entryInfoList(QDir::Files)) {
        if (fi.fileName() != "config.json")
            QFile::link(fi.absoluteFilePath(), dst + "/" + fi.fileName());
    }
    std::ifstream in((src + "/config.json").toStdString());
    return nlohmann::json::parse(in);
}

void writeJson(const QString &path, const nlohmann::json &j)
{
    std::ofstream out(path.toStdString());
    out << j.dump(2);
}

long peakRssKb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// Loads through the registry (ModelRunner: run/attention) and, for the tagger, through Predictor
// (predict/eval/Suggest Labels). Returns "" on success, else the error.
// Each path on its own: both must fail with the same kind of message.
std::string loadError(const QString &dir, bool tagger)
{
    std::string runnerError, predictorError;
    ModelRunner runner;
    if (!runner.load(dir.toStdString(), &runnerError) && runnerError.empty())
        runnerError = "(no message)";
    if (tagger) {
        Predictor predictor;
        if (!predictor.load(dir.toStdString(), &predictorError) && predictorError.empty())
            predictorError = "(no message)";
        if (runnerError.empty() != predictorError.empty())
            return "ModelRunner and Predictor disagree: '" + runnerError + "' vs '" + predictorError + "'";
        if (predictorError != runnerError) // kept apart so that the row's checks cannot pass on one of them
            return "messages differ (ModelRunner / Predictor)";
    }
    return runnerError;
}

} // namespace

class TestBadCheckpoint : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void unmutatedLoads_data()
    {
        QTest::addColumn<QString>("fixture");
        for (const char *f : {"layoutlmv3_tokcls", "layoutlmv2_encoder", "debertav2", "funsd-layout", "bart_seq2seq",
                              "hibrids_led_enc"})
            QTest::newRow(f) << QString(f);
    }
    void unmutatedLoads()
    {
        QFETCH(QString, fixture);
        const QString src = ::fixture(fixture);
        QVERIFY2(!src.isEmpty() && QFileInfo::exists(src), qPrintable("fixture missing: " + fixture));
        QTemporaryDir tmp;
        writeJson(tmp.path() + "/config.json", copyCheckpoint(src, tmp.path()));
        const std::string error = loadError(tmp.path(), fixture == "funsd-layout");
        QVERIFY2(error.empty(), error.c_str());
    }

    void badConfig_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value"); // JSON text; "-" removes the weights file (limits only)
        QTest::addColumn<QString>("expected");
        const auto row = [](const char *name, const char *fix, const char *key, const char *value, const char *expected) {
            QTest::newRow(name) << QString(fix) << QString(key) << QString(value) << QString(expected);
        };
        // LayoutLMv3
        row("v3 heads 0", "layoutlmv3_tokcls", "num_attention_heads", "0", "is 0; allowed 1..256");
        row("v3 heads 3 (no divisor)", "layoutlmv3_tokcls", "num_attention_heads", "3", "not a multiple");
        row("v3 heads string", "layoutlmv3_tokcls", "num_attention_heads", "\"four\"", "must be an integer");
        row("v3 heads 1.5", "layoutlmv3_tokcls", "num_attention_heads", "1.5", "must be an integer");
        row("v3 layers 1e6", "layoutlmv3_tokcls", "num_hidden_layers", "1000000", "allowed 1..256");
        row("v3 layers 3 vs 2 present", "layoutlmv3_tokcls", "num_hidden_layers", "3", "has 2 layer(s)");
        row("v3 layers -1", "layoutlmv3_tokcls", "num_hidden_layers", "-1", "allowed 1..256");
        row("v3 intermediate 1e5", "layoutlmv3_tokcls", "intermediate_size", "100000", "intermediate.dense.weight");
        row("v3 intermediate 2^40", "layoutlmv3_tokcls", "intermediate_size", "1099511627776", "allowed 1..131072");
        row("v3 hidden 16384", "layoutlmv3_tokcls", "hidden_size", "16384", "has shape");
        row("v3 hidden 1e9", "layoutlmv3_tokcls", "hidden_size", "1000000000", "allowed 1..16384");
        row("v3 vocab 999999", "layoutlmv3_tokcls", "vocab_size", "999999", "word_embeddings.weight");
        row("v3 vocab 1e12", "layoutlmv3_tokcls", "vocab_size", "1000000000000", "allowed 1..1000000");
        row("v3 positions 2^31", "layoutlmv3_tokcls", "max_position_embeddings", "2147483648", "allowed 1..1048576");
        row("v3 rel bins -1", "layoutlmv3_tokcls", "rel_pos_bins", "-1", "allowed 1..4096");
        row("v3 max rel 2^40", "layoutlmv3_tokcls", "max_rel_pos", "1099511627776", "allowed 1..1048576");
        row("v3 2d positions 70000", "layoutlmv3_tokcls", "max_2d_position_embeddings", "70000", "allowed 1..65536");
        row("v3 labels 0", "layoutlmv3_tokcls", "num_labels", "0", "allowed 1..65536");
        // LayoutLMv2 (spatial-aware encoder)
        row("v2 heads 0", "layoutlmv2_encoder", "num_attention_heads", "0", "is 0");
        row("v2 layers 1e6", "layoutlmv2_encoder", "num_hidden_layers", "1000000", "allowed 1..256");
        row("v2 rel bins 5000", "layoutlmv2_encoder", "rel_pos_bins", "5000", "allowed 1..4096");
        // DeBERTa-v2
        row("deberta heads 0", "debertav2", "num_attention_heads", "0", "is 0");
        row("deberta intermediate int max", "debertav2", "intermediate_size", "2147483647", "allowed 1..131072");
        row("deberta hidden 64 vs 32", "debertav2", "hidden_size", "64", "has shape");
        row("deberta buckets -5", "debertav2", "position_buckets", "-5", "allowed -1..65536");
        // folio-formtagger (run and predict)
        row("tagger heads 0", "funsd-layout", "num_attention_heads", "0", "is 0");
        row("tagger layers 1e6", "funsd-layout", "num_hidden_layers", "1000000", "allowed 1..256");
        row("tagger layers 8 vs 4", "funsd-layout", "num_hidden_layers", "8", "has 4 layer(s)");
        row("tagger intermediate 1e8", "funsd-layout", "intermediate_size", "100000000", "allowed 1..131072");
        row("tagger intermediate 4096", "funsd-layout", "intermediate_size", "4096", "has shape");
        row("tagger hidden 16384", "funsd-layout", "hidden_size", "16384", "has shape");
        row("tagger vocab 5000", "funsd-layout", "vocab_size", "5000", "word_embeddings.weight");
        row("tagger gap buckets 1e9", "funsd-layout", "gap_buckets", "1000000000", "allowed 1..4096");
        row("tagger max words 0", "funsd-layout", "max_words", "0", "allowed 1..1048576");
        // BART / LED
        row("bart heads 0", "bart_seq2seq", "encoder_attention_heads", "0", "is 0");
        row("bart dec heads 5", "bart_seq2seq", "decoder_attention_heads", "5", "not a multiple");
        row("bart dec layers 1e6", "bart_seq2seq", "decoder_layers", "1000000", "allowed 1..256");
        row("bart enc layers 3 vs 2", "bart_seq2seq", "encoder_layers", "3", "has 2 layer(s)");
        row("bart d_model 64 vs 32", "bart_seq2seq", "d_model", "64", "has shape");
        row("bart ffn 1e9", "bart_seq2seq", "encoder_ffn_dim", "1000000000", "allowed 1..131072");
        row("bart vocab 501", "bart_seq2seq", "vocab_size", "501", "shared.weight");
        row("led layers 1e6", "hibrids_led_enc", "encoder_layers", "1000000", "allowed 1..256");
        row("led enc positions 2^40", "hibrids_led_enc", "max_encoder_position_embeddings", "1099511627776",
            "allowed 1..1048576");
        // WebFormer (no shipped checkpoint: the config of a tagger copy relabelled; limits apply
        // before the weights are looked at)
        row("webformer heads 0", "funsd-layout", "model_type=webformer;num_attention_heads", "0", "is 0");
        row("webformer radius 0", "funsd-layout", "model_type=webformer;t2t_radius", "0", "allowed 1..4096");
    }
    void badConfig()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        const QString src = ::fixture(fixture);
        QVERIFY2(!src.isEmpty(), qPrintable("fixture missing: " + fixture));
        QTemporaryDir tmp;
        nlohmann::json config = copyCheckpoint(src, tmp.path());
        if (key.startsWith("model_type=")) {
            config["model_type"] = key.section(';', 0, 0).section('=', 1).toStdString();
            key = key.section(';', 1);
        }
        config[key.toStdString()] = nlohmann::json::parse(value.toStdString());
        writeJson(tmp.path() + "/config.json", config);

        const long rssBefore = peakRssKb();
        QElapsedTimer timer;
        timer.start();
        const std::string error = loadError(tmp.path(), config["model_type"] == "folio-formtagger");
        const qint64 ms = timer.elapsed();
        QVERIFY2(!error.empty(), "a lying config.json loaded");
        QVERIFY2(error.find("config.json") != std::string::npos, error.c_str());
        QVERIFY2(error.find("'" + key.toStdString() + "'") != std::string::npos, error.c_str());
        QVERIFY2(error.find(expected.toStdString()) != std::string::npos, error.c_str());
        QVERIFY2(ms < 5000, qPrintable(QString("took %1 ms").arg(ms)));
        // The lying size must not have been allocated: the peak grows by less than 256 MB.
        QVERIFY2(peakRssKb() - rssBefore < 256 * 1024, qPrintable(QString("peak RSS grew %1 kB").arg(peakRssKb() - rssBefore)));
    }

    void limitsOnlyWithoutWeights()
    {
        // No model.safetensors (e.g. a folder being written): the limits still hold.
        const ModelConfig config = ModelConfig::fromJson(nlohmann::json{{"model_type", "layoutlmv3"}, {"hidden_size", 0}});
        QVERIFY_EXCEPTION_THROWN(checkConfigSizes(config, {}, "model.safetensors"), InferenceError);
        const ModelConfig fine = ModelConfig::fromJson(nlohmann::json{{"hidden_size", 768}, {"num_attention_heads", 12}});
        checkConfigSizes(fine, {}, "model.safetensors");
        // A layer index past the config's count in a tensor name is caught without the model.
        const ModelConfig two = ModelConfig::fromJson(nlohmann::json{{"num_hidden_layers", 2}});
        QVERIFY_EXCEPTION_THROWN(checkConfigSizes(two, {{"x.encoder.layer.7.output.dense.bias", {4}}}, "w"), InferenceError);
        checkConfigSizes(two, {{"x.encoder.layer.1.output.dense.bias", {4}}}, "w");
    }

    void nonFiniteWeightsRefused_data()
    {
        QTest::addColumn<float>("bad");
        QTest::newRow("NaN") << std::numeric_limits<float>::quiet_NaN();
        QTest::newRow("+Inf") << std::numeric_limits<float>::infinity();
        QTest::newRow("-Inf") << -std::numeric_limits<float>::infinity();
    }
    void nonFiniteWeightsRefused()
    {
        QFETCH(float, bad);
        const QString src = ::fixture("layoutlmv3_tokcls");
        QVERIFY(!src.isEmpty());
        QTemporaryDir tmp;
        QFile::copy(src + "/config.json", tmp.path() + "/config.json");
        TensorMap weights = readSafetensors((src + "/model.safetensors").toStdString());
        const std::string victim = "classifier.weight";
        QVERIFY(weights.count(victim));
        Tensor &t = weights.at(victim);
        QCOMPARE(t.dtype, DType::F32);
        std::memcpy(t.bytes.data() + 4 * sizeof(float), &bad, sizeof(float));
        writeSafetensors((tmp.path() + "/model.safetensors").toStdString(), weights);
        const std::string error = loadError(tmp.path(), false);
        QVERIFY2(error.find("'" + victim + "'") != std::string::npos, error.c_str());
        QVERIFY2(error.find("1 of 224 values are NaN or Inf") != std::string::npos, error.c_str());
    }

    void truncatedWeightsRefused_data()
    {
        QTest::addColumn<double>("keep"); // fraction of the file kept
        QTest::newRow("half") << 0.5;
        QTest::newRow("all but one byte") << -1.0;
        QTest::newRow("4 bytes") << 0.0;
    }
    void truncatedWeightsRefused()
    {
        QFETCH(double, keep);
        const QString src = ::fixture("funsd-layout");
        QTemporaryDir tmp;
        writeJson(tmp.path() + "/config.json", copyCheckpoint(src, tmp.path()));
        QFile::remove(tmp.path() + "/model.safetensors");
        QFile in(src + "/model.safetensors");
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray bytes = in.readAll();
        const int size = keep < 0 ? bytes.size() - 1 : keep == 0 ? 4 : int(bytes.size() * keep);
        bytes.truncate(size);
        QFile out(tmp.path() + "/model.safetensors");
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes);
        out.close();
        for (bool tagger : {false, true}) {
            std::string error;
            bool ok = false;
            if (tagger) {
                Predictor p;
                ok = p.load(tmp.path().toStdString(), &error);
            } else {
                ModelRunner r;
                ok = r.load(tmp.path().toStdString(), &error);
            }
            QVERIFY(!ok);
            QVERIFY2(error.find("model.safetensors") != std::string::npos, error.c_str());
            QVERIFY2(error.find("past the end") != std::string::npos || error.find("too short") != std::string::npos,
                     error.c_str());
        }
    }

    void hostilePytorchBin_data()
    {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("expected"); // "" = loads
        QTest::newRow("faithful") << "" << "";
        QTest::newRow("bias offset 2^63-1 (read 4 bytes before the buffer, exit 0)") << "offset"
                                                                                      << "tensor 'classifier.bias': offset 9223372036854775807 + extent 6 reaches past its storage '";
        QTest::newRow("bias 32768 x 32768 stride 0 (4.2 GB)") << "broadcast" << "tensor 'classifier.bias' (4294967296 bytes) takes";
        QTest::newRow("bias storage 2^62 floats") << "storage" << "tensor 'classifier.bias': storage '";
    }
    void hostilePytorchBin()
    {
        QFETCH(QString, edit);
        QFETCH(QString, expected);
        const QString src = ::fixture("layoutlmv3_tokcls");
        QVERIFY2(!src.isEmpty(), "fixture missing: layoutlmv3_tokcls");
        QTemporaryDir tmp;
        writeJson(tmp.path() + "/config.json", copyCheckpoint(src, tmp.path()));
        QVERIFY(QFile::remove(tmp.path() + "/model.safetensors"));
        const TensorMap weights = readSafetensors((src + "/model.safetensors").toStdString());
        const std::string bin = folio::test::torchBinOf(weights, [&](const std::string &name, folio::test::BinTensor &t) {
            if (name != "classifier.bias")
                return;
            if (edit == "offset")
                t.offset = std::numeric_limits<std::int64_t>::max();
            if (edit == "broadcast") {
                t.size = {32768, 32768};
                t.stride = {0, 0};
            }
            if (edit == "storage")
                t.storageNumel = std::int64_t(1) << 62;
        });
        const std::string path = (tmp.path() + "/pytorch_model.bin").toStdString();
        QVERIFY(folio::test::writeBinary(path, bin));
        const long rssBefore = peakRssKb();
        const std::string error = loadError(tmp.path(), false);
        if (expected.isEmpty()) {
            QVERIFY2(error.empty(), error.c_str());
            return;
        }
        QVERIFY2(error.find(path + " (archive/data.pkl): ") != std::string::npos, error.c_str());
        QVERIFY2(error.find(expected.toStdString()) != std::string::npos, error.c_str());
        QVERIFY2(peakRssKb() - rssBefore < 256 * 1024, qPrintable(QString("peak RSS grew %1 kB").arg(peakRssKb() - rssBefore)));
    }

    void peakMemoryBounded()
    {
        // The whole catalogue above (huge sizes included) ran in this process.
        const long kb = peakRssKb();
        qInfo("peak RSS of the catalogue: %ld MB", kb / 1024);
        QVERIFY2(kb < 1024 * 1024, qPrintable(QString("peak RSS %1 MB").arg(kb / 1024)));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestBadCheckpoint)
#include "tst_badcheckpoint.moc"
