// folio-cli train --init HFDIR (issue 46): the tiny LayoutLMv3 folder fine-tuned on two FUNSD train
// pages into a Hugging Face folder (JSON result, new head, card with the exact command), two ranks
// (--nproc 2) taking the step --gradient-shards 2 takes, and the refusals named.
#include "inference/checkpoint/safetensors.h"
#include "tests/common/testdata.h"

#include "clirunner.h"
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

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

    // --nproc 2 (two ranks over c10d / Gloo, item k of each batch on rank k % 2) takes the step
    // --gradient-shards 2 takes in one process; both differ from the unsharded step (the shards'
    // mean losses averaged, not one mean over the batch).
    void dataParallelRanksTakeTheShardsStep()
    {
        FOLIO_REQUIRE_DATA(kFunsd + QStringLiteral("/training_data/annotations/0000971160.json"));
        FOLIO_REQUIRE_DATA(kTiny + QStringLiteral("/model.safetensors"));
        QTemporaryDir dir;
        auto train = [&](const QString &name, const QStringList &extra) {
            QStringList args{QStringLiteral("-q"), QStringLiteral("train"), QStringLiteral("--init"), kTiny, QStringLiteral("--data"), kFunsd,
                             QStringLiteral("--train-pages"), QStringLiteral("2"), QStringLiteral("--epochs"), QStringLiteral("1"),
                             QStringLiteral("--batch"), QStringLiteral("4"), QStringLiteral("--max-steps"), QStringLiteral("3"),
                             QStringLiteral("--lr"), QStringLiteral("0.001"), QStringLiteral("--threads"), QStringLiteral("1"),
                             QStringLiteral("--out"), dir.filePath(name)};
            const Run r = folio::test::runCli(args + extra);
            if (r.code != 0)
                qWarning("%s", r.err.constData());
            return r.code == 0 ? folio::inference::readSafetensors((dir.filePath(name) + "/model.safetensors").toStdString())
                               : folio::inference::TensorMap();
        };
        const auto ranks = train(QStringLiteral("ranks"), {QStringLiteral("--nproc"), QStringLiteral("2")});
        const auto shards = train(QStringLiteral("shards"), {QStringLiteral("--gradient-shards"), QStringLiteral("2")});
        const auto whole = train(QStringLiteral("whole"), {});
        QVERIFY(!ranks.empty() && !shards.empty() && !whole.empty());
        QCOMPARE(ranks.size(), shards.size());
        double worst = 0, apart = 0;
        for (const auto &[name, t] : shards) {
            const folio::inference::Tensor &a = ranks.at(name), &w = whole.at(name);
            QVERIFY(a.shape == t.shape);
            for (std::int64_t i = 0; i < t.numel(); ++i) {
                worst = std::max(worst, double(std::fabs(a.data<float>()[i] - t.data<float>()[i])));
                apart = std::max(apart, double(std::fabs(w.data<float>()[i] - t.data<float>()[i])));
            }
        }
        qInfo("--nproc 2 vs --gradient-shards 2: max|diff| %.3g; unsharded vs sharded %.3g", worst, apart);
        QVERIFY(worst < 1e-5);
        QVERIFY(apart > 1e-4);
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
        // A MarkupLM folder fine-tunes on web pages (tst_markuplmtraining), not on FUNSD: named, not read as a pretrain encoder.
        const QString markuplm = folio::test::sharedPath(QStringLiteral("fixtures/parity-new/markuplm_tokcls"));
        r = folio::test::runCli({QStringLiteral("train"), QStringLiteral("--init"), markuplm, QStringLiteral("--out"),
                                 dir.filePath(QStringLiteral("m")), QStringLiteral("--data"), kFunsd});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("a MarkupLM folder fine-tunes on web pages"), r.err.constData());
        // A Hugging Face folder of a type without fine-tuning (BERT): named, not read as a pretrain encoder.
        const QString bert = dir.filePath(QStringLiteral("bert"));
        QVERIFY(QDir().mkpath(bert));
        {
            QFile config(bert + QStringLiteral("/config.json"));
            QVERIFY(config.open(QIODevice::WriteOnly));
            config.write("{\"model_type\": \"bert\"}");
        }
        r = folio::test::runCli({QStringLiteral("train"), QStringLiteral("--init"), bert, QStringLiteral("--out"),
                                 dir.filePath(QStringLiteral("b")), QStringLiteral("--data"), kFunsd});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("\"bert\" cannot be fine-tuned yet"), r.err.constData());
        // --resume with nothing to resume.
        r = folio::test::runCli({QStringLiteral("train"), QStringLiteral("--init"), kTiny, QStringLiteral("--out"),
                                 dir.filePath(QStringLiteral("o")), QStringLiteral("--data"), kFunsd, QStringLiteral("--resume")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("nothing to resume"), r.err.constData());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliTrainHf)
#include "tst_clitrain_hf.moc"
