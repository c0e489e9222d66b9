// Hostile inputs of issue 51 (round 3) through folio-cli, each generated here: what a checkpoint
// folder or a batch folder can hold besides files. A FIFO, a link to /dev/zero or /dev/urandom, a
// folder or a link loop in the place of config.json, model.safetensors, a tokenizer file,
// drafter.json, checkpoint_best.pt or an ensemble member's config is refused before it is opened:
// exit 1, the file named with what it is, in bounded time (every run has a deadline, so a FIFO
// that blocks fails the case instead of hanging the suite) and bounded memory. A 1 GB sparse
// config.json is refused from stat. A folder batch does not read links that lead out of the
// folder. A checkpoint folder whose name is not UTF-8 is the same folder for info and predict.
#include "measuredcli.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

using folio::test::MeasuredRun;

namespace {

constexpr int kDeadlineMs = 60000; // every case ends in a few seconds; a blocked open would not
constexpr long kPeakMiB = 1024;    // /dev/zero read whole, or a 1 GB config.json, would pass this

QString model() { return QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/forms-en-de"); }
QString drafter() { return QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/qs-drafter"); }

QByteArray bytes(const QString &path) { return QFile::encodeName(path); }

} // namespace

class TestCliHostile3 : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_serial = 0;
    QByteArray m_rawFolder; // the folder named with bytes that are not UTF-8 (QDir cannot remove it)

    // A fresh folder linking every file of `from` but `replaced` (the case puts its own there).
    QString folderLike(const QString &from, const QString &replaced)
    {
        const QString dir = m_dir.filePath(QStringLiteral("ck%1").arg(++m_serial));
        QDir().mkpath(dir);
        const QDir source(from);
        for (const QString &f : source.entryList(QDir::Files))
            if (f != replaced && !QFile::link(source.filePath(f), QDir(dir).filePath(f)))
                return {};
        return dir;
    }

    // Puts `kind` at `path`: a FIFO, a link to a device, a folder, a link loop.
    static bool plant(const QString &path, const QString &kind)
    {
        const QByteArray p = bytes(path);
        if (kind == QLatin1String("fifo"))
            return ::mkfifo(p.constData(), 0600) == 0;
        if (kind == QLatin1String("zero"))
            return ::symlink("/dev/zero", p.constData()) == 0;
        if (kind == QLatin1String("urandom"))
            return ::symlink("/dev/urandom", p.constData()) == 0;
        if (kind == QLatin1String("folder"))
            return QDir().mkpath(path);
        if (kind == QLatin1String("loop"))
            return ::symlink(p.constData(), p.constData()) == 0; // a link to itself
        return false;
    }

    QString page()
    {
        const QString path = m_dir.filePath(QStringLiteral("page.html"));
        if (!QFile::exists(path))
            folio::test::writeTestFile(m_dir, QStringLiteral("page.html"),
                                       "<html><body><h1>Order</h1><p>Name: John Smith</p><p>Date: 12 March 2024</p></body></html>");
        return path;
    }

    static void report(const char *what, const MeasuredRun &r)
    {
        // The figures RELIABILITY.md's round-3 table takes (exit code, time, peak memory).
        qInfo("%s: exit %d%s, %lld ms, peak %ld MiB", what, r.code, r.timedOut ? " (killed at the deadline)" : "",
              static_cast<long long>(r.ms), r.peakMiB);
    }

    // Exit 1, in time, memory bounded, the message names `file` and `fragment`.
    static void verifyRefused(const MeasuredRun &r, const QString &file, const QString &fragment)
    {
        const QString all = QString::fromUtf8(r.err + r.out);
        QVERIFY2(!r.timedOut, qPrintable(QStringLiteral("still running after %1 ms: %2").arg(kDeadlineMs).arg(all)));
        QVERIFY2(r.code == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(all)));
        QVERIFY2(all.contains(file), qPrintable(QStringLiteral("'%1' not named: %2").arg(file, all)));
        QVERIFY2(all.contains(fragment, Qt::CaseInsensitive), qPrintable(QStringLiteral("no '%1' in: %2").arg(fragment, all)));
        QVERIFY2(r.peakMiB < kPeakMiB, qPrintable(QStringLiteral("peak %1 MiB").arg(r.peakMiB)));
    }

private Q_SLOTS:
    void cleanupTestCase()
    {
        if (m_rawFolder.isEmpty())
            return;
        if (DIR *dir = ::opendir(m_rawFolder.constData())) {
            while (const dirent *e = ::readdir(dir))
                if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
                    ::unlink((m_rawFolder + '/' + e->d_name).constData());
            ::closedir(dir);
        }
        ::rmdir(m_rawFolder.constData());
    }

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QFile::exists(model() + QStringLiteral("/spm.model")));
        QVERIFY(QFile::exists(drafter() + QStringLiteral("/drafter.json")));
    }

    // Every file a form-tagger folder is read from, as something that is not a regular file:
    // `info` (the command meant to vet a folder) and `predict` both refuse it by name.
    void checkpointFilesThatAreNotFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("fragment");
        for (const char *file : {"config.json", "model.safetensors", "spm.model"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1 fifo").arg(QLatin1String(file)))) << file << "fifo" << "FIFO";
            QTest::newRow(qPrintable(QStringLiteral("%1 /dev/zero").arg(QLatin1String(file)))) << file << "zero" << "character device";
            QTest::newRow(qPrintable(QStringLiteral("%1 folder").arg(QLatin1String(file)))) << file << "folder" << "a folder";
            QTest::newRow(qPrintable(QStringLiteral("%1 loop").arg(QLatin1String(file)))) << file << "loop" << "loop";
        }
        QTest::newRow("spm.model /dev/urandom") << "spm.model" << "urandom" << "character device";
    }

    void checkpointFilesThatAreNotFiles()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(QString, fragment);
        const QString dir = folderLike(model(), file);
        QVERIFY(!dir.isEmpty());
        QVERIFY(plant(QDir(dir).filePath(file), kind));
        const MeasuredRun info = folio::test::measuredCli(m_dir.path(), {QStringLiteral("info"), QStringLiteral("--checkpoint"), dir}, kDeadlineMs);
        report(qPrintable(QStringLiteral("info, %1 as %2").arg(file, kind)), info);
        verifyRefused(info, file, fragment);
        const MeasuredRun predict = folio::test::measuredCli(
            m_dir.path(), {QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), dir, page()}, kDeadlineMs);
        report(qPrintable(QStringLiteral("predict, %1 as %2").arg(file, kind)), predict);
        verifyRefused(predict, file, fragment);
    }

    // The tokenizer files a folder may hold instead of spm.model (tokenizer.json first, then
    // vocab.json + merges.txt, vocab.txt, sentencepiece.bpe.model): a FIFO in their place.
    void tokenizerFilesAsFifos_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("partner"); // written as a regular file beside it
        QTest::newRow("tokenizer.json") << "tokenizer.json" << "";
        QTest::newRow("vocab.json") << "vocab.json" << "merges.txt";
        QTest::newRow("merges.txt") << "merges.txt" << "vocab.json";
        QTest::newRow("vocab.txt") << "vocab.txt" << "";
        QTest::newRow("sentencepiece.bpe.model") << "sentencepiece.bpe.model" << "";
    }

    void tokenizerFilesAsFifos()
    {
        QFETCH(QString, file);
        QFETCH(QString, partner);
        const QString dir = folderLike(model(), QStringLiteral("spm.model"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(plant(QDir(dir).filePath(file), QStringLiteral("fifo")));
        if (!partner.isEmpty())
            QVERIFY(!folio::test::writeTestFile(m_dir, QDir(m_dir.path()).relativeFilePath(QDir(dir).filePath(partner)),
                                                partner == QLatin1String("vocab.json") ? "{\"a\": 0}" : "#version: 0.2\n").isEmpty());
        const MeasuredRun predict = folio::test::measuredCli(
            m_dir.path(), {QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), dir, page()}, kDeadlineMs);
        report(qPrintable(QStringLiteral("predict, %1 as a FIFO").arg(file)), predict);
        verifyRefused(predict, file, QStringLiteral("FIFO"));
        const MeasuredRun info = folio::test::measuredCli(m_dir.path(), {QStringLiteral("info"), QStringLiteral("--checkpoint"), dir}, kDeadlineMs);
        report(qPrintable(QStringLiteral("info, %1 as a FIFO").arg(file)), info);
        verifyRefused(info, file, QStringLiteral("FIFO"));
    }

    // The shipped WebFormer product model's files as FIFOs: `extract` names them instead of blocking.
    void webFormerFilesAsFifos_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("vocab.txt") << "vocab.txt";
        QTest::newRow("folio.json") << "folio.json";
        QTest::newRow("config.json") << "config.json";
        QTest::newRow("model.safetensors") << "model.safetensors";
    }

    void webFormerFilesAsFifos()
    {
        QFETCH(QString, file);
        const QString dir = folderLike(QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/product-fields"), file);
        QVERIFY(!dir.isEmpty());
        QVERIFY(plant(QDir(dir).filePath(file), QStringLiteral("fifo")));
        const MeasuredRun r = folio::test::measuredCli(
            m_dir.path(), {QStringLiteral("-q"), QStringLiteral("extract"), QStringLiteral("--checkpoint"), dir, page()}, kDeadlineMs);
        report(qPrintable(QStringLiteral("extract, WebFormer %1 as a FIFO").arg(file)), r);
        QVERIFY2(!r.timedOut, "extract blocked on a FIFO");
        if (file == QLatin1String("folio.json")) {
            // Only a hint (structured candidates): read as absent, the extraction runs.
            QVERIFY2(r.code == 0, r.err.constData());
            return;
        }
        verifyRefused(r, file, QStringLiteral("FIFO"));
    }

    // A 1 GB config.json (sparse: no disk used) is refused from stat, never read.
    void hugeSparseConfig()
    {
        const QString dir = folderLike(model(), QStringLiteral("config.json"));
        QVERIFY(!dir.isEmpty());
        const QString config = QDir(dir).filePath(QStringLiteral("config.json"));
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{");
        f.close();
        QVERIFY(::truncate(bytes(config).constData(), qint64(1) << 30) == 0);
        for (const QStringList &args : {QStringList{QStringLiteral("info"), QStringLiteral("--checkpoint"), dir},
                                        QStringList{QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), dir, page()}}) {
            const MeasuredRun r = folio::test::measuredCli(m_dir.path(), args, kDeadlineMs);
            report(qPrintable(QStringLiteral("%1, 1 GB sparse config.json").arg(args.first() == QLatin1String("info") ? QStringLiteral("info") : QStringLiteral("predict"))), r);
            verifyRefused(r, QStringLiteral("config.json"), QStringLiteral("over its limit"));
            QVERIFY2(r.peakMiB < 256, qPrintable(QStringLiteral("peak %1 MiB for a file refused from stat").arg(r.peakMiB)));
        }
    }

    // pytorch_model.bin (a torch zip; the folder's only weights) as a FIFO or a link to /dev/zero.
    void torchBinNotAFile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("fifo") << "fifo" << "FIFO";
        QTest::newRow("/dev/zero") << "zero" << "character device";
    }

    void torchBinNotAFile()
    {
        QFETCH(QString, kind);
        QFETCH(QString, fragment);
        const QString dir = folderLike(model(), QStringLiteral("model.safetensors"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(plant(QDir(dir).filePath(QStringLiteral("pytorch_model.bin")), kind));
        const MeasuredRun r = folio::test::measuredCli(m_dir.path(), {QStringLiteral("info"), QStringLiteral("--checkpoint"), dir}, kDeadlineMs);
        report(qPrintable(QStringLiteral("info, pytorch_model.bin as %1").arg(kind)), r);
        verifyRefused(r, QStringLiteral("pytorch_model.bin"), fragment);
    }

    // A fairseq checkpoint_best.pt (the folder's only weights, no config.json) as a FIFO.
    void fairseqCheckpointAsFifo()
    {
        const QString dir = m_dir.filePath(QStringLiteral("fairseq"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(plant(QDir(dir).filePath(QStringLiteral("checkpoint_best.pt")), QStringLiteral("fifo")));
        const MeasuredRun r = folio::test::measuredCli(m_dir.path(), {QStringLiteral("info"), QStringLiteral("--checkpoint"), dir}, kDeadlineMs);
        report("info, checkpoint_best.pt as a FIFO", r);
        verifyRefused(r, QStringLiteral("checkpoint_best.pt"), QStringLiteral("FIFO"));
    }

    // An ensemble whose member's config.json is a FIFO.
    void ensembleMemberConfigAsFifo()
    {
        const QString member = folderLike(model(), QStringLiteral("config.json"));
        QVERIFY(!member.isEmpty());
        QVERIFY(plant(QDir(member).filePath(QStringLiteral("config.json")), QStringLiteral("fifo")));
        const QString ensemble = m_dir.filePath(QStringLiteral("ensemble-fifo"));
        QVERIFY(QDir().mkpath(ensemble));
        const QJsonObject config{{QStringLiteral("model_type"), QStringLiteral("folio-formtagger-ensemble")},
                                 {QStringLiteral("members"), QJsonArray{model(), member}}};
        folio::test::writeTestFile(m_dir, QStringLiteral("ensemble-fifo/config.json"), QJsonDocument(config).toJson());
        for (const QStringList &args : {QStringList{QStringLiteral("info"), QStringLiteral("--checkpoint"), ensemble},
                                        QStringList{QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), ensemble, page()}}) {
            const MeasuredRun r = folio::test::measuredCli(m_dir.path(), args, kDeadlineMs);
            report(qPrintable(QStringLiteral("%1, ensemble member config.json as a FIFO").arg(args.contains(QStringLiteral("info")) ? QStringLiteral("info") : QStringLiteral("predict"))), r);
            verifyRefused(r, QStringLiteral("config.json"), QStringLiteral("FIFO"));
        }
    }

    // An ensemble config over 64 KB is an ensemble config: the members rule, or its size.
    void bigEnsembleConfig()
    {
        QJsonArray many;
        for (int i = 0; i < 5000; ++i)
            many.append(QStringLiteral("member-%1").arg(i));
        const QString tooMany = m_dir.filePath(QStringLiteral("ensemble-many"));
        QVERIFY(QDir().mkpath(tooMany));
        const QByteArray manyJson = QJsonDocument(QJsonObject{{QStringLiteral("model_type"), QStringLiteral("folio-formtagger-ensemble")},
                                                              {QStringLiteral("members"), many}}).toJson();
        QVERIFY(manyJson.size() > 64 * 1024);
        folio::test::writeTestFile(m_dir, QStringLiteral("ensemble-many/config.json"), manyJson);
        for (const QString &command : {QStringLiteral("info"), QStringLiteral("predict")}) {
            const QStringList args = command == QLatin1String("info")
                ? QStringList{QStringLiteral("info"), QStringLiteral("--checkpoint"), tooMany}
                : QStringList{QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), tooMany, page()};
            const MeasuredRun r = folio::test::measuredCli(m_dir.path(), args, kDeadlineMs);
            report(qPrintable(command + QStringLiteral(", ensemble config of 5000 members (> 64 KB)")), r);
            verifyRefused(r, QStringLiteral("config.json"), QStringLiteral("2 to 16"));
            QVERIFY2(!r.err.contains("model_type is not") && !r.out.contains("model_type is not"), r.out.constData()); // read as a model config
        }
        // Three real members, padded past 64 KB: refused for its size, as an ensemble.
        const QString padded = m_dir.filePath(QStringLiteral("ensemble-padded"));
        QVERIFY(QDir().mkpath(padded));
        QByteArray paddedJson = QJsonDocument(QJsonObject{{QStringLiteral("model_type"), QStringLiteral("folio-formtagger-ensemble")},
                                                          {QStringLiteral("members"), QJsonArray{model(), model(), model()}}}).toJson();
        paddedJson.insert(1, QByteArray(70 * 1024, ' '));
        folio::test::writeTestFile(m_dir, QStringLiteral("ensemble-padded/config.json"), paddedJson);
        const MeasuredRun r = folio::test::measuredCli(m_dir.path(), {QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), padded, page()}, kDeadlineMs);
        report("predict, 3-member ensemble config padded to 70 KB", r);
        verifyRefused(r, QStringLiteral("config.json"), QStringLiteral("ensemble config"));
    }

    // drafter.json (qs generate's checkpoint) as a FIFO and as a link to /dev/zero.
    void drafterNotAFile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("fifo") << "fifo" << "FIFO";
        QTest::newRow("/dev/zero") << "zero" << "character device";
    }

    void drafterNotAFile()
    {
        QFETCH(QString, kind);
        QFETCH(QString, fragment);
        const QString dir = folderLike(drafter(), QStringLiteral("drafter.json"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(plant(QDir(dir).filePath(QStringLiteral("drafter.json")), kind));
        const MeasuredRun r = folio::test::measuredCli(
            m_dir.path(), {QStringLiteral("-q"), QStringLiteral("qs"), QStringLiteral("generate"), QStringLiteral("--checkpoint"), dir, page()}, kDeadlineMs);
        report(qPrintable(QStringLiteral("qs generate, drafter.json as %1").arg(kind)), r);
        verifyRefused(r, QStringLiteral("drafter.json"), fragment);
        const MeasuredRun info = folio::test::measuredCli(m_dir.path(), {QStringLiteral("info"), QStringLiteral("--checkpoint"), dir}, kDeadlineMs);
        report(qPrintable(QStringLiteral("info, drafter.json as %1").arg(kind)), info);
        verifyRefused(info, QStringLiteral("drafter.json"), fragment);
    }

    // qs generate FOLDER: a page inside is read; Report.html -> /etc/passwd, a link to the folder
    // /etc and a link loop are not (each a failing line naming it), and nothing of /etc/passwd is
    // printed. The exit code says that not every input ran.
    void folderBatchStaysInTheFolder()
    {
        const QString folder = m_dir.filePath(QStringLiteral("reports"));
        QVERIFY(QDir().mkpath(folder + QStringLiteral("/sub")));
        folio::test::writeTestFile(m_dir, QStringLiteral("reports/sub/Quarter.html"),
                                   "<html><body><h1>Quarterly report</h1><h2>Sales</h2><p>Sales grew in the north. The south held.</p>"
                                   "<h2>Costs</h2><p>Costs fell by a tenth.</p></body></html>");
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), folder + QStringLiteral("/Report.html")));
        QVERIFY(QFile::link(QStringLiteral("/etc"), folder + QStringLiteral("/etc")));
        QVERIFY(QFile::link(folder + QStringLiteral("/sub"), folder + QStringLiteral("/inside"))); // a link inside: fine, no loop
        QVERIFY(plant(folder + QStringLiteral("/loop.html"), QStringLiteral("loop")));
        QVERIFY(plant(folder + QStringLiteral("/pipe.html"), QStringLiteral("fifo")));
        QVERIFY(QFile::link(QStringLiteral("sub/Quarter.html"), folder + QStringLiteral("/Same.html"))); // inside: read
        const MeasuredRun r = folio::test::measuredCli(m_dir.path(), {QStringLiteral("qs"), QStringLiteral("generate"), folder}, kDeadlineMs);
        report("qs generate FOLDER with Report.html -> /etc/passwd", r);
        QVERIFY2(!r.timedOut, r.err.constData());
        QVERIFY2(r.code == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(QString::fromUtf8(r.err))));
        QVERIFY2(!r.out.contains("root:") && !r.err.contains("root:"), r.out.constData()); // /etc/passwd's first line
        QVERIFY(!r.out.contains("/bin/") && !r.out.contains("nologin"));
        QMap<QString, QJsonObject> lines;
        for (const QByteArray &line : r.out.split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (!o.isEmpty())
                lines.insert(QFileInfo(o.value(QStringLiteral("input")).toString()).fileName(), o);
        }
        QVERIFY2(lines.value(QStringLiteral("Quarter.html")).value(QStringLiteral("ok")).toBool(), r.out.constData());
        QVERIFY2(lines.value(QStringLiteral("Same.html")).value(QStringLiteral("ok")).toBool(), r.out.constData());
        for (const QString &refused : {QStringLiteral("Report.html"), QStringLiteral("etc"), QStringLiteral("loop.html"), QStringLiteral("pipe.html")}) {
            const QJsonObject o = lines.value(refused);
            QVERIFY2(!o.isEmpty(), qPrintable(refused + QStringLiteral(" has no line: ") + QString::fromUtf8(r.out)));
            QCOMPARE(o.value(QStringLiteral("ok")).toBool(true), false);
            QVERIFY2(o.value(QStringLiteral("error")).toString().contains(refused), qPrintable(o.value(QStringLiteral("error")).toString()));
        }
        QVERIFY(lines.value(QStringLiteral("Report.html")).value(QStringLiteral("error")).toString().contains(QStringLiteral("outside the folder")));
        QVERIFY(lines.value(QStringLiteral("etc")).value(QStringLiteral("error")).toString().contains(QStringLiteral("outside the folder")));
        QVERIFY(lines.value(QStringLiteral("pipe.html")).value(QStringLiteral("error")).toString().contains(QStringLiteral("FIFO")));
        QCOMPARE(lines.size(), 6); // Quarter (once: inside/ is not searched again), Same, and the four refused
    }

    // A document or a project file that is a FIFO or a link to /dev/zero, given by name.
    void namedFilesThatAreNotFiles_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("fifo") << "fifo" << "FIFO";
        QTest::newRow("/dev/zero") << "zero" << "character device";
    }

    void namedFilesThatAreNotFiles()
    {
        QFETCH(QString, kind);
        QFETCH(QString, fragment);
        const QString document = m_dir.filePath(QStringLiteral("%1-page.html").arg(kind));
        QVERIFY(plant(document, kind));
        const MeasuredRun qs = folio::test::measuredCli(m_dir.path(), {QStringLiteral("-q"), QStringLiteral("qs"), QStringLiteral("generate"), document}, kDeadlineMs);
        report(qPrintable(QStringLiteral("qs generate, the page as %1").arg(kind)), qs);
        verifyRefused(qs, QFileInfo(document).fileName(), fragment);
        const QString project = m_dir.filePath(QStringLiteral("%1.folio").arg(kind));
        QVERIFY(plant(project, kind));
        const MeasuredRun list = folio::test::measuredCli(m_dir.path(), {QStringLiteral("project"), QStringLiteral("list"), project}, kDeadlineMs);
        report(qPrintable(QStringLiteral("project list, the project as %1").arg(kind)), list);
        verifyRefused(list, QFileInfo(project).fileName(), fragment);
    }

    // Dataset files given to import as FIFOs (FUNSD JSON, JSON Lines, Label Studio): named, the
    // project unchanged.
    void importedFilesAsFifos_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("name");
        QTest::newRow("funsd") << "funsd" << "0001.json";
        QTest::newRow("hfjsonl") << "hfjsonl" << "train.jsonl";
        QTest::newRow("labelstudio") << "labelstudio" << "export.json";
        QTest::newRow("conll") << "conll" << "train.txt";
    }

    void importedFilesAsFifos()
    {
        QFETCH(QString, format);
        QFETCH(QString, name);
        const QString folder = m_dir.filePath(QStringLiteral("import-") + format);
        QVERIFY(QDir().mkpath(folder));
        const QString file = folder + QLatin1Char('/') + name;
        QVERIFY(plant(file, QStringLiteral("fifo")));
        const MeasuredRun r = folio::test::measuredCli(m_dir.path(), {QStringLiteral("import"), QStringLiteral("--format"), format, file,
                                                                      QStringLiteral("--project"), folder + QStringLiteral("/p.folio")}, kDeadlineMs);
        report(qPrintable(QStringLiteral("import --format %1, the file as a FIFO").arg(format)), r);
        verifyRefused(r, name, QStringLiteral("FIFO"));
    }

    // A folder name that is not UTF-8: info describes it, predict runs it (the same folder).
    void checkpointFolderNotUtf8()
    {
        const QByteArray name = bytes(m_dir.path()) + "/forms-\xff\xfe";
        QVERIFY(::mkdir(name.constData(), 0700) == 0);
        m_rawFolder = name;
        const QDir source(model());
        for (const QString &f : source.entryList(QDir::Files))
            QVERIFY(::symlink(bytes(source.filePath(f)).constData(), (name + '/' + bytes(f)).constData()) == 0);
        const MeasuredRun info = folio::test::measuredCliBytes(m_dir.path(), {"info", "--checkpoint", name}, kDeadlineMs);
        report("info, checkpoint folder named with invalid UTF-8", info);
        QVERIFY2(info.code == 0, info.err.constData());
        const MeasuredRun predict = folio::test::measuredCliBytes(m_dir.path(), {"-q", "predict", "--checkpoint", name, bytes(page())}, kDeadlineMs);
        report("predict, checkpoint folder named with invalid UTF-8", predict);
        QVERIFY2(predict.code == 0, predict.err.constData());
        QVERIFY(!predict.err.contains("does not exist"));
        QVERIFY(predict.out.contains("\"entities\""));
        // And a name that is not UTF-8 and does not exist: both say so.
        const QByteArray missing = bytes(m_dir.path()) + "/none-\xff";
        const MeasuredRun none = folio::test::measuredCliBytes(m_dir.path(), {"-q", "predict", "--checkpoint", missing, bytes(page())}, kDeadlineMs);
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains("none-"), none.err.constData());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliHostile3)
#include "tst_clihostile3.moc"
