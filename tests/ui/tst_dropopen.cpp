// Drag and drop onto the main window (issue 50): a scan (PNG, JPEG, TIFF), a PDF, an HTML page, an
// MHTML archive and a .folio project dropped from a file manager open as File > Open does; several
// files open one after another; a file Folio does not open is refused with a status-bar message.
// The events are the ones Qt delivers for a drop (QDragEnterEvent, QDragMoveEvent, QDropEvent).
#include "document/project/project.h"
#include "ui/documents/dropopener.h"
#include "ui/documents/webpagepanel.h"
#include "ui/mainwindow.h"
#include "tests/common/testdata.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QMimeData>
#include <QPainter>
#include <QPdfWriter>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <memory>

using namespace folio;

namespace {

std::unique_ptr<QMimeData> fileDrag(const QStringList &paths)
{
    auto data = std::make_unique<QMimeData>();
    QList<QUrl> urls;
    for (const QString &p : paths)
        urls << QUrl::fromLocalFile(p);
    data->setUrls(urls);
    return data;
}

// Enter, move, drop, as a file manager's drag delivers them. Returns whether the drop was accepted.
bool dropFiles(QWidget *target, const QStringList &paths, bool *enterAccepted = nullptr, QPoint at = QPoint(-1, -1))
{
    const auto data = fileDrag(paths);
    if (at.x() < 0)
        at = target->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    if (enterAccepted)
        *enterAccepted = enter.isAccepted();
    if (!enter.isAccepted())
        return false;
    QDragMoveEvent move(at, Qt::CopyAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &move);
    QDropEvent drop(QPointF(at), Qt::CopyAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
    return drop.isAccepted();
}

// The widget Qt hands a drag at `pos` (window coordinates) to: the one under it, or the nearest
// parent that takes drops (QWidgetWindow's rule).
QWidget *dropTargetAt(QWidget *window, const QPoint &pos)
{
    QWidget *w = window->childAt(pos);
    while (w && !w->acceptDrops())
        w = w->parentWidget();
    return w ? w : window;
}

QString writePdf(const QString &path)
{
    QPdfWriter writer(path);
    writer.setResolution(150);
    QPainter painter(&writer);
    QFont font = painter.font();
    font.setPointSize(24);
    painter.setFont(font);
    painter.drawText(QPointF(150, 300), QStringLiteral("Invoice number 4711"));
    painter.drawText(QPointF(150, 500), QStringLiteral("Total amount due 120 EUR"));
    painter.end();
    return path;
}

} // namespace

class TestDropOpen : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("FOLIO_NO_DIALOGS", "1");
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_dropopen"));
        QStandardPaths::setTestModeEnabled(true);
    }

    void init()
    {
        QSettings().clear();
        QFile::remove(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/default.folio"));
    }

    void opensEachKind_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("kind");
        QTest::newRow("png") << QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png") << int(SourceKind::Image);
        QTest::newRow("jpg") << QStringLiteral("jpg") << int(SourceKind::Image); // written from the PNG below
        QTest::newRow("tiff") << QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/phototest.tif") << int(SourceKind::Image);
        QTest::newRow("pdf") << QStringLiteral("pdf") << int(SourceKind::Pdf);
        QTest::newRow("html") << QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/product-page.html") << int(SourceKind::Html);
        QTest::newRow("mhtml") << QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/webpages/walnut-lamp.mhtml") << int(SourceKind::Html);
    }

    void opensEachKind()
    {
        QFETCH(QString, file);
        QFETCH(int, kind);
        QTemporaryDir dir;
        if (file == QLatin1String("jpg")) {
            file = dir.filePath(QStringLiteral("form scan.jpg"));
            QVERIFY(QImage(QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png")).save(file, "JPG", 92));
        } else if (file == QLatin1String("pdf")) {
            file = writePdf(dir.filePath(QStringLiteral("invoice.pdf")));
        }
        QVERIFY2(QFileInfo(file).isFile(), qPrintable(file));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.acceptDrops());
        QVERIFY(w.openProject(dir.filePath(QStringLiteral("work.folio"))));
        QSignalSpy shown(&w, &MainWindow::documentShown);
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        bool entered = false;
        QVERIFY(dropFiles(&w, {file}, &entered));
        QVERIFY(entered);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() || !failed.isEmpty(), 60000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QCOMPARE(w.documentCount(), 1);
        QVERIFY(w.currentDocument());
        QCOMPARE(int(w.currentDocument()->kind), kind);
        QVERIFY2(w.windowTitle().contains(QFileInfo(w.currentDocument()->sourcePath).fileName()), qPrintable(w.windowTitle()));
    }

    // Dropped over the web page (Chromium's view takes drops itself) or over the scan: still opened.
    void opensWhatIsDroppedOnTheViews()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(dir.filePath(QStringLiteral("work.folio"))));
        QSignalSpy shown(&w, &MainWindow::documentShown);
        w.openFile(QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/product-page.html"));
        QVERIFY(shown.wait(30000));
        auto *web = w.findChild<WebPagePanel *>();
        QVERIFY(web && web->isVisible());
        QTest::qWait(500); // the page's view and its child are in place
        const QPoint overPage = web->mapTo(&w, web->rect().center());
        QWidget *target = dropTargetAt(&w, overPage);
        qInfo("a drop over the web page goes to %s", target->metaObject()->className());
        shown.clear();
        QVERIFY(dropFiles(target, {QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png")}, nullptr,
                          target->mapFrom(&w, overPage)));
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);
        QCOMPARE(w.documentCount(), 2);
        QCOMPARE(w.currentDocument()->kind, SourceKind::Image);
        // Now over the scan: the MHTML archive.
        QWidget *canvas = w.findChild<QWidget *>(QStringLiteral("pageCanvas"));
        QVERIFY(canvas && canvas->isVisible());
        const QPoint overScan = canvas->mapTo(&w, canvas->rect().center());
        target = dropTargetAt(&w, overScan);
        shown.clear();
        QVERIFY(dropFiles(target, {QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/webpages/walnut-lamp.mhtml")}, nullptr,
                          target->mapFrom(&w, overScan)));
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);
        QCOMPARE(w.documentCount(), 3);
        QCOMPARE(w.currentDocument()->kind, SourceKind::Html);
    }

    void opensADroppedProject()
    {
        QTemporaryDir dir;
        const QString projectPath = dir.filePath(QStringLiteral("dropped.folio"));
        {
            MainWindow w;
            QVERIFY(w.openProject(projectPath));
            QSignalSpy shown(&w, &MainWindow::documentShown);
            w.openFile(QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png"));
            QVERIFY(shown.wait(60000));
            w.close();
        }
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(dir.filePath(QStringLiteral("other.folio"))));
        QCOMPARE(w.documentCount(), 0);
        QSignalSpy shown(&w, &MainWindow::documentShown);
        QVERIFY(dropFiles(&w, {projectPath}));
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 30000);
        QVERIFY(w.project());
        QCOMPARE(QFileInfo(w.project()->path()).fileName(), QStringLiteral("dropped.folio"));
        QCOMPARE(w.documentCount(), 1);
    }

    void refusesWhatItCannotOpen()
    {
        QTemporaryDir dir;
        const QString notes = dir.filePath(QStringLiteral("notes.txt"));
        {
            QFile f(notes);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("not a document\n");
        }
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(dir.filePath(QStringLiteral("work.folio"))));
        auto *opener = w.findChild<DropOpener *>();
        QVERIFY(opener);
        QSignalSpy refused(opener, &DropOpener::refused);
        QVERIFY(dropFiles(&w, {notes}));
        QCOMPARE(refused.size(), 1);
        const QString message = w.statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("notes.txt")) && message.contains(QStringLiteral("Cannot open")), qPrintable(message));
        QTest::qWait(200);
        QCOMPARE(w.documentCount(), 0);

        // A drag that carries no local file (text, a web address) is not taken at all.
        QMimeData text;
        text.setText(QStringLiteral("hello"));
        QDragEnterEvent enter(w.rect().center(), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(!enter.isAccepted());
        bool entered = true;
        QVERIFY(!dropFiles(&w, QStringList(), &entered));
        QVERIFY(!entered);
    }

    void opensSeveralFilesInTurn()
    {
        QTemporaryDir dir;
        const QString notes = dir.filePath(QStringLiteral("readme.md"));
        {
            QFile f(notes);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("# notes\n");
        }
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(dir.filePath(QStringLiteral("work.folio"))));
        QVERIFY(dropFiles(&w, {QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/product-page.html"), notes,
                               QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/phototest.tif")}));
        const QString message = w.statusBar()->currentMessage(); // the refusal, shown after the first open began
        QVERIFY2(message.contains(QStringLiteral("readme.md")) && !message.contains(QStringLiteral("phototest")), qPrintable(message));
        QTRY_COMPARE_WITH_TIMEOUT(w.documentCount(), 2, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(w.currentDocument() && w.currentDocument()->kind == SourceKind::Image, 30000);
    }
};

FOLIO_TEST_MAIN(TestDropOpen)
#include "tst_dropopen.moc"
