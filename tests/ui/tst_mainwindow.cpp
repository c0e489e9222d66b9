// Drives the main window offscreen: panels exist, a document opens through the worker, bad files
// give a message, the About box lists the linked libraries, and a screenshot is saved.
#include "document/documentjson.h"
#include "ui/aboutdialog.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QListWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace folio;

class TestMainWindow : public QObject
{
    Q_OBJECT

    QString m_shots = QStringLiteral(FOLIO_BINARY_DIR "/screenshots");

    static QString writeSampleDocument(const QTemporaryDir &dir)
    {
        Document d;
        d.kind = SourceKind::Image;
        d.pages.push_back(Page{QSizeF(640, 480), QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/phototest.tif"), 0});
        Node root;
        root.id = QStringLiteral("doc");
        d.addNode(root, -1);
        const char *texts[] = {"This", "is", "a", "lot", "of", "12", "point", "text"};
        for (int i = 0; i < 8; ++i) {
            Node n;
            n.kind = NodeKind::Word;
            n.id = QStringLiteral("w%1").arg(i);
            n.text = QString::fromLatin1(texts[i]);
            n.box = QRectF(36 + 60 * i, 92, 50, 24);
            const int index = d.addNode(n, 0);
            d.words.push_back(Word{n.id, n.text, 0, n.box, {}, index, 90, false});
        }
        d.normaliseWordBoxes();
        Annotations a;
        a.entities.push_back(Entity{QStringLiteral("e0"), QStringLiteral("HEADER"), {QStringLiteral("w0"), QStringLiteral("w1")}, {}, 1.0, ReviewState::Accepted});
        const QString path = dir.filePath(QStringLiteral("sample.json"));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(documentToJson(d, &a));
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("FOLIO_NO_DIALOGS", "1");
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
        QDir().mkpath(m_shots);
    }

    void hasPanelsAndMenus()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (const char *name : {"documentsDock", "structureDock", "annotationsDock", "attentionDock"}) {
            auto *dock = w.findChild<QDockWidget *>(QLatin1String(name));
            QVERIFY2(dock, name);
            QVERIFY2(dock->isVisible(), name);
        }
        QVERIFY(w.menuBar()->actions().size() >= 3);
    }

    void opensDocumentOffTheGuiThread()
    {
        QTemporaryDir dir;
        const QString path = writeSampleDocument(dir);
        MainWindow w;
        w.show();
        QSignalSpy shown(&w, &MainWindow::documentShown);
        w.openFile(path);
        QVERIFY(shown.wait(10000));
        QCOMPARE(w.documentCount(), 1);
        QCOMPARE(int(w.currentDocument()->words.size()), 8);
        auto *tree = w.findChild<QTreeWidget *>(QStringLiteral("structureTree"));
        QCOMPARE(tree->topLevelItemCount(), 1);
        QCOMPARE(tree->topLevelItem(0)->childCount(), 8);
        auto *list = w.findChild<QListWidget *>(QStringLiteral("documentList"));
        QCOMPARE(list->count(), 1);
        // Opening the same file again selects it rather than duplicating it.
        w.openFile(path);
        QCOMPARE(w.documentCount(), 1);
        QTest::qWait(100);
        QVERIFY(w.grab().save(m_shots + QStringLiteral("/mainwindow.png")));
        w.closeCurrentDocument();
        QCOMPARE(w.documentCount(), 0);
    }

    void badFilesGiveAMessage_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown type") << QStringLiteral("notes.xyz") << QByteArray("hello") << QStringLiteral("unsupported file type");
        QTest::newRow("malformed json") << QStringLiteral("broken.json") << QByteArray("{\"format\": ") << QStringLiteral("not valid JSON");
        QTest::newRow("missing") << QStringLiteral("") << QByteArray() << QStringLiteral("no such file");
    }

    void badFilesGiveAMessage()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QString path = dir.filePath(name.isEmpty() ? QStringLiteral("absent.json") : name);
        if (!name.isEmpty()) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        }
        MainWindow w;
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        w.openFile(path);
        QVERIFY(failed.count() == 1 || failed.wait(10000));
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(message.contains(QFileInfo(path).fileName()), qPrintable(message));
        QCOMPARE(w.documentCount(), 0);
    }

    void aboutListsLinkedLibraries()
    {
        const auto versions = linkedLibraryVersions();
        QStringList names;
        for (const auto &v : versions) {
            names << v.first;
            QVERIFY2(!v.second.isEmpty(), qPrintable(v.first));
        }
        for (const char *lib : {"Qt", "LibTorch", "Tesseract", "Leptonica"})
            QVERIFY2(names.contains(QLatin1String(lib)), lib);
        for (const auto &v : versions)
            if (v.first == QLatin1String("Tesseract"))
                QVERIFY2(v.second.startsWith(QLatin1Char('5')), qPrintable(v.second));
        AboutDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(dialog.grab().save(m_shots + QStringLiteral("/about.png")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
