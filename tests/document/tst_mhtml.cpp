// MHTML archives and "Web Page, complete" folders (issue 34): the bounded parser reads a browser's
// single-file save (quoted-printable and base64 parts, folded headers, Content-Location and
// Content-ID), its page gives the same Document as the HTML saved bare, and malformed archives
// (truncated, corrupt base64, a 10 MB header, nested and deeply nested multiparts, no page) end in
// a clear error or a best-effort read, never a crash.
#include "document/documentjson.h"
#include "document/html/htmlloader.h"
#include "document/html/mhtml.h"
#include "document/html/savedpage.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>

using namespace folio;

namespace {

const QString kData = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/webpages");

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A Document as JSON without its source path (the same page from another file).
QByteArray comparable(Document doc)
{
    doc.sourcePath.clear();
    return documentToJson(doc, nullptr, false);
}

QByteArray mime(const QByteArray &boundary, const QList<QByteArray> &parts, bool close = true)
{
    QByteArray out = "MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"" + boundary + "\"\r\n\r\n";
    for (const QByteArray &p : parts)
        out += "--" + boundary + "\r\n" + p + "\r\n";
    if (close)
        out += "--" + boundary + "--\r\n";
    return out;
}

const QByteArray kPage = "Content-Type: text/html\r\nContent-Location: https://x.example/a.html\r\n\r\n<html><body><p>Hi</p></body></html>";

} // namespace

