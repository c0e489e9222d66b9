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

QList<ShippedModelInfo> shippedModelInfos()
{
    const QString funsd = AboutDialog::tr("FUNSD (Jaume et al., 2019): 149 training forms");
    const QString funsdLicence = AboutDialog::tr("FUNSD is licensed for non-commercial research and educational use only: "
                                                 "do not ship these weights in a commercial product.");
    const QString qmsum = AboutDialog::tr("QMSum train (Zhong et al., NAACL 2021)");
    const QString qmsumLicence = AboutDialog::tr("QMSum: MIT licence (c) 2021 Yale-LILY; its AMI and ICSI meeting transcripts "
                                                 "are CC BY 4.0 (attribution required).");
    return {
        {QStringLiteral("funsd-layout-reading"), QStringLiteral("config.json"),
         AboutDialog::tr("The default layout tagger (Suggest Labels) on words in reading order, as OCR gives them, "
                         "with a key → value link head"),
         funsd, funsdLicence},
        {QStringLiteral("funsd-layout"), QStringLiteral("config.json"),
         AboutDialog::tr("The same layout tagger trained on the FUNSD protocol's word order"), funsd, funsdLicence},
        {QStringLiteral("product-fields"), QStringLiteral("config.json"),
         AboutDialog::tr("Web product fields (Extract Fields): a small WebFormer with price and sku candidate rankers"),
         AboutDialog::tr("The Zyte product extraction benchmark's 140 pages"),
         AboutDialog::tr("The benchmark: MIT licence (c) 2021 Zyte. Its pages are snapshots of third-party shops whose "
                         "content belongs to those sites; the weights are derived from them.")},
        {QStringLiteral("qs-drafter"), QStringLiteral("drafter.json"),
         AboutDialog::tr("The default question-summary drafter (Generate): sentence salience and question templates; "
                         "every summary sentence is the document's own"),
         qmsum, qmsumLicence},
        {QStringLiteral("qmsum-qs"), QStringLiteral("config.json"),
         AboutDialog::tr("A 6M-parameter question-summary BART trained from scratch: a starting point to correct, "
                         "not a summariser"),
         qmsum, qmsumLicence},
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
