#pragma once
// Question-summary hierarchies (HIBRIDS QS): a JSON tree and the linearised string.
//
// Export writes `<base>.qs.jsonl`, one line per document:
//   { "id": str, "summary": root summary,
//     "hierarchy": [ { "question", "summary", "evidence": [section keys], "children": [...],
//                      "id"?, "spans"?: [{first, last, text}], "source"?: "model:<ckpt>", "confidence"?,
//                      "state"?: "suggested"|"rejected"|"edited", "evidenceMissing"?: true } ],
//     "linearised": "<root summary> [L-] q? s [L↓] q? s [L↑] q? s" }
// Linearisation (see ../shared/MODELS.md §5.7): the root summary, then every node in pre-order as
// "<actions> <question> <summary>", where the actions follow the *intended* rule: [L↓] once per
// level deeper, [L-] at the same depth, [L↑] once per level up (the released code's bug, which
// never emits [L↑], is not reproduced). The parser accepts both: a run of [L↓] is one push (as
// the evaluation parser does), [L↑]×k pops k levels, [L-] keeps the level. An item's question
// ends at its first '?'; the rest is its summary.
// The optional node keys are the Document JSON's (documentjson.h), written only when not at their
// default, so files without them read and write back unchanged. This is Folio's own lossless
// form: every item is written, suggestions and rejected ones with their state (the training-data
// layouts govreport-qs / hibrids / qmsum leave rejected items out).
// Import reads "hierarchy" when present, otherwise parses "linearised". Evidence is only in the tree.
#include "document/formats/datasetformat.h"

namespace folio {

QString linearizeQsHierarchy(const QString &rootSummary, const std::vector<QsNode> &roots);
bool parseLinearizedQsHierarchy(const QString &text, QString *rootSummary, std::vector<QsNode> *roots, QString *error);

class QsHierarchyFormat : public DatasetFormat
{
public:
    QString name() const override { return QStringLiteral("qs"); }
    QString description() const override
    {
        return QStringLiteral("question-summary hierarchies: JSON tree + linearised [L↓]/[L-]/[L↑] string");
    }
    bool exportItems(const std::vector<DatasetItem> &items, const QString &outDir, const DatasetExportOptions &options,
                     QStringList *written, QString *error) const override;
    bool importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const override;
};

} // namespace folio
