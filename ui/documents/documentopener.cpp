#include "ui/documents/documentopener.h"

#include "document/html/savedpage.h"

#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace folio {

DocumentOpener::DocumentOpener(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<pipeline::LoadedDocument>::finished, this, &DocumentOpener::finish);
}

DocumentOpener::~DocumentOpener()
{
    cancel();
    m_watcher.waitForFinished();
}

QString DocumentOpener::fileDialogFilter()
{
    return pipeline::documentFileDialogFilter();
}

bool DocumentOpener::isBusy() const
{
    return m_watcher.isRunning();
}

void DocumentOpener::open(const QString &given)
{
    if (m_watcher.isRunning()) {
        cancel();
        m_watcher.waitForFinished();
    }
    // A folder saved by a browser ("Web Page, complete") opens as the page in it.
    QString folderProblem;
    const QString path = savedWebPageFile(given, &folderProblem);
    if (path.isEmpty()) {
        Q_EMIT failed(given, folderProblem);
        return;
    }
    if (!QFileInfo(path).isFile()) {
        Q_EMIT failed(path, path + QStringLiteral(": no such file"));
        return;
    }
    m_path = path;
    m_cancel = std::make_shared<std::atomic_bool>(false);
    Q_EMIT started(path);
    auto cancelFlag = m_cancel;
    QPointer<DocumentOpener> self(this);
    const QString languages = m_ocrLanguages;
    m_watcher.setFuture(QtConcurrent::run([path, cancelFlag, self, languages]() -> pipeline::LoadedDocument {
        pipeline::LoadOptions options;
        options.ocrLanguages = languages;
        options.renderPages = true; // the page view shows PDF / TIFF pages from PNG renderings
        options.cancel = cancelFlag.get();
        options.progress = [self](double f) {
            if (self)
                QMetaObject::invokeMethod(self.data(), [self, f] { if (self) Q_EMIT self->progress(f); }, Qt::QueuedConnection);
        };
        try {
            return pipeline::loadDocumentFile(path, options);
        } catch (const std::exception &e) {
            pipeline::LoadedDocument failure;
            failure.error = path + QStringLiteral(": ") + QString::fromUtf8(e.what());
            return failure;
        } catch (...) {
            pipeline::LoadedDocument failure;
            failure.error = path + QStringLiteral(": unexpected failure while loading");
            return failure;
        }
    }));
}

void DocumentOpener::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void DocumentOpener::finish()
{
    const pipeline::LoadedDocument result = m_watcher.result();
    if (!result.ok)
        Q_EMIT failed(m_path, result.error.isEmpty() ? m_path + QStringLiteral(": cannot open") : result.error);
    else {
        if (!result.warnings.isEmpty())
            Q_EMIT notes(m_path, result.warnings);
        Q_EMIT opened(m_path, result.document, result.annotations);
    }
}

} // namespace folio
