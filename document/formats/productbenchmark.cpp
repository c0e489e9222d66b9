#include "document/formats/productbenchmark.h"

#include "document/formats/datasetlimits.h"
#include "document/formats/fieldanswers.h"
#include "document/formats/jsonvalidate.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace folio {

using namespace formats;

QString ProductBenchmarkFormat::pageKey(const QString &itemName)
{
    QString key = QFileInfo(itemName).fileName();
    for (const char *suffix : {".gz", ".html", ".htm"})
        if (key.endsWith(QLatin1String(suffix), Qt::CaseInsensitive))
            key.chop(qsizetype(qstrlen(suffix)));
    return key.isEmpty() ? itemName : key;
}

bool ProductBenchmarkFormat::exportItems(const std::vector<DatasetItem> &items, const QString &outDir,
                                         const DatasetExportOptions &options, QStringList *written, QString *error) const
{
    if (!checkDatasetItems(items, QStringLiteral("export"), error) || !ensureDir(outDir, error))
        return false;
    QJsonObject root;
    for (const DatasetItem &item : items) {
        const QString key = pageKey(item.name);
        if (root.contains(key)) {
            *error = QStringLiteral("export: two pages have the key \"%1\" (%2)").arg(key, item.name);
            return false;
        }
        root.insert(key, fieldAnswersJson(fieldAnswers(item.document, item.annotations, options.includeSuggestions),
                                          /*keepNoValue=*/false));
    }
    return writeExportFile(exportFilePath(outDir, options, QStringLiteral(".json")),
                           QJsonDocument(root).toJson(QJsonDocument::Indented), written, error);
}

bool ProductBenchmarkFormat::importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const
{
    QByteArray bytes;
    if (!readWholeFile(path, &bytes, error, DatasetLimits::maxJsonFileBytes))
        return false;
    JsonValidator jv(path);
    QJsonValue rootValue;
    QJsonObject root;
    if (!jv.parse(bytes, &rootValue) || !jv.object(rootValue, QStringLiteral("$"), &root)) {
        *error = jv.error();
        return false;
    }
    std::vector<DatasetItem> out;
    for (auto it = root.constBegin(); it != root.constEnd(); ++it) {
        const QString where = jsonKey(QStringLiteral("$"), it.key());
        QJsonObject page;
        if (!jv.object(it.value(), where, &page)) {
            *error = jv.error();
            return false;
        }
        DatasetItem item;
        item.name = it.key();
        item.document.sourcePath = it.key();
        item.document.kind = SourceKind::Html;
        FieldAnswers answers;
        if (!readFieldAnswers(jv, page, where, &answers, {QStringLiteral("url")})) {
            *error = jv.error();
            return false;
        }
        item.annotations.fields = fieldValuesFromAnswers(answers); // an empty list: "no value" answered
        out.push_back(std::move(item));
    }
    if (!checkDatasetItems(out, path, error))
        return false;
    *items = std::move(out);
    return true;
}

} // namespace folio
