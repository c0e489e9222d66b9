// File-type dispatch of folio_pipeline: the kind comes from the content (JSON keys, magic numbers,
// gzip content), every refusal names the file and the problem.
#include "document/documentjson.h"
#include "pipeline/documentsource.h"
#include "tests/pipeline/samplefiles.h"
#include "tests/common/testdata.h"

#include <QBuffer>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;
using folio::pipeline::FileKind;
using folio::test::gzipBytes;

namespace {

QByteArray imageBytes(const char *format)
{
    QImage image(40, 30, QImage::Format_RGB32);
    image.fill(Qt::white);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, format);
    return bytes;
}

// A one-page Folio Document whose words and nodes mention <form> and "form" (an HTML form).
QByteArray folioDocumentWithForm()
{
    Document doc;
    doc.kind = folio::SourceKind::Html;
    doc.sourcePath = QStringLiteral("page.html");
    Page page;
    page.size = QSizeF(800, 600);
    doc.pages.push_back(page);
    Node root;
    root.kind = NodeKind::Root;
    root.id = QStringLiteral("/");
    doc.nodes.push_back(root);
    Node form;
    form.kind = NodeKind::Element;
    form.tag = QStringLiteral("form");
    form.id = QStringLiteral("/html/body/form");
    form.attributes.push_back({QStringLiteral("data-x"), QStringLiteral("\"form\": [1]")});
    const int formIndex = doc.addNode(form, 0);
    Node text;
    text.kind = NodeKind::Text;
    text.id = QStringLiteral("/html/body/form/text()");
    text.text = QStringLiteral("<form> Name");
    const int textIndex = doc.addNode(text, formIndex);
    for (const QString &w : {QStringLiteral("<form>"), QStringLiteral("Name")}) {
        Word word;
        word.id = QStringLiteral("/html/body/form/text()#%1").arg(doc.words.size());
        word.text = w;
        word.node = textIndex;
        doc.words.push_back(word);
    }
    return documentToJson(doc);
}

} // namespace

class TestDocumentSource : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes) { return test::writeTestFile(m_dir, name, bytes); }

    static QByteArray funsdJson()
    {
        return R"({"form": [{"id": 0, "label": "question", "text": "Name:", "box": [10, 10, 60, 20],
                   "words": [{"text": "Name:", "box": [10, 10, 60, 20]}], "linking": [[0, 1]]},
                  {"id": 1, "label": "answer", "text": "John Smith", "box": [70, 10, 150, 20],
                   "words": [{"text": "John", "box": [70, 10, 100, 20]}, {"text": "Smith", "box": [105, 10, 150, 20]}],
                   "linking": [[0, 1]]}]})";
    }

