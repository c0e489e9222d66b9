#pragma once
// DocumentOpener: turns a file into a Document off the GUI thread.
//
// Thread plumbing only: open() runs folio_pipeline's file-type dispatch
// (pipeline::loadDocumentFile: scans / PDFs through OCR, HTML and .html.gz, FUNSD and Folio JSON,
// sniffed by content; MHTML archives; a folder saved as "Web Page, complete" opens as its page, and
// opened() then names that .html) on a worker thread and reports back with signals; cancel() asks the running
// job to stop. Exceptions never leave the worker: a failure becomes failed(path, message).

#include "document/annotations.h"
#include "document/document.h"
#include "pipeline/documentsource.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace folio {

class DocumentOpener : public QObject
{
    Q_OBJECT
public:
    explicit DocumentOpener(QObject *parent = nullptr);
    ~DocumentOpener() override;

    static QString fileDialogFilter();

    bool isBusy() const;

    // Tesseract languages for scans and PDFs opened from now on: "eng", "deu", "eng+deu", or
    // "auto" (the default: English, German pages read again in German; pipeline/ocrlanguage.h).
    void setOcrLanguages(const QString &languages) { m_ocrLanguages = languages; }
    QString ocrLanguages() const { return m_ocrLanguages; }

public Q_SLOTS:
    void open(const QString &path);
    void cancel();

Q_SIGNALS:
    void started(const QString &path);
    void progress(double fraction);
    // Notes of the load that did not stop it (the OCR language chosen, a page from a PDF text
    // layer, ...), emitted just before opened() when there are any.
    void notes(const QString &path, const QStringList &notes);
    void opened(const QString &path, const folio::Document &document, const folio::Annotations &annotations);
    void failed(const QString &path, const QString &message);

private:
    void finish();

    QFutureWatcher<pipeline::LoadedDocument> m_watcher;
    std::shared_ptr<std::atomic_bool> m_cancel;
    QString m_path;
    QString m_ocrLanguages = QStringLiteral("auto");
};

} // namespace folio
