// The Sections tab's section-tree editing driven through the real widgets, offscreen: split at a
// selected word (Ctrl+Return), merge with the previous (Ctrl+Backspace), promote / demote
// (Alt+Left / Alt+Right), rename in place (F2, type, Return) - each one undo step; undo all,
// redo all; then reopen the project file and check what is stored. Plus the pure edits
// (document/sectionedit.h) on their refusals.
#include "document/project/project.h"
#include "document/qstree.h"
#include "document/sectionedit.h"
#include "ui/annotation/annotationsession.h"
#include "ui/documents/sectionspanel.h"
#include "tests/common/testdata.h"

#include <QAction>
#include <QApplication>
#include <QColor>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

using namespace folio;

namespace {

// 4 paragraphs of 5 words; sections: "Intro" (1) words 0-4, "Body" (1) 5-9 with "Detail" (2) 10-19.
Document makeDocument()
{
    Document doc;
    doc.sourcePath = QStringLiteral("report.png");
    doc.kind = SourceKind::Image;
    doc.pages.push_back(Page{QSizeF(1000, 1000), QString(), 0});
    Node root;
    root.id = QStringLiteral("root");
    doc.addNode(root, -1);
    for (int i = 0; i < 20; ++i) {
        Word w;
        w.id = QStringLiteral("w%1").arg(i);
        w.text = QStringLiteral("word%1").arg(i);
        w.box = QRectF(10 + 45 * (i % 5), 10 + 40 * (i / 5), 40, 30);
        Node n;
        n.id = w.id;
        n.kind = NodeKind::Word;
        n.text = w.text;
        w.node = doc.addNode(n, 0);
        doc.words.push_back(w);
    }
    doc.normaliseWordBoxes();
    auto add = [&](const QString &title, int level, int parent, int first, int end) {
        Section s;
        s.title = title;
        s.level = level;
        s.parent = parent;
        s.firstWord = first;
        s.endWord = end;
        if (parent >= 0)
            doc.sections[size_t(parent)].children.push_back(int(doc.sections.size()));
        doc.sections.push_back(s);
    };
    add(QStringLiteral("Intro"), 1, -1, 0, 5);
    add(QStringLiteral("Body"), 1, -1, 5, 10);
    add(QStringLiteral("Detail"), 2, 1, 10, 20);
    return doc;
}

QString outline(const Document &doc)
{
    QStringList out;
    for (const Section &s : doc.sections)
        out << QStringLiteral("%1%2[%3,%4)").arg(QString(s.level - 1, QLatin1Char('-')), s.title).arg(s.firstWord).arg(s.endWord);
    return out.join(QLatin1Char(' '));
}

} // namespace

// Document `id` of `project` opened in `session` and shown in `panel`, on screen.
static bool openInPanel(Project *project, qint64 id, AnnotationSession *session, SectionsPanel *panel)
{
    session->setProject(project);
    if (!session->openDocument(id))
        return false;
    panel->setSession(session);
    panel->setDocument(session->document());
    panel->show();
    return QTest::qWaitForWindowExposed(panel);
}

