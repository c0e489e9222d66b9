// folio-cli hub download / hub list (issue 46) against the Hub-shaped server on 127.0.0.1
// (tests/pipeline/hubserver.py): the snapshot folder printed and runnable (info --checkpoint), the
// cache listed by repo id, HF_HUB_OFFLINE, the token file `huggingface-cli login` writes, and the
// refusals with exit 1 and a clear message: private without a token, not found, a repo without a
// model, a model type Folio does not run (stopped before the weights), a corrupted download.
#include "tests/app/clirunner.h"
#include "tests/common/hubtestserver.h"
#include "tests/common/safetensorsshards.h"
#include "tests/common/testdata.h"

#include <QDirIterator>
#include <QImage>
#include <QJsonArray>
#include <QtTest>

#include <csignal>
#include <sys/types.h>

using folio::test::CliRun;
using folio::test::HubTestServer;

namespace {

const QString kCommit = QStringLiteral("fedcba9876543210fedcba9876543210fedcba98");
const QString kRepo = QStringLiteral("folio-test/tiny-layoutlmv3");

QString checkpointDir()
{
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline/checkpoint"));
}

QStringList treeOf(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << QDir(dir).relativeFilePath(it.next());
    out.sort();
    return out;
}

} // namespace

class TestCliHub : public QObject
{
    Q_OBJECT

    HubTestServer m_server;
    QJsonObject m_base;
    QTemporaryDir m_files;

    QProcessEnvironment envFor(const QString &home) const
    {
        QProcessEnvironment env = folio::test::cliEnvironment();
        for (const char *v : {"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_TOKEN_PATH", "HF_HUB_OFFLINE"})
            env.remove(QString::fromLatin1(v));
        env.insert(QStringLiteral("HF_HOME"), home);
        env.insert(QStringLiteral("HF_ENDPOINT"), m_server.endpoint());
        return env;
    }

    CliRun hub(const QStringList &args, const QProcessEnvironment &env) const
    {
        return folio::test::runCli(QStringList{QStringLiteral("hub")} + args, 120000, env);
    }

private Q_SLOTS:
    void initTestCase()
    {
        FOLIO_REQUIRE_DATA(checkpointDir());
        QVERIFY(m_files.isValid());
        const QString gpt2 = folio::test::writeTestFile(m_files, QStringLiteral("config.json"), "{\"model_type\": \"gpt2\", \"n_layer\": 2}");
        const QJsonObject tiny = folio::test::tinyLayoutLMv3Files(checkpointDir());
        QJsonObject priv = folio::test::hubRepo(kCommit, tiny);
        priv[QStringLiteral("private")] = true;
        m_base = QJsonObject{
            {QStringLiteral("token"), QStringLiteral("hf_cli_test")},
            {QStringLiteral("repos"), QJsonObject{
                 {kRepo, folio::test::hubRepo(kCommit, tiny)},
                 {QStringLiteral("folio-test/private"), priv},
                 {QStringLiteral("folio-test/gpt2"), folio::test::hubRepo(kCommit, QJsonObject{
                      {QStringLiteral("config.json"), gpt2},
                      {QStringLiteral("model.safetensors"), checkpointDir() + QStringLiteral("/model.safetensors")}})},
                 {QStringLiteral("folio-test/no-model"), folio::test::hubRepo(kCommit, QJsonObject{
                      {QStringLiteral("README.md"), gpt2}})}}}};
        // The same checkpoint with its weights in three shards (model.safetensors.index.json).
        QJsonObject sharded;
        for (auto it = tiny.begin(); it != tiny.end(); ++it)
            if (it.key() != QLatin1String("model.safetensors"))
                sharded[it.key()] = it.value();
        QVERIFY(QDir().mkpath(m_files.filePath(QStringLiteral("sharded"))));
        QString why;
        QVERIFY2(folio::test::writeShardedCopy(checkpointDir() + QStringLiteral("/model.safetensors"), m_files.filePath(QStringLiteral("sharded")), 3, &why),
                 qPrintable(why));
        for (const QString &name : QDir(m_files.filePath(QStringLiteral("sharded"))).entryList(QDir::Files))
            sharded[name] = m_files.filePath(QStringLiteral("sharded/") + name);
        QJsonObject repos = m_base[QStringLiteral("repos")].toObject();
        repos[QStringLiteral("folio-test/sharded")] = folio::test::hubRepo(kCommit, sharded);
        m_base[QStringLiteral("repos")] = repos;
        QVERIFY2(m_server.start(m_base, &why), qPrintable(why));
    }

