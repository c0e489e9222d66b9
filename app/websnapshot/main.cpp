// folio-websnapshot PAGE [--scripts] [--width N] [--timeout S]
// Renders a local web page offline (QtWebEngine, untrusted: no network, scripts off unless
// --scripts) and prints its DOM snapshot JSON (document/domsnapshot.h) on stdout. `folio-cli dom
// --render` runs it as a child process, which keeps WebEngine (and a page's crash) out of the
// headless CLI. Needs no display: it uses the offscreen platform when none is set, and turns the
// Chromium sandbox off when run as root (Chromium refuses to start otherwise).
#include "ui/documents/websnapshot.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (geteuid() == 0 && qEnvironmentVariableIsEmpty("QTWEBENGINE_DISABLE_SANDBOX"))
        qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1");
    qputenv("QT_LOGGING_RULES", "qt.webenginecontext.debug=false;qt.qpa.*=false");

    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("folio-websnapshot"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Render a local web page offline and print its DOM snapshot JSON"));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("PAGE"), QStringLiteral(".html/.htm/.xhtml file (or .gz)"));
    const QCommandLineOption scripts(QStringLiteral("scripts"), QStringLiteral("Let the page run its own JavaScript"));
    const QCommandLineOption width(QStringLiteral("width"), QStringLiteral("Viewport width in CSS px (default 1280)"),
                                   QStringLiteral("N"), QStringLiteral("1280"));
    const QCommandLineOption timeout(QStringLiteral("timeout"), QStringLiteral("Seconds to wait for the load (default 60)"),
                                     QStringLiteral("S"), QStringLiteral("60"));
    parser.addOptions({scripts, width, timeout});
    parser.process(app);
    if (parser.positionalArguments().size() != 1) {
        std::fprintf(stderr, "folio-websnapshot: expected one PAGE argument\n");
        return 2;
    }
    int exitCode = 1;
    folio::OffscreenSnapshot snapshot;
    QObject::connect(&snapshot, &folio::OffscreenSnapshot::finished, &app, [&](const QByteArray &json) {
        std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
        exitCode = 0;
        app.quit();
    });
    QObject::connect(&snapshot, &folio::OffscreenSnapshot::failed, &app, [&](const QString &message) {
        std::fprintf(stderr, "folio-websnapshot: %s\n", qPrintable(message));
        exitCode = 1;
        app.quit();
    });
    snapshot.start(parser.positionalArguments().first(), parser.isSet(scripts), parser.value(width).toInt(),
                   qBound(1, parser.value(timeout).toInt(), 3600) * 1000);
    app.exec();
    return exitCode;
}
