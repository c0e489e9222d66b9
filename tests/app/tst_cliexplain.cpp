// folio-cli explain (issue 48) on a FUNSD test page with the shipped layout tagger: attributions
// as JSON and as a table, what-if edits (move, resize, delete, an edit file) with labels before /
// after, and the bad inputs: an unknown word, a page left empty, a box pushed off the page, a
// malformed edit list, a checkpoint that is no layout tagger. The same with a Hugging Face
// LayoutLMv3 token classifier (the pipeline parity fixture), and a model type without a gradient path.
#include "clirunner.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <tuple>

static const QString kModel = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout");

// A copy of safetensors `bytes` with float32 tensors appended (name -> shape, values): the header
// rewritten (8-byte length, JSON, space padding to 8 bytes), the data appended after the old data.
static QByteArray withTensors(const QByteArray &bytes, const QList<std::tuple<QString, QList<int>, QList<float>>> &add)
{
    quint64 n = 0;
    std::memcpy(&n, bytes.constData(), 8);
    QJsonObject header = QJsonDocument::fromJson(bytes.mid(8, int(n))).object();
    QByteArray data = bytes.mid(int(8 + n));
    for (const auto &[name, shape, values] : add) {
        QJsonArray dims;
        for (int d : shape)
            dims.append(d);
        const qint64 begin = data.size();
        data.append(reinterpret_cast<const char *>(values.constData()), values.size() * 4);
        header.insert(name, QJsonObject{{"dtype", "F32"}, {"shape", dims}, {"data_offsets", QJsonArray{begin, data.size()}}});
    }
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    while (json.size() % 8)
        json.append(' ');
    const quint64 length = quint64(json.size());
    return QByteArray(reinterpret_cast<const char *>(&length), 8) + json + data;
}

class TestCliExplain : public QObject
{
    Q_OBJECT

    using Run = folio::test::CliRun;
    QTemporaryDir m_dir;
    QString m_page;

    Run explain(const QStringList &extra) const
    {
        return folio::test::runCli(QStringList{QStringLiteral("-q"), QStringLiteral("explain"), QStringLiteral("--checkpoint"), kModel, m_page} + extra);
    }
    QString write(const QString &name, const QByteArray &bytes) { return folio::test::writeTestFile(m_dir, name, bytes); }
    static QString why(const Run &r) { return QString::fromUtf8(r.err + r.out).left(2000); }

private Q_SLOTS:
    void initTestCase()
    {
        m_page = folio::test::sharedPath(QStringLiteral("data/funsd/dataset/testing_data/annotations/82092117.json"));
        FOLIO_REQUIRE_DATA(m_page);
    }

    void attributionsAsJson()
    {
        const Run r = explain({QStringLiteral("--word"), QStringLiteral("5"), QStringLiteral("--json")}); // 128 cubic steps
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        const QJsonObject ex = r.json().value(QStringLiteral("explanation")).toObject();
        QCOMPARE(ex.value(QStringLiteral("word")).toInt(), 5);
        QVERIFY(!ex.value(QStringLiteral("label")).toString().isEmpty());
        QCOMPARE(ex.value(QStringLiteral("layers")).toInt(), 4);
        QCOMPARE(ex.value(QStringLiteral("ig_steps")).toInt(), 128);
        QCOMPARE(ex.value(QStringLiteral("ig_power")).toInt(), 3);
        const QJsonArray rows = ex.value(QStringLiteral("attributions")).toArray();
        QCOMPARE(rows.size(), ex.value(QStringLiteral("window_words")).toInt());
        double rollout = 0, ig = 0;
        for (const QJsonValue &v : rows) {
            const QJsonObject o = v.toObject();
            rollout += o.value(QStringLiteral("rollout")).toDouble();
            ig += o.value(QStringLiteral("ig")).toDouble();
            // The parts add up to the whole.
            const double parts = o.value(QStringLiteral("ig_text")).toDouble() + o.value(QStringLiteral("ig_position")).toDouble()
                               + o.value(QStringLiteral("ig_box")).toDouble() + o.value(QStringLiteral("ig_shift")).toDouble();
            QVERIFY(std::abs(parts - o.value(QStringLiteral("ig")).toDouble()) < 1e-3 + 1e-3 * std::abs(parts));
        }
        QVERIFY2(std::abs(rollout - 1.0) < 1e-3, qPrintable(QString::number(rollout))); // a rollout row sums to 1
        QVERIFY(std::abs(ig - ex.value(QStringLiteral("ig_sum")).toDouble()) < 1e-3 * std::max(1.0, std::abs(ig)));
        // Completeness within the quadrature's error at 128 cubic steps (5.833 vs 5.754 measured).
        const double gap = ex.value(QStringLiteral("logit")).toDouble() - ex.value(QStringLiteral("baseline_logit")).toDouble();
        QVERIFY2(std::abs(ig - gap) < 0.05 * std::max(1.0, std::abs(gap)), qPrintable(QStringLiteral("%1 vs %2").arg(ig).arg(gap)));
        // Sorted by |IG|, largest first.
        for (int i = 1; i < rows.size(); ++i)
            QVERIFY(std::abs(rows[i - 1].toObject().value(QStringLiteral("ig")).toDouble()) + 1e-9
                    >= std::abs(rows[i].toObject().value(QStringLiteral("ig")).toDouble()));
        QVERIFY(ex.value(QStringLiteral("forward_seconds")).toDouble() > 0);
    }

