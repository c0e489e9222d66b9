#include "ui/documentopener.h"

#include <QFileInfo>
#include <QMap>
#include <QMetaObject>
#include <QMutex>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace folio {

namespace {
struct LoaderEntry
{
    QString description;
    QStringList suffixes;
    DocumentLoadFn fn;
};
QMutex s_registryMutex;
QMap<QString, LoaderEntry> &registry()
{
    static QMap<QString, LoaderEntry> r;
    return r;
}
} // namespace

DocumentOpener::DocumentOpener(QObject *parent)
    : QObject(parent)
{
    registerBuiltinLoaders();
    connect(&m_watcher, &QFutureWatcher<LoadedDocument>::finished, this, &DocumentOpener::finish);
}

DocumentOpener::~DocumentOpener()
{
    cancel();
    m_watcher.waitForFinished();
}

void DocumentOpener::registerLoader(const QStringList &suffixes, const QString &description, DocumentLoadFn loader)
{
    QMutexLocker lock(&s_registryMutex);
    for (const QString &s : suffixes)
        registry().insert(s.toLower(), LoaderEntry{description, suffixes, loader});
}

QString DocumentOpener::fileDialogFilter()
{
    QMutexLocker lock(&s_registryMutex);
    QMap<QString, QStringList> byDescription;
    QStringList all;
    for (auto it = registry().cbegin(); it != registry().cend(); ++it) {
        byDescription[it->description] << QStringLiteral("*.") + it.key();
        all << QStringLiteral("*.") + it.key();
    }
    QStringList filters{QStringLiteral("All documents (%1)").arg(all.join(QLatin1Char(' ')))};
    for (auto it = byDescription.cbegin(); it != byDescription.cend(); ++it)
        filters << QStringLiteral("%1 (%2)").arg(it.key(), it.value().join(QLatin1Char(' ')));
    return filters.join(QStringLiteral(";;"));
}

bool DocumentOpener::canOpen(const QString &path)
{
    QMutexLocker lock(&s_registryMutex);
    return registry().contains(QFileInfo(path).suffix().toLower());
}

bool DocumentOpener::isBusy() const
{
    return m_watcher.isRunning();
}

void DocumentOpener::open(const QString &path)
{
    if (m_watcher.isRunning()) {
        cancel();
        m_watcher.waitForFinished();
    }
    DocumentLoadFn fn;
    {
        QMutexLocker lock(&s_registryMutex);
        const auto it = registry().constFind(QFileInfo(path).suffix().toLower());
        if (it != registry().constEnd())
            fn = it->fn;
    }
    if (!fn) {
        Q_EMIT failed(path, path + QStringLiteral(": unsupported file type \"%1\"").arg(QFileInfo(path).suffix()));
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
    m_watcher.setFuture(QtConcurrent::run([fn, path, cancelFlag, self]() -> LoadedDocument {
        auto progressFn = [self](double f) {
            if (self)
                QMetaObject::invokeMethod(self.data(), [self, f] { if (self) Q_EMIT self->progress(f); }, Qt::QueuedConnection);
        };
        try {
            return fn(path, progressFn, *cancelFlag);
        } catch (const std::exception &e) {
            LoadedDocument failure;
            failure.error = path + QStringLiteral(": ") + QString::fromUtf8(e.what());
            return failure;
        } catch (...) {
            LoadedDocument failure;
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
    const LoadedDocument result = m_watcher.result();
    if (m_cancel && m_cancel->load() && result.error.isEmpty() && result.document.isEmpty()) {
        Q_EMIT failed(m_path, m_path + QStringLiteral(": cancelled"));
        return;
    }
    if (!result.error.isEmpty())
        Q_EMIT failed(m_path, result.error);
    else
        Q_EMIT opened(m_path, result.document, result.annotations);
}

void registerBuiltinLoaders()
{
    static bool done = false;
    if (done)
        return;
    done = true;
    registerEngineLoaders();
}

} // namespace folio
