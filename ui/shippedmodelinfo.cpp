#include "ui/shippedmodelinfo.h"

#include <QCoreApplication>

namespace folio {

namespace {

QString modelsTr(const char *text)
{
    return QCoreApplication::translate("ShippedModels", text);
}

} // namespace

QList<ShippedModelInfo> shippedModelInfos()
{
    const QString funsd = modelsTr("FUNSD (Jaume et al., 2019): 149 training forms");
    const QString funsdLicence = modelsTr("FUNSD is licensed for non-commercial research and educational use only: "
                                                 "do not ship these weights in a commercial product.");
    const QString qmsum = modelsTr("QMSum train (Zhong et al., NAACL 2021)");
    const QString qmsumLicence = modelsTr("QMSum: MIT licence (c) 2021 Yale-LILY; its AMI and ICSI meeting transcripts "
                                                 "are CC BY 4.0 (attribution required).");
    return {
        {QStringLiteral("funsd-layout-reading"), QStringLiteral("config.json"),
         modelsTr("The default layout tagger (Suggest Labels) on words in reading order, as OCR gives them, "
                         "with a key → value link head"),
         funsd, funsdLicence, true, true},
        {QStringLiteral("funsd-layout"), QStringLiteral("config.json"),
         modelsTr("The same layout tagger trained on the FUNSD protocol's word order"), funsd, funsdLicence, true, true},
        {QStringLiteral("product-fields"), QStringLiteral("config.json"),
         modelsTr("Web product fields (Extract Fields): a small WebFormer with price and sku candidate rankers"),
         modelsTr("The Zyte product extraction benchmark's 140 pages"),
         modelsTr("The benchmark: MIT licence (c) 2021 Zyte. Its pages are snapshots of third-party shops whose "
                         "content belongs to those sites; the weights are derived from them.")},
        {QStringLiteral("qs-drafter"), QStringLiteral("drafter.json"),
         modelsTr("The default question-summary drafter (Generate): sentence salience and question templates; "
                         "every summary sentence is the document's own"),
         qmsum, qmsumLicence},
        {QStringLiteral("qmsum-qs"), QStringLiteral("config.json"),
         modelsTr("A 6M-parameter question-summary BART trained from scratch: a starting point to correct, "
                         "not a summariser"),
         qmsum, qmsumLicence},
    };
}

} // namespace folio
