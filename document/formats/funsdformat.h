#pragma once
// FUNSD as a DatasetFormat like the others ("funsd"): export writes `<out>/annotations/<name>.json`
// per item (funsdToJson; images are not copied: a FUNSD JSON names none), import reads one
// annotation file (funsd.h: page size from the PNG beside it, the protocol's word order). Both
// run the shared dataset check (datasetlimits.h).

#include "document/formats/datasetformat.h"

namespace folio {

class FunsdFormat : public DatasetFormat
{
public:
    QString name() const override { return QStringLiteral("funsd"); }
    QString description() const override
    {
        return QStringLiteral("FUNSD: annotations/<id>.json with entities, words, boxes and links");
    }
    bool exportItems(const std::vector<DatasetItem> &items, const QString &outDir, const DatasetExportOptions &options,
                     QStringList *written, QString *error) const override;
    bool importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const override;
};

} // namespace folio
