#include "ui/aboutdialog.h"

#include "inference/inferenceversion.h"
#include "ocr/ocrversion.h"
#include "pipeline/shippedmodels.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QScrollArea>
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
    html += tr("<h3>Models Folio ships</h3><p>Trained by Folio itself (no pretrained weights were downloaded); "
               "each folder's RECIPE.md reproduces it.</p>");
    html += QStringLiteral("<table cellspacing=\"4\">");
    for (const ShippedModelInfo &m : shippedModelInfos()) {
        const QString dir = pipeline::shippedModelDir(m.name, m.marker);
        const QString where = dir.isEmpty() ? tr("not installed") : QDir::toNativeSeparators(dir);
        html += QStringLiteral("<tr><td valign=\"top\"><b>%1</b></td><td>%2<br><i>%3</i>. %4<br><small>%5</small></td></tr>")
                    .arg(m.name.toHtmlEscaped(), m.what.toHtmlEscaped(), m.data.toHtmlEscaped(), m.licence.toHtmlEscaped(),
                         where.toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    auto *label = new QLabel(html, this);
    label->setObjectName(QStringLiteral("aboutText"));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    label->setMargin(6);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(label);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(scroll, 1);
    resize(640, 620);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

} // namespace folio
