#include "document/formats/funsdformat.h"

#include "document/formats/datasetlimits.h"
#include "document/formats/funsd.h"

#include <QDir>
#include <QFileInfo>

namespace folio {

bool FunsdFormat::exportItems(const std::vector<DatasetItem> &items, const QString &outDir, const DatasetExportOptions &,
                              QStringList *written, QString *error) const
{
    const QString annotationDir = QDir(outDir).filePath(QStringLiteral("annotations"));
    if (!checkDatasetItems(items, QStringLiteral("export"), error) || !formats::ensureDir(annotationDir, error))
        return false;
    for (const DatasetItem &item : items) {
        const QString path = QDir(annotationDir).filePath(item.name + QStringLiteral(".json"));
        if (!formats::writeExportFile(path, funsdToJson(item.document, item.annotations), written, error))
            return false;
    }
    return true;
}

bool FunsdFormat::importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const
{
    DatasetItem item;
    if (!importFunsdFile(path, FunsdWordOrder::Annotation, &item.document, &item.annotations, error))
        return false;
    item.name = QFileInfo(path).completeBaseName();
    if (item.document.sourcePath.isEmpty())
        item.document.sourcePath = path;
    if (!checkDatasetItem(item, path, error))
        return false;
    items->push_back(std::move(item));
    return true;
}

} // namespace folio
