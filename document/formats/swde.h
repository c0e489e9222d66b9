#pragma once
// SWDE-style field values (Hao et al. 2011 ground-truth layout).
//
// Export writes one file per field, `<vertical>-<site>-<field>.txt`:
//   <vertical> TAB <site> TAB <field>
//   <pages> TAB <pages> TAB <pages> TAB <pages with a value>
//   <page id, 4 digits> TAB <number of values> TAB <value 1> TAB <value 2> ...
// Page ids are the item order (0000, 0001, ...); a page without a value has count 0 and the
// value "<NULL>". Values are FieldValue::text (or the text of its words).
// Import reads one such file (UTF-8, optional BOM, CRLF or LF) into items named by page id with
// one FieldValue per value; the documents are empty (SWDE ground truth carries no page content).
#include "document/formats/datasetformat.h"

namespace folio {

class SwdeFormat : public DatasetFormat
{
public:
    QString name() const override { return QStringLiteral("swde"); }
    QString description() const override { return QStringLiteral("SWDE ground-truth field values, one file per field"); }
    bool exportItems(const std::vector<DatasetItem> &items, const QString &outDir, const DatasetExportOptions &options,
                     QStringList *written, QString *error) const override;
    bool importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const override;
};

} // namespace folio
