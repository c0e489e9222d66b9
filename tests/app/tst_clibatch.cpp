// folio-cli batch runs (app/cli/batch.h) on the bundled sample form: folders, lists, one JSON line
// per input, a failing input as a line, --jobs 2 giving the lines of --jobs 1, a manifest that
// resumes a run killed with SIGKILL with every input exactly once, and the manifest's refusals.
#include "clirunner.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <sys/stat.h>

static const QString kModel = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout");
static const QString kQsModel = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/qmsum-qs");
static const QString kForm = QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png");

class TestCliBatch : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    void write(const QString &name, const QByteArray &bytes)
    {
        QDir().mkpath(QFileInfo(path(name)).absolutePath());
        QFile f(path(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(bytes), bytes.size());
    }

    static folio::test::CliRun cli(const QStringList &args) { return folio::test::runCli(QStringList{QStringLiteral("-q")} + args); }

    // The lines of a batch output, keyed by input; fails on a malformed line or an input twice.
    static QMap<QString, QJsonObject> lines(const QString &file)
    {
        QMap<QString, QJsonObject> out;
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return out;
        for (const QByteArray &line : f.readAll().split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            const QString input = o.value(QStringLiteral("input")).toString();
            if (input.isEmpty() || out.contains(input)) {
                out.insert(QStringLiteral("!malformed or repeated: ") + QString::fromUtf8(line.left(80)), o);
                continue;
            }
            out.insert(input, o);
        }
        return out;
    }

    // label + words of every entity of a predict result, for comparing runs.
    static QStringList entitySignature(const QJsonObject &line)
    {
        QStringList sig;
        for (const QJsonValue &v : line.value(QStringLiteral("result")).toObject().value(QStringLiteral("entities")).toArray()) {
            const QJsonObject e = v.toObject();
            QStringList words;
            for (const QJsonValue &w : e.value(QStringLiteral("words")).toArray())
                words << w.toString();
            sig << e.value(QStringLiteral("label")).toString() + QLatin1Char(':') + words.join(QLatin1Char(','));
        }
        return sig;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QFile form(kForm);
        QVERIFY(form.open(QIODevice::ReadOnly));
        const QByteArray png = form.readAll();
        for (const char *name : {"scans/a.png", "scans/b.png", "scans/sub/c.png"})
            write(QString::fromLatin1(name), png);
        write(QStringLiteral("scans/notes.txt"), "not an input: the folder search skips it");
        write(QStringLiteral("scans/z-broken.png"), "broken");
    }

    // ocr over a folder with two workers: one line per image (subfolders too), the broken one a
    // line with its error, exit 1; the Document JSON of the others kept for the predict cases.
    void ocrFolderWithTwoWorkers()
    {
        const folio::test::CliRun r = cli({QStringLiteral("ocr"), path(QStringLiteral("scans")), QStringLiteral("--out"),
                                           path(QStringLiteral("ocr.jsonl")), QStringLiteral("--jobs"), QStringLiteral("2")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("1 input(s) failed"), r.err.constData());
        const QMap<QString, QJsonObject> got = lines(path(QStringLiteral("ocr.jsonl")));
        QCOMPARE(got.size(), 4);
        const QJsonObject broken = got.value(path(QStringLiteral("scans/z-broken.png")));
        QCOMPARE(broken.value(QStringLiteral("ok")).toBool(true), false);
        QCOMPARE(broken.value(QStringLiteral("exit")).toInt(), 1);
        QVERIFY(broken.value(QStringLiteral("error")).toString().contains(QStringLiteral("z-broken.png")));
        int i = 0;
        for (const char *name : {"scans/a.png", "scans/b.png", "scans/sub/c.png"}) {
            const QJsonObject line = got.value(path(QString::fromLatin1(name)));
            QVERIFY2(line.value(QStringLiteral("ok")).toBool(), name);
            const QJsonObject doc = line.value(QStringLiteral("result")).toObject();
            QVERIFY(doc.value(QStringLiteral("words")).toArray().size() > 50);
            for (int copy = 0; copy < 2; ++copy)
                write(QStringLiteral("docs/d%1.json").arg(i++), QJsonDocument(doc).toJson(QJsonDocument::Compact));
        }
    }

    // --jobs 2 gives the same labelled entities as the in-process run, every input once.
    void predictJobsAgree()
    {
        const QString docs = path(QStringLiteral("docs"));
        const QString one = path(QStringLiteral("p1.jsonl")), two = path(QStringLiteral("p2.jsonl"));
        QCOMPARE(cli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel, docs, QStringLiteral("--out"), one}).code, 0);
        QCOMPARE(cli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel, docs, QStringLiteral("--out"), two,
                      QStringLiteral("-j"), QStringLiteral("2")})
                     .code,
                 0);
        const QMap<QString, QJsonObject> a = lines(one), b = lines(two);
        QCOMPARE(a.size(), 6);
        QCOMPARE(a.keys(), b.keys());
        for (const QString &input : a.keys()) {
            QVERIFY(a[input].value(QStringLiteral("ok")).toBool());
            QVERIFY(!entitySignature(a[input]).isEmpty());
            QCOMPARE(entitySignature(a[input]), entitySignature(b[input]));
        }
    }

    // A list file: comments and blank lines skipped; the same file by a relative-looking and an
    // absolute path is one input; a missing file is a failed line.
    void listFile()
    {
        const QString list = QStringLiteral("# inputs\n%1\n\n%2/../docs/d0.json\n%3\n")
                                 .arg(path(QStringLiteral("docs/d0.json")), path(QStringLiteral("docs")), path(QStringLiteral("missing.json")));
        write(QStringLiteral("list.txt"), list.toUtf8());
        const folio::test::CliRun r = cli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel,
                                           QLatin1Char('@') + path(QStringLiteral("list.txt"))});
        QCOMPARE(r.code, 1);
        const QList<QByteArray> out = r.out.trimmed().split('\n');
        QCOMPARE(out.size(), 2);
        QVERIFY(QJsonDocument::fromJson(out[0]).object().value(QStringLiteral("ok")).toBool());
        QVERIFY(!QJsonDocument::fromJson(out[1]).object().value(QStringLiteral("ok")).toBool(true));
    }

    // A list that is not a regular file is refused for what it is, without reading it (a FIFO
    // would block, /dev/zero never ends): issue 36.
    void listThatIsNotAFile()
    {
        const QString fifo = path(QStringLiteral("inputs.fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const struct
        {
            QString list;
            const char *expected;
        } cases[] = {{fifo, "is a FIFO (named pipe), not a regular file"},
                     {QStringLiteral("/dev/zero"), "is a character device, not a regular file"},
                     {path(QStringLiteral("docs")), "is a folder, not a regular file"},
                     {path(QStringLiteral("no-such.list")), "no such list of inputs"}};
        for (const auto &c : cases) {
            const folio::test::CliRun r = cli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel, QLatin1Char('@') + c.list});
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.contains(c.expected) && r.err.contains(QFile::encodeName(c.list)), r.err.constData());
        }
        const folio::test::CliRun r = cli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel, QStringLiteral("--files-from"), fifo});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("a FIFO"), r.err.constData());
    }

    // A run killed after its out file got a line the manifest does not name yet (the moment
    // between the two writes): the rerun cuts that line and finishes with each input once.
    void manifestResumesAfterCut()
    {
        const QString out = path(QStringLiteral("m.jsonl")), manifest = path(QStringLiteral("m.manifest"));
        const QStringList args{QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel, path(QStringLiteral("docs")),
                               QStringLiteral("--out"), out, QStringLiteral("--manifest"), manifest};
        QCOMPARE(cli(args).code, 0);
        QFile m(manifest);
        QVERIFY(m.open(QIODevice::ReadOnly));
        const QList<QByteArray> entries = m.readAll().split('\n');
        m.close();
        QCOMPARE(entries.size(), 8); // header, 6 inputs, the empty rest after the last newline
        // Keep the header and two inputs, plus half a line as a kill leaves it.
        write(QStringLiteral("m.manifest"), entries[0] + '\n' + entries[1] + '\n' + entries[2] + '\n' + entries[3].left(10));
        const folio::test::CliRun again = cli(args);
        QCOMPARE(again.code, 0);
        const QMap<QString, QJsonObject> got = lines(out);
        QCOMPARE(got.size(), 6);
        for (const QJsonObject &o : got)
            QVERIFY(o.value(QStringLiteral("ok")).toBool());
        QFile after(manifest);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll().count('\n'), 7);
    }

    // SIGKILL in the middle of an OCR batch, then the same command: every input exactly once.
    void manifestResumesAfterKill()
    {
        for (int i = 0; i < 6; ++i)
            QVERIFY(QFile::copy(kForm, path(QStringLiteral("kill/s%1.png").arg(i))) || (QDir().mkpath(path(QStringLiteral("kill"))) &&
                                                                                      QFile::copy(kForm, path(QStringLiteral("kill/s%1.png").arg(i)))));
        const QString out = path(QStringLiteral("k.jsonl")), manifest = path(QStringLiteral("k.manifest"));
        const QStringList args{QStringLiteral("-q"), QStringLiteral("ocr"), path(QStringLiteral("kill")), QStringLiteral("--out"), out,
                               QStringLiteral("--manifest"), manifest};
        QProcess p;
        p.setProcessEnvironment(folio::test::cliEnvironment());
        p.start(QStringLiteral(FOLIO_CLI_PATH), args);
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(lines(out).size() >= 2, 120000);
        p.kill(); // SIGKILL: no chance to tidy up
        p.waitForFinished();
        const int before = lines(out).size();
        QVERIFY2(before < 6, "the run finished before it could be killed");
        const folio::test::CliRun again = folio::test::runCli(args);
        QCOMPARE(again.code, 0);
        const QMap<QString, QJsonObject> got = lines(out);
        QCOMPARE(got.size(), 6);
        for (const QJsonObject &o : got)
            QVERIFY(o.value(QStringLiteral("ok")).toBool());
    }

    void manifestRefusals()
    {
        // A manifest needs an out file to resume into.
        folio::test::CliRun r = cli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel, path(QStringLiteral("docs")),
                                     QStringLiteral("--manifest"), path(QStringLiteral("lonely.manifest"))});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--manifest needs --out"));
        // The manifest of another command (or out file) is not resumed.
        r = cli({QStringLiteral("ocr"), path(QStringLiteral("scans")), QStringLiteral("--out"), path(QStringLiteral("m.jsonl")),
                 QStringLiteral("--manifest"), path(QStringLiteral("m.manifest"))});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("the manifest of another run"), r.err.constData());
        // Not a manifest at all.
        write(QStringLiteral("junk.manifest"), "{\"hello\": 1}\n");
        r = cli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel, path(QStringLiteral("docs")), QStringLiteral("--out"),
                 path(QStringLiteral("j.jsonl")), QStringLiteral("--manifest"), path(QStringLiteral("junk.manifest"))});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("not a folio-cli batch manifest"));
        // An empty folder is nothing to run.
        QDir().mkpath(path(QStringLiteral("empty")));
        r = cli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel, path(QStringLiteral("empty"))});
        QCOMPARE(r.code, 2);
    }

    // An --out that is the manifest (by the same name, or through a link) is refused before either
    // is written: the two kinds of line would be interleaved in one file (issue 36).
    void outIsTheManifest()
    {
        const QString same = path(QStringLiteral("same.jsonl"));
        folio::test::CliRun r = cli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel, path(QStringLiteral("docs")),
                                     QStringLiteral("--jobs"), QStringLiteral("2"), QStringLiteral("--manifest"), same,
                                     QStringLiteral("--out"), same});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("is the --manifest"), r.err.constData());
        QVERIFY(!QFile::exists(same));
        // The same file by another spelling and through a symbolic link.
        write(QStringLiteral("real.manifest"), QByteArray());
        QVERIFY(QFile::link(path(QStringLiteral("real.manifest")), path(QStringLiteral("link.jsonl"))));
        for (const QString &out : {path(QStringLiteral("docs/../real.manifest")), path(QStringLiteral("link.jsonl"))}) {
            r = cli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel, path(QStringLiteral("docs")), QStringLiteral("--out"),
                     out, QStringLiteral("--manifest"), path(QStringLiteral("real.manifest"))});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("is the --manifest"), r.err.constData());
        }
        QCOMPARE(QFileInfo(path(QStringLiteral("real.manifest"))).size(), 0);
    }

    // A manifest records its input set: a run on set B given the manifest and --out of a run on
    // set A is refused (naming the manifest), nothing appended; set A again, in another order, resumes.
    void manifestOfAnotherInputSet()
    {
        const QString out = path(QStringLiteral("set.jsonl")), manifest = path(QStringLiteral("set.manifest"));
        const auto run = [&](const QStringList &inputs) {
            return cli(QStringList{QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel} + inputs +
                       QStringList{QStringLiteral("--out"), out, QStringLiteral("--manifest"), manifest});
        };
        const QString d0 = path(QStringLiteral("docs/d0.json")), d1 = path(QStringLiteral("docs/d1.json"));
        QCOMPARE(run({d0, d1}).code, 0);
        const QByteArray outBefore = [&] { QFile f(out); return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray(); }();
        QCOMPARE(lines(out).size(), 2);
        const folio::test::CliRun other = run({path(QStringLiteral("docs/d2.json")), path(QStringLiteral("docs/d3.json"))});
        QCOMPARE(other.code, 1);
        QVERIFY2(other.err.contains("another set of inputs"), other.err.constData());
        QVERIFY2(other.err.contains(manifest.toUtf8()), other.err.constData());
        // A superset is another set too.
        QCOMPARE(run({d0, d1, path(QStringLiteral("docs/d2.json"))}).code, 1);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), outBefore);
        f.close();
        const folio::test::CliRun again = run({d1, d0});
        QCOMPARE(again.code, 0);
        QCOMPARE(lines(out).size(), 2);
    }

    // --project: ocr adds each scan once; predict suggests on the project's copies, and a second
    // run replaces its suggestions instead of adding more.
    void projectResults()
    {
        const QString project = path(QStringLiteral("batch.folio"));
        QCOMPARE(cli({QStringLiteral("project"), QStringLiteral("create"), project}).code, 0);
        const QString scans = path(QStringLiteral("scans"));
        QCOMPARE(cli({QStringLiteral("ocr"), scans, QStringLiteral("--project"), project, QStringLiteral("--out"),
                      path(QStringLiteral("po.jsonl")), QStringLiteral("-j"), QStringLiteral("2")})
                     .code,
                 1); // the broken scan
        QMap<QString, int> ids;
        for (const QJsonObject &o : lines(path(QStringLiteral("po.jsonl"))))
            if (o.value(QStringLiteral("ok")).toBool())
                ids.insert(o.value(QStringLiteral("input")).toString(),
                           o.value(QStringLiteral("result")).toObject().value(QStringLiteral("project_document")).toInt(-1));
        QCOMPARE(ids.size(), 3);
        const auto suggestionsPerDocument = [&] {
            QMap<int, int> out;
            const folio::test::CliRun list = cli({QStringLiteral("project"), QStringLiteral("list"), project});
            for (const QJsonValue &v : QJsonDocument::fromJson(list.out).array())
                out.insert(v.toObject().value(QStringLiteral("id")).toInt(), v.toObject().value(QStringLiteral("suggestions")).toInt());
            return out;
        };
        QCOMPARE(suggestionsPerDocument().size(), 3);
        for (int run = 0; run < 2; ++run) {
            QCOMPARE(cli({QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel, scans, QStringLiteral("--project"), project,
                          QStringLiteral("--out"), path(QStringLiteral("pp.jsonl"))})
                         .code,
                     1);
            for (const QJsonObject &o : lines(path(QStringLiteral("pp.jsonl"))))
                if (o.value(QStringLiteral("ok")).toBool())
                    QCOMPARE(o.value(QStringLiteral("result")).toObject().value(QStringLiteral("project_document")).toInt(-2),
                             ids.value(o.value(QStringLiteral("input")).toString(), -3));
            const QMap<int, int> counts = suggestionsPerDocument();
            QCOMPARE(counts.size(), 3);
            for (int n : counts)
                QVERIFY(n > 10);
            static QMap<int, int> firstRun;
            if (run == 0)
                firstRun = counts;
            else
                QCOMPARE(counts, firstRun);
        }
    }

    // qs generate over two documents: a line each, with its hierarchy.
    void qsGenerateBatch()
    {
        const folio::test::CliRun r = cli({QStringLiteral("qs"), QStringLiteral("generate"), QStringLiteral("--checkpoint"), kQsModel,
                                           path(QStringLiteral("docs/d0.json")), path(QStringLiteral("docs/d1.json")),
                                           QStringLiteral("--max-length"), QStringLiteral("12"), QStringLiteral("--beams"),
                                           QStringLiteral("1")});
        QCOMPARE(r.code, 0);
        const QList<QByteArray> out = r.out.trimmed().split('\n');
        QCOMPARE(out.size(), 2);
        for (const QByteArray &line : out) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            QVERIFY(o.value(QStringLiteral("ok")).toBool());
            QVERIFY(o.value(QStringLiteral("result")).toObject().contains(QStringLiteral("linearised")));
        }
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliBatch)
#include "tst_clibatch.moc"
