// Drives the main window offscreen: panels exist, a document opens through the worker, bad files
// give a message, the last project is reopened with what was saved in it, a region re-OCR keeps
// the undo history, a rendered web page's boxes reach the session, Model > Int8 Inference runs Suggest
// Labels in int8 and is remembered, the About box lists the linked libraries, and a screenshot is saved.
#include "document/documentjson.h"
#include "document/project/project.h"
#include "ui/aboutdialog.h"
#include "ui/annotation/annotationsession.h"
#include "ui/mainwindow.h"
#include "ui/documents/ocrlanguagemenu.h"
#include "ui/sampleproject.h"
#include "ui/documents/documentopener.h"
#include "ui/team/projectservice.h"
#include "ui/documents/scanpanel.h"
#include "ui/documents/sectionspanel.h"
#include "ui/documents/webpagepanel.h"
#include "document/html/htmlloader.h"
#include "inference/formtagger/predictor.h"
#include "tests/common/testdata.h"

#include <QAction>
#include <QApplication>
#include <QSet>
#include <QDir>
#include <QDockWidget>
#include <QFont>
#include <QImage>
#include <QPainter>
#include <QStatusBar>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <QUndoStack>

#include "widgets/pagecanvas.h"

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
        QStandardPaths::setTestModeEnabled(true); // settings and the default project stay in ~/.qttest
        QDir().mkpath(m_shots);
    }

    void init()
    {
        QSettings().clear();
        QFile::remove(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/default.folio"));
    }

    void hasPanelsAndMenus()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (const char *name : {"documentsDock", "structureDock", "annotationsDock"}) {
            auto *dock = w.findChild<QDockWidget *>(QLatin1String(name));
            QVERIFY2(dock, name);
            QVERIFY2(dock->isVisible(), name);
        }
        // The Attention dock exists but stays closed until Show Attention asks for it (issue 34).
        auto *attention = w.findChild<QDockWidget *>(QStringLiteral("attentionDock"));
        QVERIFY(attention);
        QVERIFY(!attention->isVisible());
        QVERIFY(w.menuBar()->actions().size() >= 3);
    }

    void opensDocumentIntoTheProject()
    {
        QTemporaryDir dir;
        const QString path = writeSampleDocument(dir);
        const QString projectPath = dir.filePath(QStringLiteral("work.folio"));
        {
            MainWindow w;
            w.show();
            QVERIFY(w.openProject(projectPath));
            QSignalSpy shown(&w, &MainWindow::documentShown);
            w.openFile(path);
            QVERIFY(shown.wait(10000));
            QCOMPARE(w.documentCount(), 1);
            QVERIFY(w.currentDocument());
            QCOMPARE(int(w.currentDocument()->words.size()), 8);
            QCOMPARE(int(w.session()->annotations().entities.size()), 1);
            auto *tree = w.findChild<QTreeView *>(QStringLiteral("structureTree"));
            QCOMPARE(tree->model()->rowCount(), 8); // the root is not shown: its 8 words are
            // Canvas -> session -> tree: clicking a word box selects it everywhere.
            auto *canvas = w.findChild<PageCanvas *>(QStringLiteral("pageCanvas"));
            QVERIFY(canvas && canvas->isVisible());
            QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->wordRectInWidget(3).center().toPoint());
            QCOMPARE(w.session()->selectedWords(), QStringList{QStringLiteral("w3")});
            QCOMPARE(tree->currentIndex().data(Qt::DisplayRole).toString().isEmpty(), false);
            auto *list = w.findChild<QListWidget *>(QStringLiteral("documentList"));
            QCOMPARE(list->count(), 1);
            // Opening the same file again shows it rather than adding it twice.
            w.openFile(path);
            QCOMPARE(w.documentCount(), 1);
            // An edit through the session is in the project file at once.
            w.session()->setSelectedWords({QStringLiteral("w5"), QStringLiteral("w6")});
            QVERIFY(w.session()->assignLabel(QStringLiteral("ANSWER")));
            // Draw a key -> value link on the canvas: HEADER "This is" -> ANSWER "point text".
            auto *linkTool = w.findChild<QToolButton *>(QStringLiteral("linkTool"));
            QVERIFY(linkTool);
            linkTool->click();
            const QPoint from = canvas->wordRectInWidget(0).center().toPoint();
            const QPoint to = canvas->wordRectInWidget(6).center().toPoint();
            QTest::mousePress(canvas, Qt::LeftButton, {}, from);
            QMouseEvent move(QEvent::MouseMove, QPointF(to), canvas->mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton, {});
            QCoreApplication::sendEvent(canvas, &move);
            QTest::mouseRelease(canvas, Qt::LeftButton, {}, to);
            QCOMPARE(int(w.session()->annotations().links.size()), 1);
            QCOMPARE(canvas->links().size(), 1);
            linkTool->click();
            QTest::qWait(100);
            QVERIFY(w.grab().save(m_shots + QStringLiteral("/mainwindow.png")));
        }
        QString error;
        auto project = Project::open(projectPath, &error);
        QVERIFY2(project, qPrintable(error));
        QCOMPARE(project->documentCount(), 1);
        Document doc;
        Annotations annotations;
        QVERIFY(project->loadDocument(project->documents().front().id, &doc, &annotations, &error));
        QCOMPARE(int(annotations.entities.size()), 2);
        QCOMPARE(int(annotations.links.size()), 1);
    }

    void ocrLanguageMenuChoosesAndRemembers()
    {
        {
            MainWindow w;
            auto *menu = w.findChild<OcrLanguageMenu *>(QStringLiteral("ocrLanguageMenu"));
            QVERIFY(menu);
            QCOMPARE(menu->languages(), QStringLiteral("auto"));
            QCOMPARE(w.opener()->ocrLanguages(), QStringLiteral("auto"));
            // Only installed languages are offered; osd is no language.
            QVERIFY(!menu->findChild<QAction *>(QStringLiteral("ocrLanguage_osd")));
            QAction *german = menu->findChild<QAction *>(QStringLiteral("ocrLanguage_deu"));
            QVERIFY2(german, "tesseract-ocr-deu is installed by scripts/setup.sh: File > OCR Language must offer it");
            QVERIFY(german->text().contains(QStringLiteral("German")));
            german->trigger();
            QCOMPARE(w.opener()->ocrLanguages(), QStringLiteral("deu"));
            // A choice that is not installed (a settings file from another machine) falls back to Automatic.
            menu->setLanguages(QStringLiteral("xyz"));
            QCOMPARE(w.opener()->ocrLanguages(), QStringLiteral("auto"));
            menu->findChild<QAction *>(QStringLiteral("ocrLanguage_eng_deu"))->trigger();
            w.show();
            menu->popup(w.mapToGlobal(QPoint(40, 40)));
            QTest::qWait(200);
            QVERIFY(menu->grab().save(m_shots + QStringLiteral("/ocr-language-menu.png")));
            menu->hide();
        }
        MainWindow again;
        QCOMPARE(again.opener()->ocrLanguages(), QStringLiteral("eng+deu"));
    }

    void germanScanIsReadInGermanAndSaysSo()
    {
        QTemporaryDir dir;
        QImage page(1700, 1100, QImage::Format_RGB32);
        page.fill(Qt::white);
        {
            QPainter painter(&page);
            QFont font(QStringLiteral("DejaVu Sans"));
            font.setPixelSize(40);
            painter.setFont(font);
            const char *lines[] = {"Bitte füllen Sie das Formular aus und senden Sie es an die Abteilung.",
                                   "Die Kosten für die Übernachtung sind mit der Rechnung nachzuweisen.",
                                   "Name: Jürgen Weiß   Straße: Münchener Straße 12",
                                   "Ich bestätige, dass die Angaben richtig und vollständig sind."};
            int y = 150;
            for (const char *line : lines) {
                painter.drawText(100, y, QString::fromUtf8(line));
                y += 90;
            }
        }
        const QString path = dir.filePath(QStringLiteral("formular.png"));
        QVERIFY(page.save(path));
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(w.openProject(dir.filePath(QStringLiteral("de.folio"))));
        QSignalSpy shown(&w, &MainWindow::documentShown);
        w.openFile(path);
        QVERIFY(shown.wait(60000));
        const QString message = w.statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("German (deu)")), qPrintable(message));
        QStringList words;
        for (const Word &word : w.currentDocument()->words)
            words.push_back(word.text);
        QVERIFY2(words.contains(QStringLiteral("für")), qPrintable(words.join(QLatin1Char(' '))));
        QTest::qWait(200);
        QVERIFY(w.grab().save(m_shots + QStringLiteral("/german-scan.png")));
    }

    void sampleProjectOpensAFormAManualAndAPage()
    {
        QDir(sampleProjectFolder()).removeRecursively(); // a first start: nothing there yet
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QAction *action = w.findChild<QAction *>(QStringLiteral("sampleProjectAction"));
        QVERIFY(action);
        QSignalSpy shown(&w, &MainWindow::documentShown);
        action->trigger();
        QVERIFY2(QTest::qWaitFor([&] { return w.documentCount() == 3 && !w.opener()->isBusy(); }, 120000),
                 qPrintable(QStringLiteral("%1 documents").arg(w.documentCount())));
        QVERIFY(w.project());
        QVERIFY(w.project()->path().endsWith(QStringLiteral("/sample/sample.folio")));
        QSet<SourceKind> kinds;
        for (const ProjectDocument &d : w.project()->documents())
            kinds.insert(d.kind);
        QCOMPARE(kinds, (QSet<SourceKind>{SourceKind::Image, SourceKind::Pdf, SourceKind::Html}));
        // The manual is Folio's README with a text layer: many pages, its headings as sections.
        Document manual;
        Annotations none;
        QString error;
        for (const ProjectDocument &d : w.project()->documents())
            if (d.kind == SourceKind::Pdf)
                QVERIFY2(w.project()->loadDocument(d.id, &manual, &none, &error), qPrintable(error));
        QVERIFY2(manual.pages.size() >= 5, qPrintable(QString::number(manual.pages.size())));
        QVERIFY(manual.words.size() > 2000);
        QTest::qWait(300);
        QVERIFY(w.grab().save(m_shots + QStringLiteral("/sample-project.png")));
        // Again: nothing is added twice, the files stay.
        action->trigger();
        QTest::qWait(500);
        QCOMPARE(w.documentCount(), 3);
    }

    void reopensTheLastProject()
    {
        QTemporaryDir dir;
        const QString path = writeSampleDocument(dir);
        QString projectPath;
        {
            MainWindow w;
            QSignalSpy shown(&w, &MainWindow::documentShown);
            w.openFile(path); // no project open: the default project is created
            QVERIFY(shown.wait(10000));
            QVERIFY(w.project());
            projectPath = w.project()->path();
            // An edit, saved at once: the next window must find it.
            w.session()->setSelectedWords({QStringLiteral("w5"), QStringLiteral("w6")});
            QVERIFY(w.session()->assignLabel(QStringLiteral("ANSWER")));
            w.close();
        }
        QCOMPARE(ProjectService::lastProjectPath(), projectPath);
        MainWindow again;
        QVERIFY(!again.project());
        QSignalSpy shown(&again, &MainWindow::documentShown);
        again.openFile(path); // reopens the last project, finds the document in it, shows it
        QVERIFY(again.project());
        QCOMPARE(again.project()->path(), projectPath);
        QCOMPARE(again.documentCount(), 1);
        QCOMPARE(shown.count(), 1);
        const Annotations &saved = again.session()->annotations();
        QCOMPARE(int(saved.entities.size()), 2);
        QCOMPARE(saved.entities.back().label, QStringLiteral("ANSWER"));
        QCOMPARE(saved.entities.back().wordIds, (QStringList{QStringLiteral("w5"), QStringLiteral("w6")}));
    }

    // Re-OCR of a region replaces the session's document as one undoable step: Ctrl+Z undoes the
    // re-OCR, the next Ctrl+Z still undoes the label given before it.
    void regionReocrKeepsTheUndoHistory()
    {
        QTemporaryDir dir;
        const QString path = writeSampleDocument(dir);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(dir.filePath(QStringLiteral("reocr.folio"))));
        QSignalSpy shown(&w, &MainWindow::documentShown);
        w.openFile(path);
        QVERIFY(shown.wait(10000));
        AnnotationSession *session = w.session();
        const QStringList wordsBefore = [&] { QStringList ids; for (const Word &x : session->document().words) ids << x.id; return ids; }();
        session->setSelectedWords({QStringLiteral("w5"), QStringLiteral("w6")});
        QVERIFY(session->assignLabel(QStringLiteral("ANSWER")));
        QCOMPARE(int(session->annotations().entities.size()), 2);
        QCOMPARE(session->undoStack()->count(), 1);

        // The user draws a region over the first text lines of the page (real Tesseract run).
        auto *scan = w.findChild<ScanPanel *>();
        QVERIFY(scan);
        QSignalSpy replaced(session, &AnnotationSession::documentReplaced);
        QSignalSpy opened(session, &AnnotationSession::documentOpened);
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        Q_EMIT scan->regionRequested(0, QRect(0, 0, 640, 200));
        QVERIFY2(replaced.wait(60000), failed.isEmpty() ? "no result" : qPrintable(failed.first().first().toString()));
        QCOMPARE(opened.count(), 0); // not reopened
        QStringList wordsAfter;
        for (const Word &x : session->document().words)
            wordsAfter << x.id;
        QVERIFY2(wordsAfter != wordsBefore, qPrintable(wordsAfter.join(QLatin1Char(' '))));
        QCOMPARE(session->undoStack()->count(), 2);
        // What the session shows is what is stored.
        Document stored;
        QString error;
        QVERIFY(w.project()->loadDocument(session->currentDocumentId(), &stored, nullptr, &error));
        QCOMPARE(int(stored.words.size()), int(session->document().words.size()));

        w.activateWindow();
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier); // undoes the re-OCR
        QStringList undone;
        for (const Word &x : session->document().words)
            undone << x.id;
        QCOMPARE(undone, wordsBefore);
        QCOMPARE(int(session->annotations().entities.size()), 2);
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier); // still undoes the label
        QCOMPARE(int(session->annotations().entities.size()), 1);
        QCOMPARE(session->annotations().entities.front().label, QStringLiteral("HEADER"));
    }

    // A rendered web page's word and node boxes reach the session's document (and the store),
    // without clearing the undo history.
    void renderedPageBoxesReachTheSession()
    {
        QTemporaryDir dir;
        const QString page = dir.filePath(QStringLiteral("page.html"));
        {
            QFile f(page);
            QVERIFY(f.open(QIODevice::WriteOnly)
                    && f.write("<html><body style='margin:20px'><h1>Invoice</h1><p>Total due: <b>42 EUR</b></p></body></html>") > 0);
        }
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(dir.filePath(QStringLiteral("web.folio"))));
        auto *web = w.findChild<WebPagePanel *>();
        QVERIFY(web);
        QSignalSpy rendered(web, &WebPagePanel::rendered);
        QSignalSpy shown(&w, &MainWindow::documentShown);
        w.openFile(page);
        QVERIFY(shown.count() == 1 || shown.wait(20000));
        AnnotationSession *session = w.session();
        QVERIFY(!session->document().words.empty());
        session->setSelectedWords({session->document().words.front().id});
        QVERIFY(session->assignLabel(QStringLiteral("HEADER")));
        QVERIFY(rendered.count() == 1 || rendered.wait(30000));
        const Document &doc = session->document();
        QCOMPARE(int(doc.pages.size()), 1);
        QVERIFY(doc.pages[0].size.width() > 0);
        for (const Word &x : doc.words) {
            QVERIFY2(!x.box.isNull() && x.box.width() > 0, qPrintable(x.text));
            QVERIFY2(x.norm.x1 > x.norm.x0, qPrintable(x.text));
        }
        QCOMPARE(session->undoStack()->count(), 1);
        Document stored;
        QString error;
        QVERIFY(w.project()->loadDocument(session->currentDocumentId(), &stored, nullptr, &error));
        QCOMPARE(stored.words.front().box, doc.words.front().box);
    }

    // Model > Choose Model: a folder becomes the model only once it loads; a broken one is refused
    // with a message naming the file and the previous model stays selected.
    void choosingABrokenModelKeepsThePrevious()
    {
        MainWindow w;
        const QString good = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading");
        w.chooseModel(good);
        QTRY_COMPARE_WITH_TIMEOUT(w.modelDirectory(), good, 30000);
        QTemporaryDir broken;
        QFile config(broken.filePath(QStringLiteral("config.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("{\"model_type\": \"bert\"}");
        config.close();
        QSignalSpy refused(&w, &MainWindow::modelRefused);
        w.chooseModel(broken.path());
        QVERIFY(refused.wait(30000));
        QVERIFY2(refused.first().first().toString().contains(QStringLiteral("config.json")),
                 qPrintable(refused.first().first().toString()));
        QCOMPARE(w.modelDirectory(), good);
    }

    // Model > Int8 Inference (issue 35): off by default, Suggest Labels then runs the tagger in int8
    // and says so, and the choice is remembered.
    void int8SwitchRunsSuggestLabelsAndIsRemembered()
    {
        std::string why;
        if (inference::Predictor::int8Engine(&why).empty())
            FOLIO_SKIP_CASE(qPrintable(QString::fromStdString("no quantized engine: " + why)));
        QTemporaryDir dir;
        const QString path = writeSampleDocument(dir);
        {
            MainWindow w;
            w.show();
            auto *int8 = w.findChild<QAction *>(QStringLiteral("int8Action"));
            QVERIFY(int8 && int8->isCheckable());
            QVERIFY(!int8->isChecked());
            QVERIFY(w.openProject(dir.filePath(QStringLiteral("work.folio"))));
            QSignalSpy shown(&w, &MainWindow::documentShown);
            w.openFile(path);
            QVERIFY(shown.wait(10000));
            const QString model = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout");
            w.chooseModel(model);
            QTRY_COMPARE_WITH_TIMEOUT(w.modelDirectory(), model, 30000);
            int8->trigger();
            QVERIFY(int8->isChecked());
            auto *modelMenu = qobject_cast<QMenu *>(int8->parent());
            QVERIFY(modelMenu);
            modelMenu->popup(w.mapToGlobal(QPoint(120, 30)));
            QTest::qWait(200);
            QVERIFY(modelMenu->grab().save(m_shots + QStringLiteral("/model-menu-int8.png")));
            modelMenu->hide();
            w.suggestLabels();
            QTRY_VERIFY_WITH_TIMEOUT(w.statusBar()->currentMessage().contains(QStringLiteral("(int8)")), 60000);
            QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("suggestions from the model")),
                     qPrintable(w.statusBar()->currentMessage()));
            int8->trigger(); // back to float32: the next run reloads without quantizing
            QVERIFY(!int8->isChecked());
            w.suggestLabels();
            QTRY_VERIFY_WITH_TIMEOUT(w.statusBar()->currentMessage().contains(QStringLiteral("suggestions from the model")), 60000);
            QVERIFY2(!w.statusBar()->currentMessage().contains(QStringLiteral("(int8)")), qPrintable(w.statusBar()->currentMessage()));
            int8->trigger();
        }
        MainWindow again;
        QVERIFY(again.findChild<QAction *>(QStringLiteral("int8Action"))->isChecked());
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

    void sectionsPanelPicksSectionWords()
    {
        const HtmlLoadResult r = loadHtmlBytes("<html><body><h1>Alpha</h1><p>one two</p><h2>Beta</h2><p>three</p>"
                                               "<h1>Gamma</h1><p>four</p></body></html>",
                                               QStringLiteral("sections.html"));
        QVERIFY2(r.ok, qPrintable(r.error));
        SectionsPanel panel;
        panel.setDocument(r.document);
        QTreeWidget *tree = panel.tree();
        QCOMPARE(tree->topLevelItemCount(), 2);
        QCOMPARE(tree->topLevelItem(0)->childCount(), 1);
        QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("Alpha"));
        QSignalSpy picked(&panel, &SectionsPanel::wordsPicked);
        tree->setCurrentItem(tree->topLevelItem(0));
        QCOMPARE(picked.count(), 1);
        QStringList texts;
        for (const QString &id : picked.first().first().toStringList())
            texts << r.document.words[size_t(r.document.wordIndex(id))].text;
        QVERIFY2(texts.contains(QStringLiteral("three")) && texts.contains(QStringLiteral("one")), qPrintable(texts.join(QLatin1Char(' '))));
        QVERIFY2(!texts.contains(QStringLiteral("four")), qPrintable(texts.join(QLatin1Char(' '))));
        // A document without sections says so instead of showing an empty tree.
        panel.setDocument(Document());
        QVERIFY(tree->isHidden());
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

FOLIO_TEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
