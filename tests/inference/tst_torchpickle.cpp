// pytorch_model.bin (torch.save's zip-pickled state dict) read without running pickle code:
// files written at test time by /usr/bin/python3 with torch (skipped without it), hostile pickles
// refused naming the file and the global/opcode, and a Hugging Face checkpoint folder whose weights
// are a pytorch_model.bin labelling exactly as its safetensors twin.
#include "inference/checkpoint/torchpickle.h"
#include "inference/checkpoint/torchzip.h"
#include "inference/models/hftokenclassifier.h"
#include "tests/common/testdata.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

using namespace folio::inference;
using nlohmann::json;

namespace {

// A byte string from a literal (embedded NULs kept).
#define PK(literal) std::string(literal, sizeof(literal) - 1)

const QString kPython = QStringLiteral("/usr/bin/python3");

bool pythonHasTorch()
{
    static int has = -1;
    if (has < 0) {
        QProcess p;
        p.start(kPython, {QStringLiteral("-c"), QStringLiteral("import torch")});
        has = p.waitForFinished(120000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 ? 1 : 0;
    }
    return has == 1;
}

// Runs a python script; empty string on success, else its stderr.
QString runPython(const QString &script, const QStringList &args)
{
    QProcess p;
    p.start(kPython, QStringList{QStringLiteral("-c"), script} + args);
    if (!p.waitForFinished(300000))
        return QStringLiteral("python3 did not finish");
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QString::fromUtf8(p.readAllStandardError());
    return QString();
}

#define REQUIRE_TORCH_PYTHON()                                                                             \
    do {                                                                                                   \
        if (!pythonHasTorch())                                                                             \
            FOLIO_DATA_MISSING(QStringLiteral("/usr/bin/python3 with torch (python3-torch) to write pytorch_model.bin files")); \
    } while (false)

QString pipelineCheckpoint()
{
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline/checkpoint"));
}

float floatAt(const Tensor &t, std::int64_t i)
{
    return t.data<float>()[i];
}

std::string refusal(const std::string &pickle)
{
    try {
        readStateDictPickle(pickle, "evil.bin", [](const std::string &) { return std::string(64, '\0'); });
    } catch (const std::exception &e) {
        return e.what();
    }
    return std::string();
}

// A tensor "w" of `size` floats over a storage of `numel` floats.
std::string tensorPickle(int numel, int size)
{
    return PK("\x80\x02}X\x01\0\0\0wctorch._utils\n_rebuild_tensor_v2\n((X\x07\0\0\0storagectorch\nFloatStorage\nX\x01\0\0\0" "0X\x03\0\0\0" "cpuK") +
           char(numel) + PK("tQK\0K") + char(size) + PK("\x85K\x01\x85\x89)tRs.");
}

} // namespace

class TestTorchPickle : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsWhatTorchSaveWrites()
    {
        REQUIRE_TORCH_PYTHON();
        QTemporaryDir dir;
        const QString bin = dir.filePath(QStringLiteral("state.bin"));
        const QString values = dir.filePath(QStringLiteral("values.json"));
        // A module's state_dict (OrderedDict with _metadata), a transposed (non-contiguous) view,
        // two tensors sharing one storage at different offsets, int64, float16 and bool tensors.
        const QString script = QStringLiteral(
            "import sys, json, torch\n"
            "from collections import OrderedDict\n"
            "torch.manual_seed(3)\n"
            "m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.LayerNorm(4))\n"
            "sd = m.state_dict()\n"
            "base = torch.arange(24, dtype=torch.float32).reshape(4, 6)\n"
            "sd['t.transposed'] = base.t()\n"
            "sd['t.row2'] = base[2]\n"
            "sd['t.slice'] = base[1:3, 2:5]\n"
            "sd['t.long'] = torch.tensor([[1, -2], [3, 1 << 40]], dtype=torch.int64)\n"
            "sd['t.half'] = torch.tensor([0.5, -1.25, 3.0], dtype=torch.float16)\n"
            "sd['t.bool'] = torch.tensor([True, False, True])\n"
            "sd['t.scalar'] = torch.tensor(7.5)\n"
            "torch.save(sd, sys.argv[1])\n"
            "json.dump({k: v.float().flatten().tolist() for k, v in sd.items()}, open(sys.argv[2], 'w'))\n"
            "json.dump({k: list(v.shape) for k, v in sd.items()}, open(sys.argv[2] + '.shapes', 'w'))\n");
        const QString error = runPython(script, {bin, values});
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const TensorMap got = readTorchCheckpoint(bin.toStdString());
        QFile vf(values), sf(values + QStringLiteral(".shapes"));
        QVERIFY(vf.open(QIODevice::ReadOnly) && sf.open(QIODevice::ReadOnly));
        const json want = json::parse(vf.readAll().toStdString()), shapes = json::parse(sf.readAll().toStdString());
        QCOMPARE(got.size(), want.size());
        for (auto it = want.begin(); it != want.end(); ++it) {
            const auto t = got.find(it.key());
            QVERIFY2(t != got.end(), it.key().c_str());
            QCOMPARE(t->second.shape, shapes[it.key()].get<std::vector<std::int64_t>>());
            QCOMPARE(t->second.numel(), std::int64_t(it.value().size()));
            for (std::int64_t i = 0; i < t->second.numel(); ++i) {
                double v = 0;
                switch (t->second.dtype) {
                case DType::F32: v = floatAt(t->second, i); break;
                case DType::I64: v = double(t->second.data<std::int64_t>()[i]); break;
                case DType::Bool: v = t->second.data<std::uint8_t>()[i] ? 1 : 0; break;
                case DType::F16: v = it.value()[std::size_t(i)].get<double>(); break; // checked below
                default: QFAIL("unexpected dtype");
                }
                QVERIFY2(v == it.value()[std::size_t(i)].get<double>(), (it.key() + " @" + std::to_string(i)).c_str());
            }
        }
        QCOMPARE(int(got.at("t.half").dtype), int(DType::F16));
        const std::uint16_t half0 = got.at("t.half").data<std::uint16_t>()[0];
        QCOMPARE(half0, std::uint16_t(0x3800)); // 0.5 in IEEE half
        QCOMPARE(got.at("t.transposed").shape, std::vector<std::int64_t>({6, 4}));
        QCOMPARE(floatAt(got.at("t.transposed"), 1), 6.f); // [0][1] = base[1][0]
    }

