// folio: the desktop studio. Usage: folio [FILE...]  (opens each file; see folio --help)
#include "ui/mainwindow.h"
#include "inference/openmpenv.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

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
    parser.process(app);

    folio::MainWindow window;
    window.show();
    if (parser.isSet(project))
        window.openProject(QFileInfo(parser.value(project)).absoluteFilePath());
    if (parser.isSet(model)) {
        window.setModelDirectory(QFileInfo(parser.value(model)).absoluteFilePath());
        if (!parser.positionalArguments().isEmpty()) {
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
        else
            window.openFile(QFileInfo(file).absoluteFilePath());
    }

    if (parser.isSet(screenshot)) {
        const QString out = parser.value(screenshot);
        // Wait for the opener to finish (or give up after 60 s), then grab and quit.
        auto *poll = new QTimer(&window);
        int waited = 0;
        QObject::connect(poll, &QTimer::timeout, &window, [&window, out, &waited, poll] {
            waited += 200;
            if ((window.isBusy() || waited < 1000) && waited < 120000)
                return;
            poll->stop();
            window.grab().save(out);
            QApplication::quit();
        });
        poll->start(200);
    }
    return app.exec();
}
