// The What If and Why This Label docks in the main window (issue 48, ui/explain/explaindocks.h):
// closed at start and in the View menu; on a FUNSD form with the shipped funsd-layout, edit mode
// puts the scan page's canvas into Tool::EditBoxes, a moved box's diff reaches the page (its
// before -> after chips), the session's document stays as it was, and closing the dock goes back
// to the document; the Why dock explains the word clicked on the page while it is open.
#include "ui/annotation/annotationsession.h"
#include "ui/explain/whatifpanel.h"
#include "ui/explain/whylabelpanel.h"
#include "ui/mainwindow.h"
#include "widgets/pagecanvas.h"
#include "tests/common/testdata.h"

#include "document/formats/funsd.h"

#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

using namespace folio;

class TestExplainDocks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void docksClosedAndInTheViewMenu();
    void whatIfAndWhyOnTheScanPage();
    void inspectorDocksOpenAsTabsOfAttention();
};

void TestExplainDocks::initTestCase()
{
    qputenv("FOLIO_NO_DIALOGS", "1");
    QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_explaindocks"));
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QFile::remove(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/default.folio"));
}

void TestExplainDocks::docksClosedAndInTheViewMenu()
{
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QStringList viewItems;
    for (QAction *menu : w.menuBar()->actions())
        if (menu->menu() && menu->text().remove(QLatin1Char('&')) == QStringLiteral("View"))
            for (QAction *a : menu->menu()->actions())
                viewItems << a->text();
    for (const char *name : {"whatIfDock", "whyLabelDock"}) {
        auto *dock = w.findChild<QDockWidget *>(QLatin1String(name));
        QVERIFY2(dock, name);
        QVERIFY2(!dock->isVisible(), name);
        QVERIFY2(viewItems.contains(dock->toggleViewAction()->text()), qPrintable(viewItems.join(QLatin1Char(','))));
    }
}

// Attention, Head Grid, Image Patches, What If and Why This Label share one tab group under the page:
// opened together they do not stand side by side (which made the window wider than a 1680-pixel
// screen), after the default layout and after View > Reset Layout alike.
void TestExplainDocks::inspectorDocksOpenAsTabsOfAttention()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QStringList names{QStringLiteral("attentionDock"), QStringLiteral("headGridDock"), QStringLiteral("imagePatchDock"),
                            QStringLiteral("whatIfDock"), QStringLiteral("whyLabelDock")};
    for (int round = 0; round < 2; ++round) {
        if (round == 1) {
            for (const QString &n : names)
                w.findChild<QDockWidget *>(n)->hide();
            QAction *reset = nullptr;
            for (QAction *a : w.findChildren<QAction *>())
                if (a->objectName() == QLatin1String("resetLayoutAction") || a->text().remove(QLatin1Char('&')) == QLatin1String("Reset Layout"))
                    reset = a;
            QVERIFY2(reset, "no Reset Layout action");
            reset->trigger();
        }
        auto *attention = w.findChild<QDockWidget *>(names.first());
        QVERIFY(attention);
        for (const QString &n : names) {
            auto *dock = w.findChild<QDockWidget *>(n);
            QVERIFY2(dock, qPrintable(n));
            dock->show();
            dock->raise();
        }
        QApplication::processEvents();
        const QList<QDockWidget *> tabs = w.tabifiedDockWidgets(attention);
        for (const QString &n : names.mid(1))
            QVERIFY2(tabs.contains(w.findChild<QDockWidget *>(n)),
                     qPrintable(QStringLiteral("round %1: %2 is not a tab of Attention").arg(round).arg(n)));
        QVERIFY2(w.width() <= 1400, qPrintable(QString::number(w.width())));
    }
}

void TestExplainDocks::whatIfAndWhyOnTheScanPage()
{
    const QString funsdRoot = folio::test::sharedPath(QStringLiteral("data/funsd/dataset"));
    FOLIO_REQUIRE_DATA(funsdRoot);
    const QStringList files = folio::funsdSplitFiles(funsdRoot, QStringLiteral("test"));
    QVERIFY(!files.isEmpty());
    QTemporaryDir dir;
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(dir.filePath(QStringLiteral("w.folio"))));
    QSignalSpy shown(&w, &MainWindow::documentShown);
    w.openFile(files.first());
    QVERIFY(shown.wait(20000));
    w.setModelDirectory(QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout"));
    const Document original = w.session()->document();

    auto *dock = w.findChild<QDockWidget *>(QStringLiteral("whatIfDock"));
    auto *whatIf = w.findChild<WhatIfPanel *>();
    auto *canvas = w.findChild<PageCanvas *>(QStringLiteral("pageCanvas"));
    QVERIFY(dock && whatIf && canvas);
    dock->toggleViewAction()->trigger();
    QVERIFY(dock->isVisible());
    QSignalSpy ready(whatIf, &WhatIfPanel::labelsReady);
    whatIf->setEditing(true);
    QCOMPARE(canvas->tool(), PageCanvas::Tool::EditBoxes);
    QVERIFY(ready.wait(60000));
    // Moves until one changes a label (each a new edit on top of the last).
    QSignalSpy diff(whatIf, &WhatIfPanel::diffShown);
    for (int word = 3; word < 40 && whatIf->changes().empty(); word += 6) {
        QVERIFY(whatIf->requestBox(word, original.words[std::size_t(word)].box.translated(220, 150)));
        QVERIFY(QTest::qWaitFor([&] { return whatIf->hasDiff() && !whatIf->isRunning(); }, 60000));
    }
    QVERIFY2(!whatIf->changes().empty(), "no move changed a label");
    const int changed = whatIf->changes().front().word;
    QVERIFY2(canvas->wordLabel(changed).contains(QStringLiteral(" → ")), qPrintable(canvas->wordLabel(changed)));
    QVERIFY(!canvas->editedBoxes().isEmpty());
    // The session's document is untouched.
    for (std::size_t i = 0; i < original.words.size(); ++i)
        QCOMPARE(w.session()->document().words[i].box, original.words[i].box);

    // Closing the dock: back to the document, the plain tool, the entity labels back.
    dock->toggleViewAction()->trigger();
    QVERIFY(!dock->isVisible());
    QVERIFY(whatIf->edits().empty());
    QVERIFY(!whatIf->isEditing());
    QCOMPARE(canvas->tool(), PageCanvas::Tool::Select);
    QVERIFY(canvas->editedBoxes().isEmpty());
    QVERIFY(!canvas->wordLabel(changed).contains(QStringLiteral(" → ")));

    // Why This Label follows the clicked word while it is open, and only then.
    auto *whyDock = w.findChild<QDockWidget *>(QStringLiteral("whyLabelDock"));
    auto *why = w.findChild<WhyLabelPanel *>();
    QVERIFY(whyDock && why);
    Q_EMIT canvas->boxClicked(5, Qt::NoModifier);
    QCOMPARE(why->word(), -1);
    whyDock->toggleViewAction()->trigger();
    QVERIFY(whyDock->isVisible());
    why->setIgSteps(0);
    QSignalSpy finished(why, &WhyLabelPanel::finished);
    Q_EMIT canvas->boxClicked(5, Qt::NoModifier);
    QCOMPARE(why->word(), 5);
    QVERIFY(finished.wait(60000));
    QVERIFY(finished.first().first().toBool());
    QVERIFY(why->table()->rowCount() > 0);
    QCOMPARE(canvas->wordRectInWidget(5).isNull(), false);
}

FOLIO_TEST_MAIN(TestExplainDocks)
#include "tst_explaindocks.moc"
