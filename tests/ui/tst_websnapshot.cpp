// Rendered snapshot: boxes merged into the Document, and untrusted pages stay offline and
// script-free. Real QtWebEngine, offscreen.
#include "document/html/domsnapshot.h"
#include "document/html/htmlloader.h"
#include "document/html/htmlxpath.h"
#include "ui/documents/webpage.h"
#include "ui/documents/websnapshot.h"
#include "tests/common/testdata.h"

#include <QFile>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QWebEngineSettings>

using namespace folio;

class TestWebSnapshot : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString writePage(const QString &name, const QByteArray &html)
    {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(html);
        return f.fileName();
    }

    // Renders `path` offscreen; returns the snapshot JSON (empty on failure) and the request log.
    // relaxChromium: let Chromium's own "local content may not reach remote URLs" rule pass, so
    // that only our interceptor stands between the page and the network.
    QByteArray render(const QString &path, bool javaScript, QList<WebRequestRecord> *log = nullptr,
                      bool relaxChromium = false)
    {
        OffscreenSnapshot snap;
        if (relaxChromium)
            snap.page()->settings()->setAttribute(QWebEngineSettings::LocalContentCanAccessRemoteUrls, true);
        QSignalSpy done(&snap, &OffscreenSnapshot::finished);
        QSignalSpy failed(&snap, &OffscreenSnapshot::failed);
        snap.start(path, javaScript, 1000);
        if (!done.wait(60000) && failed.isEmpty())
            return {};
        if (!failed.isEmpty()) {
            qWarning("%s", qPrintable(failed.first().first().toString()));
            return {};
        }
        QTest::qWait(300); // let late (script-driven) requests reach the interceptor
        if (log)
            *log = snap.page()->requestLog();
        return done.first().first().toByteArray();
    }

