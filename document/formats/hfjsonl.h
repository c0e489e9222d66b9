#pragma once
// Hugging Face `datasets` token-classification JSONL (the FUNSD/LayoutLM loader layout).
//
// Export writes `<base>.jsonl`, one line per page:
//   {"id": str, "tokens": [str], "bboxes": [[x0,y0,x1,y1] 0-1000 ints], "ner_tags": [int], "image": path}
// and `<base>.labels.json` = ["O", "B-ANSWER", "I-ANSWER", ...], the ClassLabel names that the
// ner_tags index. Import reads the same; ner_tags may also be tag strings (then no label file is
// needed). Links are not part of this format. Field answers (issue 15), when a document has any, go
// on its first row as "fields": {field: [values]} ([] = "no value on this page") and are read back.
#include "document/formats/datasetformat.h"

namespace folio {

class HfJsonlFormat : public DatasetFormat
{
public:
    QString name() const override { return QStringLiteral("hfjsonl"); }
    QString description() const override
    {
        return QStringLiteral("HF datasets JSONL: tokens, bboxes 0-1000, ner_tags, image");
    }
    bool exportItems(const std::vector<DatasetItem> &items, const QString &outDir, const DatasetExportOptions &options,
                     QStringList *written, QString *error) const override;
    bool importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const override;

    // ["O", "B-L", "I-L", ...] for the labels, in this order.
    static QStringList tagNames(const QStringList &labels);
};

} // namespace folio
