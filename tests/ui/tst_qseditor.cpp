// The question-summary hierarchy editor (issue 14) driven through the real main window: a
// hierarchy built by keyboard and drop, undone and redone; evidence attached from the page and
// the Sections tab and highlighted there; suggestions from the shipped model accepted, rejected,
// edited and kept by a second run; re-OCR flags; reopening the project; 500 items; kill -9 while
// editing; screenshots on a real PDF and a real HTML manual.
#include "document/formats/datasetlimits.h"
#include "document/project/project.h"
#include "document/qstree.h"
#include "tests/common/testdata.h"
#include "ui/annotationsession.h"
#include "ui/commands/qscommands.h"
#include "ui/mainwindow.h"
#include "ui/projectservice.h"
#include "ui/qscontroller.h"
#include "ui/qspanel.h"
#include "ui/qstreemodel.h"
#include "ui/qsworker.h"
#include "ui/scanpanel.h"
#include "ui/sectionspanel.h"
#include "ui/webpagepanel.h"
#include "widgets/pagecanvas.h"

#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QMimeData>
#include <QProcess>
#include <QProgressBar>
#include <QTabWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>
#include <QTreeWidget>
#include <QWebEngineScript>
#include "ui/webpage.h"
#include <QUndoStack>
#include <QtTest>

#include <csignal>

using namespace folio;

namespace {

// Two pages, 12 words "w0".."w11" (6 per page) in two sections: "Budget" (heading node, words
// 0..5) and "Staff" (words 6..11).
Document sampleDocument()
{
    Document d;
    d.sourcePath = QStringLiteral("report.png");
    d.kind = SourceKind::Image;
    d.title = QStringLiteral("Report");
    for (int p = 0; p < 2; ++p) {
        Page page;
        page.size = QSizeF(600, 400);
        d.pages.push_back(page);
    }
    Node heading;
    heading.id = QStringLiteral("n0");
    d.nodes.push_back(heading);
    const QStringList texts = {"Budget", "rose", "by", "ten", "per", "cent", "Staff", "numbers", "stayed", "the", "same", "overall"};
    for (int i = 0; i < texts.size(); ++i) {
        Word w;
        w.id = QStringLiteral("w%1").arg(i);
        w.text = texts[i];
        w.page = i / 6;
        w.box = QRectF(40 + (i % 6) * 90, 60, 80, 30);
        d.words.push_back(w);
    }
    d.normaliseWordBoxes();
    for (const QString &title : {QStringLiteral("Budget"), QStringLiteral("Staff")}) {
        Section s;
        s.title = title;
        s.level = 1;
        s.firstWord = int(d.sections.size()) * 6;
        s.endWord = s.firstWord + 6;
        s.node = d.sections.empty() ? 0 : -1; // only the first has a heading node
        d.sections.push_back(s);
    }
    return d;
}

QString makeProject(const QTemporaryDir &dir, const QString &name = QStringLiteral("qs.folio"))
{
    const QString path = dir.filePath(name);
    QString error;
    auto p = Project::create(path, &error);
    if (!p || p->addDocument(sampleDocument(), Annotations(), &error) < 0)
        qWarning("%s", qPrintable(error));
    return path;
}

QStringList numbered(const Annotations &a)
{
    QStringList out;
    for (const QsItem &it : qsItems(a.qsRoots)) out << it.number + QLatin1Char(' ') + it.node->question;
    return out;
}

bool openIn(MainWindow &w, const QString &projectPath)
{
    QSignalSpy shown(&w, &MainWindow::documentShown);
    if (!w.openProject(projectPath))
        return false;
    if (w.session()->currentDocumentId() < 0 && !shown.wait(10000))
        return w.session()->openDocumentAt(0);
    return w.session()->currentDocumentId() >= 0;
}

// Types `text` into the cell editor that the last add opened and commits it with Return.
void typeIntoEditor(const QString &text)
{
    QWidget *editor = QApplication::focusWidget();
    QVERIFY(qobject_cast<QLineEdit *>(editor));
    QTest::keyClicks(editor, text);
    QTest::keyClick(editor, Qt::Key_Return);
    QCoreApplication::processEvents(); // the edit is applied queued, after the editor closed
    QCoreApplication::processEvents();
}

} // namespace

