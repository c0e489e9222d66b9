// The bad-input catalogue of dataset imports (issue 18): per entry (format, file content) the
// expected message fragment, that the message names the file, and that the project is unchanged
// (a checksum of every row of every table before and after). Then what the catalogue rows cannot
// say alone: imports are one transaction, one file is one document whatever its spelling, a
// project's own Label Studio export re-imports as updates, a project on read-only media lists
// and exports, and what is imported at the limits exports again. On SQLite and, with
// FOLIO_PROJECT_BACKEND=postgres (tst_badinput_import_postgres), on a PostgreSQL server.
#include "document/formats/datasetformat.h"
#include "document/formats/datasetlimits.h"
#include "document/formats/funsd.h"
#include "document/project/project.h"
#include "document/project/projectio.h"
#include "projectbackend.h"
#include "projecttestdata.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QScopeGuard>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace folio;

namespace {

// SHA-256 over every row of every table, tables by name, rows in rowid order.
QByteArray projectChecksum(const QString &path)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("checksum"));
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (!db.open())
            return QByteArray("cannot open");
        QSqlQuery tables(db);
        tables.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"));
        QStringList names;
        while (tables.next())
            names << tables.value(0).toString();
        for (const QString &t : names) {
            QSqlQuery rows(db);
            rows.exec(QStringLiteral("SELECT * FROM \"%1\" ORDER BY rowid").arg(t));
            hash.addData(t.toUtf8());
            while (rows.next())
                for (int c = 0; c < rows.record().count(); ++c)
                    hash.addData(rows.value(c).toString().toUtf8() + '\x1f');
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("checksum"));
    return hash.result().toHex();
}

int pageCount(const QString &path)
{
    int pages = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("pages"));
        db.setDatabaseName(path);
        QSqlQuery q(db);
        if (db.open() && q.exec(QStringLiteral("PRAGMA page_count")) && q.next())
            pages = q.value(0).toInt();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("pages"));
    return pages;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// What `folio-cli import` does: parse the file completely, then import the items.
bool importInto(Project &project, const QString &format, const QString &path, ImportReport *report, QString *error)
{
    std::vector<DatasetItem> items;
    if (format == QLatin1String("funsd")) {
        DatasetItem item;
        if (!importFunsdFile(path, FunsdWordOrder::Annotation, &item.document, &item.annotations, error))
            return false;
        item.name = QFileInfo(path).completeBaseName();
        items.push_back(std::move(item));
    } else if (!createDatasetFormat(format)->importFile(path, &items, error)) {
        return false;
    }
    // As folio-cli import does: evidence against the project's documents per file, so the message names it.
    if (!checkItemEvidence(project, items, path, error))
        return false;
    return importItemsIntoProject(project, items, report, error);
}

QByteArray funsdPage(const QString &box)
{
    return QStringLiteral("{\"form\": [{\"id\": 0, \"label\": \"question\", \"text\": \"Date\", \"box\": %1, "
                          "\"words\": [{\"text\": \"Date\", \"box\": %1}], \"linking\": []}]}")
        .arg(box)
        .toUtf8();
}

QByteArray nestedQsJson(int depth)
{
    QByteArray node = "{\"question\": \"q?\", \"summary\": \"s\", \"children\": []}";
    for (int i = 1; i < depth; ++i)
        node = "{\"question\": \"q?\", \"summary\": \"s\", \"children\": [" + node + "]}";
    return "{\"id\": \"deep\", \"summary\": \"root\", \"hierarchy\": [" + node + "]}\n";
}

QByteArray linearisedQs(int depth)
{
    QByteArray s = "root [L-] q0? s0";
    for (int i = 1; i < depth; ++i)
        s += QByteArray(" [L\xE2\x86\x93] q") + QByteArray::number(i) + "? s";
    return "{\"id\": \"deep\", \"linearised\": \"" + s + "\"}\n";
}

