#include "pipeline/webfieldset.h"

#include "document/project/project.h"
#include "document/structured/normalise.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

namespace folio::pipeline {

namespace {
const char *const kSettingKey = "fields";

struct TypeName
{
    FieldType type;
    const char *name;
};
const TypeName kTypes[] = {{FieldType::Text, "text"},
                           {FieldType::Price, "price"},
                           {FieldType::Identifier, "identifier"},
                           {FieldType::Availability, "availability"},
                           {FieldType::Date, "date"}};
} // namespace

QString fieldTypeName(FieldType type)
{
    for (const TypeName &t : kTypes)
        if (t.type == type)
            return QString::fromLatin1(t.name);
    return QStringLiteral("text");
}

bool fieldTypeFromName(const QString &name, FieldType *type)
{
    for (const TypeName &t : kTypes)
        if (name.trimmed().compare(QLatin1String(t.name), Qt::CaseInsensitive) == 0) {
            *type = t.type;
            return true;
        }
    return false;
}

QStringList fieldTypeNames()
{
    QStringList names;
    for (const TypeName &t : kTypes)
        names << QString::fromLatin1(t.name);
    return names;
}

std::vector<FieldSpec> defaultProductFields()
{
    return {{QStringLiteral("price"), FieldType::Price},         {QStringLiteral("currency"), FieldType::Text},
            {QStringLiteral("sku"), FieldType::Identifier},      {QStringLiteral("gtin"), FieldType::Identifier},
            {QStringLiteral("mpn"), FieldType::Identifier},      {QStringLiteral("brand"), FieldType::Text},
            {QStringLiteral("availability"), FieldType::Availability}, {QStringLiteral("name"), FieldType::Text}};
}

QStringList fieldNames(const std::vector<FieldSpec> &fields)
{
    QStringList names;
    for (const FieldSpec &f : fields)
        names << f.name;
    return names;
}

bool validateFieldSet(const std::vector<FieldSpec> &fields, QString *error)
{
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9_.-]+$"));
    if (fields.empty()) {
        *error = QStringLiteral("the field set is empty: give at least one field");
        return false;
    }
    if (int(fields.size()) > kMaxFields) {
        *error = QStringLiteral("%1 fields: at most %2 are allowed").arg(fields.size()).arg(kMaxFields);
        return false;
    }
    QSet<QString> seen;
    for (const FieldSpec &f : fields) {
        if (f.name.isEmpty() || f.name.size() > kMaxFieldNameLength || !valid.match(f.name).hasMatch()) {
            *error = QStringLiteral("field name \"%1\": use 1-%2 letters, digits, '_', '-' or '.'")
                         .arg(f.name.left(80))
                         .arg(kMaxFieldNameLength);
            return false;
        }
        if (seen.contains(f.name.toLower())) {
            *error = QStringLiteral("field \"%1\" is listed twice").arg(f.name);
            return false;
        }
        seen.insert(f.name.toLower());
    }
    return true;
}

bool parseFieldSpecs(const QString &text, std::vector<FieldSpec> *fields, QString *error)
{
    std::vector<FieldSpec> out;
    const QStringList items = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (items.size() > kMaxFields) {
        *error = QStringLiteral("%1 fields: at most %2 are allowed").arg(items.size()).arg(kMaxFields);
        return false;
    }
    for (const QString &raw : items) {
        const QString item = raw.trimmed();
        const qsizetype colon = item.indexOf(QLatin1Char(':'));
        FieldSpec f;
        f.name = (colon < 0 ? item : item.left(colon)).trimmed();
        if (colon >= 0 && !fieldTypeFromName(item.mid(colon + 1), &f.type)) {
            *error = QStringLiteral("field \"%1\": unknown type \"%2\" (use %3)")
                         .arg(f.name.left(80), item.mid(colon + 1).trimmed().left(40),
                              fieldTypeNames().join(QStringLiteral(", ")));
            return false;
        }
        out.push_back(f);
    }
    if (!validateFieldSet(out, error))
        return false;
    *fields = std::move(out);
    return true;
}

QString formatFieldSpecs(const std::vector<FieldSpec> &fields)
{
    QStringList items;
    for (const FieldSpec &f : fields)
        items << f.name + QLatin1Char(':') + fieldTypeName(f.type);
    return items.join(QLatin1Char(','));
}

