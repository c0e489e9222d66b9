// The Hub client (pipeline/hub, issue 46) against a Hub-shaped server on 127.0.0.1
// (tests/pipeline/hubserver.py): the cache layout Python's huggingface_hub writes, byte for byte
// (blobs by ETag, relative snapshot links, refs without a newline), tokens, offline mode, and the
// bad answers: 401 / 403 / 404, 5xx retried and bounded, a dropped connection resumed with Range
// (within a run and across runs), a wrong sha256 or size refused with nothing kept, hostile file
// lists, a repo without a runnable model, cancelling.
#include "pipeline/hub/hubcache.h"
#include "pipeline/hub/hubdownloader.h"
#include "pipeline/hub/huberror.h"
#include "pipeline/hub/hublisting.h"
#include "pipeline/hub/hubnames.h"
#include "pipeline/hub/hubsettings.h"
#include "tests/common/hubtestserver.h"
#include "tests/common/testdata.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QtTest>

#include <atomic>
#include <thread>
#include <unistd.h>

using namespace folio::hub;
using folio::test::HubTestServer;

namespace {

const QString kCommit = QStringLiteral("0123456789abcdef0123456789abcdef01234567");
const QString kCommit2 = QStringLiteral("89abcdef0123456789abcdef0123456789abcdef");
const QString kRepo = QStringLiteral("folio-test/tiny-layoutlmv3");

QString checkpointDir()
{
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline/checkpoint"));
}

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString sha256Of(const QString &path)
{
    return QString::fromLatin1(QCryptographicHash::hash(fileBytes(path), QCryptographicHash::Sha256).toHex());
}

QString gitOidOf(const QString &path)
{
    const QByteArray bytes = fileBytes(path);
    return QString::fromLatin1(QCryptographicHash::hash("blob " + QByteArray::number(bytes.size()) + '\0' + bytes,
                                                        QCryptographicHash::Sha1).toHex());
}

QString rawLink(const QString &path)
{
    char buffer[4096];
    const ssize_t n = ::readlink(QFile::encodeName(path).constData(), buffer, sizeof buffer - 1);
    return n < 0 ? QString() : QString::fromLocal8Bit(buffer, int(n));
}

// Every path under `dir`, relative, sorted ("blobs/x", "refs/main", ...; links not followed).
QStringList treeOf(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << QDir(dir).relativeFilePath(it.next());
    out.sort();
    return out;
}

int countLines(const QStringList &log, const QString &part)
{
    int n = 0;
    for (const QString &line : log)
        n += line.contains(part);
    return n;
}

} // namespace

class TestHubDownload : public QObject
{
    Q_OBJECT

    HubTestServer m_server;
    QJsonObject m_base; // the configuration every test starts from

    HubSettings settingsFor(const QString &cacheDir, const QString &token = QString()) const
    {
        HubSettings s;
        s.endpoint = m_server.endpoint();
        s.cacheDir = cacheDir;
        s.token = token;
        s.tokenSource = token.isEmpty() ? QString() : QStringLiteral("HF_TOKEN");
        s.tokenFile = QStringLiteral("/home/user/.cache/huggingface/token");
        s.maxAttempts = 3;
        s.retryBaseMs = 10;
        s.timeoutMs = 5000;
        return s;
    }

    QJsonObject withRepo(const QString &id, const QJsonObject &repo) const
    {
        QJsonObject c = m_base;
        QJsonObject repos = c[QStringLiteral("repos")].toObject();
        repos[id] = repo;
        c[QStringLiteral("repos")] = repos;
        return c;
    }

    QJsonObject withFaults(QJsonObject c, const QJsonArray &faults) const
    {
        c[QStringLiteral("faults")] = faults;
        return c;
    }

    // Runs a download that must fail; returns the error (kind checked by the caller).
    static HubError failing(HubDownloader &d, const DownloadRequest &r)
    {
        try {
            d.download(r);
        } catch (const HubError &e) {
            return e;
        }
        return HubError(HubError::Invalid, QStringLiteral("(no error)"));
    }

private Q_SLOTS:
    void initTestCase()
    {
        FOLIO_REQUIRE_DATA(checkpointDir());
        QJsonObject files = folio::test::tinyLayoutLMv3Files(checkpointDir());
        files[QStringLiteral("docs/notes.txt")] = checkpointDir() + QStringLiteral("/special_tokens_map.json"); // a file in a folder
        QJsonObject repo = folio::test::hubRepo(kCommit, files);
        QJsonObject repos{{kRepo, repo}};
        QJsonObject priv = repo;
        priv[QStringLiteral("private")] = true;
        repos[QStringLiteral("folio-test/private")] = priv;
        QJsonObject gated = repo;
        gated[QStringLiteral("gated")] = true;
        gated[QStringLiteral("granted")] = false;
        repos[QStringLiteral("folio-test/gated")] = gated;
        repos[QStringLiteral("folio-test/tokenizer-only")] = folio::test::hubRepo(kCommit2, QJsonObject{
            {QStringLiteral("vocab.json"), checkpointDir() + QStringLiteral("/vocab.json")},
            {QStringLiteral("README.md"), checkpointDir() + QStringLiteral("/special_tokens_map.json")}});
        m_base = QJsonObject{{QStringLiteral("token"), QStringLiteral("hf_folio_test_token")},
                             {QStringLiteral("repos"), repos},
                             {QStringLiteral("renamed"), QJsonObject{{QStringLiteral("old-org/old-name"), kRepo}}}};
        QString why;
        QVERIFY2(m_server.start(m_base, &why), qPrintable(why));
    }

