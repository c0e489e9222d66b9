// The LayoutLMv3 tokenizer on bad folders and bad calls. Its parity with the reference (every call
// of fixtures/parity-next/layoutlmv3_tokenizer) is checked by tst_inference_parity (layoutlmv3cases.h).
#include "inference/errors.h"
#include "inference/tokenizers/hflayouttokenizer.h"
#include "tests/common/testdata.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace folio::inference;


class TestLayoutLMv3Tokenizer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
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
