// A real labelling session driven with keys and mouse clicks, offscreen: open a project, label
// words with a number key and a palette click, link two entities from the dock, undo, redo,
// review a model suggestion, mark done; then reopen the project file and check what is stored.
#include "document/project/project.h"
#include "ui/annotation/annotationactions.h"
#include "ui/annotation/annotationdock.h"
#include "ui/annotation/annotationpalette.h"
#include "ui/annotation/annotationsession.h"
#include "tests/common/testdata.h"
#include "tests/common/wordrowdocument.h"

#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QVBoxLayout>

using namespace folio;

static Document makeDocument(const QString &source, int words)
{
    return testing::wordRowDocument(source, words);
}

static Entity suggestion(const QString &id, const QString &word, double confidence)
{
    Entity e;
    e.id = id;
    e.label = QStringLiteral("HEADER");
    e.wordIds = {word};
    e.source.kind = AnnotationSource::Model;
    e.source.checkpoint = QStringLiteral("ckpt");
    e.confidence = confidence;
    e.state = ReviewState::Suggested;
    return e;
}

class TestAnnotationSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void labellingSession()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("gui.folio"));
        QString error;
        qint64 first = -1, second = -1;
        {
            auto p = Project::create(path, &error);
            QVERIFY2(p, qPrintable(error));
            QVERIFY(p->setLabels({QStringLiteral("QUESTION"), QStringLiteral("ANSWER"), QStringLiteral("HEADER")}, &error));
            Annotations pre;
            pre.entities.push_back(suggestion(QStringLiteral("s1"), QStringLiteral("w5"), 0.9));
            pre.entities.push_back(suggestion(QStringLiteral("s2"), QStringLiteral("w6"), 0.3));
            first = p->addDocument(makeDocument(QStringLiteral("a.png"), 8), pre, &error);
            second = p->addDocument(makeDocument(QStringLiteral("b.png"), 4), {}, &error);
            QVERIFY(first > 0 && second > 0);
        }

        auto project = Project::open(path, &error);
        QVERIFY2(project, qPrintable(error));
        QWidget window;
        AnnotationSession session;
        session.setProject(project.get());
        auto *layout = new QVBoxLayout(&window);
        auto *palette = new AnnotationPalette(&session, &window);
        auto *dock = new AnnotationDock(&session, &window);
        layout->addWidget(palette);
        layout->addWidget(dock);
        AnnotationActions actions(&session, &window);
        QSignalSpy failures(&session, &AnnotationSession::failed);
        window.resize(600, 500);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QVERIFY(session.openDocumentAt(0));
        QCOMPARE(session.currentDocumentId(), first);
        QCOMPARE(dock->entityList()->count(), 2); // the two suggestions

        // Number key 1 labels the selected words QUESTION.
        session.setSelectedWords({QStringLiteral("w1"), QStringLiteral("w0")});
        QTest::keyClick(&window, Qt::Key_1);
        QCOMPARE(session.annotations().entities.size(), size_t(3));
        const Entity question = session.annotations().entities.back();
        QCOMPARE(question.label, QStringLiteral("QUESTION"));
        QCOMPARE(question.wordIds, QStringList({QStringLiteral("w0"), QStringLiteral("w1")}));

        // A click on the palette labels the next selection ANSWER.
        session.setSelectedWords({QStringLiteral("w2")});
        auto *answerButton = palette->findChild<QPushButton *>(QStringLiteral("label_ANSWER"));
        QVERIFY(answerButton);
        QTest::mouseClick(answerButton, Qt::LeftButton);
        const Entity answer = session.annotations().entities.back();
        QCOMPARE(answer.label, QStringLiteral("ANSWER"));
        QCOMPARE(dock->entityList()->count(), 4);

        // Select question then answer in the dock (click, ctrl+click) and press L to link them.
        QListWidget *list = dock->entityList();
        auto rowOf = [&](const QString &id) {
            for (int i = 0; i < list->count(); ++i)
                if (list->item(i)->data(Qt::UserRole).toString() == id)
                    return i;
            return -1;
        };
        list->setFocus();
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(rowOf(question.id))).center());
        QCOMPARE(session.currentEntity(), question.id); // the dock drives the session
        QCOMPARE(session.selectedWords(), question.wordIds);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, Qt::ControlModifier,
                          list->visualItemRect(list->item(rowOf(answer.id))).center());
        QCOMPARE(dock->selectedEntityIds().size(), 2);
        QTest::keyClick(list, Qt::Key_L);
        QCOMPARE(session.annotations().links.size(), size_t(1));
        QCOMPARE(session.annotations().links[0].from, question.id);
        QCOMPARE(session.annotations().links[0].to, answer.id);
        QCOMPARE(dock->linkList()->count(), 1);

        // Undo removes the link, redo brings it back; both autosave.
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(session.annotations().links.size(), size_t(0));
        Annotations stored;
        QVERIFY(project->loadAnnotations(first, &stored, &error));
        QCOMPARE(stored.links.size(), size_t(0));
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(session.annotations().links.size(), size_t(1));

        // Keyboard review: U goes to the least confident suggestion, R rejects it; U, A accepts the other.
        window.setFocus();
        QTest::keyClick(&window, Qt::Key_U);
        QCOMPARE(session.currentEntity(), QStringLiteral("s2"));
        QTest::keyClick(&window, Qt::Key_R);
        QCOMPARE(session.annotations().entity(QStringLiteral("s2"))->state, ReviewState::Rejected);
        QTest::keyClick(&window, Qt::Key_U);
        QCOMPARE(session.currentEntity(), QStringLiteral("s1"));
        QTest::keyClick(&window, Qt::Key_A);
        QCOMPARE(session.annotations().entity(QStringLiteral("s1"))->state, ReviewState::Accepted);
        QVERIFY(!session.nextUncertain());

        // Word text correction, then done, then the next document.
        QVERIFY(session.editWordText(QStringLiteral("w3"), QStringLiteral("corrected")));
        QTest::keyClick(&window, Qt::Key_D, Qt::ControlModifier);
        QTest::keyClick(&window, Qt::Key_PageDown);
        QCOMPARE(session.currentDocumentId(), second);
        QTest::keyClick(&window, Qt::Key_PageUp);
        QCOMPARE(session.currentDocumentId(), first);
        QCOMPARE(failures.count(), 0);

        // Reopen the file from scratch and check what was stored.
        session.setProject(nullptr);
        project.reset();
        auto again = Project::open(path, &error);
        QVERIFY2(again, qPrintable(error));
        Document doc;
        Annotations a;
        QVERIFY(again->loadDocument(first, &doc, &a, &error));
        QCOMPARE(doc.words[3].text, QStringLiteral("corrected"));
        QVERIFY(doc.words[3].userEdited);
        QStringList summary;
        for (const Entity &e : a.entities)
            summary << QStringLiteral("%1:%2:%3").arg(e.label, e.wordIds.join(QLatin1Char(',')), reviewStateName(e.state));
        QCOMPARE(summary, QStringList({QStringLiteral("HEADER:w5:accepted"), QStringLiteral("HEADER:w6:rejected"),
                                       QStringLiteral("QUESTION:w0,w1:accepted"), QStringLiteral("ANSWER:w2:accepted")}));
        QCOMPARE(a.links.size(), size_t(1));
        QCOMPARE(a.entity(a.links[0].from)->label, QStringLiteral("QUESTION"));
        QCOMPARE(a.entity(a.links[0].to)->label, QStringLiteral("ANSWER"));
        ProjectDocument info;
        QVERIFY(again->documentInfo(first, &info, &error));
        QCOMPARE(info.status, DocumentStatus::Done);
        QVERIFY(again->documentInfo(second, &info, &error));
        QCOMPARE(info.status, DocumentStatus::ToDo);
    }

    // Link suggestions (issue 16) arrive with a model run, show italic in the dock, A accepts one
    // (with its suggested ends), R rejects one; a second run neither revives the rejected link nor
    // duplicates the accepted one; undo restores; the project stores every step.
    void suggestedLinksReviewedFromTheDock()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("links.folio"));
        QString error;
        auto project = Project::create(path, &error);
        QVERIFY2(project, qPrintable(error));
        const qint64 id = project->addDocument(makeDocument(QStringLiteral("a.png"), 6), {}, &error);
        QVERIFY(id > 0);
        QWidget window;
        AnnotationSession session;
        session.setProject(project.get());
        auto *layout = new QVBoxLayout(&window);
        auto *dock = new AnnotationDock(&session, &window);
        layout->addWidget(dock);
        window.resize(600, 400);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(session.openDocumentAt(0));

        Annotations run;
        for (int i = 0; i < 4; ++i)
            run.entities.push_back(suggestion(QStringLiteral("m%1").arg(i), QStringLiteral("w%1").arg(i), 0.8));
        const auto link = [](const QString &lid, const QString &from, const QString &to, double confidence) {
            return Link{lid, from, to, {AnnotationSource::Model, QStringLiteral("ckpt")}, confidence, ReviewState::Suggested};
        };
        run.links = {link(QStringLiteral("l0"), QStringLiteral("m0"), QStringLiteral("m1"), 0.9),
                     link(QStringLiteral("l1"), QStringLiteral("m2"), QStringLiteral("m3"), 0.6)};
        QVERIFY(session.applyPredictions(run));
        QListWidget *links = dock->linkList();
        QCOMPARE(links->count(), 2);
        QVERIFY(links->item(0)->text().startsWith(QStringLiteral("[suggested link 90%]")));
        QVERIFY(links->item(0)->font().italic());

        links->setFocus();
        links->setCurrentRow(0);
        QTest::keyClick(links, Qt::Key_A);
        const Annotations &a = session.annotations();
        QCOMPARE(a.links[0].state, ReviewState::Accepted);
        QCOMPARE(a.entity(a.links[0].from)->state, ReviewState::Accepted); // its ends with it
        QCOMPARE(a.entity(a.links[0].to)->state, ReviewState::Accepted);
        QVERIFY(!links->item(0)->font().italic());
        links->setCurrentRow(1);
        QTest::keyClick(links, Qt::Key_R);
        QCOMPARE(session.annotations().links[1].state, ReviewState::Rejected);
        QCOMPARE(links->count(), 1); // rejected links are not listed
        Annotations stored;
        QVERIFY(project->loadAnnotations(id, &stored, &error));
        QCOMPARE(stored.links.size(), size_t(2));
        QCOMPARE(stored.links[1].state, ReviewState::Rejected);

        // The same run again: the rejected pair stays rejected, the accepted link is not doubled.
        QVERIFY(session.applyPredictions(run));
        int suggested = 0, accepted = 0, rejected = 0;
        for (const Link &l : session.annotations().links) {
            suggested += l.state == ReviewState::Suggested;
            accepted += l.state == ReviewState::Accepted;
            rejected += l.state == ReviewState::Rejected;
        }
        QCOMPARE(accepted, 1);
        QCOMPARE(rejected, 1);
        QCOMPARE(suggested, 0); // m2 -> m3 again: the pair the user rejected
        QCOMPARE(int(session.annotations().links.size()), 2);

        // Undo back to before the first run.
        for (int i = 0; i < 4; ++i)
            session.undoStack()->undo();
        QVERIFY(session.annotations().links.empty());
    }

    void mergeSplitRelabelDelete()
    {
        QTemporaryDir dir;
        QString error;
        auto p = Project::create(dir.filePath(QStringLiteral("m.folio")), &error);
        const qint64 id = p->addDocument(makeDocument(QStringLiteral("m.png"), 6), {}, &error);
        AnnotationSession s;
        s.setProject(p.get());
        QVERIFY(s.openDocument(id));
        s.setSelectedWords({QStringLiteral("w0")});
        QVERIFY(s.assignLabel(QStringLiteral("Q")));
        const QString a = s.currentEntity();
        s.setSelectedWords({QStringLiteral("w1")});
        QVERIFY(s.assignLabel(QStringLiteral("Q")));
        const QString b = s.currentEntity();
        QVERIFY(s.mergeEntities({a, b}));
        QCOMPARE(s.annotations().entities.size(), size_t(1));
        QCOMPARE(s.annotations().entities[0].wordIds, QStringList({QStringLiteral("w0"), QStringLiteral("w1")}));
        QVERIFY(s.splitEntity(a));
        QCOMPARE(s.annotations().entities.size(), size_t(2));
        QVERIFY(s.relabel(a, QStringLiteral("A")));
        QVERIFY(s.deleteEntity(a));
        QCOMPARE(s.annotations().entities.size(), size_t(1));
        // Relabelling words that already belong to another entity moves them.
        s.setSelectedWords({QStringLiteral("w1"), QStringLiteral("w2")});
        QVERIFY(s.assignLabel(QStringLiteral("H")));
        QCOMPARE(s.annotations().entities.size(), size_t(1));
        QCOMPARE(s.annotations().entities[0].label, QStringLiteral("H"));
        // Undo everything back to an empty page; the store follows.
        while (s.undoStack()->canUndo())
            s.undoStack()->undo();
        QVERIFY(s.annotations().entities.empty());
        Annotations stored;
        QVERIFY(p->loadAnnotations(id, &stored, &error));
        QVERIFY(stored.entities.empty());
        ProjectDocument info;
        QVERIFY(p->documentInfo(id, &info, &error));
        QCOMPARE(info.status, DocumentStatus::InProgress);
    }

    // A replaced document (re-OCR) is one undoable step on top of the history; rendered geometry
    // is taken without touching the history or the texts the user corrected.
    void replacedDocumentKeepsHistory()
    {
        QTemporaryDir dir;
        QString error;
        auto p = Project::create(dir.filePath(QStringLiteral("r.folio")), &error);
        QVERIFY2(p, qPrintable(error));
        const Document original = makeDocument(QStringLiteral("r.png"), 4);
        const qint64 id = p->addDocument(original, {}, &error);
        AnnotationSession session;
        session.setProject(p.get());
        QVERIFY(session.openDocument(id));
        session.setSelectedWords({QStringLiteral("w0")});
        QVERIFY(session.assignLabel(QStringLiteral("HEADER")));
        QVERIFY(session.editWordText(QStringLiteral("w1"), QStringLiteral("fixed")));

        Document reocred = session.document();
        reocred.words.pop_back();
        QSignalSpy replaced(&session, &AnnotationSession::documentReplaced);
        QVERIFY(session.replaceDocument(reocred, QStringLiteral("Re-OCR region")));
        QCOMPARE(replaced.count(), 1);
        QCOMPARE(int(session.document().words.size()), 3);
        QCOMPARE(session.undoStack()->count(), 3);
        Document stored;
        QVERIFY(p->loadDocument(id, &stored, nullptr, &error));
        QCOMPARE(int(stored.words.size()), 3);
        session.undoStack()->undo(); // the re-OCR
        QCOMPARE(int(session.document().words.size()), 4);
        QVERIFY(p->loadDocument(id, &stored, nullptr, &error));
        QCOMPARE(int(stored.words.size()), 4);
        session.undoStack()->undo(); // the text edit
        QCOMPARE(session.document().words[1].text, QStringLiteral("word1"));
        session.undoStack()->undo(); // the label
        QVERIFY(session.annotations().entities.empty());
        session.undoStack()->redo();
        session.undoStack()->redo(); // label and text edit back

        // Geometry from a renderer: boxes move, the corrected text and the history stay.
        Document rendered = original;
        rendered.pages[0].size = QSizeF(2000, 2000);
        for (Word &w : rendered.words)
            w.box.translate(0, 500);
        rendered.normaliseWordBoxes();
        QVERIFY(session.applyRenderedGeometry(rendered));
        QCOMPARE(session.document().words[2].box, rendered.words[2].box);
        QCOMPARE(session.document().words[2].norm, rendered.words[2].norm);
        QCOMPARE(session.document().words[1].text, QStringLiteral("fixed"));
        QCOMPARE(session.undoStack()->count(), 3);
        QVERIFY(p->loadDocument(id, &stored, nullptr, &error));
        QCOMPARE(stored.words[2].box, rendered.words[2].box);
        // A page of another document (or other words) is not taken.
        Document other = rendered;
        other.sourcePath = QStringLiteral("other.png");
        QVERIFY(!session.applyRenderedGeometry(other));
        Document fewer = rendered;
        fewer.words.pop_back();
        QVERIFY(!session.applyRenderedGeometry(fewer));
    }
};

FOLIO_TEST_MAIN(TestAnnotationSession)
#include "tst_annotationsession.moc"
