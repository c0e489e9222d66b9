// MarkupLM feature extractor (document/html/markupnodes.h) and Python's html.unescape
// (htmlunescape.h): the reference's rules on small pages, and its bad inputs (deep nesting,
// binary junk, a missing file). The fixture pages themselves are checked in tst_inference_parity.
#include "document/html/htmlunescape.h"
#include "document/html/markupnodes.h"
#include "tests/common/testdata.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <QTemporaryDir>
#include <QtTest>

using namespace folio;

class TestMarkupNodes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void unescapeAsPython_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("want");
        // Expected values from Python 3.11 html.unescape.
        const char *const cases[][2] = {
            {"&amp;lt;", "&lt;"}, {"5 &lt; 6", "5 < 6"}, {"&ampx", "&x"}, {"&amp;", "&"}, {"&notit;", "\u00acit;"},
            {"&notin;", "\u2209"}, {"&#65;&#x42;&#X43", "ABC"}, {"&#0;", "\ufffd"}, {"&#128;&#x9d;", "\u20ac\u009d"},
            {"&#xD800;", "\ufffd"}, {"&#1114112;", "\ufffd"}, {"&#11;x", "x"}, {"&#xFFFE;", ""}, {"&nbsp", "\u00a0"},
            {"&copy2019", "\u00a92019"}, {"&AMP;&COPY", "&\u00a9"}, {"&hearts;", "\u2665"}, {"& no", "& no"},
            {"&#;", "&#;"}, {"&#x;", "&#x;"}, {"&Eacute;t&eacute", "\u00c9t\u00e9"}, {"&lt&gt", "<>"}, {"a&b;c", "a&b;c"},
            {"&#99999999999999999999;", "\ufffd"}};
        for (const auto &c : cases)
            QTest::newRow(c[0]) << QString::fromUtf8(c[0]) << QString::fromUtf8(c[1]);
    }
    void unescapeAsPython()
    {
        QFETCH(QString, in);
        QFETCH(QString, want);
        QCOMPARE(pythonHtmlUnescape(in), want);
    }

    void referenceRules()
    {
        const QByteArray html = "<!DOCTYPE html><html><head><style>p { color: red }</style></head><body>"
                                "<p></p><p>second &amp;amp; more&nbsp;</p><div>a<br>b<!-- note --></div>"
                                "<div><span>x</span><span>y</span><i>z</i></div></body></html>";
        const MarkupNodeList r = extractMarkupNodes(html, QStringLiteral("t.html"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.nodes, QStringList({"p { color: red }", "second & more", "a", "b", "note", "x", "y", "z"}));
        QCOMPARE(r.xpaths, QStringList({"/html/head/style", "/html/body/p[2]", "/html/body/div[1]", "/html/body/div[1]",
                                        "/html/body/div[1]", "/html/body/div[2]/span[1]", "/html/body/div[2]/span[2]",
                                        "/html/body/div[2]/i"}));
    }

    // The reference's pages (BeautifulSoup html.parser + MarkupLMFeatureExtractor), node for node.
    void fixturePages()
    {
        const QString path = folio::test::sharedPath(QStringLiteral("fixtures/parity-new/markuplm_tokenizer/cases.json"));
        FOLIO_REQUIRE_DATA(path);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject pages = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("pages")).toObject();
        QVERIFY(pages.size() >= 3);
        for (auto it = pages.begin(); it != pages.end(); ++it) {
            const QJsonObject page = it.value().toObject();
            const MarkupNodeList r = extractMarkupNodes(page.value(QStringLiteral("html")).toString().toUtf8(), it.key());
            QVERIFY2(r.ok, qPrintable(r.error));
            QStringList nodes, xpaths;
            for (const QJsonValue &v : page.value(QStringLiteral("nodes")).toArray()) nodes << v.toString();
            for (const QJsonValue &v : page.value(QStringLiteral("xpaths")).toArray()) xpaths << v.toString();
            QCOMPARE(r.nodes, nodes);
            QCOMPARE(r.xpaths, xpaths);
        }
    }

    void deepNestingIsBounded()
    {
        QByteArray html = "<html><body>";
        for (int i = 0; i < 10000; ++i)
            html += "<div>";
        html += "deep";
        html += "</body></html>";
        MarkupNodeOptions options;
        options.maxXPathUnits = 8;
        const MarkupNodeList r = extractMarkupNodes(html, QStringLiteral("deep.html"), options);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.nodes, QStringList({"deep"}));
        QCOMPARE(r.xpaths, QStringList({"/html/body/div/div/div/div/div/div"}));
        QVERIFY(!r.warnings.filter(QStringLiteral("deeper than 8")).isEmpty());
        // The default keeps 512 units.
        const MarkupNodeList d = extractMarkupNodes(html, QStringLiteral("deep.html"));
        QVERIFY2(d.ok, qPrintable(d.error));
        QCOMPARE(d.xpaths.size(), 1);
        QCOMPARE(d.xpaths.first().count(QLatin1Char('/')), 512);
    }

    void badInputIsRefusedNamingTheFile()
    {
        const MarkupNodeList missing = extractMarkupNodesFromFile(QStringLiteral("/nonexistent/page.html"));
        QVERIFY(!missing.ok);
        QVERIFY2(missing.error.contains(QStringLiteral("/nonexistent/page.html")), qPrintable(missing.error));
        const MarkupNodeList junk = extractMarkupNodes(QByteArray(4096, '\x01'), QStringLiteral("junk.bin"));
        QVERIFY(!junk.ok);
        QVERIFY2(junk.error.startsWith(QStringLiteral("junk.bin: ")), qPrintable(junk.error));
        const MarkupNodeList empty = extractMarkupNodes(QByteArray(), QStringLiteral("empty.html"));
        QVERIFY(empty.ok);
        QVERIFY(empty.nodes.isEmpty());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestMarkupNodes)
#include "tst_markupnodes.moc"
