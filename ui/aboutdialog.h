#pragma once
// About box: what Folio is and the versions of the libraries it actually runs with.
#include <QDialog>
#include <QList>
#include <QPair>

namespace folio {

// (library, version) pairs read at run time: Qt, LibTorch (+ BLAS in use), Tesseract, Leptonica, libxml2.
QList<QPair<QString, QString>> linkedLibraryVersions();

class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AboutDialog(QWidget *parent = nullptr);
};

} // namespace folio
