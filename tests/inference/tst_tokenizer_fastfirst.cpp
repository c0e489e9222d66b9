// A checkpoint folder with BOTH the slow tokenizer's files (vocab.json + merges.txt, vocab.txt,
// sentencepiece.bpe.model) and tokenizer.json tokenizes as tokenizer.json says, as Python's
// AutoTokenizer (use_fast=True, its default) does (issue 46). Each folder here is built so that the
// two disagree: tokenizer.json has an added token the slow files lack (BPE, WordPiece, MarkupLM), or
// a different vocabulary altogether (Unigram beside an XLM-R SentencePiece model). The tokenizer.json
// files are the library's own (tests/data/tokenizerjson, made with the `tokenizers` library; see its
// README); the slow vocabularies are written from the same file, so only the added token differs.
// When Folio refuses something in tokenizer.json (BPE dropout) the slow files are used and
// loadWarning() names the reason.
#include "inference/tokenizers/hflayouttokenizer.h"
#include "inference/tokenizers/markuplmtokenizer.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>

using namespace folio;
namespace inf = folio::inference;

namespace {

QString caseFile(const QString &name) { return QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizerjson/") + name; }

nlohmann::json readJson(const QString &path)
{
    std::ifstream in(path.toStdString());
    return nlohmann::json::parse(in);
}

void writeText(const QString &path, const std::string &text)
{
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << text;
}

// The slow files of a tokenizer.json's model: vocab.json + merges.txt (BPE) or vocab.txt (WordPiece).
void writeSlowFiles(const QString &dir, const nlohmann::json &tj)
{
    const nlohmann::json &model = tj["model"];
    if (model["type"] == "BPE") {
        writeText(dir + "/vocab.json", model["vocab"].dump());
        std::string merges = "#version: 0.2\n";
        for (const auto &m : model["merges"])
            merges += (m.is_string() ? m.get<std::string>() : m[0].get<std::string>() + " " + m[1].get<std::string>()) + "\n";
        writeText(dir + "/merges.txt", merges);
    } else {
        std::size_t size = 0;
        for (const auto &v : model["vocab"])
            size = std::max(size, v.get<std::size_t>() + 1);
        std::vector<std::string> byId(size);
        for (std::size_t i = 0; i < size; ++i)
            byId[i] = "[unused" + std::to_string(i) + "]"; // ids the file leaves out
        for (auto it = model["vocab"].begin(); it != model["vocab"].end(); ++it)
            byId.at(it.value().get<std::size_t>()) = it.key();
        std::string text;
        for (const std::string &t : byId)
            text += t + "\n";
        writeText(dir + "/vocab.txt", text);
    }
}

// Adds `content` to tokenizer.json's added_tokens with the next free id; returns that id.
int addToken(nlohmann::json &tj, const std::string &content)
{
    int next = 0;
    if (tj["model"]["vocab"].is_object())
        for (const auto &v : tj["model"]["vocab"])
            next = std::max(next, v.get<int>() + 1);
    else
        next = int(tj["model"]["vocab"].size());
    for (const auto &a : tj["added_tokens"])
        next = std::max(next, a["id"].get<int>() + 1);
    tj["added_tokens"].push_back({{"id", next}, {"content", content}, {"single_word", false}, {"lstrip", false},
                                  {"rstrip", false}, {"normalized", false}, {"special", false}});
    return next;
}

std::vector<int> idsOf(const inf::HfLayoutTokenizer &tok, const std::vector<std::string> &words)
{
    const std::vector<inf::WordBox> boxes(words.size(), inf::WordBox{10, 20, 30, 40});
    return tok.encode(words, boxes).inputIds;
}

bool contains(const std::vector<int> &v, int id) { return std::find(v.begin(), v.end(), id) != v.end(); }

} // namespace

class TestTokenizerFastFirst : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Each architecture's tokenizer kind: tokenizer.json's added token wins over the slow files.
    void addedTokenOnlyInTokenizerJson_data()
    {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<QString>("tokenizerClass");
        QTest::addColumn<QString>("word");
        QTest::newRow("layoutlmv3 (byte-level BPE)") << "roberta_bpe" << "LayoutLMv3Tokenizer" << "Folio-Rechnung";
        QTest::newRow("lilt (RobertaTokenizer)") << "roberta_bpe" << "RobertaTokenizer" << "Folio-Rechnung";
        QTest::newRow("layoutlmv2 (WordPiece)") << "bert_wordpiece" << "LayoutLMv2Tokenizer" << "Foliorechnung";
    }
    void addedTokenOnlyInTokenizerJson()
    {
        QFETCH(QString, caseName);
        QFETCH(QString, tokenizerClass);
        QFETCH(QString, word);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        nlohmann::json tj = readJson(caseFile(caseName + "/tokenizer.json"));
        writeSlowFiles(tmp.path(), tj);
        const int added = addToken(tj, word.toStdString());
        writeText(tmp.path() + "/tokenizer.json", tj.dump());
        writeText(tmp.path() + "/tokenizer_config.json",
                  nlohmann::json{{"tokenizer_class", tokenizerClass.toStdString()}}.dump());
        const std::vector<std::string> words{word.toStdString(), "Nr."};

        const inf::HfLayoutTokenizer both = inf::HfLayoutTokenizer::fromDirectory(tmp.path().toStdString());
        QVERIFY2(both.loadWarning().empty(), both.loadWarning().c_str());
        const std::vector<int> bothIds = idsOf(both, words);
        QVERIFY2(bothIds.size() > 2 && bothIds[1] == added, "the added token of tokenizer.json is the word's one token");
        QVERIFY(both.tokenizer().vocabSize() == added + 1);

        // The slow files alone split the word: the two really disagree.
        QVERIFY(QFile::rename(tmp.path() + "/tokenizer.json", tmp.path() + "/tokenizer.json.off"));
        const inf::HfLayoutTokenizer slow = inf::HfLayoutTokenizer::fromDirectory(tmp.path().toStdString());
        const std::vector<int> slowIds = idsOf(slow, words);
        QVERIFY(!contains(slowIds, added));
        QVERIFY(slowIds.size() > bothIds.size());

        // tokenizer.json alone gives exactly what the folder with both gave.
        for (const char *f : {"vocab.json", "merges.txt", "vocab.txt"})
            QFile::remove(tmp.path() + "/" + f);
        QVERIFY(QFile::rename(tmp.path() + "/tokenizer.json.off", tmp.path() + "/tokenizer.json"));
        const inf::HfLayoutTokenizer fast = inf::HfLayoutTokenizer::fromDirectory(tmp.path().toStdString());
        QCOMPARE(idsOf(fast, words), bothIds);
    }

