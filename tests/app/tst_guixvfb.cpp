// Folio on a real X server (issue 34): the `folio` binary under Xvfb (1680x1050x24, the xcb
// platform, not offscreen), once per sample document (the bundled form, a PDF manual from
// /usr/share/doc, the bundled product page), maximised, running Suggest Labels, Generate and
// Extract Fields on it, then saving a screenshot into the build folder (gui-xvfb/*.png, for review).
// What the screenshot shows is also checked on the widgets: no dock smaller than its content's
// minimum, no text cut without a tooltip (app/gui/layoutaudit.h).
// A 10 ms ticker in folio's GUI thread (FOLIO_STALL_REPORT) measures its longest stall per phase;
// the test asserts it stays under kStallBoundMs, that the page rendered without a "failed" message,
// and writes the launch -> usable window and open -> first page times to gui-xvfb/summary.json
// (BENCHMARKS.md "GUI responsiveness (Xvfb)"). Xvfb missing: skipped by name (failed under CI=true).
// After each step that ran, its result is in front: the step's dock in view and its message in the
// status bar (issue 50, ui/resultpresenter.h).
// Legible at 200 % and dark (issue 50): the form again at QT_SCALE_FACTOR=2 with a dark palette
// (FOLIO_PALETTE=dark, app/gui/main.cpp) on a 3360x2100 Xvfb screen (1680x1050 logical), the same
// layout audit, the screenshot twice the size and dark (gui-xvfb/form-dark-2x.png); the product page
// the same way (product-dark-2x.png).
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
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

namespace {

// The GUI thread's longest stall, per sample, during launch, open and the three steps. Measured on the
// shared 2-core development machine (BENCHMARKS.md). The aim is 50 ms during Suggest Labels,
// Generate and Extract Fields: met there at load average ~2 (software rendering, app/gui/renderingchoice.h);
// the bound allows a busy CI machine 5x that. Opening a document may stall longer (reported).
// "launch" (the window being constructed, before it exists on screen) is launch time, reported as
// launch -> usable, not a stall of a usable window.
const double kStallBoundMs = 4000;
const double kStepStallBoundMs = 250;
const QStringList kSteps{QStringLiteral("suggest"), QStringLiteral("generate"), QStringLiteral("extract")};

const QString kOut = QStringLiteral(FOLIO_BINARY_DIR "/gui-xvfb");

struct Sample
{
    QString name;
    QString path;
    QString steps;
    bool web = false;
    bool dark2x = false; // QT_SCALE_FACTOR=2, FOLIO_PALETTE=dark, on the 3360x2100 screen
};

} // namespace

class TestGuiXvfb : public QObject
{
    Q_OBJECT

    QProcess m_xvfb, m_xvfb2x;
    QString m_display, m_display2x;
    QTemporaryDir m_home;
    QJsonObject m_summary;

    bool startXvfb(QString *why) { return startXvfb(m_xvfb, QStringLiteral("1680x1050x24"), &m_display, why); }