private Q_SLOTS:
    void boxesMergeIntoDocument()
    {
        const QString path = writePage(QStringLiteral("boxes.html"),
            "<html><head><style>body{margin:0;font:16px sans-serif}"
            "#a{position:absolute;left:10px;top:20px;width:200px;height:100px}"
            "#h{display:none}.tall{height:3000px}</style></head>"
            "<body><div id=\"a\">Hello world</div><p id=\"h\">hidden text</p><div class=\"tall\"></div>"
            "<table><tr><td>cell text</td></tr></table></body></html>");
        const HtmlLoadResult loaded = loadHtmlFile(path);
        QVERIFY(loaded.ok);
        Document doc = loaded.document;

        const QByteArray json = render(path, false);
        QVERIFY(!json.isEmpty());
        DomSnapshot snapshot;
        QString error;
        QVERIFY2(parseDomSnapshotJson(json, &snapshot, &error), qPrintable(error));
        const SnapshotMergeStats stats = mergeDomSnapshot(&doc, snapshot);
        QVERIFY2(stats.nodesMatchedByXPath >= 8, qPrintable(QString::number(stats.nodesMatchedByXPath)));
        // Blink inserts <tbody>: the td's text is matched by text instead of XPath.
        QVERIFY(stats.textNodesMatchedByText >= 1);

        QCOMPARE(doc.pages.size(), size_t(1));
        QVERIFY(doc.pages[0].size.width() >= 980 && doc.pages[0].size.width() <= 1000); // minus a scroll bar
        QVERIFY(doc.pages[0].size.height() >= 3000.0);
        const XPathIndex byXPath(doc);
        const Node &a = doc.nodes[size_t(byXPath.find(QStringLiteral("/html/body/div[1]")))];
        QCOMPARE(a.box, QRectF(10, 20, 200, 100));
        QVERIFY(a.visible);
        QCOMPARE(a.page, 0);
        QVERIFY(!doc.nodes[size_t(byXPath.find(QStringLiteral("/html/body/p")))].visible);
        QVERIFY(!doc.nodes[size_t(byXPath.find(QStringLiteral("/html/body/p/text()")))].visible);

        // Words: one box per token, inside the div, left to right, normalised to 0..1000.
        const QString divText = doc.nodes[size_t(byXPath.find(QStringLiteral("/html/body/div[1]/text()")))].id;
        const Word &hello = doc.words[size_t(doc.wordIndex(divText + QStringLiteral("#0")))];
        const Word &world = doc.words[size_t(doc.wordIndex(divText + QStringLiteral("#6")))];
        QVERIFY(a.box.contains(hello.box.center()));
        QVERIFY(a.box.contains(world.box.center()));
        QVERIFY(hello.box.right() <= world.box.left());
        QVERIFY(hello.box.width() > 10);
        // 0..1000 boxes are relative to the rendered page (viewport width minus any scroll bar,
        // full document height), truncated: check every coordinate against that page size.
        const QSizeF page = doc.pages[0].size;
        for (const Word *w : {&hello, &world}) {
            QCOMPARE(w->norm.x0, int(1000.0 * w->box.left() / page.width()));
            QCOMPARE(w->norm.x1, int(1000.0 * w->box.right() / page.width()));
            QCOMPARE(w->norm.y0, int(1000.0 * w->box.top() / page.height()));
            QCOMPARE(w->norm.y1, int(1000.0 * w->box.bottom() / page.height()));
        }
        // The div (left 10, width 200) ends near 1000 * 210 / width; tall page: y near the top.
        QVERIFY(world.norm.x1 > 0 && world.norm.x1 <= int(1000.0 * 210 / page.width()));
        QVERIFY(hello.norm.y1 <= int(1000.0 * 120 / 3000.0));
        // Every visible word has a box (the <td> text too, matched by text); hidden ones have none.
        int boxed = 0, visible = 0;
        for (const Word &w : doc.words) {
            boxed += !w.box.isNull();
            visible += doc.nodes[size_t(w.node)].visible;
        }
        QCOMPARE(visible, 4);
        QCOMPARE(boxed, visible);
    }

    void remoteRequestsAreBlockedAndScriptsOff()
    {
        // A local server stands in for "the network": it must never see a connection.
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        const QByteArray base = "http://127.0.0.1:" + QByteArray::number(server.serverPort());
        const QString path = writePage(QStringLiteral("remote.html"),
            "<html><head><link rel=\"stylesheet\" href=\"" + base + "/style.css\">"
            "<script src=\"" + base + "/lib.js\"></script>"
            "<style>body{background:url(" + base + "/bg.png)}</style></head><body>"
            "<img src=\"" + base + "/img.png\"><img src=\"https://example.com/x.png\">"
            "<iframe src=\"" + base + "/frame.html\"></iframe>"
            "<img src=\"data:image/gif;base64,R0lGODlhAQABAAAAACw=\">"
            "<p>static</p>"
            "<script>document.body.appendChild(document.createTextNode('SCRIPT RAN'));"
            "fetch('" + base + "/fetch').catch(function(){});"
            "var x = new XMLHttpRequest(); x.open('GET', '" + base + "/xhr'); x.send();</script>"
            "</body></html>");

        for (const bool relax : {false, true}) {
            QList<WebRequestRecord> log;
            const QByteArray json = render(path, /*javaScript=*/false, &log, relax);
            QVERIFY(!json.isEmpty());
            QVERIFY(!json.contains("SCRIPT RAN"));
            QVERIFY(json.contains("static"));
            int blocked = 0;
            for (const WebRequestRecord &r : log) {
                const QString scheme = r.url.scheme();
                if (r.allowed)
                    QVERIFY2(scheme == QLatin1String("file") || scheme == QLatin1String("data"), qPrintable(r.url.toString()));
                else
                    ++blocked;
            }
            // With Chromium's rule relaxed, the interceptor sees (and blocks) every remote fetch.
            if (relax)
                QVERIFY2(blocked >= 4, qPrintable(QStringLiteral("only %1 blocked requests logged").arg(blocked)));
            QVERIFY(!server.hasPendingConnections());
            QVERIFY(!server.waitForNewConnection(200));
        }

        // The user turns scripts on for this page: they run, the network stays closed.
        QList<WebRequestRecord> log;
        const QByteArray json = render(path, /*javaScript=*/true, &log, /*relaxChromium=*/true);
        QVERIFY(json.contains("SCRIPT RAN"));
        bool fetchBlocked = false;
        for (const WebRequestRecord &r : log) {
            QVERIFY(!(r.allowed && r.url.scheme().startsWith(QLatin1String("http"))));
            fetchBlocked |= !r.allowed && (r.url.path() == QLatin1String("/fetch") || r.url.path() == QLatin1String("/xhr"));
        }
        QVERIFY(fetchBlocked);
        QVERIFY(!server.hasPendingConnections());
        QVERIFY(!server.waitForNewConnection(200));
    }

    void interceptorPolicy()
    {
        OfflineUrlInterceptor i;
        i.setAllowedRoot(m_dir.path());
        QVERIFY(i.isAllowed(QUrl::fromLocalFile(m_dir.filePath(QStringLiteral("a.png")))));
        QVERIFY(!i.isAllowed(QUrl::fromLocalFile(QStringLiteral("/etc/passwd"))));
        QVERIFY(!i.isAllowed(QUrl(QStringLiteral("file://server/share/x.png"))));
        QVERIFY(!i.isAllowed(QUrl(QStringLiteral("http://example.com/"))));
        QVERIFY(!i.isAllowed(QUrl(QStringLiteral("ws://example.com/"))));
        QVERIFY(!i.isAllowed(QUrl(QStringLiteral("ftp://example.com/"))));
        QVERIFY(i.isAllowed(QUrl(QStringLiteral("data:text/plain,hi"))));
    }

    void missingFileAndBadSnapshotJson()
    {
        OffscreenSnapshot snap;
        QSignalSpy failed(&snap, &OffscreenSnapshot::failed);
        snap.start(m_dir.filePath(QStringLiteral("nope.html")));
        QVERIFY(failed.wait(5000));
        QVERIFY(failed.first().first().toString().contains(QLatin1String("nope.html")));
        DomSnapshot s;
        QString error;
        QVERIFY(!parseDomSnapshotJson("{\"format\":\"other\"}", &s, &error));
        QVERIFY(!parseDomSnapshotJson("not json", &s, &error));
        QVERIFY(!parseDomSnapshotJson("{\"format\":\"folio.domsnapshot\",\"nodes\":[{\"xpath\":\"/html\",\"box\":[1,2]}]}", &s, &error));
    }
};

FOLIO_TEST_MAIN(TestWebSnapshot)
#include "tst_websnapshot.moc"
