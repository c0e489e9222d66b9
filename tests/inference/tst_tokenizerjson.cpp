// Tokenizers as the Hub ships them (issue 46): a folder with only `tokenizer.json` tokenizes as the
// Hugging Face `tokenizers` library does. The cases in tests/data/tokenizerjson (see its README.md)
// hold the library's own tokenizer.json files and its encodings of hard words; each folder is read
// through the path a checkpoint folder takes (HfLayoutTokenizer::fromDirectory, MarkupLMTokenizer::
// fromDirectory, Tokenizer::fromDirectory) and must give the library's ids and word ids exactly.
// Then tiny random LayoutLMv3, LiLT (BPE and XLM-R Unigram), LayoutLMv2 and MarkupLM checkpoints
// whose only tokenizer file is tokenizer.json label words; unsupported features are refused by name.
#include "inference/checkpoint/safetensors.h"
#include "inference/models/hfmarkuplm.h"
#include "inference/models/hftokenclassifier.h"
#include "inference/tokenizers/hflayouttokenizer.h"
#include "inference/tokenizers/markuplmtokenizer.h"
#include "inference/tokenizers/tokenizerjson.h"
#include "tests/common/layoutlmv2folder.h"
#include "tests/common/liltfolder.h"
#include "tests/common/testdata.h"
#include "tests/common/tinymarkuplm.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace folio;
namespace inf = folio::inference;

namespace {

QString caseDir(const QString &name) { return QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizerjson/") + name; }

nlohmann::json readJson(const QString &path)
{
    std::ifstream in(path.toStdString());
    return nlohmann::json::parse(in);
}

std::string joined(const std::vector<int> &v)
{
    std::ostringstream s;
    for (std::size_t i = 0; i < v.size(); ++i)
        s << (i ? " " : "") << v[i];
    return s.str();
}

std::string errorOf(const std::function<void()> &f)
{
    try {
        f();
    } catch (const std::exception &e) {
        return e.what();
    }
    return {};
}

// A folder holding only `files` (name -> text).
void writeFiles(const QString &dir, const std::map<QString, std::string> &files)
{
    QDir().mkpath(dir);
    for (const auto &kv : files) {
        std::ofstream out((dir + "/" + kv.first).toStdString(), std::ios::binary);
        out << kv.second;
    }
}

// Replaces a folder's slow tokenizer files by the case's tokenizer.json (and its tokenizer_config.json).
bool onlyTokenizerJson(const QString &dir, const QString &caseName)
{
    for (const char *slow : {"vocab.json", "merges.txt", "vocab.txt", "sentencepiece.bpe.model", "tokenizer_config.json",
                             "special_tokens_map.json", "tokenizer.json"})
        QFile::remove(dir + "/" + slow);
    const QDir src(caseDir(caseName));
    for (const QString &f : {QStringLiteral("tokenizer.json"), QStringLiteral("tokenizer_config.json")})
        if (src.exists(f) && !QFile::copy(src.filePath(f), dir + "/" + f))
            return false;
    return true;
}

// The word table of `key` cut or grown (repeating rows) to `rows`; config vocab_size set to match.
void resizeWordTable(const QString &dir, const std::string &key, std::int64_t rows)
{
    inf::TensorMap w = inf::readSafetensors((dir + "/model.safetensors").toStdString());
    inf::Tensor &t = w.at(key);
    const std::int64_t have = t.shape[0], width = t.shape[1];
    std::vector<float> out(std::size_t(rows * width));
    for (std::int64_t r = 0; r < rows; ++r)
        std::copy_n(t.data<float>() + (r % have) * width, width, out.begin() + r * width);
    t = inf::Tensor::fromFloats({rows, width}, out);
    inf::writeSafetensors((dir + "/model.safetensors").toStdString(), w);
    nlohmann::json config = test::readJsonFile(dir + "/config.json");
    config["vocab_size"] = rows;
    test::writeJsonFile(dir + "/config.json", config);
}

const char *const kWords[] = {"Rechnung", "Nr.", "2024-0815", "Straße", "Größe", "Café", "東京都", "😀", "Total:", "$3,000.00"};

} // namespace

class TestTokenizerJson : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matchesReference_data();
    void matchesReference();
    void onlyTokenizerJsonPredicts_data();
    void onlyTokenizerJsonPredicts();
    void markupLMOnlyTokenizerJsonPredicts();
    void wrongTokenizerJsonRefused();
    void refusedTokenizerJsonBesideSlowFilesWarns();
    void unsupportedFeaturesNamed_data();
    void unsupportedFeaturesNamed();
    void xlmRobertaSizedFileLoads();
};