class TestQsEditor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void keyboardAndDropThenUndoAll()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openIn(w, makeProject(dir)));
        QsPanel *panel = w.qs()->panel();
        w.qs()->dock()->raise();
        QTreeView *view = panel->view();
        view->setFocus();
        AnnotationSession *s = w.session();

        QTest::keyClick(view, Qt::Key_Insert);               // 1
        typeIntoEditor(QStringLiteral("What happened to the budget?"));
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Insert);               // 2
        typeIntoEditor(QStringLiteral("Who is on the staff?"));
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Tab);                  // 2 -> 1.1
        QCOMPARE(numbered(s->annotations()), QStringList({"1 What happened to the budget?", "1.1 Who is on the staff?"}));
        QTest::keyClick(view, Qt::Key_Insert, Qt::ShiftModifier); // child 1.1.1
        typeIntoEditor(QStringLiteral("How many?"));
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Backtab);             // 1.1.1 -> 1.2
        QTest::keyClick(view, Qt::Key_Up, Qt::AltModifier);  // 1.2 -> 1.1
        QCOMPARE(numbered(s->annotations()),
                 QStringList({"1 What happened to the budget?", "1.1 How many?", "1.2 Who is on the staff?"}));
        // The summary of the current item, edited in place (Shift+F2).
        QTest::keyClick(view, Qt::Key_F2, Qt::ShiftModifier);
        typeIntoEditor(QStringLiteral("Nobody left."));
        QCOMPARE(qsItems(s->annotations().qsRoots)[1].node->summary, QStringLiteral("Nobody left."));
        // The numbers are what the tree shows.
        QsTreeModel *model = panel->model();
        QCOMPARE(model->indexOf(qsItems(s->annotations().qsRoots)[2].node->id).data().toString(),
                 QStringLiteral("1.2  Who is on the staff?"));

        // Drag "How many?" to the top level, after item 1 (the view's drop goes through the same call).
        const QString howMany = qsItems(s->annotations().qsRoots)[1].node->id;
        std::unique_ptr<QMimeData> mime(model->mimeData({model->indexOf(howMany)}));
        QVERIFY(model->canDropMimeData(mime.get(), Qt::MoveAction, 1, 0, {}));
        QVERIFY(!model->canDropMimeData(mime.get(), Qt::MoveAction, 0, 0, model->indexOf(howMany))); // into itself
        QVERIFY(model->dropMimeData(mime.get(), Qt::MoveAction, 1, 0, {}));
        QTRY_COMPARE(numbered(s->annotations()),
                     QStringList({"1 What happened to the budget?", "1.1 Who is on the staff?", "2 How many?"}));
        QCOMPARE(panel->currentId(), howMany);
        // Delete removes the item (with its children).
        QTest::keyClick(view, Qt::Key_Delete);
        QCOMPARE(numbered(s->annotations()), QStringList({"1 What happened to the budget?", "1.1 Who is on the staff?"}));
        const std::vector<QsNode> finalTree = s->annotations().qsRoots;

        // Undo it all (Ctrl+Z in the window), then redo it all.
        const int steps = s->undoStack()->count();
        QVERIFY2(steps >= 10, qPrintable(QString::number(steps)));
        w.activateWindow();
        for (int i = 0; i < steps; ++i)
            QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(s->annotations().qsRoots.empty());
        QCOMPARE(model->itemCount(), 0);
        Annotations stored;
        QString error;
        QVERIFY(w.project()->loadAnnotations(s->currentDocumentId(), &stored, &error));
        QVERIFY(stored.qsRoots.empty());
        for (int i = 0; i < steps; ++i)
            s->undoStack()->redo();
        QCOMPARE(numbered(s->annotations()), numbered(Annotations{{}, {}, {}, {}, finalTree}));
        QVERIFY(w.project()->loadAnnotations(s->currentDocumentId(), &stored, &error));
        QCOMPARE(numbered(stored), numbered(s->annotations()));
    }

    void evidenceIsAttachedAndHighlighted()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openIn(w, makeProject(dir)));
        AnnotationSession *s = w.session();
        QsPanel *panel = w.qs()->panel();
        w.qs()->dock()->raise();
        QTreeView *view = panel->view();
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Insert);
        typeIntoEditor(QStringLiteral("How did the budget change?"));
        const QString q1 = panel->currentId();
        // E with nothing selected: a message, nothing attached.
        view->setFocus();
        QTest::keyClick(view, Qt::Key_E);
        QVERIFY(panel->message().contains(QLatin1String("Select words")));
        // Select "rose by" on the page canvas (click + shift-click), then E.
        auto *canvas = w.findChild<PageCanvas *>(QStringLiteral("pageCanvas"));
        QVERIFY(canvas && canvas->isVisible());
        QCOMPARE(canvas->page(), 0);
        QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->wordRectInWidget(1).center().toPoint());
        QTest::mouseClick(canvas, Qt::LeftButton, Qt::ShiftModifier, canvas->wordRectInWidget(2).center().toPoint());
        QCOMPARE(s->selectedWords(), QStringList({"w1", "w2"}));
        view->setFocus();
        QTest::keyClick(view, Qt::Key_E);
        const QsNode *n = qsFind(s->annotations().qsRoots, q1);
        QCOMPARE(int(n->evidenceSpans.size()), 1);
        QCOMPARE(n->evidenceSpans[0].text, QStringLiteral("rose by"));
        QList<int> lit = canvas->highlightedWords();
        std::sort(lit.begin(), lit.end());
        QCOMPARE(lit, QList<int>({1, 2}));
        // The highlight is painted: the band's green shows in the rendered canvas.
        const QImage shot = canvas->grab().toImage();
        const QColor inBand = shot.pixelColor(canvas->wordRectInWidget(1).center().toPoint() + QPoint(0, 8));
        QVERIFY2(inBand.green() > inBand.red() + 20, qPrintable(inBand.name()));

        // Pick the "Staff" section in the Sections tab, then E: the section itself is the evidence.
        auto *sectionTree = w.findChild<SectionsPanel *>()->tree();
        sectionTree->setCurrentItem(sectionTree->topLevelItem(1));
        QCOMPARE(s->selectedWords().size(), 6);
        view->setFocus();
        QTest::keyClick(view, Qt::Key_E);
        n = qsFind(s->annotations().qsRoots, q1);
        QCOMPARE(n->evidenceSections, QStringList({"word:w6"}));
        QCOMPARE(w.qs()->highlightedSections(), QList<int>({1}));
        QVERIFY(sectionTree->topLevelItem(1)->background(0).style() != Qt::NoBrush);
        QVERIFY(sectionTree->topLevelItem(0)->background(0).style() == Qt::NoBrush);
        // The span's words and the section's (on page 2) are highlighted.
        lit = canvas->highlightedWords();
        QCOMPARE(lit.size(), 8);
        // Another item without evidence clears the highlight; coming back restores it.
        QTest::keyClick(view, Qt::Key_Insert);
        typeIntoEditor(QStringLiteral("Anything else?"));
        QVERIFY(canvas->highlightedWords().isEmpty());
        QVERIFY(sectionTree->topLevelItem(1)->background(0).style() == Qt::NoBrush);
        panel->setCurrentId(q1);
        QCOMPARE(canvas->highlightedWords().size(), 8);
        // Evidence only on page 2: selecting the item shows that page.
        QTest::keyClick(view, Qt::Key_Insert);
        typeIntoEditor(QStringLiteral("Who stayed?"));
        const QString onSecondPage = panel->currentId();
        s->setSelectedWords({QStringLiteral("w8")});
        view->setFocus();
        QTest::keyClick(view, Qt::Key_E);
        w.findChild<ScanPanel *>()->showPage(0);
        panel->setCurrentId(q1);
        panel->setCurrentId(onSecondPage);
        QCOMPARE(canvas->page(), 1);
        QCOMPARE(canvas->highlightedWords(), QList<int>({8}));
        panel->setCurrentId(q1);
        // The overlay script for a rendered page has one box per evidence run.
        const QString js = QsController::webOverlayScript(s->document(), {1, 2, 7});
        QVERIFY(js.contains(QLatin1String("__folio_qs_evidence")));

        // A re-OCR that replaces the second section's words: the item is flagged (icon + tooltip), not dropped.
        Document updated = s->document();
        for (int i = 6; i < 12; ++i) updated.words[size_t(i)].id = QStringLiteral("r%1").arg(i);
        QVERIFY(w.projects()->applyRegionOcr(s->currentDocumentId(), updated, 0));
        n = qsFind(s->annotations().qsRoots, q1);
        QVERIFY(n && n->evidenceMissing);
        const QModelIndex flagged = panel->model()->indexOf(q1);
        QVERIFY(!flagged.data(Qt::DecorationRole).isNull());
        QVERIFY(flagged.data(Qt::ToolTipRole).toString().contains(QLatin1String("no longer exists")));
        Annotations stored;
        QString error;
        QVERIFY(w.project()->loadAnnotations(s->currentDocumentId(), &stored, &error));
        QVERIFY(qsFind(stored.qsRoots, q1)->evidenceMissing);
        s->undoStack()->undo(); // the re-OCR: the words are back, so is the evidence
        QVERIFY(!qsFind(s->annotations().qsRoots, q1)->evidenceMissing);
        QVERIFY(panel->model()->indexOf(q1).data(Qt::DecorationRole).isNull());
    }

    void suggestionsAcceptRejectAndRegenerate()
    {
        const QString shipped = QsWorker::shippedCheckpoint();
        if (shipped.isEmpty())
            QSKIP("the shipped model resources/models/qmsum-qs is not there");
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openIn(w, makeProject(dir)));
        AnnotationSession *s = w.session();
        QsController *qs = w.qs();
        QsPanel *panel = qs->panel();
        qs->dock()->raise();
        qs->setMaxLength(40);
        // A user item first: generation never touches it.
        QVERIFY(pushQsEdit(s, QStringLiteral("add"), [](Annotations &a) { return !qsedit::addChild(a, {}, QStringLiteral("Mine?")).isEmpty(); }));
        QSignalSpy finished(qs, &QsController::generationFinished);
        QSignalSpy progress(qs->worker(), &QsWorker::progress);
        QElapsedTimer t;
        t.start();
        QVERIFY(qs->generate());
        QVERIFY(qs->progressBar()->isVisible());
        QVERIFY(!qs->generate()); // one run at a time
        QVERIFY(finished.wait(180000));
        qInfo("generation of the 12-word page with %s (max 40 tokens): %lld ms", qPrintable(shipped), t.elapsed());
        QVERIFY2(finished.first().first().toInt() > 0, qPrintable(qs->lastMessage()));
        QVERIFY(progress.count() > 0);
        QVERIFY(!qs->progressBar()->isVisible());
        std::vector<QsItem> items = qsItems(s->annotations().qsRoots);
        QCOMPARE(items[0].node->question, QStringLiteral("Mine?"));
        QCOMPARE(items[0].node->source.kind, AnnotationSource::User);
        QVERIFY(items.size() >= 2);
        QCOMPARE(items[1].node->state, ReviewState::Suggested);
        QCOMPARE(items[1].node->source.checkpoint, QStringLiteral("qmsum-qs"));
        QVERIFY(panel->model()->indexOf(items[1].node->id, QsTreeModel::StateColumn).data().toString().startsWith(QLatin1String("suggested")));

        // Accept the first suggestion with A; the undo step count grows by one.
        QTreeView *view = panel->view();
        const QString accepted = items[1].node->id;
        panel->setCurrentId(accepted);
        view->setFocus();
        QTest::keyClick(view, Qt::Key_A);
        QCOMPARE(qsFind(s->annotations().qsRoots, accepted)->state, ReviewState::Accepted);
        const QString acceptedQuestion = qsFind(s->annotations().qsRoots, accepted)->question;
        // The small model often asks one question; two more suggestions arrive the way a run merges them.
        QVERIFY(pushQsEdit(s, QStringLiteral("more"), [](Annotations &a) {
            QsNode x, y;
            x.question = QStringLiteral("Extra one?");
            y.question = QStringLiteral("Extra two?");
            return qsedit::mergeGenerated(a, {}, {x, y}, {AnnotationSource::Model, QStringLiteral("qmsum-qs")}) == 2;
        }));
        QVERIFY(qsFind(s->annotations().qsRoots, accepted)); // the accepted one stayed
        items = qsItems(s->annotations().qsRoots);
        const QString rejected = items[items.size() - 2].node->id;
        const QString edited = items.back().node->id;
        QCOMPARE(qsFind(s->annotations().qsRoots, rejected)->question, QStringLiteral("Extra one?"));
        panel->setCurrentId(rejected);
        view->setFocus();
        QTest::keyClick(view, Qt::Key_R);
        QCOMPARE(qsFind(s->annotations().qsRoots, rejected)->state, ReviewState::Rejected);
        QVERIFY(panel->model()->indexOf(rejected).data(Qt::FontRole).value<QFont>().strikeOut());
        panel->setCurrentId(edited);
        view->setFocus();
        QTest::keyClick(view, Qt::Key_F2);
        typeIntoEditor(QStringLiteral("Extra, corrected?"));
        QCOMPARE(qsFind(s->annotations().qsRoots, edited)->state, ReviewState::Edited);
        QCOMPARE(panel->model()->indexOf(edited, QsTreeModel::StateColumn).data().toString(), QStringLiteral("edited"));

        // A second real run: the user item, the accepted, rejected and edited ones stay as they are;
        // the rejected question is not offered again.
        finished.clear();
        QVERIFY(qs->generate());
        QVERIFY(finished.wait(180000));
        items = qsItems(s->annotations().qsRoots);
        QCOMPARE(items[0].node->question, QStringLiteral("Mine?"));
        const QsNode *a = qsFind(s->annotations().qsRoots, accepted);
        QVERIFY(a);
        QCOMPARE(a->state, ReviewState::Accepted);
        QCOMPARE(a->question, acceptedQuestion);
        QCOMPARE(qsFind(s->annotations().qsRoots, rejected)->state, ReviewState::Rejected);
        QCOMPARE(qsFind(s->annotations().qsRoots, edited)->question, QStringLiteral("Extra, corrected?"));
        int same = 0;
        for (const QsItem &it : items) same += it.node->question.simplified().toCaseFolded() == acceptedQuestion.simplified().toCaseFolded();
        QCOMPARE(same, 1); // an accepted question is not suggested twice either

        // G regenerates below the user's item and keeps everything else.
        const QStringList before = numbered(s->annotations());
        panel->setCurrentId(items[0].node->id);
        view->setFocus();
        finished.clear();
        QTest::keyClick(view, Qt::Key_G);
        QVERIFY(finished.wait(180000));
        const std::vector<QsItem> after = qsItems(s->annotations().qsRoots);
        QStringList outside;
        for (const QsItem &it : after)
            if (!it.number.startsWith(QLatin1String("1.")) && it.number != QLatin1String("1")) outside << it.number + QLatin1Char(' ') + it.node->question;
        QStringList outsideBefore;
        for (const QString &line : before)
            if (!line.startsWith(QLatin1String("1 ")) && !line.startsWith(QLatin1String("1."))) outsideBefore << line;
        QCOMPARE(outside, outsideBefore);
        const int below = finished.first().first().toInt();
        QVERIFY(below >= 0);
        QCOMPARE(int(qsFind(s->annotations().qsRoots, items[0].node->id)->children.size()) > 0, below > 0);
        qInfo("items before regenerating below: %d; regenerate below added %d", int(items.size()), below);

        // Cancel: the hierarchy stays as it was.
        const QStringList beforeCancel = numbered(s->annotations());
        finished.clear();
        qs->setMaxLength(400);
        QVERIFY(qs->generate());
        qs->cancel();
        QVERIFY(finished.wait(180000));
        if (finished.first().first().toInt() == -1)
            QCOMPARE(numbered(s->annotations()), beforeCancel);
    }

    // A folder that is no QS checkpoint, and no document: refused with a message, nothing changes.
    void generationRefusesBadInput()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QsController *qs = w.qs();
        QVERIFY(!qs->generate()); // no document open
        QVERIFY(qs->lastMessage().contains(QLatin1String("Open a document")));
        QVERIFY(openIn(w, makeProject(dir)));
        QDir(dir.path()).mkdir(QStringLiteral("notamodel"));
        QFile junk(dir.filePath(QStringLiteral("notamodel/config.json")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("{\"model_type\": 12");
        junk.close();
        qs->setCheckpointDir(dir.filePath(QStringLiteral("notamodel")));
        QCOMPARE(w.project()->setting(QStringLiteral("qs_model")), dir.filePath(QStringLiteral("notamodel"))); // kept with the project
        QVERIFY(pushQsEdit(w.session(), QStringLiteral("add"), [](Annotations &a) { return !qsedit::addChild(a, {}, QStringLiteral("Mine?")).isEmpty(); }));
        const QStringList before = numbered(w.session()->annotations());
        QSignalSpy finished(qs, &QsController::generationFinished);
        QVERIFY(qs->generate());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().first().toInt(), -1);
        QVERIFY2(qs->lastMessage().contains(QLatin1String("notamodel")), qPrintable(qs->lastMessage()));
        QCOMPARE(numbered(w.session()->annotations()), before);
        QVERIFY(!qs->progressBar()->isVisible());
    }

    // Shift+A accepts every suggestion in one undoable step.
    void acceptAllByKey()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openIn(w, makeProject(dir)));
        AnnotationSession *s = w.session();
        QsPanel *panel = w.qs()->panel();
        w.qs()->dock()->raise();
        QVERIFY(pushQsEdit(s, QStringLiteral("run"), [](Annotations &a) {
            std::vector<QsNode> g(3);
            g[0].question = QStringLiteral("One?");
            g[1].question = QStringLiteral("Two?");
            g[2].question = QStringLiteral("Three?");
            g[2].children.resize(1);
            g[2].children[0].question = QStringLiteral("Three and a half?");
            return qsedit::mergeGenerated(a, {}, g, {AnnotationSource::Model, QStringLiteral("m")}) == 4;
        }));
        panel->setCurrentId(qsItems(s->annotations().qsRoots)[0].node->id);
        panel->view()->setFocus();
        const int steps = s->undoStack()->count();
        QTest::keyClick(panel->view(), Qt::Key_A, Qt::ShiftModifier);
        for (const QsItem &it : qsItems(s->annotations().qsRoots))
            QCOMPARE(it.node->state, ReviewState::Accepted);
        QCOMPARE(s->undoStack()->count(), steps + 1);
        s->undoStack()->undo();
        for (const QsItem &it : qsItems(s->annotations().qsRoots))
            QCOMPARE(it.node->state, ReviewState::Suggested);
    }

    // What a run reads: the whole document, or below an item with evidence only that evidence.
    void generationInput()
    {
        const Document d = sampleDocument();
        Annotations a;
        const QString q = qsedit::addChild(a, {}, QStringLiteral("Staff?"));
        const QString bare = qsedit::addChild(a, {}, QStringLiteral("Bare?"));
        QVERIFY(qsedit::attachSection(a, d, q, 1));
        QCOMPARE(qsWorkerInput(d, a, {}).text().split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts).size(), 12);
        QCOMPARE(qsWorkerInput(d, a, bare).text(), qsWorkerInput(d, a, {}).text());
        const pipeline::QsInput below = qsWorkerInput(d, a, q);
        QCOMPARE(below.text().simplified(), QStringLiteral("Staff numbers stayed the same overall"));
        QCOMPARE(below.sections.front().title, QStringLiteral("Staff?"));
    }

    void survivesReopeningTheProject()
    {
        QTemporaryDir dir;
        const QString path = makeProject(dir);
        QStringList expected;
        QString id;
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(openIn(w, path));
            AnnotationSession *s = w.session();
            QsPanel *panel = w.qs()->panel();
            w.qs()->dock()->raise();
            panel->view()->setFocus();
            QTest::keyClick(panel->view(), Qt::Key_Insert);
            typeIntoEditor(QStringLiteral("Kept?"));
            id = panel->currentId();
            s->setSelectedWords({QStringLiteral("w3")});
            panel->view()->setFocus();
            QTest::keyClick(panel->view(), Qt::Key_E);
            panel->rootSummaryEdit()->setText(QStringLiteral("A report on money and people."));
            QVERIFY(panel->setRootSummary(panel->rootSummaryEdit()->text()));
            expected = numbered(s->annotations());
        }
        MainWindow again;
        again.show();
        QVERIFY(openIn(again, path));
        QCOMPARE(numbered(again.session()->annotations()), expected);
        QCOMPARE(again.session()->annotations().qsSummary, QStringLiteral("A report on money and people."));
        const QsNode *n = qsFind(again.session()->annotations().qsRoots, id);
        QVERIFY(n);
        QCOMPARE(n->evidenceSpans.front().firstWord, QStringLiteral("w3"));
        QCOMPARE(again.qs()->panel()->model()->itemCount(), 1);
        QCOMPARE(again.qs()->panel()->rootSummaryEdit()->text(), QStringLiteral("A report on money and people."));
    }

    // 500 items: opening, a keyboard edit and its undo stay well under a second each.
    void fiveHundredItemsStayFluid()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QVERIFY(openIn(w, makeProject(dir)));
        AnnotationSession *s = w.session();
        QsPanel *panel = w.qs()->panel();
        QElapsedTimer t;
        t.start();
        QVERIFY(pushQsEdit(s, QStringLiteral("many"), [](Annotations &a) {
            for (int i = 0; i < 100; ++i) {
                QsNode top;
                top.id = QStringLiteral("q%1").arg(i * 5 + 1);
                top.question = QStringLiteral("Question %1?").arg(i);
                for (int k = 0; k < 4; ++k) {
                    QsNode c;
                    c.id = QStringLiteral("q%1").arg(i * 5 + 2 + k);
                    c.question = QStringLiteral("Follow-up %1.%2?").arg(i).arg(k);
                    c.evidenceSections << QStringLiteral("word:w6"); // every item has evidence to check after each edit
                    c.evidenceSpans.push_back({QStringLiteral("w1"), QStringLiteral("w3"), QStringLiteral("rose by ten")});
                    top.children.push_back(c);
                }
                a.qsRoots.push_back(top);
            }
            return true;
        }));
        const qint64 build = t.elapsed();
        QCOMPARE(panel->model()->itemCount(), 500);
        panel->setCurrentId(QStringLiteral("q250"));
        panel->view()->setFocus();
        t.restart();
        QTest::keyClick(panel->view(), Qt::Key_Tab);
        const qint64 demote = t.elapsed();
        t.restart();
        s->undoStack()->undo();
        const qint64 undo = t.elapsed();
        qInfo("500 items: build+show %lld ms, demote %lld ms, undo %lld ms (loaded 2-core machine)", build, demote, undo);
        QCOMPARE(panel->currentId(), QStringLiteral("q250"));
        QVERIFY2(build < 2000 && demote < 1000 && undo < 1000, "the editor is not fluid with 500 items");
    }

    // kill -9 while the editor saves: every edit that returned is in the project.
    void killDuringEditsLosesNothingConfirmed()
    {
        QTemporaryDir dir;
        const QString path = makeProject(dir);
        QProcess helper;
        helper.start(QStringLiteral(FOLIO_QS_CRASH_HELPER), {path, QStringLiteral("100000")});
        QVERIFY(helper.waitForStarted());
        int confirmed = 0;
        QElapsedTimer t;
        t.start();
        while (confirmed < 40 && t.elapsed() < 60000) {
            helper.waitForReadyRead(1000);
            while (helper.canReadLine()) {
                const QByteArray line = helper.readLine().trimmed();
                if (line.startsWith("saved ")) confirmed = line.mid(6).toInt();
            }
        }
        QVERIFY2(confirmed >= 40, helper.readAllStandardError().constData());
        ::kill(pid_t(helper.processId()), SIGKILL);
        helper.waitForFinished();
        while (helper.canReadLine()) { // lines written before the kill
            const QByteArray line = helper.readLine().trimmed();
            if (line.startsWith("saved ")) confirmed = line.mid(6).toInt();
        }
        QString error;
        auto p = Project::open(path, &error);
        QVERIFY2(p, qPrintable(error));
        Annotations a;
        QVERIFY2(p->loadAnnotations(1, &a, &error), qPrintable(error));
        int count = 0;
        qsDepth(a.qsRoots, &count);
        QVERIFY2(count >= confirmed && count <= confirmed + 1, qPrintable(QStringLiteral("%1 stored, %2 confirmed").arg(count).arg(confirmed)));
        QVERIFY(qsWithinLimits(a, &error));
    }

    // Screenshots on real documents, saved under the build folder for people to look at.
    void screenshotsOnRealDocuments_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("name");
        QTest::newRow("pdf") << QStringLiteral("/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf") << QStringLiteral("qseditor-pdf.png");
        QTest::newRow("html") << QStringLiteral("/usr/share/doc/python3/python-policy.html") << QStringLiteral("qseditor-html.png");
    }

    void screenshotsOnRealDocuments()
    {
        QFETCH(QString, file);
        QFETCH(QString, name);
        if (!QFileInfo::exists(file))
            QSKIP(qPrintable(file + QStringLiteral(" is not installed here")));
        if (QsWorker::shippedCheckpoint().isEmpty())
            QSKIP("the shipped model resources/models/qmsum-qs is not there");
        QTemporaryDir dir;
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(dir.filePath(QStringLiteral("real.folio"))));
        QSignalSpy shown(&w, &MainWindow::documentShown);
        QSignalSpy rendered(w.findChild<WebPagePanel *>(), &WebPagePanel::rendered);
        w.openFile(file);
        QVERIFY(shown.wait(180000));
        const bool html = file.endsWith(QLatin1String(".html"));
        if (html)
            QVERIFY(rendered.count() > 0 || rendered.wait(60000));
        AnnotationSession *s = w.session();
        QsController *qs = w.qs();
        qs->dock()->raise();
        qs->setMaxLength(256);
        QSignalSpy finished(qs, &QsController::generationFinished);
        QVERIFY(qs->generate());
        QVERIFY(finished.wait(300000));
        QVERIFY2(finished.first().first().toInt() > 0, qPrintable(qs->lastMessage()));
        // Accept the first suggestion, give it a section (else the first words) as evidence and show it.
        QsPanel *panel = qs->panel();
        const QString first = qsItems(s->annotations().qsRoots).front().node->id;
        panel->setCurrentId(first);
        QVERIFY(panel->acceptCurrent());
        auto *sectionTree = w.findChild<SectionsPanel *>()->tree();
        QTreeWidgetItem *section = sectionTree->topLevelItemCount() == 0 ? nullptr
                                   : sectionTree->topLevelItem(0)->childCount() > 0 ? sectionTree->topLevelItem(0)->child(0)
                                   : sectionTree->topLevelItem(std::min(1, sectionTree->topLevelItemCount() - 1));
        if (section) {
            sectionTree->setCurrentItem(section);
        } else {
            QStringList ids;
            for (size_t i = 0; i < std::min<size_t>(12, s->document().words.size()); ++i) ids << s->document().words[i].id;
            s->setSelectedWords(ids);
        }
        panel->view()->setFocus();
        QVERIFY(panel->attachEvidence());
        panel->setCurrentId(first);
        QVERIFY(!qs->highlightedWords().isEmpty());
        if (html) {
            // Text selected on the rendered page (its last paragraph) is what E attaches there; the overlay shows the evidence.
            auto *web = w.findChild<WebPagePanel *>();
            web->page()->runJavaScript(QStringLiteral("(function(){var ps=document.querySelectorAll('p'),h=ps[ps.length-1];"
                                                      "var r=document.createRange();r.selectNodeContents(h);"
                                                      "var s=window.getSelection();s.removeAllRanges();s.addRange(r);})()"),
                                       QWebEngineScript::ApplicationWorld);
            QTRY_VERIFY_WITH_TIMEOUT(!web->page()->selectedText().trimmed().isEmpty(), 10000);
            const QString selected = web->page()->selectedText().simplified();
            panel->view()->setFocus();
            QTest::keyClick(panel->view(), Qt::Key_E);
            const QsNode *n = qsFind(s->annotations().qsRoots, first);
            QVERIFY2(!n->evidenceSpans.empty(), qPrintable(panel->message()));
            QCOMPARE(n->evidenceSpans.back().text.simplified().remove(QLatin1Char(' ')), QString(selected).remove(QLatin1Char(' ')));
            int boxes = -1;
            QTRY_VERIFY_WITH_TIMEOUT((web->page()->runJavaScript(QStringLiteral("(function(){var l=document.getElementById('__folio_qs_evidence');"
                                                                                  "return l?l.children.length:0;})()"),
                                                                 QWebEngineScript::ApplicationWorld, [&](const QVariant &v) { boxes = v.toInt(); }),
                                      boxes > 0), 10000);
        }
        if (auto *tabs = w.findChild<QTabWidget *>(QStringLiteral("structureTabs")))
            tabs->setCurrentIndex(1);
        if (auto *attention = w.findChild<QDockWidget *>(QStringLiteral("attentionDock")))
            attention->hide(); // room for the Questions dock
        QTest::qWait(html ? 1500 : 300); // the page overlay is drawn by the page's own script
        const QString out = QStringLiteral(FOLIO_BINARY_DIR "/") + name;
        QVERIFY(w.grab().save(out));
        qInfo("screenshot: %s (%d sections, %d items)", qPrintable(out), int(s->document().sections.size()),
              int(qsItems(s->annotations().qsRoots).size()));
    }
};

FOLIO_TEST_MAIN(TestQsEditor)
#include "tst_qseditor.moc"
