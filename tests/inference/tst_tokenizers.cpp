// Tokenizers: WordPiece and byte-level BPE against hand-made fixtures, SentencePiece against
// Debian's python3-sentencepiece, alignment, sliding windows and merge-back, bad input.
#include "document/formats/funsd.h"
#include "inference/errors.h"
#include "inference/tokenizers/tokenizer.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace folio::inference;

static std::string fixture(const char *rel) { return std::string(FOLIO_SOURCE_DIR "/tests/data/tokenizers/") + rel; }

class TestTokenizers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void wordPiece()
    {
        auto tok = makeWordPieceTokenizer(fixture("wordpiece/vocab.txt"), true);
        QCOMPARE(tok->kind(), std::string("wordpiece"));
        QCOMPARE(tok->encodeWord("unaffable"), (std::vector<int>{6, 7, 8}));
        QCOMPARE(tok->encodeWord("Date:"), (std::vector<int>{4, 5}));
        QCOMPARE(tok->encodeWord("totals,"), (std::vector<int>{9, 10, 13}));
        QCOMPARE(tok->encodeWord("12"), (std::vector<int>{14, 15}));
        QCOMPARE(tok->encodeWord("xyz"), (std::vector<int>{1})); // [UNK]
        QCOMPARE(tok->pieces("unaffable"), (std::vector<std::string>{"un", "##aff", "##able"}));
        auto cased = makeWordPieceTokenizer(fixture("wordpiece/vocab.txt"), false);
        QCOMPARE(cased->encodeWord("Date"), (std::vector<int>{1}));
    }

    void bpe()
    {
        auto tok = makeBpeTokenizer(fixture("bpe/vocab.json"), fixture("bpe/merges.txt"));
        QCOMPARE(tok->kind(), std::string("bpe"));
        QCOMPARE(tok->pieces("total"), (std::vector<std::string>{"\xC4\xA0total"}));
        // "D a" (rank 5) beats "Ġ D" (rank 8), so "ĠDate" never forms: Ġ + Date.
        QCOMPARE(tok->pieces("Date:", true), (std::vector<std::string>{"\xC4\xA0", "Date", ":"}));
        QCOMPARE(tok->pieces("xy"), (std::vector<std::string>{"\xC4\xA0", "x", "y"}));
        auto noPrefix = makeBpeTokenizer(fixture("bpe/vocab.json"), fixture("bpe/merges.txt"), false);
        QCOMPARE(noPrefix->pieces("Date", true), (std::vector<std::string>{"Date"}));
        // Words are tokenized one at a time (the LayoutLMv3 tokenizer): no prefix space for any word.
        QCOMPARE(noPrefix->pieces("Date", false), (std::vector<std::string>{"Date"}));
        auto fromJson = makeBpeTokenizerFromJson(fixture("bpe/tokenizer.json"));
        for (const char *w : {"total", "Date:", "xy", "tot", "a,b"})
            QCOMPARE(fromJson->encodeWord(w), tok->encodeWord(w));
        QCOMPARE(tok->encodeWord("\xC3\xA9").size(), size_t(3)); // Ġ + two unknown byte symbols -> <unk>
    }

    void sentencePieceAgainstPython()
    {
        // Train a unigram vocabulary (through folio-spm-train) on FUNSD training words, then compare
        // our encoder with python3-sentencepiece on every word of the FUNSD test split.
        QTemporaryDir dir;
        const std::string corpus = dir.filePath(QStringLiteral("corpus.txt")).toStdString();
        const std::string probeFile = dir.filePath(QStringLiteral("probe.txt")).toStdString();
        const QString funsd = folio::test::sharedPath(QStringLiteral("data/funsd/dataset"));
        FOLIO_REQUIRE_DATA(funsd);
        int trainWords = 0;
        QStringList probe;
        for (const QString &split : {QStringLiteral("train"), QStringLiteral("test")}) {
            std::ofstream out(split == QLatin1String("train") ? corpus : probeFile);
            for (const QString &f : folio::funsdSplitFiles(funsd, split)) {
                folio::Document doc;
                folio::Annotations ann;
                QString err;
                QVERIFY2(folio::importFunsdFile(f, folio::FunsdWordOrder::Annotation, &doc, &ann, &err), qPrintable(err));
                for (const auto &w : doc.words) {
                    if (w.text.trimmed().isEmpty() || w.text.contains(QLatin1Char('\n')))
                        continue;
                    out << w.text.toStdString() << '\n';
                    if (split == QLatin1String("train")) ++trainWords; else probe << w.text;
                }
            }
        }
        QVERIFY2(trainWords > 0, qPrintable("no FUNSD training words under " + funsd));
        for (const char *extra : {"\xEF\xBC\xA1\xEF\xBC\xA2", "caf\xC3\xA9", "\xE2\x91\xA0", "x\x01y"}) { // fullwidth AB, café, circled 1, control
            std::ofstream(probeFile, std::ios::app) << extra << '\n';
            probe << QString::fromUtf8(extra);
        }
        const std::string prefix = dir.filePath(QStringLiteral("spm")).toStdString();
        trainSentencePiece(corpus, prefix, 1000);
        auto tok = Tokenizer::fromDirectory(dir.path().toStdString());
        QCOMPARE(tok->kind(), std::string("sentencepiece"));
        QCOMPARE(tok->vocabSize(), 1000);
        QCOMPARE(tok->unkId(), 1);
        QCOMPARE(tok->padId(), 0);
        QProcess py;
        py.start(QStringLiteral("/usr/bin/python3"),
                 {QStringLiteral("-c"),
                  QStringLiteral("import sys, sentencepiece as s; p = s.SentencePieceProcessor(model_file=sys.argv[1]);"
                                 "print('\\n'.join(' '.join(map(str, p.encode(w))) for w in open(sys.argv[2], encoding='utf-8').read().split('\\n')[:-1]))"),
                  QString::fromStdString(prefix + ".model"), QString::fromStdString(probeFile)});
        QVERIFY(py.waitForFinished(120000));
        if (py.exitCode() != 0)
            FOLIO_DATA_MISSING(QStringLiteral("python3-sentencepiece not available"));
        const QStringList lines = QString::fromUtf8(py.readAllStandardOutput()).split(QLatin1Char('\n'));
        QVERIFY(lines.size() >= probe.size());
        int mismatches = 0;
        for (int i = 0; i < probe.size(); ++i) {
            QStringList mine;
            for (int id : tok->encodeWord(probe[i].toStdString()))
                mine << QString::number(id);
            if (mine.join(QLatin1Char(' ')) != lines[i]) {
                if (++mismatches <= 5)
                    qWarning() << "mismatch" << probe[i] << mine.join(QLatin1Char(' ')) << "python:" << lines[i];
            }
        }
        QCOMPARE(mismatches, 0);
        QVERIFY(probe.size() > 8000);
    }

    void alignment()
    {
        auto tok = makeWordPieceTokenizer(fixture("wordpiece/vocab.txt"), true);
        const Encoding e = encodeWords(*tok, {"unaffable", "date", "12"}, {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 9, 9, 9}}, 2);
        QCOMPARE(e.ids, (std::vector<int>{6, 7, 4, 14, 15}));
        QCOMPARE(e.wordIndex, (std::vector<int>{0, 0, 1, 2, 2}));
        QCOMPARE(e.firstOfWord, (std::vector<char>{1, 0, 1, 1, 0}));
        QCOMPARE(e.wordStart, (std::vector<int>{0, 2, 3}));
        QCOMPARE(e.boxes[1].x0, 1);
        QCOMPARE(e.boxes[2].y1, 8);
        QVERIFY_THROWS_EXCEPTION(InferenceError, encodeWords(*tok, {"a"}, {}, 0));
    }

    void windows()
    {
        auto w = slidingWindows(10, 4, 3);
        QCOMPARE(int(w.size()), 3);
        QCOMPARE(w[2].begin, 6);
        QCOMPARE(w[2].end, 10);
        w = slidingWindows(11, 4, 3);
        QCOMPARE(int(w.size()), 4);
        QCOMPARE(w[3].begin, 7);
        QCOMPARE(w[3].end, 11);
        QCOMPARE(int(slidingWindows(3, 4, 2).size()), 1);
        QVERIFY(slidingWindows(0, 4, 2).empty());
        QVERIFY_THROWS_EXCEPTION(InferenceError, slidingWindows(5, 4, 5));
        // Merge: unit 3 is at the edge of window 0 ([0,4)) and inside window 1 ([3,7)) -> window 1... both
        // have margin 0 there; unit 5 is central in window 1.
        w = slidingWindows(7, 4, 3); // [0,4) [3,7)
        std::vector<std::vector<float>> s = {{0, 0, 0, 0}, {1, 1, 1, 1}};
        const auto m = mergeWindowScores(w, s, 7, 1);
        QCOMPARE(m, (std::vector<float>{0, 0, 0, 0, 1, 1, 1}));
    }

    void badInput()
    {
        QTemporaryDir dir;
        try {
            Tokenizer::fromDirectory(dir.path().toStdString());
            QFAIL("expected an error");
        } catch (const InferenceError &e) {
            QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("no tokenizer files")));
        }
        QVERIFY_THROWS_EXCEPTION(InferenceError, makeWordPieceTokenizer("/nonexistent/vocab.txt"));
        QVERIFY_THROWS_EXCEPTION(InferenceError, makeSentencePieceTokenizer("/nonexistent/spm.model"));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestTokenizers)
#include "tst_tokenizers.moc"
