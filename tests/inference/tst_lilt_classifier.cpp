// A LiLT token-classification folder end to end through HfTokenClassifier (what `folio-cli predict`
// and Choose Model load): the folder of tests/common/liltfolder.h (the parity case's LiLT with word
// embeddings grown to the RoBERTa BPE tokenizer's 1060 ids); the case's own 500 rows with that
// tokenizer are the "mismatched tokenizer" folder; lilt-infoxlm's XLM-R tokenizer too. Bad folders are refused before the weights are read, naming the
// file, and a previously loaded folder stays usable.
#include "inference/checkpoint/safetensors.h"
#include "inference/models/hftokenclassifier.h"
#include "inference/tokenizers/hflayouttokenizer.h"
#include "tests/common/liltfolder.h"
#include "tests/common/testdata.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>

using namespace folio::inference;

namespace {

QString liltCase() { return folio::test::liltCaseDir(); }
QString tokenizerDir() { return folio::test::liltTokenizerDir(); }
using folio::test::readJsonFile;
using folio::test::writeJsonFile;
bool makeFolder(const QString &dir, std::int64_t vocab) { return folio::test::makeLiltFolder(dir, vocab); }

std::vector<std::string> pageWords(int n)
{
    static const char *const kWords[] = {"Date:", "March", "12,", "2024", "Invoice", "number", "\t", "A-17",
                                         "Total", "amount", "due", "$", "1,250.00", "Signature"};
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i)
        out.push_back(kWords[i % 14]);
    return out;
}

std::vector<WordBox> pageBoxes(int n)
{
    std::vector<WordBox> out;
    for (int i = 0; i < n; ++i) {
        const int x = 40 + (i % 6) * 150, y = 30 + (i / 6) * 40;
        out.push_back(WordBox{x, y, std::min(1000, x + 120), std::min(1000, y + 25)});
    }
    return out;
}

// Every word of the first window has a token there and the label of its first token's argmax
// (7 labels); false with a warning naming the word otherwise.
bool labelledByFirstToken(const WordLabelling &r, std::size_t words)
{
    const Tensor &logits = r.windows[0].at("logits");
    const std::int64_t n = logits.shape[1];
    const std::vector<int> &wordOf = r.windowWordIds[0];
    for (std::size_t i = 0; i < words; ++i) {
        const auto first = std::find(wordOf.begin(), wordOf.end(), int(i)) - wordOf.begin();
        if (first >= n) {
            qWarning("word %zu has no token", i);
            return false;
        }
        const float *row = logits.data<float>() + first * 7;
        if (r.words[i].labelId != int(std::max_element(row, row + 7) - row)) {
            qWarning("word %zu: label %d is not its first token's argmax", i, r.words[i].labelId);
            return false;
        }
    }
    return true;
}

} // namespace

class TestLiltClassifier : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_good;