QByteArray labelStudioTask(const QString &page, const QString &box)
{
    return QStringLiteral("[{\"id\": 1, \"data\": {\"folio_name\": \"t1\", \"folio_page\": %1, \"folio_words\": "
                          "[{\"id\": \"w0\", \"text\": \"Total\", \"box\": %2}]}}]")
        .arg(page, box)
        .toUtf8();
}

} // namespace

class TestBadInputImport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    test::ProjectBackend backend;
    int m_failedChecksums = 0;

    QByteArray projectChecksum(const QString &location)
    {
        if (!backend.isPostgres())
            return ::projectChecksum(location);
        const QByteArray sum = backend.postgresChecksum(location);
        // A checksum that could not be taken never equals another one.
        return sum.isEmpty() ? QByteArray::number(++m_failedChecksums) + "-no-checksum" : sum;
    }

    // A project with two documents and annotations; its path.
    QString seedProject(const QString &name)
    {
        const QString path = backend.isPostgres() ? backend.newLocation(name.section(QLatin1Char('.'), 0, 0).remove(QLatin1Char('-')))
                                                  : m_dir.filePath(name);
        QFile::remove(path);
        QString error;
        auto p = Project::create(path, &error);
        if (!p)
            return QString();
        for (const char *source : {"a.png", "b.png"}) {
            const Document doc = test::makeDocument(QString::fromLatin1(source), 24);
            if (p->addDocument(doc, test::makeAnnotations(doc, 4), &error) < 0)
                return QString();
        }
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        FOLIO_INIT_PROJECT_BACKEND(backend);
    }

    void catalogue_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");

        const auto row = [](const char *name, const char *format, const char *file, const QByteArray &content,
                            const char *expected) {
            QTest::newRow(name) << QString::fromLatin1(format) << QString::fromLatin1(file) << content
                                << QString::fromUtf8(expected);
        };
        row("qs tree 300 levels", "qs", "deep.qs.jsonl", nestedQsJson(300), "deeper than 64 levels");
        row("qs linearised 300 levels", "qs", "lin300.qs.jsonl", linearisedQs(300), "deeper than 64 levels");
        row("qs linearised 30000 levels", "qs", "lin30000.qs.jsonl", linearisedQs(30000), "deeper than 64 levels");
        // Question-summary evidence that names nothing, or words the document does not have (issue 36);
        // a.png is a seeded document with words w0..w23.
        const auto qsRecord = [](const char *id, const char *evidence, const char *spans) {
            return QByteArray("{\"id\":\"") + id + "\",\"summary\":\"R\",\"hierarchy\":[{\"question\":\"Q?\",\"summary\":\"S\","
                   "\"evidence\":[],\"children\":[{\"question\":\"Q2?\",\"summary\":\"S2\",\"evidence\":" + evidence +
                   ",\"children\":[],\"spans\":" + spans + "}]}]}\n";
        };
        row("qs evidence empty", "qs", "ev1.qs.jsonl", qsRecord("a.png", "[\"Intro\", \"\"]", "[]"),
            "ev1.qs.jsonl:1: qs.nodes[0].children[0].evidence[1]: \"\" names no section");
        row("qs evidence key without a name", "qs", "ev2.qs.jsonl", qsRecord("a.png", "[\"node: \"]", "[]"),
            "qs.nodes[0].children[0].evidence[0]: \"node: \" names no section");
        row("qs span naming no word", "qs", "sp0.qs.jsonl", qsRecord("a.png", "[]", "[{\"first\":\" \",\"last\":\"w2\",\"text\":\"x\"}]"),
            "qs.nodes[0].children[0].spans[0]: a span that names no word");
        row("qs span word not in the document", "qs", "sp1.qs.jsonl",
            qsRecord("a.png", "[]", "[{\"first\":\"w3\",\"last\":\"w999\",\"text\":\"x\"}]"),
            "record \"a.png\": qs.nodes[0].children[0].spans[0]: names the word \"w999\", which the document does not have (24 words)");
        row("qs span reversed", "qs", "sp2.qs.jsonl", qsRecord("a.png", "[]", "[{\"first\":\"w9\",\"last\":\"w2\",\"text\":\"x\"}]"),
            "record \"a.png\": qs.nodes[0].children[0].spans[0]: a reversed span: its last word \"w2\" comes before its first \"w9\"");
        row("qs span into a document without words", "qs", "sp3.qs.jsonl",
            qsRecord("fresh-record", "[]", "[{\"first\":\"w1\",\"last\":\"w1\",\"text\":\"x\"}]"),
            "which the document does not have (0 words); import the document with its words first");
        row("labelstudio negative page", "labelstudio", "neg.json", labelStudioTask("[-1, 1e12]", "[1, 2, 3, 4]"),
            "$[0].data.folio_page[0]: page size -1 x 1e+12 is outside 1..1000000");
        row("labelstudio huge page", "labelstudio", "huge.json", labelStudioTask("[1000, 1e12]", "[1, 2, 3, 4]"),
            "$[0].data.folio_page[1]: page size 1000 x 1e+12 is outside 1..1000000");
        row("labelstudio word box 1e300", "labelstudio", "box.json", labelStudioTask("[1000, 1000]", "[0, 0, 1e300, 5]"),
            "$[0]: words[0].box: x1 1e+300 is outside -1000000..1000000");
        row("labelstudio inverted box", "labelstudio", "inv.json", labelStudioTask("[1000, 1000]", "[50, 0, 10, 5]"),
            "$[0]: words[0].box: inverted box");
        row("funsd box 1e300", "funsd", "p1.json", funsdPage("[0, 0, 1e300, 10]"),
            "form[0]: \"box\" coordinate 1e+300 is outside -1000000..1000000");
        row("funsd inverted word box", "funsd", "p2.json",
            QByteArray("{\"form\": [{\"id\": 0, \"label\": \"other\", \"box\": [0, 0, 90, 30], \"words\": "
                       "[{\"text\": \"x\", \"box\": [90, 10, 20, 30]}], \"linking\": []}]}"),
            "form[0].words[0]: \"box\" [90, 10, 20, 30] is inverted");
        row("hfjsonl box outside 0..1000", "hfjsonl", "b.jsonl",
            "{\"tokens\": [\"a\"], \"bboxes\": [[0, 0, 2000, 5]], \"ner_tags\": [\"O\"]}\n",
            "b.jsonl:1: $.bboxes[0][2]: 2000 is outside 0..1000");
        row("hfjsonl bad third line", "hfjsonl", "third.jsonl",
            "{\"tokens\": [], \"bboxes\": [], \"ner_tags\": []}\n\n{\"tokens\": 1}\n",
            "third.jsonl:3: $.tokens: expected an array");
        row("conll word over the string cap", "conll", "long.conll",
            QByteArray(DatasetLimits::maxStringChars + 1, 'x') + " O\n", "words[0].text: 1048577 characters");
    }

    void catalogue()
    {
        QFETCH(QString, format);
        QFETCH(QString, fileName);
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        const QString projectPath = seedProject(QStringLiteral("catalogue.folio"));
        QVERIFY(!projectPath.isEmpty());
        const QByteArray before = projectChecksum(projectPath);
        const QString path = m_dir.filePath(fileName);
        QVERIFY(writeFile(path, content));
        if (format == QLatin1String("funsd"))
            QVERIFY(QImage(100, 100, QImage::Format_RGB32).save(m_dir.filePath(QFileInfo(fileName).completeBaseName() + ".png")));
        QString error;
        {
            auto project = Project::open(projectPath, &error);
            QVERIFY2(project, qPrintable(error));
            QVERIFY2(!importInto(*project, format, path, nullptr, &error), "the import should fail");
        }
        QVERIFY2(error.contains(expected), qPrintable(error.left(400)));
        QVERIFY2(error.contains(fileName), qPrintable(error.left(400)));
        QCOMPARE(projectChecksum(projectPath), before);
    }

    // importItemsIntoProject checks the evidence itself too (the GUI's import calls it alone), and a
    // span marked evidenceMissing (its words known to be gone) is kept as it is.
    void qsEvidenceCheckedByTheImportItself()
    {
        const QString projectPath = seedProject(QStringLiteral("evidence.folio"));
        QVERIFY(!projectPath.isEmpty());
        const QByteArray before = projectChecksum(projectPath);
        const QString path = m_dir.filePath(QStringLiteral("rev.qs.jsonl"));
        const QByteArray reversed = "{\"id\":\"b.png\",\"summary\":\"R\",\"hierarchy\":[{\"question\":\"Q?\",\"summary\":\"S\","
                                    "\"evidence\":[],\"children\":[],\"spans\":[{\"first\":\"w5\",\"last\":\"w1\",\"text\":\"x\"}]}]}\n";
        QVERIFY(writeFile(path, reversed));
        std::vector<DatasetItem> items;
        QString error;
        QVERIFY2(createDatasetFormat(QStringLiteral("qs"))->importFile(path, &items, &error), qPrintable(error));
        {
            auto project = Project::open(projectPath, &error);
            QVERIFY2(project, qPrintable(error));
            QVERIFY(!importItemsIntoProject(*project, items, nullptr, &error));
            QVERIFY2(error.contains(QLatin1String("import: record \"b.png\": qs.nodes[0].spans[0]: a reversed span")), qPrintable(error));
        }
        QCOMPARE(projectChecksum(projectPath), before);
        QByteArray flagged = reversed;
        flagged.replace("\"spans\"", "\"evidenceMissing\":true,\"spans\"");
        QVERIFY(writeFile(path, flagged));
        ImportReport report;
        auto project = Project::open(projectPath, &error);
        QVERIFY2(project, qPrintable(error));
        QVERIFY2(importInto(*project, QStringLiteral("qs"), path, &report, &error), qPrintable(error));
        QCOMPARE(report.updated, 1);
        // A correct span onto the document's own words is taken.
        QByteArray good = reversed;
        good.replace("\"last\":\"w1\"", "\"last\":\"w7\"");
        QVERIFY(writeFile(path, good));
        QVERIFY2(importInto(*project, QStringLiteral("qs"), path, &report, &error), qPrintable(error));
    }

    // One 17 MiB JSON Lines record: refused by its size, before it is parsed, naming file and line.
    void jsonLinesRecordOverTheCap()
    {
        const QString projectPath = seedProject(QStringLiteral("big.folio"));
        const QByteArray before = projectChecksum(projectPath);
        const QString path = m_dir.filePath(QStringLiteral("big.jsonl"));
        QByteArray line = "{\"tokens\": [";
        while (line.size() < DatasetLimits::maxJsonLineBytes + (qint64(1) << 20))
            line += "\"tok\",";
        line += "\"end\"], \"bboxes\": [], \"ner_tags\": []}\n";
        QVERIFY(writeFile(path, "{\"tokens\": [], \"bboxes\": [], \"ner_tags\": []}\n" + line));
        QString error;
        auto project = Project::open(projectPath, &error);
        QVERIFY(project);
        QVERIFY(!importInto(*project, QStringLiteral("hfjsonl"), path, nullptr, &error));
        QVERIFY2(error.startsWith(path + QStringLiteral(":2: record longer than the limit of 16777216 bytes")), qPrintable(error));
        project.reset();
        QCOMPARE(projectChecksum(projectPath), before);
    }

    // Updates of existing documents and additions commit together: a write that fails late (the
    // disk is full when the large new document is written) leaves no update behind.
    void importIsOneTransaction()
    {
        const QString projectPath = seedProject(QStringLiteral("atomic.folio"));
        QString error;
        auto project = Project::open(projectPath, &error);
        QVERIFY(project);
        const QByteArray before = projectChecksum(projectPath);
        std::vector<DatasetItem> items;
        for (const char *source : {"a.png", "b.png"}) {
            DatasetItem update;
            update.name = QString::fromLatin1(source);
            update.document = test::makeDocument(update.name, 24);
            update.annotations = test::makeAnnotations(update.document, 2); // differs from the seed
            items.push_back(update);
        }
        DatasetItem big;
        big.name = QStringLiteral("c.png");
        big.document = test::makeDocument(big.name, 20000);
        items.push_back(big);
        ImportReport report;
        if (!backend.isPostgres()) { // a server's disk cannot be capped from a client
            // A few pages more than the seed uses: the updates fit, the 20,000-word document does not.
            const int used = pageCount(projectPath);
            QVERIFY(used > 0);
            QVERIFY(project->limitSizeForTesting(used + 8));
            QVERIFY(!importItemsIntoProject(*project, items, &report, &error));
            QVERIFY2(error.contains(QStringLiteral("disk full")), qPrintable(error));
            QCOMPARE(projectChecksum(projectPath), before);
            QCOMPARE(project->documentCount(), 2);
            QVERIFY(project->limitSizeForTesting(1 << 30));
        }

        // Failing validation late in the list (the third item) writes nothing either.
        items.back().document = test::makeDocument(big.name, 3);
        items.back().document.words[2].box = QRectF(QPointF(0, 0), QPointF(1e300, 5));
        QVERIFY(!importItemsIntoProject(*project, items, &report, &error));
        QVERIFY2(error.contains(QStringLiteral("c.png: words[2].box: x1 1e+300 is outside")), qPrintable(error));
        QCOMPARE(projectChecksum(projectPath), before);

        // And the same batch without the bad item lands whole.
        items.pop_back();
        QVERIFY2(importItemsIntoProject(*project, items, &report, &error), qPrintable(error));
        QCOMPARE(report.updated, 2);
        QVERIFY(projectChecksum(projectPath) != before);
    }

    void sameFileByRelativeAndAbsolutePathIsOneDocument()
    {
        const QString projectPath = seedProject(QStringLiteral("paths.folio"));
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("form.json")), funsdPage("[10, 10, 60, 30]")));
        QVERIFY(QImage(100, 100, QImage::Format_RGB32).save(m_dir.filePath(QStringLiteral("form.png"))));
        QString error;
        auto project = Project::open(projectPath, &error);
        QVERIFY(project);
        const QString saved = QDir::currentPath();
        QVERIFY(QDir::setCurrent(m_dir.path()));
        ImportReport relative, absolute;
        const bool ok = importInto(*project, QStringLiteral("funsd"), QStringLiteral("form.json"), &relative, &error);
        QDir::setCurrent(saved);
        QVERIFY2(ok, qPrintable(error));
        QVERIFY2(importInto(*project, QStringLiteral("funsd"), m_dir.filePath(QStringLiteral("./form.json")), &absolute, &error),
                 qPrintable(error));
        QCOMPARE(relative.added, 1);
        QCOMPARE(absolute.added, 0);
        QCOMPARE(absolute.updated, 1);
        QCOMPARE(project->documentCount(), 3);
    }

    void ownLabelStudioExportReimportsAsUpdates()
    {
        const QString projectPath = seedProject(QStringLiteral("ls.folio"));
        QString error;
        auto project = Project::open(projectPath, &error);
        QVERIFY(project);
        std::vector<DatasetItem> items;
        QVERIFY(projectItems(*project, {}, &items, &error));
        QStringList written;
        const QString out = m_dir.filePath(QStringLiteral("ls-out"));
        QVERIFY2(createDatasetFormat(QStringLiteral("labelstudio"))->exportItems(items, out, {}, &written, &error), qPrintable(error));
        ImportReport report;
        QVERIFY2(importInto(*project, QStringLiteral("labelstudio"), written.first(), &report, &error), qPrintable(error));
        QCOMPARE(report.added, 0);
        QCOMPARE(report.updated, 2);
        QCOMPARE(project->documentCount(), 2);
    }

    // What is imported at the limits exports again, by every format.
    void importedAtTheLimitsExports()
    {
        const QString projectPath = seedProject(QStringLiteral("limits.folio"));
        const QString path = m_dir.filePath(QStringLiteral("deep64.qs.jsonl"));
        QVERIFY(writeFile(path, linearisedQs(DatasetLimits::maxQsDepth)));
        QString error;
        auto project = Project::open(projectPath, &error);
        QVERIFY(project);
        ImportReport report;
        QVERIFY2(importInto(*project, QStringLiteral("qs"), path, &report, &error), qPrintable(error));
        QCOMPARE(report.added, 1);
        std::vector<DatasetItem> items;
        QVERIFY2(projectItems(*project, {}, &items, &error), qPrintable(error));
        QCOMPARE(qsDepth(items.back().annotations.qsRoots), DatasetLimits::maxQsDepth);
        for (const QString &format : datasetFormatNames()) {
            QStringList written;
            QVERIFY2(createDatasetFormat(format)->exportItems(items, m_dir.filePath("limits-" + format), {}, &written, &error),
                     qPrintable(format + ": " + error));
        }
        // An item that fails the shared check cannot be exported either.
        items.front().document.pages[0].size = QSizeF(-1, 1e12);
        QStringList written;
        QVERIFY(!createDatasetFormat(QStringLiteral("hfjsonl"))->exportItems(items, m_dir.filePath("bad"), {}, &written, &error));
        QVERIFY2(error.contains(QStringLiteral("pages[0]: width -1 is outside 0..1000000")), qPrintable(error));
    }

    // A project on read-only media (a read-only mount, or a folder without write permission) can
    // be listed and exported: it is opened immutable instead of failing for want of a -shm file.
    void readOnlyMediaListsAndExports()
    {
        if (backend.isPostgres())
            FOLIO_SKIP_CASE("a file-only case: read-only media");
        const QString source = seedProject(QStringLiteral("ro-source.folio"));
        const QString mount = m_dir.filePath(QStringLiteral("ro"));
        QVERIFY(QDir().mkpath(mount));
        const bool root = geteuid() == 0;
        if (root) {
            if (QProcess::execute(QStringLiteral("mount"), {"-t", "tmpfs", "tmpfs", mount}) != 0)
                FOLIO_SKIP_CASE("running as root without the right to mount a read-only tmpfs: no read-only location to test");
        }
        const QString path = mount + QStringLiteral("/p.folio");
        QVERIFY(QFile::copy(source, path));
        if (root)
            QCOMPARE(QProcess::execute(QStringLiteral("mount"), {"-o", "remount,ro", mount}), 0);
        else
            QVERIFY(QFile::setPermissions(mount, QFile::ReadOwner | QFile::ExeOwner));
        auto cleanup = qScopeGuard([&] {
            if (root)
                QProcess::execute(QStringLiteral("umount"), {mount});
            else
                QFile::setPermissions(mount, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        });
        QVERIFY(!QFileInfo(mount).isWritable());
        QString error;
        auto project = Project::open(path, &error, Project::Mode::ReadOnly);
        QVERIFY2(project, qPrintable(error));
        QCOMPARE(int(project->documents().size()), 2);
        std::vector<DatasetItem> items;
        QVERIFY2(projectItems(*project, {}, &items, &error), qPrintable(error));
        QStringList written;
        QVERIFY2(createDatasetFormat(QStringLiteral("hfjsonl"))->exportItems(items, m_dir.filePath("ro-out"), {}, &written, &error),
                 qPrintable(error));
        QVERIFY(!project->setStatus(project->documents().front().id, DocumentStatus::Done, &error));
        QVERIFY2(error.contains(QStringLiteral("read-only")), qPrintable(error));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestBadInputImport)
#include "tst_badinput_import.moc"
