// HTML → Document: structure, ids, whitespace, words, charset, sections, and bad input.
#include "document/documentjson.h"
#include "document/html/htmlcharset.h"
#include "document/html/htmlinput.h"
#include "document/html/htmlloader.h"
#include "document/html/htmlprescan.h"
#include "document/html/htmlxpath.h"
#include "document/html/htmlsections.h"
#include "tests/common/testdata.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>
#include <zlib.h>

using namespace folio;

class TestHtmlLoader : public QObject
{
    Q_OBJECT

private:
    static QStringList texts(const Document &doc)
    {
        QStringList out;
        for (int i : textNodeSequence(doc))
            out << doc.nodes[size_t(i)].text;
        return out;
    }
    static int findById(const Document &doc, const QString &xpath) { return XPathIndex(doc).find(xpath); }

private Q_SLOTS:
    void elementsTextAndXPaths()
    {
        const QByteArray html = "<!DOCTYPE html><html><head><title> My  page </title>"
                                "<style>p{color:red}</style><script>var x = '<p>no</p>';</script></head>"
                                "<body><div id=a class='x y'><p>One <b>two</b> three</p><p>Four</p></div>"
                                "<!-- a comment --><div>Five</div></body></html>";
        const HtmlLoadResult r = loadHtmlBytes(html, QStringLiteral("mem.html"));
        QVERIFY2(r.ok, qPrintable(r.error));
        const Document &doc = r.document;
        QCOMPARE(doc.kind, SourceKind::Html);
        QCOMPARE(doc.title, QStringLiteral("My page"));
        QCOMPARE(doc.nodes[0].kind, NodeKind::Root);
        QCOMPARE(texts(doc), (QStringList{"My page", "One", "two", "three", "Four", "Five"}));
        const int div = findById(doc, QStringLiteral("/html/body/div[1]"));
        QVERIFY(div > 0);
        QCOMPARE(doc.nodes[size_t(div)].tag, QStringLiteral("div"));
        QCOMPARE(doc.nodes[size_t(div)].attributes.size(), 2);
        QCOMPARE(doc.nodes[size_t(div)].attributes[1], (QPair<QString, QString>{"class", "x y"}));
        QVERIFY(findById(doc, QStringLiteral("/html/body/div[1]/p[2]/text()")) > 0);
        QVERIFY(findById(doc, QStringLiteral("/html/body/div[1]/p[1]/text()[2]")) > 0); // " three"
        QVERIFY(findById(doc, QStringLiteral("/html/head/script")) > 0);                  // element kept
        // script/style text is not content
        for (const Node &n : doc.nodes)
            QVERIFY(!n.text.contains(QLatin1String("var x")));
        // The JSON form reads back (one page of unknown size holds the words).
        QCOMPARE(doc.pages.size(), size_t(1));
        Document back;
        QString error;
        QVERIFY2(documentFromJson(documentToJson(doc), &back, nullptr, &error), qPrintable(error));
        QCOMPARE(back.nodes.size(), doc.nodes.size());
        QCOMPARE(back.nodes[size_t(div)].id, doc.nodes[size_t(div)].id);
        // pre-order: every parent before its children, children ordered
        for (int i = 1; i < int(doc.nodes.size()); ++i)
            QVERIFY(doc.nodes[size_t(i)].parent < i);
    }

    void whitespaceAndWords()
    {
        QCOMPARE(normaliseHtmlWhitespace(QStringLiteral(" \t a \n\r\f b  ")), QStringLiteral("a b"));
        QCOMPARE(normaliseHtmlWhitespace(QStringLiteral("a\u00a0b")), QStringLiteral("a\u00a0b")); // NBSP is content
        const HtmlLoadResult r = loadHtmlBytes("<p>\n  Price:&nbsp;12.99   EUR\n</p>", QString());
        QVERIFY(r.ok);
        const Document &doc = r.document;
        QCOMPARE(doc.nodes[size_t(textNodeSequence(doc)[0])].text, QStringLiteral("Price:\u00a012.99 EUR"));
        QCOMPARE(doc.words.size(), size_t(3)); // NBSP separates words, but stays in the node text
        QCOMPARE(doc.words[0].text, QStringLiteral("Price:"));
        QCOMPARE(doc.words[1].text, QStringLiteral("12.99"));
        QCOMPARE(doc.words[2].text, QStringLiteral("EUR"));
    }

