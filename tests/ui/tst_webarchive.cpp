// Saved web pages as they looked (issue 34): a "Web Page, complete" folder and an MHTML file render
// offline with their own style sheet and image (computed styles checked in the page), the header
// counts the saved resources shown and the outside requests blocked, nothing reaches the network,
// and the Document stays the one of the bare HTML. Real QtWebEngine, offscreen.
#include "document/documentjson.h"
#include "document/html/htmlloader.h"
#include "document/html/mhtml.h"
#include "ui/documents/webarchive.h"
#include "ui/documents/webloadstatus.h"
#include "ui/documents/webpage.h"
#include "ui/documents/webpagepanel.h"
#include "tests/common/testdata.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QWebEngineScript>

using namespace folio;

namespace {

const QString kData = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/webpages");

QByteArray comparable(Document doc)
{
    doc.sourcePath.clear();
    return documentToJson(doc, nullptr, false);
}

// The Document pipeline::loadDocumentFile gives an MHTML file: its page, sourcePath the archive.
Document mhtmlDocument(const QString &path)
{
    const MhtmlArchive a = readMhtmlFile(path);
    if (!a.ok)
        return {};
    HtmlLoadOptions options;
    options.encoding = a.parts[size_t(a.htmlPart)].charset;
    return loadHtmlBytes(a.parts[size_t(a.htmlPart)].body, path, options).document;
}

// Runs `js` in Folio's isolated world and returns its value (as a string).
QString evaluate(QWebEnginePage *page, const QString &js)
{
    QString result = QStringLiteral("<no answer>");
    bool done = false;
    page->runJavaScript(js, QWebEngineScript::ApplicationWorld, [&](const QVariant &v) {
        result = v.toString();
        done = true;
    });
    QElapsedTimer t;
    t.start();
    while (!done && t.elapsed() < 10000)
        QTest::qWait(20);
    return result;
}

bool renderInPanel(WebPagePanel *web, const Document &doc, QSignalSpy *failed)
{
    QSignalSpy rendered(web, &WebPagePanel::rendered);
    web->setDocument(doc);
    QElapsedTimer t;
    t.start();
    while (rendered.isEmpty() && failed->isEmpty() && t.elapsed() < 60000)
        QTest::qWait(50);
    QTest::qWait(300); // late requests (the image) settle
    return !rendered.isEmpty();
}

} // namespace

class TestWebArchive : public QObject
{
    Q_OBJECT

    // The page's own rules are applied and its image is drawn.
    static void checkStyled(WebPagePanel *web)
    {
        QWebEnginePage *page = web->page();
        QCOMPARE(evaluate(page, QStringLiteral("getComputedStyle(document.querySelector('h1.title')).color")),
                 QStringLiteral("rgb(178, 34, 34)"));
        QCOMPARE(evaluate(page, QStringLiteral("getComputedStyle(document.body).backgroundColor")),
                 QStringLiteral("rgb(250, 244, 230)"));
        QCOMPARE(evaluate(page, QStringLiteral("getComputedStyle(document.querySelector('.price')).fontWeight")),
                 QStringLiteral("700"));
        QCOMPARE(evaluate(page, QStringLiteral("String(document.querySelector('img.logo').naturalWidth)")), QStringLiteral("48"));
        QCOMPARE(evaluate(page, QStringLiteral("String(document.querySelector('img.logo').getBoundingClientRect().width)")),
                 QStringLiteral("100")); // 96 px wide + the style sheet's 2 px border each side
    }

    static void checkHeader(WebPagePanel *web)
    {
        const WebLoadStatus &s = web->loadStatus();
        QVERIFY(!s.failed);
        QCOMPARE(s.served, 2); // the style sheet and the logo
        QVERIFY2(s.text.startsWith(QLatin1String("Rendered offline")) && s.text.endsWith(QLatin1String("2 saved resources shown")),
                 qPrintable(s.text));
        // The font service's style sheet was not saved: blocked, and listed. (The tracker script is
        // not even asked for with page scripts off.)
        QCOMPARE(s.blocked, 1);
        QVERIFY(s.blockedLines.join(QLatin1Char(' ')).contains(QLatin1String("fonts.example.com")));
        QVERIFY(s.blockedToolTip.contains(QLatin1String("own saved resources (2) were shown")));
        auto *header = web->findChild<QLabel *>(QStringLiteral("webStatus"));
        QVERIFY(header && !header->text().contains(QLatin1String("fail"), Qt::CaseInsensitive));
    }

private Q_SLOTS:
    void completeFolderRendersWithItsCss()
    {
        const QString path = kData + QStringLiteral("/walnut-lamp/walnut-lamp.html");
        const HtmlLoadResult r = loadHtmlFile(path);
        QVERIFY(r.ok);
        WebPagePanel web;
        web.resize(1000, 700);
        web.show();
        QSignalSpy failed(&web, &WebPagePanel::failed);
        QVERIFY2(renderInPanel(&web, r.document, &failed), failed.isEmpty() ? "timeout" : qPrintable(failed.first().first().toString()));
        checkStyled(&web);
        checkHeader(&web);
    }