    static bool startXvfb(QProcess &xvfb, const QString &screen, QString *display, QString *why)
    {
        for (int n = 90; n < 130; ++n) {
            if (QFileInfo::exists(QStringLiteral("/tmp/.X%1-lock").arg(n)) || QFileInfo::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(n)))
                continue;
            xvfb.setProcessChannelMode(QProcess::MergedChannels);
            xvfb.start(QStringLiteral("Xvfb"), {QStringLiteral(":%1").arg(n), QStringLiteral("-screen"), QStringLiteral("0"),
                                                   screen, QStringLiteral("-nolisten"), QStringLiteral("tcp"),
                                                   QStringLiteral("-noreset")});
            if (!xvfb.waitForStarted(5000))
                continue;
            QElapsedTimer t;
            t.start();
            while (t.elapsed() < 10000 && xvfb.state() == QProcess::Running
                   && !QFileInfo::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(n)))
                QThread::msleep(50);
            if (xvfb.state() == QProcess::Running && QFileInfo::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(n))) {
                *display = QStringLiteral(":%1").arg(n);
                return true;
            }
            xvfb.kill();
            xvfb.waitForFinished();
        }
        *why = QStringLiteral("Xvfb did not start on any display :90..:129 (%1)").arg(QString::fromLocal8Bit(xvfb.readAll()));
        return false;
    }

    // Runs folio on one sample; returns its stall report.
    QJsonObject runFolio(const Sample &s)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), s.dark2x ? m_display2x : m_display);
        if (s.dark2x) {
            env.insert(QStringLiteral("QT_SCALE_FACTOR"), QStringLiteral("2"));
            env.insert(QStringLiteral("FOLIO_PALETTE"), QStringLiteral("dark"));
        }
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb")); // a real X server, not offscreen
        env.insert(QStringLiteral("QTWEBENGINE_DISABLE_SANDBOX"), QStringLiteral("1"));
        env.insert(QStringLiteral("FOLIO_NO_DIALOGS"), QStringLiteral("1"));
        env.insert(QStringLiteral("OPENBLAS_NUM_THREADS"), QStringLiteral("1"));
        // A new user: no settings, no projects, no caches from earlier runs.
        const QString home = m_home.filePath(s.name);
        QDir().mkpath(home);
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/cache"));
        const QString report = kOut + QStringLiteral("/%1-stalls.json").arg(s.name);
        const QString shot = kOut + QStringLiteral("/%1.png").arg(s.name);
        QFile::remove(report);
        QFile::remove(shot);
        env.insert(QStringLiteral("FOLIO_STALL_REPORT"), report);
        // Where the GUI thread was during each stall: bench/symbolize_stalls.py gui-xvfb/<name>-trace.txt
        env.insert(QStringLiteral("FOLIO_STALL_TRACE"), kOut + QStringLiteral("/%1-trace.txt").arg(s.name));
        QProcess folio;
        folio.setProcessEnvironment(env);
        folio.setProcessChannelMode(QProcess::MergedChannels);
        const QStringList args{QStringLiteral("--maximized"), QStringLiteral("--screenshot"), shot, QStringLiteral("--run"), s.steps,
                               QStringLiteral("--model"), QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout"), s.path};
        folio.start(QStringLiteral(FOLIO_GUI_PATH), args);
        const bool finished = folio.waitForFinished(420000);
        const QByteArray output = folio.readAll();
        QFile log(kOut + QStringLiteral("/%1.log").arg(s.name));
        if (log.open(QIODevice::WriteOnly))
            log.write(output);
        if (!finished) {
            folio.kill();
            folio.waitForFinished();
            qWarning("%s: folio did not finish in 7 minutes", qPrintable(s.name));
            return {};
        }
        if (folio.exitStatus() != QProcess::NormalExit || folio.exitCode() != 0) {
            qWarning("%s: folio exited with %d:\n%s", qPrintable(s.name), folio.exitCode(), output.right(3000).constData());
            return {};
        }
        QFile f(report);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QJsonDocument::fromJson(f.readAll()).object();
    }

    static double eventMs(const QJsonObject &report, const QString &prefix)
    {
        for (const QJsonValue &e : report.value(QStringLiteral("events")).toArray())
            if (e.toObject().value(QStringLiteral("event")).toString().startsWith(prefix))
                return e.toObject().value(QStringLiteral("ms")).toDouble();
        return -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("Xvfb")).isEmpty())
            FOLIO_DATA_MISSING(QStringLiteral("Xvfb is not installed (apt-get install xvfb): folio cannot be checked on a real X server"));
        QVERIFY(QFileInfo(QStringLiteral(FOLIO_GUI_PATH)).isExecutable());
        QVERIFY(QDir().mkpath(kOut));
        QString why;
        QVERIFY2(startXvfb(&why), qPrintable(why));
    }

    void cleanupTestCase()
    {
        for (QProcess *x : {&m_xvfb, &m_xvfb2x})
            if (x->state() == QProcess::Running) {
                x->terminate();
                if (!x->waitForFinished(5000))
                    x->kill();
            }
        QFile f(kOut + QStringLiteral("/summary.json"));
        if (!m_summary.isEmpty() && f.open(QIODevice::WriteOnly))
            f.write(QJsonDocument(m_summary).toJson());
    }

    void samples_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("steps");
        QTest::addColumn<bool>("web");
        QTest::addColumn<bool>("dark2x");
        QTest::newRow("form") << QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png")
                              << QStringLiteral("suggest,generate,extract") << false << false;
        QTest::newRow("manual") << QStringLiteral("/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf")
                                << QStringLiteral("suggest,generate,extract") << false << false;
        QTest::newRow("product") << QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/product-page.html")
                                 << QStringLiteral("suggest,generate,extract") << true << false;
        QTest::newRow("form-dark-2x") << QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/sample-form.png")
                                      << QStringLiteral("suggest,generate,extract") << false << true;
        QTest::newRow("product-dark-2x") << QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/product-page.html")
                                         << QStringLiteral("suggest,generate,extract") << true << true;
    }

    void samples()
    {
        QFETCH(QString, path);
        QFETCH(QString, steps);
        QFETCH(bool, web);
        QFETCH(bool, dark2x);
        FOLIO_REQUIRE_DATA(path); // the PDF manual comes with shared-mime-info's documentation
        const Sample s{QString::fromLatin1(QTest::currentDataTag()), path, steps, web, dark2x};
        if (dark2x && m_display2x.isEmpty()) {
            QString why;
            QVERIFY2(startXvfb(m_xvfb2x, QStringLiteral("3360x2100x24"), &m_display2x, &why), qPrintable(why));
        }
        const QJsonObject report = runFolio(s);
        QVERIFY2(!report.isEmpty(), qPrintable(QStringLiteral("no stall report; see %1/%2.log").arg(kOut, s.name)));
        const QJsonObject run = report.value(QStringLiteral("run")).toObject();

        // The document is open and the screenshot is of a real window with content.
        QVERIFY2(run.value(QStringLiteral("document")).toObject().value(QStringLiteral("words")).toInt() > 0,
                 qPrintable(QJsonDocument(run).toJson()));
        const QImage shot(run.value(QStringLiteral("screenshot")).toString());
        QVERIFY2(!shot.isNull(), "no screenshot");
        QVERIFY2(shot.width() >= 1200 && shot.height() >= 800, qPrintable(QStringLiteral("%1x%2").arg(shot.width()).arg(shot.height())));
        QSet<QRgb> colours;
        for (int y = 0; y < shot.height(); y += 7)
            for (int x = 0; x < shot.width(); x += 7)
                colours.insert(shot.pixel(x, y));
        QVERIFY2(colours.size() > 20, "the screenshot is (almost) one colour");
        if (dark2x) {
            // Twice the pixels of a 1680x1050 window, and dark: the status bar (the bottom 1 %) and
            // the menu bar (the top 1 %) average a low grey; the scan on the page stays white.
            QVERIFY2(shot.width() >= 2400 && shot.height() >= 1600, qPrintable(QStringLiteral("%1x%2").arg(shot.width()).arg(shot.height())));
            for (const int y0 : {0, shot.height() - shot.height() / 100}) {
                double sum = 0;
                int n = 0;
                for (int y = y0; y < y0 + shot.height() / 100; ++y)
                    for (int x = 0; x < shot.width(); x += 5, ++n)
                        sum += qGray(shot.pixel(x, y));
                QVERIFY2(sum / n < 100, qPrintable(QStringLiteral("rows %1..: mean grey %2, not a dark palette").arg(y0).arg(sum / n)));
            }
        }

        // Nothing cramped or cut without a way to read it (app/gui/layoutaudit.h, checked on the live widgets).
        const QJsonObject layout = run.value(QStringLiteral("layout")).toObject();
        QVERIFY2(layout.value(QStringLiteral("checkedTexts")).toInt() > 10, qPrintable(QJsonDocument(layout).toJson()));
        QVERIFY2(layout.value(QStringLiteral("narrowDocks")).toArray().isEmpty(),
                 qPrintable(QStringLiteral("docks narrower than their content: ") + QString::fromUtf8(QJsonDocument(layout.value(QStringLiteral("narrowDocks")).toArray()).toJson())));
        QVERIFY2(layout.value(QStringLiteral("cutTexts")).toArray().isEmpty(),
                 qPrintable(QStringLiteral("text cut without a tooltip: ") + QString::fromUtf8(QJsonDocument(layout.value(QStringLiteral("cutTexts")).toArray()).toJson())));

        // No "failed" for a page that rendered.
        const QStringList messages = run.value(QStringLiteral("messages")).toVariant().toStringList();
        if (web) {
            QVERIFY(run.value(QStringLiteral("webRendered")).toBool());
            const QString header = run.value(QStringLiteral("webStatus")).toString();
            QVERIFY2(header.startsWith(QLatin1String("Rendered offline")), qPrintable(header));
            for (const QString &m : messages)
                QVERIFY2(!m.contains(QLatin1String("fail"), Qt::CaseInsensitive) && !m.startsWith(QLatin1String("Could not render")),
                         qPrintable(m));
        }

        // Each step ran (or said why it could not), and none timed out.
        const QJsonArray stepReports = run.value(QStringLiteral("steps")).toArray();
        QCOMPARE(stepReports.size(), int(steps.split(QLatin1Char(',')).size()));
        for (const QJsonValue &v : stepReports)
            QVERIFY2(!v.toObject().value(QStringLiteral("outcome")).toString().contains(QLatin1String("timed out")),
                     qPrintable(QJsonDocument(v.toObject()).toJson()));
        // Each step that ran brought its result to the front (issue 50): the dock that shows it in view,
        // not a tab behind another, and its message in the status bar (app/gui/layoutaudit.h).
        const QHash<QString, QString> resultDocks{{QStringLiteral("suggest"), QStringLiteral("annotationsDock")},
                                                  {QStringLiteral("generate"), QStringLiteral("qsDock")},
                                                  {QStringLiteral("extract"), QStringLiteral("fieldsDock")},
                                                  {QStringLiteral("attention"), QStringLiteral("attentionDock")}};
        int broughtToFront = 0;
        for (const QJsonValue &v : stepReports) {
            const QJsonObject step = v.toObject();
            if (step.value(QStringLiteral("outcome")).toString().startsWith(QLatin1String("not started")))
                continue;
            const QJsonObject front = step.value(QStringLiteral("front")).toObject();
            const QByteArray json = QJsonDocument(step).toJson();
            QCOMPARE(front.value(QStringLiteral("dock")).toString(), resultDocks.value(step.value(QStringLiteral("step")).toString()));
            QVERIFY2(step.value(QStringLiteral("presentedDock")).toString() == front.value(QStringLiteral("dock")).toString(), json.constData());
            QVERIFY2(front.value(QStringLiteral("inFront")).toBool(), json.constData());
            QVERIFY2(front.value(QStringLiteral("repeated")).toBool(), json.constData());
            ++broughtToFront;
        }
        QVERIFY2(broughtToFront >= 2, qPrintable(QJsonDocument(stepReports).toJson()));

        // Timings and stalls, kept for BENCHMARKS.md.
        const double usable = eventMs(report, QStringLiteral("window usable"));
        const double opened = eventMs(report, QStringLiteral("open "));
        const double firstPage = web ? eventMs(report, QStringLiteral("page rendered")) : eventMs(report, QStringLiteral("document shown"));
        QVERIFY(usable > 0 && opened > 0 && firstPage > opened);
        // On Xvfb OpenGL is Mesa's software rasteriser: the window is composed without it.
        const double renderingMs = eventMs(report, QStringLiteral("rendering: software"));
        QVERIFY2(renderingMs > 0 || !qEnvironmentVariableIsEmpty("QT_QUICK_BACKEND") || !qEnvironmentVariableIsEmpty("FOLIO_RENDERING"),
                 "Folio chose OpenGL composition on a software OpenGL (see the report's \"rendering:\" event)");
        double longest = 0, longestStep = 0;
        QString longestPhase, longestStepPhase;
        QJsonObject phases;
        const QJsonObject allPhases = report.value(QStringLiteral("phases")).toObject();
        for (auto it = allPhases.begin(); it != allPhases.end(); ++it) {
            const double ms = it.value().toObject().value(QStringLiteral("longestStallMs")).toDouble();
            phases.insert(it.key(), ms);
            // Not counted: the window's construction ("launch") and the test's own screenshot grab.
            if (it.key() != QLatin1String("launch") && it.key() != QLatin1String("screenshot") && ms > longest) {
                longest = ms;
                longestPhase = it.key();
            }
            if (kSteps.contains(it.key()) && ms > longestStep) {
                longestStep = ms;
                longestStepPhase = it.key();
            }
        }
        m_summary.insert(s.name, QJsonObject{{QStringLiteral("launchToUsableMs"), qRound(usable)},
                                             {QStringLiteral("openToFirstPageMs"), qRound(firstPage - opened)},
                                             {QStringLiteral("longestStallMs"), longest},
                                             {QStringLiteral("longestStallPhase"), longestPhase},
                                             {QStringLiteral("longestStepStallMs"), longestStep},
                                             {QStringLiteral("longestStepStallPhase"), longestStepPhase},
                                             {QStringLiteral("stallMsByPhase"), phases},
                                             {QStringLiteral("steps"), stepReports}});
        qInfo("%s: launch -> usable %.0f ms, open -> first page %.0f ms, longest stall %.1f ms (%s), during the steps %.1f ms (%s)",
              qPrintable(s.name), usable, firstPage - opened, longest, qPrintable(longestPhase), longestStep, qPrintable(longestStepPhase));
        QVERIFY2(report.value(QStringLiteral("ticks")).toInt() > 100, "the watchdog did not run");
        QVERIFY2(longest < kStallBoundMs,
                 qPrintable(QStringLiteral("the GUI thread stalled %1 ms in \"%2\" (bound %3 ms)")
                                .arg(longest).arg(longestPhase).arg(kStallBoundMs)));
        QVERIFY2(longestStep < kStepStallBoundMs,
                 qPrintable(QStringLiteral("the GUI thread stalled %1 ms during \"%2\" (bound %3 ms; see %4/%5-trace.txt)")
                                .arg(longestStep).arg(longestStepPhase).arg(kStepStallBoundMs).arg(kOut, s.name)));
    }
};

FOLIO_TEST_MAIN(TestGuiXvfb)
#include "tst_guixvfb.moc"