    void init() { m_server.setConfig(m_base); }

    void downloadInfoListOffline()
    {
        QTemporaryDir home;
        const QProcessEnvironment env = envFor(home.path());
        const CliRun run = hub({QStringLiteral("download"), kRepo}, env);
        QVERIFY2(run.code == 0, run.err.constData());
        const QString snapshot = home.path() + QStringLiteral("/hub/models--folio-test--tiny-layoutlmv3/snapshots/") + kCommit;
        QCOMPARE(QString::fromUtf8(run.out).trimmed(), snapshot);
        QVERIFY2(run.err.contains("hub: [") && run.err.contains("model.safetensors"), run.err.constData());
        QCOMPARE(QFile(home.path() + QStringLiteral("/hub/models--folio-test--tiny-layoutlmv3/refs/main")).size(), 40);

        // The snapshot is a checkpoint folder Folio runs.
        const CliRun info = folio::test::runCli({QStringLiteral("info"), QStringLiteral("--checkpoint"), snapshot}, 120000, env);
        QVERIFY2(info.code == 0, info.err.constData());
        const QJsonObject described = info.json();
        QCOMPARE(described[QStringLiteral("model_type")].toString(), QStringLiteral("layoutlmv3"));
        QVERIFY(described[QStringLiteral("runnable")].toBool());

        const CliRun list = hub({QStringLiteral("list")}, env);
        QVERIFY2(list.code == 0, list.err.constData());
        const QJsonArray checkpoints = list.json()[QStringLiteral("checkpoints")].toArray();
        QCOMPARE(checkpoints.size(), 1);
        QCOMPARE(checkpoints[0][QStringLiteral("repo_id")].toString(), kRepo);
        QCOMPARE(checkpoints[0][QStringLiteral("revisions")].toArray(), QJsonArray{QStringLiteral("main")});
        QCOMPARE(checkpoints[0][QStringLiteral("snapshot")].toString(), snapshot);

        QProcessEnvironment offline = env;
        offline.insert(QStringLiteral("HF_HUB_OFFLINE"), QStringLiteral("1"));
        offline.insert(QStringLiteral("HF_ENDPOINT"), QStringLiteral("http://127.0.0.1:9"));
        const CliRun cached = hub({QStringLiteral("download"), kRepo}, offline);
        QVERIFY2(cached.code == 0, cached.err.constData());
        QCOMPARE(QString::fromUtf8(cached.out).trimmed(), snapshot);
        const CliRun missing = hub({QStringLiteral("download"), kRepo + QStringLiteral("@v2")}, offline);
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains("HF_HUB_OFFLINE") && missing.err.contains("not in the cache"), missing.err.constData());
    }

    // Sharded weights fetched from the Hub load: predict gives what the one-file folder gives.
    void shardedRepoPredicts()
    {
        QTemporaryDir home;
        const QProcessEnvironment env = envFor(home.path());
        const CliRun run = hub({QStringLiteral("download"), QStringLiteral("folio-test/sharded")}, env);
        QVERIFY2(run.code == 0, run.err.constData());
        const QString snapshot = QString::fromUtf8(run.out).trimmed();
        QVERIFY(QFileInfo(snapshot + QStringLiteral("/model.safetensors.index.json")).isSymLink());
        const CliRun info = folio::test::runCli({QStringLiteral("info"), QStringLiteral("--checkpoint"), snapshot}, 120000, env);
        QVERIFY2(info.code == 0, info.err.constData());
        const QJsonObject weights = info.json()[QStringLiteral("files")].toObject()[QStringLiteral("weights")].toObject();
        QCOMPARE(weights[QStringLiteral("format")].toString(), QStringLiteral("safetensors-sharded"));
        QCOMPARE(weights[QStringLiteral("shards")].toArray().size(), 3);

        // A small FUNSD page, predicted by both folders.
        const QByteArray page = R"({"form": [
            {"id": 0, "label": "question", "box": [50, 40, 220, 60], "text": "Date of birth:", "linking": [],
             "words": [{"box": [50, 40, 90, 60], "text": "Date"}, {"box": [95, 40, 115, 60], "text": "of"}, {"box": [120, 40, 220, 60], "text": "birth:"}]},
            {"id": 1, "label": "answer", "box": [240, 40, 380, 60], "text": "12 March 1961", "linking": [],
             "words": [{"box": [240, 40, 270, 60], "text": "12"}, {"box": [275, 40, 330, 60], "text": "March"}, {"box": [335, 40, 380, 60], "text": "1961"}]}]})";
        QVERIFY(QDir(home.path()).mkpath(QStringLiteral("annotations")) && QDir(home.path()).mkpath(QStringLiteral("images")));
        const QString file = folio::test::writeTestFile(home, QStringLiteral("annotations/page.json"), page);
        QImage image(762, 1000, QImage::Format_RGB32); // FUNSD's layout: the page image in ../images
        image.fill(Qt::white);
        QVERIFY(image.save(home.filePath(QStringLiteral("images/page.png"))));
        const CliRun one = folio::test::runCli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), checkpointDir(), file}, 120000, env);
        const CliRun shards = folio::test::runCli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), snapshot, file}, 120000, env);
        QVERIFY2(one.code == 0, one.err.constData());
        QVERIFY2(shards.code == 0, shards.err.constData());
        QCOMPARE(one.json()[QStringLiteral("pages")].toArray()[0][QStringLiteral("words")].toInt(), 6); // the page ran
        QCOMPARE(shards.json()[QStringLiteral("pages")], one.json()[QStringLiteral("pages")]);
        QCOMPARE(shards.json()[QStringLiteral("entities")], one.json()[QStringLiteral("entities")]); // labels and confidences
    }

    void privateRepoAndTokenFile()
    {
        QTemporaryDir home;
        const QProcessEnvironment env = envFor(home.path());
        const CliRun refused = hub({QStringLiteral("download"), QStringLiteral("folio-test/private")}, env);
        QCOMPARE(refused.code, 1);
        for (const char *part : {"private", "HF_TOKEN", "huggingface-cli login", "no token was sent"})
            QVERIFY2(refused.err.contains(part), refused.err.constData());
        QVERIFY2(refused.err.contains((home.path() + QStringLiteral("/token")).toUtf8()), refused.err.constData());
        QVERIFY(treeOf(home.path()).isEmpty());
        folio::test::writeTestFile(home, QStringLiteral("token"), "hf_cli_test\n"); // as `huggingface-cli login` leaves it
        const CliRun run = hub({QStringLiteral("download"), QStringLiteral("folio-test/private"), QStringLiteral("--include"), QStringLiteral("*.json")}, env);
        QVERIFY2(run.code == 0, run.err.constData());
    }

    void refusals()
    {
        QTemporaryDir home;
        const QProcessEnvironment env = envFor(home.path());
        CliRun r = hub({QStringLiteral("download"), QStringLiteral("folio-test/no-model")}, env);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("holds no model Folio can run") && r.err.contains("nothing downloaded"), r.err.constData());
        QVERIFY(!QFileInfo::exists(home.path() + QStringLiteral("/hub/models--folio-test--no-model")));

        r = hub({QStringLiteral("download"), QStringLiteral("folio-test/gpt2")}, env);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("model_type \\\"gpt2\\\" is not one Folio runs") || r.err.contains("model_type \"gpt2\" is not one Folio runs"), r.err.constData());
        const QString gpt2 = home.path() + QStringLiteral("/hub/models--folio-test--gpt2/snapshots/") + kCommit;
        QCOMPARE(treeOf(gpt2), QStringList{QStringLiteral("config.json")}); // stopped before the weights
        // hub list leaves it out; --all shows it with its problems.
        CliRun list = hub({QStringLiteral("list")}, env);
        QVERIFY2(list.code == 0, list.err.constData());
        QVERIFY(list.json()[QStringLiteral("checkpoints")].toArray().isEmpty());
        list = hub({QStringLiteral("list"), QStringLiteral("--all")}, env);
        const QJsonArray all = list.json()[QStringLiteral("checkpoints")].toArray();
        QCOMPARE(all.size(), 1);
        QCOMPARE(all[0][QStringLiteral("repo_id")].toString(), QStringLiteral("folio-test/gpt2"));
        QVERIFY(!all[0][QStringLiteral("runnable")].toBool());
        QVERIFY(!all[0][QStringLiteral("problems")].toArray().isEmpty());

        r = hub({QStringLiteral("download"), QStringLiteral("folio-test/absent")}, env);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("folio-test/absent") && r.err.contains("401"), r.err.constData());

        r = hub({QStringLiteral("download"), QStringLiteral("a/b/c")}, env);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("repo id 'a/b/c'"), r.err.constData());

        m_server.setConfig([&] {
            QJsonObject c = m_base;
            c[QStringLiteral("faults")] = QJsonArray{QJsonObject{{QStringLiteral("match"), QStringLiteral("/cdn/")}, {QStringLiteral("corrupt"), true}}};
            return c;
        }());
        r = hub({QStringLiteral("download"), kRepo}, env);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("sha256") && r.err.contains("nothing kept"), r.err.constData());
        for (const QString &entry : treeOf(home.path() + QStringLiteral("/hub/models--folio-test--tiny-layoutlmv3")))
            QVERIFY2(!entry.endsWith(QLatin1String(".incomplete")) && !entry.endsWith(QLatin1String("model.safetensors")), qPrintable(entry));
    }

    // Ctrl-C during a download: exit 3, the partial blob kept and no link to it; the next run resumes.
    void interruptThenResume()
    {
        QTemporaryDir home;
        QByteArray big(4 << 20, '\0');
        for (int i = 0; i < big.size(); ++i)
            big[i] = char((i * 2654435761u) >> 24);
        const QString bigFile = folio::test::writeTestFile(home, QStringLiteral("export.onnx"), big);
        QJsonObject files = folio::test::tinyLayoutLMv3Files(checkpointDir());
        files[QStringLiteral("onnx/model.onnx")] = bigFile;
        QJsonObject c = m_base;
        QJsonObject repos = c[QStringLiteral("repos")].toObject();
        repos[QStringLiteral("folio-test/slow")] = folio::test::hubRepo(kCommit, files);
        c[QStringLiteral("repos")] = repos;
        c[QStringLiteral("faults")] = QJsonArray{QJsonObject{{QStringLiteral("match"), QStringLiteral("/cdn/")}, {QStringLiteral("slow"), 65536}, {QStringLiteral("sleep"), 0.1}}}; // 6.4 s for the 4 MB
        m_server.setConfig(c);
        QTemporaryDir cacheHome;
        const QProcessEnvironment env = envFor(cacheHome.path());
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(FOLIO_CLI_PATH), {QStringLiteral("hub"), QStringLiteral("download"), QStringLiteral("folio-test/slow")});
        QVERIFY(p.waitForStarted());
        const QString blobs = cacheHome.path() + QStringLiteral("/hub/models--folio-test--slow/blobs");
        auto partialSize = [&] {
            for (const QFileInfo &f : QDir(blobs).entryInfoList({QStringLiteral("*.incomplete")}, QDir::Files))
                return f.size();
            return qint64(-1);
        };
        QTRY_VERIFY_WITH_TIMEOUT(partialSize() > 0, 60000);
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 3);
        const qint64 kept = partialSize();
        QVERIFY2(kept > 0 && kept < big.size(), QByteArray::number(kept).constData());
        const QString snapshot = cacheHome.path() + QStringLiteral("/hub/models--folio-test--slow/snapshots/") + kCommit;
        QVERIFY(!QFileInfo(snapshot + QStringLiteral("/onnx/model.onnx")).isSymLink());

        c.remove(QStringLiteral("faults")); // full speed now
        m_server.setConfig(c);
        const CliRun again = hub({QStringLiteral("download"), QStringLiteral("folio-test/slow")}, env);
        QVERIFY2(again.code == 0, again.err.constData());
        QVERIFY2(again.err.contains("resuming onnx/model.onnx at " + QByteArray::number(kept) + " bytes"), again.err.constData());
        QFile result(snapshot + QStringLiteral("/onnx/model.onnx"));
        QVERIFY(result.open(QIODevice::ReadOnly));
        QVERIFY(result.readAll() == big);
    }

    void droppedConnectionRetried()
    {
        QTemporaryDir home;
        QJsonObject c = m_base;
        c[QStringLiteral("faults")] = QJsonArray{QJsonObject{{QStringLiteral("match"), QStringLiteral("/cdn/")}, {QStringLiteral("drop_after"), 50000}, {QStringLiteral("times"), 1}}};
        m_server.setConfig(c);
        const CliRun r = hub({QStringLiteral("download"), kRepo}, envFor(home.path()));
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("retrying") && r.err.contains("50000 bytes of 319588 bytes kept in"), r.err.constData());
        QFile weights(QString::fromUtf8(r.out).trimmed() + QStringLiteral("/model.safetensors"));
        QFile source(checkpointDir() + QStringLiteral("/model.safetensors"));
        QVERIFY(weights.open(QIODevice::ReadOnly) && source.open(QIODevice::ReadOnly));
        QVERIFY(weights.readAll() == source.readAll());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliHub)
#include "tst_clihub.moc"
