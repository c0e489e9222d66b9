// Safetensors reader/writer: round trip, and every kind of lying or truncated file fails with a
// message naming the file and the tensor. Also replays the libFuzzer corpus.
#include "inference/errors.h"
#include "inference/checkpoint/safetensors.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <fstream>

using namespace folio::inference;

namespace {

std::string makeFile(const std::string &header, std::size_t dataBytes)
{
    std::string s(8, '\0');
    const std::uint64_t n = header.size();
    for (int i = 0; i < 8; ++i)
        s[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
    return s + header + std::string(dataBytes, '\x01');
}

std::string parseError(const std::string &bytes)
{
    try {
        std::map<std::string, TensorView> entries;
        SafetensorsFile::parse(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size(), "mem.safetensors",
                               &entries, nullptr);
    } catch (const InferenceError &e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestSafetensors : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/t.safetensors").toStdString();
        TensorMap m;
        m["a"] = Tensor::fromFloats({2, 3}, {1, 2, 3, 4, 5, 6});
        m["b"] = Tensor::fromInt64({3}, {7, -8, 9});
        m["empty"] = Tensor::zeros(DType::F32, {0, 4});
        writeSafetensors(path, m, {{"format", "pt"}});
        SafetensorsFile f(path);
        QCOMPARE(f.names().size(), std::size_t(3));
        QCOMPARE(f.metadata().at("format"), std::string("pt"));
        const TensorMap back = f.readAll();
        QCOMPARE(back.at("a").bytes, m["a"].bytes);
        QCOMPARE(back.at("b").shape, m["b"].shape);
        QCOMPARE(back.at("b").data<std::int64_t>()[1], std::int64_t(-8));
        QCOMPARE(back.at("empty").numel(), std::int64_t(0));
        // Atomic write leaves no temporary next to the file.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expect");
        auto add = [](const char *name, const std::string &b, const char *expect) {
            QTest::newRow(name) << QByteArray(b.data(), static_cast<int>(b.size())) << QString::fromLatin1(expect);
        };
        add("short", std::string("abc"), "too short");
        std::string huge(8, '\0');
        huge[5] = 0x10; // 2^44 bytes
        add("hugeHeader", huge + "{}", "100 MB");
        add("headerPastEnd", makeFile("{}", 0).replace(0, 1, "\x40"), "past the end");
        add("notJson", makeFile("{nope", 0), "not valid JSON");
        add("notObject", makeFile("[1,2]", 0), "not a JSON object");
        add("unknownDtype", makeFile(R"({"w":{"dtype":"F8","shape":[1],"data_offsets":[0,1]}})", 1), "'w': unknown dtype");
        add("pastEnd", makeFile(R"({"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", 8), "'w': data_offsets");
        add("sizeMismatch", makeFile(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8), "'w': byte size");
        add("overlap", makeFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})", 12),
            "overlaps");
        add("negativeShape", makeFile(R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", 4), "'w': shape");
        add("endBeforeBegin", makeFile(R"({"w":{"dtype":"U8","shape":[0],"data_offsets":[4,0]}})", 4), "end before begin");
        add("badOffsets", makeFile(R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[0]}})", 4), "data_offsets");
        add("entryNotObject", makeFile(R"({"w":3})", 0), "'w': entry is not an object");
        add("shapeOverflow", makeFile(R"({"w":{"dtype":"F64","shape":[4294967296,4294967296,16],"data_offsets":[0,8]}})", 8), "'w'");
        add("badMetadata", makeFile(R"({"__metadata__":{"k":1}})", 0), "__metadata__");
    }

    void badInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expect);
        const std::string err = parseError(bytes.toStdString());
        QVERIFY2(!err.empty(), "accepted a bad file");
        QVERIFY2(err.find("mem.safetensors") != std::string::npos, err.c_str());
        QVERIFY2(err.find(expect.toStdString()) != std::string::npos, err.c_str());
    }

    void missingFileNamesPath()
    {
        try {
            SafetensorsFile f("/nonexistent/x.safetensors");
            QFAIL("opened a missing file");
        } catch (const InferenceError &e) {
            QVERIFY(std::string(e.what()).find("/nonexistent/x.safetensors") != std::string::npos);
        }
    }

    // Every file of the fuzz corpus must parse or fail cleanly (no crash, no UB under sanitizers).
    void fuzzCorpus()
    {
        const QDir dir(QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/fuzz/safetensors"));
        QVERIFY2(dir.exists(), "corpus folder missing");
        const auto files = dir.entryInfoList(QDir::Files);
        QVERIFY(!files.isEmpty());
        int accepted = 0;
        for (const QFileInfo &fi : files) {
            QFile f(fi.filePath());
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray b = f.readAll();
            if (parseError(b.toStdString()).empty())
                ++accepted;
        }
        qInfo("fuzz corpus: %lld files, %d valid", static_cast<long long>(files.size()), accepted);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestSafetensors)
#include "tst_safetensors.moc"
