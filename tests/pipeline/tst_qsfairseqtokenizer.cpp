// A fairseq BART folder with fairseq's own tokenizer files (issue 32): dict.txt + GPT-2's
// encoder.json + vocab.bpe (tests/data/seq2seq/fairseq_bart_gpt2bpe, made from the Hugging Face
// vocab.json + merges.txt in its hf/, a RoBERTa-style vocabulary of 1,060 pieces, with GPT-2 ids in
// GPT-2's order so that dict.txt really maps them, see the README) encode and decode exactly as the Hugging Face files do, and
// fairseq_bart/checkpoint_best.pt generates the same tokens and text with either. GPT-2 ids without
// a dict.txt line are <unk>, other symbols keep their position, repeated ones need the overwrite
// flag; malformed or missing files are refused naming the file.
#include "inference/tokenizers/fairseqdictionary.h"
#include "pipeline/checkpointinfo.h"
#include "pipeline/qs/qsinputs.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace folio;

namespace {

const QString kSeq2seq = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/seq2seq/");
const QString kHfBpe = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/seq2seq/fairseq_bart_gpt2bpe/hf/");

void copyInto(const QString &from, const QTemporaryDir &to, const QStringList &names)
{
    for (const QString &n : names)
        QVERIFY2(QFile::copy(from + n, to.filePath(n)), qPrintable(from + n));
}

// fairseq_bart's checkpoint with the fairseq files (fairseq) or the Hugging Face ones.
void makeFolder(const QTemporaryDir &dir, bool fairseq)
{
    copyInto(kSeq2seq + "fairseq_bart/", dir, {"checkpoint_best.pt"});
    if (fairseq)
        copyInto(kSeq2seq + "fairseq_bart_gpt2bpe/", dir, {"dict.txt", "encoder.json", "vocab.bpe"});
    else
        copyInto(kHfBpe, dir, {"vocab.json", "merges.txt"});
}

pipeline::QsVocabulary load(const QString &dir)
{
    pipeline::QsVocabulary v;
    QString error;
    if (!pipeline::loadQsVocabulary(dir, &v, &error))
        qWarning("%s", qPrintable(error));
    return v;
}

QString refusal(const QString &dir)
{
    pipeline::QsVocabulary v;
    QString error;
    return pipeline::loadQsVocabulary(dir, &v, &error) ? QString() : error;
}

void writeText(const QString &path, const QByteArray &text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

QByteArray readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

const QStringList kTexts = {QStringLiteral("Date: 12.3.2024"), QStringLiteral("total to Total, Dat tot"),
                            QStringLiteral("Quick brown fox's 7 dogs"), QString::fromUtf8("Größe \u20ac5 \u2014 naïve"),
                            QStringLiteral("  D a t e  ")};

} // namespace

class TestQsFairseqTokenizer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void encodeDecodeAsHuggingFaceFiles()
    {
        QTemporaryDir fs, hf;
        makeFolder(fs, true);
        makeFolder(hf, false);
        const pipeline::QsVocabulary a = load(fs.path()), b = load(hf.path());
        QVERIFY(a.tokenizer && b.tokenizer);
        QCOMPARE(a.tokenizer->files().size(), std::size_t(3));
        QCOMPARE(a.tokenizer->vocabSize(), b.tokenizer->vocabSize());
        QCOMPARE(a.tokenizer->unkId(), 3);
        QCOMPARE(a.tokenizer->padId(), 1);
        for (int id = 0; id < b.tokenizer->vocabSize(); ++id) {
            QCOMPARE(a.tokenizer->idToPiece(id), b.tokenizer->idToPiece(id));
            QCOMPARE(a.tokenizer->pieceToId(b.tokenizer->idToPiece(id)), id);
        }
        // The mapping is not the identity: "ĠS" is GPT-2 id 257 in encoder.json, fairseq id 260; the
        // last dict.txt line is <mask> (flagged #fairseq:overwrite), the Hugging Face files' last id.
        QCOMPARE(a.tokenizer->pieceToId("\xc4\xa0S"), 260);
        QCOMPARE(a.tokenizer->pieceToId("<mask>"), 1059);
        const QByteArray encoder = readText(kSeq2seq + "fairseq_bart_gpt2bpe/encoder.json");
        QVERIFY(encoder.contains("\"\xc4\xa0S\": 257"));
        QCOMPARE(b.tokenizer->pieceToId("\xc4\xa0S"), 260);
        for (const QString &text : kTexts) {
            const std::vector<std::int64_t> ids = pipeline::encodeQsText(a, text);
            QVERIFY(!ids.empty());
            QCOMPARE(ids, pipeline::encodeQsText(b, text));
            QCOMPARE(pipeline::decodeQsText(a, ids), pipeline::decodeQsText(b, ids));
        }
        QCOMPARE(pipeline::decodeQsText(a, pipeline::encodeQsText(a, QStringLiteral("Date: 12.3.2024"))),
                 QStringLiteral("Date: 12.3.2024"));
    }

