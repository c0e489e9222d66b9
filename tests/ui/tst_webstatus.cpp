// The web page header tells the truth (issue 34): a saved page that rendered says so, with the
// outside requests it blocked (kinds and URLs in the tooltip, the full list on click); a page that
// did not render says why and what to do. Real QtWebEngine, offscreen.
#include "document/html/htmlloader.h"
#include "ui/documents/webloadstatus.h"
#include "ui/documents/webpage.h"
#include "ui/documents/webpagepanel.h"
#include "tests/common/testdata.h"

#include <QDialog>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QWebEngineLoadingInfo>
#include <QWebEnginePage>
#include <QWebEngineUrlRequestInfo>

using namespace folio;

class TestWebStatus : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // Loads `path` into a shown WebPagePanel and waits until the header has its verdict.
    static bool renderInPanel(WebPagePanel *web, const QString &path, QSignalSpy *failed)
    {
        const HtmlLoadResult r = loadHtmlFile(path);
        if (!r.ok)
            return false;
        QSignalSpy rendered(web, &WebPagePanel::rendered);
        web->setDocument(r.document);
        QElapsedTimer t;
        t.start();
        while (rendered.isEmpty() && failed->isEmpty() && t.elapsed() < 60000)
            QTest::qWait(50);
        if (rendered.isEmpty() && failed->isEmpty())
            return false;
        QTest::qWait(200); // a refused navigation's late loadFinished(false) must not change the verdict
        return true;
    }

