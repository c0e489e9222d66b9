// `folio-cli ocr --format tsv` equals `tesseract IMG - --psm N tsv` (OMP_THREAD_LIMIT=1) on the
// images of ../shared/data/tesseract-testing and a FUNSD form: same engine, same rows.
#include "ocr/ocr.h"
#include "ocr/ocrformats.h"
#include "tests/common/testdata.h"

#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace folio;

class TestOcrTesseract : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tsvEqualsTesseract_data()
    {
        QTest::addColumn<QString>("image");
        QTest::addColumn<int>("psm");
        const QString t = folio::test::sharedPath(QStringLiteral("data/tesseract-testing/testing/"));
        const QString f = folio::test::sharedPath(QStringLiteral("data/funsd/dataset/testing_data/images/"));
        for (int psm : {3, 6}) {
            for (const char *name : {"phototest.tif", "eurotext.tif", "8087_054.3B.tif"})
                QTest::newRow(qPrintable(QStringLiteral("%1 psm %2").arg(QLatin1String(name)).arg(psm))) << t + QLatin1String(name) << psm;
            QTest::newRow(qPrintable(QStringLiteral("funsd 82092117 psm %1").arg(psm))) << f + QStringLiteral("82092117.png") << psm;
        }
        QTest::newRow("phototest psm 11") << t + QStringLiteral("phototest.tif") << 11;
    }

    void tsvEqualsTesseract()
    {
        QFETCH(QString, image);
        QFETCH(int, psm);
        FOLIO_REQUIRE_DATA(image);
        const QString tesseract = QStandardPaths::findExecutable(QStringLiteral("tesseract"));
        if (tesseract.isEmpty())
            FOLIO_DATA_MISSING(QStringLiteral("the tesseract command is not installed"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("OMP_THREAD_LIMIT"), QStringLiteral("1"));
        p.setProcessEnvironment(env);
        p.start(tesseract, {image, QStringLiteral("-"), QStringLiteral("--psm"), QString::number(psm), QStringLiteral("tsv")});
        QVERIFY(p.waitForFinished(300000));
        const QByteArray expected = p.readAllStandardOutput();
        QVERIFY(expected.count('\n') > 5);

        ocr::OcrOptions o;
        o.psm = psm;
        const ocr::OcrResult r = ocr::runOcr(image, o);
        QVERIFY2(r.ok, qPrintable(r.error));
        const QByteArray ours = ocr::documentToTsv(r.document);
        if (ours != expected) {
            const QList<QByteArray> a = ours.split('\n'), b = expected.split('\n');
            for (int i = 0; i < std::min(a.size(), b.size()); ++i)
                QCOMPARE(a[i], b[i]);
        }
        QCOMPARE(ours, expected);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestOcrTesseract)
#include "tst_ocr_tesseract.moc"