void TestTokenizerJson::matchesReference_data()
{
    QTest::addColumn<QString>("name");
    for (const char *c : {"roberta_bpe", "markuplm_bpe", "bert_wordpiece", "bert_wordpiece_cased", "xlmr_unigram",
                          "generic_wordpiece", "generic_bpe_unk", "generic_unigram_first", "trained_bpe", "trained_wordpiece",
                          "trained_unigram", "generic_bpe_affixes"})
        QTest::newRow(c) << QString::fromLatin1(c);
}

void TestTokenizerJson::matchesReference()
{
    QFETCH(QString, name);
    const QString dir = caseDir(name);
    FOLIO_REQUIRE_DATA(dir + "/cases.json");
    const nlohmann::json data = readJson(dir + "/cases.json");
    const std::string d = dir.toStdString();
    // The folder as a checkpoint folder is read: the layout tokenizer (MarkupLM's for markuplm_bpe)
    // and the plain one (Tokenizer::fromDirectory, Folio's own tagger and the attention views).
    std::unique_ptr<inf::HfLayoutTokenizer> layout;
    std::unique_ptr<inf::MarkupLMTokenizer> markup;
    std::string why = errorOf([&] {
        if (name == QLatin1String("markuplm_bpe"))
            markup = std::make_unique<inf::MarkupLMTokenizer>(inf::MarkupLMTokenizer::fromDirectory(d));
        else
            layout = std::make_unique<inf::HfLayoutTokenizer>(inf::HfLayoutTokenizer::fromDirectory(d));
    });
    QVERIFY2(why.empty(), why.c_str());
    std::unique_ptr<inf::Tokenizer> plain;
    why = errorOf([&] { plain = inf::Tokenizer::fromDirectory(d); });
    QVERIFY2(why.empty(), why.c_str());
    QVERIFY2(plain->vocabSize() >= data.at("vocab_size").get<int>(), std::to_string(plain->vocabSize()).c_str());
    int cases = 0, tokens = 0;
    for (const auto &c : data.at("cases")) {
        const std::vector<std::string> words = c.at("words").get<std::vector<std::string>>();
        const std::vector<int> wantIds = c.at("input_ids").get<std::vector<int>>();
        const std::vector<int> wantWords = c.at("word_ids").get<std::vector<int>>();
        const auto perWord = c.at("ids_per_word").get<std::vector<std::vector<int>>>();
        std::vector<int> ids, wordIds;
        if (markup) {
            const std::vector<std::string> xpaths(words.size(), "/html/body/div");
            inf::MarkupEncodeOptions options;
            options.maxLength = 100000;
            const inf::MarkupTokens t = markup->encode(words, xpaths, nullptr, options);
            ids = t.inputIds;
            wordIds = t.nodeIds;
        } else {
            const std::vector<inf::WordBox> boxes(words.size(), inf::WordBox{1, 2, 3, 4});
            const inf::LayoutTokens t = layout->encode(words, boxes, nullptr, 100000, false);
            ids = t.inputIds;
            wordIds = t.wordIds;
        }
        // Word by word first (the message names the word), then the whole sequence with the specials.
        for (std::size_t w = 0; w < words.size(); ++w) {
            const std::vector<int> got = plain->encodeWord(words[w]);
            QVERIFY2(got == perWord[w], ("word [" + words[w] + "]: got " + joined(got) + ", want " + joined(perWord[w])).c_str());
        }
        std::string wordsText;
        for (const std::string &w : words)
            wordsText += "[" + w + "] ";
        QVERIFY2(ids == wantIds, ("words " + wordsText + "\n got  " + joined(ids) + "\n want " + joined(wantIds)).c_str());
        QVERIFY2(wordIds == wantWords, ("word ids of " + wordsText + "\n got  " + joined(wordIds) + "\n want " + joined(wantWords)).c_str());
        ++cases;
        tokens += int(wantIds.size());
    }
    qInfo("%s: %d word lists, %d tokens as the library gives them (%s)", qPrintable(name), cases, tokens,
          data.at("library").get<std::string>().c_str());
    QVERIFY(cases >= 2);
}