    void generationAsHuggingFaceFiles()
    {
        QTemporaryDir fs, hf;
        makeFolder(fs, true);
        makeFolder(hf, false);
        const pipeline::QsVocabulary a = load(fs.path()), b = load(hf.path());
        QVERIFY(a.tokenizer && b.tokenizer);
        inference::Seq2seqGenerator ga, gb;
        std::string error;
        QVERIFY2(ga.load(fs.path().toStdString(), &error), error.c_str());
        QVERIFY2(gb.load(hf.path().toStdString(), &error), error.c_str());
        std::vector<inference::Seq2seqSource> rows;
        for (const QString &text : kTexts) {
            inference::Seq2seqSource s;
            s.ids = {0};
            for (std::int64_t id : pipeline::encodeQsText(a, text))
                s.ids.push_back(id < 500 ? id : 3); // the model's vocabulary is the tokenizer's first 500 ids
            s.ids.push_back(2);
            rows.push_back(s);
        }
        inference::GenerationSettings settings;
        settings.maxLength = 16;
        settings.stopAtEos = false;
        const inference::GenerationResult ra = ga.generate(rows, settings), rb = gb.generate(rows, settings);
        QVERIFY2(ra.ok && rb.ok, (ra.error + " / " + rb.error).c_str());
        QCOMPARE(ra.rows.size(), rows.size());
        QString all;
        for (std::size_t r = 0; r < rows.size(); ++r) {
            QCOMPARE(ra.rows[r].tokens, rb.rows[r].tokens);
            const QString text = pipeline::decodeQsText(a, ra.rows[r].tokens);
            QCOMPARE(text, pipeline::decodeQsText(b, rb.rows[r].tokens));
            all += text;
        }
        qInfo("generated: %s", qPrintable(all));
        QVERIFY(!all.isEmpty()); // some generated ids are in the tokenizer's vocabulary
    }

    // A GPT-2 id without a dict.txt line is <unk>; madeupword lines keep their position;
    // a repeated symbol with the overwrite flag takes its later position.
    void unknownAndOtherSymbols()
    {
        QTemporaryDir fs, hf;
        makeFolder(fs, true);
        makeFolder(hf, false);
        const pipeline::QsVocabulary b = load(hf.path());
        QVERIFY(b.tokenizer);
        const int sId = b.tokenizer->pieceToId("\xc4\xa0S");
        QVERIFY(sId > 3);
        QList<QByteArray> lines = readText(fs.filePath("dict.txt")).split('\n');
        const QByteArray sLine = lines[sId - 4];
        lines[sId - 4] = "madeupword0000 0"; // its GPT-2 id now has no line
        lines.insert(lines.size() - 1, "madeupword0001 0");
        lines.insert(lines.size() - 1, sLine.split(' ').front() + " 7 #fairseq:overwrite");
        writeText(fs.filePath("dict.txt"), lines.join('\n'));
        const pipeline::QsVocabulary a = load(fs.path());
        QVERIFY(a.tokenizer);
        const int n = b.tokenizer->vocabSize();
        QCOMPARE(a.tokenizer->vocabSize(), n + 2);
        QCOMPARE(a.tokenizer->idToPiece(sId), std::string("madeupword0000"));
        QCOMPARE(a.tokenizer->pieceToId("madeupword0000"), sId);
        QCOMPARE(a.tokenizer->idToPiece(n), std::string("madeupword0001"));
        QCOMPARE(a.tokenizer->pieceToId("madeupword0001"), n);
        QCOMPARE(a.tokenizer->pieceToId("\xc4\xa0S"), n + 1);
        QCOMPARE(pipeline::encodeQsText(a, QStringLiteral("x S")).back(), std::int64_t(n + 1));
        QCOMPARE(pipeline::decodeQsText(a, {std::int64_t(n), std::int64_t(n + 1)}), QStringLiteral("madeupword0001 S"));

        lines.removeAt(lines.size() - 2); // the overwrite line: "ĠS" has no fairseq id now
        writeText(fs.filePath("dict.txt"), lines.join('\n'));
        const pipeline::QsVocabulary c = load(fs.path());
        QVERIFY(c.tokenizer);
        QCOMPARE(pipeline::encodeQsText(c, QStringLiteral("x S")).back(), std::int64_t(3));
        QCOMPARE(c.tokenizer->pieceToId("\xc4\xa0S"), -1);
    }

