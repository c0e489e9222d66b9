// Section trees of PDFs and scans through the real OCR path (folio-ocr-worker, Poppler, Tesseract):
// a PDF's outline, a PDF without one (headings from the text layer's sizes), a rendered scan with
// numbered headings, a real magazine scan, and a re-OCR that keeps the sections.
#include "document/layoutsections.h"
#include "ocr/ocr.h"
#include "tests/common/testdata.h"
#include "tests/ocr/testfiles.h"

#include <QFile>
#include <QFileInfo>
#include <QFont>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;
using namespace folio::ocr;

namespace {

QByteArray stream(const QByteArray &content)
{
    return "<< /Length " + QByteArray::number(content.size()) + " >>\nstream\n" + content + "\nendstream";
}

QByteArray textAt(int size, int x, int y, const QByteArray &text)
{
    return "BT /F1 " + QByteArray::number(size) + " Tf " + QByteArray::number(x) + ' ' + QByteArray::number(y) +
           " Td (" + text + ") Tj ET\n";
}

// Two pages of Helvetica text: "Introduction" (24 pt) and "Background" (18 pt, mid page 1),
// "Method" (24 pt, page 2), body lines in 11 pt. With `outline`, bookmarks for the three headings
// (Background nested under Introduction).
QByteArray reportPdf(bool outline)
{
    const QByteArray page1 = textAt(24, 72, 720, "Introduction") + textAt(11, 72, 690, "This report introduces the work we did.") +
                             textAt(11, 72, 674, "It has two pages of text and three parts.") +
                             textAt(11, 72, 658, "The parts are listed in the outline.") +
                             textAt(18, 72, 400, "Background") + textAt(11, 72, 370, "Some background follows here in plain words.") +
                             textAt(11, 72, 354, "More background is on this line as well.");
    const QByteArray page2 = textAt(24, 72, 720, "Method") + textAt(11, 72, 690, "We describe the method on this page.") +
                             textAt(11, 72, 674, "It is short and has no sub parts at all.");
    const QByteArray resources = " /Resources << /Font << /F1 6 0 R >> >>";
    QList<QByteArray> objects{
        outline ? "<< /Type /Catalog /Pages 2 0 R /Outlines 7 0 R /PageMode /UseOutlines >>"
                : "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]" + resources + " /Contents 5 0 R >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]" + resources + " /Contents 11 0 R >>",
        stream(page1),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        "<< /Type /Outlines /First 8 0 R /Last 10 0 R /Count 3 >>",
        "<< /Title (Introduction) /Parent 7 0 R /Next 10 0 R /First 9 0 R /Last 9 0 R /Count 1 /Dest [3 0 R /XYZ 0 792 0] >>",
        "<< /Title (Background) /Parent 8 0 R /Dest [3 0 R /XYZ 0 425 0] >>",
        "<< /Title (Method) /Parent 7 0 R /Prev 8 0 R /Dest [4 0 R /XYZ 0 792 0] >>",
        stream(page2)};
    return testfiles::makePdf(objects);
}

QStringList titles(const Document &doc)
{
    QStringList out;
    for (const Section &s : doc.sections)
        out << QStringLiteral("%1:%2").arg(s.level).arg(s.title);
    return out;
}

QString firstWordOf(const Document &doc, int section)
{
    const Section &s = doc.sections[size_t(section)];
    return s.firstWord < int(doc.words.size()) ? doc.words[size_t(s.firstWord)].text : QString();
}

} // namespace

class TestPdfSections : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes) { return test::writeTestFile(m_dir, name, bytes); }