    void mhtmlRendersFromItsParts()
    {
        const QString path = kData + QStringLiteral("/walnut-lamp.mhtml");
        const Document doc = mhtmlDocument(path);
        QVERIFY(!doc.nodes.empty());
        const HtmlLoadResult bare = loadHtmlFile(kData + QStringLiteral("/walnut-lamp-bare.html"));
        QVERIFY(bare.ok);
        QCOMPARE(comparable(doc), comparable(bare.document)); // the same Document and DOM tree
        WebPagePanel web;
        web.resize(1000, 700);
        web.show();
        QSignalSpy failed(&web, &WebPagePanel::failed);
        QVERIFY2(renderInPanel(&web, doc, &failed), failed.isEmpty() ? "timeout" : qPrintable(failed.first().first().toString()));
        QVERIFY(web.page()->url().scheme() == QLatin1String("folio-archive"));
        QVERIFY(web.page()->archive());
        checkStyled(&web);
        checkHeader(&web);
        // Every word of the page got its box, as for any rendered page (the <title>'s are not drawn).
        const Document &placed = web.document();
        int boxed = 0;
        for (const Word &w : placed.words)
            boxed += w.box.isNull() ? 0 : 1;
        QCOMPARE(boxed, int(placed.words.size()) - int(placed.title.split(QLatin1Char(' ')).size()));
        // No file: access from an archive page, and only this archive's parts.
        OfflineUrlInterceptor *policy = web.page()->interceptor();
        QVERIFY(!policy->isAllowed(QUrl::fromLocalFile(kData + QStringLiteral("/walnut-lamp-bare.html"))));
        const QUrl css = archiveUrlFor(QUrl(QStringLiteral("https://atelier.example/shop/static/site.css")), web.page()->url().port());
        QVERIFY(policy->isAllowed(css));
        QUrl otherToken = css;
        otherToken.setPort(css.port() + 1);
        QVERIFY(!policy->isAllowed(otherToken));
        QVERIFY(!policy->isAllowed(archiveUrlFor(QUrl(QStringLiteral("https://atelier.example/shop/secret.txt")), css.port())));
    }

    void corruptArchiveSaysWhy()
    {
        QTemporaryDir dir;
        const QString path = test::writeTestFile(dir, QStringLiteral("broken.mhtml"), "Content-Type: text/plain\r\n\r\nnot an archive");
        Document doc;
        doc.kind = SourceKind::Html;
        doc.sourcePath = path;
        WebPagePanel web;
        web.show();
        QSignalSpy failed(&web, &WebPagePanel::failed);
        web.setDocument(doc);
        QCOMPARE(failed.size(), 1);
        QVERIFY2(failed.first().first().toString().contains(QLatin1String("not an MHTML file")), qPrintable(failed.first().first().toString()));
        QVERIFY(web.loadStatus().failed);
    }

    void archiveUrlsRoundTrip()
    {
        const QUrl original(QStringLiteral("https://Shop.Example/a/b%20c.css?v=2#top"));
        const QUrl mapped = archiveUrlFor(original, 4321);
        QCOMPARE(mapped.scheme(), QStringLiteral("folio-archive"));
        QCOMPARE(mapped.port(), 4321);
        QCOMPARE(mapped.host(), QStringLiteral("shop.example"));
        QCOMPARE(originalUrlOf(mapped).toString(QUrl::FullyEncoded), QStringLiteral("https://shop.example/a/b%20c.css?v=2"));
        const QUrl local = archiveUrlFor(QUrl(QStringLiteral("file:///C:/saved/page.html")), 7);
        QCOMPARE(originalUrlOf(local).toString(QUrl::FullyEncoded), QStringLiteral("file:///C:/saved/page.html"));
    }
};

FOLIO_TEST_MAIN(TestWebArchive)
#include "tst_webarchive.moc"
