// folio: the desktop studio. Usage: folio [FILE...]  (opens each file; see folio --help)
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include <unistd.h>

int main(int argc, char **argv)
{
    // QtWebEngine refuses to start as root with its sandbox on (see ../shared/ENVIRONMENT.md);
    // this must be in the environment before the first WebEngine object exists.
    if (geteuid() == 0 && !qEnvironmentVariableIsSet("QTWEBENGINE_DISABLE_SANDBOX"))
        qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1");
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts); // required by QtWebEngine widgets

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Folio"));
    QApplication::setOrganizationName(QStringLiteral("Folio"));
    QApplication::setApplicationVersion(QStringLiteral(FOLIO_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Folio: structure-aware document extraction studio"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Documents to open (HTML, images, PDF, Folio JSON)"));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QStringLiteral("Save a screenshot of the window to <png> once the files are open, then quit"),
                                  QStringLiteral("png"));
    parser.addOption(screenshot);
    parser.process(app);

    folio::MainWindow window;
    window.show();
    for (const QString &file : parser.positionalArguments())
        window.openFile(QFileInfo(file).absoluteFilePath());

    if (parser.isSet(screenshot)) {
        const QString out = parser.value(screenshot);
        // Wait for the opener to finish (or give up after 60 s), then grab and quit.
        auto *poll = new QTimer(&window);
        int waited = 0;
        QObject::connect(poll, &QTimer::timeout, &window, [&window, out, &waited, poll] {
            waited += 200;
            if (window.opener()->isBusy() && waited < 60000)
                return;
            poll->stop();
            window.grab().save(out);
            QApplication::quit();
        });
        poll->start(200);
    }
    return app.exec();
}
