// Hostile checkpoint and tokenizer files of issue 51 (round 3) through folio-cli, each generated
// here: refused with exit 1 and a message naming the file (and the tensor or key), with the run's
// own peak memory (wait4) and time bounded by the limit, not by the input; `info --checkpoint` and
// the command that loads the folder refuse the same folders for the same reason.
#include "measuredcli.h"
#include "tests/common/testdata.h"
#include "tests/inference/torchbinwriter.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <string>

namespace {

using folio::test::MeasuredRun;
using folio::test::measuredCli;

// Pickle protocol-2 pieces for a fairseq-style training checkpoint (torchpickle.h: argparse.Namespace
// built as data, "model" the state dict).
std::string pickleString(const std::string &s)
{
    std::string out = "X";
    const std::uint32_t n = std::uint32_t(s.size());
    out.append(reinterpret_cast<const char *>(&n), 4);
    return out + s;
}

std::string pickleInt(std::int64_t v)
{
    std::string out = "\x8a\x08";
    out.append(reinterpret_cast<const char *>(&v), 8);
    return out;
}

// {"args": Namespace(arch="bart_base", encoder_attention_heads=2), "model": <state dict>} + `extra`
// (more "key value s" items of the root dict). The state dict is `dict` as StateDictPickle wrote it.
std::string fairseqPickle(const folio::test::StateDictPickle &dict, const std::string &extra = std::string(), bool withModel = true)
{
    std::string p = std::string("\x80\x02}", 3);
    p += pickleString("args") + "cargparse\nNamespace\n)\x81}(" + pickleString("arch") + pickleString("bart_base")
         + pickleString("encoder_attention_heads") + pickleInt(2) + "ub" + "s";
    p += extra;
    if (withModel) {
        const std::string sd = dict.finish(); // "\x80\x02}" ... "."
        p += pickleString("model") + sd.substr(2, sd.size() - 3) + "s";
    }
    return p + ".";
}

// A small fairseq BART's sizing tensors over one 1 KiB storage; `fc1` is decoder.layers.0.fc1.weight's shape.
folio::test::StateDictPickle bartTensors(const std::vector<std::int64_t> &fc1)
{
    folio::test::StateDictPickle dict;
    const auto add = [&](const std::string &name, const std::vector<std::int64_t> &size) {
        folio::test::BinTensor t;
        t.name = name;
        t.storageNumel = 256;
        t.size = size;
        std::int64_t stride = 1;
        t.stride.assign(size.size(), 0);
        for (std::size_t d = size.size(); d-- > 0;) {
            t.stride[d] = stride;
            stride *= size[d];
        }
        dict.add(t);
    };
    add("encoder.embed_tokens.weight", {16, 8});
    add("encoder.embed_positions.weight", {10, 8});
    add("decoder.embed_positions.weight", {10, 8});
    add("decoder.layers.0.fc1.weight", fc1);
    return dict;
}

std::string storage1k() { return std::string(1024, '\0'); }

} // namespace