    // LayoutXLM / LiLT-InfoXLM: a Unigram tokenizer.json (another vocabulary) beside an XLM-R
    // sentencepiece.bpe.model: the folder gives the ids the `tokenizers` library recorded for that
    // tokenizer.json (cases.json), which the SentencePiece model alone does not.
    void unigramTokenizerJsonBesideSentencePiece()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QVERIFY(QFile::copy(QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizers/layoutxlm/sentencepiece.bpe.model"),
                            tmp.path() + "/sentencepiece.bpe.model"));
        writeText(tmp.path() + "/tokenizer_config.json", R"({"tokenizer_class": "LayoutXLMTokenizer"})");
        const inf::HfLayoutTokenizer slow = inf::HfLayoutTokenizer::fromDirectory(tmp.path().toStdString());
        QVERIFY(QFile::copy(caseFile("generic_unigram_first/tokenizer.json"), tmp.path() + "/tokenizer.json"));
        const inf::HfLayoutTokenizer both = inf::HfLayoutTokenizer::fromDirectory(tmp.path().toStdString());
        QVERIFY2(both.loadWarning().empty(), both.loadWarning().c_str());

        const nlohmann::json cases = readJson(caseFile("generic_unigram_first/cases.json"));
        int differ = 0, n = 0;
        for (const auto &c : cases.at("cases")) {
            const std::vector<std::string> words = c.at("words").get<std::vector<std::string>>();
            const std::vector<inf::WordBox> boxes(words.size(), inf::WordBox{1, 2, 3, 4});
            const std::vector<int> want = c.at("input_ids").get<std::vector<int>>();
            QCOMPARE(both.encode(words, boxes, nullptr, 100000, false).inputIds, want);
            differ += slow.encode(words, boxes, nullptr, 100000, false).inputIds != want;
            ++n;
        }
        QVERIFY(n >= 2);
        QVERIFY2(differ > 0, "the SentencePiece model alone gives the same ids: the case proves nothing");
    }

    // No tokenizer_class: tokenizer.json's model says the kind, not the slow files beside it (here a
    // WordPiece tokenizer.json beside a byte-level BPE vocab.json + merges.txt).
    void kindFromTokenizerJsonWithoutTokenizerClass()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        writeSlowFiles(tmp.path(), readJson(caseFile("roberta_bpe/tokenizer.json")));
        QVERIFY(QFile::copy(caseFile("bert_wordpiece/tokenizer.json"), tmp.path() + "/tokenizer.json"));
        const inf::HfLayoutTokenizer tok = inf::HfLayoutTokenizer::fromDirectory(tmp.path().toStdString());
        QVERIFY(tok.config().kind == inf::HfLayoutTokenizerConfig::Kind::WordPiece);
        QVERIFY2(tok.loadWarning().empty(), tok.loadWarning().c_str());
        const nlohmann::json c = readJson(caseFile("bert_wordpiece/cases.json")).at("cases").at(0);
        const std::vector<std::string> words = c.at("words").get<std::vector<std::string>>();
        const std::vector<inf::WordBox> boxes(words.size(), inf::WordBox{1, 2, 3, 4});
        QCOMPARE(tok.encode(words, boxes, nullptr, 100000, false).inputIds, c.at("input_ids").get<std::vector<int>>());
    }

    // MarkupLM: the same preference through MarkupLMTokenizer.
    void markupLMAddedTokenOnlyInTokenizerJson()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        nlohmann::json tj = readJson(caseFile("markuplm_bpe/tokenizer.json"));
        writeSlowFiles(tmp.path(), tj);
        const int added = addToken(tj, "FolioNode");
        writeText(tmp.path() + "/tokenizer.json", tj.dump());
        QVERIFY(QFile::copy(caseFile("markuplm_bpe/tokenizer_config.json"), tmp.path() + "/tokenizer_config.json"));
        const inf::MarkupLMTokenizer both = inf::MarkupLMTokenizer::fromDirectory(tmp.path().toStdString());
        const std::vector<std::string> nodes{"FolioNode", "price"}, xpaths{"/html/body/p", "/html/body/p[2]"};
        const std::vector<int> bothIds = both.encode(nodes, xpaths).inputIds;
        QVERIFY2(bothIds.size() > 2 && bothIds[1] == added, "the added token of tokenizer.json is the node's one token");

        QVERIFY(QFile::remove(tmp.path() + "/tokenizer.json"));
        const inf::MarkupLMTokenizer slow = inf::MarkupLMTokenizer::fromDirectory(tmp.path().toStdString());
        QVERIFY(!contains(slow.encode(nodes, xpaths).inputIds, added));
    }

    // A tokenizer.json Folio refuses (BPE dropout) beside the slow files: the slow files, with a
    // warning naming the file and the feature; without the slow files, the refusal itself.
    void refusedTokenizerJsonFallsBackWithWarning()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        nlohmann::json tj = readJson(caseFile("roberta_bpe/tokenizer.json"));
        writeSlowFiles(tmp.path(), tj);
        const int added = addToken(tj, "Folio-Rechnung");
        tj["model"]["dropout"] = 0.1;
        writeText(tmp.path() + "/tokenizer.json", tj.dump());
        const std::vector<std::string> words{"Folio-Rechnung", "Nr."};
        const inf::HfLayoutTokenizer both = inf::HfLayoutTokenizer::fromDirectory(tmp.path().toStdString());
        QVERIFY2(both.loadWarning().find("tokenizer.json") != std::string::npos
                     && both.loadWarning().find("dropout") != std::string::npos
                     && both.loadWarning().find("vocab.json + merges.txt") != std::string::npos,
                 both.loadWarning().c_str());
        QVERIFY(!contains(idsOf(both, words), added));

        for (const char *f : {"vocab.json", "merges.txt"})
            QVERIFY(QFile::remove(tmp.path() + "/" + f));
        try {
            inf::HfLayoutTokenizer::fromDirectory(tmp.path().toStdString());
            QFAIL("a tokenizer.json with BPE dropout and no slow files loaded");
        } catch (const std::exception &e) {
            QVERIFY2(std::string(e.what()).find("dropout") != std::string::npos, e.what());
        }
    }
};

FOLIO_TEST_GUILESS_MAIN(TestTokenizerFastFirst)
#include "tst_tokenizer_fastfirst.moc"