    void init()
    {
        m_server.setConfig(m_base);
        m_server.clearLog();
    }

    void names()
    {
        QString repo, rev, why;
        QVERIFY(parseRepoSpec(QStringLiteral("microsoft/layoutlmv3-base"), &repo, &rev, &why));
        QCOMPARE(rev, QStringLiteral("main"));
        QVERIFY(parseRepoSpec(QStringLiteral("org/name@refs/pr/1"), &repo, &rev, &why));
        QCOMPARE(rev, QStringLiteral("refs/pr/1"));
        QVERIFY(isValidRepoId(QStringLiteral("bert-base-uncased"), &why));
        for (const char *bad : {"a/b/c", "../x", "a--b/c", "a/..b", "-a/b", "a b/c", "", "a/"})
            QVERIFY2(!isValidRepoId(QString::fromLatin1(bad), &why), bad);
        for (const char *bad : {"../main", "a//b", "/x", "a\\b", "a b"})
            QVERIFY2(!isValidRevision(QString::fromLatin1(bad), &why), bad);
        for (const char *bad : {"../x", "a/../b", "/etc/passwd", "a\\b", "a/./b", "a//b", "x\ty", ""})
            QVERIFY2(!isValidRepoFilename(QString::fromLatin1(bad), &why), bad);
        QVERIFY(isValidRepoFilename(QStringLiteral("onnx/model.onnx"), &why));
        QCOMPARE(repoFolderName(QStringLiteral("org/name")), QStringLiteral("models--org--name"));
        QCOMPARE(repoIdFromFolderName(QStringLiteral("models--org--name")), QStringLiteral("org/name"));
        QCOMPARE(repoIdFromFolderName(QStringLiteral("models--gpt2")), QStringLiteral("gpt2"));
        QVERIFY(repoIdFromFolderName(QStringLiteral("datasets--org--name")).isEmpty());
        // fnmatch as Python's: '*' crosses '/', classes, a trailing '/' takes the folder
        QVERIFY(fnmatch(QStringLiteral("*.json"), QStringLiteral("config.json")));
        QVERIFY(fnmatch(QStringLiteral("*.json"), QStringLiteral("sub/x.json")));
        QVERIFY(!fnmatch(QStringLiteral("*.json"), QStringLiteral("model.safetensors")));
        QVERIFY(fnmatch(QStringLiteral("model-0000[0-9]-of-*.safetensors"), QStringLiteral("model-00001-of-00002.safetensors")));
        QVERIFY(!fnmatch(QStringLiteral("[!m]*"), QStringLiteral("model.bin")));
        QVERIFY(fnmatch(QStringLiteral("docs/"), QStringLiteral("docs/notes.txt")));
        QVERIFY(fnmatch(QStringLiteral("?onfig.json"), QStringLiteral("config.json")));
    }