class TestCliHostileCheckpoint : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString folder(const QString &name)
    {
        const QString dir = m_dir.filePath(name);
        QDir().mkpath(dir);
        return dir;
    }
    QString write(const QString &path, const QByteArray &bytes)
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return QString();
        return path;
    }
    // A fairseq folder: checkpoint_best.pt from `pickle`, fairseq's GPT-2 BPE tokenizer files beside it.
    QString fairseqFolder(const QString &name, const std::string &pickle)
    {
        const QString dir = folder(name);
        const QDir bpe(QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/seq2seq/fairseq_bart_gpt2bpe"));
        for (const char *f : {"dict.txt", "encoder.json", "vocab.bpe"})
            QFile::copy(bpe.filePath(QString::fromLatin1(f)), dir + QLatin1Char('/') + QString::fromLatin1(f));
        folio::test::writeBinary((dir + QStringLiteral("/checkpoint_best.pt")).toStdString(),
                                 folio::test::torchBin(pickle, {{"0", storage1k()}}));
        return dir;
    }
    QString document()
    {
        return write(m_dir.filePath(QStringLiteral("doc.html")),
                     "<html><body><h1>Report</h1><p>The committee met on Monday and agreed on the budget.</p></body></html>");
    }
    // `info --checkpoint dir` and `loadArgs` (the command that loads it): both exit 1, naming `file` and `what`.
    void bothRefuse(const QString &dir, const QStringList &loadArgs, const QString &file, const QByteArray &what,
                    long peakMiB = 400, qint64 ms = 60000)
    {
        const MeasuredRun info = measuredCli(m_dir.path(), {QStringLiteral("info"), QStringLiteral("--checkpoint"), dir}, 120000);
        qInfo("info: exit %d, peak %ld MiB, %lld ms: %s", info.code, info.peakMiB, info.ms, info.err.left(400).constData());
        QCOMPARE(info.code, 1);
        QVERIFY(!info.timedOut);
        const QJsonObject json = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(json.value(QStringLiteral("runnable")).toBool(true), false);
        bool named = false; // one of the problems names the file and what is wrong
        for (const QJsonValue &p : json.value(QStringLiteral("problems")).toArray())
            named = named || (p.toString().contains(file) && p.toString().toUtf8().contains(what));
        QVERIFY2(named, info.out.constData());
        QVERIFY2(info.peakMiB < peakMiB, qPrintable(QString::number(info.peakMiB)));
        QVERIFY2(info.ms < ms, qPrintable(QString::number(info.ms)));
        const MeasuredRun load = measuredCli(m_dir.path(), loadArgs, 120000);
        qInfo("%s: exit %d, peak %ld MiB, %lld ms: %s", qPrintable(loadArgs.value(1)), load.code, load.peakMiB, load.ms,
              load.err.left(400).constData());
        QCOMPARE(load.code, 1);
        QVERIFY(!load.timedOut);
        QVERIFY2(load.err.contains(QFile::encodeName(file)) && load.err.contains(what), load.err.constData());
        QVERIFY2(load.peakMiB < peakMiB, qPrintable(QString::number(load.peakMiB)));
        QVERIFY2(load.ms < ms, qPrintable(QString::number(load.ms)));
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // A 0-dim decoder.layers.0.fc1.weight: SIGSEGV in info and qs generate (its size was read at
    // index 0 of an empty shape). Refused naming the file and the tensor.
    void fairseqZeroDimTensor()
    {
        const QString dir = fairseqFolder(QStringLiteral("zero-dim"), fairseqPickle(bartTensors({})));
        bothRefuse(dir, {QStringLiteral("-q"), QStringLiteral("qs"), QStringLiteral("generate"), QStringLiteral("--checkpoint"), dir, document()},
                   dir + QStringLiteral("/checkpoint_best.pt"), "tensor 'decoder.layers.0.fc1.weight' has shape []");
    }

    // A negative size in the state dict: refused by info as by a load (both check every tensor).
    void fairseqNegativeSize()
    {
        const QString dir = fairseqFolder(QStringLiteral("negative"), fairseqPickle(bartTensors({-4, 8})));
        bothRefuse(dir, {QStringLiteral("-q"), QStringLiteral("qs"), QStringLiteral("generate"), QStringLiteral("--checkpoint"), dir, document()},
                   dir + QStringLiteral("/checkpoint_best.pt"), "tensor 'decoder.layers.0.fc1.weight': size -4");
    }

    // A 2 KB data.pkl whose list holds 1,000 references to itself: 3.2 GB, then an uncaught
    // bad_alloc. The description is bounded (every element it emits is counted); the checkpoint is
    // then refused for what it lacks.
    void pickleSelfReferences()
    {
        const std::string selfList = pickleString("extra_state") + std::string("]q\x00(", 4) + [] {
            std::string gets;
            for (int i = 0; i < 1000; ++i)
                gets += std::string("h\x00", 2);
            return gets;
        }() + "es";
        const QString dir = fairseqFolder(QStringLiteral("self-ref"), fairseqPickle(bartTensors({16, 8}), selfList, false));
        QVERIFY(QFileInfo(dir + QStringLiteral("/checkpoint_best.pt")).size() < 4096);
        bothRefuse(dir, {QStringLiteral("-q"), QStringLiteral("qs"), QStringLiteral("generate"), QStringLiteral("--checkpoint"), dir, document()},
                   dir + QStringLiteral("/checkpoint_best.pt"), "no \"model\" entry", 400, 30000);
    }

    // One memoised value put into lists 9 M times (18 MB of BINGET): refused by the count of places
    // in lists, tuples and dicts before memory grows with them.
    void pickleMemoPlaces()
    {
        std::string extra = pickleString("extra_state") + std::string("]q\x00", 3);
        const std::string appends = "(" + [] {
            std::string gets;
            for (int i = 0; i < 1000; ++i)
                gets += std::string("h\x00", 2);
            return gets;
        }() + "e";
        for (int k = 0; k < 9000; ++k)
            extra += appends;
        extra += "s";
        const QString dir = fairseqFolder(QStringLiteral("memo-places"), fairseqPickle(bartTensors({16, 8}), extra));
        bothRefuse(dir, {QStringLiteral("-q"), QStringLiteral("qs"), QStringLiteral("generate"), QStringLiteral("--checkpoint"), dir, document()},
                   dir + QStringLiteral("/checkpoint_best.pt"), "places in lists, tuples and dicts", 600);
    }

    // config.json nested 1,000,000 deep (2 MB): parsed, then the recursive copy overflowed the stack.
    void configNestedAMillionDeep()
    {
        const QString dir = folder(QStringLiteral("deep-config"));
        write(dir + QStringLiteral("/config.json"), "{\"model_type\": \"layoutlmv3\", \"x\": " + QByteArray(1000000, '[')
                                                        + QByteArray(1000000, ']') + "}");
        bothRefuse(dir, {QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), dir,
                         QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png")},
                   dir + QStringLiteral("/config.json"), "nested deeper than");
    }

    // vocab.json of 1.2 M entries / merges.txt of 1.2 M lines beside a LayoutLMv3 classifier (10 M
    // entries took 2.2-2.5 GB before the vocabulary limit): counted while read, refused at 1 M.
    void vocabularyPastTheLimit_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("what");
        QTest::newRow("vocab.json") << "vocab.json" << QByteArray("more than 1000001 JSON values");
        QTest::newRow("merges.txt") << "merges.txt" << QByteArray("more than 1000000 merges");
    }
    void vocabularyPastTheLimit()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, what);
        const QString from = folio::test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline/checkpoint"));
        FOLIO_REQUIRE_DATA(from + QStringLiteral("/config.json"));
        const QString dir = folder(QStringLiteral("big-") + file);
        for (const QString &f : QDir(from).entryList(QDir::Files))
            QFile::copy(from + QLatin1Char('/') + f, dir + QLatin1Char('/') + f);
        QByteArray bytes;
        if (file == QLatin1String("vocab.json")) {
            bytes = "{";
            for (int i = 0; i < 1200000; ++i)
                bytes += (i ? ",\"t" : "\"t") + QByteArray::number(i) + "\":" + QByteArray::number(i % 1000);
            bytes += "}";
        } else {
            bytes = "#version: 0.2\n" + QByteArray("a b\n").repeated(1200000);
        }
        QFile::remove(dir + QLatin1Char('/') + file);
        write(dir + QLatin1Char('/') + file, bytes);
        bothRefuse(dir, {QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), dir,
                         QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png")},
                   dir + QLatin1Char('/') + file, what, 600);
    }

    // Folders info called runnable and predict refused: the config check is one function for both.
    void configKeysInfoAndPredictAgree_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QByteArray>("what");
        QTest::newRow("LiLT channel_shrink_ratio 0") << "lilt_tokcls" << "channel_shrink_ratio" << "0"
                                                     << QByteArray("'channel_shrink_ratio' is 0");
        QTest::newRow("detectron2 NUM_GROUPS 1e9") << "layoutlmv2_visual" << "MODEL.RESNETS.NUM_GROUPS" << "1000000000"
                                                   << QByteArray("'MODEL.RESNETS.NUM_GROUPS' is 1000000000, allowed 1..1024");
        QTest::newRow("FPN.OUT_CHANNELS 1e12") << "layoutlmv2_visual" << "MODEL.FPN.OUT_CHANNELS" << "1000000000000"
                                               << QByteArray("'MODEL.FPN.OUT_CHANNELS' is 1000000000000, allowed 1..4096");
        QTest::newRow("pool 4096 x 4096") << "layoutlmv2_visual" << "image_feature_pool_shape" << "[4096, 4096, 16]"
                                          << QByteArray("'image_feature_pool_shape' is [4096,4096,16]");
    }
    void configKeysInfoAndPredictAgree()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QByteArray, what);
        const QString from = folio::test::sharedPath(QStringLiteral("fixtures/parity-new/") + fixture + QStringLiteral("/config.json"));
        FOLIO_REQUIRE_DATA(from);
        QFile in(from);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject config = QJsonDocument::fromJson(in.readAll()).object();
        const QJsonValue v = QJsonDocument::fromJson("[" + value.toUtf8() + "]").array().at(0);
        if (key.startsWith(QLatin1String("MODEL."))) {
            QJsonObject args = config.value(QStringLiteral("detectron2_config_args")).toObject();
            args.insert(key, v);
            config.insert(QStringLiteral("detectron2_config_args"), args);
        } else {
            config.insert(key, v);
        }
        config.insert(QStringLiteral("id2label"), QJsonObject{{QStringLiteral("0"), QStringLiteral("O")}, {QStringLiteral("1"), QStringLiteral("B-X")}});
        const QString dir = folder(QStringLiteral("keys-") + QString::number(qHash(key + value)));
        write(dir + QStringLiteral("/config.json"), QJsonDocument(config).toJson());
        bothRefuse(dir, {QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), dir,
                         QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png")},
                   dir + QStringLiteral("/config.json"), what);
    }
};

FOLIO_TEST_MAIN(TestCliHostileCheckpoint)
#include "tst_clihostile_checkpoint.moc"
