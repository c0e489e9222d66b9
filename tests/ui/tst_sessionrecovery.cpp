// The session state behind crash survival (issue 50, ui/sessionrecovery.h), in process: the file
// follows the window (project, document, page, docks, edits, a training run, a question being typed), a clean exit removes
// it, a crashed one is recovered into a new window (banner and status message naming what came
// back, Resume Training offered for an interrupted run), and a damaged state file is refused with
// a message naming it (not JSON, too large, another version, bad base64, a "training" that is no
// object) without recovering anything.
#include "document/project/project.h"
#include "tests/common/testdata.h"
#include "ui/annotation/annotationsession.h"
#include "ui/documents/scanpanel.h"
#include "ui/mainwindow.h"
#include "ui/commands/qscommands.h"
#include "ui/qs/qscontroller.h"
#include "ui/qs/qspanel.h"
#include "ui/qs/qstreemodel.h"
#include "document/qstree.h"
#include "ui/sessionrecovery.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QTreeView>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>

using namespace folio;

namespace {

Document pagesDocument(const QString &source, int pages, int words)
{
    Document doc;
    doc.sourcePath = source;
    doc.kind = SourceKind::Image;
    Node root;
    root.kind = NodeKind::Root;
    root.id = QStringLiteral("root");
    doc.addNode(root, -1);
    for (int p = 0; p < pages; ++p) {
        Page page;
        page.size = QSizeF(1000, 1000);
        doc.pages.push_back(page);
    }
    for (int i = 0; i < words; ++i) {
        Word w;
        w.id = QStringLiteral("w%1").arg(i);
        w.text = QStringLiteral("word%1").arg(i);
        w.page = i % pages;
        w.box = QRectF(10 + 60 * (i / pages), 10, 50, 30);
        Node n;
        n.id = w.id;
        n.kind = NodeKind::Word;
        n.text = w.text;
        w.node = doc.addNode(n, 0);
        doc.words.push_back(w);
    }
    doc.normaliseWordBoxes();
    return doc;
}

SessionState readState()
{
    SessionState s;
    QString error;
    if (!sessionstate::read(sessionstate::markerPath(), &s, &error))
        qWarning("%s", qPrintable(error.isEmpty() ? QStringLiteral("no session state") : error));
    return s;
}

} // namespace

