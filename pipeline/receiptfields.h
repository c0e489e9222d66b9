#pragma once
// Key fields of receipts (SROIE task 3) from a tagger's prediction, and their score: each of the
// four fields (company, date, address, total) is right when its text equals the key file's after
// white-space runs become one space (document/formats/sroie.h: sroieFieldMatches); precision over
// the fields the model gave, recall over the fields the key files hold, F1 their harmonic mean.
//
// A field's text is read off the predicted entities: COMPANY and ADDRESS join every entity of the
// label in reading order (one per printed line, or one for all), DATE and TOTAL take the entity
// the model is surest of.

#include "document/formats/sroie.h"
#include "inference/formtagger/predictor.h"

#include <QMap>
#include <QString>

#include <vector>

namespace folio::pipeline {

// "company" -> text, for the fields the prediction has. `page` is the page the model read
// (its words, in the prediction's order).
QMap<QString, QString> receiptFieldsFromPrediction(const inference::TaggerPage &page, const inference::PagePrediction &prediction);

struct FieldCounts
{
    int predicted = 0, gold = 0, correct = 0;
    double precision() const { return predicted ? double(correct) / predicted : 0; }
    double recall() const { return gold ? double(correct) / gold : 0; }
    double f1() const
    {
        const double p = precision(), r = recall();
        return p + r > 0 ? 2 * p * r / (p + r) : 0;
    }
};

struct ReceiptFieldScores
{
    FieldCounts all;
    QMap<QString, FieldCounts> byField; // "company", "date", "address", "total"
    // Adds one receipt: the fields found against its key file.
    void add(const QMap<QString, QString> &found, const QMap<QString, QString> &keys);
};

} // namespace folio::pipeline
