#pragma once
// Drag and drop onto the main window (issue 50): files dropped from a file manager open exactly as
// File > Open and `folio FILE` do — scans (PNG, JPEG, TIFF, ...), PDFs, HTML, MHTML, Folio / FUNSD
// JSON, a browser's saved-page folder through MainWindow::openFile, a .folio / .folio-pg project
// through MainWindow::openProject. Several documents open one after another; a file Folio cannot
// open is named in the status bar. A drag of local files over any widget of the window counts (the
// web view and line edits take drops themselves, so the filter is on the application):
//   new DropOpener(mainWindow);
#include <QObject>
#include <QStringList>

class QMimeData;

namespace folio {

class MainWindow;

class DropOpener : public QObject
{
    Q_OBJECT
public:
    explicit DropOpener(MainWindow *window);

    struct Sorted {
        QString project;          // the first project dropped (opened before the documents)
        QStringList documents;    // local files / saved-page folders, in the order dropped
        QStringList refused;      // what Folio does not open (local paths or URLs as given)
    };
    // Splits a drag's URLs; only local files and folders can open.
    static Sorted sort(const QMimeData *data);

Q_SIGNALS:
    // The status bar text for a drop that refused something (also shown there).
    void refused(const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void openNext();

    MainWindow *m_window;
    QStringList m_queue; // documents still to open from the last drop
};

} // namespace folio
