// Issue 51 at the engine level: JSON of untrusted files parsed with a depth and a value count
// checked while the tree is built (inference/checkpoint/jsonlimits.h); ModelConfig::fromJson
// refusing a tree deeper than the config limit before its recursive copy, however it was built;
// the model-type keys every loader and `info --checkpoint` check alike (configcheck.h, the
// detectron2 backbone's options through one function); BPE vocabularies and merges counted as they
// are read; and a training checkpoint's description bounded however its values refer to each other.
#include "inference/checkpoint/configcheck.h"
#include "inference/checkpoint/jsonlimits.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/checkpoint/torchpickle.h"
#include "inference/errors.h"
#include "inference/tokenizers/tokenizer.h"
#include "tests/common/testdata.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <functional>
#include <map>

using namespace folio::inference;
using nlohmann::json;

namespace {

std::string refusal(const std::function<void()> &fn)
{
    try {
        fn();
    } catch (const InferenceError &e) {
        return e.what();
    }
    return std::string();
}

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

std::string nested(int depth) { return std::string(std::size_t(depth), '[') + std::string(std::size_t(depth), ']'); }

std::string pickleString(const std::string &s)
{
    std::string out = "X";
    const std::uint32_t n = std::uint32_t(s.size());
    out.append(reinterpret_cast<const char *>(&n), 4);
    return out + s;
}

} // namespace

class TestJsonLimits : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(name);
        QDir().mkpath(QFileInfo(path).path());
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return QString();
        return path;
    }

