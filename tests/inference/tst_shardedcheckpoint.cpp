// Sharded weights (issue 46): a checkpoint folder with model.safetensors.index.json and its shards
// (as save_pretrained writes a large model) loads through ModelRunner and gives the very outputs of
// the one-file folder (the LayoutLMv3 token-classification parity fixture split in three); its
// config sizes are checked against the shards' headers; a hostile index is refused naming the
// index file and the problem: a shard outside the folder ('../', absolute, backslash), a tensor
// named twice, a tensor held by two shards, a missing shard, a map that puts a tensor in a shard
// without it, a file that is not .safetensors, JSON too deep.
#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/checkpoint/shardedsafetensors.h"
#include "inference/models/modelrunner.h"
#include "tests/common/safetensorsshards.h"
#include "tests/common/testdata.h"

#include <QtTest>

using namespace folio::inference;

namespace {

QString fixtureDir()
{
    return folio::test::sharedPath(QStringLiteral("fixtures/parity/layoutlmv3_tokcls"));
}

// A sharded copy of the fixture (config.json copied, model.safetensors split in `count`).
bool shardedCopy(const QString &dir, int count, QString *why)
{
    return QFile::copy(fixtureDir() + QStringLiteral("/config.json"), dir + QStringLiteral("/config.json"))
           && folio::test::writeShardedCopy(fixtureDir() + QStringLiteral("/model.safetensors"), dir, count, why);
}

void writeIndex(const QString &dir, const QByteArray &json)
{
    QFile f(dir + QStringLiteral("/model.safetensors.index.json"));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(json);
}

QByteArray readIndex(const QString &dir)
{
    QFile f(dir + QStringLiteral("/model.safetensors.index.json"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestShardedCheckpoint : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { FOLIO_REQUIRE_DATA(fixtureDir()); }

    void loadsAndRunsAsTheOneFile()
    {
        QTemporaryDir dir;
        QString why;
        QVERIFY2(shardedCopy(dir.path(), 3, &why), qPrintable(why));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("model.safetensors"))));
        const ShardedSafetensors shards(dir.path().toStdString());
        QCOMPARE(shards.shardFiles().size(), std::size_t(3));
        const SafetensorsFile original((fixtureDir() + QStringLiteral("/model.safetensors")).toStdString());
        QCOMPARE(shards.names(), original.names());

        const TensorMap inputs = readSafetensors((fixtureDir() + QStringLiteral("/inputs.safetensors")).toStdString());
        ModelRunner one, sharded;
        std::string error;
        QVERIFY2(one.load(fixtureDir().toStdString(), &error), error.c_str());
        QVERIFY2(sharded.load(dir.path().toStdString(), &error), error.c_str());
        const RunResult a = one.run(inputs), b = sharded.run(inputs);
        QVERIFY2(a.ok && b.ok, (a.error + b.error).c_str());
        QVERIFY(a.outputs.count("logits"));
        QVERIFY(a.outputs.at("logits").bytes == b.outputs.at("logits").bytes); // the same weights, bit for bit

        // config.json's sizes are checked against the shards' headers before anything is built.
        QFile config(dir.filePath(QStringLiteral("config.json")));
        QVERIFY(config.open(QIODevice::ReadOnly));
        QJsonObject c = QJsonDocument::fromJson(config.readAll()).object();
        config.close();
        c[QStringLiteral("vocab_size")] = c[QStringLiteral("vocab_size")].toInt() + 7;
        QVERIFY(config.open(QIODevice::WriteOnly | QIODevice::Truncate));
        config.write(QJsonDocument(c).toJson());
        config.close();
        ModelRunner wrong;
        QVERIFY(!wrong.load(dir.path().toStdString(), &error));
        QVERIFY2(error.find("model.safetensors.index.json") != std::string::npos || error.find("model-0000") != std::string::npos, error.c_str());
    }