    void attributionsAsTable()
    {
        const Run r = explain({QStringLiteral("--word"), QStringLiteral("5"), QStringLiteral("--ig-steps"), QStringLiteral("4"), QStringLiteral("--top"), QStringLiteral("3")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(text.contains(QStringLiteral("IG: zero-embedding baseline, 4 midpoint steps (alpha = u^3)")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("rollout")));
        QVERIFY(text.contains(QStringLiteral("more words; --top N or --json for all")));
        QCOMPARE(text.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 2 + 1 + 3 + 1);
    }

    void rolloutOnly()
    {
        const Run r = explain({QStringLiteral("--word"), QStringLiteral("1"), QStringLiteral("--no-gradients"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        const QJsonObject ex = r.json().value(QStringLiteral("explanation")).toObject();
        QVERIFY(!ex.contains(QStringLiteral("ig_steps")));
        QVERIFY(!ex.value(QStringLiteral("attributions")).toArray().first().toObject().contains(QStringLiteral("grad_x_input")));
    }

    void moveNothingChangesNothing()
    {
        const Run r = explain({QStringLiteral("--move"), QStringLiteral("5:0,0"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        QCOMPARE(r.json().value(QStringLiteral("changed")).toArray().size(), 0);
        QVERIFY(r.json().value(QStringLiteral("words")).toInt() > 100);
    }

    void deleteAndMoveShowBeforeAfter()
    {
        const Run r = explain({QStringLiteral("--delete"), QStringLiteral("5"), QStringLiteral("--move"), QStringLiteral("6:300,400"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        const QJsonArray changed = r.json().value(QStringLiteral("changed")).toArray();
        bool deleted = false;
        for (const QJsonValue &v : changed) {
            const QJsonObject o = v.toObject();
            QVERIFY(o.value(QStringLiteral("before")).toString() != o.value(QStringLiteral("after")).toString());
            deleted = deleted || (o.value(QStringLiteral("word")).toInt() == 5 && o.value(QStringLiteral("after")).toString() == QLatin1String("(deleted)"));
        }
        QVERIFY(deleted);
        QCOMPARE(r.json().value(QStringLiteral("edits")).toInt(), 2);
        // The text form: one summary line and a line per changed word.
        const Run t = explain({QStringLiteral("--delete"), QStringLiteral("5"), QStringLiteral("--move"), QStringLiteral("6:300,400")});
        QVERIFY2(t.code == 0, qPrintable(why(t)));
        QVERIFY(t.out.startsWith("what-if: 2 edit(s); " + QByteArray::number(changed.size()) + " of "));
        QCOMPARE(t.out.count('\n'), 1 + changed.size());
    }

    void editFileAndExplainAfter()
    {
        const QString edits = write(QStringLiteral("edits.json"),
                                    R"({"edits": [{"op": "move", "word": 5, "dx": 50, "dy": -20}, {"op": "resize", "word": 7, "dw": 40, "dh": 0}]})");
        const Run r = explain({QStringLiteral("--edits"), edits, QStringLiteral("--word"), QStringLiteral("5"), QStringLiteral("--ig-steps"), QStringLiteral("2"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        QCOMPARE(r.json().value(QStringLiteral("edits")).toInt(), 2);
        QVERIFY(r.json().value(QStringLiteral("explanation_after")).toObject().value(QStringLiteral("attributions")).toArray().size() > 100);
    }

    void boxOffThePageIsClamped()
    {
        const Run r = explain({QStringLiteral("--move"), QStringLiteral("5:50000,0"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        QVERIFY2(r.err.contains("would leave the page") && r.err.contains("clamped"), r.err.constData());
        QCOMPARE(r.json().value(QStringLiteral("notes")).toArray().size(), 1);
    }

    void unknownWord()
    {
        Run r = explain({QStringLiteral("--word"), QStringLiteral("99999")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--word 99999: the document has"), r.err.constData());
        r = explain({QStringLiteral("--move"), QStringLiteral("99999:1,1")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("move word 99999: the document has"), r.err.constData());
        r = explain({QStringLiteral("--move"), QStringLiteral("3:abc")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--move '3:abc'"), r.err.constData());
        r = explain({QStringLiteral("--word"), QStringLiteral("0")}); // a blank word on this page
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--word 0: the word is blank"), r.err.constData());
        r = explain({QStringLiteral("--word"), QStringLiteral("1"), QStringLiteral("--ig-power"), QStringLiteral("7")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--ig-power 7: between 1 and 4"), r.err.constData());
        r = explain({});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("give --word N"), r.err.constData());
    }

    void pageLeftEmpty()
    {
        const Run probe = explain({QStringLiteral("--move"), QStringLiteral("0:0,0"), QStringLiteral("--json")});
        QVERIFY2(probe.code == 0, qPrintable(why(probe)));
        const int n = probe.json().value(QStringLiteral("document_words")).toInt();
        QVERIFY(n > 100);
        QJsonArray all;
        for (int i = 0; i < n; ++i)
            all.append(QJsonObject{{"op", "delete"}, {"word", i}});
        const Run r = explain({QStringLiteral("--edits"), write(QStringLiteral("all.json"), QJsonDocument(all).toJson())});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("the edits delete every word of page 1"), r.err.constData());
    }

    void badEditFiles()
    {
        const QString bad = write(QStringLiteral("bad.json"), R"([{"op": "delete", "word": 1}, {"op": "shrink", "word": 2}])");
        Run r = explain({QStringLiteral("--edits"), bad});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("bad.json: edit 1: \"op\" must be"), r.err.constData());
        const QString notList = write(QStringLiteral("notlist.json"), R"({"move": 3})");
        r = explain({QStringLiteral("--edits"), notList});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("notlist.json: expected a list of edits"), r.err.constData());
        const QString broken = write(QStringLiteral("broken.json"), "[{\"op\": ");
        r = explain({QStringLiteral("--edits"), broken});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("broken.json: invalid JSON"), r.err.constData());
        const QString tiny = write(QStringLiteral("tiny.json"), R"([{"op": "resize", "word": 2, "dw": -100000, "dh": 0}])");
        r = explain({QStringLiteral("--edits"), tiny});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("at least 1 x 1"), r.err.constData());
    }

    // A Hugging Face LayoutLMv3 token classifier (the pipeline fixture: 2 layers, 64 positions, so
    // the FUNSD page runs in sliding windows): attributions per word over the encoder's input
    // tokens; a rollout row over words + special tokens sums to 1; IG is complete.
    void huggingFaceAttributions()
    {
        const QString hf = folio::test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline/checkpoint"));
        FOLIO_REQUIRE_DATA(hf + QStringLiteral("/model.safetensors"));
        const Run r = folio::test::runCli({QStringLiteral("-q"), QStringLiteral("explain"), QStringLiteral("--checkpoint"), hf, m_page,
                                           QStringLiteral("--word"), QStringLiteral("5"), QStringLiteral("--ig-steps"), QStringLiteral("256"),
                                           QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        QCOMPARE(r.json().value(QStringLiteral("model_type")).toString(), QStringLiteral("layoutlmv3"));
        const QJsonObject ex = r.json().value(QStringLiteral("explanation")).toObject();
        QCOMPARE(ex.value(QStringLiteral("word")).toInt(), 5);
        QCOMPARE(ex.value(QStringLiteral("layers")).toInt(), 2);
        QCOMPARE(ex.value(QStringLiteral("image_tokens")).toInt(), 0);
        const QJsonArray rows = ex.value(QStringLiteral("attributions")).toArray();
        QVERIFY(rows.size() > 5);
        double rollout = ex.value(QStringLiteral("special_tokens")).toObject().value(QStringLiteral("rollout")).toDouble(), ig = 0;
        bool self = false;
        for (const QJsonValue &v : rows) {
            rollout += v.toObject().value(QStringLiteral("rollout")).toDouble();
            ig += v.toObject().value(QStringLiteral("ig")).toDouble();
            self = self || v.toObject().value(QStringLiteral("word")).toInt() == 5;
        }
        ig += ex.value(QStringLiteral("special_tokens")).toObject().value(QStringLiteral("ig")).toDouble();
        QVERIFY(self);
        QVERIFY2(std::abs(rollout - 1.0) < 1e-3, qPrintable(QString::number(rollout)));
        QVERIFY(std::abs(ig - ex.value(QStringLiteral("ig_sum")).toDouble()) < 1e-3 * std::max(1.0, std::abs(ig)));
        const double gap = ex.value(QStringLiteral("logit")).toDouble() - ex.value(QStringLiteral("baseline_logit")).toDouble();
        QVERIFY2(std::abs(ig - gap) < 0.02 * std::max(1.0, std::abs(gap)), qPrintable(QStringLiteral("%1 vs %2").arg(ig).arg(gap)));
        // The table form.
        const Run t = folio::test::runCli({QStringLiteral("-q"), QStringLiteral("explain"), QStringLiteral("--checkpoint"), hf, m_page,
                                           QStringLiteral("--word"), QStringLiteral("5"), QStringLiteral("--ig-steps"), QStringLiteral("4")});
        QVERIFY2(t.code == 0, qPrintable(why(t)));
        QVERIFY2(t.out.contains("IG: zero encoder input baseline, 4 midpoint steps") && t.out.contains("special tokens:"), t.out.constData());
    }

    // What-if with the Hugging Face classifier: a delete shows "(deleted)", a move re-labels.
    void huggingFaceWhatIf()
    {
        const QString hf = folio::test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline/checkpoint"));
        FOLIO_REQUIRE_DATA(hf + QStringLiteral("/model.safetensors"));
        const auto run = [&](const QStringList &extra) {
            return folio::test::runCli(QStringList{QStringLiteral("-q"), QStringLiteral("explain"), QStringLiteral("--checkpoint"), hf, m_page} + extra);
        };
        Run r = run({QStringLiteral("--move"), QStringLiteral("5:0,0"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        QCOMPARE(r.json().value(QStringLiteral("changed")).toArray().size(), 0);
        QVERIFY(r.json().value(QStringLiteral("words")).toInt() > 100);
        r = run({QStringLiteral("--delete"), QStringLiteral("5"), QStringLiteral("--move"), QStringLiteral("6:300,400"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        bool deleted = false;
        for (const QJsonValue &v : r.json().value(QStringLiteral("changed")).toArray())
            deleted = deleted || (v.toObject().value(QStringLiteral("word")).toInt() == 5
                                  && v.toObject().value(QStringLiteral("after")).toString() == QLatin1String("(deleted)"));
        QVERIFY(deleted);
        r = run({QStringLiteral("--word"), QStringLiteral("100000")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("the document has"), r.err.constData());
    }

    // LayoutLMv3 with its image branch (the visual parity fixture, input 64 px in 16 px patches,
    // given a 2-label head and the pipeline fixture's tokenizer cut to its 500 ids) on the FUNSD
    // page and its scan: the image patches get attributions by grid cell, and the rollout row over
    // words, special tokens and patches sums to 1.
    void huggingFaceImagePatches()
    {
        const QString visual = folio::test::sharedPath(QStringLiteral("fixtures/parity/layoutlmv3_visual"));
        const QString pipeline = folio::test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline/checkpoint"));
        FOLIO_REQUIRE_DATA(visual + QStringLiteral("/model.safetensors"));
        FOLIO_REQUIRE_DATA(pipeline + QStringLiteral("/vocab.json"));
        FOLIO_REQUIRE_DATA(folio::test::sharedPath(QStringLiteral("data/funsd/dataset/testing_data/images/82092117.png")));
        QTemporaryDir dir;
        const auto read = [](const QString &path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        for (const QString &name : {QStringLiteral("merges.txt"), QStringLiteral("tokenizer_config.json"), QStringLiteral("special_tokens_map.json")})
            folio::test::writeTestFile(dir, name, read(pipeline + QLatin1Char('/') + name));
        QJsonObject config = QJsonDocument::fromJson(read(visual + QStringLiteral("/config.json"))).object();
        config.insert("architectures", QJsonArray{QStringLiteral("LayoutLMv3ForTokenClassification")});
        config.insert("id2label", QJsonObject{{"0", "O"}, {"1", "B-FIELD"}});
        config.insert("label2id", QJsonObject{{"O", 0}, {"B-FIELD", 1}});
        folio::test::writeTestFile(dir, QStringLiteral("config.json"), QJsonDocument(config).toJson());
        const int rows = config.value(QStringLiteral("vocab_size")).toInt(), hidden = config.value(QStringLiteral("hidden_size")).toInt();
        QJsonObject cut;
        const QJsonObject vocab = QJsonDocument::fromJson(read(pipeline + QStringLiteral("/vocab.json"))).object();
        for (auto it = vocab.begin(); it != vocab.end(); ++it)
            if (it.value().toInt() < rows)
                cut.insert(it.key(), it.value());
        folio::test::writeTestFile(dir, QStringLiteral("vocab.json"), QJsonDocument(cut).toJson());
        QList<float> w;
        for (int i = 0; i < 2 * hidden; ++i)
            w.append(float(i % 7 - 3) * 0.05f);
        folio::test::writeTestFile(dir, QStringLiteral("model.safetensors"),
                                   withTensors(read(visual + QStringLiteral("/model.safetensors")),
                                               {{QStringLiteral("classifier.weight"), {2, hidden}, w},
                                                {QStringLiteral("classifier.bias"), {2}, {0.f, 0.f}}}));
        const Run r = folio::test::runCli({QStringLiteral("-q"), QStringLiteral("explain"), QStringLiteral("--checkpoint"), dir.path(), m_page,
                                           QStringLiteral("--word"), QStringLiteral("5"), QStringLiteral("--ig-steps"), QStringLiteral("256"),
                                           QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        const QJsonObject ex = r.json().value(QStringLiteral("explanation")).toObject();
        QCOMPARE(ex.value(QStringLiteral("image_grid")).toInt(), 4);                 // 64 px / 16 px patches
        QCOMPARE(ex.value(QStringLiteral("image_tokens")).toInt(), 1 + 4 * 4);       // CLS + the grid
        const QJsonArray image = ex.value(QStringLiteral("image")).toArray();
        QCOMPARE(image.size(), 17);
        double rollout = ex.value(QStringLiteral("special_tokens")).toObject().value(QStringLiteral("rollout")).toDouble();
        double ig = ex.value(QStringLiteral("special_tokens")).toObject().value(QStringLiteral("ig")).toDouble(), igImage = 0;
        int cells = 0;
        for (const QJsonValue &v : image) {
            rollout += v.toObject().value(QStringLiteral("rollout")).toDouble();
            igImage += v.toObject().value(QStringLiteral("ig")).toDouble();
            cells += v.toObject().contains(QStringLiteral("row")) ? 1 : 0;
        }
        QCOMPARE(cells, 16);
        for (const QJsonValue &v : ex.value(QStringLiteral("attributions")).toArray()) {
            rollout += v.toObject().value(QStringLiteral("rollout")).toDouble();
            ig += v.toObject().value(QStringLiteral("ig")).toDouble();
        }
        ig += igImage;
        QVERIFY2(std::abs(rollout - 1.0) < 1e-3, qPrintable(QString::number(rollout)));
        const double gap = ex.value(QStringLiteral("logit")).toDouble() - ex.value(QStringLiteral("baseline_logit")).toDouble();
        QVERIFY2(std::abs(ig - gap) < 0.02 * std::max(1.0, std::abs(gap)), qPrintable(QStringLiteral("%1 vs %2").arg(ig).arg(gap)));
        QVERIFY(std::abs(igImage) > 0); // the patches carry part of it
    }

    // The tagger's ERNIE-Layout arrangement (disentangled attention) has a gradient path too: a
    // 1-layer ernie tagger trained for 2 steps here, explained on the FUNSD page.
    void ernieTagger()
    {
        QTemporaryDir out;
        const Run t = folio::test::runCli({QStringLiteral("-q"), QStringLiteral("train"), QStringLiteral("--arch"), QStringLiteral("ernie"),
                                           QStringLiteral("--out"), out.path(), QStringLiteral("--epochs"), QStringLiteral("1"),
                                           QStringLiteral("--max-steps"), QStringLiteral("2"), QStringLiteral("--hidden"), QStringLiteral("32"),
                                           QStringLiteral("--layers"), QStringLiteral("1"), QStringLiteral("--heads"), QStringLiteral("2"),
                                           QStringLiteral("--intermediate"), QStringLiteral("64"), QStringLiteral("--threads"), QStringLiteral("1"),
                                           QStringLiteral("--tokenizer"), kModel});
        QVERIFY2(t.code == 0, qPrintable(why(t)));
        const Run r = folio::test::runCli({QStringLiteral("-q"), QStringLiteral("explain"), QStringLiteral("--checkpoint"), out.path(), m_page,
                                           QStringLiteral("--word"), QStringLiteral("5"), QStringLiteral("--ig-steps"), QStringLiteral("128"),
                                           QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        const QJsonObject ex = r.json().value(QStringLiteral("explanation")).toObject();
        QCOMPARE(ex.value(QStringLiteral("layers")).toInt(), 1);
        double ig = 0;
        for (const QJsonValue &v : ex.value(QStringLiteral("attributions")).toArray())
            ig += v.toObject().value(QStringLiteral("ig")).toDouble();
        const double gap = ex.value(QStringLiteral("logit")).toDouble() - ex.value(QStringLiteral("baseline_logit")).toDouble();
        QVERIFY2(std::abs(ig - gap) < 0.05 * std::max(1.0, std::abs(gap)), qPrintable(QStringLiteral("%1 vs %2").arg(ig).arg(gap)));
        // What-if on the same checkpoint.
        const Run w = folio::test::runCli({QStringLiteral("-q"), QStringLiteral("explain"), QStringLiteral("--checkpoint"), out.path(), m_page,
                                           QStringLiteral("--move"), QStringLiteral("5:0,0"), QStringLiteral("--json")});
        QVERIFY2(w.code == 0, qPrintable(why(w)));
        QCOMPARE(w.json().value(QStringLiteral("changed")).toArray().size(), 0);
    }

    void noGradientPath()
    {
        const QString deberta = folio::test::sharedPath(QStringLiteral("fixtures/parity/debertav2"));
        FOLIO_REQUIRE_DATA(deberta + QStringLiteral("/config.json"));
        const Run r = folio::test::runCli({QStringLiteral("-q"), QStringLiteral("explain"), QStringLiteral("--checkpoint"), deberta, m_page,
                                           QStringLiteral("--word"), QStringLiteral("1")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("explain has a gradient path for folio-formtagger") && r.err.contains("deberta-v2"), r.err.constData());
    }

    void notALayoutTagger()
    {
        const Run r = folio::test::runCli({QStringLiteral("-q"), QStringLiteral("explain"), QStringLiteral("--checkpoint"),
                                           QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/forms-en-de-ensemble"), m_page,
                                           QStringLiteral("--word"), QStringLiteral("1")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("ensemble"), r.err.constData());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliExplain)
#include "tst_cliexplain.moc"
