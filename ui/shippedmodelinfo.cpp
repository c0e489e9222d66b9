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
    const QString funsdXfund = modelsTr("FUNSD's 149 training forms and XFUND's 149 German training forms (Xu et al., 2022)");
    const QString funsdXfundLicence = modelsTr("FUNSD: non-commercial research and educational use only; XFUND: CC BY-NC-SA "
                                               "4.0. Non-commercial use only.");
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
        {QStringLiteral("forms-en-de-reading"), QStringLiteral("config.json"),
         modelsTr("The layout tagger for English and German forms, words in reading order (for German scans: "
                  "FUNSD test F1 63.5, XFUND-de val 70.2)"),
         funsdXfund, funsdXfundLicence, true, true},
        {QStringLiteral("forms-en-de"), QStringLiteral("config.json"),
         modelsTr("The English + German layout tagger on the FUNSD protocol's word order (FUNSD test F1 68.0, "
                  "XFUND-de val 73.6)"),
         funsdXfund, funsdXfundLicence, true, true},
        {QStringLiteral("forms-en-de-ensemble"), QStringLiteral("config.json"),
         modelsTr("Three English + German taggers voting word by word, FUNSD protocol word order (FUNSD test F1 70.4, "
                  "XFUND-de val 76.0; about three times one tagger's time)"),
         funsdXfund, funsdXfundLicence, true, true},
        {QStringLiteral("forms-en-de-reading-ensemble"), QStringLiteral("config.json"),
         modelsTr("Three English + German taggers voting word by word, words in reading order (FUNSD test F1 65.1, "
                  "XFUND-de val 71.7; about three times one tagger's time)"),
         funsdXfund, funsdXfundLicence, true, true},
        {QStringLiteral("sroie-receipts"), QStringLiteral("config.json"),
         modelsTr("Receipts: labels the company, date, address and total (SROIE task 3 F1 77.6 on held-out receipts)"),
         modelsTr("SROIE 2019: 501 of its 626 training receipts"),
         modelsTr("SROIE is handed out for research use with no open licence: internal evaluation and research only, "
                  "no commercial use of these weights."),
         true, true},
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
        {QStringLiteral("qs-questions"), QStringLiteral("config.json"),
         modelsTr("Answer-aware question generator with a copy head (qs generate --questions neural); the drafter's "
                  "templates stay the default"),
         modelsTr("FairytaleQA train (Apache-2.0) and QMSum train queries"),
         modelsTr("FairytaleQA: Apache-2.0; QMSum: MIT licence (c) 2021 Yale-LILY, AMI and ICSI transcripts CC BY 4.0 "
                  "(attribution required).")},
    };
}

} // namespace folio
