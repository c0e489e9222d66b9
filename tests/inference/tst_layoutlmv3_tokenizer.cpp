// The LayoutLMv3 tokenizer against the reference (fixtures/parity-next/layoutlmv3_tokenizer):
// every recorded call (single sequences, variants with other tokenizer settings, the padded batch)
// must give the same input_ids, bbox, labels, attention_mask, word ids and tokens.
#include "inference/errors.h"
#include "inference/tokenizers/hflayouttokenizer.h"
#include "tests/common/testdata.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace folio::inference;
using nlohmann::json;

namespace {

QString caseDir()
{
    for (const QString &root : folio::test::parityRoots())
        if (QDir(root + QStringLiteral("/layoutlmv3_tokenizer")).exists())
            return root + QStringLiteral("/layoutlmv3_tokenizer");
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_tokenizer"));
}

json readCases()
{
    QFile f(caseDir() + QStringLiteral("/cases.json"));
    if (!f.open(QIODevice::ReadOnly))
        return json();
    return json::parse(f.readAll().toStdString());
}

std::vector<int> ints(const json &j)
{
    std::vector<int> v;
    for (const auto &x : j)
        v.push_back(x.is_null() ? -1 : x.get<int>());
    return v;
}

std::vector<WordBox> boxesOf(const json &j)
{
    std::vector<WordBox> v;
    for (const auto &b : j)
        v.push_back(WordBox{b[0].get<int>(), b[1].get<int>(), b[2].get<int>(), b[3].get<int>()});
    return v;
}

std::vector<std::vector<int>> boxRows(const std::vector<WordBox> &boxes)
{
    std::vector<std::vector<int>> rows;
    for (const WordBox &b : boxes)
        rows.push_back({b.x0, b.y0, b.x1, b.y1});
    return rows;
}

std::vector<std::vector<int>> jsonBoxRows(const json &j)
{
    std::vector<std::vector<int>> rows;
    for (const auto &b : j)
        rows.push_back(ints(b));
    return rows;
}

} // namespace

class TestLayoutLMv3Tokenizer : public QObject
{
    Q_OBJECT

private:
    json m_cases;

    HfLayoutTokenizer tokenizerFor(const json &entry)
    {
        const std::string dir = (caseDir() + QStringLiteral("/tokenizer")).toStdString();
        HfLayoutTokenizerConfig config = HfLayoutTokenizerConfig::fromDirectory(dir);
        const json &init = entry["init_kwargs"];
        if (init.contains("add_prefix_space")) config.addPrefixSpace = init["add_prefix_space"].get<bool>();
        if (init.contains("only_label_first_subword")) config.onlyLabelFirstSubword = init["only_label_first_subword"].get<bool>();
        return HfLayoutTokenizer::fromDirectory(dir, config);
    }

    // One sequence of a call against the expected lists (row `row` of a batch, or the whole entry).
    void checkSequence(const HfLayoutTokenizer &tok, const json &entry, const json &words, const json &boxes,
                       const json &labels, const json &expected, const json &derived, int row)
    {
        auto pick = [row](const json &j) -> const json & { return row < 0 ? j : j[size_t(row)]; };
        std::vector<std::string> w;
        for (const auto &x : words) w.push_back(x.get<std::string>());
        const std::vector<int> l = labels.is_null() ? std::vector<int>() : ints(labels);
        const json &call = entry["call_kwargs"];
        const int maxLength = call.value("max_length", 0);
        const bool pad = call.value("padding", std::string()) == "max_length";
        const LayoutTokens got = tok.encode(w, boxesOf(boxes), labels.is_null() ? nullptr : &l, maxLength,
                                            call.value("truncation", false), pad);
        QCOMPARE(got.inputIds, ints(pick(expected["input_ids"])));
        QCOMPARE(boxRows(got.bbox), jsonBoxRows(pick(expected["bbox"])));
        QCOMPARE(got.attentionMask, ints(pick(expected["attention_mask"])));
        if (expected.contains("labels"))
            QCOMPARE(got.labels, ints(pick(expected["labels"])));
        else
            QVERIFY(got.labels.empty());
        QCOMPARE(got.wordIds, ints(pick(derived["word_ids"])));
        if (derived.contains("tokens")) {
            std::vector<std::string> tokens;
            for (int id : got.inputIds) tokens.push_back(tok.tokenizer().idToPiece(id));
            std::vector<std::string> want;
            for (const auto &t : derived["tokens"]) want.push_back(t.get<std::string>());
            QCOMPARE(tokens, want);
        }
        if (derived.contains("n_tokens_without_truncation"))
            QCOMPARE(got.tokensWithoutTruncation + 2, derived["n_tokens_without_truncation"].get<int>()); // + <s> </s>
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_cases = readCases();
    }

