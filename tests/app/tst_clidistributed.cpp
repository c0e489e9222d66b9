// Data-parallel training with folio-cli train --nproc 2 (LibTorch c10d, Gloo over TCP on
// 127.0.0.1), on a tiny tagger for three steps on FUNSD:
//  - the weights after the steps equal those of one process averaging the same two shards'
//    gradients (--gradient-shards 2) to 1e-6 — and differ from unsharded training by far more,
//    so the comparison can fail;
//  - only rank 0 writes (the checkpoint records two processes);
//  - a rank killed with SIGKILL fails the job cleanly: exit 1 naming the rank, no hang;
//  - inconsistent options are usage errors.
#include "tests/common/testdata.h"

#include "clirunner.h"
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <cstring>
#include <map>
#include <vector>

static const QString kFunsd = folio::test::sharedPath(QStringLiteral("data/funsd/dataset"));

class TestCliDistributed : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QStringList tinyTraining(const QString &out, int maxSteps = 3, int epochs = 1) const
    {
        return {QStringLiteral("-q"), QStringLiteral("train"), QStringLiteral("--data"), kFunsd, QStringLiteral("--out"), out,
                QStringLiteral("--tokenizer"), QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout"),
                QStringLiteral("--epochs"), QString::number(epochs), QStringLiteral("--batch"), QStringLiteral("4"),
                QStringLiteral("--no-jitter"), QStringLiteral("--dropout"), QStringLiteral("0"), QStringLiteral("--hidden"),
                QStringLiteral("32"), QStringLiteral("--layers"), QStringLiteral("1"), QStringLiteral("--heads"), QStringLiteral("2"),
                QStringLiteral("--intermediate"), QStringLiteral("64"), QStringLiteral("--threads"), QStringLiteral("1"),
                QStringLiteral("--seed"), QStringLiteral("5"), QStringLiteral("--max-steps"), QString::number(maxSteps)};
    }

    // float32 tensors of a safetensors file by name (the checkpoint's weights).
    static std::map<QString, std::vector<float>> readWeights(const QString &path)
    {
        std::map<QString, std::vector<float>> out;
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return out;
        const QByteArray bytes = f.readAll();
        quint64 headerSize = 0;
        std::memcpy(&headerSize, bytes.constData(), 8);
        const QJsonObject header = QJsonDocument::fromJson(bytes.mid(8, qsizetype(headerSize))).object();
        const qsizetype base = 8 + qsizetype(headerSize);
        for (auto it = header.begin(); it != header.end(); ++it) {
            const QJsonObject t = it.value().toObject();
            if (it.key() == QLatin1String("__metadata__") || t.value(QStringLiteral("dtype")).toString() != QLatin1String("F32"))
                continue;
            const qsizetype begin = t.value(QStringLiteral("data_offsets"))[0].toInteger();
            const qsizetype end = t.value(QStringLiteral("data_offsets"))[1].toInteger();
            std::vector<float> values(std::size_t(end - begin) / sizeof(float));
            std::memcpy(values.data(), bytes.constData() + base + begin, std::size_t(end - begin));
            out[it.key()] = values;
        }
        return out;
    }

    static double maxDifference(const std::map<QString, std::vector<float>> &a, const std::map<QString, std::vector<float>> &b)
    {
        if (a.size() != b.size() || a.empty())
            return INFINITY;
        double worst = 0;
        for (const auto &[name, values] : a) {
            const auto it = b.find(name);
            if (it == b.end() || it->second.size() != values.size())
                return INFINITY;
            for (std::size_t i = 0; i < values.size(); ++i)
                worst = std::max(worst, double(std::fabs(values[i] - it->second[i])));
        }
        return worst;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
    }

    void averagedGradientsEqualShardAccumulation()
    {
        FOLIO_REQUIRE_DATA(kFunsd + QStringLiteral("/training_data/annotations"));
        const QString parallel = m_dir.filePath(QStringLiteral("parallel")), sharded = m_dir.filePath(QStringLiteral("sharded")),
                      plain = m_dir.filePath(QStringLiteral("plain"));
        const folio::test::CliRun a = folio::test::runCli(tinyTraining(parallel) << QStringLiteral("--nproc") << QStringLiteral("2"));
        QVERIFY2(a.code == 0, a.err.constData());
        const folio::test::CliRun b = folio::test::runCli(tinyTraining(sharded) << QStringLiteral("--gradient-shards") << QStringLiteral("2"));
        QVERIFY2(b.code == 0, b.err.constData());
        const folio::test::CliRun c = folio::test::runCli(tinyTraining(plain));
        QVERIFY2(c.code == 0, c.err.constData());
        QCOMPARE(a.json().value(QStringLiteral("steps")).toInt(), 3);

        const auto wa = readWeights(parallel + QStringLiteral("/model.safetensors"));
        const auto wb = readWeights(sharded + QStringLiteral("/model.safetensors"));
        const auto wc = readWeights(plain + QStringLiteral("/model.safetensors"));
        const double sameShards = maxDifference(wa, wb), unsharded = maxDifference(wa, wc);
        qInfo("max |w(--nproc 2) - w(--gradient-shards 2)| = %g; against unsharded training %g", sameShards, unsharded);
        QVERIFY2(sameShards < 1e-6, qPrintable(QString::number(sameShards)));
        QVERIFY2(unsharded > 1e-5, qPrintable(QString::number(unsharded)));

        QFile folio(parallel + QStringLiteral("/folio.json"));
        QVERIFY(folio.open(QIODevice::ReadOnly));
        const QJsonObject dp = QJsonDocument::fromJson(folio.readAll()).object().value(QStringLiteral("data_parallel")).toObject();
        QCOMPARE(dp.value(QStringLiteral("processes")).toInt(), 2);
    }

    // The QS trainer under the same rule (rank 0 trains the vocabulary; the other rank reads it).
    void qsTrainingAgreesWithShardAccumulation()
    {
        const QString qmsum = folio::test::sharedPath(QStringLiteral("data/qmsum"));
        FOLIO_REQUIRE_DATA(qmsum + QStringLiteral("/data"));
        const QStringList tiny{QStringLiteral("-q"), QStringLiteral("qs"), QStringLiteral("train"), QStringLiteral("--data"), qmsum,
                               QStringLiteral("--limit"), QStringLiteral("4"), QStringLiteral("--epochs"), QStringLiteral("1"),
                               QStringLiteral("--batch"), QStringLiteral("4"), QStringLiteral("--vocab-size"), QStringLiteral("300"),
                               QStringLiteral("--d-model"), QStringLiteral("32"), QStringLiteral("--layers"), QStringLiteral("1"),
                               QStringLiteral("--heads"), QStringLiteral("2"), QStringLiteral("--ffn"), QStringLiteral("64"),
                               QStringLiteral("--max-source"), QStringLiteral("64"), QStringLiteral("--max-target"),
                               QStringLiteral("32"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--no-query-examples")};
        const QString parallel = m_dir.filePath(QStringLiteral("qs-parallel")), sharded = m_dir.filePath(QStringLiteral("qs-sharded"));
        const folio::test::CliRun a = folio::test::runCli(QStringList(tiny) << QStringLiteral("--out") << parallel << QStringLiteral("--nproc")
                                                                            << QStringLiteral("2"));
        QVERIFY2(a.code == 0, a.err.constData());
        const folio::test::CliRun b = folio::test::runCli(QStringList(tiny) << QStringLiteral("--out") << sharded
                                                                            << QStringLiteral("--gradient-shards") << QStringLiteral("2")
                                                                            << QStringLiteral("--vocab") << parallel + QStringLiteral("/vocab/spm.model"));
        QVERIFY2(b.code == 0, b.err.constData());
        const double diff = maxDifference(readWeights(parallel + QStringLiteral("/model.safetensors")),
                                          readWeights(sharded + QStringLiteral("/model.safetensors")));
        qInfo("QS: max |w(--nproc 2) - w(--gradient-shards 2)| = %g", diff);
        QVERIFY2(diff < 1e-6, qPrintable(QString::number(diff)));
    }

    void killedRankFailsTheJob()
    {
        FOLIO_REQUIRE_DATA(kFunsd + QStringLiteral("/training_data/annotations"));
        QStringList args = tinyTraining(m_dir.filePath(QStringLiteral("killed")), 100000, 50);
        args.removeAll(QStringLiteral("-q")); // the launcher names its ranks' pids on stderr
        args << QStringLiteral("--nproc") << QStringLiteral("2")
             << QStringLiteral("--dist-timeout") << QStringLiteral("30");
        QProcess p;
        p.setProcessEnvironment(folio::test::cliEnvironment());
        p.start(QStringLiteral(FOLIO_CLI_PATH), args);
        QVERIFY(p.waitForStarted());
        QByteArray err;
        qint64 rank1 = 0;
        QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError(),
                                  rank1 = QRegularExpression(QStringLiteral("rank 1: pid (\\d+)")).match(QString::fromUtf8(err)).captured(1).toLongLong(),
                                  rank1 > 0),
                                 60000);
        QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError(), err.contains("step ")), 120000); // training is under way
        QCOMPARE(::kill(pid_t(rank1), SIGKILL), 0);
        QVERIFY2(p.waitForFinished(90000), "the job hangs after a rank died");
        err += p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains("rank 1 was killed or crashed"), err.right(600).constData());
        QVERIFY(err.contains("the other ranks were stopped"));
    }

    void optionRefusals()
    {
        const QString out = m_dir.filePath(QStringLiteral("refused"));
        folio::test::CliRun r = folio::test::runCli(tinyTraining(out) << QStringLiteral("--nproc") << QStringLiteral("2")
                                                                      << QStringLiteral("--rank") << QStringLiteral("0")
                                                                      << QStringLiteral("--world-size") << QStringLiteral("2")
                                                                      << QStringLiteral("--master") << QStringLiteral("127.0.0.1:29999"));
        QCOMPARE(r.code, 2);
        r = folio::test::runCli(tinyTraining(out) << QStringLiteral("--rank") << QStringLiteral("2") << QStringLiteral("--world-size")
                                                  << QStringLiteral("2") << QStringLiteral("--master") << QStringLiteral("127.0.0.1:29999"));
        QCOMPARE(r.code, 2);
        r = folio::test::runCli(tinyTraining(out) << QStringLiteral("--rank") << QStringLiteral("1") << QStringLiteral("--world-size")
                                                  << QStringLiteral("2") << QStringLiteral("--master") << QStringLiteral("no-port"));
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("host:port"));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliDistributed)
#include "tst_clidistributed.moc"