bool projectFieldSet(const Project &project, std::vector<FieldSpec> *fields, QString *error)
{
    *fields = defaultProductFields();
    const QString stored = project.setting(QString::fromLatin1(kSettingKey));
    if (stored.isEmpty())
        return true;
    const auto fail = [&](const QString &what) {
        *error = QStringLiteral("%1: setting \"fields\": %2 (the product defaults are used)").arg(project.path(), what);
        return false;
    };
    if (stored.size() > 1 << 20)
        return fail(QStringLiteral("longer than 1 MiB"));
    QJsonParseError parseError;
    const QJsonDocument json = QJsonDocument::fromJson(stored.toUtf8(), &parseError);
    if (!json.isArray())
        return fail(parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                                 : QStringLiteral("not a JSON array"));
    std::vector<FieldSpec> out;
    const QJsonArray array = json.array();
    for (int i = 0; i < array.size(); ++i) {
        const QJsonObject o = array[i].toObject();
        FieldSpec f;
        f.name = o.value(QStringLiteral("name")).toString();
        if (!array[i].isObject() || !o.value(QStringLiteral("name")).isString()
            || !fieldTypeFromName(o.value(QStringLiteral("type")).toString(), &f.type))
            return fail(QStringLiteral("entry %1 is not {\"name\": string, \"type\": %2}")
                            .arg(i)
                            .arg(fieldTypeNames().join(QLatin1Char('|'))));
        out.push_back(f);
    }
    QString why;
    if (!validateFieldSet(out, &why))
        return fail(why);
    *fields = std::move(out);
    return true;
}

bool setProjectFieldSet(Project &project, const std::vector<FieldSpec> &fields, QString *error)
{
    if (!validateFieldSet(fields, error)) {
        *error = project.path() + QStringLiteral(": ") + *error;
        return false;
    }
    QJsonArray array;
    for (const FieldSpec &f : fields)
        array.append(QJsonObject{{QStringLiteral("name"), f.name}, {QStringLiteral("type"), fieldTypeName(f.type)}});
    return project.setSetting(QString::fromLatin1(kSettingKey),
                              QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact)), error);
}

FieldReading readFieldValue(const FieldSpec &field, const QString &text)
{
    FieldReading r;
    const std::string s = text.toStdString();
    if (text.trimmed().isEmpty())
        return r;
    const auto fail = [&](const QString &why) {
        r.ok = false;
        r.problem = why;
        return r;
    };
    switch (field.type) {
    case FieldType::Price: {
        const auto price = structured::parsePrice(s);
        if (!price)
            return fail(QStringLiteral("does not read as a price: no number in it"));
        r.value = QString::fromStdString(price->amount + (price->currency.empty() ? "" : " " + price->currency));
        return r;
    }
    case FieldType::Identifier: {
        const bool gtin = field.name.compare(QLatin1String("gtin"), Qt::CaseInsensitive) == 0;
        const auto id = gtin ? structured::normaliseGtin(s) : structured::normaliseIdentifier(s);
        if (!id)
            return fail(gtin ? QStringLiteral("not a GTIN-8/12/13/14 with a right check digit")
                             : QStringLiteral("does not read as an identifier (empty or over 64 characters)"));
        r.value = QString::fromStdString(*id);
        return r;
    }
    case FieldType::Availability:
        r.value = QString::fromStdString(structured::normaliseAvailability(s));
        if (r.value.isEmpty())
            return fail(QStringLiteral("not an availability (in stock, out of stock, pre-order, ...)"));
        return r;
    case FieldType::Text:
    case FieldType::Date:
        break;
    }
    r.value = QString::fromStdString(structured::cleanText(s));
    return r;
}

QString projectFieldModel(const Project &project) { return project.setting(QStringLiteral("field_model")); }

bool setProjectFieldModel(Project &project, const QString &checkpointDir, QString *error)
{
    return project.setSetting(QStringLiteral("field_model"), checkpointDir, error);
}

QStringList fieldsUnknownTo(const QStringList &known, const std::vector<FieldSpec> &wanted)
{
    QStringList unknown;
    for (const FieldSpec &f : wanted)
        if (!known.contains(f.name))
            unknown << f.name;
    return unknown;
}

} // namespace folio::pipeline