class TestSessionRecovery : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_project;
    QList<qint64> m_ids;

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("FOLIO_NO_DIALOGS", "1");
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_sessionrecovery"));
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_project = m_dir.filePath(QStringLiteral("p.folio"));
        QString error;
        auto project = Project::create(m_project, &error);
        QVERIFY2(project, qPrintable(error));
        for (int i = 0; i < 2; ++i) {
            const qint64 id = project->addDocument(pagesDocument(m_dir.filePath(QStringLiteral("d%1.png").arg(i)), 3, 12), Annotations(), &error);
            QVERIFY2(id > 0, qPrintable(error));
            m_ids << id;
        }
    }

    void init() { QFile::remove(sessionstate::markerPath()); }

    void stateFollowsTheWindowAndACrashIsRecovered()
    {
        {
            MainWindow window;
            SessionRecovery recovery(&window);
            QVERIFY(!recovery.previousWasCrash());
            QVERIFY(!recovery.recoverIfCrashed());
            window.show();
            QVERIFY(window.openProject(m_project));
            QVERIFY(window.session()->openDocument(m_ids.at(1)));
            window.findChild<ScanPanel *>()->showPage(2);
            window.session()->setSelectedWords({QStringLiteral("w0"), QStringLiteral("w3")});
            QVERIFY(window.session()->assignLabel(QStringLiteral("QUESTION")));
            QVERIFY(window.session()->editWordText(QStringLiteral("w6"), QStringLiteral("Total")));
            window.findChild<QDockWidget *>(QStringLiteral("attentionDock"))->show();
            recovery.flush();
            // A question being typed (keys into the item editor, not committed): the state keeps it.
            QVERIFY(pushQsEdit(window.session(), QStringLiteral("Add"), [](Annotations &a) {
                return !qsedit::addChild(a, {}, QStringLiteral("Who?"), QStringLiteral("Someone.")).isEmpty();
            }));
            window.qs()->dock()->show();
            window.qs()->dock()->raise();
            QTreeView *view = window.qs()->panel()->view();
            const QModelIndex question = view->model()->index(0, QsTreeModel::QuestionColumn);
            QVERIFY(question.isValid());
            view->setCurrentIndex(question);
            view->edit(question);
            QVERIFY(QTest::qWaitFor([&] { return !view->viewport()->findChildren<QLineEdit *>().isEmpty(); }, 2000));
            QLineEdit *editor = view->viewport()->findChildren<QLineEdit *>().last();
            editor->selectAll();
            QTest::keyClicks(editor, QStringLiteral("Who pays"));
            QVERIFY(QTest::qWaitFor([] { return readState().draft.value(QStringLiteral("text")).toString() == QLatin1String("Who pays"); }, 3000));
            sessionstate::noteTrainingStarted({{QStringLiteral("kind"), QStringLiteral("folio-tagger")},
                                               {QStringLiteral("out"), m_dir.filePath(QStringLiteral("model"))},
                                               {QStringLiteral("epochs"), 4}});
            const SessionState s = readState();
            QVERIFY(!s.cleanExit);
            QCOMPARE(QFileInfo(s.project).absoluteFilePath(), QFileInfo(m_project).absoluteFilePath());
            QCOMPARE(s.document, m_ids.at(1));
            QCOMPARE(s.documentName, QStringLiteral("d1.png"));
            QCOMPARE(s.page, 2);
            QCOMPARE(s.edits, 3);
            QCOMPARE(s.lastEdit, QStringLiteral("Add")); // the undo text of the last edit
            QCOMPARE(s.draft.value(QStringLiteral("text")).toString(), QStringLiteral("Who pays"));
            QVERIFY(!s.windowState.isEmpty());
            QCOMPARE(s.training.value(QStringLiteral("epochs")).toInt(), 4);
            // Killed here: the file stays as it is (a copy, since the window's end removes it).
            QVERIFY(QFile::copy(sessionstate::markerPath(), m_dir.filePath(QStringLiteral("crashed.json"))));
        }
        QVERIFY2(!QFile::exists(sessionstate::markerPath()), "a clean end leaves no session state");
        QVERIFY(QFile::copy(m_dir.filePath(QStringLiteral("crashed.json")), sessionstate::markerPath()));

        MainWindow window;
        SessionRecovery recovery(&window);
        QVERIFY(recovery.previousWasCrash());
        window.show();
        QVERIFY(recovery.recoverIfCrashed());
        QCOMPARE(window.session()->currentDocumentId(), m_ids.at(1));
        QCOMPARE(window.findChild<ScanPanel *>()->currentPage(), 2);
        QVERIFY(!window.findChild<QDockWidget *>(QStringLiteral("attentionDock"))->isHidden());
        const QString text = recovery.recoveredMessage();
        for (const QString &part : {QStringLiteral("p.folio"), QStringLiteral("d1.png"), QStringLiteral("page 3"), QStringLiteral("window layout"),
                                    QStringLiteral("3 edit"), QStringLiteral("Resume Training"), QStringLiteral("“Who pays”")})
            QVERIFY2(text.contains(part), qPrintable(part + QStringLiteral(" missing from: ") + text));
        // Shown without a modal dialog: a banner at the top and the status bar.
        QVERIFY(recovery.banner());
        QCOMPARE(recovery.banner()->findChild<QLabel *>(QStringLiteral("recoveryMessage"))->text(), text);
        QVERIFY(recovery.banner()->findChild<QAction *>(QStringLiteral("resumeTrainingAction")));
        QCOMPARE(window.statusBar()->currentMessage(), text);
        QVERIFY(!QApplication::activeModalWidget());
        QCOMPARE(recovery.interruptedTraining().value(QStringLiteral("epochs")).toInt(), 4);
        // Recovered once: the new session's state is its own (not a crash until it is one).
        QVERIFY(!recovery.recoverIfCrashed());
        QVERIFY(!readState().cleanExit);
        QVERIFY(readState().training.isEmpty());
    }

    // Written on every edit: one atomic write (temporary file, rename) must cost little beside the
    // edit's own SQLite transaction (no fsync: under 15 ms on a loaded machine). A state with a layout and a training run, 50 times.
    void writingTheStateIsCheap()
    {
        MainWindow window;
        window.show();
        SessionState s;
        s.project = m_project;
        s.document = 1;
        s.geometry = window.saveGeometry();
        s.windowState = window.saveState();
        s.training = {{QStringLiteral("kind"), QStringLiteral("folio-tagger")}, {QStringLiteral("out"), m_dir.path()}};
        QElapsedTimer t;
        t.start();
        QString error;
        for (int i = 0; i < 50; ++i) {
            s.edits = i;
            QVERIFY2(sessionstate::write(sessionstate::markerPath(), s, &error), qPrintable(error));
        }
        const double ms = t.nsecsElapsed() / 1e6 / 50;
        qInfo("session state write: %.2f ms each (%lld bytes)", ms, QFileInfo(sessionstate::markerPath()).size());
        QVERIFY2(ms < 15, qPrintable(QString::number(ms))); // 0.3-3.7 ms on 2 loaded cores; QSaveFile with fsync was 8.7
        QCOMPARE(readState().edits, 49);
    }

    void damagedStateIsRefusedByName_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("problem");
        QTest::newRow("not json") << QByteArray("{\"version\": 1, ") << QStringLiteral("not JSON");
        QTest::newRow("array") << QByteArray("[1]") << QStringLiteral("not a JSON object");
        QTest::newRow("other version") << QByteArray("{\"version\": 9}") << QStringLiteral("version 9");
        QTest::newRow("bad base64") << QByteArray("{\"version\": 1, \"windowState\": \"%%%\"}") << QStringLiteral("base64");
        QTest::newRow("training not an object") << QByteArray("{\"version\": 1, \"training\": 3}") << QStringLiteral("\"training\"");
        QTest::newRow("page out of range") << QByteArray("{\"version\": 1, \"page\": -4}") << QStringLiteral("out of range");
        QTest::newRow("too large") << QByteArray("{\"version\": 1, \"lastEdit\": \"") + QByteArray(5 * 1024 * 1024, 'x') + QByteArray("\"}")
                                   << QStringLiteral("more than a session state holds");
    }

    void damagedStateIsRefusedByName()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, problem);
        const QString path = sessionstate::markerPath();
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        SessionState s;
        QString error;
        QVERIFY(!sessionstate::read(path, &s, &error));
        QVERIFY2(error.contains(path) && error.contains(problem), qPrintable(error));
        MainWindow window;
        SessionRecovery recovery(&window);
        QVERIFY(!recovery.previousWasCrash());
        QVERIFY(!recovery.recoverIfCrashed());
        QVERIFY(!recovery.banner());
    }
};

FOLIO_TEST_MAIN(TestSessionRecovery)
#include "tst_sessionrecovery.moc"
