#pragma once
// Label Studio JSON: tasks with predictions out, annotations in.
//
// Export writes `<base>.labelstudio.json`, an array of tasks for an image labelling config
// (<RectangleLabels name="label" toName="image">, <Relations>):
//   { "id": n, "data": { "image": path, "folio_name": str, "folio_page": [w, h],
//                        "folio_words": [ { "id", "text", "box": [x0, y0, x1, y1] px } ] },
//     "annotations": [ { "result": [region | relation] } ],          accepted / user entities
//     "predictions": [ { "model_version": ckpt, "score": mean confidence, "result": [...] } ] }
// region:   { "id": entity id, "type": "rectanglelabels", "from_name": "label", "to_name": "image",
//             "original_width", "original_height", "image_rotation": 0,
//             "value": { "x", "y", "width", "height" (percent), "rotation": 0, "rectanglelabels": [label] },
//             "meta": { "folio_words": [word ids] }, "score"? }
// relation: { "type": "relation", "from_id", "to_id", "direction": "right" }
// Import reads the tasks back: words from data.folio_words; each region becomes an entity over
// meta.folio_words, or (for regions drawn in Label Studio) the words whose centre lies inside
// the rectangle; relations become links. The last annotation of a task is taken as the user's;
// predictions come back as suggestions. One page per task (regions sit on the first page).
#include "document/formats/datasetformat.h"

namespace folio {

class LabelStudioFormat : public DatasetFormat
{
public:
    QString name() const override { return QStringLiteral("labelstudio"); }
    QString description() const override
    {
        return QStringLiteral("Label Studio JSON: tasks with predictions (export), annotations (import)");
    }
    bool exportItems(const std::vector<DatasetItem> &items, const QString &outDir, const DatasetExportOptions &options,
                     QStringList *written, QString *error) const override;
    bool importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const override;
};

} // namespace folio
