// Several annotators on one project (issue 17): optimistic versions (a stale save is refused,
// naming who changed it), roles, assignments and claims, review states, history, presence, the
// change counter, annotator versions and inter-annotator agreement; migration 3 -> 5. On SQLite
// and, with FOLIO_PROJECT_BACKEND=postgres (tst_projectteam_postgres), on a PostgreSQL server.
#include "document/project/project.h"
#include "document/project/projectagreement.h"
#include "projectbackend.h"
#include "projecttestdata.h"

#include <QTest>

using namespace folio;

static std::unique_ptr<Project> openAs(const QString &where, const QString &user)
{
    QString error;
    auto p = Project::open(where, &error);
    if (!p)
        qWarning("%s", qPrintable(error));
    else
        p->setUser(user);
    return p;
}

static Entity entity(const QString &id, const QString &label, const QStringList &words)
{
    Entity e;
    e.id = id;
    e.label = label;
    e.wordIds = words;
    return e;
}

class TestProjectTeam : public QObject
{
    Q_OBJECT
    test::ProjectBackend backend;

    // A project with one 20-word document (id 1); its location.
    QString seed(const QString &stem)
    {
        const QString where = backend.newLocation(stem);
        QString error;
        auto p = Project::create(where, &error);
        if (!p || p->addDocument(test::makeDocument(QStringLiteral("a"), 20), {}, &error) != 1)
            qWarning("%s", qPrintable(error));
        return where;
    }

private Q_SLOTS:
    void initTestCase() { FOLIO_INIT_PROJECT_BACKEND(backend); }

    void staleSaveIsRefusedNamingWhoChangedIt()
    {
        const QString where = seed(QStringLiteral("conflict"));
        auto alice = openAs(where, QStringLiteral("alice"));
        auto bob = openAs(where, QStringLiteral("bob"));
        QVERIFY(alice && bob);
        QString error;
        Document doc;
        Annotations base;
        int revA = 0, revB = 0;
        QVERIFY2(alice->loadDocument(1, &doc, nullptr, &error), qPrintable(error));
        QVERIFY(alice->loadAnnotations(1, &base, &revA, &error));
        QVERIFY(bob->loadAnnotations(1, &base, &revB, &error));
        QCOMPARE(revA, 1);
        QCOMPARE(revB, 1);
        const Annotations mine = test::makeAnnotations(doc, 3), theirs = test::makeAnnotations(doc, 5);
        SaveConflict conflict;
        QVERIFY2(alice->saveAnnotations(1, theirs, revA, &conflict, &error), qPrintable(error));
        QVERIFY(!bob->saveAnnotations(1, mine, revB, &conflict, &error));
        QVERIFY2(error.contains(QStringLiteral("document 1 was changed by alice")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("revision 2; your edit is based on revision 1")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("merge")), qPrintable(error));
        QCOMPARE(conflict.changedBy, QStringLiteral("alice"));
        QCOMPARE(conflict.storedRevision, 2);
        QCOMPARE(conflict.baseRevision, 1);
        // Nothing of bob's was written: alice's annotations are stored, the revision did not move.
        Annotations stored;
        int rev = 0;
        QVERIFY(bob->loadAnnotations(1, &stored, &rev, &error));
        QCOMPARE(rev, 2);
        QCOMPARE(int(stored.entities.size()), 5);
        QCOMPARE(bob->history(1).size(), size_t(2)); // add + alice's save
        // After merging, bob saves against what he has now seen.
        QVERIFY2(bob->saveAnnotations(1, mine, rev, &conflict, &error), qPrintable(error));
        QVERIFY(bob->loadAnnotations(1, &stored, &rev, &error));
        QCOMPARE(rev, 3);
        // An unconditional save (imports, batch runs) still works.
        QVERIFY(alice->saveAnnotations(1, theirs, &error));
        // Bad input: a document that does not exist.
        QVERIFY(!alice->saveAnnotations(99, mine, 1, &conflict, &error));
        QVERIFY2(error.contains(QStringLiteral("no document with id 99")), qPrintable(error));
    }

