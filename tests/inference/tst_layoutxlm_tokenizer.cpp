// LayoutXLM and LayoutLMv2 tokenizers (issue 32) against the reference slow tokenizers'
// encodings in tests/data/tokenizers/layoutxlm and layoutlmv2 (see their README.md): input_ids,
// bbox, attention_mask and the word of every position exactly, German words, a tab-only word, an
// empty word, long words, CJK and truncation at max_length included. Also the fairseq id offset of
// the XLM-R vocabulary and the folders that cannot be a tokenizer.
#include "inference/tokenizers/hflayouttokenizer.h"
#include "tests/common/testdata.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace folio::inference;

namespace {

std::string fixtureDir(const char *name)
{
    return std::string(FOLIO_SOURCE_DIR "/tests/data/tokenizers/") + name;
}

nlohmann::json readCases(const std::string &dir)
{
    std::ifstream in(dir + "/cases.json");
    return nlohmann::json::parse(in);
}

std::string errorOf(const std::string &dir)
{
    try {
        HfLayoutTokenizer::fromDirectory(dir);
    } catch (const std::exception &e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestLayoutXlmTokenizer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void referenceEncodings_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("layoutxlm") << QStringLiteral("layoutxlm");
        QTest::newRow("layoutlmv2") << QStringLiteral("layoutlmv2");
    }

    void referenceEncodings()
    {
        QFETCH(QString, fixture);
        const std::string dir = fixtureDir(fixture.toUtf8().constData());
        FOLIO_REQUIRE_DATA(QString::fromStdString(dir + "/cases.json"));
        const nlohmann::json all = readCases(dir);
        const HfLayoutTokenizer tok = HfLayoutTokenizer::fromDirectory(dir);
        // (vocab.txt repeats two pieces: the reference's vocab_size counts distinct ones, ids run to the line count)
        if (all.contains("mask_id")) {
            QCOMPARE(tok.tokenizer().vocabSize(), all.at("vocab_size").get<int>());
            QCOMPARE(tok.tokenizer().pieceToId("<mask>"), all.at("mask_id").get<int>());
        }
        int page = 0;
        for (const nlohmann::json &c : all.at("cases")) {
            const auto words = c.at("words").get<std::vector<std::string>>();
            std::vector<WordBox> boxes;
            for (const auto &b : c.at("boxes"))
                boxes.push_back(WordBox{b[0].get<int>(), b[1].get<int>(), b[2].get<int>(), b[3].get<int>()});
            const int maxLength = c.contains("max_length") ? c.at("max_length").get<int>() : 0;
            const LayoutTokens t = tok.encode(words, boxes, nullptr, maxLength, true, false);
            const auto ids = c.at("input_ids").get<std::vector<int>>();
            std::ostringstream got;
            for (const int id : t.inputIds)
                got << tok.tokenizer().idToPiece(id) << ' ';
            QVERIFY2(t.inputIds == ids, (fixture.toStdString() + " page " + std::to_string(page) + ": " + got.str()).c_str());
            QCOMPARE(t.attentionMask, c.at("attention_mask").get<std::vector<int>>());
            QCOMPARE(t.wordIds, c.at("word_ids").get<std::vector<int>>());
            const auto bbox = c.at("bbox").get<std::vector<std::vector<int>>>();
            QCOMPARE(t.bbox.size(), bbox.size());
            for (std::size_t i = 0; i < bbox.size(); ++i) {
                const WordBox &b = t.bbox[i];
                QVERIFY2((std::vector<int>{b.x0, b.y0, b.x1, b.y1}) == bbox[i], ("bbox of position " + std::to_string(i)).c_str());
            }
            ++page;
        }
        QVERIFY(page >= 3);
    }

    // fairseq's dictionary: <s> <pad> </s> <unk> first, SentencePiece ids + 1, <mask> last.
    void xlmRobertaIds()
    {
        const std::string dir = fixtureDir("layoutxlm");
        FOLIO_REQUIRE_DATA(QString::fromStdString(dir + "/sentencepiece.bpe.model"));
        const HfLayoutTokenizer tok = HfLayoutTokenizer::fromDirectory(dir);
        QCOMPARE(tok.config().kind, HfLayoutTokenizerConfig::Kind::XlmSentencePiece);
        QCOMPARE(tok.clsId(), 0);
        QCOMPARE(tok.padId(), 1);
        QCOMPARE(tok.sepId(), 2);
        QCOMPARE(tok.tokenizer().unkId(), 3);
        QCOMPARE(tok.tokenizer().idToPiece(3), std::string("<unk>"));
        const std::unique_ptr<Tokenizer> spm = makeSentencePieceTokenizer(dir + "/sentencepiece.bpe.model");
        const std::vector<int> raw = spm->encodeWord("Rechnung");
        const std::vector<int> shifted = tok.tokenizer().encodeWord("Rechnung");
        QCOMPARE(raw.size(), shifted.size());
        for (std::size_t i = 0; i < raw.size(); ++i)
            QCOMPARE(shifted[i], raw[i] + 1);
        QCOMPARE(tok.tokenizer().vocabSize(), spm->vocabSize() + 2);
        QVERIFY(tok.tokenizer().encodeWord("\t").empty());
    }

    // A tokenizer_config.json that names a class whose files are missing: refused naming the file.
    void missingFiles_data()
    {
        QTest::addColumn<QString>("tokenizerClass");
        QTest::addColumn<QString>("missing");
        QTest::newRow("LayoutXLMTokenizer") << QStringLiteral("LayoutXLMTokenizer") << QStringLiteral("sentencepiece.bpe.model");
        QTest::newRow("LayoutLMv2Tokenizer") << QStringLiteral("LayoutLMv2Tokenizer") << QStringLiteral("vocab.txt");
    }

    void missingFiles()
    {
        QFETCH(QString, tokenizerClass);
        QFETCH(QString, missing);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        std::ofstream(tmp.filePath(QStringLiteral("tokenizer_config.json")).toStdString())
            << "{\"tokenizer_class\": \"" << tokenizerClass.toStdString() << "\"}";
        const std::string error = errorOf(tmp.path().toStdString());
        QVERIFY2(error.find(missing.toStdString()) != std::string::npos, error.c_str());
    }

    // BERT's BasicTokenizer: lower-casing strips accents (not ß), punctuation splits, CJK splits,
    // control characters vanish, white space alone gives nothing.
    void bertBasic()
    {
        const std::string dir = fixtureDir("layoutlmv2");
        FOLIO_REQUIRE_DATA(QString::fromStdString(dir + "/vocab.txt"));
        const HfLayoutTokenizer tok = HfLayoutTokenizer::fromDirectory(dir);
        QCOMPARE(tok.config().kind, HfLayoutTokenizerConfig::Kind::WordPiece);
        QCOMPARE(tok.tokenizer().pieces("Größe:"), (std::vector<std::string>{"große", ":"}));
        QCOMPARE(tok.tokenizer().pieces("STRASSE\x01"), (std::vector<std::string>{"strasse"}));
        QVERIFY(tok.tokenizer().encodeWord(" \t ").empty());
        QCOMPARE(tok.tokenizer().pieces("日x"), (std::vector<std::string>{"日", "x"}));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestLayoutXlmTokenizer)
#include "tst_layoutxlm_tokenizer.moc"
