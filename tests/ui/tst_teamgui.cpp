// Two people on one project file (issue 17), driven through the real main window offscreen: ann
// works in the GUI, ben through a second connection to the same SQLite file. Ben on the document
// shows as present; ben's save reaches ann's window on the next poll (list refreshed, the open
// document reloaded); a save of ann's made on a stale revision is refused (nothing overwritten)
// and the merge view lists the differing items; saving the merge keeps ben's and ann's work. Also
// the pure merge (annotationmerge) and the review actions with their role checks.
#include "document/annotationmerge.h"
#include "document/project/project.h"
#include "tests/document/projecttestdata.h"
#include "ui/annotation/annotationsession.h"
#include "ui/mainwindow.h"
#include "ui/team/mergedialog.h"
#include "ui/team/projectservice.h"
#include "ui/team/teamcontroller.h"
#include "tests/common/testdata.h"

#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace folio;

namespace {

Entity entity(const QString &id, const QString &label, const QStringList &words)
{
    return Entity{id, label, words, {}, 1.0, ReviewState::Accepted};
}

} // namespace

class TestTeamGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("FOLIO_NO_DIALOGS", "1");
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_teamgui"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void mergeKeepsBothSidesByDefault()
    {
        Annotations theirs, mine;
        theirs.entities = {entity("e1", "QUESTION", {"w0"}), entity("e2", "ANSWER", {"w1"}), entity("t3", "HEADER", {"w5"})};
        mine.entities = {entity("e1", "HEADER", {"w0"}), entity("e2", "ANSWER", {"w1"}), entity("m3", "ANSWER", {"w7"})};
        mine.links = {Link{"l1", "e1", "m3", {}, 1.0, ReviewState::Accepted}};
        std::vector<MergeItem> items = annotationDifferences(theirs, mine);
        QCOMPARE(int(items.size()), 4); // e1 relabelled, t3 (theirs only), m3 (mine only), l1 (mine only)
        QCOMPARE(items[0].key, QStringLiteral("e1"));
        QVERIFY(items[0].takeMine);
        QCOMPARE(items[1].key, QStringLiteral("t3"));
        QVERIFY(!items[1].takeMine); // what they added stays by default
        Annotations merged = mergeAnnotations(theirs, mine, items);
        QCOMPARE(merged.entities.size(), size_t(4));
        QCOMPARE(merged.entity("e1")->label, QStringLiteral("HEADER"));
        QVERIFY(merged.entity("t3") && merged.entity("m3"));
        QCOMPARE(merged.links.size(), size_t(1));
        // Taking theirs for m3 drops it, and the link that needs it.
        items[2].takeMine = false;
        merged = mergeAnnotations(theirs, mine, items);
        QVERIFY(!merged.entity("m3"));
        QVERIFY(merged.links.empty());
        QVERIFY(annotationDifferences(theirs, theirs).empty());
    }

    void twoPeopleOnOneDocument()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("team.folio"));
        QString error;
        qint64 doc = -1;
        {
            auto p = Project::create(path, &error);
            QVERIFY2(p, qPrintable(error));
            doc = p->addDocument(test::makeDocument(QStringLiteral("form.png"), 8), {}, &error);
            QVERIFY(doc > 0);
        }
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(path));
        TeamController *team = w.team();
        team->setPollInterval(100000); // the test polls by hand
        QVERIFY(team->signInAs(QStringLiteral("ann")));
        QCOMPARE(w.session()->currentDocumentId(), doc);
        auto *label = w.findChild<QLabel *>(QStringLiteral("teamLabel"));
        QVERIFY(label && label->text().contains(QStringLiteral("You: ann")));

        // Ben opens the same document elsewhere: ann sees him on it.
        auto ben = Project::open(path, &error);
        QVERIFY2(ben, qPrintable(error));
        ben->setUser(QStringLiteral("ben"));
        QVERIFY(ben->heartbeat(doc, &error));
        QSignalSpy presence(team, &TeamController::presenceChanged);
        team->pollNow();
        QCOMPARE(team->othersHere(), QStringList{QStringLiteral("ben")});
        QCOMPARE(presence.count(), 1);
        QVERIFY2(label->text().contains(QStringLiteral("also here: ben")), qPrintable(label->text()));

        // Ben saves a label: ann's window shows it after the next poll.
        Annotations benVersion;
        int revision = 0;
        QVERIFY(ben->loadAnnotations(doc, &benVersion, &revision, &error));
        benVersion.entities.push_back(entity("b1", "QUESTION", {"w0", "w1"}));
        SaveConflict conflict;
        QVERIFY2(ben->saveAnnotations(doc, benVersion, revision, &conflict, &error), qPrintable(error));
        QSignalSpy changed(team, &TeamController::changedElsewhere);
        team->pollNow();
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().first().toBool(), true);
        QVERIFY(w.session()->annotations().entity(QStringLiteral("b1")));
        QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("ben changed this document")));

        // Ben saves again; before ann's window polls, ann labels a word: refused, nothing written.
        QVERIFY(ben->loadAnnotations(doc, &benVersion, &revision, &error));
        benVersion.entities.push_back(entity("b2", "ANSWER", {"w2"}));
        QVERIFY2(ben->saveAnnotations(doc, benVersion, revision, &conflict, &error), qPrintable(error));
        QSignalSpy conflicted(w.session(), &AnnotationSession::conflicted);
        w.session()->setSelectedWords({QStringLiteral("w5")});
        QVERIFY(w.session()->assignLabel(QStringLiteral("HEADER")));
        QCOMPARE(conflicted.count(), 1);
        QVERIFY(w.session()->hasConflict());
        Annotations stored;
        QVERIFY(ben->loadAnnotations(doc, &stored, &error));
        QCOMPARE(stored.entities.size(), size_t(2)); // ben's two entities, not overwritten
        QVERIFY2(label->text().contains(QStringLiteral("NOT SAVED")), qPrintable(label->text()));

        // The merge view: ben's new entity (theirs only) and ann's (mine only).
        QTRY_VERIFY(team->mergeDialog() != nullptr);
        MergeDialog *merge = team->mergeDialog();
        QTableWidget *table = merge->table();
        QCOMPARE(table->rowCount(), 2);
        QVERIFY(table->item(0, 1)->text().contains(QStringLiteral("ANSWER")));   // b2, theirs
        QCOMPARE(table->item(0, 2)->text(), QStringLiteral("(none)"));
        QVERIFY(table->item(1, 2)->text().contains(QStringLiteral("HEADER"))); // ann's, mine
        QTest::mouseClick(merge->findChild<QPushButton *>(QStringLiteral("saveMergeButton")), Qt::LeftButton);
        QTRY_VERIFY(!team->mergeDialog());
        QVERIFY(!w.session()->hasConflict());
        QVERIFY(ben->loadAnnotations(doc, &stored, &revision, &error));
        QCOMPARE(stored.entities.size(), size_t(3)); // b1, b2 and ann's HEADER
        QCOMPARE(w.session()->revision(), revision);
        bool annHeader = false;
        for (const Entity &e : stored.entities)
            annHeader |= e.label == QLatin1String("HEADER") && e.wordIds == QStringList{QStringLiteral("w5")};
        QVERIFY(annHeader);
        // The merge is one undo step, and undoing it saves again (on top of the stored revision).
        w.session()->undoStack()->undo();
        QVERIFY(!w.session()->hasConflict());
        QVERIFY(ben->loadAnnotations(doc, &stored, &error));
        QCOMPARE(stored.entities.size(), size_t(2)); // what ann's window showed before the merge: b1 and her HEADER
        QVERIFY(!stored.entity(QStringLiteral("b2")));

        // History names both.
        QStringList who;
        for (const HistoryEntry &h : ben->history(doc, &error))
            who << h.user;
        QVERIFY(who.contains(QStringLiteral("ben")) && who.contains(QStringLiteral("ann")));
    }

    void reviewActionsFollowRoles()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("review.folio"));
        QString error;
        qint64 doc = -1;
        {
            auto p = Project::create(path, &error);
            QVERIFY2(p, qPrintable(error));
            doc = p->addDocument(test::makeDocument(QStringLiteral("form.png"), 4), {}, &error);
            p->setUser(QStringLiteral("root"));
            QVERIFY(p->addUser(QStringLiteral("root"), UserRole::Admin, &error));
            QVERIFY(p->addUser(QStringLiteral("ann"), UserRole::Annotator, &error));
            QVERIFY(p->addUser(QStringLiteral("rita"), UserRole::Reviewer, &error));
        }
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(path));
        TeamController *team = w.team();
        QVERIFY(team->signInAs(QStringLiteral("ann")));
        QVERIFY(team->claimCurrent());
        QVERIFY(w.findChild<QLabel *>(QStringLiteral("teamLabel"))->text().contains(QStringLiteral("claimed by ann")));
        QVERIFY(team->setCurrentReview(ReviewStatus::Submitted));
        QVERIFY(!team->setCurrentReview(ReviewStatus::Accepted)); // an annotator cannot accept
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("reviewer")), qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(team->signInAs(QStringLiteral("rita")));
        QVERIFY(team->setCurrentReview(ReviewStatus::SentBack, QStringLiteral("header missing")));
        QVERIFY(w.findChild<QLabel *>(QStringLiteral("teamLabel"))->text().contains(QStringLiteral("review: sent-back")));
        DocumentReview review;
        auto p = Project::open(path, &error, Project::Mode::ReadOnly);
        QVERIFY(p && p->documentReview(doc, &review, &error));
        QCOMPARE(review.status, ReviewStatus::SentBack);
        QCOMPARE(review.note, QStringLiteral("header missing"));
        QCOMPARE(review.by, QStringLiteral("rita"));
    }
};

FOLIO_TEST_MAIN(TestTeamGui)
#include "tst_teamgui.moc"
