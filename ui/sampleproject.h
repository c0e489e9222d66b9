#pragma once
// Help > Open Sample Project (and Folio's first start without a document): a project with one of
// each kind of document Folio reads — a scanned form (OCR), a sectioned PDF manual (its text layer)
// and a saved product page (HTML) — in the user's data folder, so the first hour starts on real
// documents rather than an empty window.
//
// The form and the product page are copied from the bundled samples; the manual is Folio's own
// README printed to a PDF (headings become the PDF's sections). Files already there are kept, so a
// second call costs nothing and never touches the user's work in the project.
#include <QString>
#include <QStringList>

namespace folio {

// Default folder: <AppDataLocation>/sample.
QString sampleProjectFolder();
// The project file inside `folder`.
QString sampleProjectPath(const QString &folder);

// Copies / writes the three sample documents into `folder` (created) and returns their paths
// (form, manual, product page). Empty + *error naming what failed.
QStringList prepareSampleDocuments(const QString &folder, QString *error);

} // namespace folio
