// An action's result comes to the front (issue 50, ui/resultpresenter.h): the dock that shows it is
// opened and raised above the docks tabbed with it, and its message is the status bar's.
//  - on a plain QMainWindow: a tabbed dock behind another, a closed dock, a floating dock, no dock;
//  - in Folio's window, with the real actions: Generate (the shipped drafter) brings the Questions
//    dock from behind Annotations, Extract Fields the Fields dock, Suggest Labels (the shipped
//    funsd-layout tagger) the Annotations dock, Show Attention the closed Attention dock — each with
//    the message its dock shows repeated in the status bar.
#include "tests/common/testdata.h"
#include "tests/ui/qseditortestdata.h"
#include "ui/attention/attentionpanel.h"
#include "ui/fields/fieldscontroller.h"
#include "ui/mainwindow.h"
#include "ui/qs/qscontroller.h"
#include "ui/resultpresenter.h"
#include "ui/workers/qsworker.h"

#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace folio;

namespace {

QDockWidget *addDock(QMainWindow &w, const QString &name, Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(name, &w);
    dock->setObjectName(name);
    dock->setWidget(new QLabel(name + QStringLiteral(" content"), dock));
    w.addDockWidget(area, dock);
    return dock;
}

// Waits for `action` to be presented (the spy may already hold it).
bool waitPresented(QSignalSpy &spy, const QString &action, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    for (;;) {
        for (const QList<QVariant> &args : std::as_const(spy))
            if (args.at(0).toString() == action)
                return true;
        if (t.elapsed() > timeoutMs)
            return false;
        spy.wait(200);
    }
}

QDockWidget *dockNamed(QMainWindow &w, const char *name)
{
    return w.findChild<QDockWidget *>(QLatin1String(name));
}

} // namespace