    void historySaysWhoChangedWhat()
    {
        const QString where = seed(QStringLiteral("history"));
        auto alice = openAs(where, QStringLiteral("alice"));
        auto bob = openAs(where, QStringLiteral("bob"));
        QString error;
        Document doc;
        QVERIFY(alice->loadDocument(1, &doc, nullptr, &error));
        Annotations a;
        a.entities.push_back(entity(QStringLiteral("e1"), QStringLiteral("QUESTION"), {QStringLiteral("w0")}));
        a.entities.push_back(entity(QStringLiteral("e2"), QStringLiteral("ANSWER"), {QStringLiteral("w1")}));
        QVERIFY(alice->saveAnnotations(1, a, &error));
        a.entities[1].label = QStringLiteral("HEADER");
        a.entities.erase(a.entities.begin());
        QVERIFY(bob->saveAnnotations(1, a, &error));
        QVERIFY(bob->setStatus(1, DocumentStatus::Done, &error));
        const auto h = alice->history(1, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(int(h.size()), 4);
        QCOMPARE(h[0].action, QStringLiteral("add"));
        QCOMPARE(h[1].user, QStringLiteral("alice"));
        QCOMPARE(h[1].action, QStringLiteral("save"));
        QCOMPARE(h[1].detail, QStringLiteral("+2 entities"));
        QCOMPARE(h[1].revision, 2);
        QCOMPARE(h[2].user, QStringLiteral("bob"));
        QCOMPARE(h[2].detail, QStringLiteral("-1 entity, 1 relabelled"));
        QCOMPARE(h[3].action, QStringLiteral("status"));
        QCOMPARE(h[3].detail, QStringLiteral("done"));
        QVERIFY(h[3].at.isValid());
        QCOMPARE(alice->annotatorsOf(1), QStringList({QStringLiteral("alice"), QStringLiteral("bob")}));
    }

    void rolesAssignmentsAndReviews()
    {
        const QString where = seed(QStringLiteral("roles"));
        QString error;
        {
            auto p = openAs(where, QStringLiteral("root"));
            QVERIFY(p->addDocument(test::makeDocument(QStringLiteral("b"), 10), {}, &error) == 2);
            QVERIFY(!p->addUser(QStringLiteral("ann"), UserRole::Annotator, &error));
            QVERIFY2(error.contains(QStringLiteral("first user of a project must be an admin")), qPrintable(error));
            QVERIFY2(p->addUser(QStringLiteral("root"), UserRole::Admin, &error), qPrintable(error));
            QVERIFY(p->addUser(QStringLiteral("ann"), UserRole::Annotator, &error));
            QVERIFY(p->addUser(QStringLiteral("ben"), UserRole::Annotator, &error));
            QVERIFY(p->addUser(QStringLiteral("rita"), UserRole::Reviewer, &error));
            QVERIFY(!p->addUser(QStringLiteral("bad name!"), UserRole::Annotator, &error));
            QVERIFY2(error.contains(QStringLiteral("invalid user name")), qPrintable(error));
            QCOMPARE(int(p->users().size()), 4);
        }
        auto ann = openAs(where, QStringLiteral("ann"));
        auto ben = openAs(where, QStringLiteral("ben"));
        auto rita = openAs(where, QStringLiteral("rita"));
        auto stranger = openAs(where, QStringLiteral("mallory"));
        QVERIFY(!ann->addUser(QStringLiteral("eve"), UserRole::Admin, &error));
        QVERIFY2(error.contains(QStringLiteral("ann is annotator: adding users needs admin")), qPrintable(error));
        QVERIFY(!ann->assignDocument(1, QStringLiteral("ann"), &error));
        QVERIFY2(error.contains(QStringLiteral("needs admin or reviewer")), qPrintable(error));
        QVERIFY2(rita->assignDocument(1, QStringLiteral("ann"), &error), qPrintable(error));
        QVERIFY(!rita->assignDocument(1, QStringLiteral("nobody"), &error));
        QVERIFY2(error.contains(QStringLiteral("no user named nobody")), qPrintable(error));
        QVERIFY(!stranger->claimDocument(2, &error));
        QVERIFY2(error.contains(QStringLiteral("mallory is not a user of this project")), qPrintable(error));
        // Claims: ben takes document 2; ann cannot take it or ben's work, nor document 1 from her.
        QVERIFY(!ben->claimDocument(1, &error));
        QVERIFY2(error.contains(QStringLiteral("already assigned to ann")), qPrintable(error));
        QVERIFY2(ben->claimDocument(2, &error), qPrintable(error));
        QVERIFY(ben->claimDocument(2, &error)); // already his: fine
        QVERIFY(!ann->claimDocument(2, &error));
        QVERIFY2(error.contains(QStringLiteral("already claimed by ben")), qPrintable(error));
        DocumentAssignment who;
        QVERIFY(ann->documentAssignment(2, &who, &error));
        QCOMPARE(who.user, QStringLiteral("ben"));
        QCOMPARE(who.how, QStringLiteral("claimed"));
        QCOMPARE(ann->documentsOf(QStringLiteral("ann")), std::vector<qint64>({1}));
        // An annotator does not save a document someone else has; a reviewer may.
        Document doc;
        QVERIFY(ann->loadDocument(2, &doc, nullptr, &error));
        QVERIFY(!ann->saveAnnotations(2, test::makeAnnotations(doc, 2), &error));
        QVERIFY2(error.contains(QStringLiteral("document 2 is claimed by ben, not to you (ann)")), qPrintable(error));
        QVERIFY2(rita->saveAnnotations(2, test::makeAnnotations(doc, 2), &error), qPrintable(error));
        // Reviews: the annotator submits, only a reviewer accepts or sends back.
        QVERIFY2(ann->setReview(1, ReviewStatus::Submitted, QString(), &error), qPrintable(error));
        QVERIFY(!ann->setReview(1, ReviewStatus::Accepted, QString(), &error));
        QVERIFY2(error.contains(QStringLiteral("accepting or sending back needs admin or reviewer")), qPrintable(error));
        QVERIFY(rita->setReview(1, ReviewStatus::SentBack, QStringLiteral("dates are ANSWERs"), &error));
        DocumentReview review;
        QVERIFY(ann->documentReview(1, &review, &error));
        QCOMPARE(review.status, ReviewStatus::SentBack);
        QCOMPARE(review.by, QStringLiteral("rita"));
        QCOMPARE(review.note, QStringLiteral("dates are ANSWERs"));
        QVERIFY(!rita->setReview(42, ReviewStatus::Accepted, QString(), &error));
        QVERIFY2(error.contains(QStringLiteral("no document with id 42")), qPrintable(error));
        const auto h = ann->history(1);
        QCOMPARE(h.back().action, QStringLiteral("review"));
        QCOMPARE(h.back().detail, QStringLiteral("sent-back: dates are ANSWERs"));
        QCOMPARE(h.back().user, QStringLiteral("rita"));
        // The last admin cannot be removed.
        auto root = openAs(where, QStringLiteral("root"));
        QVERIFY(!root->removeUser(QStringLiteral("root"), &error));
        QVERIFY2(error.contains(QStringLiteral("last admin")), qPrintable(error));
        QVERIFY(root->removeUser(QStringLiteral("ben"), &error));
        QVERIFY(!root->removeUser(QStringLiteral("ben"), &error));
        bool ok = true;
        userRoleFromName(QStringLiteral("boss"), &ok);
        QVERIFY(!ok);
        reviewStatusFromName(QStringLiteral("maybe"), &ok);
        QVERIFY(!ok);
    }

    void presenceAndChangeCounter()
    {
        const QString where = seed(QStringLiteral("presence"));
        auto alice = openAs(where, QStringLiteral("alice"));
        auto bob = openAs(where, QStringLiteral("bob"));
        QString error;
        const qint64 before = bob->changeCounter();
        QVERIFY(before >= 0);
        QVERIFY2(alice->heartbeat(1, &error), qPrintable(error));
        QCOMPARE(bob->changeCounter(), before); // heartbeats are not changes
        auto seen = bob->presence(30, &error);
        QCOMPARE(int(seen.size()), 1);
        QCOMPARE(seen[0].user, QStringLiteral("alice"));
        QCOMPARE(seen[0].documentId, qint64(1));
        QVERIFY(alice->saveAnnotations(1, {}, &error));
        QCOMPARE(bob->changeCounter(), before + 1);
        QVERIFY(alice->setStatus(1, DocumentStatus::InProgress, &error));
        QCOMPARE(bob->changeCounter(), before + 2);
        // A heartbeat older than the window is not listed; leaving removes the row.
        QVERIFY(backend.rawExec(where, {QStringLiteral("UPDATE presence SET heartbeat = '2001-01-01T00:00:00.000Z'")}));
        QCOMPARE(int(bob->presence(30).size()), 0);
        QVERIFY(alice->heartbeat(-1, &error));
        seen = bob->presence(30);
        QCOMPARE(int(seen.size()), 1);
        QCOMPARE(seen[0].documentId, qint64(-1));
        QVERIFY(alice->leave(&error));
        QCOMPARE(int(bob->presence(30).size()), 0);
    }

    void agreementOfHandMadeLabels()
    {
        Document doc = test::makeDocument(QStringLiteral("k"), 10);
        Annotations a, b;
        // A: Q{w0,w1} A{w2} H{w5}; B: Q{w0,w1} A{w2,w3} H{w5} and a suggestion that does not count.
        a.entities = {entity("a1", "Q", {"w0", "w1"}), entity("a2", "A", {"w2"}), entity("a3", "H", {"w5"})};
        b.entities = {entity("b1", "Q", {"w1", "w0"}), entity("b2", "A", {"w2", "w3"}), entity("b3", "H", {"w5"})};
        Entity s = entity("b4", "Q", {"w8"});
        s.state = ReviewState::Suggested;
        b.entities.push_back(s);
        const Agreement r = compareAnnotations(doc, a, b);
        QCOMPARE(r.entitiesA, 3);
        QCOMPARE(r.entitiesB, 3);
        QCOMPARE(r.matchedEntities, 2);
        QVERIFY(qAbs(r.entityF1 - 2.0 / 3.0) < 1e-12);
        // Tokens: 10 words, 9 agree (w3: O vs A). Marginals A: Q2 A1 H1 O6, B: Q2 A2 H1 O5.
        QCOMPARE(r.tokens, 10);
        QVERIFY(qAbs(r.observed - 0.9) < 1e-12);
        const double pe = (2 * 2 + 1 * 2 + 1 * 1 + 6 * 5) / 100.0;
        QVERIFY(qAbs(r.kappa - (0.9 - pe) / (1 - pe)) < 1e-12);
        // Identical: 1 and 1; nothing labelled by either: F1 1, kappa 1 (all O).
        QCOMPARE(compareAnnotations(doc, a, a).kappa, 1.0);
        QCOMPARE(compareAnnotations(doc, a, a).entityF1, 1.0);
        const Agreement none = compareAnnotations(doc, {}, {});
        QCOMPARE(none.entityF1, 1.0);
        QCOMPARE(none.kappa, 1.0);
        // Disjoint: F1 0, kappa <= 0.
        Annotations c;
        c.entities = {entity("c1", "H", {"w9"})};
        const Agreement dis = compareAnnotations(doc, a, c);
        QCOMPARE(dis.entityF1, 0.0);
        QVERIFY(dis.kappa <= 0.0);
    }

    void agreementOverAProject()
    {
        const QString where = seed(QStringLiteral("agree"));
        QString error;
        auto alice = openAs(where, QStringLiteral("alice"));
        auto bob = openAs(where, QStringLiteral("bob"));
        QVERIFY(alice->addDocument(test::makeDocument(QStringLiteral("only-alice"), 10), {}, &error) == 2);
        Annotations a, b;
        a.entities = {entity("a1", "Q", {"w0", "w1"}), entity("a2", "A", {"w2"})};
        b.entities = {entity("b1", "Q", {"w0", "w1"}), entity("b2", "A", {"w3"})};
        QVERIFY(alice->saveAnnotations(1, a, &error));
        QVERIFY(bob->saveAnnotations(1, b, &error)); // unconditional: both versions are kept
        QVERIFY(alice->saveAnnotations(2, a, &error));
        Agreement total;
        std::vector<std::pair<qint64, Agreement>> per;
        QVERIFY2(projectAgreement(*alice, QStringLiteral("alice"), QStringLiteral("bob"), &total, &per, &error), qPrintable(error));
        QCOMPARE(total.documents, 1); // document 2 was labelled once
        QCOMPARE(int(per.size()), 1);
        QCOMPARE(per[0].first, qint64(1));
        QCOMPARE(total.matchedEntities, 1);
        QCOMPARE(total.entityF1, 0.5);
        QCOMPARE(total.tokens, 20);
        QVERIFY(total.kappa < 1.0 && total.kappa > 0.0);
        Annotations back;
        QVERIFY(bob->annotatorVersion(1, QStringLiteral("bob"), &back, &error));
        QCOMPARE(back.entities[1].wordIds, QStringList({QStringLiteral("w3")}));
        QVERIFY(!bob->annotatorVersion(2, QStringLiteral("bob"), &back, &error));
        QVERIFY2(error.contains(QStringLiteral("bob has not saved document 2")), qPrintable(error));
        QVERIFY(projectAgreement(*alice, QStringLiteral("alice"), QStringLiteral("carol"), &total, &per, &error));
        QCOMPARE(total.documents, 0);
    }

    void migrationFrom3KeepsEverything()
    {
        const QString where = backend.newLocation(QStringLiteral("v3"));
        QString error;
        {
            auto p = Project::createAtVersionForTesting(where, 3, &error);
            QVERIFY2(p, qPrintable(error));
            QCOMPARE(p->schemaVersion(), 3);
            QVERIFY(!p->addUser(QStringLiteral("x"), UserRole::Admin, &error));
            QVERIFY2(error.contains(QStringLiteral("schema version 3 has no team tables")), qPrintable(error));
            QCOMPARE(p->changeCounter(), qint64(-1));
        }
        QVERIFY(backend.rawExec(where, {QStringLiteral("INSERT INTO documents (id, position, name, source_path, kind, status, "
                                                       "document_json, modified) VALUES (5, 1, 'old', 'old', 'image', 'todo', %1, 'x')")
                                            .arg(backend.blobLiteral(QStringLiteral("{}"))),
                                        QStringLiteral("INSERT INTO annotations VALUES (5, 4, %1, 'x')")
                                            .arg(backend.blobLiteral(QStringLiteral("{}")))}));
        auto p = openAs(where, QStringLiteral("alice"));
        QVERIFY(p);
        QCOMPARE(p->schemaVersion(), 6);
        QCOMPARE(Project::currentSchemaVersion(), 6);
        int rev = 0;
        Annotations a;
        QVERIFY2(p->loadAnnotations(5, &a, &rev, &error), qPrintable(error));
        QCOMPARE(rev, 4);
        SaveConflict conflict;
        QVERIFY(!p->saveAnnotations(5, a, 3, &conflict, &error));
        QCOMPARE(conflict.changedBy, QString()); // saved before anyone was recorded
        QVERIFY2(error.contains(QStringLiteral("changed by someone")), qPrintable(error));
        QVERIFY2(p->saveAnnotations(5, a, 4, &conflict, &error), qPrintable(error));
        QCOMPARE(p->history(5).size(), size_t(1));
        QCOMPARE(p->changeCounter(), qint64(1));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestProjectTeam)
#include "tst_projectteam.moc"