    void refusedNamingTheFile_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("content"); // "" = delete the file
        QTest::addColumn<QString>("expected");
        QTest::newRow("vocab.bpe missing") << "vocab.bpe" << QByteArray() << "vocab.bpe: missing";
        QTest::newRow("encoder.json missing") << "encoder.json" << QByteArray() << "encoder.json: missing";
        QTest::newRow("dict no count") << "dict.txt" << QByteArray("264\n") << "dict.txt: line 1 is not";
        QTest::newRow("dict bad count") << "dict.txt" << QByteArray("264 many\n") << "dict.txt: line 1: the count";
        QTest::newRow("dict empty line") << "dict.txt" << QByteArray("264 1\n\n265 1\n") << "dict.txt: line 2 is empty";
        QTest::newRow("dict repeated") << "dict.txt" << QByteArray("264 2\n264 1\n") << "dict.txt: line 2: \"264\" is already id 4";
        QTest::newRow("dict special repeated") << "dict.txt" << QByteArray("<unk> 2\n") << "is already id 3";
        QTest::newRow("dict id not in encoder") << "dict.txt" << QByteArray("99999 2\n") << "dict.txt: line 1: GPT-2 id 99999";
        QTest::newRow("encoder not object") << "encoder.json" << QByteArray("[1, 2]") << "encoder.json: not a non-empty";
        QTest::newRow("encoder repeated id") << "encoder.json" << QByteArray("{\"a\": 1, \"b\": 1}") << "encoder.json: GPT-2 id 1";
        QTest::newRow("encoder without bytes") << "encoder.json" << QByteArray("{\"a\": 1}") << "encoder.json: no id for the byte symbol";
        QTest::newRow("vocab.bpe no header") << "vocab.bpe" << QByteArray("a b\n") << "vocab.bpe: the first line";
        QTest::newRow("vocab.bpe bad merge") << "vocab.bpe" << QByteArray("#version: 0.2\nab\n") << "vocab.bpe: line 2 is not a merge";
        QTest::newRow("vocab.bpe merge unknown") << "vocab.bpe" << QByteArray("#version: 0.2\nq z\n") << "has no id in";
    }

    void refusedNamingTheFile()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir fs;
        makeFolder(fs, true);
        if (content.isEmpty())
            QVERIFY(QFile::remove(fs.filePath(file)));
        else
            writeText(fs.filePath(file), content);
        const QString error = refusal(fs.path());
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY2(error.contains(fs.filePath(file)), qPrintable(error));
    }

    void oversizedDictionaryRefusedBeforeReading()
    {
        QTemporaryDir fs;
        makeFolder(fs, true);
        std::filesystem::resize_file(fs.filePath("dict.txt").toStdString(), (64ull << 20) + 1); // sparse
        const QString error = refusal(fs.path());
        QVERIFY2(error.contains(fs.filePath("dict.txt") + ": larger than 64 MiB"), qPrintable(error));
    }

    // folio-cli info --checkpoint: the folder runs, its tokenizer files listed.
    void describedAsRunnable()
    {
        QTemporaryDir fs;
        makeFolder(fs, true);
        const nlohmann::json info = pipeline::describeCheckpoint(fs.path());
        QVERIFY2(info["runnable"].get<bool>(), info.dump().c_str());
        QCOMPARE(info["files"]["tokenizer"], nlohmann::json({"dict.txt", "encoder.json", "vocab.bpe"}));
        QVERIFY(QFile::remove(fs.filePath("vocab.bpe")));
        const nlohmann::json refused = pipeline::describeCheckpoint(fs.path());
        QVERIFY(!refused["runnable"].get<bool>());
        QVERIFY2(refused.dump().find("vocab.bpe: missing") != std::string::npos, refused.dump().c_str());
    }

    // The Hugging Face files win when both are there (the folder keeps working as before).
    void huggingFaceFilesFirst()
    {
        QTemporaryDir both;
        makeFolder(both, false);
        copyInto(kSeq2seq + "fairseq_bart_gpt2bpe/", both, {"encoder.json"});
        writeText(both.filePath("dict.txt"), "not a dictionary");
        const pipeline::QsVocabulary v = load(both.path());
        QVERIFY(v.tokenizer);
        QCOMPARE(v.tokenizer->files().size(), std::size_t(2));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestQsFairseqTokenizer)
#include "tst_qsfairseqtokenizer.moc"