    void settingsFromEnvironment()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        folio::test::writeTestFile(home, QStringLiteral("token"), "hf_from_file\n");
        qputenv("HF_HOME", home.path().toUtf8());
        qunsetenv("HF_HUB_CACHE");
        qunsetenv("HUGGINGFACE_HUB_CACHE");
        qunsetenv("HF_TOKEN");
        qunsetenv("HUGGING_FACE_HUB_TOKEN");
        qunsetenv("HF_TOKEN_PATH");
        qputenv("HF_ENDPOINT", "http://127.0.0.1:9/");
        qputenv("HF_HUB_OFFLINE", "1");
        HubSettings s = HubSettings::fromEnvironment();
        QCOMPARE(s.cacheDir, home.path() + QStringLiteral("/hub"));
        QCOMPARE(s.token, QStringLiteral("hf_from_file"));
        QCOMPARE(s.tokenSource, home.path() + QStringLiteral("/token"));
        QCOMPARE(s.endpoint, QStringLiteral("http://127.0.0.1:9"));
        QVERIFY(s.offline);
        qputenv("HF_TOKEN", "hf_from_env");
        qputenv("HF_HUB_CACHE", "/somewhere/else");
        qputenv("HF_HUB_OFFLINE", "0");
        s = HubSettings::fromEnvironment();
        QCOMPARE(s.token, QStringLiteral("hf_from_env"));
        QCOMPARE(s.tokenSource, QStringLiteral("HF_TOKEN"));
        QCOMPARE(s.cacheDir, QStringLiteral("/somewhere/else"));
        QVERIFY(!s.offline);
        for (const char *v : {"HF_HOME", "HF_TOKEN", "HF_HUB_CACHE", "HF_ENDPOINT", "HF_HUB_OFFLINE"})
            qunsetenv(v);
        QCOMPARE(HubSettings::fromEnvironment().endpoint, QStringLiteral("https://huggingface.co"));
    }

    // The layout huggingface_hub writes, checked entry by entry; a second run fetches no bytes.
    void cacheLayout()
    {
        QTemporaryDir cache;
        HubDownloader d(settingsFor(cache.path(), QStringLiteral("hf_folio_test_token")));
        int progressCalls = 0;
        d.setProgressHandler([&](const DownloadProgress &) { ++progressCalls; });
        const DownloadResult r = d.download({kRepo, QStringLiteral("main"), {}});
        const QString storage = cache.path() + QStringLiteral("/models--folio-test--tiny-layoutlmv3");
        QCOMPARE(r.commit, kCommit);
        QCOMPARE(r.snapshotDir, storage + QStringLiteral("/snapshots/") + kCommit);
        QCOMPARE(r.files.first(), QStringLiteral("config.json"));
        QCOMPARE(r.files.last(), QStringLiteral("model.safetensors")); // weights last
        QVERIFY(progressCalls > 0);
        QCOMPARE(fileBytes(storage + QStringLiteral("/refs/main")), kCommit.toLatin1()); // no newline, as Python writes it

        const QDir src(checkpointDir());
        QStringList expected{QStringLiteral("blobs"), QStringLiteral("refs"), QStringLiteral("refs/main"), QStringLiteral("snapshots"),
                             QStringLiteral("snapshots/") + kCommit, QStringLiteral("snapshots/") + kCommit + QStringLiteral("/docs")};
        QStringList files = src.entryList(QDir::Files);
        files << QStringLiteral("docs/notes.txt");
        for (const QString &name : files) {
            const QString source = name == QLatin1String("docs/notes.txt") ? src.filePath(QStringLiteral("special_tokens_map.json"))
                                                                           : src.filePath(name);
            const QString etag = name.endsWith(QLatin1String(".safetensors")) ? sha256Of(source) : gitOidOf(source);
            const QString pointer = r.snapshotDir + QLatin1Char('/') + name;
            QCOMPARE(rawLink(pointer), QString(name.contains(QLatin1Char('/')) ? QStringLiteral("../") : QString())
                                           + QStringLiteral("../../blobs/") + etag);
            QCOMPARE(fileBytes(pointer), fileBytes(source));
            QCOMPARE(fileBytes(storage + QStringLiteral("/blobs/") + etag), fileBytes(source));
            if (!expected.contains(QStringLiteral("blobs/") + etag))
                expected << QStringLiteral("blobs/") + etag;
            expected << QStringLiteral("snapshots/") + kCommit + QLatin1Char('/') + name;
        }
        expected.sort();
        QCOMPARE(treeOf(storage), expected); // nothing else: no .incomplete, no temporary link
        QVERIFY(QFileInfo::exists(cache.path() + QStringLiteral("/.locks/models--folio-test--tiny-layoutlmv3/") + sha256Of(src.filePath(QStringLiteral("model.safetensors"))) + QStringLiteral(".lock")));

        // The token went to the Hub, never to the CDN the LFS file was redirected to.
        const QStringList log = m_server.requestLog();
        QVERIFY(countLines(log, QStringLiteral("GET /api/models/folio-test/tiny-layoutlmv3/revision/main - auth")) == 1);
        QCOMPARE(countLines(log, QStringLiteral("HEAD /folio-test/tiny-layoutlmv3/resolve/") + kCommit), int(files.size()));
        // The listing, a HEAD per file, a GET per git blob: docs/notes.txt is special_tokens_map.json's
        // bytes, one blob fetched once and linked twice; the LFS bytes come from the CDN without the token.
        QCOMPARE(countLines(log, QStringLiteral(" auth")), 1 + int(files.size()) + int(files.size()) - 2);
        QCOMPARE(countLines(log, QStringLiteral("GET /folio-test/tiny-layoutlmv3/resolve/")), int(files.size()) - 2);
        QCOMPARE(countLines(log, QStringLiteral("GET /cdn/")), 1);
        for (const QString &line : log)
            if (line.contains(QLatin1String("/cdn/")))
                QVERIFY2(line.endsWith(QLatin1String(" -")), qPrintable(line));

        // Again: the listing only; every file is in the snapshot already.
        m_server.clearLog();
        const DownloadResult again = d.download({kRepo, QStringLiteral("main"), {}});
        QCOMPARE(again.snapshotDir, r.snapshotDir);
        QCOMPARE(again.bytesDownloaded, 0);
        QCOMPARE(m_server.requestLog().size(), 1);
        QCOMPARE(treeOf(storage), expected);
    }

    void includePatternsAndCommitRevision()
    {
        QTemporaryDir cache;
        HubDownloader d(settingsFor(cache.path()));
        const DownloadResult r = d.download({kRepo, kCommit, {QStringLiteral("*.json")}});
        QCOMPARE(r.files, (QStringList{QStringLiteral("config.json"), QStringLiteral("special_tokens_map.json"),
                                       QStringLiteral("tokenizer_config.json"), QStringLiteral("vocab.json")}));
        const QString storage = cache.path() + QStringLiteral("/models--folio-test--tiny-layoutlmv3");
        QVERIFY(!QFileInfo::exists(storage + QStringLiteral("/refs"))); // a commit revision writes no ref
        QVERIFY(!QFileInfo::exists(r.snapshotDir + QStringLiteral("/model.safetensors")));
        const HubError e = failing(d, {kRepo, QStringLiteral("main"), {QStringLiteral("*.onnx")}});
        QCOMPARE(e.kind(), HubError::Invalid);
        QVERIFY2(e.message().contains(QLatin1String("no file matches --include *.onnx")), qPrintable(e.message()));
    }

    void renamedRepoFollowsRelativeRedirects()
    {
        QTemporaryDir cache;
        HubDownloader d(settingsFor(cache.path()));
        const DownloadResult r = d.download({QStringLiteral("old-org/old-name"), QStringLiteral("main"), {QStringLiteral("config.json")}});
        QCOMPARE(r.snapshotDir, cache.path() + QStringLiteral("/models--old-org--old-name/snapshots/") + kCommit);
        QCOMPARE(fileBytes(r.snapshotDir + QStringLiteral("/config.json")), fileBytes(checkpointDir() + QStringLiteral("/config.json")));
        const QStringList log = m_server.requestLog();
        QCOMPARE(countLines(log, QStringLiteral("/api/models/old-org/old-name/")), 1);
        QCOMPARE(countLines(log, QStringLiteral("/api/models/folio-test/tiny-layoutlmv3/")), 1);
    }

    void offline()
    {
        QTemporaryDir cache;
        HubSettings s = settingsFor(cache.path());
        HubDownloader online(s);
        const DownloadResult r = online.download({kRepo, QStringLiteral("main"), {QStringLiteral("config.json")}});
        m_server.clearLog();
        s.offline = true;
        HubDownloader d(s);
        const DownloadResult cached = d.download({kRepo, QStringLiteral("main"), {}});
        QVERIFY(cached.fromCacheOnly);
        QCOMPARE(cached.snapshotDir, r.snapshotDir);
        QCOMPARE(cached.files, QStringList{QStringLiteral("config.json")});
        QCOMPARE(d.download({kRepo, kCommit, {}}).snapshotDir, r.snapshotDir);
        const HubError e = failing(d, {kRepo, QStringLiteral("v2"), {}});
        QCOMPARE(e.kind(), HubError::Offline);
        QVERIFY2(e.message().contains(QLatin1String("HF_HUB_OFFLINE")) && e.message().contains(QLatin1String("refs/v2")), qPrintable(e.message()));
        QVERIFY(m_server.requestLog().isEmpty()); // not one request
    }

    void unreachableHubFallsBackToTheCache()
    {
        QTemporaryDir cache;
        HubSettings s = settingsFor(cache.path());
        HubDownloader(s).download({kRepo, QStringLiteral("main"), {QStringLiteral("config.json")}});
        s.endpoint = QStringLiteral("http://127.0.0.1:9"); // nothing listens on the discard port
        s.maxAttempts = 2;
        HubDownloader d(s);
        QStringList messages;
        d.setMessageHandler([&](const QString &m) { messages << m; });
        const DownloadResult r = d.download({kRepo, QStringLiteral("main"), {}});
        QVERIFY(r.fromCacheOnly);
        QVERIFY(messages.join(QLatin1Char('\n')).contains(QLatin1String("using the cached snapshot instead")));
        const HubError e = failing(d, {QStringLiteral("folio-test/other"), QStringLiteral("main"), {}});
        QCOMPARE(e.kind(), HubError::Network);
    }

    void privateAndGated()
    {
        QTemporaryDir cache;
        HubDownloader anonymous(settingsFor(cache.path()));
        HubError e = failing(anonymous, {QStringLiteral("folio-test/private"), QStringLiteral("main"), {}});
        QCOMPARE(e.kind(), HubError::Unauthorized);
        for (const char *part : {"private", "401", "HF_TOKEN", "huggingface-cli login", "/home/user/.cache/huggingface/token", "no token was sent"})
            QVERIFY2(e.message().contains(QLatin1String(part)), qPrintable(e.message()));
        HubDownloader wrongToken(settingsFor(cache.path(), QStringLiteral("hf_wrong")));
        e = failing(wrongToken, {QStringLiteral("folio-test/private"), QStringLiteral("main"), {}});
        QCOMPARE(e.kind(), HubError::Unauthorized);
        QVERIFY2(e.message().contains(QLatin1String("token from HF_TOKEN was not accepted")), qPrintable(e.message()));
        e = failing(anonymous, {QStringLiteral("folio-test/gated"), QStringLiteral("main"), {}});
        QCOMPARE(e.kind(), HubError::Gated);
        QVERIFY2(e.message().contains(QLatin1String("gated")) && e.message().contains(QLatin1String("accept its conditions at "))
                     && e.message().contains(QLatin1String("HF_TOKEN")), qPrintable(e.message()));
        HubDownloader withToken(settingsFor(cache.path(), QStringLiteral("hf_folio_test_token")));
        e = failing(withToken, {QStringLiteral("folio-test/gated"), QStringLiteral("main"), {}});
        QCOMPARE(e.kind(), HubError::Gated);
        QVERIFY2(e.message().contains(QLatin1String("403")) && e.message().contains(QLatin1String("request access at")), qPrintable(e.message()));
        QVERIFY(treeOf(cache.path()).isEmpty()); // refused before anything was written
        // The right token opens the private repo.
        QCOMPARE(withToken.download({QStringLiteral("folio-test/private"), QStringLiteral("main"), {QStringLiteral("config.json")}}).commit, kCommit);
    }

    void notFound()
    {
        QTemporaryDir cache;
        HubDownloader d(settingsFor(cache.path(), QStringLiteral("hf_folio_test_token")));
        HubError e = failing(d, {QStringLiteral("folio-test/absent"), QStringLiteral("main"), {}});
        QCOMPARE(e.kind(), HubError::NotFound);
        QVERIFY2(e.message().contains(QLatin1String("repo not found")), qPrintable(e.message()));
        e = failing(d, {kRepo, QStringLiteral("no-such-branch"), {}});
        QCOMPARE(e.kind(), HubError::NotFound);
        QVERIFY2(e.message().contains(QLatin1String("revision 'no-such-branch' not found")), qPrintable(e.message()));
        QVERIFY(treeOf(cache.path()).isEmpty());
        // A listed file the resolve endpoint does not have: 404 EntryNotFound, recorded in .no_exist as Python does.
        QJsonObject repo = m_base[QStringLiteral("repos")].toObject()[kRepo].toObject();
        repo[QStringLiteral("api_body")] = QString::fromUtf8(QJsonDocument(QJsonObject{
            {QStringLiteral("sha"), kCommit},
            {QStringLiteral("siblings"), QJsonArray{QJsonObject{{QStringLiteral("rfilename"), QStringLiteral("config.json")}},
                                                    QJsonObject{{QStringLiteral("rfilename"), QStringLiteral("model.safetensors")},},
                                                    QJsonObject{{QStringLiteral("rfilename"), QStringLiteral("gone.txt")}}}}}).toJson());
        m_server.setConfig(withRepo(kRepo, repo));
        e = failing(d, {kRepo, QStringLiteral("main"), {QStringLiteral("gone.txt")}});
        QCOMPARE(e.kind(), HubError::NotFound);
        QVERIFY2(e.message().contains(QLatin1String("gone.txt: file not found")), qPrintable(e.message()));
        QVERIFY(QFileInfo::exists(cache.path() + QStringLiteral("/models--folio-test--tiny-layoutlmv3/.no_exist/") + kCommit + QStringLiteral("/gone.txt")));
    }

    void serverErrorsRetriedAndBounded()
    {
        QTemporaryDir cache;
        HubDownloader d(settingsFor(cache.path()));
        QStringList messages;
        d.setMessageHandler([&](const QString &m) { messages << m; });
        m_server.setConfig(withFaults(m_base, {QJsonObject{{QStringLiteral("match"), QStringLiteral("/api/models/")}, {QStringLiteral("status"), 503}, {QStringLiteral("times"), 2}},
                                               QJsonObject{{QStringLiteral("match"), QStringLiteral("/cdn/")}, {QStringLiteral("status"), 502}, {QStringLiteral("times"), 1}}}));
        const DownloadResult r = d.download({kRepo, QStringLiteral("main"), {}});
        QCOMPARE(fileBytes(r.snapshotDir + QStringLiteral("/model.safetensors")), fileBytes(checkpointDir() + QStringLiteral("/model.safetensors")));
        QCOMPARE(countLines(m_server.requestLog(), QStringLiteral("GET /api/models/")), 3);
        QCOMPARE(countLines(m_server.requestLog(), QStringLiteral("GET /cdn/")), 2);
        QVERIFY2(messages.join(QLatin1Char('\n')).contains(QLatin1String("HTTP 503; retrying")), qPrintable(messages.join(QLatin1Char('\n'))));

        QTemporaryDir cache2;
        HubDownloader d2(settingsFor(cache2.path()));
        m_server.setConfig(withFaults(m_base, {QJsonObject{{QStringLiteral("match"), QStringLiteral("/api/models/")}, {QStringLiteral("status"), 500}}}));
        m_server.clearLog();
        const HubError e = failing(d2, {kRepo, QStringLiteral("main"), {}});
        QCOMPARE(e.kind(), HubError::Server);
        QVERIFY2(e.message().contains(QLatin1String("answered 500 3 time(s)")), qPrintable(e.message()));
        QCOMPARE(m_server.requestLog().size(), 3); // maxAttempts, no more
        QVERIFY(treeOf(cache2.path()).isEmpty());
    }

    void droppedConnectionResumed()
    {
        const QString weights = checkpointDir() + QStringLiteral("/model.safetensors");
        const QString etag = sha256Of(weights);
        QTemporaryDir cache;
        // Within one run: the connection breaks after 100000 bytes, the retry asks for the rest.
        m_server.setConfig(withFaults(m_base, {QJsonObject{{QStringLiteral("match"), QStringLiteral("/cdn/")}, {QStringLiteral("drop_after"), 100000}, {QStringLiteral("times"), 1}}}));
        HubDownloader d(settingsFor(cache.path()));
        const DownloadResult r = d.download({kRepo, QStringLiteral("main"), {QStringLiteral("model.safetensors"), QStringLiteral("config.json")}});
        QCOMPARE(fileBytes(r.snapshotDir + QStringLiteral("/model.safetensors")), fileBytes(weights));
        QVERIFY2(m_server.requestLog().contains(QStringLiteral("GET /cdn/") + etag + QStringLiteral(" bytes=100000- -")), qPrintable(m_server.requestLog().join(QLatin1Char('\n'))));

        // Across runs: one attempt only, so the run fails and leaves blobs/<etag>.incomplete, no link.
        QTemporaryDir cache2;
        HubSettings once = settingsFor(cache2.path());
        once.maxAttempts = 1;
        m_server.setConfig(withFaults(m_base, {QJsonObject{{QStringLiteral("match"), QStringLiteral("/cdn/")}, {QStringLiteral("drop_after"), 120000}, {QStringLiteral("times"), 1}}}));
        HubDownloader first(once);
        const HubError e = failing(first, {kRepo, QStringLiteral("main"), {QStringLiteral("model.safetensors"), QStringLiteral("config.json")}});
        QCOMPARE(e.kind(), HubError::Network);
        const QString storage = cache2.path() + QStringLiteral("/models--folio-test--tiny-layoutlmv3");
        QCOMPARE(QFileInfo(storage + QStringLiteral("/blobs/") + etag + QStringLiteral(".incomplete")).size(), 120000);
        QVERIFY(!QFileInfo::exists(storage + QStringLiteral("/snapshots/") + kCommit + QStringLiteral("/model.safetensors")));
        QVERIFY(!QFileInfo(storage + QStringLiteral("/snapshots/") + kCommit + QStringLiteral("/model.safetensors")).isSymLink());
        m_server.clearLog();
        const DownloadResult resumed = HubDownloader(settingsFor(cache2.path())).download({kRepo, QStringLiteral("main"), {QStringLiteral("model.safetensors")}});
        QCOMPARE(resumed.bytesDownloaded, QFileInfo(weights).size() - 120000);
        QCOMPARE(fileBytes(resumed.snapshotDir + QStringLiteral("/model.safetensors")), fileBytes(weights));
        QVERIFY(m_server.requestLog().contains(QStringLiteral("GET /cdn/") + etag + QStringLiteral(" bytes=120000- -")));
        QVERIFY(!QFileInfo::exists(storage + QStringLiteral("/blobs/") + etag + QStringLiteral(".incomplete")));

        // A server that ignores Range (200 and the whole file): the partial file starts over, the result is whole.
        QTemporaryDir cache3;
        m_server.setConfig(withFaults(m_base, {QJsonObject{{QStringLiteral("match"), QStringLiteral("/cdn/")}, {QStringLiteral("drop_after"), 90000}, {QStringLiteral("times"), 1}},
                                               QJsonObject{{QStringLiteral("match"), QStringLiteral("/cdn/")}, {QStringLiteral("ignore_range"), true}}}));
        const DownloadResult whole = HubDownloader(settingsFor(cache3.path())).download({kRepo, QStringLiteral("main"), {QStringLiteral("model.safetensors")}});
        QCOMPARE(fileBytes(whole.snapshotDir + QStringLiteral("/model.safetensors")), fileBytes(weights));
        QCOMPARE(whole.bytesDownloaded, 90000 + QFileInfo(weights).size());
    }

    void wrongHashOrSizeRefused_data()
    {
        QTest::addColumn<QString>("match");
        QTest::addColumn<QString>("fault");
        QTest::addColumn<int>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("sha256") << "/cdn/" << "corrupt" << 1 << "sha256 of the";
        QTest::newRow("lfs larger") << "model.safetensors" << "size_delta" << -10 << "sent more than";
        QTest::newRow("lfs smaller") << "model.safetensors" << "size_delta" << 10 << "the server holds 319588 bytes";
        QTest::newRow("git file larger") << "config.json" << "size_delta" << -5 << "sent more than";
    }

    void wrongHashOrSizeRefused()
    {
        QFETCH(QString, match);
        QFETCH(QString, fault);
        QFETCH(int, value);
        QFETCH(QString, message);
        QTemporaryDir cache;
        QJsonObject f{{QStringLiteral("match"), match}};
        f[fault] = fault == QLatin1String("corrupt") ? QJsonValue(true) : QJsonValue(value);
        m_server.setConfig(withFaults(m_base, {f}));
        HubDownloader d(settingsFor(cache.path()));
        const HubError e = failing(d, {kRepo, QStringLiteral("main"), {QStringLiteral("config.json"), QStringLiteral("model.safetensors")}});
        QCOMPARE(e.kind(), HubError::Integrity);
        QVERIFY2(e.message().contains(message) && e.message().contains(QLatin1String("nothing kept")), qPrintable(e.message()));
        const QString storage = cache.path() + QStringLiteral("/models--folio-test--tiny-layoutlmv3");
        for (const QString &entry : treeOf(storage)) {
            QVERIFY2(!entry.endsWith(QLatin1String(".incomplete")), qPrintable(entry));
            if (entry.startsWith(QLatin1String("blobs/")))
                QVERIFY2(entry == QStringLiteral("blobs/") + gitOidOf(checkpointDir() + QStringLiteral("/config.json")) || match == QLatin1String("config.json"), qPrintable(entry));
        }
        QVERIFY(!QFileInfo(storage + QStringLiteral("/snapshots/") + kCommit + QStringLiteral("/model.safetensors")).isSymLink());
    }

    void hostileListing_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message");
        const QByteArray sha = kCommit.toLatin1();
        auto listing = [&](const QByteArray &name) {
            return "{\"sha\":\"" + sha + "\",\"siblings\":[{\"rfilename\":\"config.json\"},{\"rfilename\":\"model.safetensors\"},{\"rfilename\":" + name + "}]}";
        };
        QTest::newRow("dotdot") << listing("\"../../../etc/x\"") << "outside the repo";
        QTest::newRow("inner dotdot") << listing("\"a/../../b\"") << "outside the repo";
        QTest::newRow("absolute") << listing("\"/etc/passwd\"") << "absolute path";
        QTest::newRow("backslash") << listing("\"a\\\\b\"") << "backslash";
        QTest::newRow("control") << listing("\"a\\nb\"") << "control character";
        QTest::newRow("twice") << listing("\"config.json\"") << "listed twice";
        QTest::newRow("not a string") << listing("7") << "without an 'rfilename' string";
        QTest::newRow("bad sha") << QByteArray("{\"sha\":\"../x\",\"siblings\":[]}") << "not a 40-hex commit";
        QTest::newRow("deep") << (QByteArray("{\"sha\":\"") + sha + "\",\"x\":" + QByteArray(100, '[') + QByteArray(100, ']') + ",\"siblings\":[]}") << "nested deeper than 32";
        QTest::newRow("not json") << QByteArray("<html>") << "not valid JSON";
    }

    void hostileListing()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        QJsonObject repo = m_base[QStringLiteral("repos")].toObject()[kRepo].toObject();
        repo[QStringLiteral("api_body")] = QString::fromUtf8(body);
        m_server.setConfig(withRepo(kRepo, repo));
        QTemporaryDir cache;
        HubDownloader d(settingsFor(cache.path()));
        const HubError e = failing(d, {kRepo, QStringLiteral("main"), {}});
        QCOMPARE(e.kind(), HubError::Invalid);
        QVERIFY2(e.message().contains(message) && e.message().contains(QLatin1String("/api/models/folio-test/tiny-layoutlmv3")), qPrintable(e.message()));
        QVERIFY(treeOf(cache.path()).isEmpty());
    }

    void noRunnableModel()
    {
        QTemporaryDir cache;
        HubDownloader d(settingsFor(cache.path()));
        HubError e = failing(d, {QStringLiteral("folio-test/tokenizer-only"), QStringLiteral("main"), {}});
        QCOMPARE(e.kind(), HubError::NoModel);
        QVERIFY2(e.message().contains(QLatin1String("no model Folio can run: no config.json and a weights file")), qPrintable(e.message()));
        QVERIFY(treeOf(cache.path()).isEmpty());
        // A config the caller cannot run: stopped after config.json, before the weights.
        d.setConfigCheck([](const QString &config) {
            return QFileInfo(config).fileName() == QLatin1String("config.json") ? QStringLiteral("model_type \"gpt2\" is not one Folio runs") : QString();
        });
        e = failing(d, {kRepo, QStringLiteral("main"), {}});
        QCOMPARE(e.kind(), HubError::NoModel);
        QVERIFY2(e.message().contains(QLatin1String("gpt2")) && e.message().contains(QLatin1String("before the weights")), qPrintable(e.message()));
        const QString storage = cache.path() + QStringLiteral("/models--folio-test--tiny-layoutlmv3");
        QCOMPARE(treeOf(storage + QStringLiteral("/snapshots/") + kCommit), QStringList{QStringLiteral("config.json")});
        QCOMPARE(countLines(m_server.requestLog(), QStringLiteral("/cdn/")), 0);
    }

    void cancelKeepsThePartialFile()
    {
        QTemporaryDir cache;
        std::atomic<bool> cancel{false};
        HubDownloader d(settingsFor(cache.path()));
        d.setCancelFlag(&cancel);
        d.setProgressHandler([&](const DownloadProgress &p) {
            if (p.file == QLatin1String("model.safetensors") && p.fileDone > 0)
                cancel = true;
        });
        const HubError e = failing(d, {kRepo, QStringLiteral("main"), {}});
        QCOMPARE(e.kind(), HubError::Cancelled);
        const QString snapshot = cache.path() + QStringLiteral("/models--folio-test--tiny-layoutlmv3/snapshots/") + kCommit;
        QVERIFY(!QFileInfo(snapshot + QStringLiteral("/model.safetensors")).isSymLink());
        QVERIFY(QFileInfo(snapshot + QStringLiteral("/config.json")).isSymLink());
    }

    // A pull request's ref nests under refs/ as huggingface_hub writes it (refs/refs/pr/1).
    void pullRequestRevision()
    {
        QJsonObject repo = m_base[QStringLiteral("repos")].toObject()[kRepo].toObject();
        QJsonObject refs = repo[QStringLiteral("refs")].toObject();
        refs[QStringLiteral("refs/pr/1")] = kCommit2;
        repo[QStringLiteral("refs")] = refs;
        m_server.setConfig(withRepo(kRepo, repo));
        QTemporaryDir cache;
        const DownloadResult r = HubDownloader(settingsFor(cache.path())).download({kRepo, QStringLiteral("refs/pr/1"), {QStringLiteral("config.json")}});
        QCOMPARE(r.commit, kCommit2);
        const QString storage = cache.path() + QStringLiteral("/models--folio-test--tiny-layoutlmv3");
        QCOMPARE(fileBytes(storage + QStringLiteral("/refs/refs/pr/1")), kCommit2.toLatin1());
        QVERIFY(m_server.requestLog().contains(QStringLiteral("GET /api/models/folio-test/tiny-layoutlmv3/revision/refs%2Fpr%2F1 - -")));
        const QList<CachedSnapshot> cached = listCachedSnapshots(cache.path());
        QCOMPARE(cached.size(), 1);
        QCOMPARE(cached[0].refs, QStringList{QStringLiteral("refs/pr/1")});
    }

    // A cache that cannot be written: refused naming the folder, nothing half done.
    void unwritableCache()
    {
        QTemporaryDir cache;
        const QString storage = cache.path() + QStringLiteral("/models--folio-test--tiny-layoutlmv3");
        QVERIFY(QDir().mkpath(storage));
        folio::test::writeTestFile(cache, QStringLiteral("models--folio-test--tiny-layoutlmv3/blobs"), "a file where the folder goes");
        HubDownloader d(settingsFor(cache.path()));
        const HubError e = failing(d, {kRepo, QStringLiteral("main"), {}});
        QCOMPARE(e.kind(), HubError::Disk);
        QVERIFY2(e.message().contains(storage + QStringLiteral("/blobs")), qPrintable(e.message()));
        QVERIFY(!QFileInfo::exists(storage + QStringLiteral("/snapshots/") + kCommit + QStringLiteral("/config.json")));
    }

    // Two downloads of one repo at once (two processes, or Python beside Folio): the blob lock lets
    // one write each blob; both end with the same complete snapshot.
    void concurrentDownloadsShareTheCache()
    {
        QTemporaryDir cache;
        QString errors[2];
        DownloadResult results[2];
        std::thread threads[2];
        for (int i = 0; i < 2; ++i)
            threads[i] = std::thread([&, i] {
                try {
                    HubDownloader d(settingsFor(cache.path()));
                    results[i] = d.download({kRepo, QStringLiteral("main"), {}});
                } catch (const HubError &e) {
                    errors[i] = e.message();
                }
            });
        for (std::thread &t : threads)
            t.join();
        QVERIFY2(errors[0].isEmpty() && errors[1].isEmpty(), qPrintable(errors[0] + errors[1]));
        QCOMPARE(results[0].snapshotDir, results[1].snapshotDir);
        QCOMPARE(fileBytes(results[0].snapshotDir + QStringLiteral("/model.safetensors")),
                 fileBytes(checkpointDir() + QStringLiteral("/model.safetensors")));
        for (const QString &entry : treeOf(cache.path()))
            QVERIFY2(!entry.endsWith(QLatin1String(".incomplete")) && !entry.contains(QLatin1String(".folio-link-")), qPrintable(entry));
    }

    void listCached()
    {
        QTemporaryDir cache;
        HubDownloader d(settingsFor(cache.path()));
        d.download({kRepo, QStringLiteral("main"), {QStringLiteral("config.json")}});
        d.download({QStringLiteral("old-org/old-name"), kCommit, {QStringLiteral("config.json")}});
        QDir().mkpath(cache.path() + QStringLiteral("/datasets--x--y/snapshots/") + kCommit);
        const QList<CachedSnapshot> all = listCachedSnapshots(cache.path());
        QCOMPARE(all.size(), 2);
        QStringList ids;
        for (const CachedSnapshot &s : all) {
            ids << s.repoId;
            QCOMPARE(s.commit, kCommit);
            QCOMPARE(s.refs, s.repoId == kRepo ? QStringList{QStringLiteral("main")} : QStringList{});
        }
        ids.sort();
        QCOMPARE(ids, (QStringList{kRepo, QStringLiteral("old-org/old-name")}));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestHubDownload)
#include "tst_hubdownload.moc"
