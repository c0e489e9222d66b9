#pragma once
// Field answers of a dataset item (issue 15), as the field-value formats write them (SWDE,
// product-benchmark, the "fields" member of HF JSONL rows): field -> values. An accepted
// "no value on this page" answer (a FieldValue with no words and empty text) gives the field with
// an empty list; rejected answers and (unless asked) suggestions are left out; a value's text is
// FieldValue::text, else its words' text joined by spaces.
#include "document/formats/datasetformat.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <map>

namespace folio::formats {

using FieldAnswers = std::map<QString, QStringList>;

FieldAnswers fieldAnswers(const Document &doc, const Annotations &a, bool includeSuggestions);
// {field: "value" | ["value", ...]} read at JSON path `where` into *answers (members named in
// `skip` are ignored); false with jv.error() naming the file and path of a bad member.
class JsonValidator;
bool readFieldAnswers(JsonValidator &jv, const QJsonObject &object, const QString &where, FieldAnswers *answers,
                      const QStringList &skip = {});
// {field: [values]}; fields answered "no value" (empty lists) only when `keepNoValue`.
QJsonObject fieldAnswersJson(const FieldAnswers &answers, bool keepNoValue);
// FieldValues (source user, accepted, text only) from answers; an empty list becomes one "no value" answer.
std::vector<FieldValue> fieldValuesFromAnswers(const FieldAnswers &answers);

} // namespace folio::formats