    void calls_data()
    {
        QTest::addColumn<QString>("group");
        QTest::addColumn<int>("index");
        if (m_cases.is_null())
            return;
        for (const char *group : {"cases", "variants"})
            for (size_t i = 0; i < m_cases[group].size(); ++i)
                QTest::newRow(m_cases[group][i]["name"].get<std::string>().c_str()) << QString::fromLatin1(group) << int(i);
        QTest::newRow("batch") << QStringLiteral("batch") << -1;
    }

    void calls()
    {
        FOLIO_REQUIRE_DATA(caseDir() + QStringLiteral("/cases.json"));
        QFETCH(QString, group);
        QFETCH(int, index);
        const json &entry = index < 0 ? m_cases["batch"] : m_cases[group.toStdString()][size_t(index)];
        const HfLayoutTokenizer tok = tokenizerFor(entry);
        if (!entry["batched"].get<bool>()) {
            checkSequence(tok, entry, entry["words"], entry["boxes"], entry["word_labels"], entry["expected"], entry["derived"], -1);
            // word_tokens: tokenize(word) for each word before truncation (symbol strings: one
            // missing from the vocabulary is the <unk> id).
            const json &wordTokens = entry["derived"]["word_tokens"];
            for (size_t k = 0; k < entry["words"].size(); ++k) {
                std::vector<int> want;
                for (const auto &t : wordTokens[k]) {
                    const int id = tok.tokenizer().pieceToId(t.get<std::string>());
                    want.push_back(id >= 0 ? id : tok.tokenizer().unkId());
                }
                QVERIFY2(tok.tokenizer().encodeWord(entry["words"][k].get<std::string>()) == want,
                         qPrintable(QStringLiteral("word %1").arg(k)));
            }
            return;
        }
        for (size_t r = 0; r < entry["words"].size(); ++r)
            checkSequence(tok, entry, entry["words"][r], entry["boxes"][r],
                          entry["word_labels"].is_null() ? json() : entry["word_labels"][r], entry["expected"],
                          entry["derived"], int(r));
    }

    void badInput()
    {
        QTemporaryDir dir;
        // A folder without merges.txt is refused, naming what is missing.
        QFile v(dir.filePath(QStringLiteral("vocab.json")));
        QVERIFY(v.open(QIODevice::WriteOnly));
        v.write("{\"<s>\": 0, \"<pad>\": 1, \"</s>\": 2, \"<unk>\": 3}");
        v.close();
        try {
            HfLayoutTokenizer::fromDirectory(dir.path().toStdString());
            QFAIL("a folder without merges.txt loaded");
        } catch (const InferenceError &e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("merges.txt")), e.what());
        }
        QFile m(dir.filePath(QStringLiteral("merges.txt")));
        QVERIFY(m.open(QIODevice::WriteOnly));
        m.write("#version: 0.2\n");
        m.close();
        const HfLayoutTokenizer tok = HfLayoutTokenizer::fromDirectory(dir.path().toStdString());
        // Every byte symbol is unknown here: one <unk> per byte, plus <s> and </s>.
        const LayoutTokens t = tok.encode({"ab"}, {WordBox{1, 2, 3, 4}}, nullptr, 8);
        QCOMPARE(t.inputIds, (std::vector<int>{0, 3, 3, 3, 2}));
        // Words, boxes and labels must agree in size.
        const std::vector<int> labels{1, 2};
        QVERIFY_THROWS_EXCEPTION(InferenceError, tok.encode({"a"}, {WordBox{}}, &labels, 8));
        QVERIFY_THROWS_EXCEPTION(InferenceError, tok.encode({"a"}, {WordBox{}}, nullptr, 1));
        // A malformed tokenizer_config.json is named.
        QFile c(dir.filePath(QStringLiteral("tokenizer_config.json")));
        QVERIFY(c.open(QIODevice::WriteOnly));
        c.write("{\"cls_token_box\": [0, 0, 0]}");
        c.close();
        try {
            HfLayoutTokenizer::fromDirectory(dir.path().toStdString());
            QFAIL("a 3-number cls_token_box was accepted");
        } catch (const InferenceError &e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("tokenizer_config.json: cls_token_box")), e.what());
        }
    }
};

FOLIO_TEST_GUILESS_MAIN(TestLayoutLMv3Tokenizer)
#include "tst_layoutlmv3_tokenizer.moc"