class TestSectionsEdit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pureEditsRefuseWhatDoesNotApply()
    {
        Document doc = makeDocument();
        const QString start = outline(doc);
        QVERIFY(!splitSectionAtWord(&doc, 5));   // a section's first word
        QVERIFY(!splitSectionAtWord(&doc, -1));
        QVERIFY(!splitSectionAtWord(&doc, 20));  // past the end
        QVERIFY(!mergeSectionWithPrevious(&doc, 0));
        QVERIFY(!mergeSectionWithPrevious(&doc, 3));
        QVERIFY(!changeSectionLevel(&doc, 0, +1)); // the first section has nothing to go under
        QVERIFY(!changeSectionLevel(&doc, 0, -1)); // already top level
        QVERIFY(!changeSectionLevel(&doc, 2, +1)); // two levels below "Body"
        QVERIFY(!renameSection(&doc, 0, QStringLiteral("   ")));
        QVERIFY(!renameSection(&doc, 0, QStringLiteral("Intro")));
        QVERIFY(!renameSection(&doc, 0, QString(1001, QLatin1Char('x'))));
        QCOMPARE(outline(doc), start);
        // Promoting "Detail" keeps it after "Body", now a sibling; demoting "Body" takes "Detail" along.
        QVERIFY(changeSectionLevel(&doc, 2, -1));
        QCOMPARE(outline(doc), QStringLiteral("Intro[0,5) Body[5,10) Detail[10,20)"));
        QVERIFY(changeSectionLevel(&doc, 1, +1));
        QCOMPARE(outline(doc), QStringLiteral("Intro[0,5) -Body[5,10) Detail[10,20)"));
        QCOMPARE(doc.sections[1].parent, 0);
        // Splitting a document without sections starts a top-level one.
        Document bare = makeDocument();
        bare.sections.clear();
        int fresh = -1;
        QVERIFY(splitSectionAtWord(&bare, 3, QString(), &fresh));
        QCOMPARE(outline(bare), QStringLiteral("word3 word4 word5 word6 word7 word8 word9 word10[3,20)"));
        QCOMPARE(fresh, 0);
    }

    // Colouring the sections (Show Attention, the hierarchy heatmap) is no edit: nothing renamed, no
    // undo step, the tree not refilled (each spurious rename used to copy the Document and refill).
    void coloursAreNoEdit()
    {
        QTemporaryDir dir;
        QString error;
        auto project = Project::create(dir.filePath(QStringLiteral("colours.folio")), &error);
        QVERIFY2(project, qPrintable(error));
        const qint64 id = project->addDocument(makeDocument(), Annotations(), &error);
        QVERIFY2(id >= 0, qPrintable(error));
        AnnotationSession session;
        SectionsPanel panel;
        QVERIFY(openInPanel(project.get(), id, &session, &panel));
        QTreeWidgetItem *first = panel.tree()->topLevelItem(0);
        const QString before = outline(session.document());
        panel.setSectionColors({{0, QColor(Qt::darkRed)}, {1, QColor(Qt::yellow)}, {2, QColor(Qt::blue)}});
        panel.setSectionColors({});
        QTest::qWait(50); // a queued rename would run here
        QCOMPARE(panel.tree()->topLevelItem(0), first);
        QCOMPARE(session.undoStack()->count(), 0);
        QCOMPARE(outline(session.document()), before);
    }

    void editWithKeysUndoAndReopen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sections.folio"));
        QString error;
        qint64 id = -1;
        {
            auto p = Project::create(path, &error);
            QVERIFY2(p, qPrintable(error));
            // A question whose evidence is the "Detail" section: merging it away flags the item.
            const Document doc = makeDocument();
            Annotations a;
            const QString q = qsedit::addChild(a, {}, QStringLiteral("What is in the detail?"), QStringLiteral("Words."));
            QVERIFY(qsedit::attachSection(a, doc, q, 2));
            id = p->addDocument(doc, a, &error);
            QVERIFY2(id >= 0, qPrintable(error));
        }
        auto project = Project::open(path, &error);
        QVERIFY2(project, qPrintable(error));
        AnnotationSession session;
        SectionsPanel panel;
        panel.resize(400, 500);
        QVERIFY(openInPanel(project.get(), id, &session, &panel));
        connect(&panel, &SectionsPanel::wordsPicked, &session, &AnnotationSession::setSelectedWords);
        QTreeWidget *tree = panel.tree();
        const QString start = outline(session.document());
        QCOMPARE(tree->topLevelItemCount(), 2);
        QCOMPARE(tree->topLevelItem(1)->child(0)->text(0), QStringLiteral("Detail"));
        QCOMPARE(tree->topLevelItem(1)->child(0)->text(1), QStringLiteral("10"));

        // 1. Split "Detail" at word 15 (selected on the page), by key.
        tree->setFocus();
        session.setSelectedWords({QStringLiteral("w15"), QStringLiteral("w16")});
        QTest::keyClick(tree, Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(outline(session.document()),
                 QStringLiteral("Intro[0,5) Body[5,10) -Detail[10,15) -word15 word16 word17 word18 word19[15,20)"));
        QCOMPARE(panel.currentSection(), 3);
        QCOMPARE(tree->topLevelItem(1)->childCount(), 2);

        // 2. Rename it in place: F2, type, Return.
        QTest::keyClick(tree, Qt::Key_F2);
        auto *editor = tree->findChild<QLineEdit *>();
        QVERIFY(editor);
        editor->selectAll();
        QTest::keyClicks(editor, QStringLiteral("Results"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(session.document().sections[3].title, QStringLiteral("Results"));
        QCOMPARE(tree->topLevelItem(1)->child(1)->text(0), QStringLiteral("Results"));

        // 3. Promote "Results" (Alt+Left): a top-level section after "Body".
        panel.setCurrentSection(3);
        tree->setFocus();
        QTest::keyClick(tree, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(outline(session.document()), QStringLiteral("Intro[0,5) Body[5,10) -Detail[10,15) Results[15,20)"));
        QCOMPARE(tree->topLevelItemCount(), 3);

        // 4. Demote "Body" (Alt+Right): under "Intro", taking "Detail" along.
        panel.setCurrentSection(1);
        QTest::keyClick(tree, Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(outline(session.document()), QStringLiteral("Intro[0,5) -Body[5,10) --Detail[10,15) Results[15,20)"));

        // 5. Merge "Detail" into "Body" (Ctrl+Backspace), with the toolbar's action this time.
        panel.setCurrentSection(2);
        panel.findChild<QAction *>(QStringLiteral("sectionMerge"))->trigger();
        QCOMPARE(outline(session.document()), QStringLiteral("Intro[0,5) -Body[5,15) Results[15,20)"));
        QCOMPARE(panel.currentSection(), 1);
        QVERIFY(session.annotations().qsRoots.front().evidenceMissing);

        // Refusals change nothing and push nothing: demote "Body" two levels below "Intro".
        const int steps = session.undoStack()->count();
        QVERIFY(!panel.changeCurrentLevel(+1));
        QCOMPARE(session.undoStack()->count(), steps);
        QCOMPARE(steps, 5);

        // Every step is on disk as it happens.
        {
            auto again = Project::open(path, &error, Project::Mode::ReadOnly);
            QVERIFY2(again, qPrintable(error));
            Document stored;
            Annotations ann;
            QVERIFY2(again->loadDocument(id, &stored, &ann, &error), qPrintable(error));
            QCOMPARE(outline(stored), outline(session.document()));
        }

        // Undo all (Ctrl+Z is the main window's; the stack is the same), redo all.
        const QString edited = outline(session.document());
        while (session.undoStack()->canUndo())
            session.undoStack()->undo();
        QCOMPARE(outline(session.document()), start);
        QCOMPARE(tree->topLevelItem(1)->child(0)->text(0), QStringLiteral("Detail"));
        QVERIFY(!session.annotations().qsRoots.front().evidenceMissing); // the section is back
        while (session.undoStack()->canRedo())
            session.undoStack()->redo();
        QCOMPARE(outline(session.document()), edited);

        // Reopen the project: the edited tree, parents and children included.
        session.setProject(nullptr);
        project.reset();
        auto reopened = Project::open(path, &error);
        QVERIFY2(reopened, qPrintable(error));
        Document stored;
        Annotations ann;
        QVERIFY2(reopened->loadDocument(id, &stored, &ann, &error), qPrintable(error));
        QCOMPARE(outline(stored), edited);
        QCOMPARE(stored.sections[1].parent, 0);
        QCOMPARE(stored.sections[0].children, std::vector<int>({1}));
    }
};

FOLIO_TEST_MAIN(TestSectionsEdit)
#include "tst_sectionsedit.moc"
