// Found by the desktop (issue 50): the AppStream metainfo that cmake/FolioInstall.cmake generates
// from resources/desktop/io.folio.Folio.metainfo.xml.in (and `cmake --install` / the .deb install
// as share/metainfo/io.folio.Folio.metainfo.xml):
//  - `appstreamcli validate --no-net` accepts it, and refuses copies broken in ways a software
//    centre would trip over (so the check can fail);
//  - it names the desktop entry that exists, and the MIME types it lists are the desktop entry's;
//  - every screenshot it references is a PNG in resources/desktop/screenshots of the stated size.
// appstreamcli missing: the validation cases are skipped by name (failed under CI=true).
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>
#include <QXmlStreamReader>
#include <QtTest>

namespace {

const QString kGenerated = QStringLiteral(FOLIO_BINARY_DIR "/resources/io.folio.Folio.metainfo.xml");
const QString kDesktopDir = QStringLiteral(FOLIO_SOURCE_DIR "/resources/desktop");

struct Screenshot
{
    QString url;
    int width = 0;
    int height = 0;
};

struct Metainfo
{
    QString id;
    QString launchable;
    QStringList mediaTypes;
    QList<Screenshot> screenshots;
    QString error;
};

Metainfo readMetainfo(const QString &path)
{
    Metainfo m;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        m.error = path + QStringLiteral(": ") + f.errorString();
        return m;
    }
    QXmlStreamReader xml(&f);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const QStringView name = xml.name();
        if (name == u"id") {
            m.id = xml.readElementText();
        } else if (name == u"launchable") {
            m.launchable = xml.readElementText();
        } else if (name == u"mediatype") {
            m.mediaTypes << xml.readElementText();
        } else if (name == u"image") {
            Screenshot s;
            s.width = xml.attributes().value(QLatin1String("width")).toInt();
            s.height = xml.attributes().value(QLatin1String("height")).toInt();
            s.url = xml.readElementText();
            m.screenshots << s;
        }
    }
    if (xml.hasError())
        m.error = path + QStringLiteral(": ") + xml.errorString();
    return m;
}

// The desktop entry's MimeType= list.
QStringList desktopMimeTypes(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("MimeType="))
            return QString::fromUtf8(line.mid(9)).split(QLatin1Char(';'), Qt::SkipEmptyParts);
    return {};
}

struct Validation
{
    int exitCode = -1;
    QString output;
};

Validation validate(const QString &tool, const QString &path)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(tool, {QStringLiteral("validate"), QStringLiteral("--no-net"), QStringLiteral("--no-color"), path});
    Validation v;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        v.output = QStringLiteral("appstreamcli did not finish in 60 s");
        return v;
    }
    v.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    v.output = QString::fromUtf8(p.readAll());
    return v;
}

} // namespace

class TestMetainfo : public QObject
{
    Q_OBJECT

    QString m_tool;

    void requireTool()
    {
        if (m_tool.isEmpty())
            FOLIO_DATA_MISSING(QStringLiteral("appstreamcli is not installed (apt-get install appstream): the AppStream "
                                              "metainfo cannot be validated"));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_tool = QStandardPaths::findExecutable(QStringLiteral("appstreamcli"));
        QVERIFY2(QFileInfo::exists(kGenerated), qPrintable(kGenerated + QStringLiteral(" was not generated (cmake/FolioInstall.cmake)")));
    }

    void validates()
    {
        requireTool();
        const Validation v = validate(m_tool, kGenerated);
        QVERIFY2(v.exitCode == 0, qPrintable(QStringLiteral("exit %1:\n%2").arg(v.exitCode).arg(v.output)));
        QVERIFY2(v.output.contains(QLatin1String("Validation was successful")), qPrintable(v.output));
    }

    void refusesBrokenCopies_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("expected");
        // A software centre cannot fetch a local file; a component without a summary has no line to
        // show; no id: nothing to find it by; a truncated file is not XML.
        QTest::newRow("local screenshot") << QStringLiteral("https://") << QStringLiteral("file:///") << QStringLiteral("web-url-expected");
        QTest::newRow("no summary") << QStringLiteral("<summary>") << QStringLiteral("<!-- <summary>") << QStringLiteral("summary");
        QTest::newRow("no id") << QStringLiteral("<id>io.folio.Folio</id>") << QString() << QStringLiteral("id");
        QTest::newRow("truncated") << QStringLiteral("</component>") << QString() << QString();
    }

    void refusesBrokenCopies()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, expected);
        requireTool();
        QFile f(kGenerated);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(f.readAll());
        QVERIFY2(text.contains(from), qPrintable(from));
        if (from == QLatin1String("<summary>"))
            text.replace(QLatin1String("</summary>"), QLatin1String("</summary> -->"));
        text.replace(from, to);
        QTemporaryDir dir;
        const QString path = folio::test::writeTestFile(dir, QStringLiteral("io.folio.Folio.metainfo.xml"), text.toUtf8());
        const Validation v = validate(m_tool, path);
        QVERIFY2(v.exitCode != 0, qPrintable(QStringLiteral("a broken copy validated:\n%1").arg(v.output)));
        QVERIFY2(v.output.contains(QLatin1String("Validation failed")), qPrintable(v.output));
        if (!expected.isEmpty())
            QVERIFY2(v.output.contains(expected), qPrintable(v.output));
    }

    void matchesTheDesktopEntry()
    {
        const Metainfo m = readMetainfo(kGenerated);
        QVERIFY2(m.error.isEmpty(), qPrintable(m.error));
        QCOMPARE(m.id, QStringLiteral("io.folio.Folio"));
        QCOMPARE(m.launchable, m.id + QStringLiteral(".desktop"));
        const QString desktop = kDesktopDir + QLatin1Char('/') + m.launchable;
        QVERIFY2(QFileInfo::exists(desktop), qPrintable(desktop));
        const QStringList desktopTypes = desktopMimeTypes(desktop);
        // What `folio FILE` opens: projects, PDFs, scans, web pages and saved (MHTML) pages.
        for (const char *type : {"application/x-folio-project", "application/pdf", "image/png", "image/jpeg", "image/tiff",
                                 "text/html", "application/x-mimearchive"})
            QVERIFY2(m.mediaTypes.contains(QLatin1String(type)), type);
        QCOMPARE(QSet<QString>(m.mediaTypes.begin(), m.mediaTypes.end()),
                 QSet<QString>(desktopTypes.begin(), desktopTypes.end()));
        QCOMPARE(m.mediaTypes.size(), desktopTypes.size()); // no repeats
    }

    void screenshotsAreShippedPngs()
    {
        const Metainfo m = readMetainfo(kGenerated);
        QVERIFY2(m.error.isEmpty(), qPrintable(m.error));
        QVERIFY(m.screenshots.size() >= 2);
        for (const Screenshot &s : m.screenshots) {
            const QUrl url(s.url);
            QVERIFY2(url.isValid() && url.scheme() == QLatin1String("https"), qPrintable(s.url));
            const QString file = kDesktopDir + QStringLiteral("/screenshots/") + url.fileName();
            QImageReader reader(file);
            QVERIFY2(reader.canRead(), qPrintable(file + QStringLiteral(": ") + reader.errorString()));
            QCOMPARE(reader.format(), QByteArray("png"));
            QCOMPARE(reader.size(), QSize(s.width, s.height));
            // AppStream's guidance: at least 624 x 351, wider than tall.
            QVERIFY(s.width >= 624 && s.height >= 351 && s.width > s.height);
        }
    }
};

FOLIO_TEST_GUILESS_MAIN(TestMetainfo)
#include "tst_metainfo.moc"
