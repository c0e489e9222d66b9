#pragma once
// DocumentOpener: turns a file into a Document off the GUI thread.
//
// Loaders register per file suffix (json: Folio Document JSON; html/htm/mhtml: the HTML loader;
// png/jpg/tif/pdf: OCR). open() runs the matching loader on a worker thread and reports back with
// signals; cancel() asks the running job to stop. Exceptions never leave the worker: a failure
// becomes failed(path, message).

#include "document/annotations.h"
#include "document/document.h"

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

namespace folio {

struct LoadedDocument
{
    Document document;
    Annotations annotations;
    QString error; // non-empty on failure
};

// A loader: path, progress callback (0..1) and a cancel flag to poll.
using DocumentLoadFn = std::function<LoadedDocument(const QString &path,
                                                    const std::function<void(double)> &progress,
                                                    const std::atomic_bool &cancelled)>;

class DocumentOpener : public QObject
{
    Q_OBJECT
public:
    explicit DocumentOpener(QObject *parent = nullptr);
    ~DocumentOpener() override;

    // Register a loader for lower-case suffixes (without dot). Later registrations win.
    static void registerLoader(const QStringList &suffixes, const QString &description, DocumentLoadFn loader);
    static QString fileDialogFilter();
    static bool canOpen(const QString &path);

    bool isBusy() const;

public Q_SLOTS:
    void open(const QString &path);
    void cancel();

Q_SIGNALS:
    void started(const QString &path);
    void progress(double fraction);
    void opened(const QString &path, const folio::Document &document, const folio::Annotations &annotations);
    void failed(const QString &path, const QString &message);

private:
    void finish();

    QFutureWatcher<LoadedDocument> m_watcher;
    std::shared_ptr<std::atomic_bool> m_cancel;
    QString m_path;
};

// Registers the loaders Folio ships (JSON, HTML, images/PDF) once; safe to call repeatedly.
void registerBuiltinLoaders();
// The engines' loaders (ui/engineloaders.cpp: the one place that maps file types to engines).
void registerEngineLoaders();

} // namespace folio