void TestTokenizerJson::onlyTokenizerJsonPredicts_data()
{
    QTest::addColumn<QString>("arch");
    QTest::addColumn<QString>("tokenizer");
    QTest::newRow("layoutlmv3 + RoBERTa BPE") << "layoutlmv3" << "roberta_bpe";
    QTest::newRow("lilt + RoBERTa BPE") << "lilt" << "roberta_bpe";
    QTest::newRow("lilt + XLM-R Unigram") << "lilt" << "xlmr_unigram";
    QTest::newRow("layoutlmv2 + BERT WordPiece") << "layoutlmv2" << "bert_wordpiece";
}

void TestTokenizerJson::onlyTokenizerJsonPredicts()
{
    QFETCH(QString, arch);
    QFETCH(QString, tokenizer);
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("model"));
    const nlohmann::json data = readJson(caseDir(tokenizer) + "/cases.json");
    std::unique_ptr<inf::Tokenizer> tok = inf::makeTokenizerFromJson((caseDir(tokenizer) + "/tokenizer.json").toStdString());
    const std::int64_t rows = tok->vocabSize();
    if (arch == QLatin1String("lilt")) {
        FOLIO_REQUIRE_DATA(test::liltCaseDir() + "/model.safetensors");
        QVERIFY(test::makeLiltFolder(dir, rows, caseDir(tokenizer)));
    } else if (arch == QLatin1String("layoutlmv2")) {
        FOLIO_REQUIRE_DATA(test::sharedPath(QStringLiteral("fixtures/parity-new/layoutlmv2_visual/model.safetensors")));
        QVERIFY(test::makeLayoutLMv2Folder(dir, QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizers/layoutlmv2")));
        resizeWordTable(dir, "layoutlmv2.embeddings.word_embeddings.weight", rows);
    } else {
        const QString src = test::sharedPath(QStringLiteral("fixtures/parity/layoutlmv3_tokcls"));
        FOLIO_REQUIRE_DATA(src + "/model.safetensors");
        test::copyFolderFiles(src, dir, {QStringLiteral("inputs.safetensors"), QStringLiteral("outputs.safetensors")});
        resizeWordTable(dir, "layoutlmv3.embeddings.word_embeddings.weight", rows);
    }
    QVERIFY(onlyTokenizerJson(dir, tokenizer));
    const QStringList left = QDir(dir).entryList(QDir::Files);
    for (const char *slow : {"vocab.json", "merges.txt", "vocab.txt", "sentencepiece.bpe.model"})
        QVERIFY2(!left.contains(QLatin1String(slow)), slow);
    std::string why;
    QVERIFY2(inf::HfTokenClassifier::checkFolder(dir.toStdString(), &why), why.c_str());
    inf::HfTokenClassifier model;
    QVERIFY2(model.load(dir.toStdString(), &why), why.c_str());
    std::vector<std::string> words;
    std::vector<inf::WordBox> boxes;
    for (int i = 0; i < 20; ++i) {
        words.push_back(kWords[i % 10]);
        const int x = 40 + (i % 5) * 180, y = 30 + (i / 5) * 40;
        boxes.push_back(inf::WordBox{x, y, x + 120, y + 25});
    }
    const inf::WordLabelling out = model.label(words, boxes);
    QVERIFY2(out.ok, out.error.c_str());
    QCOMPARE(out.words.size(), words.size());
    for (const auto &w : out.words)
        QVERIFY(w.labelId >= 0);
    // The ids the model saw are the library's (first word list of the case, through the folder).
    const inf::HfLayoutTokenizer layout = inf::HfLayoutTokenizer::fromDirectory(dir.toStdString());
    const auto &first = data.at("cases").at(0);
    const std::vector<std::string> caseWords = first.at("words").get<std::vector<std::string>>();
    const inf::LayoutTokens t = layout.encode(caseWords, std::vector<inf::WordBox>(caseWords.size()), nullptr, 100000, false);
    QCOMPARE(t.inputIds, first.at("input_ids").get<std::vector<int>>());
}

void TestTokenizerJson::markupLMOnlyTokenizerJsonPredicts()
{
    QTemporaryDir tmp;
    const QString dir = test::makeTinyMarkupLM(tmp.filePath(QStringLiteral("markuplm")), false);
    FOLIO_REQUIRE_DATA(dir);
    QVERIFY(onlyTokenizerJson(dir, QStringLiteral("markuplm_bpe")));
    QVERIFY(!QFileInfo::exists(dir + "/vocab.json"));
    std::string why;
    inf::HfMarkupLM model;
    QVERIFY2(model.load(dir.toStdString(), &why), why.c_str());
    std::vector<std::string> nodes, xpaths;
    for (int i = 0; i < 12; ++i) {
        nodes.push_back(kWords[i % 10]);
        xpaths.push_back("/html/body/div[" + std::to_string(1 + i / 4) + "]/span[" + std::to_string(1 + i % 4) + "]");
    }
    const inf::MarkupNodeLabelling out = model.label(nodes, xpaths);
    QVERIFY2(out.ok, out.error.c_str());
    QCOMPARE(out.nodes.size(), nodes.size());
}

// A LayoutLMv3 folder whose tokenizer.json is WordPiece, or has more ids than the model's rows, is
// refused before any weight is read, naming tokenizer.json.
void TestTokenizerJson::wrongTokenizerJsonRefused()
{
    const QString src = test::sharedPath(QStringLiteral("fixtures/parity/layoutlmv3_tokcls"));
    FOLIO_REQUIRE_DATA(src + "/model.safetensors");
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("model"));
    test::copyFolderFiles(src, dir, {QStringLiteral("inputs.safetensors"), QStringLiteral("outputs.safetensors")});
    QVERIFY(onlyTokenizerJson(dir, QStringLiteral("bert_wordpiece")));
    std::string why;
    QVERIFY(!inf::HfTokenClassifier::checkFolder(dir.toStdString(), &why));
    QVERIFY2(why.find("tokenizer.json: a WordPiece tokenizer") != std::string::npos, why.c_str());
    QVERIFY(onlyTokenizerJson(dir, QStringLiteral("roberta_bpe"))); // 1060 ids, the model has 500 rows
    QVERIFY(!inf::HfTokenClassifier::checkFolder(dir.toStdString(), &why));
    QVERIFY2(why.find("tokenizer.json: the tokenizer has 1060 ids") != std::string::npos, why.c_str());
}

