// Seq2seq folders as people have them (issue 32): pytorch_model.bin with Hugging Face names and
// fairseq checkpoint_best.pt (fairseq BART names; HIBRIDS' release, hf_led under `hf_model.`) give
// the same tokens and scores, bit for bit, as the model.safetensors folders of the parity cases.
// The .bin / .pt files are tests/data/seq2seq (torch.save, see its README). Hostile variants of
// the fairseq checkpoint (a Namespace subclass, os.system in "args", a truncated file) are refused
// naming the file and the global, and nothing runs.
#include "inference/checkpoint/fairseq.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/checkpoint/torchpickle.h"
#include "inference/checkpoint/torchzip.h"
#include "inference/qs/seq2seq.h"
#include "seq2seqfixture.h"
#include "tensorcompare.h"
#include "tests/common/testdata.h"
#include "torchbinwriter.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace folio::inference;
using folio::inference::test::valueAt;

namespace {

QString caseDir(const QString &name)
{
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-next/") + name);
}

QString dataDir(const QString &name)
{
    return QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/seq2seq/") + name;
}

// The case's input rows (HIBRIDS layout and global attention where the case has them).
std::vector<Seq2seqSource> sources(const QString &name)
{
    return folio::inference::test::fixtureSources(readSafetensors((caseDir(name) + "/inputs.safetensors").toStdString()));
}

// Greedy (fixed length) and 3-beam results of both folders: tokens and scores identical.
void compareGenerations(const Seq2seqGenerator &want, const Seq2seqGenerator &got, const std::vector<Seq2seqSource> &rows)
{
    GenerationSettings greedy;
    greedy.maxLength = 12;
    greedy.stopAtEos = false;
    GenerationSettings beam;
    beam.numBeams = 3;
    beam.maxLength = 10;
    for (const GenerationSettings &s : {greedy, beam}) {
        const GenerationResult a = want.generate(rows, s), b = got.generate(rows, s);
        QVERIFY2(a.ok && b.ok, (a.error + " / " + b.error).c_str());
        QCOMPARE(b.rows.size(), a.rows.size());
        for (std::size_t r = 0; r < a.rows.size(); ++r) {
            QCOMPARE(b.rows[r].tokens, a.rows[r].tokens);
            QCOMPARE(b.rows[r].score, a.rows[r].score); // bit-exact: the same float32 weights
        }
    }
}

void load(Seq2seqGenerator *gen, const QString &dir)
{
    std::string error;
    QVERIFY2(gen->load(dir.toStdString(), &error), error.c_str());
}

std::string readFile(const QString &path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeFile(const QString &path, const std::string &bytes)
{
    std::ofstream(path.toStdString(), std::ios::binary) << bytes;
}

// The fixture checkpoint with its data.pkl changed by `edit` (the storages unchanged).
std::string editedCheckpoint(const QString &path, const std::function<void(std::string *)> &edit)
{
    const StoredZip zip(path.toStdString());
    std::vector<std::pair<std::string, std::string>> entries;
    for (const std::string &name : zip.names()) {
        std::string bytes = zip.read(name);
        if (name.size() > 9 && name.compare(name.size() - 9, 9, "/data.pkl") == 0)
            edit(&bytes);
        entries.emplace_back(name, bytes);
    }
    return folio::test::storedZip(entries);
}

void replaceOnce(std::string *s, const std::string &from, const std::string &to)
{
    const std::size_t at = s->find(from);
    QVERIFY2(at != std::string::npos, from.c_str());
    s->replace(at, from.size(), to);
}

} // namespace

class TestSeq2seqCheckpoints : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pytorchModelBinEqualsSafetensors_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("BART") << "bart_seq2seq";
        QTest::newRow("HIBRIDS LED, encoder variant") << "hibrids_led_enc";
    }
    void pytorchModelBinEqualsSafetensors()
    {
        QFETCH(QString, name);
        FOLIO_REQUIRE_DATA(caseDir(name) + QStringLiteral("/model.safetensors"));
        Seq2seqGenerator safetensors, bin;
        load(&safetensors, caseDir(name));
        load(&bin, dataDir(name + "_bin"));
        QCOMPARE(bin.hibridsVariant(), safetensors.hibridsVariant());
        QCOMPARE(bin.maxSourceLength(), safetensors.maxSourceLength());
        compareGenerations(safetensors, bin, sources(name));
    }

    // fairseq's BART names, the architecture from an argparse.Namespace, no config.json. fairseq's
    // BART has no final_logits_bias: the reference is the safetensors case with it zeroed.
    void fairseqBartEqualsHuggingFaceFolder()
    {
        FOLIO_REQUIRE_DATA(caseDir("bart_seq2seq") + QStringLiteral("/model.safetensors"));
        const QString fairseq = dataDir("fairseq_bart");
        QVERIFY(!QFileInfo::exists(fairseq + "/config.json"));
        const ModelConfig config = ModelConfig::fromDirectory(fairseq.toStdString());
        const ModelConfig hf = ModelConfig::fromDirectory(caseDir("bart_seq2seq").toStdString());
        QCOMPARE(config.modelType(), std::string("bart"));
        for (const char *key : {"d_model", "vocab_size", "encoder_layers", "decoder_layers", "encoder_attention_heads",
                                "decoder_attention_heads", "encoder_ffn_dim", "decoder_ffn_dim", "max_position_embeddings"})
            QCOMPARE(config.getInt(key, -1), hf.getInt(key, -2));
        QCOMPARE(config.getBool("scale_embedding", true), false);

        QTemporaryDir tmp;
        QVERIFY(QFile::copy(caseDir("bart_seq2seq") + "/config.json", tmp.filePath("config.json")));
        TensorMap weights = readSafetensors((caseDir("bart_seq2seq") + "/model.safetensors").toStdString());
        Tensor &bias = weights.at("final_logits_bias");
        std::fill(bias.bytes.begin(), bias.bytes.end(), 0);
        writeSafetensors(tmp.filePath("model.safetensors").toStdString(), weights, {{"format", "pt"}});

        Seq2seqGenerator reference, pt;
        load(&reference, tmp.path());
        load(&pt, fairseq);
        QCOMPARE(pt.modelType(), std::string("bart"));
        compareGenerations(reference, pt, sources("bart_seq2seq"));
    }

    // HIBRIDS' release format: cfg a dict (args None), the LED under `hf_model.`, config.json beside it.
    void hibridsReleaseEqualsSafetensors()
    {
        FOLIO_REQUIRE_DATA(caseDir("hibrids_led_dec") + QStringLiteral("/model.safetensors"));
        Seq2seqGenerator safetensors, pt;
        load(&safetensors, caseDir("hibrids_led_dec"));
        load(&pt, dataDir("hibrids_fairseq"));
        QCOMPARE(pt.modelType(), std::string("led"));
        QCOMPARE(pt.hibridsVariant(), std::string("decoder"));
        compareGenerations(safetensors, pt, sources("hibrids_led_dec"));
        const FairseqCheckpointInfo info = describeFairseqCheckpoint((dataDir("hibrids_fairseq") + "/checkpoint_best.pt").toStdString());
        QCOMPARE(info.form, std::string("hf-wrapped"));
        QCOMPARE(info.hfModelName, std::string("allenai/led-large-16384"));
        QVERIFY(info.shapes.count("led.decoder.layers.1.encoder_attn.relative_hierarchical_bias.weight"));
    }

    void hibridsReleaseWithoutConfigNamesWhatIsMissing()
    {
        QTemporaryDir tmp;
        QVERIFY(QFile::copy(dataDir("hibrids_fairseq") + "/checkpoint_best.pt", tmp.filePath("checkpoint_best.pt")));
        Seq2seqGenerator gen;
        std::string error;
        QVERIFY(!gen.load(tmp.path().toStdString(), &error));
        QVERIFY2(error.find("config.json") != std::string::npos && error.find("allenai/led-large-16384") != std::string::npos
                     && error.find("checkpoint_best.pt") != std::string::npos,
                 error.c_str());
    }

    // Everything but "model" is described as data: the Namespace's fields, numpy scalars, sets, bytes.
    void otherEntriesAreInertData()
    {
        const TorchTrainingCheckpoint c = readTorchTrainingCheckpoint(
            (dataDir("fairseq_bart") + "/checkpoint_best.pt").toStdString(), "model", false);
        QVERIFY(c.tensors.empty());
        QCOMPARE(c.shapes.at("encoder.embed_tokens.weight"), (std::vector<std::int64_t>{500, 32}));
        const auto &e = c.entries;
        QCOMPARE(e["args"]["__class__"].get<std::string>(), std::string("argparse.Namespace"));
        QCOMPARE(e["args"]["arch"].get<std::string>(), std::string("bart_base"));
        QCOMPARE(e["args"]["encoder_attention_heads"].get<int>(), 4);
        QCOMPARE(e["extra_state"]["val_loss"].get<double>(), 4.25); // numpy.float64
        QCOMPARE(e["extra_state"]["seen"].size(), std::size_t(2));  // a set
        QCOMPARE(e["extra_state"]["raw"].get<std::string>(), std::string("\x00\x01", 2)); // bytes
        QCOMPARE(e["last_optimizer_state"]["state"]["0"]["exp_avg"]["tensor"], nlohmann::json({4}));
    }

    void hostileCheckpointsAreRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("Namespace subclass") << "subclass" << "global __main__.TrainingArgs is not allowed";
        QTest::newRow("os.system in args") << "system" << "global posix.system is not allowed";
        QTest::newRow("eval in extra_state") << "eval" << "global __builtin__.eval is not allowed";
        QTest::newRow("NEWOBJ of an allowed non-class") << "newobj" << "NEWOBJ of collections.OrderedDict";
        QTest::newRow("truncated") << "truncated" << "checkpoint_best.pt: ";
        QTest::newRow("not a state dict") << "nomodel" << "no \"model\" entry";
    }
    void hostileCheckpointsAreRefused()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        const QString source = dataDir("fairseq_bart") + "/checkpoint_best.pt", target = tmp.filePath("checkpoint_best.pt");
        const QString marker = tmp.filePath("ran");
        std::string bytes;
        if (kind == "truncated") {
            bytes = readFile(source);
            bytes.resize(bytes.size() / 2);
        } else {
            bytes = editedCheckpoint(source, [&](std::string *pkl) {
                if (kind == "subclass")
                    replaceOnce(pkl, "cargparse\nNamespace\n", "c__main__\nTrainingArgs\n");
                else if (kind == "system") { // args.arch = os.system("touch <marker>")
                    const std::string cmd = "touch " + marker.toStdString();
                    std::string call = "cposix\nsystem\nX";
                    const auto n = static_cast<std::uint32_t>(cmd.size());
                    call.append(reinterpret_cast<const char *>(&n), 4);
                    call += cmd + "\x85R";
                    replaceOnce(pkl, std::string("X\x09\x00\x00\x00" "bart_base", 14), call);
                } else if (kind == "eval") // val_loss = eval("1")
                    replaceOnce(pkl, "cnumpy.core.multiarray\nscalar\n", "c__builtin__\neval\n");
                else if (kind == "newobj")
                    replaceOnce(pkl, "cargparse\nNamespace\n", "ccollections\nOrderedDict\n");
                else if (kind == "nomodel")
                    replaceOnce(pkl, std::string("X\x05\x00\x00\x00model", 10), std::string("X\x05\x00\x00\x00mode_", 10));
            });
        }
        writeFile(target, bytes);
        Seq2seqGenerator gen;
        std::string error;
        QVERIFY(!gen.load(tmp.path().toStdString(), &error));
        QVERIFY2(error.find(target.toStdString()) != std::string::npos, error.c_str());
        QVERIFY2(error.find(expected.toStdString()) != std::string::npos, error.c_str());
        QVERIFY(!QFileInfo::exists(marker));
        QVERIFY(!gen.isLoaded());
    }

    // The names Folio loads: fairseq's tied copies and version buffers dropped, the rest under model.
    void fairseqNamesBecomeHuggingFaceNames()
    {
        FairseqCheckpointInfo info;
        const TensorMap tensors = readFairseqCheckpoint((dataDir("fairseq_bart") + "/checkpoint_best.pt").toStdString(), &info);
        QCOMPARE(info.form, std::string("fairseq-bart"));
        QCOMPARE(info.arch, std::string("bart_base"));
        QVERIFY(tensors.count("model.shared.weight"));
        QVERIFY(tensors.count("model.decoder.layers.1.encoder_attn.k_proj.weight"));
        for (const char *dropped : {"decoder.output_projection.weight", "model.decoder.output_projection.weight",
                                    "model.encoder.version", "model.encoder.embed_tokens.weight"})
            QVERIFY2(!tensors.count(dropped), dropped);
        QCOMPARE(tensors.size(), info.shapes.size());
        QCOMPARE(info.config["vocab_size"].get<int>(), 500);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestSeq2seqCheckpoints)
#include "tst_seq2seq_checkpoints.moc"
