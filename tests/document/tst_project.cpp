// The project store: create/open, documents, annotations, status, migrations and bad input.
// Runs against SQLite, and against a private PostgreSQL server with FOLIO_PROJECT_BACKEND=postgres
// (CTest: tst_project_postgres); file-only cases have a PostgreSQL counterpart.
#include "document/documentjson.h"
#include "document/project/project.h"
#include "document/project/projectlocation.h"
#include "projectbackend.h"
#include "projecttestdata.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

static QByteArray fileHash(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

static QByteArray annotationsText(const Annotations &a)
{
    return QJsonDocument(annotationsToJsonObject(a)).toJson(QJsonDocument::Compact);
}

#define SQLITE_ONLY()                                                                              \
    if (backend.isPostgres())                                                                      \
    FOLIO_SKIP_CASE("a file-only case (its PostgreSQL counterpart runs instead)")
#define POSTGRES_ONLY()                                                                            \
    if (!backend.isPostgres())                                                                     \
    FOLIO_SKIP_CASE("a PostgreSQL-only case (runs in tst_project_postgres)")

class TestProject : public QObject
{
    Q_OBJECT

    test::ProjectBackend backend;


private Q_SLOTS:
    void initTestCase() { FOLIO_INIT_PROJECT_BACKEND(backend); }

    void createAddReopen()
    {
        const QString path = backend.newLocation(QStringLiteral("p"));
        QString error;
        Document doc = test::makeDocument(QStringLiteral("/scans/a.png"), 40);
        Annotations ann = test::makeAnnotations(doc, 6);
        qint64 id = -1;
        {
            auto p = Project::create(path, &error);
            QVERIFY2(p, qPrintable(error));
            QCOMPARE(p->schemaVersion(), Project::currentSchemaVersion());
            id = p->addDocument(doc, ann, &error);
            QVERIFY2(id > 0, qPrintable(error));
            QVERIFY(p->setLabels({QStringLiteral("QUESTION"), QStringLiteral("ANSWER")}, &error));
            QVERIFY(p->setStatus(id, DocumentStatus::InProgress, &error));
        }
        QVERIFY(!QFile::exists(path + QStringLiteral(".creating-") + QString::number(QCoreApplication::applicationPid())));
        auto p = Project::open(path, &error);
        QVERIFY2(p, qPrintable(error));
        QCOMPARE(p->backend(), backend.name());
        QCOMPARE(p->documentCount(), 1);
        QCOMPARE(p->labels(), QStringList({QStringLiteral("QUESTION"), QStringLiteral("ANSWER")}));
        Document d2;
        Annotations a2;
        QVERIFY2(p->loadDocument(id, &d2, &a2, &error), qPrintable(error));
        QCOMPARE(documentToJson(d2), documentToJson(doc));
        QCOMPARE(annotationsText(a2), annotationsText(ann));
        ProjectDocument info;
        QVERIFY(p->documentInfo(id, &info, &error));
        QCOMPARE(info.status, DocumentStatus::InProgress);
        QCOMPARE(info.name, QStringLiteral("a.png"));
        QCOMPARE(info.entityCount, 5);     // 6 entities, the last a suggestion
        QCOMPARE(info.suggestionCount, 1);
        QCOMPARE(info.annotationRevision, 1);
        QCOMPARE(p->findDocument(QStringLiteral("/scans/a.png")), id);
        QCOMPARE(p->findDocument(QStringLiteral("/nope")), qint64(-1));
    }

    void saveAnnotationsBumpsRevision()
    {
        QString error;
        auto p = Project::create(backend.newLocation(QStringLiteral("p")), &error);
        QVERIFY2(p, qPrintable(error));
        Document doc = test::makeDocument(QStringLiteral("a"), 20);
        const qint64 id = p->addDocument(doc, {}, &error);
        for (int i = 1; i <= 5; ++i)
            QVERIFY2(p->saveAnnotations(id, test::makeAnnotations(doc, i), &error), qPrintable(error));
        ProjectDocument info;
        QVERIFY(p->documentInfo(id, &info, &error));
        QCOMPARE(info.annotationRevision, 6);
        Annotations a;
        QVERIFY(p->loadAnnotations(id, &a, &error));
        QCOMPARE(int(a.entities.size()), 5);
        QVERIFY(!p->saveAnnotations(9999, {}, &error));
        QVERIFY2(error.contains(QStringLiteral("no document with id 9999")), qPrintable(error));
    }

    void ordering()
    {
        QString error;
        auto p = Project::create(backend.newLocation(QStringLiteral("p")), &error);
        QVERIFY2(p, qPrintable(error));
        std::vector<NewProjectDocument> docs(4);
        for (int i = 0; i < 4; ++i)
            docs[i].document = test::makeDocument(QStringLiteral("d%1").arg(i), 4);
        std::vector<qint64> ids;
        QVERIFY2(p->addDocuments(docs, &ids, &error), qPrintable(error));
        QCOMPARE(int(ids.size()), 4);
        QVERIFY(p->setUncertainty(ids[1], 0.2, &error));
        QVERIFY(p->setUncertainty(ids[3], 0.9, &error));
        auto byPos = p->documents();
        QCOMPARE(byPos[0].id, ids[0]);
        QCOMPARE(byPos[3].id, ids[3]);
        auto byUnc = p->documents(DocumentOrder::Uncertainty);
        QCOMPARE(byUnc[0].id, ids[3]);
        QCOMPARE(byUnc[1].id, ids[1]);
        QCOMPARE(byUnc[2].id, ids[0]); // unscored last, in position order
        QCOMPARE(byUnc[2].uncertainty, -1.0);
        QVERIFY(p->removeDocument(ids[0], &error));
        QCOMPARE(p->documentCount(), 3);
        QVERIFY(!p->removeDocument(ids[0], &error));
    }

    void createRefusesExistingFile()
    {
        SQLITE_ONLY();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("x.folio"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep me");
        f.close();
        QString error;
        QVERIFY(!Project::create(path, &error));
        QVERIFY2(error.contains(QStringLiteral("already exists")), qPrintable(error));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("keep me"));
    }

    void createRefusesExistingProjectOrForeignDatabase()
    {
        POSTGRES_ONLY();
        QString error;
        const QString used = backend.newLocation(QStringLiteral("used"));
        QVERIFY2(Project::create(used, &error), qPrintable(error));
        QVERIFY(!Project::create(used, &error));
        QVERIFY2(error.contains(QStringLiteral("already exists")), qPrintable(error));
        const QString foreign = backend.newLocation(QStringLiteral("foreign"));
        QVERIFY(backend.rawExec(foreign, {QStringLiteral("CREATE TABLE visits (url TEXT)"),
                                          QStringLiteral("INSERT INTO visits VALUES ('keep me')")}));
        QVERIFY(!Project::create(foreign, &error));
        QVERIFY2(error.contains(QStringLiteral("not empty")) && error.contains(QStringLiteral("another application")),
                 qPrintable(error));
        QVERIFY(!Project::openOrCreate(foreign, &error));
        QVERIFY2(error.contains(QStringLiteral("another application")), qPrintable(error));
        QString out;
        QVERIFY(backend.server()->psql(foreign.section(QLatin1Char('/'), 3).section(QLatin1Char('?'), 0, 0),
                                       {QStringLiteral("SELECT count(*) FROM information_schema.tables "
                                                       "WHERE table_schema = 'public'")},
                                       &out, &error));
        QCOMPARE(out.trimmed(), QStringLiteral("1")); // nothing was created beside the foreign table
    }

    void unreachableServerAndMissingDatabase()
    {
        POSTGRES_ONLY();
        QString error;
        QTemporaryDir empty;
        const QString nowhere = QStringLiteral("postgresql://folio:secret@/db?host=%1&connect_timeout=2").arg(empty.path());
        QVERIFY(!Project::open(nowhere, &error));
        QVERIFY2(error.startsWith(QStringLiteral("postgresql://folio@/db")), qPrintable(error)); // no password shown
        QVERIFY2(!error.contains(QStringLiteral("secret")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("cannot connect")), qPrintable(error));
        const QString missing = backend.server()->url(QStringLiteral("no_such_db"));
        QVERIFY(!Project::open(missing, &error));
        QVERIFY2(error.startsWith(missing) && error.contains(QStringLiteral("no such database")), qPrintable(error));
        const QString fresh = backend.newLocation(QStringLiteral("fresh"));
        QVERIFY(!Project::open(fresh, &error));
        QVERIFY2(error.contains(QStringLiteral("the database is empty")), qPrintable(error));
        auto p = Project::openOrCreate(fresh, &error); // the GUI's open: an empty database becomes a project
        QVERIFY2(p, qPrintable(error));
        QCOMPARE(p->schemaVersion(), Project::currentSchemaVersion());
    }

    void connectionFile()
    {
        POSTGRES_ONLY();
        QString error;
        const QString url = backend.newLocation(QStringLiteral("viafile"));
        QVERIFY2(Project::create(url, &error), qPrintable(error));
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("team.folio-pg"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# the team's project\n\n" + url.toUtf8() + "\n");
        f.close();
        auto p = Project::open(file, &error);
        QVERIFY2(p, qPrintable(error));
        QCOMPARE(p->path(), file);
        QVERIFY(p->addDocument(test::makeDocument(QStringLiteral("a"), 4), {}, &error) > 0);
        auto direct = Project::open(url, &error, Project::Mode::ReadOnly);
        QVERIFY2(direct, qPrintable(error));
        QCOMPARE(direct->documentCount(), 1);
    }

    void locations_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected"); // error fragment; empty: parses
        QTest::newRow("file") << QStringLiteral("/a/b.folio") << QString();
        QTest::newRow("url") << QStringLiteral("postgresql://u:pw@db.example:6543/forms?sslmode=require") << QString();
        QTest::newRow("socket") << QStringLiteral("postgres://u@/forms?host=/run/postgresql") << QString();
        QTest::newRow("no database") << QStringLiteral("postgresql://host/") << QStringLiteral("must name one database");
        QTest::newRow("two levels") << QStringLiteral("postgresql://host/a/b") << QStringLiteral("must name one database");
        QTest::newRow("unknown parameter") << QStringLiteral("postgresql://host/db?password=x")
                                           << QStringLiteral("unknown parameter 'password'");
        QTest::newRow("injection") << QStringLiteral("postgresql://host/db?sslmode=a;host=evil")
                                   << QStringLiteral("may not contain ';'");
        QTest::newRow("missing connection file") << QStringLiteral("/no/such/team.folio-pg")
                                                 << QStringLiteral("/no/such/team.folio-pg: cannot read");
        QTest::newRow("empty") << QString() << QStringLiteral("no project path given");
    }
    void locations()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        ProjectLocation loc;
        QString error;
        const bool ok = parseProjectLocation(text, &loc, &error);
        QCOMPARE(ok, expected.isEmpty());
        if (!ok) {
            QVERIFY2(error.contains(expected), qPrintable(error));
            QVERIFY2(!error.contains(QStringLiteral("pw")), qPrintable(error));
            return;
        }
        QVERIFY(looksLikeProjectLocation(text));
        QVERIFY(!loc.display.contains(QStringLiteral(":pw@")));
        if (QTest::currentDataTag() == QByteArray("url")) {
            QCOMPARE(loc.host, QStringLiteral("db.example"));
            QCOMPARE(loc.port, 6543);
            QCOMPARE(loc.user, QStringLiteral("u"));
            QCOMPARE(loc.password, QStringLiteral("pw"));
            QCOMPARE(loc.database, QStringLiteral("forms"));
            QCOMPARE(loc.options, QStringLiteral("sslmode=require"));
        }
        if (QTest::currentDataTag() == QByteArray("socket"))
            QCOMPARE(loc.host, QStringLiteral("/run/postgresql"));
    }

    void badConnectionFiles_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("holds no postgresql:// URL");
        QTest::newRow("comments only") << QByteArray("# nothing\n") << QStringLiteral("holds no postgresql:// URL");
        QTest::newRow("not a url") << QByteArray("mysql://x/y\n") << QStringLiteral("must be a postgresql:// URL");
        QTest::newRow("huge") << QByteArray(10000, 'x') << QStringLiteral("larger than 4096 bytes");
        QTest::newRow("bad url") << QByteArray("postgresql://h/\n") << QStringLiteral("must name one database");
    }
    void badConnectionFiles()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("x.folio-pg"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        QString error;
        QVERIFY(!Project::open(file, &error));
        QVERIFY2(error.startsWith(file) && error.contains(expected), qPrintable(error));
    }

    void readOnlyLocation()
    {
        SQLITE_ONLY();
        QString error;
        // /proc refuses new files even for root, like a read-only mount.
        QVERIFY(!Project::create(QStringLiteral("/proc/folio-test.folio"), &error));
        QVERIFY2(error.startsWith(QStringLiteral("/proc/folio-test.folio: cannot create")), qPrintable(error));
        QVERIFY(!Project::create(QStringLiteral("/no/such/dir/p.folio"), &error));
        QVERIFY2(error.contains(QStringLiteral("does not exist")), qPrintable(error));
    }

    void readOnlyMode()
    {
        const QString path = backend.newLocation(QStringLiteral("p"));
        QString error;
        Document doc = test::makeDocument(QStringLiteral("a"), 10);
        qint64 id;
        {
            auto p = Project::create(path, &error);
            id = p->addDocument(doc, test::makeAnnotations(doc, 2), &error);
        }
        auto p = Project::open(path, &error, Project::Mode::ReadOnly);
        QVERIFY2(p, qPrintable(error));
        QVERIFY(p->isReadOnly());
        QVERIFY(!p->saveAnnotations(id, {}, &error));
        QVERIFY2(error.contains(QStringLiteral("read-only")), qPrintable(error));
        Annotations a;
        QVERIFY(p->loadAnnotations(id, &a, &error));
        QCOMPARE(int(a.entities.size()), 2);
    }

    void corruptFiles_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("text") << QByteArray("this is not a database\n") << QStringLiteral("not an SQLite database");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("empty file");
        QByteArray damaged("SQLite format 3\0", 16);
        damaged += QByteArray(4096, '\x7f');
        QTest::newRow("damaged sqlite") << damaged << QStringLiteral("corrupt");
    }
    void corruptFiles()
    {
        SQLITE_ONLY();
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.folio"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        QString error;
        QVERIFY(!Project::open(path, &error));
        QVERIFY2(error.startsWith(path), qPrintable(error));
        QVERIFY2(error.contains(expected, Qt::CaseInsensitive), qPrintable(error));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), content);
    }

    void foreignSqlite()
    {
        SQLITE_ONLY();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("history.sqlite"));
        QVERIFY(backend.rawExec(path, {QStringLiteral("CREATE TABLE visits (url TEXT)"),
                               QStringLiteral("INSERT INTO visits VALUES ('x')")}));
        const QByteArray before = fileHash(path);
        QString error;
        QVERIFY(!Project::open(path, &error));
        QVERIFY2(error.contains(QStringLiteral("another application")), qPrintable(error));
        QCOMPARE(fileHash(path), before);
        QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
    }

    void newerSchemaRefused()
    {
        const QString path = backend.newLocation(QStringLiteral("p"));
        QString error;
        QVERIFY(Project::create(path, &error));
        QVERIFY(backend.rawExec(path, {QStringLiteral("INSERT INTO schema_version VALUES (99, 'future', 'x')")}));
        const QByteArray before = fileHash(path);
        QVERIFY(!Project::open(path, &error));
        QVERIFY2(error.contains(QStringLiteral("schema version 99 is newer")), qPrintable(error));
        QCOMPARE(fileHash(path), before);
        QVERIFY(!Project::open(path, &error, Project::Mode::ReadOnly));
        QVERIFY2(error.contains(QStringLiteral("schema version 99 is newer")), qPrintable(error));
    }

    void migrationFromVersion1()
    {
        const QString path = backend.newLocation(QStringLiteral("old"));
        QString error;
        {
            auto p = Project::createAtVersionForTesting(path, 1, &error);
            QVERIFY2(p, qPrintable(error));
            QCOMPARE(p->schemaVersion(), 1);
        }
        Document doc = test::makeDocument(QStringLiteral("old"), 12);
        const Annotations ann = test::makeAnnotations(doc, 4);
        QVERIFY(backend.rawExec(path, {QStringLiteral("INSERT INTO documents (id, position, name, source_path, kind, status, "
                                                      "document_json, modified) VALUES (7, 1, 'old', 'old', 'image', 'done', %1, 'x')")
                                           .arg(backend.blobLiteral(QString::fromUtf8(documentToJson(doc, nullptr, false)))),
                                       QStringLiteral("INSERT INTO annotations VALUES (7, 3, %1, 'x')")
                                           .arg(backend.blobLiteral(QString::fromUtf8(annotationsText(ann))))}));
        {
            auto ro = Project::open(path, &error, Project::Mode::ReadOnly);
            QVERIFY(!ro);
            QVERIFY2(error.contains(QStringLiteral("needs an upgrade")), qPrintable(error));
        }
        auto p = Project::open(path, &error);
        QVERIFY2(p, qPrintable(error));
        QCOMPARE(p->schemaVersion(), Project::currentSchemaVersion());
        ProjectDocument info;
        QVERIFY2(p->documentInfo(7, &info, &error), qPrintable(error));
        QCOMPARE(info.status, DocumentStatus::Done);
        QCOMPARE(info.entityCount, 3);
        QCOMPARE(info.suggestionCount, 1);
        QCOMPARE(info.annotationRevision, 3);
        // Schema 3 stores the Document compressed: the migrated row still reads back whole.
        Document back;
        QVERIFY2(p->loadDocument(7, &back, nullptr, &error), qPrintable(error));
        QCOMPARE(int(back.words.size()), 12);
        QCOMPARE(back.words[11].box, doc.words[11].box);
    }

    void diskFull()
    {
        SQLITE_ONLY(); // a server's disk cannot be capped from a client
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.folio"));
        QString error;
        auto p = Project::create(path, &error);
        Document doc = test::makeDocument(QStringLiteral("a"), 40);
        const Annotations small = test::makeAnnotations(doc, 3);
        const qint64 id = p->addDocument(doc, small, &error);
        QVERIFY(p->limitSizeForTesting(1)); // no room to grow beyond the current pages
        Annotations big;
        for (int i = 0; i < 5000; ++i) {
            Entity e;
            e.id = QStringLiteral("e%1").arg(i);
            e.label = QStringLiteral("LABEL_%1_%2").arg(i).arg(QString(40, QLatin1Char('x')));
            e.wordIds = {QStringLiteral("w1")};
            big.entities.push_back(e);
        }
        QVERIFY(!p->saveAnnotations(id, big, &error));
        QVERIFY2(error.startsWith(path) && error.contains(QStringLiteral("disk full")), qPrintable(error));
        Annotations back;
        QVERIFY2(p->loadAnnotations(id, &back, &error), qPrintable(error));
        QCOMPARE(annotationsText(back), annotationsText(small));
        QVERIFY(p->addDocument(test::makeDocument(QStringLiteral("b"), 2000), {}, &error) < 0);
        QCOMPARE(p->documentCount(), 1);
        p.reset();
        auto again = Project::open(path, &error);
        QVERIFY2(again, qPrintable(error));
        QVERIFY(again->loadAnnotations(id, &back, &error));
        QCOMPARE(annotationsText(back), annotationsText(small));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestProject)
#include "tst_project.moc"
