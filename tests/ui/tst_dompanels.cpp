// DOM tree panel (lazy model, search, details) and the web page panel, synced both ways.
#include "document/html/htmlxpath.h"
#include "document/html/htmlloader.h"
#include "ui/documents/domtreemodel.h"
#include "ui/documents/domtreepanel.h"
#include "ui/documents/webpage.h"
#include "ui/documents/webpagepanel.h"
#include "tests/common/testdata.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QWebEngineScript>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QWebEngineView>

using namespace folio;

class TestDomPanels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void treeSearchAndDetails()
    {
        const HtmlLoadResult r = loadHtmlBytes("<html><body><div id=main><p>alpha</p><table><tr><td>one</td><td>two</td></tr></table>"
                                               "<p>beta gamma</p></div></body></html>", QStringLiteral("t.html"));
        QVERIFY(r.ok);
        DomTreePanel panel;
        panel.setDocument(r.document);
        panel.resize(400, 600);
        panel.show();
        DomTreeModel *model = panel.model();
        QCOMPARE(model->rowCount(), 1); // <html>
        QCOMPARE(model->data(model->index(0, 0), Qt::DisplayRole).toString(), QStringLiteral("<html>"));

        QSignalSpy selected(&panel, &DomTreePanel::nodeSelected);
        QCOMPARE(panel.findNext(QStringLiteral("<td>")), 2);
        QCOMPARE(selected.size(), 1);
        const int td1 = selected.last().first().toInt();
        QCOMPARE(r.document.nodes[size_t(td1)].tag, QStringLiteral("td"));
        QVERIFY(panel.detailsText().contains(QStringLiteral("/html/body/div/table/tr/td[1]")));
        QVERIFY(panel.detailsText().contains(QStringLiteral("one")));
        QCOMPARE(panel.findNext(QStringLiteral("<td>")), 2);
        QCOMPARE(xpathOf(r.document, selected.last().first().toInt()), QStringLiteral("/html/body/div/table/tr/td[2]"));
        QCOMPARE(panel.findNext(QStringLiteral("GAMMA")), 1); // text search, case-insensitive
        QCOMPARE(r.document.nodes[size_t(panel.currentNode())].text, QStringLiteral("beta gamma"));
        QCOMPARE(panel.findNext(QStringLiteral("main")), 1);  // id attribute
        QCOMPARE(panel.findNext(QStringLiteral("nothing-like-this")), 0);

        // selectNode() from the other panel: no echo signal, the tree follows.
        const int before = selected.size();
        const int p = XPathIndex(r.document).find(QStringLiteral("/html/body/div/p[1]"));
        panel.selectNode(p);
        QCOMPARE(selected.size(), before);
        QCOMPARE(model->nodeForIndex(panel.treeView()->currentIndex()), p);
        QVERIFY(panel.detailsText().contains(QStringLiteral("alpha")));
        // A user click in the tree emits.
        const QModelIndex idx = model->indexForNode(td1);
        panel.treeView()->scrollTo(idx);
        QTest::mouseClick(panel.treeView()->viewport(), Qt::LeftButton, {}, panel.treeView()->visualRect(idx).center());
        QCOMPARE(selected.last().first().toInt(), td1);
    }

    void bigPageLoadsQuickly()
    {
        // 50,000 nodes: the model is lazy, so setDocument stays far below a frame budget x100.
        QByteArray html = "<html><body><ul>";
        for (int i = 0; i < 25000; ++i)
            html += "<li>item " + QByteArray::number(i) + "</li>";
        html += "</ul></body></html>";
        const HtmlLoadResult r = loadHtmlBytes(html, QStringLiteral("big.html"));
        QVERIFY(r.ok);
        QVERIFY(r.document.nodes.size() > 50000);
        DomTreePanel panel;
        panel.show();
        QElapsedTimer t;
        t.start();
        panel.setDocument(r.document);
        QCoreApplication::processEvents();
        const qint64 ms = t.elapsed();
        qInfo("50,000-node DOM into the tree panel: %lld ms", ms);
        QVERIFY2(ms < 1500, qPrintable(QString::number(ms)));
        QCOMPARE(panel.findNext(QStringLiteral("item 24999")), 1);
    }

    void webPanelRendersAndSyncs()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("p.html")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("<html><head><style>body{margin:0} #a{position:absolute;left:50px;top:60px;width:300px;height:80px;background:#eee}"
                "#b{position:absolute;left:50px;top:200px;width:300px;height:80px}</style></head>"
                "<body><div id=a>first box</div><div id=b><a href=\"http://example.com/\">second</a></div></body></html>");
        f.close();
        const HtmlLoadResult r = loadHtmlFile(f.fileName());
        QVERIFY(r.ok);

        WebPagePanel web;
        DomTreePanel tree;
        QObject::connect(&tree, &DomTreePanel::nodeSelected, &web, &WebPagePanel::selectNode);
        QObject::connect(&web, &WebPagePanel::nodeSelected, &tree, &DomTreePanel::selectNode);
        web.resize(800, 600);
        web.show();
        tree.setDocument(r.document);
        QSignalSpy rendered(&web, &WebPagePanel::rendered);
        QSignalSpy picked(&web, &WebPagePanel::nodeSelected);
        web.setDocument(r.document);
        QVERIFY(rendered.wait(60000));
        const Document withBoxes = rendered.first().first().value<Document>();
        const int b = XPathIndex(withBoxes).find(QStringLiteral("/html/body/div[2]"));
        QCOMPARE(withBoxes.nodes[size_t(b)].box, QRectF(50, 200, 300, 80));
        // nodeAt: the smallest box under the point (the link's text inside #b).
        const int hit = web.nodeAt(QPointF(60, 210));
        QVERIFY(hit > b);
        QCOMPARE(withBoxes.nodes[size_t(hit)].text, QStringLiteral("second"));
        QCOMPARE(web.nodeAt(QPointF(340, 270)), b);
        const int outside = web.nodeAt(QPointF(700, 500)); // only <html>/<body> there
        QVERIFY(outside > 0);
        QVERIFY(withBoxes.nodes[size_t(outside)].tag == QLatin1String("html") || withBoxes.nodes[size_t(outside)].tag == QLatin1String("body"));

        // Click on the page → the node is selected in the tree (and the link is not followed).
        QWidget *surface = web.view()->focusProxy();
        QVERIFY(surface);
        const QPoint click = surface->mapFrom(&web, web.view()->mapTo(&web, QPoint(340, 270)));
        QTest::mouseClick(surface, Qt::LeftButton, {}, click);
        QTRY_VERIFY(!picked.isEmpty());
        QCOMPARE(picked.last().first().toInt(), b);
        QCOMPARE(tree.currentNode(), b);
        // Select in the tree → the web panel gets it (outline drawn by script).
        tree.findNext(QStringLiteral("first box"));
        QTest::qWait(200);
        QVERIFY(web.page()->url().isLocalFile());

        // Node colours (attention on a web page): one overlay box per coloured node, removed when cleared.
        const auto heatBoxes = [&web]() -> int {
            QVariant count;
            bool done = false;
            web.page()->runJavaScript(QStringLiteral("(function(){var l=document.getElementById('__folio_heat');return l?l.children.length:0;})()"),
                                      QWebEngineScript::ApplicationWorld, [&](const QVariant &v) { count = v; done = true; });
            for (int i = 0; i < 250 && !done; ++i)
                QTest::qWait(20);
            return done ? count.toInt() : -1;
        };
        web.setNodeColors({{b, QColor(255, 0, 0, 120)}, {XPathIndex(withBoxes).find(QStringLiteral("/html/body/div[1]")), QColor(0, 0, 255, 60)}});
        QTRY_COMPARE(heatBoxes(), 2);
        web.setNodeColors({});
        QTRY_COMPARE(heatBoxes(), 0);
    }
};

FOLIO_TEST_MAIN(TestDomPanels)
#include "tst_dompanels.moc"