private Q_SLOTS:
    void renderedPageWithBlockedRequestsSaysRendered()
    {
        // "The network": a local server that must never see a connection.
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        const QByteArray base = "http://127.0.0.1:" + QByteArray::number(server.serverPort());
        // A shop page saved as "HTML only": its CSS, images, fonts and scripts are outside the file,
        // and it redirects itself (a refused main-frame navigation: loadFinished(false) in Chromium).
        const QString path = test::writeTestFile(m_dir, QStringLiteral("shop.html"),
            "<html><head><meta http-equiv=\"refresh\" content=\"0;url=" + base + "/moved\">"
            "<link rel=\"stylesheet\" href=\"" + base + "/site.css\">"
            "<link rel=\"stylesheet\" href=\"https://cdn.example.com/theme.css\">"
            "<script src=\"" + base + "/app.js\"></script></head><body>"
            "<h1>Walnut lamp</h1><p class=price>$89.00</p>"
            "<img src=\"" + base + "/lamp.jpg\"><img src=\"" + base + "/lamp.jpg\"><img src=\"https://img.example.com/b.png\">"
            "<iframe src=\"" + base + "/ads.html\"></iframe></body></html>");
        WebPagePanel web;
        web.resize(900, 600);
        web.show();
        QSignalSpy failed(&web, &WebPagePanel::failed);
        QSignalSpy loads(web.page(), &QWebEnginePage::loadFinished);
        QVERIFY(renderInPanel(&web, path, &failed));
        // Chromium reports the refused redirect as a failed load after the page's own (true) one:
        // the old header said "the page failed to load" here.
        QVERIFY(loads.size() >= 2);
        QCOMPARE(loads.first().first().toBool(), true);
        QCOMPARE(loads.last().first().toBool(), false);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.isEmpty() ? QString() : failed.first().first().toString()));
        QVERIFY(web.isRendered());
        const WebLoadStatus &s = web.loadStatus();
        QVERIFY(!s.failed);
        auto *header = web.findChild<QLabel *>(QStringLiteral("webStatus"));
        QVERIFY(header);
        QVERIFY2(header->text().startsWith(QLatin1String("Rendered offline")), qPrintable(header->text()));
        QVERIFY(!header->text().contains(QLatin1String("fail"), Qt::CaseInsensitive));
        QVERIFY(!header->toolTip().isEmpty());
        // Blocked: the two style sheets, the script, two distinct images, the frame, the redirect
        // (Chromium may add a favicon or a preload; each URL counts once, the lamp only once).
        QVERIFY2(s.blocked >= 6, qPrintable(s.blockedLines.join(QLatin1Char('\n'))));
        QCOMPARE(s.blockedLines.filter(QStringLiteral("/lamp.jpg")).size(), 1);
        auto *button = web.findChild<QToolButton *>(QStringLiteral("blockedRequests"));
        QVERIFY(button && button->isVisible());
        QCOMPARE(button->text(), QStringLiteral("%1 outside requests blocked").arg(s.blocked));
        QVERIFY(button->toolTip().contains(base + "/site.css"));
        QVERIFY(button->toolTip().contains(QLatin1String("style sheets")));
        QVERIFY(button->toolTip().contains(QLatin1String("Web Page, complete")));
        // On click: every blocked URL in a list.
        button->click();
        auto *dialog = web.findChild<QDialog *>(QStringLiteral("blockedRequestsDialog"));
        QVERIFY(dialog && dialog->isVisible());
        auto *list = dialog->findChild<QPlainTextEdit *>(QStringLiteral("blockedRequestsList"));
        QVERIFY(list);
        for (const char *u : {"/site.css", "/lamp.jpg", "theme.css", "b.png", "/ads.html"})
            QVERIFY2(list->toPlainText().contains(QLatin1String(u)), u);
        dialog->close();
        QVERIFY(!server.hasPendingConnections());
    }

    void pageWithoutOutsideRequestsShowsNoButton()
    {
        const QString path = QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/product-page.html");
        WebPagePanel web;
        web.resize(900, 600);
        web.show();
        QSignalSpy failed(&web, &WebPagePanel::failed);
        QVERIFY(renderInPanel(&web, path, &failed));
        QVERIFY(failed.isEmpty());
        QVERIFY(web.loadStatus().text.startsWith(QLatin1String("Rendered offline")));
        QCOMPARE(web.loadStatus().blocked, 0);
        QVERIFY(!web.findChild<QToolButton *>(QStringLiteral("blockedRequests"))->isVisible());
    }

    void savedShopPageFromTheBenchmarkRenders()
    {
        // A real saved product page (Zyte benchmark): dozens of outside requests, all blocked.
        const QString dir = test::sharedPath(QStringLiteral("data/product-extraction-benchmark/dataset/html"));
        const QString path = dir + QStringLiteral("/4595f2ae9fd95efa0bc0b051a2ea76b4f2aaf94b6f355bf8d16139af17bf6e88.html.gz");
        FOLIO_REQUIRE_DATA(path);
        WebPagePanel web;
        web.resize(1200, 800);
        web.show();
        QSignalSpy failed(&web, &WebPagePanel::failed);
        QVERIFY(renderInPanel(&web, path, &failed));
        QVERIFY2(failed.isEmpty(), qPrintable(failed.isEmpty() ? QString() : failed.first().first().toString()));
        QVERIFY(web.loadStatus().text.startsWith(QLatin1String("Rendered offline")));
        QVERIFY(web.loadStatus().blocked > 0);
    }

    void documentSetAgainWhileLoadingStillRenders()
    {
        // The session hands the panel the same page again while it loads (its rendered boxes came
        // back, another view refreshed): the first load is aborted, which is no failure.
        const QString path = QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/product-page.html");
        const HtmlLoadResult r = loadHtmlFile(path);
        QVERIFY(r.ok);
        WebPagePanel web;
        web.resize(900, 600);
        web.show();
        QSignalSpy failed(&web, &WebPagePanel::failed);
        QSignalSpy rendered(&web, &WebPagePanel::rendered);
        QList<QPair<int, int>> events;
        connect(web.page(), &QWebEnginePage::loadingChanged, this, [&](const QWebEngineLoadingInfo &i) {
            events.append({int(i.status()), i.errorCode()});
        });
        QSignalSpy started(web.page(), &QWebEnginePage::loadStarted);
        web.setDocument(r.document);
        QVERIFY(started.wait(10000));
        web.setDocument(r.document);
        QTRY_VERIFY_WITH_TIMEOUT(!rendered.isEmpty() || !failed.isEmpty(), 60000);
        QTest::qWait(300);
        QVERIFY(!events.isEmpty());
        QCOMPARE(events.last().first, int(QWebEngineLoadingInfo::LoadSucceededStatus));
        QVERIFY2(failed.isEmpty(), qPrintable(failed.isEmpty() ? QString() : failed.first().first().toString()));
        QVERIFY(web.loadStatus().text.startsWith(QLatin1String("Rendered offline")));
    }

    void missingFileSaysWhyAndWhatToDo()
    {
        const QString path = test::writeTestFile(m_dir, QStringLiteral("gone.html"), "<html><body><p>x</p></body></html>");
        const HtmlLoadResult r = loadHtmlFile(path);
        QVERIFY(r.ok);
        QFile::remove(path); // moved away after it was added to the project
        WebPagePanel web;
        web.show();
        QSignalSpy failed(&web, &WebPagePanel::failed);
        web.setDocument(r.document);
        QCOMPARE(failed.size(), 1);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.startsWith(QLatin1String("Could not render")) && message.contains(QLatin1String("gone.html")),
                 qPrintable(message));
        QVERIFY(web.loadStatus().failed);
        QVERIFY(web.loadStatus().toolTip.contains(QLatin1String("open it again")));
        QVERIFY(!web.isRendered());
    }

    void describeWebLoadNamesTheCause()
    {
        WebLoadFacts f;
        f.fileName = QStringLiteral("page.html");
        f.outcome.state = WebLoadOutcome::State::Failed;
        f.outcome.errorCode = -6;
        f.outcome.errorString = QStringLiteral("net::ERR_FILE_NOT_FOUND");
        WebLoadStatus s = describeWebLoad(f);
        QVERIFY(s.failed);
        QVERIFY2(s.text.contains(QLatin1String("page.html")) && s.text.contains(QLatin1String("not found"))
                     && s.text.contains(QLatin1String("-6")),
                 qPrintable(s.text));
        QVERIFY(s.toolTip.contains(QLatin1String("File > Open Document")));
        // An unknown engine error keeps Chromium's own words.
        f.outcome.errorCode = -324;
        f.outcome.errorString = QStringLiteral("net::ERR_EMPTY_RESPONSE");
        QVERIFY(describeWebLoad(f).text.contains(QLatin1String("net::ERR_EMPTY_RESPONSE")));
        // The document loaded but its layout did not come back: that reason.
        f.outcome = WebLoadOutcome{WebLoadOutcome::State::Succeeded, {}, 0, false};
        f.snapshotError = QStringLiteral("the snapshot script returned no result");
        s = describeWebLoad(f);
        QVERIFY(s.failed);
        QVERIFY(s.text.contains(f.snapshotError));
        // Rendered, with blocked requests: counted per distinct URL, by kind, most first.
        f.rendered = true;
        f.nodesPlaced = 40;
        f.nodesUnplaced = 3;
        const int image = int(QWebEngineUrlRequestInfo::ResourceTypeImage);
        const int css = int(QWebEngineUrlRequestInfo::ResourceTypeStylesheet);
        f.log = {{QUrl(QStringLiteral("https://a.example/x.png")), false, image},
                 {QUrl(QStringLiteral("https://a.example/x.png")), false, image},
                 {QUrl(QStringLiteral("https://a.example/y.png")), false, image},
                 {QUrl(QStringLiteral("https://a.example/s.css")), false, css},
                 {QUrl::fromLocalFile(QStringLiteral("/tmp/page.html")), true, 0}};
        s = describeWebLoad(f);
        QVERIFY(!s.failed);
        QCOMPARE(s.text, QStringLiteral("Rendered offline: 40 nodes placed on the page"));
        QVERIFY(s.toolTip.contains(QLatin1String("3 nodes of the file are not on the rendered page")));
        QCOMPARE(s.blocked, 3);
        QCOMPARE(s.blockedText, QStringLiteral("3 outside requests blocked"));
        QCOMPARE(blockedRequestKinds(f.log), QStringLiteral("2 images, 1 style sheet"));
        QVERIFY(s.blockedToolTip.contains(QLatin1String("2 images, 1 style sheet")));
        QVERIFY(s.toolTip.contains(QLatin1String("Run page scripts")));
        // Long lists are cut in the tooltip with a count of the rest.
        QList<WebRequestRecord> many;
        for (int i = 0; i < 40; ++i)
            many.append({QUrl(QStringLiteral("https://t.example/%1.gif").arg(i)), false, image});
        const QStringList lines = blockedRequestLines(many, 15);
        QCOMPARE(lines.size(), 16);
        QCOMPARE(lines.last(), QStringLiteral("... and 25 more"));
        QCOMPARE(blockedRequestLines(many).size(), 40);
    }
};

FOLIO_TEST_MAIN(TestWebStatus)
#include "tst_webstatus.moc"