class TestMhtml : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsTheFixture()
    {
        const MhtmlArchive a = readMhtmlFile(kData + QStringLiteral("/walnut-lamp.mhtml"));
        QVERIFY2(a.ok, qPrintable(a.error));
        QVERIFY2(a.warnings.isEmpty(), qPrintable(a.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(int(a.parts.size()), 3);
        QCOMPARE(a.htmlPart, 0);
        const MhtmlPart &page = a.parts[0];
        QCOMPARE(page.contentType, QByteArray("text/html"));
        QCOMPARE(page.charset, QByteArray("utf-8"));
        QCOMPARE(page.contentId, QStringLiteral("frame-1@mhtml.folio"));
        QVERIFY(page.body.contains("<p class=\"price\">\xe2\x82\xac" "89.00</p>")); // =E2=82=AC decoded, '=3D' too
        QVERIFY(page.body.contains("https://atelier.example/shop/static/site.css\">")); // a soft line break joined
        // Resources by their address (http and https alike, fragment ignored) and by Content-ID.
        const int css = a.findPart(QUrl(QStringLiteral("http://atelier.example/shop/static/site.css#x")));
        QCOMPARE(css, 1);
        QCOMPARE(a.parts[1].contentType, QByteArray("text/css"));
        QVERIFY(a.parts[1].body.contains("rgb(178, 34, 34)"));
        const int png = a.findPart(QUrl(QStringLiteral("https://atelier.example/shop/img/logo.png")));
        QCOMPARE(png, 2);
        QCOMPARE(a.parts[2].body, readAll(kData + QStringLiteral("/walnut-lamp/walnut-lamp_files/logo.png")));
        QCOMPARE(a.findPart(QUrl(QStringLiteral("cid:frame-1@mhtml.folio"))), 0);
        QCOMPARE(a.findPart(QUrl(QStringLiteral("https://tracker.example.com/t.js"))), -1);
        QVERIFY(looksLikeMhtml(readAll(kData + QStringLiteral("/walnut-lamp.mhtml")).left(4096)));
        QVERIFY(!looksLikeMhtml("<!DOCTYPE html><html></html>"));
        QVERIFY(hasMhtmlSuffix(QStringLiteral("a/B.MHT")) && hasMhtmlSuffix(QStringLiteral("b.mhtml")) && !hasMhtmlSuffix(QStringLiteral("c.html")));
    }

    void pageIsTheSameDocumentAsTheBareHtml()
    {
        const MhtmlArchive a = readMhtmlFile(kData + QStringLiteral("/walnut-lamp.mhtml"));
        QVERIFY(a.ok);
        HtmlLoadOptions options;
        options.encoding = a.parts[0].charset;
        const HtmlLoadResult fromArchive = loadHtmlBytes(a.parts[0].body, QStringLiteral("walnut-lamp.mhtml"), options);
        const HtmlLoadResult bare = loadHtmlFile(kData + QStringLiteral("/walnut-lamp-bare.html"));
        QVERIFY(fromArchive.ok && bare.ok);
        QVERIFY(bare.document.words.size() > 20);
        QCOMPARE(comparable(fromArchive.document), comparable(bare.document));
    }

    void decoders()
    {
        int strays = 0;
        QCOMPARE(decodeQuotedPrintable("a=3Db=\r\nc=E2=82=AC=\nd", &strays), QByteArray("a=bc\xe2\x82\xac" "d"));
        QCOMPARE(strays, 0);
        QCOMPARE(decodeQuotedPrintable("50% =ZZ off=", &strays), QByteArray("50% =ZZ off"));
        QCOMPARE(strays, 1);
        QByteArray out;
        QVERIFY(decodeBase64Strict("aGVs\r\nbG8=\r\n", &out));
        QCOMPARE(out, QByteArray("hello"));
        QVERIFY(!decodeBase64Strict("aGVs*bG8=", &out));
    }

    void foldedHeadersAndLfLineEnds()
    {
        const QByteArray bytes = "MIME-Version: 1.0\nContent-Type: multipart/related;\n\ttype=\"text/html\";\n boundary=b1\n\n"
                                 "--b1\nContent-Type: text/html;\n charset=\"ISO-8859-1\"\nContent-Location:\n https://x.example/p.html\n\n"
                                 "<p>Caf\xe9</p>\n--b1--\n";
        const MhtmlArchive a = parseMhtml(bytes, QStringLiteral("lf.mht"));
        QVERIFY2(a.ok, qPrintable(a.error));
        QCOMPARE(a.parts[0].charset, QByteArray("iso-8859-1"));
        QCOMPARE(a.parts[0].location, QStringLiteral("https://x.example/p.html"));
        QCOMPARE(a.parts[0].body, QByteArray("<p>Caf\xe9</p>"));
    }

    void truncatedBoundaryIsBestEffort()
    {
        // The file stops inside its second part: no closing boundary. The page is kept, with a warning.
        QByteArray bytes = mime("b2", {kPage, "Content-Type: text/css\r\nContent-Location: https://x.example/s.css\r\n\r\np{color:red}"}, false);
        bytes.chop(6);
        const MhtmlArchive a = parseMhtml(bytes, QStringLiteral("cut.mht"));
        QVERIFY2(a.ok, qPrintable(a.error));
        QCOMPARE(int(a.parts.size()), 2);
        QVERIFY(a.warnings.join(QLatin1Char(' ')).contains(QLatin1String("truncated")));
        QVERIFY(a.warnings.first().startsWith(QLatin1String("cut.mht: ")));
        // Cut inside the page's own header: no page, a clear error.
        const MhtmlArchive b = parseMhtml(mime("b2", {}, false) + "--b2\r\nContent-Ty", QStringLiteral("cut2.mht"));
        QVERIFY(!b.ok);
        QVERIFY2(b.error.startsWith(QLatin1String("cut2.mht: ")) && b.error.contains(QLatin1String("text/html")), qPrintable(b.error));
        // A boundary the body never uses.
        const MhtmlArchive c = parseMhtml("Content-Type: multipart/related; boundary=zz\r\n\r\n<html></html>", QStringLiteral("c.mht"));
        QVERIFY(!c.ok);
        QVERIFY2(c.error.contains(QLatin1String("no boundary line")), qPrintable(c.error));
    }

    void badBase64PartIsSkipped()
    {
        const QByteArray bad = "Content-Type: image/png\r\nContent-Transfer-Encoding: base64\r\nContent-Location: https://x.example/i.png\r\n\r\niVBOR*&^%w0KGgo=";
        const MhtmlArchive a = parseMhtml(mime("b3", {kPage, bad}), QStringLiteral("b64.mht"));
        QVERIFY2(a.ok, qPrintable(a.error));
        QCOMPARE(int(a.parts.size()), 1);
        QVERIFY2(a.warnings.join(QLatin1Char(' ')).contains(QLatin1String("corrupt base64")), qPrintable(a.warnings.join(QLatin1Char(' '))));
        QVERIFY(a.warnings.join(QLatin1Char(' ')).contains(QLatin1String("https://x.example/i.png")));
        // The page itself corrupt: nothing to show.
        const QByteArray badPage = "Content-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!!";
        const MhtmlArchive b = parseMhtml(mime("b3", {badPage}), QStringLiteral("b64page.mht"));
        QVERIFY(!b.ok);
        QVERIFY2(b.error.contains(QLatin1String("no readable part")), qPrintable(b.error));
    }

    void hugePartHeaderIsRefused()
    {
        // A 10 MB header line in a part: refused at the 64 KB header limit, nothing allocated for it.
        QByteArray huge = "Content-Type: text/html\r\nX-Junk: " + QByteArray(10 << 20, 'a') + "\r\n\r\n<p>x</p>";
        const MhtmlArchive a = parseMhtml(mime("b4", {huge}), QStringLiteral("huge.mht"));
        QVERIFY(!a.ok);
        QVERIFY2(a.error.startsWith(QLatin1String("huge.mht: part 1: a header block is longer than 64 KB")), qPrintable(a.error));
        // The same at the top level.
        const MhtmlArchive b = parseMhtml("Subject: " + QByteArray(10 << 20, 'b') + "\r\n", QStringLiteral("top.mht"));
        QVERIFY(!b.ok);
        QVERIFY2(b.error.contains(QLatin1String("header block is longer than 64 KB")), qPrintable(b.error));
        // And a file over the size limit is refused before it is parsed.
        MhtmlLimits small;
        small.maxFileBytes = 1000;
        const MhtmlArchive c = parseMhtml(mime("b4", {kPage}) + QByteArray(2000, ' '), QStringLiteral("big.mht"), small);
        QVERIFY(!c.ok);
        QVERIFY2(c.error.contains(QLatin1String("the limit is 1000 bytes")), qPrintable(c.error));
    }

    void nestedMultipartsAreFlattenedWithinADepth()
    {
        const QByteArray inner = "Content-Type: multipart/alternative; boundary=in1\r\n\r\n"
                                 "--in1\r\nContent-Type: text/plain\r\n\r\nplain\r\n"
                                 "--in1\r\nContent-Type: text/html\r\nContent-Location: https://x.example/n.html\r\n\r\n<p>nested</p>\r\n--in1--";
        const MhtmlArchive a = parseMhtml(mime("out", {inner, "Content-Type: text/css\r\n\r\np{}"}), QStringLiteral("nested.mht"));
        QVERIFY2(a.ok, qPrintable(a.error));
        QCOMPARE(int(a.parts.size()), 3);
        QCOMPARE(a.htmlPart, 1);
        QCOMPARE(a.parts[1].body, QByteArray("<p>nested</p>"));
        // 50 levels deep: the levels past the limit are skipped with a warning, no recursion blow-up.
        QByteArray deep = "<p>deep</p>";
        QByteArray type = "text/html";
        for (int i = 0; i < 50; ++i) {
            const QByteArray b = "d" + QByteArray::number(i);
            deep = "--" + b + "\r\nContent-Type: " + type + "\r\n\r\n" + deep + "\r\n--" + b + "--";
            type = "multipart/related; boundary=" + b;
        }
        const MhtmlArchive d = parseMhtml("Content-Type: " + type + "\r\n\r\n" + deep, QStringLiteral("deep.mht"));
        QVERIFY(!d.ok); // the page was below the depth limit
        QVERIFY2(d.warnings.join(QLatin1Char(' ')).contains(QLatin1String("nested deeper than 4 levels")), qPrintable(d.warnings.join(QLatin1Char(' '))));
        // A nested multipart without a boundary spoils only itself.
        const MhtmlArchive e = parseMhtml(mime("o2", {"Content-Type: multipart/mixed\r\n\r\njunk", kPage}), QStringLiteral("nb.mht"));
        QVERIFY2(e.ok, qPrintable(e.error));
        QVERIFY(e.warnings.join(QLatin1Char(' ')).contains(QLatin1String("boundary is missing")));
    }

    void notMhtmlAtAll()
    {
        for (const QByteArray &bytes : {QByteArray(), QByteArray("<html><body>plain</body></html>"),
                                        QByteArray("Content-Type: text/html\r\n\r\n<p>x</p>"),
                                        QByteArray("\x89PNG\r\n\x1a\n\0\0\0", 11)}) {
            const MhtmlArchive a = parseMhtml(bytes, QStringLiteral("x.mht"));
            QVERIFY(!a.ok);
            QVERIFY2(a.error.startsWith(QLatin1String("x.mht: not an MHTML file")), qPrintable(a.error));
        }
        const MhtmlArchive missing = readMhtmlFile(QStringLiteral("/nonexistent/a.mht"));
        QVERIFY(!missing.ok && missing.error.contains(QLatin1String("no such file")));
        // Many tiny parts: capped.
        QList<QByteArray> parts(30, QByteArray("Content-Type: text/plain\r\n\r\nx"));
        MhtmlLimits few;
        few.maxParts = 20;
        const MhtmlArchive m = parseMhtml(mime("m", parts), QStringLiteral("many.mht"), few);
        QVERIFY(!m.ok && m.error.contains(QLatin1String("more than 20 parts")));
    }

    void randomGarbageNeverCrashes()
    {
        const QByteArray good = readAll(kData + QStringLiteral("/walnut-lamp.mhtml"));
        QVERIFY(!good.isEmpty());
        quint32 seed = 34;
        for (int round = 0; round < 300; ++round) {
            QByteArray bytes = good;
            for (int k = 0; k < 8; ++k) {
                seed = seed * 1664525u + 1013904223u;
                const int at = int(seed % quint32(bytes.size()));
                switch (seed >> 29) {
                case 0: bytes.truncate(at); break;
                case 1: bytes.remove(at, 40); break;
                default: bytes[at] = char(seed >> 8); break;
                }
                if (bytes.isEmpty())
                    break;
            }
            const MhtmlArchive a = parseMhtml(bytes, QStringLiteral("fuzz.mht"));
            QVERIFY(a.ok || !a.error.isEmpty());
            QVERIFY(!a.ok || (a.htmlPart >= 0 && a.htmlPart < int(a.parts.size())));
        }
    }

    // Issue 51: the base64 decoder (one pass, no compacted copy) agrees with Qt's on every length
    // and padding, and refuses what Qt's strict mode refuses.
    void base64AgreesWithQt()
    {
        QByteArray data;
        for (int n = 0; n < 200; ++n) {
            const QByteArray encoded = data.toBase64();
            QByteArray out;
            QVERIFY2(decodeBase64Strict(encoded, &out), encoded.constData());
            QCOMPARE(out, data);
            // Line breaks every 76 characters, as mail writes it.
            QByteArray wrapped;
            for (int i = 0; i < encoded.size(); i += 76)
                wrapped += encoded.mid(i, 76) + "\r\n";
            QVERIFY(decodeBase64Strict(wrapped, &out));
            QCOMPARE(out, data);
            // Without padding: the same bytes.
            QByteArray bare = encoded;
            while (bare.endsWith('='))
                bare.chop(1);
            QVERIFY(decodeBase64Strict(bare, &out));
            QCOMPARE(out, data);
            data += char(n * 37 + 11);
        }
        QByteArray out;
        for (const char *bad : {"QQ=", "Q", "QUJD=", "QQ==QQ==", "QQ=A", "QU JD*"})
            QVERIFY2(!decodeBase64Strict(bad, &out), bad);
    }

    // Issue 51: 19,000 parts each naming a boundary that never appears made every part search to
    // the end of the file (31 MB: hours). Each search now stops at its part's end: linear.
    void boundariesThatNeverAppearAreLinear()
    {
        auto archive = [](int parts) {
            QList<QByteArray> list;
            const QByteArray filler = QByteArray("lorem ipsum ").repeated(100);
            for (int i = 0; i < parts; ++i)
                list << "Content-Type: multipart/mixed; boundary=\"never" + QByteArray::number(i) + "\"\r\n\r\n" + filler;
            list << kPage;
            return mime("top", list);
        };
        qint64 ms[2] = {0, 0};
        const int counts[2] = {2000, 19000};
        for (int k = 0; k < 2; ++k) {
            const QByteArray bytes = archive(counts[k]);
            QElapsedTimer clock;
            clock.start();
            const MhtmlArchive a = parseMhtml(bytes, QStringLiteral("n.mht"));
            ms[k] = clock.elapsed();
            qInfo("%d parts, %lld MB: %lld ms", counts[k], (long long)(bytes.size() >> 20), (long long)ms[k]);
            QVERIFY2(a.ok, qPrintable(a.error));
            QCOMPARE(a.parts.size(), size_t(1));
            QCOMPARE(a.parts[0].body, QByteArray("<html><body><p>Hi</p></body></html>"));
            // Warnings are kept to 50 and the rest counted.
            QCOMPARE(a.warnings.size(), 51);
            QVERIFY2(a.warnings.last() == QStringLiteral("n.mht: %1 more warnings like these").arg(counts[k] - 50), qPrintable(a.warnings.last()));
        }
        QVERIFY2(ms[1] < 10000, qPrintable(QString::number(ms[1])));
        QVERIFY2(ms[1] < 20 * ms[0] + 500, qPrintable(QStringLiteral("%1 ms vs %2 ms").arg(ms[1]).arg(ms[0])));
    }

    // Issue 51: the GUI's Cancel reaches the unpacking (polled between parts); the parts' decoded
    // bytes are bounded before each is allocated.
    void cancelAndDecodedBudget()
    {
        const QByteArray bytes = mime("b", {kPage, "Content-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                                                   + QByteArray(3000, 'x').toBase64()});
        std::atomic_bool cancel{true};
        MhtmlLimits limits;
        limits.cancel = &cancel;
        MhtmlArchive a = parseMhtml(bytes, QStringLiteral("c.mht"), limits);
        QVERIFY(!a.ok);
        QCOMPARE(a.error, QStringLiteral("c.mht: cancelled"));
        cancel = false;
        a = parseMhtml(bytes, QStringLiteral("c.mht"), limits);
        QVERIFY2(a.ok, qPrintable(a.error));
        QCOMPARE(a.parts.size(), size_t(2));
        limits.cancel = nullptr;
        limits.maxDecodedBytes = 2000;
        a = parseMhtml(bytes, QStringLiteral("c.mht"), limits);
        QVERIFY(!a.ok);
        QVERIFY2(a.error.startsWith(QStringLiteral("c.mht: part 2 (image/png): the parts decode to more than")), qPrintable(a.error));
        // Inside a nested multipart: the same, not a skipped nested part.
        const QByteArray nested = mime("o", {"Content-Type: multipart/related; boundary=\"i\"\r\n\r\n--i\r\n" + kPage
                                             + "\r\n--i\r\nContent-Type: text/plain\r\n\r\n" + QByteArray(3000, 'y') + "\r\n--i--"});
        a = parseMhtml(nested, QStringLiteral("n.mht"), limits);
        QVERIFY(!a.ok);
        QVERIFY2(a.error.contains(QStringLiteral("the parts decode to more than")), qPrintable(a.error));
    }

    void savedPageFolders()
    {
        const QString folder = kData + QStringLiteral("/walnut-lamp");
        const QString page = folder + QStringLiteral("/walnut-lamp.html");
        QCOMPARE(savedWebPageFile(folder), page);
        QCOMPARE(savedWebPageFile(folder + QStringLiteral("/walnut-lamp_files")), page);
        QCOMPARE(savedWebPageFile(page), page); // a file comes back as is
        QCOMPARE(savedWebPageResources(page), folder + QStringLiteral("/walnut-lamp_files"));
        QVERIFY(savedWebPageResources(kData + QStringLiteral("/walnut-lamp-bare.html")).isEmpty());
        // No page, or several: a message that says so.
        QTemporaryDir dir;
        QString why;
        QVERIFY(savedWebPageFile(dir.path(), &why).isEmpty());
        QVERIFY2(why.contains(QLatin1String("no saved web page")) && why.contains(QLatin1String("_files")), qPrintable(why));
        test::writeTestFile(dir, QStringLiteral("a.html"), "<p>a</p>");
        QCOMPARE(savedWebPageFile(dir.path()), dir.filePath(QStringLiteral("a.html"))); // the only page
        test::writeTestFile(dir, QStringLiteral("b.htm"), "<p>b</p>");
        QVERIFY(savedWebPageFile(dir.path(), &why).isEmpty());
        QVERIFY2(why.contains(QLatin1String("2 web pages")), qPrintable(why));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("b_files")));
        QCOMPARE(savedWebPageFile(dir.path()), dir.filePath(QStringLiteral("b.htm"))); // the one with its _files
    }
};

FOLIO_TEST_GUILESS_MAIN(TestMhtml)
#include "tst_mhtml.moc"
