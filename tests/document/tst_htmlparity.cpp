// The HTML loader's text-node sequence equals lxml's on every HTML page in ../shared/data.
// Reference: tests/document/lxml_text_nodes.py run by /usr/bin/python3 (Debian python3-lxml);
// the definition of "text node sequence" is in that script and in document/htmlloader.h.
#include "document/html/htmlloader.h"
#include "tests/common/testdata.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace folio;

class TestHtmlParity : public QObject
{
    Q_OBJECT

private:
    static QStringList htmlPages()
    {
        QStringList pages;
        const QString shared = folio::test::sharedPath(QStringLiteral("data"));
        for (const char *sub : {"product-extraction-benchmark", "swde-book-subset", "websrc-sample"}) {
            QDirIterator it(shared + QLatin1Char('/') + QLatin1String(sub), QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString p = it.next();
                if (p.endsWith(QLatin1String(".html")) || p.endsWith(QLatin1String(".htm"))
                    || p.endsWith(QLatin1String(".html.gz")))
                    pages << p;
            }
        }
        pages.sort();
        return pages;
    }

private Q_SLOTS:
    void textNodesMatchLxml()
    {
        const QStringList pages = htmlPages();
        if (pages.isEmpty())
            FOLIO_DATA_MISSING("no HTML pages under " + folio::test::sharedPath(QStringLiteral("data")));
        QVERIFY2(pages.size() >= 250, qPrintable(QStringLiteral("only %1 pages found").arg(pages.size())));

        QProcess py;
        QStringList args{QStringLiteral(FOLIO_SOURCE_DIR "/tests/document/lxml_text_nodes.py")};
        args += pages;
        py.start(QStringLiteral("/usr/bin/python3"), args);
        QVERIFY2(py.waitForFinished(300000), "lxml reference script did not finish");
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        QJsonParseError perr;
        const QJsonObject reference = QJsonDocument::fromJson(py.readAllStandardOutput(), &perr).object();
        QVERIFY2(perr.error == QJsonParseError::NoError, qPrintable(perr.errorString()));
        QCOMPARE(reference.size(), pages.size());

        int checked = 0;
        qint64 textNodes = 0;
        for (const QString &page : pages) {
            const QJsonValue ref = reference.value(page);
            QVERIFY2(ref.isArray(), qPrintable(page + QStringLiteral(": lxml failed: ")
                                               + ref.toObject().value(QStringLiteral("error")).toString()));
            const HtmlLoadResult r = loadHtmlFile(page);
            QVERIFY2(r.ok, qPrintable(r.error));
            const std::vector<int> seq = textNodeSequence(r.document);
            const QJsonArray expected = ref.toArray();
            const int n = qMin(int(seq.size()), int(expected.size()));
            for (int i = 0; i < n; ++i) {
                const QString ours = r.document.nodes[size_t(seq[size_t(i)])].text;
                const QString theirs = expected.at(i).toString();
                if (ours != theirs)
                    QFAIL(qPrintable(QStringLiteral("%1 (encoding %2 from %3): text node %4 differs:\n  ours:   %5\n  lxml:   %6")
                                         .arg(page, QString::fromLatin1(r.encoding), r.encodingSource).arg(i)
                                         .arg(ours.left(200), theirs.left(200))));
            }
            QVERIFY2(int(seq.size()) == int(expected.size()),
                     qPrintable(QStringLiteral("%1: %2 text nodes, lxml %3").arg(page).arg(seq.size()).arg(expected.size())));
            ++checked;
            textNodes += qint64(seq.size());
        }
        qInfo("%d pages, %lld text nodes identical to lxml", checked, textNodes);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestHtmlParity)
#include "tst_htmlparity.moc"