private Q_SLOTS:
    void depthCountedWhileParsing()
    {
        const JsonLimits limits{32, 1000, "JSON values"};
        QVERIFY(parseJsonBounded(nested(32), "a.json", limits).is_array()); // the root is level 1
        const std::string e = refusal([&] { parseJsonBounded(nested(33), "a.json", limits); });
        QVERIFY2(contains(e, "a.json: nested deeper than 32 levels"), e.c_str());
        // A million levels: refused after 32, in no time and without recursion.
        const std::string deep = refusal([&] { parseJsonBounded("{\"x\": " + nested(1000000) + "}", "config.json", limits); });
        QVERIFY2(contains(deep, "config.json: nested deeper than 32 levels"), deep.c_str());
        // An unclosed one is refused for its depth before the parser reaches its end.
        QVERIFY(contains(refusal([&] { parseJsonBounded(std::string(100, '['), "b.json", limits); }), "nested deeper"));
    }

    void valuesCountedWhileParsing()
    {
        std::string vocab = "{";
        for (int i = 0; i < 2000; ++i)
            vocab += (i ? ",\"t" : "\"t") + std::to_string(i) + "\":" + std::to_string(i);
        vocab += "}";
        QCOMPARE(parseJsonBounded(vocab, "vocab.json", {8, 2001, "entries"}).size(), std::size_t(2000));
        const std::string e = refusal([&] { parseJsonBounded(vocab, "vocab.json", {8, 2000, "entries"}); });
        QVERIFY2(contains(e, "vocab.json: more than 2000 entries"), e.c_str());
        const std::string bad = refusal([&] { parseJsonBounded("{\"a\": ", "c.json"); });
        QVERIFY2(contains(bad, "c.json: invalid JSON"), bad.c_str());
    }

    // A tree built in memory, 1,000,000 deep (the copy in fromJson overflowed the stack): refused
    // before it is copied, naming the source; destroyed iteratively (nlohmann 3.11).
    void fromJsonRefusesDeepTrees()
    {
        json inner = json::array();
        for (int i = 0; i < 1000000; ++i)
            inner = json::array({std::move(inner)});
        json config = {{"model_type", "layoutlmv3"}};
        config["x"] = std::move(inner);
        QVERIFY(jsonDeeperThan(config, 32));
        QVERIFY(!jsonDeeperThan(json{{"a", {{"b", json::array({1, 2})}}}}, 3));
        QVERIFY(jsonDeeperThan(json{{"a", {{"b", json::array({1, 2})}}}}, 2));
        const std::string e = refusal([&] { ModelConfig::fromJson(config, "DIR/config.json"); });
        QVERIFY2(contains(e, "DIR/config.json: nested deeper than 32 levels"), e.c_str());
    }

    // Keys a model type builds from, checked by ModelConfig::fromDirectory (every loader, info).
    void modelKeysChecked_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("message");
        QTest::newRow("lilt shrink 0") << "lilt_tokcls" << R"({"channel_shrink_ratio": 0})" << "'channel_shrink_ratio' is 0";
        QTest::newRow("lilt shrink not a divisor") << "lilt_tokcls" << R"({"channel_shrink_ratio": 7})"
                                                   << "must be a positive multiple of it";
        QTest::newRow("v2 pool 4096") << "layoutlmv2_visual" << R"({"image_feature_pool_shape": [4096, 4096, 16]})"
                                      << "rows and cols must be integers in 1..256";
        QTest::newRow("v2 pool past positions") << "layoutlmv2_visual" << R"({"image_feature_pool_shape": [20, 20, 16]})"
                                                << "400 image tokens, more than max_position_embeddings";
        QTest::newRow("v2 pool channels") << "layoutlmv2_visual" << R"({"image_feature_pool_shape": [7, 7, 32]})"
                                          << "differ from detectron2_config_args MODEL.FPN.OUT_CHANNELS 16";
        QTest::newRow("v2 groups 1e9") << "layoutlmv2_visual"
                                       << R"({"detectron2_config_args": {"MODEL.RESNETS.NUM_GROUPS": 1000000000}})"
                                       << "'MODEL.RESNETS.NUM_GROUPS' is 1000000000, allowed 1..1024";
        QTest::newRow("v2 fpn 1e12") << "layoutlmv2_visual" << R"({"detectron2_config_args": {"MODEL.FPN.OUT_CHANNELS": 1000000000000}})"
                                     << "'MODEL.FPN.OUT_CHANNELS' is 1000000000000, allowed 1..4096";
        QTest::newRow("v2 unchanged") << "layoutlmv2_visual" << "{}" << "";
        QTest::newRow("lilt unchanged") << "lilt_tokcls" << "{}" << "";
    }
    void modelKeysChecked()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, edit);
        QFETCH(QString, message);
        const QString from = folio::test::sharedPath(QStringLiteral("fixtures/parity-new/") + fixture);
        FOLIO_REQUIRE_DATA(from + QStringLiteral("/config.json"));
        QFile in(from + QStringLiteral("/config.json"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        json config = json::parse(in.readAll().toStdString());
        const json change = json::parse(edit.toStdString());
        for (auto it = change.begin(); it != change.end(); ++it) {
            if (it.value().is_object())
                for (auto inner = it.value().begin(); inner != it.value().end(); ++inner)
                    config[it.key()][inner.key()] = inner.value();
            else
                config[it.key()] = it.value();
        }
        const QString dir = m_dir.filePath(QStringLiteral("keys-%1").arg(QString::number(qHash(fixture + edit))));
        write(dir.mid(m_dir.path().size() + 1) + QStringLiteral("/config.json"), QByteArray::fromStdString(config.dump()));
        // With the weights (their header tells the visual backbone is there) and without.
        for (const bool weights : {false, true}) {
            if (weights)
                QFile::copy(from + QStringLiteral("/model.safetensors"), dir + QStringLiteral("/model.safetensors"));
            const std::string e = refusal([&] { ModelConfig::fromDirectory(dir.toStdString()); });
            if (message.isEmpty()) {
                QVERIFY2(e.empty(), e.c_str());
            } else {
                QVERIFY2(contains(e, (dir + QStringLiteral("/config.json")).toStdString()) && contains(e, message.toStdString()),
                         e.c_str());
            }
        }
    }

    // A safetensors header is counted while parsed too: 9 M values (18 MB of "0,") and 9 levels.
    void safetensorsHeaderBounded()
    {
        const auto file = [](const std::string &header) {
            std::string bytes(8, '\0');
            const std::uint64_t n = header.size();
            std::memcpy(&bytes[0], &n, 8);
            return bytes + header;
        };
        const auto parse = [](const std::string &bytes) {
            return refusal([&] {
                std::map<std::string, TensorView> entries;
                SafetensorsFile::parse(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size(), "w.safetensors",
                                       &entries, nullptr);
            });
        };
        std::string many = "{\"__metadata__\": {}, \"x\": [";
        for (int i = 0; i < 9000000; ++i)
            many += i ? ",0" : "0";
        many += "]}";
        std::string e = parse(file(many));
        QVERIFY2(contains(e, "w.safetensors") && contains(e, "more than 8388608 JSON values"), e.c_str());
        e = parse(file("{\"x\": " + nested(9) + "}"));
        QVERIFY2(contains(e, "w.safetensors") && contains(e, "nests deeper than 8 levels"), e.c_str());
        e = parse(file("{\"x\": " + nested(7) + "}")); // within the depth: refused for what the entry is
        QVERIFY2(contains(e, "w.safetensors") && !contains(e, "nests deeper"), e.c_str());
    }

    // vocab.json / merges.txt past 1,000,000: counted while read, refused naming the file.
    void bpeCountedWhileRead()
    {
        QByteArray vocab = "{\"<unk>\": 0";
        for (int i = 1; i <= 1000001; ++i)
            vocab += ",\"t" + QByteArray::number(i) + "\":" + QByteArray::number(i % 1000);
        vocab += "}";
        const QString big = write(QStringLiteral("bpe-big/vocab.json"), vocab);
        const QString merges = write(QStringLiteral("bpe-big/merges.txt"), "#version: 0.2\na b\n");
        std::string e = refusal([&] { makeBpeTokenizer(big.toStdString(), merges.toStdString(), false); });
        QVERIFY2(contains(e, big.toStdString() + ": more than 1000001 JSON values"), e.c_str());
        const QString small = write(QStringLiteral("bpe-many/vocab.json"), "{\"<unk>\": 0, \"a\": 1, \"b\": 2, \"ab\": 3}");
        const QString many = write(QStringLiteral("bpe-many/merges.txt"), "#version: 0.2\n" + QByteArray("a b\n").repeated(1000001));
        e = refusal([&] { makeBpeTokenizer(small.toStdString(), many.toStdString(), false); });
        QVERIFY2(contains(e, many.toStdString() + ": more than 1000000 merges"), e.c_str());
        // At the limit it loads (the same merge a million times).
        const QString atLimit = write(QStringLiteral("bpe-limit/merges.txt"), "#version: 0.2\n" + QByteArray("a b\n").repeated(1000000));
        const auto tok = makeBpeTokenizer(small.toStdString(), atLimit.toStdString(), false);
        QCOMPARE(tok->vocabSize(), 4);
        // An id past the vocabulary limit.
        const QString farId = write(QStringLiteral("bpe-id/vocab.json"), "{\"<unk>\": 0, \"a\": 1000000}");
        e = refusal([&] { makeBpeTokenizer(farId.toStdString(), merges.toStdString(), false); });
        QVERIFY2(contains(e, "vocabulary id of \"a\" is not an integer in 0..999999"), e.c_str());
    }

    // A training checkpoint whose entries refer to themselves (a list holding 1,000 references to
    // itself; tuples doubling 60 times through the memo): described within its budget.
    void trainingCheckpointDescriptionBounded()
    {
        const std::string root = std::string("\x80\x02}", 3);
        std::string self = pickleString("extra_state") + std::string("]q\x00(", 4);
        for (int i = 0; i < 1000; ++i)
            self += std::string("h\x00", 2);
        self += "es";
        std::string dag = pickleString("more") + "N";
        for (int i = 0; i < 60; ++i)
            dag += std::string("q\x00h\x00\x86", 5);
        dag += "s";
        const std::string model = pickleString("model") + "}s";
        for (const std::string &entries : {self, dag, self + dag}) {
            const std::string pickle = root + entries + model + ".";
            TorchTrainingCheckpoint c;
            const std::string e = refusal([&] {
                c = readTrainingCheckpointPickle(pickle, "ck.pt", [](const std::string &) { return std::string_view(); }, "model", false);
            });
            // The empty state dict is refused after the description, which must have stayed small.
            QVERIFY2(contains(e, "ck.pt") && contains(e, "holds no tensors"), e.c_str());
        }
        // The description alone, through a checkpoint with one tensor.
        std::string tensor = pickleString("model") + "}" + pickleString("w") + "ctorch._utils\n_rebuild_tensor_v2\n((" + pickleString("storage")
                             + "ctorch\nFloatStorage\n" + pickleString("0") + pickleString("cpu")
                             + std::string("K\x01tQK\x00(t(t\x89)tRss", 16);
        const std::string pickle = root + self + dag + tensor + ".";
        const std::string storage(4, '\0');
        const TorchTrainingCheckpoint c = readTrainingCheckpointPickle(
            pickle, "ck.pt", [&](const std::string &) { return std::string_view(storage); }, "model", true);
        const std::size_t bytes = c.entries.dump().size();
        qInfo("self-referencing entries described in %zu bytes", bytes);
        QVERIFY2(bytes < (24u << 20), qPrintable(QString::number(bytes)));
        QCOMPARE(c.tensors.size(), std::size_t(1));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestJsonLimits)
#include "tst_jsonlimits.moc"
