// folio-cli dom PAGE [--render], as scripts use it: Document JSON on stdout, errors on stderr.
#include "clirunner.h"
#include "tests/common/testdata.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QRegularExpression>
#include <QTest>

class TestCliDom : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    using Run = folio::test::CliRun;
    static Run cli(const QStringList &args) { return folio::test::runCli(args, 180000, QProcessEnvironment::systemEnvironment()); }
    QString page(const QString &name, const QByteArray &html)
    {
        QFile f(m_dir.filePath(name));
        if (f.open(QIODevice::WriteOnly))
            f.write(html);
        return f.fileName();
    }

private Q_SLOTS:
    void parseOnly()
    {
        const QString p = page(QStringLiteral("a.html"), "<html><head><title>T</title></head><body><h1>Head</h1><p>Some words here</p></body></html>");
        const Run r = cli({QStringLiteral("dom"), p});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc.value(QStringLiteral("kind")).toString(), QStringLiteral("html"));
        QCOMPARE(doc.value(QStringLiteral("title")).toString(), QStringLiteral("T"));
        QCOMPARE(doc.value(QStringLiteral("words")).toArray().size(), 5);
        QCOMPARE(doc.value(QStringLiteral("sections")).toArray().size(), 1);
        QCOMPARE(doc.value(QStringLiteral("pages")).toArray().size(), 1); // size unknown until rendered
        QCOMPARE(doc.value(QStringLiteral("pages")).toArray()[0].toObject().value(QStringLiteral("width")).toDouble(), 0.0);
    }

    void render()
    {
        const QString p = page(QStringLiteral("b.html"),
            "<html><head><style>body{margin:0}#x{position:absolute;left:100px;top:50px;width:400px}</style></head>"
            "<body><div id=x>boxed words</div><img src=\"http://127.0.0.1:9/x.png\"></body></html>");
        const Run r = cli({QStringLiteral("dom"), p, QStringLiteral("--render"), QStringLiteral("--width"), QStringLiteral("1000")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        const QJsonArray pages = doc.value(QStringLiteral("pages")).toArray();
        QCOMPARE(pages.size(), 1);
        QCOMPARE(pages[0].toObject().value(QStringLiteral("width")).toDouble(), 1000.0);
        const QJsonArray words = doc.value(QStringLiteral("words")).toArray();
        QCOMPARE(words.size(), 2);
        const QJsonArray box = words[0].toObject().value(QStringLiteral("box")).toArray();
        QCOMPARE(box[0].toDouble(), 100.0);
        const QJsonArray norm = words[0].toObject().value(QStringLiteral("norm")).toArray();
        QCOMPARE(norm[0].toInt(), 100); // 100 px of 1000
    }

    // A page that asks for a dozen remote loads (images, stylesheets, frames): each one is refused
    // and counted, and `dom --render` says how many (it said nothing before).
    void blockedRequestsCounted()
    {
        QByteArray html = "<html><head>";
        for (int i = 0; i < 2; ++i)
            html += "<link rel=stylesheet href=\"http://127.0.0.1:9/s" + QByteArray::number(i) + ".css\">";
        html += "</head><body><p>hostile page</p>";
        for (int i = 0; i < 8; ++i)
            html += "<img src=\"http://127.0.0.1:9/i" + QByteArray::number(i) + ".png\">";
        for (int i = 0; i < 2; ++i)
            html += "<iframe src=\"https://example.invalid/f" + QByteArray::number(i) + "\"></iframe>";
        html += "</body></html>";
        const Run r = cli({QStringLiteral("dom"), page(QStringLiteral("blocked.html"), html), QStringLiteral("--render")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QRegularExpression re(QStringLiteral("(\\d+) requests blocked"));
        const QRegularExpressionMatch m = re.match(QString::fromUtf8(r.err));
        QVERIFY2(m.hasMatch(), r.err.constData());
        qInfo("blocked: %s", qPrintable(m.captured(1)));
        QVERIFY2(m.captured(1).toInt() >= 12, r.err.constData());
    }

    void badInput()
    {
        Run r = cli({QStringLiteral("dom"), m_dir.filePath(QStringLiteral("missing.html"))});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("missing.html"));
        QByteArray junk(70000, '\0');
        for (int i = 0; i < junk.size(); ++i)
            junk[i] = char((i * 7919) % 251);
        r = cli({QStringLiteral("dom"), page(QStringLiteral("junk.html"), junk)});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("junk.html") && r.err.contains("binary"));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliDom)
#include "tst_clidom.moc"
