// `folio-cli hub` in folio-cli-front, without LibTorch (issue 46: a download does not wait ~0.5 s
// for LibTorch to load):
//  - describeCheckpointWithoutLibTorch gives describeCheckpoint's JSON exactly, or says it cannot
//    (a tagger ensemble, a BART / LED, MarkupLM, a model_type no task runs), for the shared
//    fixtures' checkpoints and for broken folders; the token classifiers the Hub serves
//    (LayoutLMv3, LiLT, LayoutLMv2) are always described there;
//  - `hub download` / `hub list` run by a copy of folio-cli and folio-cli-front in a folder
//    without folio-cli-engine: a LayoutLMv3 repo downloads and lists (so the engine is not
//    needed), its list is the engine's byte for byte; a repo that needs a LibTorch-linked check is
//    handed to the engine (the copy says it cannot start it; the real folio-cli gives the
//    engine's message).
#include "pipeline/checkpointinfo.h"
#include "tests/app/clirunner.h"
#include "tests/common/hubtestserver.h"
#include "tests/common/testdata.h"

#include <QtTest>

#include <sys/stat.h>

using folio::test::CliRun;
using folio::test::HubTestServer;

namespace {

const QString kCommit = QStringLiteral("0123456789abcdef0123456789abcdef01234567");

QString tinyCheckpoint()
{
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline/checkpoint"));
}

bool copyFolder(const QString &from, const QString &to)
{
    if (!QDir().mkpath(to))
        return false;
    for (const QString &name : QDir(from).entryList(QDir::Files))
        if (!QFile::copy(QDir(from).filePath(name), QDir(to).filePath(name)))
            return false;
    return true;
}

CliRun runProgram(const QString &program, const QStringList &args, const QProcessEnvironment &env)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return CliRun{};
    }
    return CliRun{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace

class TestCliHubFront : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

private Q_SLOTS:
    void initTestCase()
    {
        FOLIO_REQUIRE_DATA(tinyCheckpoint());
        QVERIFY(m_tmp.isValid());
    }

    void descriptionsAgree()
    {
        QStringList folders;
        for (const char *root : {"fixtures/parity", "fixtures/parity-new", "fixtures/parity-next", "fixtures/finetune"}) {
            const QString dir = folio::test::sharedPath(QString::fromLatin1(root));
            for (const QString &name : QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
                if (QFileInfo::exists(dir + QLatin1Char('/') + name + QStringLiteral("/config.json")))
                    folders << dir + QLatin1Char('/') + name;
        }
        folders << tinyCheckpoint();
        QVERIFY2(folders.size() >= 10, qPrintable(folders.join(QLatin1Char('\n'))));

        // Broken folders: a tokenizer the classifier refuses, labels missing, an ensemble, a
        // model_type no task runs, JSON that does not parse, a FIFO config, no folder at all.
        const QString made = m_tmp.filePath(QStringLiteral("made"));
        const auto variant = [&](const QString &name, const QString &file, const QByteArray &bytes) {
            const QString dir = made + QLatin1Char('/') + name;
            if (!copyFolder(tinyCheckpoint(), dir))
                return QString();
            QFile f(dir + QLatin1Char('/') + file);
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
                return QString();
            return dir;
        };
        const QString badTokenizer = variant(QStringLiteral("bad-tokenizer"), QStringLiteral("tokenizer_config.json"), R"({"tokenizer_class": "BertTokenizer"})");
        QFile config(tinyCheckpoint() + QStringLiteral("/config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        QJsonObject noLabels = QJsonDocument::fromJson(config.readAll()).object();
        noLabels.remove(QStringLiteral("id2label"));
        noLabels.remove(QStringLiteral("label2id"));
        const QString unlabelled = variant(QStringLiteral("no-labels"), QStringLiteral("config.json"), QJsonDocument(noLabels).toJson());
        const QString ensemble = variant(QStringLiteral("ensemble"), QStringLiteral("config.json"),
                                         R"({"model_type": "folio-formtagger-ensemble", "members": ["a", "b"]})");
        const QString gpt2 = variant(QStringLiteral("gpt2"), QStringLiteral("config.json"), R"({"model_type": "gpt2", "n_layer": 2})");
        const QString broken = variant(QStringLiteral("broken"), QStringLiteral("config.json"), "{\"model_type\": ");
        const QString fifo = made + QStringLiteral("/fifo");
        QVERIFY(QDir().mkpath(fifo));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo + QStringLiteral("/config.json")).constData(), 0600), 0);
        for (const QString &dir : {badTokenizer, unlabelled, ensemble, gpt2, broken})
            QVERIFY(!dir.isEmpty());
        folders << badTokenizer << unlabelled << ensemble << gpt2 << broken << fifo << made + QStringLiteral("/absent");

        int described = 0, handedOver = 0;
        for (const QString &dir : std::as_const(folders)) {
            bool complete = false;
            const nlohmann::json front = folio::pipeline::describeCheckpointWithoutLibTorch(dir, &complete);
            const nlohmann::json full = folio::pipeline::describeCheckpoint(dir);
            const std::string type = full.value("model_type", std::string());
            const bool classifier = type == "layoutlmv3" || type == "lilt" || type == "layoutlmv2";
            if (classifier || dir == badTokenizer)
                QVERIFY2(complete, qPrintable(dir + QStringLiteral(": a token classifier must be described without LibTorch")));
            if (dir == ensemble || dir == gpt2 || type == "markuplm" || type == "bart" || type == "led")
                QVERIFY2(!complete, qPrintable(dir + QStringLiteral(": needs a LibTorch-linked check, yet described without one")));
            if (complete) {
                QCOMPARE(QString::fromStdString(front.dump(1)), QString::fromStdString(full.dump(1)));
                ++described;
            } else {
                QVERIFY(front.is_null());
                ++handedOver;
            }
        }
        // The refusals are still refusals, with the loaders' own messages.
        const nlohmann::json bad = folio::pipeline::describeCheckpointWithoutLibTorch(badTokenizer, nullptr);
        QVERIFY(!bad.value("runnable", true));
        QVERIFY2(bad.dump().find("BertTokenizer") != std::string::npos, bad.dump().c_str());
        QVERIFY(!folio::pipeline::describeCheckpointWithoutLibTorch(unlabelled, nullptr).value("runnable", true));
        QVERIFY2(described >= 8 && handedOver >= 4, qPrintable(QStringLiteral("%1 described, %2 handed over").arg(described).arg(handedOver)));
    }

    void downloadWithoutEngine()
    {
        // folio-cli and folio-cli-front alone in a folder: the front cannot hand anything to the engine.
        const QString binDir = QFileInfo(QStringLiteral(FOLIO_CLI_PATH)).absolutePath();
        const QString alone = m_tmp.filePath(QStringLiteral("front-only"));
        QVERIFY(QDir().mkpath(alone));
        for (const QString &program : {QStringLiteral("folio-cli"), QStringLiteral("folio-cli-front")}) {
            QVERIFY(QFile::copy(binDir + QLatin1Char('/') + program, alone + QLatin1Char('/') + program));
            QVERIFY(QFile::setPermissions(alone + QLatin1Char('/') + program, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        }
        QVERIFY(!QFileInfo::exists(alone + QStringLiteral("/folio-cli-engine")));
        const QString frontOnly = alone + QStringLiteral("/folio-cli");

        const QString ensembleConfig = folio::test::writeTestFile(m_tmp, QStringLiteral("ensemble-config.json"),
                                                                  R"({"model_type": "folio-formtagger-ensemble", "members": ["a", "b"]})");
        const QJsonObject tiny = folio::test::tinyLayoutLMv3Files(tinyCheckpoint());
        const QJsonObject config{{QStringLiteral("repos"), QJsonObject{
            {QStringLiteral("folio-test/tiny"), folio::test::hubRepo(kCommit, tiny)},
            {QStringLiteral("folio-test/ensemble"), folio::test::hubRepo(kCommit, QJsonObject{
                {QStringLiteral("config.json"), ensembleConfig},
                {QStringLiteral("model.safetensors"), tinyCheckpoint() + QStringLiteral("/model.safetensors")}})}}}};
        HubTestServer server;
        QString why;
        QVERIFY2(server.start(config, &why), qPrintable(why));

        QTemporaryDir home;
        QProcessEnvironment env = folio::test::cliEnvironment();
        for (const char *v : {"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_TOKEN_PATH", "HF_HUB_OFFLINE"})
            env.remove(QString::fromLatin1(v));
        env.insert(QStringLiteral("HF_HOME"), home.path());
        env.insert(QStringLiteral("HF_ENDPOINT"), server.endpoint());

        const CliRun run = runProgram(frontOnly, {QStringLiteral("hub"), QStringLiteral("download"), QStringLiteral("folio-test/tiny")}, env);
        QVERIFY2(run.code == 0, run.err.constData());
        const QString snapshot = home.path() + QStringLiteral("/hub/models--folio-test--tiny/snapshots/") + kCommit;
        QCOMPARE(QString::fromUtf8(run.out).trimmed(), snapshot);
        QVERIFY2(run.err.contains("hub: folio-test/tiny@main = "), run.err.constData());

        const CliRun list = runProgram(frontOnly, {QStringLiteral("hub"), QStringLiteral("list"), QStringLiteral("--all")}, env);
        QVERIFY2(list.code == 0, list.err.constData());
        const CliRun engineList = runProgram(binDir + QStringLiteral("/folio-cli-engine"), {QStringLiteral("hub"), QStringLiteral("list"), QStringLiteral("--all")}, env);
        QVERIFY2(engineList.code == 0, engineList.err.constData());
        QCOMPARE(list.out, engineList.out);
        QVERIFY2(list.out.contains("\"runnable\": true"), list.out.constData());

        // A repo whose folder needs LibTorch-linked checks: the front hands it to the engine.
        const CliRun handed = runProgram(frontOnly, {QStringLiteral("hub"), QStringLiteral("download"), QStringLiteral("folio-test/ensemble")}, env);
        QCOMPARE(handed.code, 1);
        QVERIFY2(handed.err.contains("cannot start") && handed.err.contains("folio-cli-engine"), handed.err.constData());
        QVERIFY(handed.out.isEmpty());
        const CliRun real = folio::test::runCli({QStringLiteral("hub"), QStringLiteral("download"), QStringLiteral("folio-test/ensemble")}, 120000, env);
        QCOMPARE(real.code, 1);
        QVERIFY2(real.err.contains("downloaded, but Folio cannot run this folder") && real.err.contains("member"), real.err.constData());
        QVERIFY(real.out.isEmpty());
        // Now the cache holds it, `hub list` needs the engine too; the real one lists the runnable repo.
        QVERIFY(runProgram(frontOnly, {QStringLiteral("hub"), QStringLiteral("list")}, env).err.contains("folio-cli-engine"));
        const CliRun realList = folio::test::runCli({QStringLiteral("hub"), QStringLiteral("list")}, 120000, env);
        QVERIFY2(realList.code == 0, realList.err.constData());
        QVERIFY2(realList.out.contains("folio-test/tiny") && !realList.out.contains("folio-test/ensemble"), realList.out.constData());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliHubFront)
#include "tst_clihubfront.moc"
