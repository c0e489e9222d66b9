// One retraining of the labelling loop on a project (issue 47): held-out pages chosen for the user,
// the new model taking over only when it scores better on them, the status line, a project too small
// to hold pages out, a cancelled run leaving the previous model, labels the current model never saw.
#include "document/project/project.h"
#include "pipeline/labelling/loopsnapshot.h"
#include "pipeline/labelling/projectretrain.h"
#include "tests/common/funsdproject.h"
#include "tests/common/postgresserver.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

using namespace folio;
using namespace folio::labelling;

namespace {

QString funsdRoot() { return folio::test::funsdDatasetRoot(); }

bool makeProject(const QString &path, int n, const QString &renameQuestion = QString())
{
    QString error;
    const bool ok = folio::test::makeFunsdProject(path, n, &error, renameQuestion);
    if (!ok)
        qWarning().noquote() << error;
    return ok;
}

QList<qint64> idsOf(const std::vector<SimulationPage> &pages)
{
    QList<qint64> out;
    for (const SimulationPage &p : pages)
        out << p.id.toLongLong();
    return out;
}

// readLoopSnapshot on a thread of its own (as RetrainWorker reads), while `gui`'s connection stays
// open on this one; `duringRead` runs on that thread after the document list is read.
bool snapshotOnAnotherThread(const QString &location, LoopSnapshot *out, QString *error, std::function<void()> duringRead)
{
    bool ok = false;
    std::thread reader([&] { ok = readLoopSnapshot(location, false, out, error, 200, duringRead); });
    reader.join();
    return ok;
}

ProjectRetrainConfig tiny(const QString &out)
{
    ProjectRetrainConfig c;
    c.outputDir = out;
    c.epochs = 1;
    c.maxSteps = 2;
    c.hidden = 32;
    c.layers = 1;
    return c;
}

QString shippedModel() { return QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/forms-en-de"); }

} // namespace

class TestProjectRetrain : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firstModelTakesOver()
    {
        FOLIO_REQUIRE_DATA(funsdRoot());
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("p.folio"));
        QVERIFY(makeProject(project, 5));
        const ProjectRetrainOutcome o = retrainFromProject(project, tiny(dir.filePath(QStringLiteral("m1"))));
        QVERIFY2(o.ok, qPrintable(o.message));
        QVERIFY(o.tookOver);
        QCOMPARE(o.heldOutPages, 2); // a fifth of 5, at least 2
        QCOMPARE(o.trainPages, 3);
        QCOMPARE(o.model, dir.filePath(QStringLiteral("m1")));
        QVERIFY(o.newF1 >= 0 && o.newF1 <= 1);
        QCOMPARE(o.previousF1, -1.0);
        QVERIFY2(o.message.startsWith(QStringLiteral("model updated: F1 – → ")) && o.message.endsWith(QStringLiteral("on 2 held-out pages")),
                 qPrintable(o.message));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("m1/model.safetensors"))));
    }

    void worseModelDoesNotTakeOver()
    {
        FOLIO_REQUIRE_DATA(funsdRoot());
        FOLIO_REQUIRE_DATA(shippedModel() + QStringLiteral("/config.json"));
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("p.folio"));
        QVERIFY(makeProject(project, 5));
        ProjectRetrainConfig c = tiny(dir.filePath(QStringLiteral("m2")));
        c.currentModel = shippedModel();
        c.maxSteps = 1; // a fresh head after one step: far below the shipped model
        const ProjectRetrainOutcome o = retrainFromProject(project, c);
        QVERIFY2(o.ok, qPrintable(o.message));
        QVERIFY2(!o.tookOver, qPrintable(o.message));
        QCOMPARE(o.model, shippedModel());
        QVERIFY(o.previousF1 > o.newF1);
        QVERIFY2(o.message.startsWith(QStringLiteral("model kept: F1 ")) && o.message.contains(QStringLiteral("not better")),
                 qPrintable(o.message));
    }

    void labelsTheModelNeverSawGrowItsHead()
    {
        FOLIO_REQUIRE_DATA(funsdRoot());
        FOLIO_REQUIRE_DATA(shippedModel() + QStringLiteral("/config.json"));
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("p.folio"));
        QVERIFY(makeProject(project, 5, QStringLiteral("KEY")));
        ProjectRetrainConfig c = tiny(dir.filePath(QStringLiteral("m3")));
        c.currentModel = shippedModel();
        const ProjectRetrainOutcome o = retrainFromProject(project, c);
        QVERIFY2(o.ok, qPrintable(o.message));
        QCOMPARE(o.grownLabels, QStringList{QStringLiteral("KEY")});
        QVERIFY(o.tookOver); // the current model cannot label KEY at all
        QVERIFY2(o.message.contains(QStringLiteral("new labels: KEY")), qPrintable(o.message));
    }

    void cancelledRunKeepsThePreviousModel()
    {
        FOLIO_REQUIRE_DATA(funsdRoot());
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("p.folio"));
        QVERIFY(makeProject(project, 4));
        std::atomic<bool> cancel{true};
        ProjectRetrainConfig c = tiny(dir.filePath(QStringLiteral("m4")));
        c.currentModel = QStringLiteral("/previous/model");
        c.cancel = &cancel;
        const ProjectRetrainOutcome o = retrainFromProject(project, c);
        QVERIFY(o.cancelled);
        QVERIFY(!o.tookOver);
        QCOMPARE(o.model, QStringLiteral("/previous/model"));
        QVERIFY2(o.message.contains(QStringLiteral("previous model stays")), qPrintable(o.message));
    }

    void tooFewLabelledDocuments()
    {
        FOLIO_REQUIRE_DATA(funsdRoot());
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("p.folio"));
        QVERIFY(makeProject(project, 3));
        const ProjectRetrainOutcome o = retrainFromProject(project, tiny(dir.filePath(QStringLiteral("m5"))));
        QVERIFY(!o.ok);
        QVERIFY2(o.message.contains(QStringLiteral("at least 4")) && o.message.contains(QStringLiteral("2 held out")),
                 qPrintable(o.message));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("m5/model.safetensors"))));
    }

    // The GUI loop's snapshot (loopsnapshot.h): accepted = done pages; held-out pages chosen once there
    // are 4, remembered, replaced when one is reopened or deleted; never among the pages it trains on.
    void loopSnapshotHoldsOutPagesOnceAndKeepsThem()
    {
        FOLIO_REQUIRE_DATA(funsdRoot());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.folio"));
        QVERIFY(makeProject(path, 7));
        QString error;
        auto project = Project::open(path, &error);
        QVERIFY2(project, qPrintable(error));
        QCOMPARE(labelling::retrainEvery(*project), 0); // never set: off
        QList<qint64> ids;
        for (const ProjectDocument &d : project->documents())
            ids << d.id;
        for (int i = 0; i < 3; ++i)
            QVERIFY(project->setStatus(ids[i], DocumentStatus::Done, &error));
        LoopSnapshot s;
        QVERIFY(takeLoopSnapshot(*project, &s, &error));
        QCOMPARE(s.accepted, 3);
        QCOMPARE(s.needed, 1);
        QVERIFY2(s.waitMessage.contains(QStringLiteral("1 more accepted page(s): it needs 4")), qPrintable(s.waitMessage));
        QVERIFY(s.pages.train.empty() && s.pages.heldOut.empty());
        QVERIFY(project->setting(QString::fromLatin1(kHeldOutSetting)).isEmpty());

        QVERIFY(project->setStatus(ids[3], DocumentStatus::Done, &error));
        QVERIFY(takeLoopSnapshot(*project, &s, &error));
        QCOMPARE(s.needed, 0);
        QCOMPARE(s.heldOutIds, (QList<qint64>{ids[3], ids[2]}));
        QCOMPARE(idsOf(s.pages.train), (QList<qint64>{ids[0], ids[1]}));
        QCOMPARE(idsOf(s.pages.unlabelled), (QList<qint64>{ids[4], ids[5], ids[6]}));
        QVERIFY2(s.note.startsWith(QStringLiteral("held out 2 accepted page(s)")), qPrintable(s.note));

        // More pages accepted: the same held-out pages, no new note; the new pages train.
        QVERIFY(project->setStatus(ids[4], DocumentStatus::Done, &error));
        QVERIFY(project->setStatus(ids[5], DocumentStatus::Done, &error));
        QVERIFY(takeLoopSnapshot(*project, &s, &error));
        QCOMPARE(s.heldOutIds, (QList<qint64>{ids[3], ids[2]}));
        QCOMPARE(idsOf(s.pages.train), (QList<qint64>{ids[0], ids[1], ids[4], ids[5]}));
        QVERIFY(s.note.isEmpty());

        // A held-out page reopened, another deleted: replaced by the newest accepted pages.
        QVERIFY(project->setStatus(ids[3], DocumentStatus::InProgress, &error));
        QVERIFY(project->removeDocument(ids[2], &error));
        QVERIFY(takeLoopSnapshot(*project, &s, &error));
        QCOMPARE(s.accepted, 4);
        QCOMPARE(s.heldOutIds, (QList<qint64>{ids[5], ids[4]}));
        QCOMPARE(idsOf(s.pages.train), (QList<qint64>{ids[0], ids[1]}));
        QCOMPARE(project->setting(QString::fromLatin1(kHeldOutSetting)), QStringLiteral("%1,%2").arg(ids[5]).arg(ids[4]));
        for (const SimulationPage &p : s.pages.train)
            QVERIFY(!s.heldOutIds.contains(p.id.toLongLong()));

        // The snapshot trains: the model is scored on the held-out pages only.
        RetrainPages pages = s.pages;
        pages.unlabelled.resize(1);
        const ProjectRetrainOutcome o = retrainOnPages(pages, tiny(dir.filePath(QStringLiteral("m6"))));
        QVERIFY2(o.ok && o.tookOver, qPrintable(o.message));
        QCOMPARE(o.heldOutPages, 2);
        QCOMPARE(o.trainPages, 2);
        QCOMPARE(int(o.uncertainties.size()), 1);
        QVERIFY(o.uncertainties.front().second >= 0 && o.uncertainties.front().second <= 1);
    }

    // The GUI's worker reads through a connection of its own while the window's stays open: the
    // held-out choice it makes is stored through it and seen by the window's connection; documents
    // deleted (through a third connection) after the list was read are left out, accepted or not;
    // the pages not yet accepted come with the revision their annotations had.
    void snapshotReadOnAWorkerThread_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::newRow("sqlite") << QStringLiteral("sqlite");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
    }
    void snapshotReadOnAWorkerThread()
    {
        FOLIO_REQUIRE_DATA(funsdRoot());
        QFETCH(QString, backend);
        QTemporaryDir dir;
        QString location = dir.filePath(QStringLiteral("p.folio"));
        folio::test::PostgresServer pg;
        QString error;
        if (backend == QLatin1String("postgresql")) {
            if (!pg.start(&error)) {
                if (pg.missingBinaries())
                    FOLIO_DATA_MISSING(error);
                QFAIL(qPrintable(error));
            }
            location = pg.freshDatabase(QStringLiteral("loop"), &error);
            QVERIFY2(!location.isEmpty(), qPrintable(error));
        }
        QVERIFY(makeProject(location, 8));
        auto gui = Project::open(location, &error);
        QVERIFY2(gui, qPrintable(error));
        QList<qint64> ids;
        for (const ProjectDocument &d : gui->documents())
            ids << d.id;
        for (int i = 0; i < 6; ++i)
            QVERIFY(gui->setStatus(ids[i], DocumentStatus::Done, &error));
        Annotations edited;
        QVERIFY(gui->loadAnnotations(ids[7], &edited, &error));
        edited.entities.front().label = QStringLiteral("HEADER");
        QVERIFY(gui->saveAnnotations(ids[7], edited, &error));
        ProjectDocument before;
        QVERIFY(gui->documentInfo(ids[7], &before, &error));
        QVERIFY(before.annotationRevision > 0);

        LoopSnapshot s;
        int deleted = 0;
        QVERIFY2(snapshotOnAnotherThread(location, &s, &error,
                                         [&] {
                                             QString e;
                                             auto other = Project::open(location, &e);
                                             if (other && other->removeDocument(ids[0], &e) && other->removeDocument(ids[6], &e))
                                                 deleted = 2;
                                             else
                                                 qWarning().noquote() << e;
                                         }),
                 qPrintable(error));
        QCOMPARE(deleted, 2);
        QCOMPARE(s.accepted, 5); // six done, one deleted while it read
        QCOMPARE(s.heldOutIds, (QList<qint64>{ids[5], ids[4]}));
        QCOMPARE(idsOf(s.pages.train), (QList<qint64>{ids[1], ids[2], ids[3]}));
        QCOMPARE(idsOf(s.pages.unlabelled), (QList<qint64>{ids[7]}));
        QCOMPARE(s.revisions.value(ids[7], -1), before.annotationRevision);
        QCOMPARE(gui->setting(QString::fromLatin1(kHeldOutSetting)), QStringLiteral("%1,%2").arg(ids[5]).arg(ids[4]));
        QCOMPARE(gui->documentCount(), 6);

        // A read-only reader chooses but stores nothing; an unreachable project says which.
        QVERIFY2(gui->setSetting(QString::fromLatin1(kHeldOutSetting), QStringLiteral(""), &error), qPrintable(error));
        bool readOk = false;
        std::thread readOnly([&] { readOk = readLoopSnapshot(location, true, &s, &error); });
        readOnly.join();
        QVERIFY2(readOk, qPrintable(error));
        QCOMPARE(s.heldOutIds.size(), 2);
        QVERIFY(gui->setting(QString::fromLatin1(kHeldOutSetting)).isEmpty());
        const QString missing = backend == QLatin1String("sqlite") ? dir.filePath(QStringLiteral("gone.folio"))
                                                                   : location + QStringLiteral("_gone");
        QVERIFY(!readLoopSnapshot(missing, true, &s, &error));
        QVERIFY2(error.contains(QStringLiteral("gone")), qPrintable(error));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestProjectRetrain)
#include "tst_projectretrain.moc"
