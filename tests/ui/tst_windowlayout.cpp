// Space follows the task (issue 34): the Attention dock is closed until asked for and then gets
// room, its heatmap fills it, the side docks start wide enough to read, the layout (geometry, docks,
// splitters) is saved per user and restored, and View > Reset Layout brings the defaults back.
#include "attention/heatmaprender.h"
#include "ui/attention/attentionpanel.h"
#include "ui/mainwindow.h"
#include "ui/documents/webpagepanel.h"
#include "ui/windowlayout.h"
#include "widgets/pagecanvas.h"
#include "widgets/heatmapview.h"
#include "tests/common/testdata.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QMenuBar>
#include <QElapsedTimer>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QSplitter>
#include <QStandardPaths>
#include <QTest>

using namespace folio;

class TestWindowLayout : public QObject
{
    Q_OBJECT

    static QAction *menuAction(QMainWindow &w, const QString &menu, const QString &text)
    {
        for (QAction *top : w.menuBar()->actions()) {
            if (top->text().remove(QLatin1Char('&')) != menu || !top->menu())
                continue;
            for (QAction *a : top->menu()->actions())
                if (a->text().remove(QLatin1Char('&')) == text)
                    return a;
        }
        return nullptr;
    }

    qint64 m_coldLaunchMs = -1;

