#pragma once
// "product-benchmark": the field-value layout of the Zyte product extraction benchmark
// (dataset/ground-truth.json and dataset/output/*.json, ../shared/data/product-extraction-benchmark).
//
// Export writes `<base>.json` = {"<page key>": {"<field>": ["value", ...], ...}, ...}: one member
// per item (key = the item name without a .gz / .html / .htm suffix, so "<sha>.html.gz" pages get
// the benchmark's key); a field answered "no value on this page" is left out, as in the ground
// truth. Values are the accepted answers (see fieldanswers.h).
// Import reads such a file: each member's value must be an object whose members are a string or a
// list of strings (e.g. "url" or "InStock" in the ground truth, kept as fields except "url"); items
// are named by key with empty Html documents (the layout carries no page content).
#include "document/formats/datasetformat.h"

namespace folio {

class ProductBenchmarkFormat : public DatasetFormat
{
public:
    QString name() const override { return QStringLiteral("product-benchmark"); }
    QString description() const override
    {
        return QStringLiteral("field values per page as the product extraction benchmark's {page: {field: [values]}}");
    }
    bool exportItems(const std::vector<DatasetItem> &items, const QString &outDir, const DatasetExportOptions &options,
                     QStringList *written, QString *error) const override;
    bool importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const override;

    // "<sha>.html.gz" -> "<sha>"; other names unchanged but for a trailing .gz/.html/.htm.
    static QString pageKey(const QString &itemName);
};

} // namespace folio
