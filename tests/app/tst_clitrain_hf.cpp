// folio-cli train --init HFDIR (issue 46): the tiny LayoutLMv3 folder fine-tuned on two FUNSD train
// pages into a Hugging Face folder (JSON result, new head, card with the exact command), the
// tagger's --init still taking a pretrain encoder path, and the refusals named.
#include "tests/common/testdata.h"

#include "clirunner.h"
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using Run = folio::test::CliRun;

static const QString kFunsd = folio::test::sharedPath(QStringLiteral("data/funsd/dataset"));
static const QString kTiny = folio::test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline/checkpoint"));

class TestCliTrainHf : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fineTunesIntoHuggingFaceFolder()
    {
        FOLIO_REQUIRE_DATA(kFunsd + QStringLiteral("/training_data/annotations/0000971160.json"));
        FOLIO_REQUIRE_DATA(kTiny + QStringLiteral("/model.safetensors"));
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("tuned"));
        const QStringList args{QStringLiteral("train"), QStringLiteral("--init"), kTiny, QStringLiteral("--data"), kFunsd,
                               QStringLiteral("--train-pages"), QStringLiteral("2"), QStringLiteral("--epochs"), QStringLiteral("1"),
                               QStringLiteral("--batch"), QStringLiteral("8"), QStringLiteral("--threads"), QStringLiteral("1"),
                               QStringLiteral("--out"), out};
        const Run r = folio::test::runCli(args);
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = r.json();
        QVERIFY2(j.value(QStringLiteral("new_head")).toBool(), r.out.constData());
        QCOMPARE(j.value(QStringLiteral("labels")).toArray().size(), 7);
        QVERIFY(j.value(QStringLiteral("steps")).toInt() >= 1);
        QVERIFY(j.contains(QStringLiteral("best_dev_f1")));
        QVERIFY(r.err.contains("dev entity F1")); // the epoch line on stderr
        for (const char *f : {"config.json", "model.safetensors", "vocab.json", "merges.txt", "tokenizer_config.json", "README.md"})
            QVERIFY2(QFile::exists(out + QLatin1Char('/') + QLatin1String(f)), f);
        QFile card(out + QStringLiteral("/README.md"));
        QVERIFY(card.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(card.readAll());
        QVERIFY2(text.contains(QStringLiteral("folio-cli train --data ") + kFunsd) || text.contains(QStringLiteral("--init ") + kTiny),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("--train-pages 2")));
        QVERIFY(text.contains(QStringLiteral("FUNSD: non-commercial")));
        // The written folder runs as a checkpoint (predict on a FUNSD page).
        const Run p = folio::test::runCli({QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), out,
                                           kFunsd + QStringLiteral("/testing_data/annotations/82092117.json")});
        QVERIFY2(p.code == 0, p.err.constData());
        QVERIFY(p.json().value(QStringLiteral("words")).toInt() > 10);
    }

    void refusals()
    {
        FOLIO_REQUIRE_DATA(kTiny + QStringLiteral("/model.safetensors"));
        QTemporaryDir dir;
        // --out onto the folder --init reads.
        Run r = folio::test::runCli({QStringLiteral("train"), QStringLiteral("--init"), kTiny, QStringLiteral("--out"), kTiny,
                                     QStringLiteral("--data"), kFunsd});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("the folder --init reads from"), r.err.constData());
        // Data parallel is not built for these folders yet: said, not ignored.
        r = folio::test::runCli({QStringLiteral("train"), QStringLiteral("--init"), kTiny, QStringLiteral("--out"),
                                 dir.filePath(QStringLiteral("o")), QStringLiteral("--gradient-shards"), QStringLiteral("2")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("data-parallel fine-tuning"), r.err.constData());
        // --resume with nothing to resume.
        r = folio::test::runCli({QStringLiteral("train"), QStringLiteral("--init"), kTiny, QStringLiteral("--out"),
                                 dir.filePath(QStringLiteral("o")), QStringLiteral("--data"), kFunsd, QStringLiteral("--resume")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("nothing to resume"), r.err.constData());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliTrainHf)
#include "tst_clitrain_hf.moc"