    void wordIds()
    {
        const HtmlLoadResult r = loadHtmlBytes("<p>\n  Price:&nbsp;12.99   EUR\n</p>", QString());
        QVERIFY(r.ok);
        const Document &doc = r.document;
        QCOMPARE(doc.words.size(), size_t(3));
        // "<text node id>#<offset>", the node id compact, its XPath computed on demand.
        const QString node = doc.nodes[size_t(doc.words[0].node)].id;
        QVERIFY(node.startsWith(QLatin1Char('h')));
        QCOMPARE(doc.words[0].id, node + QStringLiteral("#0"));
        QCOMPARE(doc.words[1].id, node + QStringLiteral("#7"));
        QCOMPARE(doc.words[2].id, node + QStringLiteral("#13"));
        QCOMPARE(xpathOf(doc, doc.words[0].node), QStringLiteral("/html/body/p/text()"));
        QCOMPARE(findById(doc, QStringLiteral("/html/body/p/text()")), doc.words[0].node);
        for (const Word &w : doc.words)
            QCOMPARE(doc.nodes[size_t(w.node)].kind, NodeKind::Text);
        // Stable: loading twice gives the same ids.
        const HtmlLoadResult again = loadHtmlBytes("<p>\n  Price:&nbsp;12.99   EUR\n</p>", QString());
        QCOMPARE(again.document.words[2].id, doc.words[2].id);
    }

    void charsetMeta()
    {
        // "café" in Latin-1, declared in a meta tag
        QByteArray html = "<html><head><meta charset=\"iso-8859-1\"></head><body><p>caf\xe9</p></body></html>";
        HtmlLoadResult r = loadHtmlBytes(html, QString());
        QVERIFY(r.ok);
        QCOMPARE(r.encodingSource, QStringLiteral("meta"));
        QCOMPARE(texts(r.document), QStringList{QStringLiteral("caf\u00e9")});
        html = "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\"><p>\xcf\xf0\xe8</p>";
        r = loadHtmlBytes(html, QString());
        QCOMPARE(r.encodingSource, QStringLiteral("meta"));
        QCOMPARE(texts(r.document), QStringList{QStringLiteral("\u041f\u0440\u0438")});
    }