// A tokenizer.json Folio refuses (BPE dropout) beside the checkpoint's own slow files: the model loads
// with the slow files, and the classifier's warnings say that tokenizer.json was passed over and why.
void TestTokenizerJson::refusedTokenizerJsonBesideSlowFilesWarns()
{
    const QString src = test::sharedPath(QStringLiteral("fixtures/parity/layoutlmv3_tokcls"));
    FOLIO_REQUIRE_DATA(src + "/model.safetensors");
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("model"));
    test::copyFolderFiles(src, dir, {QStringLiteral("inputs.safetensors"), QStringLiteral("outputs.safetensors")});
    const QString bpe = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizers/bpe");
    for (const char *f : {"vocab.json", "merges.txt"})
        QVERIFY(QFile::copy(bpe + "/" + f, dir + "/" + f));
    nlohmann::json tj = readJson(bpe + "/tokenizer.json");
    tj["model"]["dropout"] = 0.1;
    {
        std::ofstream out((dir + "/tokenizer.json").toStdString(), std::ios::binary);
        out << tj.dump();
    }
    std::string why;
    inf::HfTokenClassifier model;
    QVERIFY2(model.load(dir.toStdString(), &why), why.c_str());
    const std::vector<std::string> warnings = model.warnings();
    const bool said = std::any_of(warnings.begin(), warnings.end(), [](const std::string &w) {
        return w.find("tokenizer.json") != std::string::npos && w.find("dropout") != std::string::npos;
    });
    std::string all;
    for (const std::string &w : warnings)
        all += w + "; ";
    QVERIFY2(said, all.c_str());
}

