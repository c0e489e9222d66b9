// folio_ocr: bad input, worker crashes, languages, PDF text layer, multi-page TIFF, cancel,
// re-OCR merge and the TSV form. Needs folio-ocr-worker (built with the project) and eng.traineddata.
#include "ocr/ocr.h"
#include "ocr/ocrformats.h"
#include "tests/ocr/testfiles.h"
#include "tests/common/testdata.h"

#include <QFile>
#include <QFont>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;
using namespace folio::ocr;

static QImage textImage(const QString &text, int w = 1200, int h = 300)
{
    QImage img(w, h, QImage::Format_RGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(48);
    p.setFont(f);
    p.setPen(Qt::black);
    p.drawText(QRect(40, 40, w - 80, h - 80), Qt::AlignLeft | Qt::AlignTop, text);
    return img;
}

static quint32 crc32(const QByteArray &data)
{
    quint32 c = 0xffffffffu;
    for (char ch : data) {
        c ^= quint8(ch);
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return c ^ 0xffffffffu;
}

static QByteArray pngChunk(const QByteArray &type, const QByteArray &data)
{
    QByteArray out;
    auto be32 = [&out](quint32 v) { for (int i = 3; i >= 0; --i) out.append(char((v >> (8 * i)) & 0xff)); };
    be32(quint32(data.size()));
    out += type + data;
    be32(crc32(type + data));
    return out;
}

class TestOcr : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes) { return test::writeTestFile(m_dir, name, bytes); }

private Q_SLOTS:
    void badInput_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zero bytes") << "empty.png" << QByteArray() << "empty (0 bytes)";
        QTest::newRow("unsupported") << "notes.png" << QByteArray("hello, this is plain text and not an image") << "unsupported format";
        QTest::newRow("tiny") << "tiny.jpg" << QByteArray("\x01\x02") << "too short";
        QByteArray badHeader("\x89PNG\r\n\x1a\n");
        badHeader += QByteArray(64, '\0');
        QTest::newRow("corrupt png header") << "corrupt.png" << badHeader << "corrupt PNG header";
        // A valid PNG header claiming 60000 x 60000 pixels: refused before any decoding.
        QByteArray ihdr;
        for (quint32 v : {60000u, 60000u})
            for (int i = 3; i >= 0; --i) ihdr.append(char((v >> (8 * i)) & 0xff));
        ihdr += QByteArray("\x08\x00\x00\x00\x00", 5);
        QByteArray bomb("\x89PNG\r\n\x1a\n");
        bomb += pngChunk("IHDR", ihdr) + pngChunk("IDAT", QByteArray("\x78\x9c\x03\x00\x00\x00\x00\x01", 8)) +
                pngChunk("IEND", QByteArray());
        QTest::newRow("decompression bomb") << "bomb.png" << bomb << "over the limit";
        QTest::newRow("encrypted pdf") << "locked.pdf" << testfiles::encryptedPdf() << "encrypted";
        QTest::newRow("damaged pdf") << "damaged.pdf" << QByteArray("%PDF-1.4\n1 0 obj << /Type /Cat") << "damaged";
        QTest::newRow("tiff garbage") << "bad.tif" << QByteArray("II*\0\xff\xff\xff\x7f garbage", 18) << "corrupt TIFF";
    }

    void badInput()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const QString path = write(name, bytes);
        const OcrResult r = runOcr(path);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.startsWith(path), qPrintable(r.error));
        QVERIFY2(r.error.contains(expected), qPrintable(r.error));
    }

    void truncatedImage()
    {
        const QString full = m_dir.filePath(QStringLiteral("full.png"));
        QVERIFY(textImage(QStringLiteral("Truncated")).save(full));
        QFile f(full);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        const QString path = write(QStringLiteral("truncated.png"), bytes.left(bytes.size() / 2));
        const OcrResult r = runOcr(path);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QLatin1String("truncated or corrupt")), qPrintable(r.error));
    }

    void missingFile()
    {
        const OcrResult r = runOcr(m_dir.filePath(QStringLiteral("nope.png")));
        QVERIFY(!r.ok);
        QVERIFY(r.error.contains(QLatin1String("no such file")));
    }

    void missingLanguageListsInstalled()
    {
        QVERIFY(installedLanguages().contains(QLatin1String("eng")));
        const QString msg = checkLanguages(QStringLiteral("eng+xyz"));
        QVERIFY2(msg.contains(QLatin1String("xyz")) && msg.contains(QLatin1String("eng")), qPrintable(msg));
        QVERIFY(checkLanguages(QStringLiteral("eng")).isEmpty());
        const QString path = m_dir.filePath(QStringLiteral("lang.png"));
        QVERIFY(textImage(QStringLiteral("Language")).save(path));
        OcrOptions o;
        o.languages = QStringLiteral("xyz");
        const OcrResult r = runOcr(path, o);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QLatin1String("xyz")) && r.error.contains(QLatin1String("installed")), qPrintable(r.error));
    }

    void badOptions()
    {
        const QString path = m_dir.filePath(QStringLiteral("opt.png"));
        QVERIFY(textImage(QStringLiteral("Options")).save(path));
        OcrOptions o;
        o.psm = 42;
        QVERIFY(runOcr(path, o).error.contains(QLatin1String("out of range")));
        o = OcrOptions();
        o.workerPath = m_dir.filePath(QStringLiteral("missing-worker"));
        qputenv("FOLIO_OCR_WORKER", "/nonexistent");
        // hint missing → falls back to the build tree worker: still works
        QVERIFY(!workerExecutable(o.workerPath).isEmpty());
        qunsetenv("FOLIO_OCR_WORKER");
    }

    // A worker that dies on a signal (as on a hostile image) becomes an error, not a crash here.
    void workerCrashIsContained()
    {
        const QString script = write(QStringLiteral("crashing-worker.sh"), "#!/bin/sh\nkill -SEGV $$\n");
        QFile::setPermissions(script, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QString path = m_dir.filePath(QStringLiteral("crash.png"));
        QVERIFY(textImage(QStringLiteral("Crash")).save(path));
        OcrOptions o;
        o.workerPath = script;
        const OcrResult r = runOcr(path, o);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QLatin1String("crashed")), qPrintable(r.error));
    }

    void imageOcrTreeAndIds()
    {
        const QString path = m_dir.filePath(QStringLiteral("hello.png"));
        QVERIFY(textImage(QStringLiteral("Hello Folio world\nsecond line here")).save(path));
        const OcrResult r = runOcr(path);
        QVERIFY2(r.ok, qPrintable(r.error));
        const Document &d = r.document;
        QCOMPARE(d.kind, SourceKind::Image);
        QCOMPARE(int(d.pages.size()), 1);
        QCOMPARE(d.pages[0].size, QSizeF(1200, 300));
        QVERIFY(d.words.size() >= 6);
        QCOMPARE(d.words[0].text, QStringLiteral("Hello"));
        QCOMPARE(d.words[0].id, QStringLiteral("p0/b0/par0/l0/w0"));
        QCOMPARE(d.words[3].id, QStringLiteral("p0/b0/par0/l1/w0"));
        const Word &w = d.words[0];
        QVERIFY(w.confidence > 50);
        QCOMPARE(w.norm, normaliseBox(w.box, d.pages[0].size));
        QCOMPARE(d.nodes[size_t(w.node)].kind, NodeKind::Word);
        // word → line → paragraph → block → page → root
        int n = w.node;
        const NodeKind chain[] = {NodeKind::Word, NodeKind::Line, NodeKind::Paragraph, NodeKind::Block, NodeKind::Page, NodeKind::Root};
        for (NodeKind k : chain) {
            QCOMPARE(d.nodes[size_t(n)].kind, k);
            n = d.nodes[size_t(n)].parent;
        }
        QCOMPARE(d.nodes[size_t(d.nodes[size_t(w.node)].parent)].text, QStringLiteral("Hello Folio world"));
        const QByteArray tsv = documentToTsv(d);
        QVERIFY(tsv.startsWith("level\tpage_num"));
        QVERIFY(tsv.contains("\t1\t1\t1\t1\t1\t"));
        QVERIFY(documentToHocr(d).contains("ocrx_word"));
    }

    void multipageTiffInParallel()
    {
        const QString path = m_dir.filePath(QStringLiteral("two.tif"));
        QVERIFY(testfiles::writeMultipageTiff(path, {textImage(QStringLiteral("First page")),
                                                     textImage(QStringLiteral("Second page"), 1000, 400)}));
        OcrOptions o;
        o.workers = 2;
        o.renderDir = m_dir.filePath(QStringLiteral("render"));
        OcrJob job;
        QList<int> progress;
        connect(&job, &OcrJob::progress, this, [&](int done, int) { progress << done; });
        bool finished = false;
        connect(&job, &OcrJob::finished, this, [&] { finished = true; });
        job.start(path, o);
        QTRY_VERIFY_WITH_TIMEOUT(finished, 60000);
        const OcrResult &r = job.result();
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(progress, QList<int>({0, 1, 2}));
        QCOMPARE(int(r.document.pages.size()), 2);
        QCOMPARE(r.document.pages[1].size, QSizeF(1000, 400));
        QVERIFY(QFile::exists(r.document.pages[1].imagePath));
        QCOMPARE(r.document.words.front().text, QStringLiteral("First"));
        QCOMPARE(r.document.words.back().text, QStringLiteral("page"));
        QCOMPARE(r.document.words.back().page, 1);
        QVERIFY(r.document.words.back().id.startsWith(QLatin1String("p1/")));
    }

    void pdfTextLayerAndRaster()
    {
        const QString path = m_dir.filePath(QStringLiteral("text.pdf"));
        {
            QPdfWriter writer(path);
            writer.setResolution(300);
            QPainter p(&writer);
            QFont f(QStringLiteral("DejaVu Sans"));
            f.setPointSize(24);
            p.setFont(f);
            p.drawText(QPointF(300, 400), QStringLiteral("Invoice number 12345"));
            writer.newPage();
            p.drawImage(QPointF(0, 0), textImage(QStringLiteral("Scanned words")).scaled(2400, 600));
        }
        OcrOptions o;
        o.dpi = 150;
        const OcrResult r = runOcr(path, o);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.document.kind, SourceKind::Pdf);
        QCOMPARE(int(r.document.pages.size()), 2);
        QCOMPARE(r.pagesFromTextLayer, 1);
        QStringList page0, page1;
        for (const Word &w : r.document.words)
            (w.page == 0 ? page0 : page1) << w.text;
        QCOMPARE(page0, QStringList({"Invoice", "number", "12345"}));
        QVERIFY2(page1.contains(QLatin1String("Scanned")), qPrintable(page1.join(' ')));
        // Text-layer boxes are scaled to pixels at the chosen dpi.
        const Word &inv = r.document.words.front();
        QVERIFY(inv.box.left() > 100 && inv.box.left() < 200); // 300/300 in * 150 dpi = 150 px
    }

    void cancel()
    {
        const QString path = m_dir.filePath(QStringLiteral("cancel.png"));
        QVERIFY(textImage(QStringLiteral("Cancel me")).save(path));
        OcrJob job;
        bool cancelled = false;
        connect(&job, &OcrJob::finished, this, [&](const OcrResult &r) { cancelled = r.cancelled; });
        job.start(path);
        QVERIFY(job.isRunning());
        job.cancel();
        QVERIFY(cancelled);
        QVERIFY(!job.isRunning());
    }

    void regionMergeKeepsUserEdits()
    {
        // Page with two lines: "alpha beta" (beta corrected by the user) and "gamma" outside the region.
        Document d;
        Page pg;
        pg.size = QSizeF(1000, 1000);
        d.pages.push_back(pg);
        Node root;
        root.id = QStringLiteral("root");
        d.nodes.push_back(root);
        auto add = [&](const QString &id, NodeKind k, int parent, QRectF box, const QString &text = QString()) {
            Node n;
            n.id = id; n.kind = k; n.page = 0; n.box = box; n.text = text;
            const int i = d.addNode(n, parent);
            if (k == NodeKind::Word) {
                Word w;
                w.id = id; w.text = text; w.page = 0; w.box = box; w.node = i;
                d.words.push_back(w);
            }
            return i;
        };
        const int page = add("p0", NodeKind::Page, 0, QRectF(0, 0, 1000, 1000));
        const int b0 = add("p0/b0", NodeKind::Block, page, QRectF(10, 10, 300, 30));
        const int l0 = add("p0/b0/par0/l0", NodeKind::Line, add("p0/b0/par0", NodeKind::Paragraph, b0, QRectF(10, 10, 300, 30)), QRectF(10, 10, 300, 30));
        add("p0/b0/par0/l0/w0", NodeKind::Word, l0, QRectF(10, 10, 100, 30), "a1pha");
        add("p0/b0/par0/l0/w1", NodeKind::Word, l0, QRectF(150, 10, 100, 30), "beta");
        const int b1 = add("p0/b1", NodeKind::Block, page, QRectF(10, 500, 300, 30));
        const int l1 = add("p0/b1/par0/l0", NodeKind::Line, add("p0/b1/par0", NodeKind::Paragraph, b1, QRectF(10, 500, 300, 30)), QRectF(10, 500, 300, 30));
        add("p0/b1/par0/l0/w0", NodeKind::Word, l1, QRectF(10, 500, 100, 30), "gamma");
        d.words[1].userEdited = true;
        d.words[1].text = QStringLiteral("BETA");

        // Re-OCR of the first line's region: finds "alpha" and "bota" (over the edited word).
        Document fresh = d;
        fresh.words.clear();
        fresh.nodes.resize(7); // root, page, block, paragraph, line, two words
        fresh.nodes[size_t(page)].children = {b0};
        for (int i = 0; i < 2; ++i) {
            Word w = d.words[size_t(i)];
            w.text = i == 0 ? QStringLiteral("alpha") : QStringLiteral("bota");
            w.userEdited = false;
            fresh.nodes[size_t(w.node)].text = w.text;
            fresh.words.push_back(w);
        }
        const int added = mergeRegionResult(&d, 0, QRect(0, 0, 400, 100), fresh);
        QCOMPARE(added, 1);
        QStringList texts, ids;
        for (const Word &w : d.words) {
            texts << w.text;
            ids << w.id;
            QCOMPARE(d.nodes[size_t(w.node)].id, w.id);
        }
        QCOMPARE(texts, QStringList({"BETA", "alpha", "gamma"}));
        QCOMPARE(ids, QStringList({"p0/b0/par0/l0/w1", "p0/r1/b0/par0/l0/w0", "p0/b1/par0/l0/w0"}));
        QVERIFY(d.words[0].userEdited);
        // A second run gets fresh ids again.
        mergeRegionResult(&d, 0, QRect(0, 0, 400, 100), fresh);
        QVERIFY(d.words[1].id.startsWith(QLatin1String("p0/r2/")));
    }

    void regionOcrEndToEnd()
    {
        const QString path = m_dir.filePath(QStringLiteral("region.png"));
        QImage img = textImage(QStringLiteral("Left words"), 1200, 500);
        {
            QPainter p(&img);
            QFont f(QStringLiteral("DejaVu Sans"));
            f.setPixelSize(48);
            p.setFont(f);
            p.drawText(QPoint(40, 400), QStringLiteral("Lower words"));
        }
        QVERIFY(img.save(path));
        OcrOptions o;
        o.region = QRect(0, 0, 1200, 200);
        const OcrResult r = runOcr(path, o);
        QVERIFY2(r.ok, qPrintable(r.error));
        QStringList texts;
        for (const Word &w : r.document.words)
            texts << w.text;
        QCOMPARE(texts, QStringList({"Left", "words"}));
    }
};

FOLIO_TEST_MAIN(TestOcr) // QGuiApplication: the test draws text into images
#include "tst_ocr.moc"