private Q_SLOTS:
    void sniffsByContent_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("gzip");
        const QByteArray html = "<!DOCTYPE html><html><body><p>Hello form world</p></body></html>";
        QTest::newRow("folio json with <form> inside") << "page.json" << folioDocumentWithForm() << int(FileKind::FolioJson) << false;
        QTest::newRow("funsd json") << "0001.json" << funsdJson() << int(FileKind::FunsdJson) << false;
        QTest::newRow("json with bom") << "bom.json" << QByteArray("\xef\xbb\xbf\n  ") + funsdJson() << int(FileKind::FunsdJson) << false;
        QTest::newRow("html") << "a.html" << html << int(FileKind::Html) << false;
        QTest::newRow("html without suffix") << "page" << html << int(FileKind::Html) << false;
        QTest::newRow("html.gz") << "a.html.gz" << gzipBytes(html) << int(FileKind::Html) << true;
        QTest::newRow("htm.gz") << "b.htm.gz" << gzipBytes(html) << int(FileKind::Html) << true;
        QTest::newRow("png") << "scan.png" << imageBytes("PNG") << int(FileKind::Scan) << false;
        QTest::newRow("png named .json") << "scan.json" << imageBytes("PNG") << int(FileKind::Scan) << false;
        QTest::newRow("jpeg") << "scan.jpg" << imageBytes("JPEG") << int(FileKind::Scan) << false;
        QTest::newRow("bmp") << "scan.bmp" << imageBytes("BMP") << int(FileKind::Scan) << false;
        QTest::newRow("tiff le") << "scan.tif" << QByteArray("II*\0\x08\0\0\0", 8) + QByteArray(64, '\0') << int(FileKind::Scan) << false;
        QTest::newRow("tiff be") << "scan.tiff" << QByteArray("MM\0*\0\0\0\x08", 8) + QByteArray(64, '\0') << int(FileKind::Scan) << false;
        QTest::newRow("pnm") << "scan.pgm" << QByteArray("P5\n2 2\n255\n\0\0\0\0", 15) << int(FileKind::Scan) << false;
        QTest::newRow("pdf") << "doc.pdf" << QByteArray("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n") << int(FileKind::Pdf) << false;
    }

    void sniffsByContent()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(int, kind);
        QFETCH(bool, gzip);
        QVERIFY(!bytes.isEmpty());
        const pipeline::FileSniff s = pipeline::sniffDocumentFile(write(name, bytes));
        QVERIFY2(s.error.isEmpty(), qPrintable(s.error));
        QCOMPARE(pipeline::fileKindName(s.kind), pipeline::fileKindName(FileKind(kind)));
        QCOMPARE(s.gzip, gzip);
    }

    void refusesWithFileAndProblem_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("problem");
        QByteArray corrupt = gzipBytes("<html><body>x</body></html>");
        corrupt = corrupt.left(12) + QByteArray(24, '\x5a');
        QByteArray junk(600, '\0');
        for (int i = 0; i < junk.size(); ++i)
            junk[i] = char((i * 7919 + 3) % 251);
        QTest::newRow("corrupt gzip") << "bad.html.gz" << corrupt << "corrupt gzip";
        QTest::newRow("truncated gzip") << "cut.html.gz" << gzipBytes("<html><body>some text</body></html>").left(15) << "gzip";
        QTest::newRow("gzip of a png") << "img.html.gz" << gzipBytes(imageBytes("PNG")) << "not an HTML page";
        QTest::newRow("gzip of text") << "notes.txt.gz" << gzipBytes("plain words, no markup") << "not an HTML page";
        QTest::newRow("unknown binary") << "blob.bin" << junk << "unsupported file type";
        QTest::newRow("plain text") << "notes.txt" << QByteArray("just some words") << "unsupported file type";
        QTest::newRow("empty") << "empty.json" << QByteArray() << "empty file";
        QTest::newRow("invalid json") << "broken.json" << QByteArray("{\"form\": [") << "not valid JSON";
        QTest::newRow("json array") << "list.json" << QByteArray("[1, 2]") << "not an object";
        QTest::newRow("json of neither") << "other.json" << QByteArray("{\"forms\": []}") << "neither a Folio Document";
        QTest::newRow("form is no array") << "odd.json" << QByteArray("{\"form\": {}}") << "neither a Folio Document";
        QTest::newRow("other format") << "x.json" << QByteArray("{\"format\": \"label-studio\", \"form\": []}") << "not \"folio.document\"";
    }

    void refusesWithFileAndProblem()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, problem);
        const QString path = write(name, bytes);
        const pipeline::FileSniff s = pipeline::sniffDocumentFile(path);
        QCOMPARE(int(s.kind), int(FileKind::Unknown));
        QVERIFY2(s.error.startsWith(path + QStringLiteral(": ")) && s.error.contains(problem), qPrintable(s.error));
        const pipeline::LoadedDocument d = pipeline::loadDocumentFile(path);
        QVERIFY(!d.ok);
        QCOMPARE(d.error, s.error);
        QVERIFY(d.document.words.empty());
    }

    void missingFile()
    {
        const QString path = m_dir.filePath(QStringLiteral("nowhere.png"));
        const pipeline::LoadedDocument d = pipeline::loadDocumentFile(path);
        QVERIFY(!d.ok);
        QCOMPARE(d.error, path + QStringLiteral(": no such file"));
    }

    void loadsFolioJsonWithForm()
    {
        const pipeline::LoadedDocument d = pipeline::loadDocumentFile(write(QStringLiteral("form.json"), folioDocumentWithForm()));
        QVERIFY2(d.ok, qPrintable(d.error));
        QCOMPARE(int(d.kind), int(FileKind::FolioJson));
        QCOMPARE(int(d.document.words.size()), 2);
        QCOMPARE(d.document.words[0].text, QStringLiteral("<form>"));
        QCOMPARE(d.document.nodes[1].tag, QStringLiteral("form"));
    }

    void loadsFunsdWithAnnotations()
    {
        QImage image(200, 100, QImage::Format_Grayscale8);
        image.fill(255);
        QVERIFY(image.save(m_dir.filePath(QStringLiteral("0002.png"))));
        const pipeline::LoadedDocument d = pipeline::loadDocumentFile(write(QStringLiteral("0002.json"), funsdJson()));
        QVERIFY2(d.ok, qPrintable(d.error));
        QCOMPARE(int(d.kind), int(FileKind::FunsdJson));
        QCOMPARE(int(d.document.words.size()), 3);
        QCOMPARE(int(d.annotations.entities.size()), 2);
        QCOMPARE(d.annotations.entities[1].label, QStringLiteral("ANSWER"));
        QCOMPARE(d.document.words[1].norm.x0, 350); // 70 px of 200
    }

    void loadsHtmlGz()
    {
        const QByteArray html = "<html><head><title>T</title></head><body><h1>Head</h1><p>Some words here</p></body></html>";
        const QString path = write(QStringLiteral("page.html.gz"), gzipBytes(html));
        const pipeline::LoadedDocument d = pipeline::loadDocumentFile(path);
        QVERIFY2(d.ok, qPrintable(d.error));
        QCOMPARE(int(d.kind), int(FileKind::Html));
        QCOMPARE(d.document.title, QStringLiteral("T"));
        QCOMPARE(int(d.document.words.size()), 5); // the title's word too, as `folio-cli dom` counts
        QCOMPARE(d.document.sourcePath, path);
    }

    void cancelledBeforeTheEnd()
    {
        std::atomic_bool cancel{true};
        pipeline::LoadOptions options;
        options.cancel = &cancel;
        const pipeline::LoadedDocument d = pipeline::loadDocumentFile(write(QStringLiteral("c.json"), folioDocumentWithForm()), options);
        QVERIFY(!d.ok);
        QVERIFY(d.cancelled);
        QVERIFY(d.error.endsWith(QStringLiteral(": cancelled")));
    }

    // Issue 51: the GUI's Cancel reaches an MHTML archive while it is unpacked (a hostile one ran
    // for hours): the load ends cancelled, naming the file; without the flag the page loads.
    void cancelledWhileUnpackingMhtml()
    {
        QByteArray mht = "Content-Type: multipart/related; boundary=b\r\n\r\n";
        for (int i = 0; i < 100; ++i)
            mht += "--b\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\nQUJD\r\n";
        mht += "--b\r\nContent-Type: text/html\r\n\r\n<p>Lamp</p>\r\n--b--\r\n";
        const QString path = write(QStringLiteral("c.mht"), mht);
        std::atomic_bool cancel{true};
        pipeline::LoadOptions options;
        options.cancel = &cancel;
        pipeline::LoadedDocument d = pipeline::loadDocumentFile(path, options);
        QVERIFY(!d.ok);
        QVERIFY(d.cancelled);
        QCOMPARE(d.error, path + QStringLiteral(": cancelled"));
        cancel = false;
        d = pipeline::loadDocumentFile(path, options);
        QVERIFY2(d.ok, qPrintable(d.error));
        QCOMPARE(int(d.document.words.size()), 1);
    }

    void dialogFilterOffersWhatLoads()
    {
        const QString filter = pipeline::documentFileDialogFilter();
        // MHTML / .mht pages load since issue 34 (document/html/mhtml.h), so the dialog offers them.
        for (const char *p : {"*.png", "*.tif", "*.pdf", "*.html", "*.html.gz", "*.htm.gz", "*.json", "*.mht", "*.mhtml"})
            QVERIFY2(filter.contains(QLatin1String(p)), p);
        QVERIFY(!filter.contains(QLatin1String("*.docx"), Qt::CaseInsensitive));
        QVERIFY(pipeline::hasDocumentSuffix(QStringLiteral("/x/page.HTM.gz")));
        QVERIFY(pipeline::hasDocumentSuffix(QStringLiteral("/x/page.mhtml")));
        QVERIFY(!pipeline::hasDocumentSuffix(QStringLiteral("/x/page.docx")));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestDocumentSource)
#include "tst_documentsource.moc"
