// folio-cli train / eval / predict / vocab as scripts use them: a tiny model for a few steps on
// FUNSD, JSON on stdout, clear errors with exit code 1.
#include "tests/common/testdata.h"

#include "clirunner.h"
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

static const QString kFunsd = folio::test::sharedPath(QStringLiteral("data/funsd/dataset"));
static const QString kXfundTrain = folio::test::sharedPath(QStringLiteral("data/xfund-de/de.train.json"));
static const QString kXfundVal = folio::test::sharedPath(QStringLiteral("data/xfund-de/de.val.json"));

using Run = folio::test::CliRun;

static Run cli(const QStringList &args)
{
    return folio::test::runCli(args);
}

class TestCliTrain : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void trainEvalPredict()
    {
        FOLIO_REQUIRE_DATA(kFunsd + QStringLiteral("/training_data/annotations/0000971160.json"));
        QTemporaryDir dir;
        const QString ckpt = dir.filePath(QStringLiteral("ckpt"));
        Run r = cli({QStringLiteral("-q"), QStringLiteral("train"), QStringLiteral("--out"), ckpt, QStringLiteral("--data"), kFunsd,
                     QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--max-steps"), QStringLiteral("3"),
                     QStringLiteral("--hidden"), QStringLiteral("32"), QStringLiteral("--layers"), QStringLiteral("1"),
                     QStringLiteral("--heads"), QStringLiteral("2"), QStringLiteral("--intermediate"), QStringLiteral("64"),
                     QStringLiteral("--vocab-size"), QStringLiteral("300"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--ship")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject t = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(t.value(QStringLiteral("steps")).toInt(), 3);
        for (const char *f : {"config.json", "model.safetensors", "spm.model", "folio.json"})
            QVERIFY2(QFile::exists(ckpt + QLatin1Char('/') + QLatin1String(f)), f);
        QVERIFY(!QDir(ckpt + QStringLiteral("/last")).exists()); // --ship drops the resume state
        const QJsonObject folio = QJsonDocument::fromJson([&] { QFile f(ckpt + QStringLiteral("/folio.json")); f.open(QIODevice::ReadOnly); return f.readAll(); }()).object();
        QVERIFY(folio.value(QStringLiteral("command")).toString().contains(QStringLiteral("--max-steps")));
        QCOMPARE(folio.value(QStringLiteral("seed")).toInt(), 1);

        r = cli({QStringLiteral("-q"), QStringLiteral("eval"), QStringLiteral("--checkpoint"), ckpt, QStringLiteral("--data"), kFunsd,
                 QStringLiteral("--split"), QStringLiteral("dev"), QStringLiteral("--threads"), QStringLiteral("1")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject e = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(e.value(QStringLiteral("pages")).toInt(), 20);
        QVERIFY(e.value(QStringLiteral("classes")).toObject().contains(QStringLiteral("QUESTION")));
        QVERIFY(e.contains(QStringLiteral("f1")));

        r = cli({QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), ckpt,
                 kFunsd + QStringLiteral("/testing_data/annotations/82092117.json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject p = QJsonDocument::fromJson(r.out).object();
        QVERIFY(p.value(QStringLiteral("words")).toInt() > 10);
        QCOMPARE(p.value(QStringLiteral("kind")).toString(), QStringLiteral("funsd-json"));
        const QJsonArray pages = p.value(QStringLiteral("pages")).toArray();
        QCOMPARE(pages.size(), 1);
        QCOMPARE(pages[0].toObject().value(QStringLiteral("words")), p.value(QStringLiteral("words")));
        QCOMPARE(pages[0].toObject().value(QStringLiteral("entities")).toInt(), p.value(QStringLiteral("entities")).toArray().size());
        // The shipped model (3 training steps above label little) finds the page's questions and answers.
        r = cli({QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"),
                 QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout"), kFunsd + QStringLiteral("/testing_data/annotations/82092117.json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray shipped = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("entities")).toArray();
        QVERIFY2(shipped.size() >= 10, r.out.constData());
        QSet<QString> labels;
        for (const QJsonValue &v : shipped)
            labels << v.toObject().value(QStringLiteral("label")).toString();
        QVERIFY(labels.contains(QStringLiteral("QUESTION")) && labels.contains(QStringLiteral("ANSWER")));

        // Bad input: unknown split, missing tokenizer, empty document.
        r = cli({QStringLiteral("-q"), QStringLiteral("eval"), QStringLiteral("--checkpoint"), ckpt, QStringLiteral("--split"), QStringLiteral("nope")});
        QVERIFY(r.code != 0);
        QVERIFY(r.err.contains("split"));
        const QString empty = dir.filePath(QStringLiteral("empty.json"));
        { QFile f(empty); f.open(QIODevice::WriteOnly); f.write(R"({"form": []})"); }
        QFile::copy(kFunsd + QStringLiteral("/testing_data/images/82092117.png"), dir.filePath(QStringLiteral("empty.png")));
        // A document without words is an empty prediction (exit 0, as `ocr` on a blank page), said on stderr.
        r = cli({QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), ckpt, empty});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("no words found"), r.err.constData());
        QVERIFY2(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("entities")).toArray().isEmpty(), r.out.constData());
        QVERIFY(QFile::remove(ckpt + QStringLiteral("/spm.model")));
        r = cli({QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), ckpt,
                 kFunsd + QStringLiteral("/testing_data/annotations/82092117.json")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no tokenizer files"), r.err.constData());
    }

    // --train-pages: a fixed sample of the training split for learning curves, the dev split unchanged.
    void trainPagesSamplesTheTrainingSplit()
    {
        FOLIO_REQUIRE_DATA(kFunsd + QStringLiteral("/training_data/annotations/0000971160.json"));
        QTemporaryDir dir;
        const QString ckpt = dir.filePath(QStringLiteral("ckpt"));
        const QStringList tiny{QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--max-steps"), QStringLiteral("2"),
                               QStringLiteral("--hidden"), QStringLiteral("32"), QStringLiteral("--layers"), QStringLiteral("1"),
                               QStringLiteral("--heads"), QStringLiteral("2"), QStringLiteral("--intermediate"), QStringLiteral("64"),
                               QStringLiteral("--vocab-size"), QStringLiteral("300"), QStringLiteral("--threads"), QStringLiteral("1")};
        Run r = cli(QStringList{QStringLiteral("-q"), QStringLiteral("train"), QStringLiteral("--out"), ckpt, QStringLiteral("--data"), kFunsd,
                                QStringLiteral("--train-pages"), QStringLiteral("12")} + tiny);
        QVERIFY2(r.code == 0, r.err.constData());
        QFile f(ckpt + QStringLiteral("/folio.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject folio = QJsonDocument::fromJson(f.readAll()).object();
        const QString data = folio.value(QStringLiteral("data")).toString();
        QVERIFY2(data.contains(QStringLiteral("(12 of 129 (sampled) train / 20 dev pages)")), qPrintable(data));
        QVERIFY(folio.value(QStringLiteral("command")).toString().contains(QStringLiteral("--train-pages 12")));

        r = cli(QStringList{QStringLiteral("-q"), QStringLiteral("train"), QStringLiteral("--out"), dir.filePath(QStringLiteral("big")),
                            QStringLiteral("--data"), kFunsd, QStringLiteral("--train-pages"), QStringLiteral("500")} + tiny);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("only 129 pages"), r.err.constData());
        QVERIFY(!QDir(dir.filePath(QStringLiteral("big"))).exists());
    }

    // Several sources (issue 37): FUNSD as the target (its dev split), XFUND German pages added with
    // a weight; the checkpoint records both and their licences; eval reads an XFUND file.
    void trainsOnSeveralSources()
    {
        FOLIO_REQUIRE_DATA(kFunsd + QStringLiteral("/training_data/annotations/0000971160.json"));
        FOLIO_REQUIRE_DATA(kXfundTrain);
        QTemporaryDir dir;
        const QString ckpt = dir.filePath(QStringLiteral("ckpt"));
        const QStringList tiny{QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--max-steps"), QStringLiteral("2"),
                               QStringLiteral("--hidden"), QStringLiteral("32"), QStringLiteral("--layers"), QStringLiteral("1"),
                               QStringLiteral("--heads"), QStringLiteral("2"), QStringLiteral("--intermediate"), QStringLiteral("64"),
                               QStringLiteral("--vocab-size"), QStringLiteral("400"), QStringLiteral("--threads"), QStringLiteral("1")};
        Run r = cli(QStringList{QStringLiteral("-q"), QStringLiteral("train"), QStringLiteral("--out"), ckpt, QStringLiteral("--data"), kFunsd,
                                QStringLiteral("--data"), kXfundTrain, QStringLiteral("--weight"), QStringLiteral("1"),
                                QStringLiteral("--weight"), QStringLiteral("2")} + tiny);
        QVERIFY2(r.code == 0, r.err.constData());
        QFile f(ckpt + QStringLiteral("/folio.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject folio = QJsonDocument::fromJson(f.readAll()).object();
        const QString data = folio.value(QStringLiteral("data")).toString();
        QVERIFY2(data.contains(QStringLiteral("(129 train / 20 dev pages)")), qPrintable(data));
        QVERIFY2(data.contains(QStringLiteral("de.train.json (149 pages, all, weight 2)")), qPrintable(data));
        QVERIFY2(data.contains(QStringLiteral("XFUND: CC BY-NC-SA 4.0")) && data.contains(QStringLiteral("FUNSD: non-commercial")), qPrintable(data));
        const QString command = folio.value(QStringLiteral("command")).toString();
        QVERIFY2(command.contains(QStringLiteral("--data ") + kXfundTrain) && command.contains(QStringLiteral("--weight 2")), qPrintable(command));

        r = cli({QStringLiteral("-q"), QStringLiteral("eval"), QStringLiteral("--checkpoint"), ckpt, QStringLiteral("--data"), kXfundVal,
                 QStringLiteral("--threads"), QStringLiteral("1")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("pages")).toInt(), 50);

        // One weight per source; a project does not mix with other sources.
        r = cli(QStringList{QStringLiteral("-q"), QStringLiteral("train"), QStringLiteral("--out"), dir.filePath(QStringLiteral("w")),
                            QStringLiteral("--data"), kFunsd, QStringLiteral("--data"), kXfundTrain, QStringLiteral("--weight"), QStringLiteral("2")} + tiny);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("one per --data"), r.err.constData());
        r = cli(QStringList{QStringLiteral("-q"), QStringLiteral("train"), QStringLiteral("--out"), dir.filePath(QStringLiteral("p")),
                            QStringLiteral("--data"), kFunsd, QStringLiteral("--data"), dir.filePath(QStringLiteral("x.folio"))} + tiny);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("a project trains on its own"), r.err.constData());
    }

    void trainsAndScoresReceipts()
    {
        const QString sroie = folio::test::sharedPath(QStringLiteral("data/sroie-train"));
        FOLIO_REQUIRE_DATA(sroie + QStringLiteral("/data/key/000.json"));
        QTemporaryDir dir;
        const QString ckpt = dir.filePath(QStringLiteral("receipts"));
        Run r = cli({QStringLiteral("train"), QStringLiteral("--out"), ckpt, QStringLiteral("--data"), sroie, QStringLiteral("--epochs"),
                     QStringLiteral("1"), QStringLiteral("--max-steps"), QStringLiteral("2"), QStringLiteral("--hidden"), QStringLiteral("32"),
                     QStringLiteral("--layers"), QStringLiteral("1"), QStringLiteral("--heads"), QStringLiteral("2"),
                     QStringLiteral("--intermediate"), QStringLiteral("64"), QStringLiteral("--vocab-size"), QStringLiteral("400"),
                     QStringLiteral("--threads"), QStringLiteral("1")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("626 of 626 receipts imported"), r.err.constData()); // the import's report
        QFile config(ckpt + QStringLiteral("/config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        const QByteArray configText = config.readAll();
        QVERIFY2(configText.contains("B-COMPANY") && configText.contains("I-TOTAL") && !configText.contains("QUESTION"), configText.constData());
        r = cli({QStringLiteral("-q"), QStringLiteral("eval"), QStringLiteral("--checkpoint"), ckpt, QStringLiteral("--data"), sroie,
                 QStringLiteral("--threads"), QStringLiteral("1")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QStringLiteral("pages")).toInt(), 125); // the held-out fifth
        const QJsonObject fields = j.value(QStringLiteral("fields")).toObject();
        QCOMPARE(fields.value(QStringLiteral("receipts")).toInt(), 125);
        QCOMPARE(fields.value(QStringLiteral("by_field")).toObject().keys().size(), 4);
        const double ceiling = fields.value(QStringLiteral("labelling_ceiling")).toObject().value(QStringLiteral("f1")).toDouble();
        QVERIFY2(ceiling > 0.85 && ceiling < 1.0, qPrintable(QString::number(ceiling)));
        // Two steps of a tiny model know nothing yet: far below the ceiling.
        QVERIFY(fields.value(QStringLiteral("f1")).toDouble() < ceiling);
    }

    void vocab()
    {
        FOLIO_REQUIRE_DATA(kFunsd + QStringLiteral("/testing_data/annotations"));
        QTemporaryDir dir;
        const QString prefix = dir.filePath(QStringLiteral("v"));
        Run r = cli({QStringLiteral("-q"), QStringLiteral("vocab"), kFunsd + QStringLiteral("/testing_data/annotations"),
                     QStringLiteral("--out"), prefix, QStringLiteral("--size"), QStringLiteral("200")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QFile::exists(prefix + QStringLiteral(".model")));
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("documents")).toInt(), 50);
        r = cli({QStringLiteral("-q"), QStringLiteral("vocab"), dir.filePath(QStringLiteral("missing")), QStringLiteral("--out"), prefix});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("missing"));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliTrain)
#include "tst_clitrain.moc"