    void charsetBom()
    {
        const QString text = QStringLiteral("<p>\u00fcber \u6f22\u5b57</p>");
        QByteArray utf16 = "\xff\xfe";
        utf16.append(reinterpret_cast<const char *>(text.utf16()), text.size() * 2);
        HtmlLoadResult r = loadHtmlBytes(utf16, QString());
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.encodingSource, QStringLiteral("bom"));
        QCOMPARE(texts(r.document), QStringList{QStringLiteral("\u00fcber \u6f22\u5b57")});
        r = loadHtmlBytes("\xef\xbb\xbf<p>\xc3\xbc</p>", QString());
        QCOMPARE(r.encodingSource, QStringLiteral("bom"));
        QCOMPARE(texts(r.document), QStringList{QStringLiteral("\u00fc")});
    }

    void charsetFallbackAndUnknown()
    {
        // No declaration, not UTF-8 → windows-1252 with a note
        HtmlLoadResult r = loadHtmlBytes("<p>\x93quoted\x94 caf\xe9</p>", QStringLiteral("x.html"));
        QVERIFY(r.ok);
        QCOMPARE(r.encodingSource, QStringLiteral("fallback"));
        QVERIFY(!r.warnings.isEmpty());
        QCOMPARE(texts(r.document), QStringList{QStringLiteral("\u201cquoted\u201d caf\u00e9")});
        // Unknown declared encoding → degrade to UTF-8 with a note that names it
        r = loadHtmlBytes("<meta charset=\"x-klingon-42\"><p>ok \xc3\xa9</p>", QStringLiteral("k.html"));
        QVERIFY(r.ok);
        QCOMPARE(r.encodingSource, QStringLiteral("utf8"));
        QVERIFY(r.warnings.join(QLatin1Char(' ')).contains(QLatin1String("x-klingon-42")));
        QCOMPARE(texts(r.document), QStringList{QStringLiteral("ok \u00e9")});
        QVERIFY(!isKnownCharset("x-klingon-42"));
        QVERIFY(isKnownCharset("windows-1252"));
    }

    // Found by fuzz_html: a byte the charset does not define (0x81 in windows-1252, a broken
    // Shift_JIS pair, a lone UTF-16 surrogate) made libxml2 stop, and the rest of the page was lost.
    void charsetUndefinedBytesKeepTheRest()
    {
        HtmlLoadResult r = loadHtmlBytes("<p>before</p><p>caf\xe9 \x81 after</p><p>tail</p>", QStringLiteral("u.html"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(texts(r.document), (QStringList{QStringLiteral("before"), QStringLiteral("caf\u00e9 \ufffd after"),
                                                 QStringLiteral("tail")}));
        QVERIFY(r.warnings.join(QLatin1Char(' ')).contains(QLatin1String("1 byte sequence(s) not valid in windows-1252")));
        r = loadHtmlBytes("<meta charset=\"shift_jis\"><p>\x82\xa0 \xff mid</p><p>tail</p>", QStringLiteral("s.html"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(texts(r.document), (QStringList{QStringLiteral("\u3042 \ufffd mid"), QStringLiteral("tail")}));
        const QString text = QStringLiteral("<p>a</p><p>b</p>");
        QByteArray utf16 = "\xff\xfe";
        utf16.append(reinterpret_cast<const char *>(text.utf16()), 8 * 2);
        utf16.append("\x00\xd8", 2); // lone high surrogate, then the rest
        utf16.append(reinterpret_cast<const char *>(text.utf16()) + 8 * 2, (text.size() - 8) * 2);
        r = loadHtmlBytes(utf16, QStringLiteral("w.html"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(texts(r.document), (QStringList{QStringLiteral("a"), QStringLiteral("\ufffd"), QStringLiteral("b")}));
    }

    void sections()
    {
        const QByteArray html = "<body><h1>Title</h1><p>intro words</p>"
                                "<h2>A</h2><p>a text</p><h3>A.1</h3><p>deep</p>"
                                "<h2>B</h2><section><h4>S</h4><p>in section</p><h5>S.1</h5><p>x</p></section>"
                                "<p>after</p></body>";
        const HtmlLoadResult r = loadHtmlBytes(html, QString());
        QVERIFY(r.ok);
        const auto &s = r.document.sections;
        QCOMPARE(s.size(), size_t(6));
        QCOMPARE(s[0].title, QStringLiteral("Title"));
        QCOMPARE(s[0].level, 1);
        QCOMPARE(s[0].parent, -1);
        QCOMPARE(s[1].title, QStringLiteral("A"));
        QCOMPARE(s[1].parent, 0);
        QCOMPARE(s[1].level, 2);
        QCOMPARE(s[2].title, QStringLiteral("A.1"));
        QCOMPARE(s[2].parent, 1);
        QCOMPARE(s[3].title, QStringLiteral("B"));
        QCOMPARE(s[3].parent, 0);
        QCOMPARE(s[4].title, QStringLiteral("S")); // <section> titled by its first heading
        QCOMPARE(s[4].parent, 3);
        QCOMPARE(s[5].title, QStringLiteral("S.1"));
        QCOMPARE(s[5].parent, 4);
        // Words owned directly: "Title intro words" by section 0
        QCOMPARE(s[0].firstWord, 0);
        QCOMPARE(s[0].endWord, 3);
        QCOMPARE(s[1].firstWord, 3);
        QCOMPARE(s[1].endWord, 6); // "A a text"
        QCOMPARE(headingRank(QStringLiteral("h3")), 3);
        QCOMPARE(headingRank(QStringLiteral("hr")), 0);
        // Permalink marks after a heading (Sphinx "¶", newer themes "#") are not part of its title.
        const HtmlLoadResult sphinx = loadHtmlBytes("<body><h1>Copyright<a class=\"headerlink\" href=\"#c\">\xc2\xb6</a></h1>"
                                                    "<h2>Usage <a href=\"#u\">#</a></h2><h2>C#</h2></body>",
                                                    QString());
        QVERIFY(sphinx.ok);
        QCOMPARE(sphinx.document.sections.size(), size_t(3));
        QCOMPARE(sphinx.document.sections[0].title, QStringLiteral("Copyright"));
        QCOMPARE(sphinx.document.sections[1].title, QStringLiteral("Usage"));
        QCOMPARE(sphinx.document.sections[2].title, QStringLiteral("C#"));
    }

    void malformedMarkup()
    {
        const QByteArray html = "<html><body><div><p>unclosed <b>bold <i>both</b> after</p></span></div>"
                                "<table><tr><td>cell<td>cell2</table><p>x</html></body><<<>>> &bogus; &amp;";
        const HtmlLoadResult r = loadHtmlBytes(html, QString());
        QVERIFY2(r.ok, qPrintable(r.error));
        const QStringList t = texts(r.document);
        QVERIFY(t.contains(QStringLiteral("cell2")));
        QVERIFY(t.join(QLatin1Char(' ')).contains(QLatin1String("unclosed")));
    }

    void binaryJunk()
    {
        QByteArray junk(200000, Qt::Uninitialized);
        auto *gen = QRandomGenerator::global();
        for (char &c : junk)
            c = char(gen->bounded(256));
        const HtmlLoadResult r = loadHtmlBytes(junk, QStringLiteral("junk.bin"));
        QVERIFY(!r.ok);
        QVERIFY(r.error.startsWith(QLatin1String("junk.bin: ")));
        QVERIFY(r.error.contains(QLatin1String("binary")));
        // A few stray control bytes in real HTML are tolerated.
        const HtmlLoadResult ok = loadHtmlBytes(QByteArray("<p>a\x01" "b</p>") + QByteArray(1000, ' '), QString());
        QVERIFY(ok.ok);
    }

    // Every node's XPath from its steps, as lxml writes it; XPathIndex finds each one back.
    void xpathsOnDemand()
    {
        const HtmlLoadResult r = loadHtmlBytes("<html><body><div>a<b>x</b>b</div><div><p>1</p><p>2</p></div></body></html>", QString());
        QVERIFY(r.ok);
        const Document &doc = r.document;
        QStringList paths;
        const XPathIndex index(doc);
        for (int i = 0; i < int(doc.nodes.size()); ++i) {
            paths << xpathOf(doc, i);
            QCOMPARE(index.find(paths.last()), i);
        }
        QCOMPARE(paths.join(' '), QStringLiteral("/ /html /html/body /html/body/div[1] /html/body/div[1]/text()[1] /html/body/div[1]/b "
                                                 "/html/body/div[1]/b/text() /html/body/div[1]/text()[2] /html/body/div[2] "
                                                 "/html/body/div[2]/p[1] /html/body/div[2]/p[1]/text() /html/body/div[2]/p[2] "
                                                 "/html/body/div[2]/p[2]/text()"));
        QCOMPARE(index.find(QStringLiteral("/html/body/div[3]")), -1);
        QCOMPARE(index.find(QStringLiteral("html")), -1);
        QCOMPARE(index.find(QStringLiteral("/html/")), -1);
        // A Document written when ids were XPaths: the id is the XPath.
        Document legacy;
        Node root;
        root.id = QStringLiteral("/");
        legacy.addNode(root, -1);
        Node html;
        html.id = QStringLiteral("/html");
        html.kind = NodeKind::Element;
        legacy.addNode(html, 0);
        QCOMPARE(xpathOf(legacy, 1), QStringLiteral("/html"));
        QCOMPARE(XPathIndex(legacy).find(QStringLiteral("/html")), 1);
    }

    // 100,000 unclosed <div><span>x (1.2 MB): ids stay short and the JSON linear in the input
    // (full XPaths as ids made 480 MB of JSON and 2.8 GB of memory).
    void unclosedNestingStaysLinear()
    {
        QByteArray html = "<html><body>";
        for (int i = 0; i < 100000; ++i)
            html += "<div><span>x";
        html += "</body></html>";
        const HtmlLoadResult r = loadHtmlBytes(html, QStringLiteral("unclosed.html"));
        QVERIFY2(r.ok, qPrintable(r.error));
        qsizetype longestId = 0;
        for (const Node &n : r.document.nodes)
            longestId = qMax(longestId, n.id.size() + n.step.size());
        QVERIFY2(longestId < 40, qPrintable(QString::number(longestId)));
        QCOMPARE(r.document.words.size(), size_t(100000));
        const QByteArray json = documentToJson(r.document, nullptr, false);
        qInfo("%lld bytes of HTML -> %lld bytes of Document JSON", qlonglong(html.size()), qlonglong(json.size()));
        QVERIFY2(json.size() < 60 * html.size(), qPrintable(QString::number(json.size())));
        // The deepest kept text node's XPath: bounded by the element depth cap.
        const QString deepest = xpathOf(r.document, r.document.words.back().node);
        QVERIFY(deepest.startsWith(QStringLiteral("/html/body/div/span/div/span")));
        QVERIFY(deepest.size() < 512 * 16);
    }

    void deepNesting()
    {
        const int depth = 100000;
        QByteArray html;
        html.reserve(depth * 11 + 100);
        for (int i = 0; i < depth; ++i)
            html += "<div>";
        html += "deep text";
        for (int i = 0; i < depth; ++i)
            html += "</div>";
        html += "<p>tail</p>";
        QElapsedTimer t;
        t.start();
        const HtmlLoadResult r = loadHtmlBytes(html, QStringLiteral("deep.html"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(texts(r.document), (QStringList{"deep text", "tail"}));
        QVERIFY(r.warnings.join(QLatin1Char(' ')).contains(QLatin1String("flattened")));
        QVERIFY(r.document.nodes.size() < 1000);
        qInfo("100000-deep page: %lld ms", t.elapsed());
    }

    void hugeTextNode()
    {
        // 100 MB in one text node: truncated with a warning, words from what is kept.
        QByteArray html = "<p>";
        html += QByteArray(100 * 1024 * 1024, 'a');
        html += "</p><p>after</p>";
        const HtmlLoadResult r = loadHtmlBytes(html, QStringLiteral("huge.html"));
        QVERIFY2(r.ok, qPrintable(r.error));
        const QStringList t = texts(r.document);
        QCOMPARE(t.size(), 2);
        QCOMPARE(t[0].size(), HtmlLoadOptions().maxTextChars);
        QCOMPARE(t[1], QStringLiteral("after"));
        QVERIFY(r.warnings.join(QLatin1Char(' ')).contains(QLatin1String("truncated")));
    }

    void sizeLimitsAndMissingFiles()
    {
        HtmlLoadOptions small;
        small.maxFileBytes = 1000;
        HtmlLoadResult r = loadHtmlBytes(QByteArray(5000, 'x'), QStringLiteral("big.html"), small);
        QVERIFY(!r.ok);
        QVERIFY(r.error.startsWith(QLatin1String("big.html: ")));
        QVERIFY(r.error.contains(QLatin1String("limit")));
        HtmlLoadOptions fewNodes;
        fewNodes.maxNodes = 10;
        r = loadHtmlBytes(QByteArray("<ul>") + QByteArray("<li>x</li>").repeated(50) + "</ul>", QStringLiteral("n.html"), fewNodes);
        QVERIFY(!r.ok);
        QVERIFY(r.error.contains(QLatin1String("nodes")));
        r = loadHtmlFile(QStringLiteral("/nonexistent/page.html"));
        QVERIFY(!r.ok);
        QVERIFY(r.error.startsWith(QLatin1String("/nonexistent/page.html: ")));
        r = loadHtmlBytes(QByteArray(), QStringLiteral("empty.html"));
        QVERIFY(r.ok);
        QVERIFY(r.document.words.empty());
    }

    // Issue 36: the count of the markup before parsing (htmlprescan) is near the nodes the loader
    // makes - comments, script/style content, quoted '>' and a '<' in text do not count - and a
    // page whose count passes maxNodes is refused before libxml2 builds a tree.
    void prescanCountsNodes_data()
    {
        QTest::addColumn<QByteArray>("html");
        QTest::newRow("list") << QByteArray("<ul>") + QByteArray("<li>x</li>").repeated(50) + "</ul>";
        QTest::newRow("edges") << QByteArray("<html><head><title>a <b>not a tag</b></title><script>if (a<b) { x = \"<div>\"; }</script>"
                                             "<style>p>b{}</style></head><body><!-- <p>comment</p> --><a title=\"x>y\" href='<q>'>link</a>"
                                             " 1 < 2 <b>x</b><b>x</b><textarea><i>raw</i></textarea><p class=unquoted>t</p></body></html>");
        QTest::newRow("table") << QByteArray("<table>") + QByteArray("<tr><td>a</td><td> b </td></tr>\n").repeated(40) + "</table>";
    }
    void prescanCountsNodes()
    {
        QFETCH(QByteArray, html);
        const HtmlLoadResult r = loadHtmlBytes(html, QStringLiteral("p.html"));
        QVERIFY2(r.ok, qPrintable(r.error));
        const qint64 nodes = qint64(r.document.nodes.size()) - 1; // without the root
        const qint64 estimate = estimateHtmlNodes(html.constData(), html.size(), 1'000'000);
        qInfo("%lld nodes, estimate %lld", (long long)nodes, (long long)estimate);
        QVERIFY(estimate <= nodes + 2);     // never far above what is made (a refusal is honest)
        QVERIFY(estimate >= nodes - 3);     // html, head, body added by the parser
        HtmlLoadOptions limit;
        limit.maxNodes = int(estimate) - 1;
        const HtmlLoadResult refused = loadHtmlBytes(html, QStringLiteral("p.html"), limit);
        QVERIFY(!refused.ok);
        QVERIFY2(refused.error.startsWith(QLatin1String("p.html: more than")), qPrintable(refused.error));
        QVERIFY2(refused.error.contains(QLatin1String("counted before parsing")), qPrintable(refused.error));
    }

    // 2.5 M <b>x</b> (20 MB) took 3.7 GB before "more than 5000000 nodes": refused now from the
    // count before parsing, the process growing by little more than the page itself.
    void tooManyNodesRefusedBeforeParsing()
    {
        const QByteArray html = "<html><body>" + QByteArray("<b>x</b>").repeated(2'500'000) + "</body></html>";
        rusage before{};
        getrusage(RUSAGE_SELF, &before);
        QElapsedTimer t;
        t.start();
        const HtmlLoadResult r = loadHtmlBytes(html, QStringLiteral("many.html"));
        rusage after{};
        getrusage(RUSAGE_SELF, &after);
        const long growthMiB = (after.ru_maxrss - before.ru_maxrss) / 1024;
        qInfo("%lld ms, peak grew by %ld MiB (peak %ld MiB): %s", (long long)t.elapsed(), growthMiB, after.ru_maxrss / 1024,
              qPrintable(r.error));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.startsWith(QLatin1String("many.html: more than 5000000 nodes")), qPrintable(r.error));
        QVERIFY2(growthMiB < 100, qPrintable(QString::number(growthMiB)));
    }

    // Issue 51: pages had no word limit (40 MB of short words: 2.2 GB). A page holds at most
    // 1,000,000 words (what a project stores), checked as they are made: one word over is refused
    // naming the page, the limit itself loads.
    void wordLimit()
    {
        const QByteArray paragraph = "<p>" + QByteArray("w ").repeated(1000) + "</p>\n";
        const HtmlLoadResult atLimit = loadHtmlBytes("<html><body>" + paragraph.repeated(1000) + "</body></html>", QStringLiteral("full.html"));
        QVERIFY2(atLimit.ok, qPrintable(atLimit.error));
        QCOMPARE(atLimit.document.words.size(), size_t(1'000'000));
        const QByteArray over = "<html><body>" + paragraph.repeated(1000) + "<p>one more</p></body></html>";
        const HtmlLoadResult r = loadHtmlBytes(over, QStringLiteral("over.html"));
        QVERIFY(!r.ok);
        QCOMPARE(r.error, QStringLiteral("over.html: more than 1000000 words, the limit for one page"));
        QVERIFY(r.document.words.empty() && r.document.nodes.empty());
    }

    void gzipFiles()
    {
        QTemporaryDir dir;
        const QByteArray html = "<html><body><p>zipped words</p></body></html>";
        // Write a gzip file with zlib's gz* API.
        const QString path = dir.filePath(QStringLiteral("p.html.gz"));
        gzFile gz = gzopen(QFile::encodeName(path).constData(), "wb");
        QVERIFY(gz);
        gzwrite(gz, html.constData(), unsigned(html.size()));
        gzclose(gz);
        HtmlLoadResult r = loadHtmlFile(path);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(texts(r.document), QStringList{QStringLiteral("zipped words")});
        // Corrupt gzip → message naming the file
        QFile f(dir.filePath(QStringLiteral("bad.html.gz")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\x1f\x8b\x08\x00garbage-garbage-garbage");
        f.close();
        r = loadHtmlFile(f.fileName());
        QVERIFY(!r.ok);
        QVERIFY(r.error.contains(QLatin1String("gzip")));
        // Gzip bomb: inflated size over the limit
        QByteArray zeros(4 << 20, ' ');
        QByteArray out;
        QString err;
        const QString bombPath = dir.filePath(QStringLiteral("bomb.html.gz"));
        gz = gzopen(QFile::encodeName(bombPath).constData(), "wb9");
        gzwrite(gz, zeros.constData(), unsigned(zeros.size()));
        gzclose(gz);
        HtmlLoadOptions o;
        o.maxFileBytes = 1 << 20;
        r = loadHtmlFile(bombPath, o);
        QVERIFY(!r.ok);
        QVERIFY(r.error.contains(QLatin1String("limit")));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestHtmlLoader)
#include "tst_htmlloader.moc"
