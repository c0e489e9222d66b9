#include "document/formats/fieldanswers.h"

#include "document/formats/jsonvalidate.h"

#include <QJsonArray>

namespace folio::formats {

FieldAnswers fieldAnswers(const Document &doc, const Annotations &a, bool includeSuggestions)
{
    FieldAnswers out;
    for (const FieldValue &f : a.fields) {
        if (f.state == ReviewState::Rejected || (f.state == ReviewState::Suggested && !includeSuggestions))
            continue;
        QString text = f.text;
        if (text.isEmpty()) {
            QStringList parts;
            for (const QString &id : f.wordIds)
                if (const int i = doc.wordIndex(id); i >= 0)
                    parts << doc.words[size_t(i)].text;
            text = parts.join(QLatin1Char(' '));
        }
        QStringList &values = out[f.field];
        if (!text.trimmed().isEmpty() && !values.contains(text))
            values << text;
    }
    return out;
}

bool readFieldAnswers(JsonValidator &jv, const QJsonObject &object, const QString &where, FieldAnswers *answers,
                      const QStringList &skip)
{
    for (auto f = object.constBegin(); f != object.constEnd(); ++f) {
        const QString path = jsonKey(where, f.key());
        QStringList values;
        if (f.value().isString()) {
            values << f.value().toString();
        } else {
            QJsonArray list;
            if (!jv.array(f.value(), path, &list))
                return false;
            for (qsizetype i = 0; i < list.size(); ++i) {
                QString v;
                if (!jv.string(list[i], jsonIndex(path, i), &v))
                    return false;
                values << v;
            }
        }
        if (!skip.contains(f.key()))
            (*answers)[f.key()] = values;
    }
    return true;
}

QJsonObject fieldAnswersJson(const FieldAnswers &answers, bool keepNoValue)
{
    QJsonObject out;
    for (const auto &[field, values] : answers)
        if (keepNoValue || !values.isEmpty())
            out.insert(field, QJsonArray::fromStringList(values));
    return out;
}

std::vector<FieldValue> fieldValuesFromAnswers(const FieldAnswers &answers)
{
    std::vector<FieldValue> out;
    for (const auto &[field, values] : answers) {
        if (values.isEmpty()) {
            FieldValue f;
            f.field = field;
            out.push_back(f);
        }
        for (const QString &v : values) {
            FieldValue f;
            f.field = field;
            f.text = v;
            out.push_back(f);
        }
    }
    return out;
}

} // namespace folio::formats
