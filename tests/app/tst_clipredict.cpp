// folio-cli predict as scripts use it, on the bundled sample form with the shipped model: every
// input kind the pipeline sniffs (scan, 2-page PDF, Folio JSON, FUNSD JSON, .html.gz) and the
// refusals (corrupt gzip, unknown content, broken checkpoint), entities per page.
#include "tests/pipeline/samplefiles.h"

#include "clirunner.h"
#include "tests/common/testdata.h"
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

static const QString kModel = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading");
static const QString kForm = folio::test::sampleFormPath();

class TestCliPredict : public QObject
{
    Q_OBJECT

    using Run = folio::test::CliRun;

    QTemporaryDir m_dir;

    static Run cli(const QStringList &args) { return folio::test::runCli(args); }

    static Run predict(const QString &file, const QStringList &extra = {})
    {
        return cli(QStringList{QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), kModel, file} + extra);
    }

    QString write(const QString &name, const QByteArray &bytes) { return folio::test::writeTestFile(m_dir, name, bytes); }

    // Labels of the entities, and checks every entity's shape.
    static QSet<QString> checkEntities(const QJsonObject &o, int pages)
    {
        QSet<QString> labels;
        QVector<int> perPage(pages, 0);
        for (const QJsonValue &v : o.value(QStringLiteral("entities")).toArray()) {
            const QJsonObject e = v.toObject();
            const int page = e.value(QStringLiteral("page")).toInt(-1);
            if (page < 0 || page >= pages)
                qFatal("entity on page %d", page);
            ++perPage[page];
            labels << e.value(QStringLiteral("label")).toString();
            if (e.value(QStringLiteral("words")).toArray().isEmpty() || e.value(QStringLiteral("text")).toString().isEmpty()
                || e.value(QStringLiteral("box_norm")).toArray().size() != 4)
                qFatal("malformed entity %s", QJsonDocument(e).toJson().constData());
        }
        const QJsonArray pageList = o.value(QStringLiteral("pages")).toArray();
        if (pageList.size() != pages)
            qFatal("%d pages reported, %d expected", int(pageList.size()), pages);
        for (int p = 0; p < pages; ++p)
            if (pageList[p].toObject().value(QStringLiteral("entities")).toInt() != perPage[p])
                qFatal("page %d: entity count disagrees", p);
        return labels;
    }

