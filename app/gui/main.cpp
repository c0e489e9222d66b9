// folio: the desktop studio. Usage: folio [FILE...]  (opens each file; see folio --help)
#include "autorun.h"
#include "testscript.h"
#include "renderingchoice.h"
#include "ui/mainwindow.h"
#include "ui/sessionrecovery.h"
#include "ui/palettefollower.h"
#include "ui/i18n/language.h"
#include "ui/documents/webpagepanel.h"
#include "inference/openmpenv.h"
#include "widgets/stallsampler.h"
#include "widgets/stallwatchdog.h"

#include <QApplication>
#include <QSettings>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QScreen>
#include <QTimer>
#include <QWindow>

#include <memory>

#include <unistd.h>

// OMP_WAIT_POLICY=PASSIVE before libgomp initialises (inference/openmpenv.h): no re-exec at start.
FOLIO_PASSIVE_OPENMP_AT_LOAD();

int main(int argc, char **argv)
{
    folio::inference::ensurePassiveOpenMpWait(argv); // fallback: only re-executes when the pre-init hook did not run
    // QtWebEngine refuses to start as root with its sandbox on (see ../shared/ENVIRONMENT.md);
    // this must be in the environment before the first WebEngine object exists.
    if (geteuid() == 0 && !qEnvironmentVariableIsSet("QTWEBENGINE_DISABLE_SANDBOX"))
        qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1");
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts); // required by QtWebEngine widgets

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Folio"));
    QApplication::setOrganizationName(QStringLiteral("Folio"));
    QApplication::setApplicationVersion(QStringLiteral(FOLIO_VERSION));
    // Light or dark as the platform's palette is, at start and when it changes (ui/palettefollower.h);
    // FOLIO_PALETTE=dark forces a dark one (tst_guixvfb checks the window with it at QT_SCALE_FACTOR=2).
    folio::PaletteFollower paletteFollower(&app);
    // Software OpenGL composes each repaint of a window holding the web view in 30-70 ms: Qt Quick's
    // software renderer then (app/gui/renderingchoice.h). FOLIO_RENDERING, else the setting, else auto.
    QString renderingWanted = qEnvironmentVariable("FOLIO_RENDERING");
    if (renderingWanted.isEmpty())
        renderingWanted = QSettings().value(QStringLiteral("view/rendering")).toString();
    const folio::RenderingChoice rendering = folio::chooseRendering(renderingWanted);
    folio::applyRendering(rendering);

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Folio: structure-aware document extraction studio"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Documents to open (HTML, images, PDF, Folio JSON) or a .folio project"));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QStringLiteral("Save a screenshot of the window to <png> once the files are open, then quit"),
                                  QStringLiteral("png"));
    parser.addOption(screenshot);
    QCommandLineOption model(QStringLiteral("model"),
                             QStringLiteral("Checkpoint folder of the model to use; with files given, their labels are suggested at once"),
                             QStringLiteral("dir"));
    parser.addOption(model);
    QCommandLineOption project(QStringLiteral("project"), QStringLiteral("Open (or create) this .folio project"), QStringLiteral("file"));
    parser.addOption(project);
    QCommandLineOption run(QStringLiteral("run"),
                           QStringLiteral("With --screenshot: run these steps on the opened document first, in order "
                                          "(suggest, generate, extract, attention; comma-separated)"),
                           QStringLiteral("steps"));
    parser.addOption(run);
    QCommandLineOption maximized(QStringLiteral("maximized"), QStringLiteral("Start with the window maximised"));
    parser.addOption(maximized);
    parser.process(app);
    // The interface language (issue 50), after --help (which stays English): the system locale, or
    // Settings > Language's choice (read once: a change applies at the next start).
    {
        const QLocale locale = folio::uiLocale(folio::storedUiLanguage());
        if (folio::storedUiLanguage() != folio::UiLanguage::System)
            QLocale::setDefault(locale);
        folio::installUiTranslations(&app, locale);
    }

    // FOLIO_STALL_REPORT=<file>: the GUI thread's longest stall (a 10 ms ticker), per phase, and the
    // launch / open timings, written as JSON at exit (tests/app/tst_guixvfb reads it).
    const QString stallReport = qEnvironmentVariable("FOLIO_STALL_REPORT");
    folio::StallWatchdog watchdog;
    if (!stallReport.isEmpty()) {
        watchdog.setPhase(QStringLiteral("launch"));
        watchdog.mark(QStringLiteral("main"));
        watchdog.mark(QStringLiteral("rendering: ") + rendering.reason);
        watchdog.start();
    }
    // FOLIO_STALL_TRACE=<file> (with FOLIO_STALL_REPORT): the GUI thread's stack while it stalls
    // 30+ ms, for bench/symbolize_stalls.py.
    const QString stallTrace = qEnvironmentVariable("FOLIO_STALL_TRACE");
    std::unique_ptr<folio::StallSampler> sampler;
    if (!stallReport.isEmpty() && !stallTrace.isEmpty())
        sampler = std::make_unique<folio::StallSampler>(&watchdog);

    folio::MainWindow window;
    // Crash survival (issue 50): the state the last run left, before this one writes its own.
    folio::SessionRecovery recovery(&window);
    if (parser.isSet(maximized)) {
        // Without a window manager (a bare X server) maximising is only a hint: take the screen too.
        if (QScreen *screen = QGuiApplication::primaryScreen())
            window.setGeometry(screen->availableGeometry());
        window.showMaximized();
    } else {
        window.show();
    }
    if (!stallReport.isEmpty()) {
        watchdog.mark(QStringLiteral("window shown"));
        // Usable: the window is on the screen and the event loop answers.
        auto usable = std::make_shared<QMetaObject::Connection>();
        *usable = QObject::connect(&watchdog, &folio::StallWatchdog::ticked, &window, [&window, &watchdog, usable] {
            if (window.windowHandle() && window.windowHandle()->isExposed()) {
                QObject::disconnect(*usable);
                watchdog.mark(QStringLiteral("window usable"));
                if (watchdog.phase() == QLatin1String("launch")) // an open in progress keeps its phase
                    watchdog.setPhase(QStringLiteral("idle"));
            }
        });
        QObject::connect(&window, &folio::MainWindow::documentShown, &window, [&window, &watchdog] {
            const QString name = window.currentDocument() ? QFileInfo(window.currentDocument()->sourcePath).fileName() : QString();
            watchdog.mark(QStringLiteral("document shown ") + name);
            if (window.currentDocument() && window.currentDocument()->kind != folio::SourceKind::Html)
                watchdog.setPhase(QStringLiteral("idle"));
        });
        if (auto *web = window.findChild<folio::WebPagePanel *>()) {
            QObject::connect(web, &folio::WebPagePanel::rendered, &window, [&watchdog](const folio::Document &doc) {
                watchdog.mark(QStringLiteral("page rendered ") + QFileInfo(doc.sourcePath).fileName());
                watchdog.setPhase(QStringLiteral("idle"));
            });
            QObject::connect(web, &folio::WebPagePanel::failed, &window, [&watchdog](const QString &why) {
                watchdog.mark(QStringLiteral("page failed ") + why);
                watchdog.setPhase(QStringLiteral("idle"));
            });
        }
    }
    if (parser.isSet(project))
        window.openProject(QFileInfo(parser.value(project)).absoluteFilePath());
    if (parser.isSet(model)) {
        window.setModelDirectory(QFileInfo(parser.value(model)).absoluteFilePath());
        if (!parser.positionalArguments().isEmpty() && !parser.isSet(run)) {
            // Suggest labels for the first document shown (once).
            auto connection = std::make_shared<QMetaObject::Connection>();
            *connection = QObject::connect(&window, &folio::MainWindow::documentShown, &window, [&window, connection] {
                QObject::disconnect(*connection);
                window.suggestLabels();
            });
        }
    }
    for (const QString &file : parser.positionalArguments()) {
        // A project (.folio, what the desktop entry passes when one is opened from a file manager).
        if (file.endsWith(QLatin1String(".folio"), Qt::CaseInsensitive) && !parser.isSet(project))
            window.openProject(QFileInfo(file).absoluteFilePath());
        else {
            if (!stallReport.isEmpty()) {
                watchdog.setPhase(QStringLiteral("open ") + QFileInfo(file).fileName());
                watchdog.mark(QStringLiteral("open ") + QFileInfo(file).fileName());
            }
            window.openFile(QFileInfo(file).absoluteFilePath());
        }
    }

    // The first start with nothing to open: the sample project (a form, a PDF manual, a product
    // page), once; Help > Open Sample Project brings it back.
    // Nothing to open and the last run was killed: its project, document, page and layout again.
    const bool recovered = parser.positionalArguments().isEmpty() && !parser.isSet(project) && !parser.isSet(screenshot)
                           && recovery.recoverIfCrashed();
    QSettings settings;
    if (parser.positionalArguments().isEmpty() && !parser.isSet(project) && !parser.isSet(screenshot) && !recovered
        && !settings.value(QStringLiteral("help/sampleProjectShown")).toBool()) {
        settings.setValue(QStringLiteral("help/sampleProjectShown"), true);
        QTimer::singleShot(0, &window, &folio::MainWindow::openSampleProject);
    }
    // FOLIO_TEST_SCRIPT=<file.json>: test-only actions on the live window (app/gui/testscript.h).
    std::unique_ptr<folio::TestScript> testScript;
    if (const QString script = qEnvironmentVariable("FOLIO_TEST_SCRIPT"); !script.isEmpty()) {
        testScript = std::make_unique<folio::TestScript>(&window, &recovery);
        QString error;
        if (!testScript->load(script, &error)) {
            qCritical("%s", qPrintable(error));
            return 2;
        }
        testScript->start();
    }
    std::unique_ptr<folio::AutoRun> autoRun;
    if (parser.isSet(screenshot)) {
        // Waits for the document (or gives up), runs the --run steps, saves the screenshot, quits.
        const QStringList steps = parser.value(run).split(QLatin1Char(','), Qt::SkipEmptyParts);
        autoRun = std::make_unique<folio::AutoRun>(&window, &watchdog, steps, parser.value(screenshot),
                                                   !parser.positionalArguments().isEmpty());
        autoRun->start();
    }
    const int rc = app.exec();
    if (!stallReport.isEmpty()) {
        watchdog.stop();
        QJsonObject report = watchdog.report();
        if (autoRun)
            report.insert(QStringLiteral("run"), autoRun->report());
        QSaveFile out(stallReport);
        if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(report).toJson()) < 0 || !out.commit())
            qWarning("%s: cannot write the stall report (%s)", qPrintable(stallReport), qPrintable(out.errorString()));
    }
    if (sampler) {
        QString error;
        if (!sampler->writeTrace(stallTrace, &error))
            qWarning("%s", qPrintable(error));
    }
    return rc;
}
