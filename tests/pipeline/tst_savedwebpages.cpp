// Opening saved web pages (issue 34): an MHTML file and a "Web Page, complete" folder open through
// the one file-type dispatch (pipeline::loadDocumentFile) as the same Document as the HTML itself;
// malformed archives fail with the file named.
#include "document/documentjson.h"
#include "pipeline/documentsource.h"
#include "tests/common/testdata.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

namespace {

const QString kData = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/webpages");

QByteArray comparable(Document doc)
{
    doc.sourcePath.clear();
    return documentToJson(doc, nullptr, false);
}

} // namespace

class TestSavedWebPages : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void mhtmlOpensAsItsPage()
    {
        const QString mhtml = kData + QStringLiteral("/walnut-lamp.mhtml");
        QCOMPARE(pipeline::sniffDocumentFile(mhtml).kind, pipeline::FileKind::Html);
        QVERIFY(pipeline::sniffDocumentFile(mhtml).mhtml);
        const pipeline::LoadedDocument d = pipeline::loadDocumentFile(mhtml);
        QVERIFY2(d.ok, qPrintable(d.error));
        QCOMPARE(d.document.kind, SourceKind::Html);
        QCOMPARE(d.document.sourcePath, mhtml);
        QCOMPARE(d.document.title, QStringLiteral("Walnut desk lamp \u2013 Atelier Cr\u00e8me"));
        const pipeline::LoadedDocument bare = pipeline::loadDocumentFile(kData + QStringLiteral("/walnut-lamp-bare.html"));
        QVERIFY(bare.ok);
        QCOMPARE(comparable(d.document), comparable(bare.document));
        // Sniffed by content too: the same archive under another name.
        const QString renamed = m_dir.filePath(QStringLiteral("archive.dat"));
        QVERIFY(QFile::copy(mhtml, renamed));
        const pipeline::LoadedDocument r = pipeline::loadDocumentFile(renamed);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(comparable(r.document), comparable(bare.document));
    }

    void folderOpensAsItsPage()
    {
        const QString folder = kData + QStringLiteral("/walnut-lamp");
        const pipeline::LoadedDocument d = pipeline::loadDocumentFile(folder);
        QVERIFY2(d.ok, qPrintable(d.error));
        QCOMPARE(d.document.sourcePath, folder + QStringLiteral("/walnut-lamp.html"));
        const pipeline::LoadedDocument page = pipeline::loadDocumentFile(folder + QStringLiteral("/walnut-lamp.html"));
        QVERIFY(page.ok);
        QCOMPARE(documentToJson(d.document), documentToJson(page.document));
        QVERIFY(d.document.words.size() > 20);
        // An empty folder: says what it looked for.
        const pipeline::LoadedDocument none = pipeline::loadDocumentFile(m_dir.path());
        QVERIFY(!none.ok);
        QVERIFY2(none.error.contains(QLatin1String("no saved web page")), qPrintable(none.error));
    }

    void malformedArchivesFailWithTheFileNamed()
    {
        const QString notMime = test::writeTestFile(m_dir, QStringLiteral("plain.mht"), "just some text, not MIME");
        pipeline::LoadedDocument d = pipeline::loadDocumentFile(notMime);
        QVERIFY(!d.ok);
        QVERIFY2(d.error.startsWith(notMime + QStringLiteral(": not an MHTML file")), qPrintable(d.error));
        const QString noPage = test::writeTestFile(m_dir, QStringLiteral("nopage.mhtml"),
            "Content-Type: multipart/related; boundary=q\r\n\r\n--q\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\nAAAA\r\n--q--\r\n");
        d = pipeline::loadDocumentFile(noPage);
        QVERIFY(!d.ok);
        QVERIFY2(d.error.startsWith(noPage) && d.error.contains(QLatin1String("no text/html part")), qPrintable(d.error));
    }

    void dialogsOfferTheSuffixes()
    {
        QVERIFY(pipeline::documentFileDialogFilter().contains(QLatin1String("*.mhtml")));
        QVERIFY(pipeline::documentFileSuffixes().contains(QStringLiteral("mht")));
        QVERIFY(pipeline::hasDocumentSuffix(QStringLiteral("x.MHT")));
    }
};

FOLIO_TEST_MAIN(TestSavedWebPages)
#include "tst_savedwebpages.moc"
