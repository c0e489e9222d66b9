#pragma once
// The field set of a project (issue 15): which fields Extract Fields looks for on a page, each with
// a type that says how its value reads (text, price, identifier, availability, date). Stored in the
// project's settings table under the key "fields" as a JSON array [{"name": ..., "type": ...}]; a
// project without the key has the product defaults (price, currency, sku, gtin, mpn, brand,
// availability, name). Shared by the GUI (Project > Field Set) and `folio-cli project fields`.
// No exception leaves these functions; every refusal names the problem (and the project).

#include <QString>
#include <QStringList>

#include <vector>

namespace folio {
class Project;
}

namespace folio::pipeline {

enum class FieldType { Text, Price, Identifier, Availability, Date };

QString fieldTypeName(FieldType type);                         // "text", "price", ...
bool fieldTypeFromName(const QString &name, FieldType *type);  // false for an unknown name
QStringList fieldTypeNames();

struct FieldSpec
{
    QString name;
    FieldType type = FieldType::Text;
    bool operator==(const FieldSpec &o) const { return name == o.name && type == o.type; }
};

constexpr int kMaxFields = 64;
constexpr int kMaxFieldNameLength = 64;

// price, currency, sku, gtin, mpn, brand, availability, name.
std::vector<FieldSpec> defaultProductFields();
QStringList fieldNames(const std::vector<FieldSpec> &fields);

// Names are 1-64 characters of letters, digits, '_', '-', '.'; unique (case-insensitively); at
// most kMaxFields fields and at least one. False + *error naming the offending field.
bool validateFieldSet(const std::vector<FieldSpec> &fields, QString *error);
// "price:price,sku:identifier,name" (a missing type is text); validated.
bool parseFieldSpecs(const QString &text, std::vector<FieldSpec> *fields, QString *error);
QString formatFieldSpecs(const std::vector<FieldSpec> &fields); // the same "name:type,..." form

// The project's field set (the defaults when it has none stored). A stored value that does not
// parse gives false + *error naming the project and the problem, and *fields = the defaults.
bool projectFieldSet(const Project &project, std::vector<FieldSpec> *fields, QString *error);
// Validates and stores the field set (one settings write).
bool setProjectFieldSet(Project &project, const std::vector<FieldSpec> &fields, QString *error);

// How a value reads as its field's type (document/structured/normalise.h): price -> "50.00 GBP",
// identifier -> trimmed (a field named gtin: the digits, check digit verified), availability ->
// the schema.org name, text/date -> white space collapsed. ok == false with `problem` saying why
// ("no number in it", "GTIN check digit wrong", ...); an empty text is not read (ok, empty value).
struct FieldReading
{
    bool ok = true;
    QString value;
    QString problem;
};
FieldReading readFieldValue(const FieldSpec &field, const QString &text);

// The project's field extractor (a WebFormer checkpoint folder; settings key "field_model"), set
// by Train Field Extractor / Choose Field Extractor; empty when none is set.
QString projectFieldModel(const Project &project);
bool setProjectFieldModel(Project &project, const QString &checkpointDir, QString *error);

// The fields of `wanted` that a model trained on `known` has never seen (order of `wanted`).
QStringList fieldsUnknownTo(const QStringList &known, const std::vector<FieldSpec> &wanted);

} // namespace folio::pipeline