void TestTokenizerJson::unsupportedFeaturesNamed_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("expected");
    const QString model = QStringLiteral(R"("model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0, "a": 1}})");
    QTest::newRow("WordLevel model") << QStringLiteral(R"({"added_tokens": [], "model": {"type": "WordLevel", "vocab": {}}})")
                                     << "model \"WordLevel\" is not supported";
    QTest::newRow("Split pre-tokenizer") << (R"({"added_tokens": [], "pre_tokenizer": {"type": "Split", "pattern": {"String": " "}}, )" + model + "}")
                                         << "pre_tokenizer \"Split\" is not supported";
    QTest::newRow("NMT normalizer") << (R"({"added_tokens": [], "normalizer": {"type": "Nmt"}, )" + model + "}")
                                    << "normalizer \"Nmt\" is not supported";
    QTest::newRow("BPE dropout") << QStringLiteral(R"({"added_tokens": [], "model": {"type": "BPE", "dropout": 0.1, "vocab": {"a": 0}, "merges": []}})")
                                 << "dropout is not supported";
    QTest::newRow("byte fallback") << QStringLiteral(R"({"added_tokens": [], "model": {"type": "Unigram", "unk_id": 0, "byte_fallback": true, "vocab": [["<unk>", 0]]}})")
                                   << "byte_fallback is not supported";
    QTest::newRow("broken charsmap") << (R"({"added_tokens": [], "normalizer": {"type": "Precompiled", "precompiled_charsmap": "AAEAAA=="}, )" + model + "}")
                                     << "precompiled_charsmap's trie size";
    QTest::newRow("merge outside vocabulary") << QStringLiteral(R"({"added_tokens": [], "model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a b"]}})")
                                              << "uses a token not in the vocabulary";
    QTest::newRow("unknown post-processor") << (R"({"added_tokens": [], "post_processor": {"type": "Whatever"}, )" + model + "}")
                                            << "post_processor \"Whatever\" is not supported";
    QString deep = QStringLiteral(R"({"added_tokens": [], )") + model + QStringLiteral(R"(, "x": )");
    deep += QString(300, QLatin1Char('[')) + QString(300, QLatin1Char(']')) + QLatin1Char('}');
    QTest::newRow("nested 300 deep") << deep << "nested deeper";
}

