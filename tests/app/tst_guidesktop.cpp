// Folio as a desktop citizen on a real X server (issue 50's "Checked" list), the real `folio` binary
// under Xvfb (the xcb platform), driven by FOLIO_TEST_SCRIPT (app/gui/testscript.h) for its reports and
// by xdotool for the keys: xdotool types through the XTEST extension, so a key reaches folio as a real
// X key event and goes through Qt's shortcut map exactly as a user's does.
//   - A shortcut changed and used: Suggest Labels moved from Ctrl+R to Ctrl+J in the per-user
//     settings the Keyboard Shortcuts dialog writes (ui/commands/shortcutsettings.h, "shortcuts/<id>");
//     at start folio applies it: Ctrl+J runs Suggest Labels (its status message), Ctrl+R no longer
//     does (and, without the saved key, Ctrl+R does: the control run).
//   - The command palette running an action: Ctrl+Shift+P, "Suggest Labels" typed, Return.
//   - A dark palette from the platform: Qt's own KDE platform theme (QT_QPA_PLATFORMTHEME=kde reads
//     the colours of $XDG_CONFIG_HOME/kdeglobals) gives folio a dark palette; folio detects it
//     (ui/palettefollower.h) and its custom views (page canvas, attention heatmap, head grid, image
//     patches) are dark with readable text, at QT_SCALE_FACTOR 1 and 2; and a palette changed while
//     folio runs is followed. Pictures in <build>/gui-desktop/ for review.
// Xvfb or xdotool missing: skipped by name (failed under CI=true).
#include "tests/common/testdata.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <cmath>
#include <functional>

namespace {

const QString kOut = QStringLiteral(FOLIO_BINARY_DIR "/gui-desktop");
const QString kSuggestRan = QStringLiteral("Open a document first"); // Suggest Labels with nothing open (ui/mainwindow.cpp)

double luminance(const QColor &c)
{
    const auto ch = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF());
}

double contrast(const QColor &a, const QColor &b) // WCAG 2, as ui/legibility.h
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor dominant(const QImage &img)
{
    QHash<QRgb, int> count;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            ++count[img.pixel(x, y) | 0xff000000u];
    QRgb best = 0;
    int n = -1;
    for (auto it = count.cbegin(); it != count.cend(); ++it)
        if (it.value() > n) {
            n = it.value();
            best = it.key();
        }
    return QColor::fromRgb(best);
}

double strongestContrast(const QImage &img, const QColor &bg)
{
    double best = 1;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            best = std::max(best, contrast(QColor::fromRgb(img.pixel(x, y)), bg));
    return best;
}

double lightFraction(const QImage &img)
{
    qint64 light = 0, all = 0;
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2, ++all)
            light += QColor::fromRgb(img.pixel(x, y)).lightnessF() > 0.7;
    return all ? double(light) / double(all) : 0;
}

struct Run
{
    QStringList lines; // "folio-script ..." lines, prefix removed
    QList<QJsonObject> states;
    QString output;
    bool finished = false;
    int exitCode = -1;
};

} // namespace

class TestGuiDesktop : public QObject
{
    Q_OBJECT

    QProcess m_xvfb, m_xvfb2x;
    QString m_display, m_display2x;
    QTemporaryDir m_dir;