    void hostilePicklesAreRefused()
    {
        // GLOBAL os.system + REDUCE: refused at the GLOBAL, nothing run.
        std::string e = refusal(PK("\x80\x02" "cos\nsystem\n" "X\x05\0\0\0" "touch" "\x85R."));
        QVERIFY2(QString::fromStdString(e).contains(QStringLiteral("evil.bin: global os.system is not allowed")), e.c_str());
        // STACK_GLOBAL builtins.eval (protocol 4).
        e = refusal(PK("\x80\x04\x8c\x08" "builtins" "\x8c\x04" "eval" "\x93" "X\x01\0\0\0" "1" "\x85R."));
        QVERIFY2(e.find("global builtins.eval") != std::string::npos, e.c_str());
        // A torch global outside the allow-list.
        e = refusal(PK("\x80\x02" "ctorch\nload\n" ")R."));
        QVERIFY2(e.find("torch.load") != std::string::npos, e.c_str());
        // INST ('i') and OBJ ('o') are not state-dict opcodes.
        e = refusal(PK("\x80\x02(ios\nsystem\n."));
        QVERIFY2(e.find("opcode 0x69 'i'") != std::string::npos, e.c_str());
        // Not a dict of tensors.
        e = refusal(PK("\x80\x02]q\0."));
        QVERIFY2(e.find("not a state dict") != std::string::npos, e.c_str());
        e = refusal(PK("\x80\x02}X\x01\0\0\0" "aK\x05s."));
        QVERIFY2(e.find("entry \"a\" is not a tensor") != std::string::npos, e.c_str());
        // Truncated and malformed streams.
        QVERIFY(refusal(PK("\x80\x02}")).find("ends without STOP") != std::string::npos);
        QVERIFY(refusal(PK("\x80\x02X\xff\xff\xff\x7f")).find("past the end") != std::string::npos);
        QVERIFY(refusal(PK("\x80\x02h\x09.")).find("memo index 9") != std::string::npos);
        QVERIFY(refusal(PK("\x80\x02s.")).find("empty stack") != std::string::npos);
        QVERIFY(refusal(PK("\x80\x02t.")).find("without MARK") != std::string::npos);
        QVERIFY(refusal(PK("\x80\x02}}.")).find("left on the stack") != std::string::npos);
        // A storage too small for the tensor that uses it.
        std::string why;
        try {
            readStateDictPickle(tensorPickle(4, 5), "small.bin", [](const std::string &) { return std::string(16, '\0'); });
        } catch (const std::exception &ex) {
            why = ex.what();
        }
        QVERIFY2(why.find("reaches past its storage") != std::string::npos, why.c_str());
        // 4 floats over a storage of 5 read.
        const TensorMap ok = readStateDictPickle(tensorPickle(5, 4), "ok.bin", [](const std::string &) {
            std::string b(20, '\0');
            const float v[5] = {1, 2, 3, 4, 5};
            std::memcpy(&b[0], v, 20);
            return b;
        });
        QCOMPARE(ok.at("w").shape, std::vector<std::int64_t>({4}));
        QCOMPARE(floatAt(ok.at("w"), 3), 4.f);
    }