private Q_SLOTS:
    void pdfOutlineGivesSections()
    {
        const QString path = write(QStringLiteral("outline.pdf"), reportPdf(true));
        OcrOptions o;
        o.dpi = 100;
        const OcrResult r = runOcr(path, o);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.pagesFromTextLayer, 2);
        QCOMPARE(titles(r.document), QStringList({"1:Introduction", "2:Background", "1:Method"}));
        QCOMPARE(r.document.sections[1].parent, 0);
        QCOMPARE(firstWordOf(r.document, 0), QStringLiteral("Introduction"));
        QCOMPARE(firstWordOf(r.document, 1), QStringLiteral("Background"));
        QCOMPARE(firstWordOf(r.document, 2), QStringLiteral("Method"));
        QCOMPARE(r.document.words[size_t(r.document.sections[2].firstWord)].page, 1);
        QCOMPARE(r.document.sections[2].endWord, int(r.document.words.size()));
    }

    void pdfWithoutOutlineUsesTextSizes()
    {
        const QString path = write(QStringLiteral("plain.pdf"), reportPdf(false));
        OcrOptions o;
        o.dpi = 100;
        const OcrResult r = runOcr(path, o);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(titles(r.document), QStringList({"1:Introduction", "2:Background", "1:Method"}));
        QCOMPARE(firstWordOf(r.document, 1), QStringLiteral("Background"));
    }

    void damagedOutlineIsHarmless()
    {
        // Bookmarks pointing at a missing object and at a page that does not exist, and a loop
        // in the outline's sibling chain: the document still opens, sections stay valid.
        QByteArray pdf = reportPdf(true);
        pdf.replace("/Dest [4 0 R /XYZ 0 792 0]", "/Dest [99 0 R /XYZ 0 792 0] /Next 8 0 R");
        const QString path = write(QStringLiteral("badoutline.pdf"), pdf);
        const OcrResult r = runOcr(path, OcrOptions());
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(!r.document.sections.empty());
        for (const Section &s : r.document.sections)
            QVERIFY(s.firstWord <= s.endWord && s.endWord <= int(r.document.words.size()));
    }

    void scannedPageNumberedHeadings()
    {
        QImage img(1700, 1500, QImage::Format_RGB32);
        img.fill(Qt::white);
        {
            QPainter p(&img);
            p.setPen(Qt::black);
            QFont heading(QStringLiteral("DejaVu Sans"));
            heading.setPixelSize(44);
            heading.setBold(true);
            QFont sub = heading;
            sub.setPixelSize(34);
            QFont body(QStringLiteral("DejaVu Serif"));
            body.setPixelSize(26);
            int y = 120;
            auto line = [&](const QFont &f, const QString &text, int gap) {
                y += gap;
                p.setFont(f);
                p.drawText(QPoint(120, y), text);
                y += f.pixelSize() + 12;
            };
            const QString prose[] = {QStringLiteral("The survey covers every river in the northern region."),
                                     QStringLiteral("Water samples were taken twice a month for a year."),
                                     QStringLiteral("Most of the results agree with the earlier report.")};
            line(heading, QStringLiteral("1 Introduction"), 0);
            for (const QString &s : prose)
                line(body, s, 0);
            line(sub, QStringLiteral("1.1 Scope"), 40);
            for (const QString &s : prose)
                line(body, s, 0);
            line(heading, QStringLiteral("2 Methods"), 40);
            for (const QString &s : prose)
                line(body, s, 0);
        }
        const QString path = m_dir.filePath(QStringLiteral("scan.png"));
        QVERIFY(img.save(path));
        const OcrResult r = runOcr(path, OcrOptions());
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(titles(r.document), QStringList({"1:1 Introduction", "2:1.1 Scope", "1:2 Methods"}));
        QCOMPARE(r.document.nodes[size_t(r.document.sections[1].node)].kind, NodeKind::Line);
        // Re-OCR of the first heading's region keeps the tree, its ranges re-based on the new words.
        OcrOptions region;
        region.region = QRect(100, 60, 800, 100);
        region.regionPage = 0;
        const OcrResult again = runOcr(path, region);
        QVERIFY2(again.ok, qPrintable(again.error));
        Document doc = r.document;
        QVERIFY(mergeRegionResult(&doc, 0, region.region, again.document) > 0);
        QCOMPARE(titles(doc), titles(r.document));
        QCOMPARE(firstWordOf(doc, 2), QStringLiteral("2"));
        QVERIFY(doc.words[size_t(doc.sections[0].firstWord)].id.contains(QLatin1String("/r1/")));
    }

    void realPdfOutline()
    {
        // A real multi-page PDF with bookmarks, as Debian installs it (documentation may be left
        // out of minimal systems: then there is nothing to read).
        const QString path = QStringLiteral("/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf");
        if (!QFile::exists(path))
            FOLIO_DATA_MISSING(QStringLiteral("shared-mime-info-spec.pdf is not installed (documentation excluded)"));
        OcrOptions o;
        o.dpi = 72; // the text layer only: the resolution does not matter
        const OcrResult r = runOcr(path, o);
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.document.pages.size() > 10);
        QVERIFY2(r.document.sections.size() >= 20, qPrintable(titles(r.document).join(QLatin1String(" | "))));
        QCOMPARE(titles(r.document).mid(0, 3), QStringList({"1:1. Introduction", "2:1.1. Version", "2:1.2. What is this spec?"}));
        // Each section starts at its heading's words on the page the bookmark points at.
        QCOMPARE(firstWordOf(r.document, 1), QStringLiteral("1.1."));
        for (size_t i = 0; i < r.document.sections.size(); ++i) {
            const Section &s = r.document.sections[i];
            QVERIFY(s.firstWord <= s.endWord && s.endWord <= int(r.document.words.size()));
            if (i > 0)
                QVERIFY(s.firstWord >= r.document.sections[i - 1].firstWord);
        }
    }

    void layoutHeadingsAgreeWithTheOutline_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("shared-mime-info-spec") << QStringLiteral("/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf");
        QTest::newRow("libtasn1") << QStringLiteral("/usr/share/doc/libtasn1-doc/libtasn1.pdf");
    }

    // Real PDFs whose authors gave an outline: the headings found from the text layer alone
    // (what a PDF without bookmarks gets) against the bookmarks. A found heading matches an unused
    // bookmark whose title, numbering left out, is the heading's or is contained in it.
    void layoutHeadingsAgreeWithTheOutline()
    {
        QFETCH(QString, path);
        if (!QFile::exists(path))
            FOLIO_DATA_MISSING(QStringLiteral("not installed (documentation excluded)"));
        OcrOptions o;
        o.dpi = 72;
        const OcrResult r = runOcr(path, o);
        QVERIFY2(r.ok, qPrintable(r.error));
        const Document &withOutline = r.document;
        Document layout = r.document;
        buildLayoutSections(&layout);
        int matched = 0, levelAgrees = 0;
        std::vector<bool> used(withOutline.sections.size(), false);
        auto bare = [](const QString &title) {
            QString rest;
            return (sectionNumberingDepth(title, &rest) > 0 ? rest : title).simplified().toLower();
        };
        for (const Section &found : layout.sections)
            for (size_t k = 0; k < withOutline.sections.size(); ++k)
                if (!used[k] && !bare(withOutline.sections[k].title).isEmpty()
                    && bare(found.title).contains(bare(withOutline.sections[k].title))) {
                    used[k] = true;
                    ++matched;
                    levelAgrees += withOutline.sections[k].level == found.level;
                    break;
                }
        const double precision = layout.sections.empty() ? 0 : double(matched) / layout.sections.size();
        const double recall = double(matched) / std::max<size_t>(1, withOutline.sections.size());
        qInfo("%s: %d bookmarks, %d headings found, precision %.2f recall %.2f, same level %d of %d matched",
              qPrintable(QFileInfo(path).fileName()), int(withOutline.sections.size()), int(layout.sections.size()), precision,
              recall, levelAgrees, matched);
        QVERIFY2(recall >= 0.9, "fewer than 90 % of the bookmarked headings found");
    }

    void realMagazineScan()
    {
        const QString path = test::sharedPath(QStringLiteral("data/tesseract-testing/testing/8087_054.3B.tif"));
        FOLIO_REQUIRE_DATA(path);
        const OcrResult r = runOcr(path, OcrOptions());
        QVERIFY2(r.ok, qPrintable(r.error));
        // A magazine page in three columns whose only heading ("dateline") is letter-spaced at
        // body height: the body (outlier word boxes, drop caps, quotes) must not be cut into
        // sections, and every section must be valid.
        QVERIFY2(r.document.sections.size() <= 1, qPrintable(titles(r.document).join(QLatin1String(" | "))));
        for (const Section &s : r.document.sections)
            QVERIFY(s.firstWord <= s.endWord && s.endWord <= int(r.document.words.size()));
        qInfo() << "sections:" << titles(r.document);
    }
};

FOLIO_TEST_MAIN(TestPdfSections) // QGuiApplication: the test draws text into images
#include "tst_pdfsections.moc"
