#pragma once
// About box: what Folio is, the versions of the libraries it actually runs with, and the models it
// ships: what each does, what it was trained on, under which licence, and where it was found.
#include <QDialog>
#include <QList>
#include <QPair>

namespace folio {

// (library, version) pairs read at run time: Qt, LibTorch (+ BLAS in use), Tesseract, Leptonica, libxml2.
QList<QPair<QString, QString>> linkedLibraryVersions();

struct ShippedModelInfo
{
    QString name;    // folder under resources/models
    QString marker;  // a file that folder holds
    QString what;
    QString data;    // what it was trained on
    QString licence; // the training data's licence and what it means for the weights
};

// The five models of README "Models Folio ships", with their licences (RECIPE.md of each).
QList<ShippedModelInfo> shippedModelInfos();

class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AboutDialog(QWidget *parent = nullptr);
};

} // namespace folio