void TestTokenizerJson::unsupportedFeaturesNamed()
{
    QFETCH(QString, json);
    QFETCH(QString, expected);
    QTemporaryDir tmp;
    writeFiles(tmp.path(), {{QStringLiteral("tokenizer.json"), json.toStdString()}});
    const std::string file = tmp.filePath(QStringLiteral("tokenizer.json")).toStdString();
    // Through the folder too: Tokenizer::fromDirectory and the layout tokenizer name the file.
    for (const auto &load : std::vector<std::function<void()>>{
             [&] { inf::makeTokenizerFromJson(file); }, [&] { inf::Tokenizer::fromDirectory(tmp.path().toStdString()); },
             [&] { inf::HfLayoutTokenizer::fromDirectory(tmp.path().toStdString()); }}) {
        const std::string why = errorOf(load);
        QVERIFY2(why.find(expected.toStdString()) != std::string::npos, why.c_str());
        QVERIFY2(why.find("tokenizer.json") != std::string::npos, why.c_str());
    }
}

// A file the size of XLM-R's (250,002 Unigram pieces with the layoutxlm case's normaliser, about
// 8 MB) loads through the folder path in seconds and encodes words quickly.
void TestTokenizerJson::xlmRobertaSizedFileLoads()
{
    nlohmann::json j = readJson(caseDir(QStringLiteral("xlmr_unigram")) + "/tokenizer.json");
    nlohmann::json &vocab = j["model"]["vocab"];
    const std::size_t small = vocab.size();
    const nlohmann::json mask = vocab.back();
    vocab.erase(vocab.size() - 1);
    std::uint32_t state = 12345;
    const char *letters = "abcdefghijklmnopqrstuvwxyz";
    while (vocab.size() < 250001) {
        std::string piece = "\xe2\x96\x81";
        state = state * 1664525u + 1013904223u;
        const int len = 2 + int(state >> 28);
        for (int k = 0; k < len; ++k) {
            state = state * 1664525u + 1013904223u;
            piece += letters[(state >> 24) % 26];
        }
        piece += std::to_string(vocab.size()); // distinct
        vocab.push_back(nlohmann::json::array({piece, -12.0 - double(state % 1000) / 100.0}));
    }
    vocab.push_back(mask);
    for (auto &a : j["added_tokens"])
        if (a["content"] == "<mask>") a["id"] = vocab.size() - 1;
    QTemporaryDir tmp;
    writeFiles(tmp.path(), {{QStringLiteral("tokenizer.json"), j.dump()}});
    const qint64 bytes = QFileInfo(tmp.filePath(QStringLiteral("tokenizer.json"))).size();
    QElapsedTimer timer;
    timer.start();
    const inf::HfLayoutTokenizer layout = inf::HfLayoutTokenizer::fromDirectory(tmp.path().toStdString());
    const qint64 loadMs = timer.elapsed();
    QCOMPARE(layout.tokenizer().vocabSize(), 250002);
    QCOMPARE(layout.config().kind, inf::HfLayoutTokenizerConfig::Kind::XlmSentencePiece);
    // The small case's words still tokenize as the library does (the new pieces never win there:
    // they all end in digits and score below the small model's pieces).
    const nlohmann::json data = readJson(caseDir(QStringLiteral("xlmr_unigram")) + "/cases.json");
    timer.restart();
    int words = 0;
    for (const auto &c : data.at("cases")) {
        const auto ws = c.at("words").get<std::vector<std::string>>();
        const inf::LayoutTokens t = layout.encode(ws, std::vector<inf::WordBox>(ws.size()), nullptr, 100000, false);
        std::vector<int> want = c.at("input_ids").get<std::vector<int>>();
        for (int &id : want)
            if (id == int(small) - 1) id = 250001; // <mask> moved to the end
        QCOMPARE(t.inputIds, want);
        words += int(ws.size());
    }
    const qint64 encodeMs = timer.elapsed();
    qInfo("%lld-byte tokenizer.json (250,002 pieces): loaded in %lld ms; %d words encoded in %lld ms", bytes, loadMs,
          words, encodeMs);
    QVERIFY2(loadMs < 30000, qPrintable(QString::number(loadMs)));
}

FOLIO_TEST_MAIN(TestTokenizerJson)
#include "tst_tokenizerjson.moc"
