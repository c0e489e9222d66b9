#include "ui/aboutdialog.h"

#include "inference/inferenceversion.h"
#include "ocr/ocrversion.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QLabel>
#include <QVBoxLayout>

#include <libxml/parser.h>

namespace folio {

QList<QPair<QString, QString>> linkedLibraryVersions()
{
    const QString blas = inference::blasLibrary();
    return {
        {QStringLiteral("Qt"), QString::fromLatin1(qVersion())},
        {QStringLiteral("LibTorch"), inference::torchVersion()},
        {QStringLiteral("BLAS"), blas},
        {QStringLiteral("Tesseract"), ocr::tesseractVersion()},
        {QStringLiteral("Leptonica"), ocr::leptonicaVersion()},
        {QStringLiteral("libxml2"), QString::fromLatin1(xmlParserVersion)},
    };
}

AboutDialog::AboutDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("About Folio"));
    auto *layout = new QVBoxLayout(this);
    QString html = tr("<h2>Folio %1</h2><p>A studio for structure-aware document extraction: open a web page "
                      "or a scan, run layout transformers on it, correct what they find, look inside their "
                      "attention, train on your corrections and export datasets.</p>")
                       .arg(QCoreApplication::applicationVersion());
    html += QStringLiteral("<table>");
    for (const auto &lib : linkedLibraryVersions())
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(lib.first.toHtmlEscaped(), lib.second.toHtmlEscaped());
    html += QStringLiteral("</table>");
    auto *label = new QLabel(html, this);
    label->setObjectName(QStringLiteral("aboutText"));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    layout->addWidget(label);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

} // namespace folio
