// folio-cli attention --grid (issue 48) on a FUNSD test page with the shipped layout tagger:
// PNG and SVG grids (layers x heads plus the bias-term rows), the head table as text and JSON,
// sorted by entropy / distance, a selected word; refusals for an unknown word, a bad --sort and
// a .safetensors grid; the grid as one HTML page.
#include "clirunner.h"
#include "tests/common/testdata.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

static const QString kModel = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout");

class TestCliAttentionGrid : public QObject
{
    Q_OBJECT

    using Run = folio::test::CliRun;
    QTemporaryDir m_dir;
    QString m_page;

    Run grid(const QString &out, const QStringList &extra) const
    {
        return folio::test::runCli(QStringList{QStringLiteral("-q"), QStringLiteral("attention"), QStringLiteral("--checkpoint"), kModel,
                                               m_page, QStringLiteral("--grid"), QStringLiteral("--out"), m_dir.filePath(out)} + extra);
    }
    static QString why(const Run &r) { return QString::fromUtf8(r.err + r.out).left(2000); }

private Q_SLOTS:
    void initTestCase()
    {
        m_page = folio::test::sharedPath(QStringLiteral("data/funsd/dataset/testing_data/annotations/82092117.json"));
        FOLIO_REQUIRE_DATA(m_page);
    }

    void pngAndTable()
    {
        const Run r = grid(QStringLiteral("grid.png"), {QStringLiteral("--size"), QStringLiteral("800x700")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        QCOMPARE(QImage(m_dir.filePath(QStringLiteral("grid.png"))).size(), QSize(800, 700));
        const QStringList lines = QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2 + 4 * 4); // title, header, one line per head
        QVERIFY(lines[1].contains(QStringLiteral("mean 2-D distance")));
    }

    void svgHasBiasRowsAndSortedHeads()
    {
        const Run r = grid(QStringLiteral("grid.svg"), {QStringLiteral("--sort"), QStringLiteral("entropy"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        QFile f(m_dir.filePath(QStringLiteral("grid.svg")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray svg = f.readAll();
        QVERIFY(svg.contains("layer 3") && svg.contains("bias.1d") && svg.contains("bias.2d_x") && svg.contains("bias.2d_y"));
        const QJsonArray heads = r.json().value(QStringLiteral("head_statistics")).toArray();
        QCOMPARE(heads.size(), 16);
        QCOMPARE(r.json().value(QStringLiteral("bias_rows")).toArray().size(), 3);
        for (int i = 0; i < heads.size(); ++i) {
            const QJsonObject h = heads[i].toObject();
            QVERIFY(h.value(QStringLiteral("entropy")).toDouble() >= 0 && h.value(QStringLiteral("entropy")).toDouble() <= std::log(1000.0));
            QVERIFY(h.value(QStringLiteral("mean_distance")).toDouble() > 0);
            if (i > 0 && heads[i - 1].toObject().value(QStringLiteral("layer")) == h.value(QStringLiteral("layer")))
                QVERIFY(heads[i - 1].toObject().value(QStringLiteral("entropy")).toDouble() <= h.value(QStringLiteral("entropy")).toDouble());
        }
        const Run d = grid(QStringLiteral("grid2.svg"), {QStringLiteral("--sort"), QStringLiteral("distance"), QStringLiteral("--json"), QStringLiteral("--no-bias-rows")});
        QVERIFY2(d.code == 0, qPrintable(why(d)));
        QCOMPARE(d.json().value(QStringLiteral("bias_rows")).toArray().size(), 0);
        const QJsonArray dh = d.json().value(QStringLiteral("head_statistics")).toArray();
        for (int i = 1; i < dh.size(); ++i)
            if (dh[i - 1].toObject().value(QStringLiteral("layer")) == dh[i].toObject().value(QStringLiteral("layer")))
                QVERIFY(dh[i - 1].toObject().value(QStringLiteral("mean_distance")).toDouble() <= dh[i].toObject().value(QStringLiteral("mean_distance")).toDouble());
    }

    void selectedWord()
    {
        const Run r = grid(QStringLiteral("word.png"), {QStringLiteral("--word"), QStringLiteral("5")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        QVERIFY(r.out.contains("word 5 '"));
        QVERIFY(!QImage(m_dir.filePath(QStringLiteral("word.png"))).isNull());
    }

    void refusals()
    {
        Run r = grid(QStringLiteral("x.png"), {QStringLiteral("--word"), QStringLiteral("99999")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--word 99999: the document has"), r.err.constData());
        r = grid(QStringLiteral("x.png"), {QStringLiteral("--sort"), QStringLiteral("size")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--sort: 'size'"), r.err.constData());
        r = grid(QStringLiteral("x.safetensors"), {});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--grid writes .png or .svg (or .html)"), r.err.constData());
        // .html is a grid's format only.
        r = folio::test::runCli(QStringList{QStringLiteral("-q"), QStringLiteral("attention"), QStringLiteral("--checkpoint"), kModel, m_page,
                                            QStringLiteral("--out"), m_dir.filePath(QStringLiteral("heat.html"))});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("(or .html with --grid)"), r.err.constData());
    }

    // The same grid as one HTML page: (4 layers + 3 bias terms) x 4 heads of PNG thumbnails.
    void htmlGrid()
    {
        const Run r = grid(QStringLiteral("grid.html"), {QStringLiteral("--sort"), QStringLiteral("distance")});
        QVERIFY2(r.code == 0, qPrintable(why(r)));
        QFile f(m_dir.filePath(QStringLiteral("grid.html")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray html = f.readAll();
        QVERIFY(html.startsWith("<!DOCTYPE html>"));
        QCOMPARE(html.count("<img class=\"head\""), (4 + 3) * 4);
        QVERIFY(html.contains("bias.2d_y") && html.contains("mean 2-D distance"));
        const int at = html.indexOf("base64,") + 7;
        QVERIFY(!QImage::fromData(QByteArray::fromBase64(html.mid(at, html.indexOf('"', at) - at)), "PNG").isNull());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliAttentionGrid)
#include "tst_cliattentiongrid.moc"