class TestResultPresenter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void raisesTheDockAndRepeatsTheMessage()
    {
        QMainWindow w;
        w.setCentralWidget(new QLabel(QStringLiteral("page"), &w));
        QDockWidget *annotations = addDock(w, QStringLiteral("annotations"), Qt::RightDockWidgetArea);
        QDockWidget *questions = addDock(w, QStringLiteral("questions"), Qt::RightDockWidgetArea);
        QDockWidget *fields = addDock(w, QStringLiteral("fields"), Qt::RightDockWidgetArea);
        QDockWidget *attention = addDock(w, QStringLiteral("attention"), Qt::BottomDockWidgetArea);
        w.tabifyDockWidget(annotations, questions);
        w.tabifyDockWidget(annotations, fields);
        attention->hide();
        w.resize(900, 600);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        annotations->raise();
        QTRY_VERIFY(ResultPresenter::isInFront(annotations));
        QVERIFY(!ResultPresenter::isInFront(questions)); // a tab behind Annotations
        QVERIFY(!ResultPresenter::isInFront(attention)); // closed
        QVERIFY(!ResultPresenter::isInFront(nullptr));

        ResultPresenter results(&w);
        QSignalSpy presented(&results, &ResultPresenter::presented);
        const QString message = QStringLiteral("19 suggestion(s) added; accept with A, reject with R.");
        results.present(QStringLiteral("generate"), questions, message);
        QTRY_VERIFY(ResultPresenter::isInFront(questions));
        QVERIFY(!ResultPresenter::isInFront(annotations));
        QCOMPARE(w.statusBar()->currentMessage(), message);
        QCOMPARE(presented.count(), 1);
        QCOMPARE(presented.first().at(0).toString(), QStringLiteral("generate"));
        QCOMPARE(presented.first().at(1).toString(), QStringLiteral("questions"));
        QCOMPARE(presented.first().at(2).toString(), message);
        QCOMPARE(results.lastAction(), QStringLiteral("generate"));
        QCOMPARE(results.lastDock(), QStringLiteral("questions"));
        QCOMPARE(results.lastMessage(), message);

        // A closed dock is opened where it was.
        results.present(QStringLiteral("attention"), attention, QStringLiteral("Attention: layer avg"));
        QTRY_VERIFY(ResultPresenter::isInFront(attention));
        QVERIFY(ResultPresenter::isInFront(questions)); // another area: still in view
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Attention: layer avg"));

        // A floating dock comes up too.
        fields->setFloating(true);
        results.present(QStringLiteral("extract"), fields, QStringLiteral("3 field answers"));
        QTRY_VERIFY(ResultPresenter::isInFront(fields));

        // No dock: the message only; an empty message leaves the status bar as it is.
        results.present(QStringLiteral("train"), nullptr, QStringLiteral("Training finished"));
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Training finished"));
        QCOMPARE(results.lastDock(), QString());
        results.present(QStringLiteral("suggest"), annotations, QString());
        QTRY_VERIFY(ResultPresenter::isInFront(annotations));
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Training finished"));
        QCOMPARE(presented.count(), 5);
    }

    // Folio's window: each action, run for real, brings its own dock to the front.
    void eachActionBringsItsDock()
    {
        if (QsWorker::shippedCheckpoint().isEmpty())
            FOLIO_DATA_MISSING(QStringLiteral("the shipped drafter resources/models/qs-drafter is not there"));
        const QString tagger = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout");
        FOLIO_REQUIRE_DATA(tagger + QStringLiteral("/config.json"));
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(test::openIn(w, test::makeProject(dir)));
        QVERIFY(w.results());
        QSignalSpy presented(w.results(), &ResultPresenter::presented);
        connect(w.results(), &ResultPresenter::presented, this, [](const QString &action, const QString &dock, const QString &message) {
            qInfo("presented %s -> %s: %s", qPrintable(action), qPrintable(dock), qPrintable(message));
        });
        QDockWidget *annotations = dockNamed(w, "annotationsDock");
        QDockWidget *questions = dockNamed(w, "qsDock");
        QDockWidget *fields = dockNamed(w, "fieldsDock");
        QDockWidget *attention = dockNamed(w, "attentionDock");
        QVERIFY(annotations && questions && fields && attention);

        // Generate: the Questions dock is a tab behind Annotations when the run starts.
        annotations->raise();
        QTRY_VERIFY(ResultPresenter::isInFront(annotations));
        QVERIFY(!ResultPresenter::isInFront(questions));
        w.qs()->setMaxLength(40);
        QVERIFY(w.qs()->generate());
        QVERIFY2(waitPresented(presented, QStringLiteral("generate"), 180000), qPrintable(w.qs()->lastMessage()));
        QTRY_VERIFY(ResultPresenter::isInFront(questions));
        QVERIFY(!ResultPresenter::isInFront(annotations));
        QVERIFY2(w.qs()->lastMessage().contains(QLatin1String("suggestion")), qPrintable(w.qs()->lastMessage()));
        QCOMPARE(w.statusBar()->currentMessage(), w.qs()->lastMessage());

        // Extract Fields: the Fields dock, whatever the extraction said.
        annotations->raise();
        QTRY_VERIFY(!ResultPresenter::isInFront(fields));
        presented.clear();
        QVERIFY(w.fields()->extractFields());
        QVERIFY2(waitPresented(presented, QStringLiteral("extract"), 180000), qPrintable(w.fields()->lastMessage()));
        QTRY_VERIFY(ResultPresenter::isInFront(fields));
        QVERIFY(!w.fields()->lastMessage().isEmpty());
        QCOMPARE(w.statusBar()->currentMessage(), w.fields()->lastMessage());

        // Suggest Labels: back to the Annotations dock, from behind Questions.
        w.chooseModel(tagger);
        QTRY_COMPARE_WITH_TIMEOUT(w.modelDirectory(), tagger, 30000);
        questions->raise();
        QTRY_VERIFY(!ResultPresenter::isInFront(annotations));
        presented.clear();
        w.suggestLabels();
        QVERIFY2(waitPresented(presented, QStringLiteral("suggest"), 120000), qPrintable(w.statusBar()->currentMessage()));
        QTRY_VERIFY(ResultPresenter::isInFront(annotations));
        QVERIFY2(w.statusBar()->currentMessage().contains(QLatin1String("suggestions from the model")),
                 qPrintable(w.statusBar()->currentMessage()));
        QCOMPARE(w.statusBar()->currentMessage(), w.results()->lastMessage());

        // Show Attention: the Attention dock, closed before, open with what it shows.
        attention->hide();
        presented.clear();
        w.showAttention();
        QVERIFY2(waitPresented(presented, QStringLiteral("attention"), 180000), qPrintable(w.statusBar()->currentMessage()));
        QTRY_VERIFY(ResultPresenter::isInFront(attention));
        QVERIFY2(w.results()->lastMessage().startsWith(QLatin1String("Attention: ")), qPrintable(w.results()->lastMessage()));
        QCOMPARE(w.statusBar()->currentMessage(), w.results()->lastMessage());
        QCOMPARE(w.results()->lastDock(), QStringLiteral("attentionDock"));
    }
};

FOLIO_TEST_MAIN(TestResultPresenter)
#include "tst_resultpresenter.moc"
