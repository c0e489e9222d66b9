// The German interface of the real program (issue 50): folio started with LANG=de_DE.UTF-8 shows
// German menus; Settings > Language's stored choice overrides the locale either way. Each run saves
// a screenshot (<build>/gui-german/*.png) whose menu bar Tesseract (deu+eng) reads back.
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kOut = QStringLiteral(FOLIO_BINARY_DIR "/gui-german");

struct Shot {
    QString png, menuText, log;
    bool ok = false;
};

// folio --screenshot on the sample form with `lang` as the locale and `stored` (empty: none) as
// Settings > Language's choice, in a home of its own; then the menu bar strip through tesseract.
Shot runFolio(const QString &name, const QString &lang, const QString &stored)
{
    Shot s;
    QTemporaryDir home;
    if (!home.isValid()) {
        s.log = QStringLiteral("no temporary folder");
        return s;
    }
    const QString config = home.filePath(QStringLiteral("config"));
    QDir().mkpath(config + QStringLiteral("/Folio"));
    QFile conf(config + QStringLiteral("/Folio/Folio.conf"));
    if (!conf.open(QIODevice::WriteOnly)) {
        s.log = conf.fileName() + QStringLiteral(": cannot write");
        return s;
    }
    // The sample project is not offered (help/sampleProjectShown), the stored language if any.
    conf.write("[help]\nsampleProjectShown=true\n");
    if (!stored.isEmpty())
        conf.write(QStringLiteral("[ui]\nlanguage=%1\n").arg(stored).toUtf8());
    conf.close();

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("LC_ALL"));
    env.remove(QStringLiteral("LC_MESSAGES"));
    env.remove(QStringLiteral("LANGUAGE"));
    env.insert(QStringLiteral("LANG"), lang);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("QTWEBENGINE_DISABLE_SANDBOX"), QStringLiteral("1"));
    env.insert(QStringLiteral("FOLIO_NO_DIALOGS"), QStringLiteral("1"));
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config);
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home.filePath(QStringLiteral("cache")));
    s.png = kOut + QLatin1Char('/') + name + QStringLiteral(".png");
    QFile::remove(s.png);
    QProcess folio;
    folio.setProcessEnvironment(env);
    folio.setProcessChannelMode(QProcess::MergedChannels);
    folio.start(QStringLiteral(FOLIO_GUI_PATH),
                {QStringLiteral("--screenshot"), s.png, QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png")});
    if (!folio.waitForFinished(180000)) {
        folio.kill();
        folio.waitForFinished();
        s.log = QStringLiteral("folio did not finish in 180 s: ") + QString::fromLocal8Bit(folio.readAll()).right(2000);
        return s;
    }
    s.log = QString::fromLocal8Bit(folio.readAll()).right(2000);
    QImage shot(s.png);
    if (folio.exitCode() != 0 || shot.isNull()) {
        s.log = QStringLiteral("folio exited with %1, screenshot %2: ").arg(folio.exitCode()).arg(shot.isNull() ? QStringLiteral("missing") : QStringLiteral("saved")) + s.log;
        return s;
    }
    // The menu bar: the top 20 px (the grab has no window frame; the toolbars start below it), the
    // width its seven menus take, enlarged 4x for Tesseract.
    const int w = qMin(shot.width(), 640), h = qMin(shot.height(), 20);
    const QImage strip = shot.copy(0, 0, w, h).scaled(w * 4, h * 4, Qt::IgnoreAspectRatio, Qt::SmoothTransformation)
                             .convertToFormat(QImage::Format_Grayscale8);
    const QString stripPath = kOut + QLatin1Char('/') + name + QStringLiteral("-menubar.png");
    strip.save(stripPath);
    QProcess ocr;
    ocr.setProcessChannelMode(QProcess::SeparateChannels);
    ocr.start(QStringLiteral("tesseract"), {stripPath, QStringLiteral("stdout"), QStringLiteral("-l"), QStringLiteral("deu+eng"),
                                              QStringLiteral("--psm"), QStringLiteral("7")});
    if (!ocr.waitForFinished(60000)) {
        s.log = QStringLiteral("tesseract did not finish");
        return s;
    }
    s.menuText = QString::fromUtf8(ocr.readAllStandardOutput()).simplified();
    s.ok = true;
    return s;
}

bool hasWord(const QString &text, const char *word)
{
    return text.split(QLatin1Char(' ')).contains(QLatin1String(word), Qt::CaseSensitive);
}

} // namespace

class TestGuiGerman : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QDir().mkpath(kOut);
        if (QStandardPaths::findExecutable(QStringLiteral("tesseract")).isEmpty())
            FOLIO_SKIP_CASE("the tesseract program (Debian: tesseract-ocr) is not installed: the screenshots cannot be read back");
        QProcess langs;
        langs.start(QStringLiteral("tesseract"), {QStringLiteral("--list-langs")});
        langs.waitForFinished(30000);
        const QString list = QString::fromUtf8(langs.readAllStandardOutput() + langs.readAllStandardError());
        if (!list.contains(QLatin1String("\ndeu")))
            FOLIO_SKIP_CASE("Tesseract has no German data (Debian: tesseract-ocr-deu): the German menus cannot be read back");
    }

    void germanLocaleGivesGermanMenus()
    {
        const Shot s = runFolio(QStringLiteral("lang-de"), QStringLiteral("de_DE.UTF-8"), QString());
        QVERIFY2(s.ok, qPrintable(s.log));
        for (const char *german : {"Datei", "Bearbeiten", "Ansicht", "Modell", "Hilfe"})
            QVERIFY2(hasWord(s.menuText, german), qPrintable(QStringLiteral("%1 not read in the menu bar of %2: \"%3\"").arg(QLatin1String(german), s.png, s.menuText)));
        for (const char *english : {"File", "Edit", "View", "Help"})
            QVERIFY2(!hasWord(s.menuText, english), qPrintable(QStringLiteral("English %1 in the menu bar: \"%2\"").arg(QLatin1String(english), s.menuText)));
    }

    void storedEnglishOverridesGermanLocale()
    {
        const Shot s = runFolio(QStringLiteral("lang-de-setting-en"), QStringLiteral("de_DE.UTF-8"), QStringLiteral("en"));
        QVERIFY2(s.ok, qPrintable(s.log));
        for (const char *english : {"File", "Edit", "View", "Model", "Help"})
            QVERIFY2(hasWord(s.menuText, english), qPrintable(QStringLiteral("%1 not read in the menu bar of %2: \"%3\"").arg(QLatin1String(english), s.png, s.menuText)));
        QVERIFY2(!hasWord(s.menuText, "Datei"), qPrintable(s.menuText));
    }

    void storedGermanOverridesEnglishLocale()
    {
        const Shot s = runFolio(QStringLiteral("lang-c-setting-de"), QStringLiteral("C.UTF-8"), QStringLiteral("de"));
        QVERIFY2(s.ok, qPrintable(s.log));
        for (const char *german : {"Datei", "Bearbeiten", "Ansicht", "Hilfe"})
            QVERIFY2(hasWord(s.menuText, german), qPrintable(QStringLiteral("%1 not read in the menu bar of %2: \"%3\"").arg(QLatin1String(german), s.png, s.menuText)));
    }
};

FOLIO_TEST_MAIN(TestGuiGerman)
#include "tst_guigerman.moc"
