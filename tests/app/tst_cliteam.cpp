// folio-cli project users|assign|claim|review|history|agreement|save (issue 17): a team works on
// one project through the command line; refusals exit 1 naming the project and the reason, a
// stale save names who changed the document. On SQLite and, with FOLIO_PROJECT_BACKEND=postgres
// (tst_cliteam_postgres), on a private PostgreSQL server.
#include "clirunner.h"
#include "document/documentjson.h"
#include "tests/document/projectbackend.h"
#include "tests/document/projecttestdata.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using folio::test::CliRun;

class TestCliTeam : public QObject
{
    Q_OBJECT
    folio::test::ProjectBackend backend;
    QTemporaryDir m_dir;

    static CliRun cli(const QStringList &args) { return folio::test::runCli(QStringList{QStringLiteral("-q")} + args); }
    static CliRun as(const QString &user, const QStringList &args)
    {
        return cli(args + QStringList{QStringLiteral("--user"), user});
    }
    QString annotationsFile(const QString &name, const QByteArray &json)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(json);
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        FOLIO_INIT_PROJECT_BACKEND(backend);
    }

    void teamWorkflow()
    {
        const QString p = backend.newLocation(QStringLiteral("team"));
        CliRun r = cli({QStringLiteral("project"), QStringLiteral("create"), p});
        QVERIFY2(r.code == 0, r.err.constData());
        // Two Folio JSON documents of 4 words (w0..w3), no annotations.
        const QString a = annotationsFile(QStringLiteral("a.json"),
                                          folio::documentToJson(folio::test::makeDocument(QStringLiteral("a.png"), 4)));
        const QString b = annotationsFile(QStringLiteral("b.json"),
                                          folio::documentToJson(folio::test::makeDocument(QStringLiteral("b.png"), 4)));
        r = cli({QStringLiteral("project"), QStringLiteral("add"), p, a, b});
        QVERIFY2(r.code == 0, r.err.constData());

        // Users: the first must be an admin; an annotator cannot add users.
        const QString project = QStringLiteral("project");
        r = as(QStringLiteral("root"), {project, QStringLiteral("users"), p, QStringLiteral("--add"), QStringLiteral("ann")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("the first user of a project must be an admin"), r.err.constData());
        for (const auto &[name, role] : {std::pair{"root", "admin"}, {"ann", "annotator"}, {"ben", "annotator"}, {"rita", "reviewer"}}) {
            r = as(QStringLiteral("root"), {project, QStringLiteral("users"), p, QStringLiteral("--add"), QString::fromLatin1(name),
                                            QStringLiteral("--role"), QString::fromLatin1(role)});
            QVERIFY2(r.code == 0, r.err.constData());
        }
        QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 4);
        r = as(QStringLiteral("ann"), {project, QStringLiteral("users"), p, QStringLiteral("--add"), QStringLiteral("eve")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith("folio-cli: " + p.toUtf8()) && r.err.contains("ann is annotator: adding users needs admin"),
                 r.err.constData());
        r = as(QStringLiteral("root"), {project, QStringLiteral("users"), p, QStringLiteral("--add"), QStringLiteral("x"),
                                        QStringLiteral("--role"), QStringLiteral("boss")});
        QCOMPARE(r.code, 2); // usage: not a role

        // Assign, claim.
        r = as(QStringLiteral("rita"), {project, QStringLiteral("assign"), p, QStringLiteral("--doc"), QStringLiteral("1"),
                                        QStringLiteral("--to"), QStringLiteral("ann")});
        QVERIFY2(r.code == 0, r.err.constData());
        r = as(QStringLiteral("ben"), {project, QStringLiteral("claim"), p, QStringLiteral("--doc"), QStringLiteral("1")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("document 1 is already assigned to ann"), r.err.constData());
        r = as(QStringLiteral("ben"), {project, QStringLiteral("claim"), p, QStringLiteral("--doc"), QStringLiteral("2")});
        QVERIFY2(r.code == 0, r.err.constData());
        r = as(QStringLiteral("rita"), {project, QStringLiteral("assign"), p, QStringLiteral("--doc"), QStringLiteral("1")});
        QCOMPARE(r.code, 2); // neither --to nor --none

        // Both label document 1 from revision 1; the second save is refused, naming the first.
        const QString annJson = annotationsFile(QStringLiteral("ann.json"),
            R"({"entities": [{"id": "e1", "label": "QUESTION", "words": ["w0"]}, {"id": "e2", "label": "ANSWER", "words": ["w1"]},
                              {"id": "e3", "label": "QUESTION", "words": ["w2"]}, {"id": "e4", "label": "ANSWER", "words": ["w3"]}]})");
        const QString ritaJson = annotationsFile(QStringLiteral("rita.json"),
            R"({"annotations": {"entities": [{"id": "e1", "label": "QUESTION", "words": ["w0"]}, {"id": "e2", "label": "ANSWER", "words": ["w1"]},
                              {"id": "e3", "label": "HEADER", "words": ["w2", "w3"]}]}})");
        const QStringList save = {project, QStringLiteral("save"), p, QStringLiteral("--doc"), QStringLiteral("1"),
                                  QStringLiteral("--base-revision"), QStringLiteral("1"), QStringLiteral("--annotations")};
        r = as(QStringLiteral("ann"), save + QStringList{annJson});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(r.json().value(QStringLiteral("revision")).toInt(), 2);
        r = as(QStringLiteral("rita"), save + QStringList{ritaJson});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("document 1 was changed by ann") && r.err.contains("reload it and merge"), r.err.constData());
        r = as(QStringLiteral("rita"), save.mid(0, 6) + QStringList{QStringLiteral("2"), QStringLiteral("--annotations"), ritaJson});
        QVERIFY2(r.code == 0, r.err.constData());
        // Ben may not save a document assigned to ann.
        r = as(QStringLiteral("ben"), save.mid(0, 6) + QStringList{QStringLiteral("3"), QStringLiteral("--annotations"), annJson});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("document 1 is assigned to ann, not to you (ben)"), r.err.constData());
        // Bad annotations file.
        r = as(QStringLiteral("ann"), save + QStringList{annotationsFile(QStringLiteral("bad.json"), "[1, 2]")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("bad.json: not a JSON object"), r.err.constData());

        // Review: ann submits, rita sends back with a note.
        r = as(QStringLiteral("ann"), {project, QStringLiteral("review"), p, QStringLiteral("--doc"), QStringLiteral("1"),
                                       QStringLiteral("--set"), QStringLiteral("accepted")});
        QCOMPARE(r.code, 1);
        r = as(QStringLiteral("ann"), {project, QStringLiteral("review"), p, QStringLiteral("--doc"), QStringLiteral("1"),
                                       QStringLiteral("--set"), QStringLiteral("submitted")});
        QVERIFY2(r.code == 0, r.err.constData());
        r = as(QStringLiteral("rita"), {project, QStringLiteral("review"), p, QStringLiteral("--doc"), QStringLiteral("1"),
                                        QStringLiteral("--set"), QStringLiteral("sent-back"), QStringLiteral("--note"),
                                        QStringLiteral("the date is one entity")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(r.json().value(QStringLiteral("review")).toString(), QStringLiteral("sent-back"));
        QCOMPARE(r.json().value(QStringLiteral("by")).toString(), QStringLiteral("rita"));
        QCOMPARE(r.json().value(QStringLiteral("assigned")).toString(), QStringLiteral("ann"));
        QCOMPARE(r.json().value(QStringLiteral("revision")).toInt(), 3);

        // History, oldest first.
        r = cli({project, QStringLiteral("history"), p, QStringLiteral("--doc"), QStringLiteral("1")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray h = QJsonDocument::fromJson(r.out).array();
        QStringList lines;
        for (const QJsonValue &v : h)
            lines << v[QStringLiteral("user")].toString() + QLatin1Char(' ') + v[QStringLiteral("action")].toString()
                         + QLatin1Char(' ') + v[QStringLiteral("detail")].toString();
        QCOMPARE(lines.mid(1), QStringList({QStringLiteral("rita assign assigned to ann"), QStringLiteral("ann save +4 entities"),
                                            QStringLiteral("rita save -1 entity, 1 relabelled"), // e3: new label (and words): counted once
                                            QStringLiteral("ann review submitted"),
                                            QStringLiteral("rita review sent-back: the date is one entity")}));
        r = cli({project, QStringLiteral("history"), p, QStringLiteral("--doc"), QStringLiteral("77")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no document with id 77"), r.err.constData());

        // Agreement between ann's and rita's versions of document 1: 2 of 4 / 3 entities match.
        r = cli({project, QStringLiteral("agreement"), p, QStringLiteral("--users"), QStringLiteral("ann,rita"),
                 QStringLiteral("--per-document")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject agree = r.json();
        QCOMPARE(agree.value(QStringLiteral("documents")).toInt(), 1);
        QCOMPARE(agree.value(QStringLiteral("matched_entities")).toInt(), 2);
        QVERIFY(qAbs(agree.value(QStringLiteral("entity_f1")).toDouble() - 4.0 / 7.0) < 1e-9);
        QCOMPARE(agree.value(QStringLiteral("tokens")).toInt(), 4);
        // Tokens: Q A Q A vs Q A H H: po 0.5; marginals ann Q2 A2, rita Q1 A1 H2: pe = (2*1 + 2*1) / 16.
        QVERIFY(qAbs(agree.value(QStringLiteral("kappa")).toDouble() - (0.5 - 0.25) / 0.75) < 1e-9);
        QCOMPARE(agree.value(QStringLiteral("per_document")).toArray().size(), 1);
        r = cli({project, QStringLiteral("agreement"), p, QStringLiteral("--users"), QStringLiteral("ann,ann")});
        QCOMPARE(r.code, 2);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliTeam)
#include "tst_cliteam.moc"
