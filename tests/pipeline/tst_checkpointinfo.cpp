// pipeline::describeCheckpoint (issue 32: `folio-cli info --checkpoint DIR`): every shipped model
// folder is runnable with its task; the parity fixtures' folders are recognised; bad folders are
// refused with a named problem; and no weight is read (a weights file of 1 GiB declared, sparse
// and garbage past its header, describes without the process's memory growing).
#include "tests/common/testdata.h"
#include "tests/app/clirunner.h"

#include "inference/checkpoint/safetensors.h"
#include "pipeline/checkpointinfo.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <sys/resource.h>

using folio::pipeline::describeCheckpoint;
using nlohmann::json;

namespace {

const QString kModels = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models");
const QString kBpe = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizers/bpe");

std::string problemsText(const json &info)
{
    std::string s;
    for (const auto &p : info["problems"])
        s += p.get<std::string>() + " | ";
    return s;
}

bool hasProblem(const json &info, const std::string &part)
{
    for (const auto &p : info["problems"])
        if (p.get<std::string>().find(part) != std::string::npos)
            return true;
    return false;
}

bool hasProblem(const json &info, const std::string &part1, const std::string &part2)
{
    for (const auto &p : info["problems"]) {
        const std::string s = p.get<std::string>();
        if (s.find(part1) != std::string::npos && s.find(part2) != std::string::npos)
            return true;
    }
    return false;
}

bool contains(const json &info, const char *key, const std::string &part)
{
    return info[key].get<std::string>().find(part) != std::string::npos;
}

// A small LayoutLMv3 token classifier folder (config + weights header + BPE tokenizer) that
// passes every pre-load check; `extraTensor` adds a tensor of that many float32 rows x 1024 to
// the header without writing its bytes (the file is extended sparsely).
void writeTinyClassifier(const QString &dir, int hidden = 32, long long extraRows = 0)
{
    QDir().mkpath(dir);
    const json config = {{"model_type", "layoutlmv3"},
                         {"architectures", {"LayoutLMv3ForTokenClassification"}},
                         {"hidden_size", 32},
                         {"num_attention_heads", 4},
                         {"num_hidden_layers", 1},
                         {"intermediate_size", 64},
                         {"vocab_size", 100},
                         {"max_position_embeddings", 66},
                         {"visual_embed", false},
                         {"id2label", {{"0", "O"}, {"1", "B-KEY"}, {"2", "B-VALUE"}}}};
    QFile c(dir + "/config.json");
    QVERIFY(c.open(QIODevice::WriteOnly));
    c.write(QByteArray::fromStdString(config.dump(2)));
    c.close();
    folio::inference::TensorMap tensors;
    tensors["layoutlmv3.embeddings.word_embeddings.weight"] =
        folio::inference::Tensor::zeros(folio::inference::DType::F32, {100, hidden});
    tensors["layoutlmv3.encoder.layer.0.attention.output.dense.weight"] =
        folio::inference::Tensor::zeros(folio::inference::DType::F32, {hidden, hidden});
    tensors["classifier.weight"] = folio::inference::Tensor::zeros(folio::inference::DType::F32, {3, 32});
    folio::inference::writeSafetensors((dir + "/model.safetensors").toStdString(), tensors);
    if (extraRows > 0) {
        // Rewrite the header with one more tensor placed past the written data, then extend.
        QFile f(dir + "/model.safetensors");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        f.close();
        quint64 n = 0;
        for (int i = 7; i >= 0; --i)
            n = (n << 8) | quint8(bytes[i]);
        json header = json::parse(bytes.mid(8, int(n)).toStdString());
        const QByteArray data = bytes.mid(8 + int(n));
        const unsigned long long extraBytes = (unsigned long long)extraRows * 1024 * 4;
        header["extra.weight"] = {{"dtype", "F32"}, {"shape", {extraRows, 1024}}, {"data_offsets", {data.size(), data.size() + extraBytes}}};
        QByteArray text = QByteArray::fromStdString(header.dump());
        while (text.size() % 8)
            text.append(' ');
        QByteArray out(8, '\0');
        for (int i = 0; i < 8; ++i)
            out[i] = char((quint64(text.size()) >> (8 * i)) & 0xff);
        out += text + data;
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(out);
        QVERIFY(f.resize(out.size() + qint64(extraBytes))); // a hole: no bytes written
        // Garbage where the extra tensor's data lies (NaN patterns at its start, middle and end).
        for (qint64 at : {qint64(out.size()), qint64(out.size() + extraBytes / 2), qint64(out.size() + extraBytes - 64)}) {
            QVERIFY(f.seek(at));
            f.write(QByteArray(64, char(0xff)));
        }
        f.close();
    }
    for (const char *name : {"vocab.json", "merges.txt"})
        QVERIFY(QFile::copy(kBpe + "/" + name, dir + "/" + name));
}

long maxRssKb()
{
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

} // namespace

class TestCheckpointInfo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shippedModels_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("task");
        QTest::addColumn<QString>("cli");
        QTest::addColumn<int>("labels");
        QTest::newRow("funsd-layout") << "funsd-layout" << "entity tagging" << "folio-cli predict" << 7;
        QTest::newRow("funsd-layout-reading") << "funsd-layout-reading" << "entity tagging" << "folio-cli predict" << 7;
        QTest::newRow("product-fields") << "product-fields" << "web fields" << "folio-cli extract" << 5;
        QTest::newRow("qmsum-qs") << "qmsum-qs" << "question-summary generation" << "folio-cli qs generate" << -1;
        QTest::newRow("qs-drafter") << "qs-drafter" << "question-summary drafting" << "folio-cli qs generate" << 0;
    }
    void shippedModels()
    {
        QFETCH(QString, name);
        QFETCH(QString, task);
        QFETCH(QString, cli);
        QFETCH(int, labels);
        const json info = describeCheckpoint(kModels + "/" + name);
        QVERIFY2(info["runnable"].get<bool>(), problemsText(info).c_str());
        QVERIFY(info["problems"].empty());
        QVERIFY2(contains(info, "task", task.toStdString()), info["task"].get<std::string>().c_str());
        QVERIFY(contains(info, "cli", cli.toStdString()));
        QVERIFY(!info["gui"].get<std::string>().empty());
        if (labels >= 0)
            QCOMPARE(info["labels"]["count"].get<int>(), labels);
        QVERIFY2(info.contains("licence"), "RECIPE.md's licence paragraph is reported");
        if (name != "qs-drafter") {
            QCOMPARE(info["files"]["weights"]["file"].get<std::string>(), std::string("model.safetensors"));
            QVERIFY(info["files"]["weights"]["parameters"].get<long long>() > 100000);
            QVERIFY(info["files"]["weights"]["bytes"].get<long long>() > 0);
            QVERIFY(!info["files"]["tokenizer"].empty());
            if (name != "qmsum-qs") // its folio.json records the run, not the data: RECIPE.md does
                QVERIFY(info.contains("data"));
        }
        if (name.startsWith("funsd")) {
            QCOMPARE(info["labels"]["names"][1].get<std::string>(), std::string("B-HEADER"));
            QVERIFY(contains(info, "licence", "non-commercial"));
        }
    }

    // Every folder under resources/models, including ones shipped after this test was written.
    void everyShippedFolderRuns()
    {
        const QStringList folders = QDir(kModels).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QVERIFY(folders.size() >= 5);
        for (const QString &name : folders) {
            const json info = describeCheckpoint(kModels + "/" + name);
            QVERIFY2(info["runnable"].get<bool>(), (name.toStdString() + ": " + problemsText(info)).c_str());
            QVERIFY2(!info["task"].get<std::string>().empty(), qPrintable(name));
            QVERIFY2(!info["cli"].get<std::string>().empty(), qPrintable(name));
            if (name == "qs-questions")
                QVERIFY2(contains(info, "cli", "--question-model"), info["cli"].get<std::string>().c_str());
        }
    }

    void parityFolders_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("modelType");
        QTest::addColumn<QString>("head");
        QTest::addColumn<QString>("task");
        QTest::addColumn<bool>("runnable");
        QTest::addColumn<QString>("problem"); // a part of one problem when not runnable
        QTest::newRow("layoutlmv3_pipeline") << "parity-next/layoutlmv3_pipeline/checkpoint" << "layoutlmv3"
                                             << "token-classification" << "entity tagging" << true << "";
        QTest::newRow("layoutlmv3_tokcls") << "parity/layoutlmv3_tokcls" << "layoutlmv3" << "token-classification"
                                           << "entity tagging" << false << "vocab.json";
        QTest::newRow("layoutlmv3_visual") << "parity/layoutlmv3_visual" << "layoutlmv3" << "encoder" << "entity tagging"
                                           << false << "no token-classification head";
        QTest::newRow("lilt_tokcls") << "parity-new/lilt_tokcls" << "lilt" << "token-classification" << "entity tagging"
                                     << false << "vocab.json";
        QTest::newRow("markuplm_tokcls") << "parity-new/markuplm_tokcls" << "markuplm" << "token-classification"
                                         << "node labelling" << false << "vocab.json";
        QTest::newRow("layoutlmv2_encoder") << "parity/layoutlmv2_encoder" << "layoutlmv2" << "encoder" << "" << false
                                            << "layoutlmv2";
        QTest::newRow("layoutlmv2_visual") << "parity-new/layoutlmv2_visual" << "layoutlmv2" << "encoder" << "" << false
                                           << "layoutlmv2";
        QTest::newRow("debertav2") << "parity/debertav2" << "deberta-v2" << "encoder" << "" << false << "deberta-v2";
        QTest::newRow("bart_seq2seq") << "parity-next/bart_seq2seq" << "bart" << "seq2seq"
                                      << "question-summary generation (BART)" << false << "tokenizer";
        QTest::newRow("hibrids_led_enc") << "parity-next/hibrids_led_enc" << "led" << "seq2seq"
                                         << "LED, HIBRIDS encoder bias" << false << "tokenizer";
        QTest::newRow("hibrids_led_dec") << "parity-next/hibrids_led_dec" << "led" << "seq2seq"
                                         << "LED, HIBRIDS decoder bias" << false << "tokenizer";
        QTest::newRow("hibrids_index") << "parity/hibrids_index" << "" << "" << "" << false << "no model_type";
    }
    void parityFolders()
    {
        QFETCH(QString, folder);
        QFETCH(QString, modelType);
        QFETCH(QString, head);
        QFETCH(QString, task);
        QFETCH(bool, runnable);
        QFETCH(QString, problem);
        const QString path = folio::test::sharedPath("fixtures/" + folder);
        FOLIO_REQUIRE_DATA(path + "/config.json");
        const json info = describeCheckpoint(path);
        QCOMPARE(QString::fromStdString(info["model_type"].get<std::string>()), modelType);
        QCOMPARE(QString::fromStdString(info["head"].get<std::string>()), head);
        QVERIFY2(contains(info, "task", task.toStdString()), info["task"].get<std::string>().c_str());
        QCOMPARE(info["runnable"].get<bool>(), runnable);
        if (!runnable)
            QVERIFY2(hasProblem(info, problem.toStdString()), problemsText(info).c_str());
        else
            QVERIFY2(info["problems"].empty(), problemsText(info).c_str());
        QVERIFY(info["files"]["weights"]["parameters"].get<long long>() > 0);
    }

    // The MarkupLM case with the tokenizer its README names: every pre-load check passes (model,
    // head, labels, tags_dict, max_depth), and it runs in Folio: Choose Field Extractor, predict, extract.
    void markupLmWithTokenizer()
    {
        const QString model = folio::test::sharedPath("fixtures/parity-new/markuplm_tokcls");
        const QString tokenizer = folio::test::sharedPath("fixtures/parity-new/markuplm_tokenizer/tokenizer");
        FOLIO_REQUIRE_DATA(model + "/model.safetensors");
        FOLIO_REQUIRE_DATA(tokenizer + "/tokenizer_config.json");
        QTemporaryDir tmp;
        for (const QString &f : {QStringLiteral("config.json"), QStringLiteral("model.safetensors")})
            QVERIFY(QFile::link(model + "/" + f, tmp.filePath(f)));
        for (const QString &f : QDir(tokenizer).entryList(QDir::Files))
            QVERIFY(QFile::copy(tokenizer + "/" + f, tmp.filePath(f)));
        const json info = describeCheckpoint(tmp.path());
        QCOMPARE(info["head"].get<std::string>(), std::string("token-classification"));
        QCOMPARE(info["labels"]["count"].get<int>(), 5);
        QVERIFY2(info["problems"].empty(), problemsText(info).c_str());
        QVERIFY(info["runnable"].get<bool>());
        QVERIFY2(contains(info, "gui", "Choose Field Extractor"), info["gui"].dump().c_str());
        QVERIFY2(contains(info, "cli", "folio-cli predict --checkpoint DIR"), info["cli"].dump().c_str());
    }

    void goodTinyFolder()
    {
        QTemporaryDir tmp;
        writeTinyClassifier(tmp.path());
        const json info = describeCheckpoint(tmp.path());
        QVERIFY2(info["runnable"].get<bool>(), problemsText(info).c_str());
        QCOMPARE(info["labels"]["count"].get<int>(), 3);
        QCOMPARE(info["files"]["weights"]["parameters"].get<long long>(), 100LL * 32 + 32 * 32 + 3 * 32);
        QCOMPARE(info["architectures"][0].get<std::string>(), std::string("LayoutLMv3ForTokenClassification"));
    }

    void badFolders()
    {
        QTemporaryDir tmp;
        // Not a folder.
        {
            const json info = describeCheckpoint(tmp.path() + "/absent");
            QVERIFY(!info["runnable"].get<bool>());
            QVERIFY(hasProblem(info, "absent", "no such folder"));
        }
        // Missing config.json.
        {
            const QString dir = tmp.path() + "/noconfig";
            writeTinyClassifier(dir);
            QVERIFY(QFile::remove(dir + "/config.json"));
            const json info = describeCheckpoint(dir);
            QVERIFY(!info["runnable"].get<bool>());
            QVERIFY2(hasProblem(info, "config.json", "missing"), problemsText(info).c_str());
        }
        // Unknown model_type.
        {
            const QString dir = tmp.path() + "/unknown";
            writeTinyClassifier(dir);
            QFile c(dir + "/config.json");
            QVERIFY(c.open(QIODevice::ReadOnly));
            json config = json::parse(c.readAll().toStdString());
            c.close();
            config["model_type"] = "gpt9";
            QVERIFY(c.open(QIODevice::WriteOnly | QIODevice::Truncate));
            c.write(QByteArray::fromStdString(config.dump()));
            c.close();
            const json info = describeCheckpoint(dir);
            QVERIFY(!info["runnable"].get<bool>());
            QVERIFY2(hasProblem(info, "config.json", "unknown model_type \"gpt9\""), problemsText(info).c_str());
        }
        // Tokenizer missing.
        {
            const QString dir = tmp.path() + "/notokenizer";
            writeTinyClassifier(dir);
            QVERIFY(QFile::remove(dir + "/vocab.json"));
            QVERIFY(QFile::remove(dir + "/merges.txt"));
            const json info = describeCheckpoint(dir);
            QVERIFY(!info["runnable"].get<bool>());
            QVERIFY2(hasProblem(info, "vocab.json"), problemsText(info).c_str());
        }
        // Truncated safetensors (its header runs past the end of the file).
        {
            const QString dir = tmp.path() + "/truncated";
            writeTinyClassifier(dir);
            QFile f(dir + "/model.safetensors");
            QVERIFY(f.resize(40));
            const json info = describeCheckpoint(dir);
            QVERIFY(!info["runnable"].get<bool>());
            QVERIFY2(hasProblem(info, "model.safetensors", "runs past the end"), problemsText(info).c_str());
        }
        // config.json's width disagrees with the weights header.
        {
            const QString dir = tmp.path() + "/width";
            writeTinyClassifier(dir, 48);
            const json info = describeCheckpoint(dir);
            QVERIFY(!info["runnable"].get<bool>());
            QVERIFY2(hasProblem(info, "'hidden_size' is 32", "model.safetensors"), problemsText(info).c_str());
        }
        // A bare pickle as weights (torch.save's legacy format).
        {
            const QString dir = tmp.path() + "/pickle";
            writeTinyClassifier(dir);
            QVERIFY(QFile::remove(dir + "/model.safetensors"));
            QFile bin(dir + "/pytorch_model.bin");
            QVERIFY(bin.open(QIODevice::WriteOnly));
            bin.write(QByteArray("\x80\x02}q\x00.", 6));
            bin.close();
            const json info = describeCheckpoint(dir);
            QVERIFY(!info["runnable"].get<bool>());
            QCOMPARE(info["files"]["weights"]["format"].get<std::string>(), std::string("pickle"));
            QVERIFY2(hasProblem(info, "pytorch_model.bin", "pickle"), problemsText(info).c_str());
        }
        // A torch zip archive as weights: named and left to the bounded reader at load time (not read here,
        // so zip garbage past its first bytes still describes).
        {
            const QString dir = tmp.path() + "/zipbin";
            writeTinyClassifier(dir);
            QVERIFY(QFile::remove(dir + "/model.safetensors"));
            QFile bin(dir + "/pytorch_model.bin");
            QVERIFY(bin.open(QIODevice::WriteOnly));
            bin.write(QByteArray("PK\x03\x04", 4) + QByteArray(4096, char(0xee)));
            bin.close();
            const json info = describeCheckpoint(dir);
            QVERIFY2(info["runnable"].get<bool>(), problemsText(info).c_str());
            QCOMPARE(info["files"]["weights"]["format"].get<std::string>(), std::string("torch-zip"));
            QCOMPARE(info["head"].get<std::string>(), std::string("token-classification")); // from architectures
        }
        // A size of the wrong type in config.json.
        {
            const QString dir = tmp.path() + "/stringsize";
            writeTinyClassifier(dir);
            QFile c(dir + "/config.json");
            QVERIFY(c.open(QIODevice::ReadOnly));
            json config = json::parse(c.readAll().toStdString());
            c.close();
            config["hidden_size"] = "32";
            QVERIFY(c.open(QIODevice::WriteOnly | QIODevice::Truncate));
            c.write(QByteArray::fromStdString(config.dump()));
            c.close();
            const json info = describeCheckpoint(dir);
            QVERIFY(!info["runnable"].get<bool>());
            QVERIFY2(hasProblem(info, "config.json", "'hidden_size' must be an integer"), problemsText(info).c_str());
        }
        // No weights at all.
        {
            const QString dir = tmp.path() + "/noweights";
            writeTinyClassifier(dir);
            QVERIFY(QFile::remove(dir + "/model.safetensors"));
            const json info = describeCheckpoint(dir);
            QVERIFY(!info["runnable"].get<bool>());
            QVERIFY2(hasProblem(info, "no weights file"), problemsText(info).c_str());
        }
        // A drafter.json that is not one.
        {
            const QString dir = tmp.path() + "/drafter";
            QVERIFY(QDir().mkpath(dir));
            folio::test::writeTestFile(tmp, "drafter/drafter.json", "{\"kind\": \"something else\"}");
            const json info = describeCheckpoint(dir);
            QVERIFY(!info["runnable"].get<bool>());
            QVERIFY2(hasProblem(info, "drafter.json"), problemsText(info).c_str());
        }
    }

    // 1 GiB of weights declared, the file a hole with garbage in it: described (runnable, the
    // parameters counted from the header) without the memory it would take to read them.
    void noWeightsRead()
    {
        QTemporaryDir tmp;
        const long long rows = 262144; // x 1024 float32 = 1 GiB
        writeTinyClassifier(tmp.path(), 32, rows);
        const long before = maxRssKb();
        const json info = describeCheckpoint(tmp.path());
        const long grewKb = maxRssKb() - before;
        QVERIFY2(info["runnable"].get<bool>(), problemsText(info).c_str());
        QCOMPARE(info["files"]["weights"]["parameters"].get<long long>(), 100LL * 32 + 32 * 32 + 3 * 32 + rows * 1024);
        QVERIFY(info["files"]["weights"]["bytes"].get<long long>() > (1LL << 30));
        QVERIFY2(grewKb < 64 * 1024, qPrintable(QStringLiteral("peak memory grew by %1 KiB").arg(grewKb)));
    }

    // folio-cli info --checkpoint: the JSON on stdout, exit 0 when runnable, 1 when not, 2 for usage.
    void cli()
    {
        using folio::test::runCli;
        const auto good = runCli({"info", "--checkpoint", kModels + "/funsd-layout-reading"});
        QCOMPARE(good.code, 0);
        QCOMPARE(good.json().value("runnable").toBool(), true);
        QCOMPARE(good.json().value("model_type").toString(), QStringLiteral("folio-formtagger"));
        QTemporaryDir tmp;
        writeTinyClassifier(tmp.path());
        QVERIFY(QFile::remove(tmp.path() + "/vocab.json"));
        const auto bad = runCli({"info", "--checkpoint", tmp.path()});
        QCOMPARE(bad.code, 1);
        QCOMPARE(bad.json().value("runnable").toBool(true), false);
        QVERIFY(bad.json().value("problems").toArray().size() >= 1);
        QVERIFY2(bad.err.contains("vocab.json"), bad.err.constData());
        QCOMPARE(runCli({"info", "--checkpoint"}).code, 2);
        const auto plain = runCli({"info"});
        QCOMPARE(plain.code, 0);
        QVERIFY(plain.json().contains("libtorch"));
        QVERIFY(!plain.json().contains("runnable"));
    }

    // Seq2seq folders as people have them (tests/data/seq2seq): pytorch_model.bin, a fairseq BART
    // checkpoint_best.pt without config.json (its args give one), HIBRIDS' release (hf_led under
    // hf_model., the Hugging Face config.json beside it), and `info --checkpoint FILE.pt`.
    void seq2seqCheckpoints()
    {
        const QString data = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/seq2seq/");
        const auto folder = [&](QTemporaryDir &tmp, const QString &name, bool tokenizer, bool config = true) {
            for (const QString &f : QDir(data + name).entryList(QDir::Files))
                if (config || f != "config.json")
                    QVERIFY(QFile::copy(data + name + "/" + f, tmp.filePath(f)));
            if (tokenizer)
                for (const char *f : {"vocab.json", "merges.txt"})
                    QVERIFY(QFile::copy(kBpe + "/" + f, tmp.filePath(f)));
        };
        QTemporaryDir bin, fairseq, hibrids, bare;
        folder(bin, "bart_seq2seq_bin", true);
        folder(fairseq, "fairseq_bart", true);
        folder(hibrids, "hibrids_fairseq", true);
        folder(bare, "hibrids_fairseq", true, false);

        json info = describeCheckpoint(bin.path());
        QVERIFY2(info["runnable"].get<bool>(), problemsText(info).c_str());
        QCOMPARE(info["head"].get<std::string>(), std::string("seq2seq"));
        QCOMPARE(info["files"]["weights"]["format"].get<std::string>(), std::string("torch-zip"));

        for (const QString &path : {fairseq.path(), fairseq.filePath("checkpoint_best.pt")}) {
            info = describeCheckpoint(path);
            QVERIFY2(info["runnable"].get<bool>(), problemsText(info).c_str());
            QCOMPARE(info["folder"].get<std::string>(), QDir::cleanPath(fairseq.path()).toStdString());
            QCOMPARE(info["model_type"].get<std::string>(), std::string("bart"));
            QCOMPARE(info["head"].get<std::string>(), std::string("seq2seq"));
            QVERIFY(info["files"]["config"].is_null());
            const json &w = info["files"]["weights"];
            QCOMPARE(w["file"].get<std::string>(), std::string("checkpoint_best.pt"));
            QCOMPARE(w["format"].get<std::string>(), std::string("fairseq"));
            QCOMPARE(w["fairseq"]["form"].get<std::string>(), std::string("fairseq-bart"));
            QCOMPARE(w["fairseq"]["arch"].get<std::string>(), std::string("bart_base"));
        }
        info = describeCheckpoint(data + "fairseq_bart"); // no tokenizer: named
        QVERIFY(!info["runnable"].get<bool>());
        QVERIFY2(hasProblem(info, "tokenizer"), problemsText(info).c_str());

        info = describeCheckpoint(hibrids.path());
        QVERIFY2(info["runnable"].get<bool>(), problemsText(info).c_str());
        QCOMPARE(info["model_type"].get<std::string>(), std::string("led"));
        QCOMPARE(info["hibrids"].get<std::string>(), std::string("decoder"));
        QCOMPARE(info["files"]["weights"]["fairseq"]["form"].get<std::string>(), std::string("hf-wrapped"));
        info = describeCheckpoint(bare.path()); // HIBRIDS' release alone: the config.json it needs is named
        QVERIFY(!info["runnable"].get<bool>());
        QVERIFY2(hasProblem(info, "config.json", "allenai/led-large-16384"), problemsText(info).c_str());

        QTemporaryDir hostile; // a refused pickle: named, nothing else claimed
        QFile pt(data + "fairseq_bart/checkpoint_best.pt");
        QVERIFY(pt.open(QIODevice::ReadOnly));
        const QByteArray whole = pt.readAll();
        QVERIFY(!folio::test::writeTestFile(hostile, QStringLiteral("checkpoint_best.pt"), whole.left(whole.size() / 2)).isEmpty());
        info = describeCheckpoint(hostile.path());
        QVERIFY(!info["runnable"].get<bool>());
        QVERIFY2(hasProblem(info, "checkpoint_best.pt"), problemsText(info).c_str());

        const auto cli = folio::test::runCli({"info", "--checkpoint", fairseq.filePath("checkpoint_best.pt")});
        QCOMPARE(cli.code, 0);
        QCOMPARE(cli.json().value("model_type").toString(), QStringLiteral("bart"));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCheckpointInfo)
#include "tst_checkpointinfo.moc"
