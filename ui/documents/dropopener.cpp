#include "ui/documents/dropopener.h"

#include "document/project/projectlocation.h"
#include "pipeline/documentsource.h"
#include "ui/mainwindow.h"

#include <QDragEnterEvent>
#include <QDragMoveEvent>
#include <QDropEvent>
#include <QApplication>
#include <QFileInfo>
#include <QMimeData>
#include <QStatusBar>
#include <QUrl>

namespace folio {

DropOpener::DropOpener(MainWindow *window)
    : QObject(window)
    , m_window(window)
{
    window->setAcceptDrops(true);
    // On the application: a drag over a child that takes drops itself (the web view, a line edit) is
    // delivered to that child, not to the window.
    qApp->installEventFilter(this);
    // The next dropped document opens once the previous one is shown or has failed (one load at a time).
    connect(window, &MainWindow::documentShown, this, &DropOpener::openNext);
    connect(window, &MainWindow::loadFailed, this, &DropOpener::openNext);
}

DropOpener::Sorted DropOpener::sort(const QMimeData *data)
{
    Sorted sorted;
    if (!data || !data->hasUrls())
        return sorted;
    const QList<QUrl> urls = data->urls();
    for (const QUrl &url : urls) {
        if (!url.isLocalFile()) {
            sorted.refused << url.toDisplayString();
            continue;
        }
        const QString path = QFileInfo(url.toLocalFile()).absoluteFilePath();
        const QFileInfo info(path);
        if (looksLikeProjectLocation(path) && info.isFile()) {
            if (sorted.project.isEmpty())
                sorted.project = path;
            else
                sorted.refused << path; // one project at a time
        } else if (info.isDir() || (info.isFile() && pipeline::hasDocumentSuffix(path))) {
            sorted.documents << path; // a folder: a browser's saved page (openFile says when it is not one)
        } else {
            sorted.refused << path;
        }
    }
    return sorted;
}

bool DropOpener::eventFilter(QObject *watched, QEvent *event)
{
    const QEvent::Type type = event->type();
    if (type != QEvent::DragEnter && type != QEvent::DragMove && type != QEvent::Drop)
        return false;
    auto *widget = qobject_cast<QWidget *>(watched);
    if (!widget || widget->window() != m_window)
        return false;
    // Any local file is taken, so that one Folio cannot open gets a message rather than silence;
    // other drags (text, a link) stay with the widget under the pointer.
    auto *drop = static_cast<QDropEvent *>(event);
    bool local = false;
    if (drop->mimeData() && drop->mimeData()->hasUrls())
        for (const QUrl &url : drop->mimeData()->urls())
            local = local || url.isLocalFile();
    if (!local) {
        if (watched != m_window)
            return false;
        event->ignore();
        return true;
    }
    switch (type) {
    case QEvent::DragEnter:
    case QEvent::DragMove:
        drop->acceptProposedAction();
        return true;
    case QEvent::Drop: {
        const Sorted sorted = sort(drop->mimeData());
        if (sorted.project.isEmpty() && sorted.documents.isEmpty() && sorted.refused.isEmpty()) {
            drop->ignore();
            return true;
        }
        drop->acceptProposedAction();
        // Opening first: its "Opening ..." would otherwise replace the message on what was refused.
        if (sorted.project.isEmpty() || m_window->openProject(sorted.project)) { // else ProjectService said why
            m_queue = sorted.documents;
            openNext();
        }
        if (!sorted.refused.isEmpty()) {
            QStringList names;
            for (const QString &r : sorted.refused)
                names << QFileInfo(r).fileName();
            const QString message =
                tr("Cannot open %1: Folio opens scans (PNG, JPEG, TIFF), PDFs, HTML and MHTML pages, "
                   "Folio JSON and .folio projects").arg(names.join(QStringLiteral(", ")));
            m_window->statusBar()->showMessage(message, 10000);
            Q_EMIT refused(message);
        }
        return true;
    }
    default:
        return false;
    }
}

void DropOpener::openNext()
{
    if (m_queue.isEmpty())
        return;
    m_window->openFile(m_queue.takeFirst());
}

} // namespace folio
