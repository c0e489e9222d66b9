#include "pipeline/receiptfields.h"

#include <QStringList>

namespace folio::pipeline {

QMap<QString, QString> receiptFieldsFromPrediction(const inference::TaggerPage &page, const inference::PagePrediction &prediction)
{
    QMap<QString, QStringList> joined;   // COMPANY / ADDRESS: every entity, in reading order
    QMap<QString, QString> surest;       // DATE / TOTAL: the most confident entity
    QMap<QString, double> surestConfidence;
    for (const inference::PredictedEntity &e : prediction.entities) {
        const QString label = QString::fromStdString(e.label);
        if (!sroieLabels().contains(label) || e.firstWord < 0 || e.lastWord >= int(page.words.size()) || e.firstWord > e.lastWord)
            continue;
        QStringList words;
        for (int w = e.firstWord; w <= e.lastWord; ++w)
            words.push_back(QString::fromStdString(page.words[std::size_t(w)]));
        const QString text = words.join(QLatin1Char(' '));
        if (label == QLatin1String("COMPANY") || label == QLatin1String("ADDRESS")) {
            joined[label].push_back(text);
        } else if (!surestConfidence.contains(label) || e.confidence > surestConfidence.value(label)) {
            surest[label] = text;
            surestConfidence[label] = e.confidence;
        }
    }
    QMap<QString, QString> fields;
    for (auto it = joined.cbegin(); it != joined.cend(); ++it)
        fields.insert(sroieKeyOfLabel(it.key()), it.value().join(QLatin1Char(' ')));
    for (auto it = surest.cbegin(); it != surest.cend(); ++it)
        fields.insert(sroieKeyOfLabel(it.key()), it.value());
    return fields;
}

void ReceiptFieldScores::add(const QMap<QString, QString> &found, const QMap<QString, QString> &keys)
{
    for (const QString &label : sroieLabels()) {
        const QString key = sroieKeyOfLabel(label);
        const QString predicted = found.value(key).simplified();
        const QString gold = keys.value(key).simplified();
        FieldCounts &field = byField[key];
        const bool hasPrediction = !predicted.isEmpty(), hasGold = !gold.isEmpty();
        const bool correct = hasPrediction && hasGold && sroieFieldMatches(predicted, gold);
        for (FieldCounts *c : {&field, &all}) {
            c->predicted += hasPrediction;
            c->gold += hasGold;
            c->correct += correct;
        }
    }
}

} // namespace folio::pipeline