    void hostileIndexRefused_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("message");
        const QByteArray shard1 = folio::test::shardFileName(0, 2).toLatin1();
        QTest::newRow("dotdot") << QByteArray("\"" + shard1 + "\"") << QByteArray("\"../" + shard1 + "\"") << "outside the checkpoint folder";
        QTest::newRow("inner dotdot") << QByteArray("\"" + shard1 + "\"") << QByteArray("\"sub/../../" + shard1 + "\"") << "outside the checkpoint folder";
        QTest::newRow("absolute") << QByteArray("\"" + shard1 + "\"") << QByteArray("\"/etc/" + shard1 + "\"") << "absolute path";
        QTest::newRow("backslash") << QByteArray("\"" + shard1 + "\"") << QByteArray("\"..\\\\" + shard1 + "\"") << "backslash";
        QTest::newRow("not safetensors") << QByteArray("\"" + shard1 + "\"") << QByteArray("\"pytorch_model.bin\"") << "not a .safetensors file";
        QTest::newRow("missing shard") << QByteArray("\"" + shard1 + "\"") << QByteArray("\"model-00009-of-00009.safetensors\"") << "is missing";
        QTest::newRow("named twice") << QByteArray("\"weight_map\": {") << QByteArray("\"weight_map\": {\"classifier.bias\": \"" + shard1 + "\", ") << "named twice in weight_map";
        QTest::newRow("deep") << QByteArray("\"metadata\": {") << QByteArray("\"metadata\": {\"x\": [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]], ") << "nested deeper than 16";
        QTest::newRow("no map") << QByteArray("\"weight_map\"") << QByteArray("\"weightmap\"") << "no 'weight_map' object";
    }

    void hostileIndexRefused()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QString why;
        QVERIFY2(shardedCopy(dir.path(), 2, &why), qPrintable(why));
        QByteArray index = readIndex(dir.path());
        QVERIFY2(index.contains(from), index.constData());
        writeIndex(dir.path(), index.replace(from, to));
        try {
            ShardedSafetensors shards(dir.path().toStdString());
            QFAIL("the index was accepted");
        } catch (const std::exception &e) {
            const QString m = QString::fromStdString(e.what());
            QVERIFY2(m.contains(dir.filePath(QStringLiteral("model.safetensors.index.json"))) && m.contains(message), qPrintable(m));
        }
        ModelRunner runner; // the loader refuses it the same way, nothing built
        std::string error;
        QVERIFY(!runner.load(dir.path().toStdString(), &error));
        QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
    }

    void tensorInTwoShardsOrMisplaced()
    {
        QTemporaryDir dir;
        QString why;
        QVERIFY2(shardedCopy(dir.path(), 2, &why), qPrintable(why));
        // The second shard replaced by the whole file: every tensor of the first shard is in both.
        QVERIFY(QFile::remove(dir.filePath(folio::test::shardFileName(1, 2))));
        QVERIFY(QFile::copy(fixtureDir() + QStringLiteral("/model.safetensors"), dir.filePath(folio::test::shardFileName(1, 2))));
        try {
            ShardedSafetensors shards(dir.path().toStdString());
            QFAIL("a tensor in two shards was accepted");
        } catch (const std::exception &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("is held by two shards")), e.what());
        }
        // The map names the wrong shard for a tensor.
        QTemporaryDir dir2;
        QVERIFY2(shardedCopy(dir2.path(), 2, &why), qPrintable(why));
        QJsonObject index = QJsonDocument::fromJson(readIndex(dir2.path())).object();
        QJsonObject map = index[QStringLiteral("weight_map")].toObject();
        const QString first = map.begin().key();
        map[first] = map[first].toString() == folio::test::shardFileName(0, 2) ? folio::test::shardFileName(1, 2) : folio::test::shardFileName(0, 2);
        index[QStringLiteral("weight_map")] = map;
        writeIndex(dir2.path(), QJsonDocument(index).toJson());
        try {
            ShardedSafetensors shards(dir2.path().toStdString());
            QFAIL("a misplaced tensor was accepted");
        } catch (const std::exception &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("which does not hold it")) && QString::fromUtf8(e.what()).contains(first), e.what());
        }
    }
};

FOLIO_TEST_GUILESS_MAIN(TestShardedCheckpoint)
#include "tst_shardedcheckpoint.moc"
