#pragma once
// About box: what Folio is, the versions of the libraries it actually runs with, and the models it
// ships: what each does, what it was trained on, under which licence, and where it was found.
#include "ui/shippedmodelinfo.h"

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