    static QDockWidget *dock(QMainWindow &w, const char *name) { return w.findChild<QDockWidget *>(QLatin1String(name)); }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("FOLIO_NO_DIALOGS", "1");
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_windowlayout"));
        QStandardPaths::setTestModeEnabled(true);
    }

    void init() { QSettings().clear(); }

    void defaultsGiveThePageAndTheSideDocksRoom()
    {
        QElapsedTimer t; // the process's first window: the web engine starts inside it
        t.start();
        MainWindow w;
        // The default docks fit the default window: it is not grown past a 1050 px screen (it was
        // 1212 px tall when the right column's two docks were sized to the whole window height).
        QCOMPARE(w.size(), QSize(1400, 900));
        w.resize(1680, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        m_coldLaunchMs = t.elapsed();
        QTest::qWait(50);
        QVERIFY(!dock(w, "attentionDock")->isVisible());
        for (const char *name : {"documentsDock", "structureDock", "annotationsDock"})
            QVERIFY2(dock(w, name)->isVisible(), name);
        // Questions and Fields share the Annotations tab group: each is as wide as the column.
        for (const char *name : {"annotationsDock", "fieldsDock", "qsDock"}) {
            QDockWidget *d = dock(w, name);
            QVERIFY2(d, name);
            d->raise();
            QTest::qWait(20);
            QVERIFY2(d->width() >= MainWindow::kSideDockWidth - 10,
                     qPrintable(QStringLiteral("%1 is %2 px wide").arg(QLatin1String(name)).arg(d->width())));
        }
        // It fits a 1680 x 1050 screen (taskbar and title bar included): no dock's minimum height
        // pushes the window past it.
        QStringList minima;
        for (QDockWidget *d : w.findChildren<QDockWidget *>())
            minima << QStringLiteral("%1 %2").arg(d->objectName()).arg(d->minimumSizeHint().height());
        QVERIFY2(w.minimumSizeHint().height() <= 980,
                 qPrintable(QStringLiteral("window minimum %1 px: %2").arg(w.minimumSizeHint().height()).arg(minima.join(QStringLiteral(", ")))));
        // The page keeps most of the window.
        QVERIFY2(w.centralWidget()->width() >= w.width() / 2, qPrintable(QString::number(w.centralWidget()->width())));
        QVERIFY(w.centralWidget()->height() >= w.height() * 3 / 4);
    }

    void attentionOpensWithRoomAndTheHeatmapFillsIt()
    {
        MainWindow w;
        w.resize(1680, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAction *toggle = menuAction(w, QStringLiteral("View"), QStringLiteral("Attention"));
        QVERIFY(toggle);
        toggle->trigger();
        QTest::qWait(50);
        QDockWidget *attention = dock(w, "attentionDock");
        QVERIFY(attention->isVisible());
        QVERIFY2(attention->height() >= w.height() * 2 / 5, qPrintable(QString::number(attention->height())));
        auto *panel = w.findChild<AttentionPanel *>(QStringLiteral("attentionPanel"));
        QVERIFY(panel);
        HeatmapView *heat = panel->heatmap();
        QVERIFY2(heat->width() >= attention->width() * 9 / 10, qPrintable(QString::number(heat->width())));
        QVERIFY(heat->height() >= attention->height() / 2);
        // A 40 x 40 matrix in that view uses its width, not a square in the corner.
        AttentionMatrixView m;
        m.rows = m.cols = 40;
        m.values.assign(1600, 0.5f);
        const HeatmapLayout l = HeatmapLayout::compute(QRectF(heat->rect()), m);
        QVERIFY2(l.grid.width() >= heat->width() * 3 / 4, qPrintable(QStringLiteral("grid %1 of %2 px").arg(l.grid.width()).arg(heat->width())));
        QVERIFY(l.grid.height() >= heat->height() * 3 / 4);
        // ... but a cell is never more than 4:1.
        const HeatmapLayout strip = HeatmapLayout::compute(QRectF(0, 0, 3000, 200), m);
        QVERIFY(strip.grid.width() / 40 <= 4.01 * strip.grid.height() / 40);
        // Clicking it on hides it again; it can float as its own window.
        QVERIFY(attention->features() & QDockWidget::DockWidgetFloatable);
        toggle->trigger();
        QVERIFY(!attention->isVisible());
    }

    void showAttentionOnTheSampleFormFillsTheDock()
    {
        // The real thing: the shipped tagger traced on the OCRed sample form, heatmap in the dock.
        const QString model = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading");
        MainWindow w;
        w.resize(1680, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTemporaryDir dir;
        QVERIFY(w.openProject(dir.filePath(QStringLiteral("attention.folio"))));
        QSignalSpy shown(&w, &MainWindow::documentShown);
        w.openFile(QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png"));
        QVERIFY(shown.wait(60000));
        w.setModelDirectory(model);
        auto *panel = w.findChild<AttentionPanel *>(QStringLiteral("attentionPanel"));
        QSignalSpy finished(panel, &AttentionPanel::runFinished);
        w.showAttention();
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(panel->statusText()));
        QTest::qWait(100);
        QDockWidget *attention = dock(w, "attentionDock");
        QVERIFY(attention->isVisible());
        QVERIFY2(attention->height() >= w.height() * 2 / 5, qPrintable(QString::number(attention->height())));
        HeatmapView *heat = panel->heatmap();
        QVERIFY(heat->matrix().rows > 10);
        const HeatmapLayout l = HeatmapLayout::compute(QRectF(heat->rect()), heat->matrix());
        QVERIFY2(l.grid.width() >= heat->width() * 3 / 4 || l.grid.height() >= heat->height() * 3 / 4,
                 qPrintable(QStringLiteral("grid %1 x %2 in %3 x %4").arg(l.grid.width()).arg(l.grid.height()).arg(heat->width()).arg(heat->height())));
        QDir().mkpath(QStringLiteral(FOLIO_BINARY_DIR "/screenshots"));
        QVERIFY(w.grab().save(QStringLiteral(FOLIO_BINARY_DIR "/screenshots/attention-dock.png")));
    }

    void launchAndFirstPageTimes()
    {
        // Launch to a usable window: the process's first one (web engine starting) and a second,
        // then Open to the first page drawn for the two samples: the form through OCR (worker
        // process), the product page rendered with its DOM snapshot.
        QElapsedTimer t;
        t.start();
        MainWindow w;
        w.resize(1680, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const qint64 launchMs = t.elapsed();
        QTemporaryDir dir;
        QVERIFY(w.openProject(dir.filePath(QStringLiteral("times.folio"))));
        auto *web = w.findChild<WebPagePanel *>();
        QVERIFY(web);
        QStringList report{QStringLiteral("first window %1 ms, second window %2 ms").arg(m_coldLaunchMs).arg(launchMs)};
        for (const char *name : {"sample-form.png", "product-page.html"}) {
            const QString path = QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/") + QLatin1String(name);
            QSignalSpy shown(&w, &MainWindow::documentShown);
            QSignalSpy rendered(web, &WebPagePanel::rendered);
            t.restart();
            w.openFile(path);
            QVERIFY2(shown.wait(60000), name);
            if (path.endsWith(QLatin1String(".html")))
                QVERIFY(!rendered.isEmpty() || rendered.wait(60000));
            else
                w.findChild<PageCanvas *>(QStringLiteral("pageCanvas"))->repaint();
            report << QStringLiteral("%1 %2 ms").arg(QLatin1String(name)).arg(t.elapsed());
        }
        qInfo("launch and open times: %s", qPrintable(report.join(QStringLiteral(", "))));
        // With a web page's DOM panel in the Structure dock, the window still fits the screen.
        QVERIFY2(w.minimumSizeHint().height() <= 980, qPrintable(QString::number(w.minimumSizeHint().height())));
        QVERIFY2(m_coldLaunchMs < 10000 && launchMs < 5000, qPrintable(report.join(QStringLiteral(", "))));
    }

    void layoutIsSavedAndRestoredAndReset()
    {
        QList<int> splitterSizes;
        QString splitterKey;
        int documentsWidth = 0;
        {
            MainWindow w;
            w.resize(1500, 950);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            dock(w, "structureDock")->hide();
            dock(w, "attentionDock")->show();
            w.resizeDocks({dock(w, "documentsDock")}, {333}, Qt::Horizontal);
            QTest::qWait(50);
            documentsWidth = dock(w, "documentsDock")->width();
            // A splitter inside a dock: the Questions dock's tree above its detail pane.
            dock(w, "qsDock")->raise();
            QTest::qWait(20);
            QSplitter *split = dock(w, "qsDock")->findChild<QSplitter *>();
            QVERIFY(split && split->isVisible());
            split->setSizes({150, 350});
            QTest::qWait(20);
            splitterSizes = split->sizes();
            splitterKey = windowlayout::splitterKey(split, &w);
            w.close(); // saves
        }
        QVERIFY(QSettings().contains(QStringLiteral("mainWindow/splitters/") + splitterKey));
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            dock(w, "qsDock")->raise();
            QTest::qWait(50);
            // (The geometry is restored too, but the offscreen platform's 800 x 600 screen clamps it.)
            QVERIFY(!QSettings().value(QStringLiteral("mainWindow/geometry")).toByteArray().isEmpty());
            QVERIFY(!dock(w, "structureDock")->isVisible());
            QVERIFY(dock(w, "attentionDock")->isVisible());
            QVERIFY2(qAbs(dock(w, "documentsDock")->width() - documentsWidth) <= 2,
                     qPrintable(QString::number(dock(w, "documentsDock")->width())));
            QSplitter *split = nullptr;
            for (QSplitter *s : w.findChildren<QSplitter *>())
                if (windowlayout::splitterKey(s, &w) == splitterKey)
                    split = s;
            QVERIFY(split);
            QCOMPARE(split->sizes(), splitterSizes);

            // View > Reset Layout: the defaults again.
            QAction *reset = menuAction(w, QStringLiteral("View"), QStringLiteral("Reset Layout"));
            QVERIFY(reset);
            reset->trigger();
            QTest::qWait(50);
            QVERIFY(dock(w, "structureDock")->isVisible());
            QVERIFY(!dock(w, "attentionDock")->isVisible());
            QVERIFY(dock(w, "documentsDock")->width() < documentsWidth);
            QVERIFY(split->sizes() != splitterSizes);
        }
        // A state saved by an older layout version is not restored (the Attention dock was open then).
        QSettings().setValue(QStringLiteral("mainWindow/layoutVersion"), windowlayout::kStateVersion - 1);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(dock(w, "structureDock")->isVisible());
        QVERIFY(!dock(w, "attentionDock")->isVisible());
    }
};

FOLIO_TEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