private Q_SLOTS:
    void scan()
    {
        const Run r = predict(kForm);
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = r.json();
        QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("scan"));
        QVERIFY(o.value(QStringLiteral("words")).toInt() > 50);
        const QJsonArray entities = o.value(QStringLiteral("entities")).toArray();
        QVERIFY2(entities.size() >= 10, r.out.constData());
        const QSet<QString> labels = checkEntities(o, 1);
        QVERIFY(labels.contains(QStringLiteral("QUESTION")) && labels.contains(QStringLiteral("ANSWER")));
        const QJsonObject header = entities[0].toObject();
        QCOMPARE(header.value(QStringLiteral("label")).toString(), QStringLiteral("HEADER"));
        QCOMPARE(header.value(QStringLiteral("text")).toString(), QStringLiteral("NORTHWIND RESEARCH LABORATORY"));
        QVERIFY(header.value(QStringLiteral("confidence")).toDouble() > 0.5);
    }

    void twoPagePdf()
    {
        const QString pdf = m_dir.filePath(QStringLiteral("form-twice.pdf"));
        QVERIFY(folio::test::writeSampleFormPdf(pdf, /*shiftSecondPage=*/false));
        const Run r = predict(pdf, {QStringLiteral("--dpi"), QStringLiteral("150")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = r.json();
        QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("pdf"));
        checkEntities(o, 2);
        const QJsonArray pages = o.value(QStringLiteral("pages")).toArray();
        // The same form on both pages: the same words and entities on each.
        QVERIFY(pages[0].toObject().value(QStringLiteral("entities")).toInt() >= 10);
        QCOMPARE(pages[1].toObject().value(QStringLiteral("entities")), pages[0].toObject().value(QStringLiteral("entities")));
        QCOMPARE(pages[1].toObject().value(QStringLiteral("words")), pages[0].toObject().value(QStringLiteral("words")));
        QCOMPARE(o.value(QStringLiteral("words")).toInt(), 2 * pages[0].toObject().value(QStringLiteral("words")).toInt());
    }

    void folioJsonWithFormAndFunsdJson()
    {
        // A web page with an early <form> element as Folio Document JSON (`"tag": "form"` in its
        // first bytes) goes to the Document reader, not the FUNSD importer.
        const QString html = write(QStringLiteral("form.html"),
                                   "<html><body><form><p>Name: John Smith</p><p>Date: 12 March</p></form></body></html>");
        const Run dom = cli({QStringLiteral("-q"), QStringLiteral("dom"), html});
        QVERIFY2(dom.code == 0, dom.err.constData());
        QVERIFY(dom.out.left(4096).contains("\"form\""));
        const Run folio = predict(write(QStringLiteral("form.json"), dom.out));
        QVERIFY2(folio.code == 0, folio.err.constData());
        QCOMPARE(folio.json().value(QStringLiteral("kind")).toString(), QStringLiteral("folio-json"));
        QCOMPARE(folio.json().value(QStringLiteral("words")).toInt(), 6);

        QImage image(400, 200, QImage::Format_Grayscale8);
        image.fill(255);
        QVERIFY(image.save(m_dir.filePath(QStringLiteral("0003.png"))));
        const Run funsd = predict(write(QStringLiteral("0003.json"), R"({"form": [
            {"id": 0, "label": "question", "words": [{"text": "Date:", "box": [10, 10, 60, 30]}], "box": [10, 10, 60, 30], "linking": []},
            {"id": 1, "label": "answer", "words": [{"text": "March", "box": [70, 10, 120, 30]}, {"text": "12", "box": [125, 10, 150, 30]}],
             "box": [70, 10, 150, 30], "linking": []}]})"));
        QVERIFY2(funsd.code == 0, funsd.err.constData());
        QCOMPARE(funsd.json().value(QStringLiteral("kind")).toString(), QStringLiteral("funsd-json"));
        QCOMPARE(funsd.json().value(QStringLiteral("words")).toInt(), 3);
    }

    void htmlGz()
    {
        const QString page = write(QStringLiteral("page.html.gz"),
                                   folio::test::gzipBytes("<html><body><p>Name: John Smith</p><p>Date: 12 March 2024</p></body></html>"));
        const Run r = predict(page);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(r.json().value(QStringLiteral("kind")).toString(), QStringLiteral("html"));
        QCOMPARE(r.json().value(QStringLiteral("words")).toInt(), 7);
    }

    // `project add` opens files through the same dispatch: a gzip page, a FUNSD file with its
    // gold entities; an unknown file adds nothing.
    void projectAddUsesTheSameDispatch()
    {
        const QString project = m_dir.filePath(QStringLiteral("p.folio"));
        Run r = cli({QStringLiteral("-q"), QStringLiteral("project"), QStringLiteral("create"), project});
        QVERIFY2(r.code == 0, r.err.constData());
        QImage image(400, 200, QImage::Format_Grayscale8);
        image.fill(255);
        QVERIFY(image.save(m_dir.filePath(QStringLiteral("0004.png"))));
        const QString funsd = write(QStringLiteral("0004.json"), R"({"form": [{"id": 0, "label": "question",
            "words": [{"text": "Date:", "box": [10, 10, 60, 30]}], "box": [10, 10, 60, 30], "linking": []}]})");
        const QString page = write(QStringLiteral("p.htm.gz"), folio::test::gzipBytes("<html><body><p>Hello there</p></body></html>"));
        r = cli({QStringLiteral("-q"), QStringLiteral("project"), QStringLiteral("add"), project, page, funsd});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(r.json().value(QStringLiteral("added")).toArray().size(), 2);
        const QString junk = write(QStringLiteral("junk.bin"), QByteArray("\x00\x01junk", 6));
        r = cli({QStringLiteral("-q"), QStringLiteral("project"), QStringLiteral("add"), project, junk});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(junk.toUtf8()) && r.err.contains("unsupported file type"), r.err.constData());
        r = cli({QStringLiteral("-q"), QStringLiteral("project"), QStringLiteral("list"), project});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray docs = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(docs.size(), 2);
        QCOMPARE(docs[0].toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("html"));
        QCOMPARE(docs[1].toObject().value(QStringLiteral("entities")).toInt(), 1);
    }

    void refusals()
    {
        QByteArray corrupt = folio::test::gzipBytes("<html><body>words</body></html>");
        corrupt = corrupt.left(12) + QByteArray(20, 'Z');
        const QString bad = write(QStringLiteral("bad.html.gz"), corrupt);
        Run r = predict(bad);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(bad.toUtf8()) && r.err.contains("gzip"), r.err.constData());
        const QString unknown = write(QStringLiteral("data.bin"), QByteArray("\x01\x02\x03\x04 not a document", 21));
        r = predict(unknown);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(unknown.toUtf8()) && r.err.contains("unsupported file type"), r.err.constData());
        const QString neither = write(QStringLiteral("neither.json"), "{\"forms\": []}");
        r = predict(neither);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("neither a Folio Document"), r.err.constData());
        r = cli({QStringLiteral("-q"), QStringLiteral("predict"), QStringLiteral("--checkpoint"), m_dir.filePath(QStringLiteral("none")), kForm});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("none"), r.err.constData());
        r = predict(kForm, {QStringLiteral("--order"), QStringLiteral("sideways")});
        QCOMPARE(r.code, 2);
    }
};

FOLIO_TEST_MAIN(TestCliPredict)
#include "tst_clipredict.moc"