private Q_SLOTS:
    void initTestCase()
    {
        FOLIO_REQUIRE_DATA(liltCase() + "/model.safetensors");
        FOLIO_REQUIRE_DATA(tokenizerDir() + "/vocab.json");
        QVERIFY(m_tmp.isValid());
        m_good = m_tmp.filePath(QStringLiteral("good"));
        QVERIFY(makeFolder(m_good, 1060));
    }

    void supported()
    {
        const auto types = HfTokenClassifier::supportedModelTypes();
        QVERIFY(std::find(types.begin(), types.end(), "lilt") != types.end());
    }

    // One page: every word labelled from its first token's argmax; <s> ... </s> around the words.
    void labelsAPage()
    {
        HfTokenClassifier c;
        std::string error;
        QVERIFY2(c.load(m_good.toStdString(), &error), error.c_str());
        QCOMPARE(c.modelType(), std::string("lilt"));
        QCOMPARE(int(c.labels().size()), 7);
        QCOMPARE(c.maxTokens(), 62); // max_position_embeddings 64 - 2
        const auto words = pageWords(12);
        const WordLabelling r = c.label(words, pageBoxes(12));
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.words.size(), words.size());
        QCOMPARE(r.windows.size(), std::size_t(1));
        const TensorMap &w = r.windows[0];
        const Tensor &ids = w.at("input_ids"), &logits = w.at("logits");
        const std::int64_t n = ids.shape[1];
        QCOMPARE(ids.data<std::int64_t>()[0], std::int64_t(0));
        QCOMPARE(ids.data<std::int64_t>()[n - 1], std::int64_t(2));
        QVERIFY(logits.shape == (std::vector<std::int64_t>{1, n, 7}));
        QVERIFY(labelledByFirstToken(r, words.size()));
        for (std::size_t i = 0; i < words.size(); ++i)
            QCOMPARE(r.words[i].label, "LABEL_" + std::to_string(r.words[i].labelId));
    }

    // lilt-infoxlm's tokenizer: LayoutXLMTokenizer (XLM-R SentencePiece, fairseq ids; the LayoutXLM
    // fixture of tests/data/tokenizers, made by the reference tokenizer). The window is exactly the
    // tokenizer's encoding of the page (</s> box 1000s, as LayoutXLM's), and each word's label is
    // its first token's argmax.
    void xlmRobertaTokenizer()
    {
        const QString xlm = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizers/layoutxlm");
        const HfLayoutTokenizer tokenizer = HfLayoutTokenizer::fromDirectory(xlm.toStdString());
        const QString dir = m_tmp.filePath(QStringLiteral("infoxlm"));
        QVERIFY(folio::test::makeLiltFolder(dir, tokenizer.tokenizer().vocabSize(), xlm));
        HfTokenClassifier c;
        std::string error;
        QVERIFY2(c.load(dir.toStdString(), &error), error.c_str());
        const std::vector<std::string> words = {"Rechnung", "Nr.", "A-17", "Straße", "für", "Gesamtbetrag:", "1.250,00", "EUR"};
        const std::vector<WordBox> boxes = pageBoxes(int(words.size()));
        const WordLabelling r = c.label(words, boxes);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.windows.size(), std::size_t(1));
        const LayoutTokens expected = tokenizer.encode(words, boxes, nullptr, c.maxTokens());
        const Tensor &ids = r.windows[0].at("input_ids"), &bbox = r.windows[0].at("bbox");
        const std::int64_t n = ids.shape[1];
        QCOMPARE(n, std::int64_t(expected.inputIds.size()));
        for (std::int64_t i = 0; i < n; ++i)
            QCOMPARE(ids.data<std::int64_t>()[i], std::int64_t(expected.inputIds[std::size_t(i)]));
        QCOMPARE(ids.data<std::int64_t>()[0], std::int64_t(0));     // <s>
        QCOMPARE(ids.data<std::int64_t>()[n - 1], std::int64_t(2)); // </s>
        QCOMPARE(bbox.data<std::int64_t>()[(n - 1) * 4], std::int64_t(1000));
        QVERIFY(labelledByFirstToken(r, words.size()));
    }

    // A page longer than one window (62 tokens): the first window as the reference cuts it, then
    // sliding windows; every word gets a label.
    void longPageSlides()
    {
        HfTokenClassifier c;
        std::string error;
        QVERIFY2(c.load(m_good.toStdString(), &error), error.c_str());
        const WordLabelling r = c.label(pageWords(90), pageBoxes(90));
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.windows.size() > 1);
        for (const WordLabel &w : r.words)
            QVERIFY(w.labelId >= 0 && w.labelId < 7);
    }

    // LiLT's height/width tables take no negative size (the reference raises): refused, named.
    void invertedBoxIsRefused()
    {
        HfTokenClassifier c;
        std::string error;
        QVERIFY2(c.load(m_good.toStdString(), &error), error.c_str());
        std::vector<WordBox> boxes = pageBoxes(3);
        std::swap(boxes[1].x0, boxes[1].x1);
        const WordLabelling r = c.label(pageWords(3), boxes);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("inverted") != std::string::npos, r.error.c_str());
    }

    void badFolders_data()
    {
        QTest::addColumn<QString>("mutation");
        QTest::addColumn<QString>("named"); // the file the error must name
        QTest::addColumn<QString>("says");
        QTest::newRow("tokenizer with more ids than the model") << "vocab500" << "vocab.json" << "vocab_size 500";
        QTest::newRow("missing tokenizer") << "nomerges" << "merges.txt" << "merges.txt";
        QTest::newRow("XLM-R tokenizer class without its model") << "xlmr" << "sentencepiece.bpe.model" << "sentencepiece.bpe.model";
        QTest::newRow("WordPiece tokenizer class") << "bert" << "tokenizer_config.json" << "BertTokenizer";
        QTest::newRow("head narrower than id2label") << "labels5" << "config.json" << "5 labels";
    }

    void badFolders()
    {
        QFETCH(QString, mutation);
        QFETCH(QString, named);
        QFETCH(QString, says);
        const QString dir = m_tmp.filePath(mutation);
        QVERIFY(makeFolder(dir, mutation == QLatin1String("vocab500") ? 500 : 1060));
        if (mutation == QLatin1String("nomerges"))
            QVERIFY(QFile::remove(dir + "/merges.txt"));
        if (mutation == QLatin1String("xlmr") || mutation == QLatin1String("bert")) {
            nlohmann::json t = readJsonFile(dir + "/tokenizer_config.json");
            t["tokenizer_class"] = mutation == QLatin1String("xlmr") ? "XLMRobertaTokenizer" : "BertTokenizer";
            QVERIFY(writeJsonFile(dir + "/tokenizer_config.json", t));
        }
        if (mutation == QLatin1String("labels5")) {
            nlohmann::json config = readJsonFile(dir + "/config.json");
            config["id2label"] = {{"0", "O"}, {"1", "B-Q"}, {"2", "I-Q"}, {"3", "B-A"}, {"4", "I-A"}};
            config.erase("label2id");
            QVERIFY(writeJsonFile(dir + "/config.json", config));
        }
        HfTokenClassifier c;
        std::string error;
        QVERIFY2(c.load(m_good.toStdString(), &error), error.c_str());
        QVERIFY(!c.load(dir.toStdString(), &error));
        qInfo("%s: %s", qPrintable(mutation), error.c_str());
        QVERIFY2(error.find(named.toStdString()) != std::string::npos, error.c_str());
        QVERIFY2(error.find(says.toStdString()) != std::string::npos, error.c_str());
        // The previous folder stays loaded and usable.
        QCOMPARE(c.modelType(), std::string("lilt"));
        QCOMPARE(int(c.labels().size()), 7);
        QVERIFY(c.label(pageWords(4), pageBoxes(4)).ok);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestLiltClassifier)
#include "tst_lilt_classifier.moc"