    static bool startXvfb(QProcess &xvfb, const QString &screen, QString *display, QString *why)
    {
        for (int n = 140; n < 180; ++n) {
            if (QFileInfo::exists(QStringLiteral("/tmp/.X%1-lock").arg(n)) || QFileInfo::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(n)))
                continue;
            xvfb.setProcessChannelMode(QProcess::MergedChannels);
            xvfb.start(QStringLiteral("Xvfb"), {QStringLiteral(":%1").arg(n), QStringLiteral("-screen"), QStringLiteral("0"), screen,
                                                   QStringLiteral("-nolisten"), QStringLiteral("tcp"), QStringLiteral("-noreset")});
            if (!xvfb.waitForStarted(5000))
                continue;
            QElapsedTimer t;
            t.start();
            while (t.elapsed() < 10000 && xvfb.state() == QProcess::Running && !QFileInfo::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(n)))
                QThread::msleep(50);
            if (xvfb.state() == QProcess::Running && QFileInfo::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(n))) {
                *display = QStringLiteral(":%1").arg(n);
                return true;
            }
            xvfb.kill();
            xvfb.waitForFinished();
        }
        *why = QStringLiteral("Xvfb did not start on any display :140..:179 (%1)").arg(QString::fromLocal8Bit(xvfb.readAll()));
        return false;
    }

    // A new user's folders under `name`: no projects, no sample project offered, English.
    QProcessEnvironment userEnvironment(const QString &name, const QString &display) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), display);
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
        env.insert(QStringLiteral("QTWEBENGINE_DISABLE_SANDBOX"), QStringLiteral("1"));
        env.insert(QStringLiteral("FOLIO_NO_DIALOGS"), QStringLiteral("1"));
        env.insert(QStringLiteral("OPENBLAS_NUM_THREADS"), QStringLiteral("1"));
        env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
        env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("en"));
        env.remove(QStringLiteral("FOLIO_PALETTE"));
        env.remove(QStringLiteral("QT_QPA_PLATFORMTHEME"));
        env.remove(QStringLiteral("QT_SCALE_FACTOR"));
        const QString home = m_dir.filePath(name);
        QDir().mkpath(home + QStringLiteral("/config/Folio"));
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/cache"));
        env.insert(QStringLiteral("XDG_CONFIG_DIRS"), home + QStringLiteral("/etc-xdg"));
        QSettings settings(home + QStringLiteral("/config/Folio/Folio.conf"), QSettings::IniFormat);
        settings.setValue(QStringLiteral("help/sampleProjectShown"), true);
        return env;
    }

    // Runs folio with `actions`; onState(n, state) runs for the n-th "state" line (the test acts then).
    Run runFolio(const QProcessEnvironment &baseEnv, const QString &name, const QStringList &args, const QJsonArray &actions,
                 const std::function<void(int, const QJsonObject &, qint64 pid)> &onState, int timeoutMs = 180000)
    {
        QProcessEnvironment env = baseEnv;
        const QString script = m_dir.filePath(name + QStringLiteral("-script.json"));
        QFile f(script);
        if (f.open(QIODevice::WriteOnly))
            f.write(QJsonDocument(QJsonObject{{QStringLiteral("interval"), 20}, {QStringLiteral("actions"), actions}}).toJson());
        f.close();
        env.insert(QStringLiteral("FOLIO_TEST_SCRIPT"), script);
        QProcess folio;
        folio.setProcessEnvironment(env);
        folio.setProcessChannelMode(QProcess::SeparateChannels);
        folio.start(QStringLiteral(FOLIO_GUI_PATH), args);
        Run run;
        if (!folio.waitForStarted(10000)) {
            run.output = folio.errorString();
            return run;
        }
        QElapsedTimer clock;
        clock.start();
        QByteArray pending;
        while (clock.elapsed() < timeoutMs) {
            folio.waitForReadyRead(10);
            pending += folio.readAllStandardOutput();
            run.output += QString::fromUtf8(folio.readAllStandardError());
            int nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
                const QString line = QString::fromUtf8(pending.left(nl));
                pending.remove(0, nl + 1);
                run.output += line + QLatin1Char('\n');
                if (!line.startsWith(QLatin1String("folio-script ")))
                    continue;
                run.lines << line.mid(13);
                if (line.startsWith(QLatin1String("folio-script state "))) {
                    run.states << QJsonDocument::fromJson(line.mid(19).toUtf8()).object();
                    if (onState)
                        onState(int(run.states.size()) - 1, run.states.last(), folio.processId());
                }
            }
            if (folio.state() != QProcess::Running) {
                run.finished = true;
                break;
            }
        }
        if (!run.finished) {
            folio.kill();
            run.output += QStringLiteral("\n(timed out after %1 ms)").arg(timeoutMs);
        }
        folio.waitForFinished(10000);
        run.exitCode = folio.exitCode();
        run.output += QString::fromUtf8(folio.readAllStandardError());
        QFile log(kOut + QLatin1Char('/') + name + QStringLiteral(".log"));
        if (log.open(QIODevice::WriteOnly))
            log.write(run.output.toUtf8());
        return run;
    }

    // xdotool on `display`: false + the output when it fails.
    static bool xdotool(const QString &display, const QStringList &args, QString *out = nullptr)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), display);
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral("xdotool"), args);
        const bool ok = p.waitForFinished(20000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
        if (out)
            *out = QString::fromUtf8(p.readAll()).trimmed();
        return ok;
    }

    // Gives folio's main window the keyboard (no window manager here: XSetInputFocus), then types `keys`.
    static void keys(const QString &display, qint64 pid, const QStringList &keyArgs)
    {
        QString ids;
        xdotool(display, {QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--pid"), QString::number(pid),
                          QStringLiteral("--name"), QStringLiteral("Folio")},
                &ids);
        const QString window = ids.split(QLatin1Char('\n'), Qt::SkipEmptyParts).value(0);
        if (!window.isEmpty())
            xdotool(display, {QStringLiteral("windowfocus"), window});
        QThread::msleep(300);
        xdotool(display, keyArgs);
        QThread::msleep(700);
    }

    void touch(const QString &path)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("Xvfb")).isEmpty())
            FOLIO_DATA_MISSING(QStringLiteral("Xvfb is not installed (apt-get install xvfb): folio cannot be checked on a real X server"));
        if (QStandardPaths::findExecutable(QStringLiteral("xdotool")).isEmpty())
            FOLIO_DATA_MISSING(QStringLiteral("xdotool is not installed (apt-get install xdotool): no real key events can be sent"));
        QVERIFY(m_dir.isValid());
        QVERIFY(QFileInfo(QStringLiteral(FOLIO_GUI_PATH)).isExecutable());
        QVERIFY(QDir().mkpath(kOut));
        QString why;
        QVERIFY2(startXvfb(m_xvfb, QStringLiteral("1680x1050x24"), &m_display, &why), qPrintable(why));
    }

    void cleanupTestCase()
    {
        for (QProcess *x : {&m_xvfb, &m_xvfb2x})
            if (x->state() == QProcess::Running) {
                x->terminate();
                if (!x->waitForFinished(5000))
                    x->kill();
            }
    }

    // The control: with no saved keys, Ctrl+R (Suggest Labels' default) runs it.
    void defaultKeyRunsTheAction()
    {
        const QProcessEnvironment env = userEnvironment(QStringLiteral("default-keys"), m_display);
        const QString go = m_dir.filePath(QStringLiteral("default-go"));
        const QJsonArray actions{QJsonObject{{QStringLiteral("do"), QStringLiteral("report")}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("waitfile")}, {QStringLiteral("path"), go}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("report")}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("quit")}}};
        const Run run = runFolio(env, QStringLiteral("default-keys"), {}, actions, [&](int n, const QJsonObject &, qint64 pid) {
            if (n == 0) {
                keys(m_display, pid, {QStringLiteral("key"), QStringLiteral("ctrl+r")});
                touch(go);
            }
        });
        QVERIFY2(run.finished && run.states.size() == 2, qPrintable(run.output));
        QVERIFY2(run.states.at(0).value(QStringLiteral("status")).toString() != kSuggestRan, qPrintable(run.output));
        QCOMPARE(run.states.at(1).value(QStringLiteral("status")).toString(), kSuggestRan);
    }

    // The saved key works, the old one no longer does; the command palette runs the action by name.
    void changedShortcutAndThePalette()
    {
        const QProcessEnvironment env = userEnvironment(QStringLiteral("changed-keys"), m_display);
        {
            // What Settings > Keyboard Shortcuts saves (ShortcutSettings::setKeys): PortableText under shortcuts/<id>.
            QSettings settings(env.value(QStringLiteral("XDG_CONFIG_HOME")) + QStringLiteral("/Folio/Folio.conf"), QSettings::IniFormat);
            settings.setValue(QStringLiteral("shortcuts/text:Suggest Labels"), QStringLiteral("Ctrl+J"));
        }
        QStringList go;
        for (int i = 0; i < 3; ++i)
            go << m_dir.filePath(QStringLiteral("changed-go%1").arg(i));
        const auto report = QJsonObject{{QStringLiteral("do"), QStringLiteral("report")}};
        const auto wait = [&](int i) { return QJsonObject{{QStringLiteral("do"), QStringLiteral("waitfile")}, {QStringLiteral("path"), go.at(i)}}; };
        const QJsonArray actions{report, wait(0), report, wait(1), report, QJsonObject{{QStringLiteral("do"), QStringLiteral("clearstatus")}},
                                 report, wait(2), report, QJsonObject{{QStringLiteral("do"), QStringLiteral("quit")}}};
        const Run run = runFolio(env, QStringLiteral("changed-keys"), {}, actions, [&](int n, const QJsonObject &, qint64 pid) {
            if (n == 0) { // the old key
                keys(m_display, pid, {QStringLiteral("key"), QStringLiteral("ctrl+r")});
                touch(go.at(0));
            } else if (n == 1) { // the new key
                keys(m_display, pid, {QStringLiteral("key"), QStringLiteral("ctrl+j")});
                touch(go.at(1));
            } else if (n == 3) { // the command palette: Ctrl+Shift+P, the action's name, Return
                keys(m_display, pid, {QStringLiteral("key"), QStringLiteral("ctrl+shift+p")});
                xdotool(m_display, {QStringLiteral("type"), QStringLiteral("--delay"), QStringLiteral("40"), QStringLiteral("Suggest Labels")});
                QThread::msleep(500);
                xdotool(m_display, {QStringLiteral("key"), QStringLiteral("Return")});
                QThread::msleep(700);
                touch(go.at(2));
            }
        });
        QVERIFY2(run.finished && run.states.size() == 5, qPrintable(run.output));
        const auto status = [&](int n) { return run.states.at(n).value(QStringLiteral("status")).toString(); };
        QVERIFY2(status(1) != kSuggestRan, qPrintable(QStringLiteral("Ctrl+R still runs Suggest Labels:\n") + run.output));
        QVERIFY2(status(2) == kSuggestRan, qPrintable(QStringLiteral("Ctrl+J did not run Suggest Labels:\n") + run.output));
        QVERIFY2(status(3).isEmpty(), qPrintable(run.output));
        QVERIFY2(status(4) == kSuggestRan, qPrintable(QStringLiteral("the command palette did not run Suggest Labels:\n") + run.output));
        QVERIFY2(!run.states.at(4).value(QStringLiteral("shown")).toArray().contains(QStringLiteral("commandPalette")), qPrintable(run.output));
        // The saved key is still there for the next start.
        QSettings settings(env.value(QStringLiteral("XDG_CONFIG_HOME")) + QStringLiteral("/Folio/Folio.conf"), QSettings::IniFormat);
        QCOMPARE(settings.value(QStringLiteral("shortcuts/text:Suggest Labels")).toString(), QStringLiteral("Ctrl+J"));
    }

    void darkFromThePlatformTheme_data()
    {
        QTest::addColumn<int>("scale");
        QTest::newRow("1x") << 1;
        QTest::newRow("2x") << 2;
    }

    void darkFromThePlatformTheme()
    {
        QFETCH(int, scale);
        if (scale == 2 && m_display2x.isEmpty()) {
            QString why;
            QVERIFY2(startXvfb(m_xvfb2x, QStringLiteral("3360x2100x24"), &m_display2x, &why), qPrintable(why));
        }
        const QString name = QStringLiteral("kde-dark-%1x").arg(scale);
        QProcessEnvironment env = userEnvironment(name, scale == 2 ? m_display2x : m_display);
        // Qt's KDE platform theme (in QtGui, no plugin) reads the colour scheme from kdeglobals.
        env.insert(QStringLiteral("QT_QPA_PLATFORMTHEME"), QStringLiteral("kde"));
        env.insert(QStringLiteral("KDE_SESSION_VERSION"), QStringLiteral("5"));
        env.insert(QStringLiteral("KDE_FULL_SESSION"), QStringLiteral("true"));
        env.insert(QStringLiteral("XDG_CURRENT_DESKTOP"), QStringLiteral("KDE"));
        if (scale == 2)
            env.insert(QStringLiteral("QT_SCALE_FACTOR"), QStringLiteral("2"));
        QFile kdeglobals(env.value(QStringLiteral("XDG_CONFIG_HOME")) + QStringLiteral("/kdeglobals"));
        QVERIFY(kdeglobals.open(QIODevice::WriteOnly));
        kdeglobals.write("[General]\nwidgetStyle=Fusion\n\n"
                         "[Colors:Window]\nBackgroundNormal=35,38,41\nForegroundNormal=232,230,227\n\n"
                         "[Colors:View]\nBackgroundNormal=27,30,32\nForegroundNormal=232,230,227\nForegroundInactive=160,160,160\nForegroundLink=41,128,185\nForegroundVisited=155,89,182\n\n"
                         "[Colors:Button]\nBackgroundNormal=49,54,59\nForegroundNormal=232,230,227\n\n"
                         "[Colors:Selection]\nBackgroundNormal=61,174,233\nForegroundNormal=255,255,255\n\n"
                         "[Colors:Tooltip]\nBackgroundNormal=49,54,59\nForegroundNormal=232,230,227\n");
        kdeglobals.close();
        QJsonArray actions{QJsonObject{{QStringLiteral("do"), QStringLiteral("sleep")}, {QStringLiteral("ms"), 2500}}};
        for (const char *dock : {"attentionDock", "headGridDock", "imagePatchDock"})
            actions.append(QJsonObject{{QStringLiteral("do"), QStringLiteral("dock")}, {QStringLiteral("name"), QLatin1String(dock)}, {QStringLiteral("visible"), true}});
        actions.append(QJsonObject{{QStringLiteral("do"), QStringLiteral("sleep")}, {QStringLiteral("ms"), 800}});
        const QStringList views{QStringLiteral("pageCanvas"), QStringLiteral("attentionHeatmap"), QStringLiteral("headGridView"), QStringLiteral("imagePatchCanvas")};
        actions.append(QJsonObject{{QStringLiteral("do"), QStringLiteral("grab")}, {QStringLiteral("out"), kOut + QLatin1Char('/') + name + QStringLiteral("-window.png")}});
        for (const QString &v : views)
            actions.append(QJsonObject{{QStringLiteral("do"), QStringLiteral("grab")}, {QStringLiteral("widget"), v},
                                       {QStringLiteral("out"), kOut + QLatin1Char('/') + name + QLatin1Char('-') + v + QStringLiteral(".png")}});
        actions.append(QJsonObject{{QStringLiteral("do"), QStringLiteral("report")}});
        actions.append(QJsonObject{{QStringLiteral("do"), QStringLiteral("quit")}});
        const Run run = runFolio(env, name, {QStringLiteral("--maximized"), QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png")},
                                 actions, {});
        QVERIFY2(run.finished && run.exitCode == 0 && run.states.size() == 1, qPrintable(run.output));
        QVERIFY2(!run.output.contains(QLatin1String("folio-script error")), qPrintable(run.output));
        // Detected, and from the theme's colours (not FOLIO_PALETTE's).
        const QJsonObject state = run.states.first();
        QVERIFY2(state.value(QStringLiteral("dark")).toBool(), qPrintable(run.output));
        QCOMPARE(state.value(QStringLiteral("window")).toString(), QStringLiteral("#232629"));
        for (const QString &v : views) {
            const QImage img = QImage(kOut + QLatin1Char('/') + name + QLatin1Char('-') + v + QStringLiteral(".png")).convertToFormat(QImage::Format_RGB32);
            QVERIFY2(!img.isNull(), qPrintable(v));
            QVERIFY2(img.width() > 40 * scale, qPrintable(v));
            if (v == QLatin1String("pageCanvas") || v == QLatin1String("imagePatchCanvas")) {
                // The scan is drawn as it is (white paper); around it the view is dark.
                const QColor corner = QColor::fromRgb(img.pixel(2, img.height() - 3));
                QVERIFY2(corner.lightnessF() < 0.35, qPrintable(QStringLiteral("%1 backdrop %2").arg(v, corner.name())));
                continue;
            }
            const QColor bg = dominant(img);
            if (v == QLatin1String("headGridView")) { // no trace yet: an empty grid on the base colour
                QVERIFY2(bg.lightnessF() < 0.35, qPrintable(QStringLiteral("%1: background %2").arg(v, bg.name())));
                continue;
            }
            QVERIFY2(bg.lightnessF() < 0.35, qPrintable(QStringLiteral("%1: background %2").arg(v, bg.name())));
            QVERIFY2(lightFraction(img) < 0.2, qPrintable(QStringLiteral("%1: %2 light").arg(v).arg(lightFraction(img))));
            QVERIFY2(strongestContrast(img, bg) >= 4.5, qPrintable(QStringLiteral("%1: no readable text on %2").arg(v, bg.name())));
        }
        const QImage window(kOut + QLatin1Char('/') + name + QStringLiteral("-window.png"));
        QVERIFY2(window.width() >= 1200 * scale, qPrintable(QString::number(window.width())));
    }

    // The palette changed while folio runs (as a platform theme's change arrives): detected and followed.
    void paletteChangedAtRunTime()
    {
        const QString name = QStringLiteral("runtime-dark");
        const QProcessEnvironment env = userEnvironment(name, m_display);
        const QString before = kOut + QStringLiteral("/runtime-light-pageCanvas.png"), after = kOut + QStringLiteral("/runtime-dark-pageCanvas.png");
        const QString heatBefore = kOut + QStringLiteral("/runtime-light-attentionHeatmap.png"), heatAfter = kOut + QStringLiteral("/runtime-dark-attentionHeatmap.png");
        const QJsonArray actions{QJsonObject{{QStringLiteral("do"), QStringLiteral("sleep")}, {QStringLiteral("ms"), 2500}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("dock")}, {QStringLiteral("name"), QStringLiteral("attentionDock")}, {QStringLiteral("visible"), true}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("sleep")}, {QStringLiteral("ms"), 500}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("grab")}, {QStringLiteral("widget"), QStringLiteral("pageCanvas")}, {QStringLiteral("out"), before}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("grab")}, {QStringLiteral("widget"), QStringLiteral("attentionHeatmap")}, {QStringLiteral("out"), heatBefore}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("report")}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("palette")}, {QStringLiteral("to"), QStringLiteral("dark")}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("sleep")}, {QStringLiteral("ms"), 500}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("grab")}, {QStringLiteral("widget"), QStringLiteral("pageCanvas")}, {QStringLiteral("out"), after}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("grab")}, {QStringLiteral("widget"), QStringLiteral("attentionHeatmap")}, {QStringLiteral("out"), heatAfter}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("report")}},
                                 QJsonObject{{QStringLiteral("do"), QStringLiteral("quit")}}};
        const Run run = runFolio(env, name, {QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png")}, actions, {});
        QVERIFY2(run.finished && run.states.size() == 2, qPrintable(run.output));
        QVERIFY2(!run.output.contains(QLatin1String("folio-script error")), qPrintable(run.output));
        QVERIFY(!run.states.at(0).value(QStringLiteral("dark")).toBool());
        QVERIFY(run.states.at(1).value(QStringLiteral("dark")).toBool());
        QVERIFY(run.states.at(1).value(QStringLiteral("paletteChanges")).toInt() >= 1);
        const QImage light(before), dark(after), heatLight(heatBefore), heatDark(heatAfter);
        QVERIFY(!light.isNull() && !dark.isNull() && !heatLight.isNull() && !heatDark.isNull());
        QVERIFY2(QColor::fromRgb(light.pixel(2, light.height() - 3)).lightnessF() > 0.45, qPrintable(QColor::fromRgb(light.pixel(2, light.height() - 3)).name()));
        QVERIFY2(QColor::fromRgb(dark.pixel(2, dark.height() - 3)).lightnessF() < 0.35, qPrintable(QColor::fromRgb(dark.pixel(2, dark.height() - 3)).name()));
        QVERIFY(dominant(heatLight.convertToFormat(QImage::Format_RGB32)).lightnessF() > 0.6);
        const QImage hd = heatDark.convertToFormat(QImage::Format_RGB32);
        QVERIFY2(dominant(hd).lightnessF() < 0.35, qPrintable(dominant(hd).name()));
        QVERIFY(strongestContrast(hd, dominant(hd)) >= 4.5);
    }
};

FOLIO_TEST_MAIN(TestGuiDesktop)
#include "tst_guidesktop.moc"