    void brokenArchivesAreRefused()
    {
        QTemporaryDir dir;
        const QString junk = dir.filePath(QStringLiteral("pytorch_model.bin"));
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(100, 'x'));
        f.close();
        try {
            readTorchCheckpoint(junk.toStdString());
            QFAIL("junk accepted");
        } catch (const std::exception &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(junk + QStringLiteral(": not a zip archive")), e.what());
        }
        // A real zip whose entries are compressed / whose data.pkl is hostile (python's zipfile).
        REQUIRE_TORCH_PYTHON();
        const QString compressed = dir.filePath(QStringLiteral("compressed.bin"));
        const QString evil = dir.filePath(QStringLiteral("evil.bin"));
        const QString error = runPython(QStringLiteral(
            "import sys, zipfile, pickle, os\n"
            "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z: z.writestr('archive/data.pkl', pickle.dumps({}, protocol=2))\n"
            "with zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_STORED) as z: z.writestr('archive/data.pkl', pickle.dumps(os.system, protocol=2))\n"),
            {compressed, evil});
        QVERIFY2(error.isEmpty(), qPrintable(error));
        auto message = [](const QString &path) {
            try {
                readTorchCheckpoint(path.toStdString());
            } catch (const std::exception &e) {
                return QString::fromUtf8(e.what());
            }
            return QString();
        };
        QVERIFY2(message(compressed).contains(QStringLiteral("is compressed")), qPrintable(message(compressed)));
        QVERIFY2(message(evil).contains(evil) && message(evil).contains(QStringLiteral("global posix.system")), qPrintable(message(evil)));
    }

    void aHfFolderWithPytorchModelBinLabelsAsItsSafetensorsTwin()
    {
        FOLIO_REQUIRE_DATA(pipelineCheckpoint() + QStringLiteral("/model.safetensors"));
        REQUIRE_TORCH_PYTHON();
        QTemporaryDir dir;
        const QDir from(pipelineCheckpoint());
        for (const QString &name : from.entryList(QDir::Files))
            if (name != QLatin1String("model.safetensors"))
                QVERIFY(QFile::copy(from.filePath(name), dir.filePath(name)));
        // safetensors -> torch.save, by a few lines of python (header length, JSON header, raw data).
        const QString error = runPython(QStringLiteral(
            "import sys, json, struct, torch\n"
            "from collections import OrderedDict\n"
            "raw = open(sys.argv[1], 'rb').read()\n"
            "n = struct.unpack('<Q', raw[:8])[0]\n"
            "header = json.loads(raw[8:8 + n])\n"
            "sd = OrderedDict()\n"
            "types = {'F32': torch.float32, 'I64': torch.int64, 'F16': torch.float16}\n"
            "for k, v in header.items():\n"
            "    if k == '__metadata__': continue\n"
            "    a, b = v['data_offsets']\n"
            "    sd[k] = torch.frombuffer(bytearray(raw[8 + n + a:8 + n + b]), dtype=types[v['dtype']]).reshape(v['shape']).clone()\n"
            "torch.save(sd, sys.argv[2])\n"),
            {from.filePath(QStringLiteral("model.safetensors")), dir.filePath(QStringLiteral("pytorch_model.bin"))});
        QVERIFY2(error.isEmpty(), qPrintable(error));
        HfTokenClassifier st, bin;
        std::string why;
        QVERIFY2(st.load(pipelineCheckpoint().toStdString(), &why), why.c_str());
        QVERIFY2(bin.load(dir.path().toStdString(), &why), why.c_str());
        const std::vector<std::string> words{"Date:", "March", "3,", "1998", "To:", "Mr.", "Smith", "Signature"};
        std::vector<WordBox> boxes;
        for (int i = 0; i < int(words.size()); ++i)
            boxes.push_back(WordBox{10 + 90 * i, 100, 90 + 90 * i, 120});
        const WordLabelling a = st.label(words, boxes), b = bin.label(words, boxes);
        QVERIFY2(a.ok && b.ok, (a.error + b.error).c_str());
        const Tensor &la = a.windows[0].at("logits"), &lb = b.windows[0].at("logits");
        QCOMPARE(la.shape, lb.shape);
        QVERIFY(la.bytes == lb.bytes); // the same weights, bit for bit
        for (std::size_t i = 0; i < words.size(); ++i)
            QCOMPARE(a.words[i].label, b.words[i].label);

        // A hostile pytorch_model.bin: refused naming the file, the previous model kept.
        QFile::remove(dir.filePath(QStringLiteral("pytorch_model.bin")));
        const QString evil = runPython(QStringLiteral(
            "import sys, zipfile\n"
            "with zipfile.ZipFile(sys.argv[1], 'w') as z: z.writestr('archive/data.pkl', b'\\x80\\x02cos\\nsystem\\nX\\x02\\x00\\x00\\x00ls\\x85R.')\n"),
            {dir.filePath(QStringLiteral("pytorch_model.bin"))});
        QVERIFY2(evil.isEmpty(), qPrintable(evil));
        QVERIFY(!bin.load(dir.path().toStdString(), &why));
        QVERIFY2(why.find("pytorch_model.bin") != std::string::npos && why.find("os.system") != std::string::npos, why.c_str());
        QVERIFY(bin.isLoaded());
        QVERIFY(bin.label(words, boxes).ok);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestTorchPickle)
#include "tst_torchpickle.moc"
