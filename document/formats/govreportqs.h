#pragma once
// GovReport-QS layout (the HIBRIDS paper's question-summary data, as Folio writes it): one JSON
// line per document in `<base>.govreport-qs.jsonl`:
//   { "doc_id": str, "title": str, "summary": root summary,
//     "document_sections": [ { "title": str, "depth": 1.., "paragraphs": [str] } ],   (document order)
//     "question_summary_pairs": [ { "question": str, "summary": str,
//                                   "parent_pair_index": index of the parent pair, -1 at the top,
//                                   "paragraph_alignment": [paragraph indices] } ] }   (pre-order)
// Paragraph indices count every paragraph of "document_sections" in order, from 0. Words before
// the first section are written as a first section with an empty title. Export writes accepted
// and edited items (suggestions with --include-suggestions, rejected ones never); an item's
// alignment is the paragraphs its evidence spans and sections cover. Import builds a text
// Document (document/formats/qsdocument.h) and one evidence span per aligned paragraph.
// Strict: a parent index that does not point at an earlier pair, a depth more than one below
// the section before, an alignment outside the paragraphs, wrong types - each named by file,
// line and JSON path. Export -> import -> export gives the same bytes.
#include "document/formats/datasetformat.h"

namespace folio {

class GovReportQsFormat : public DatasetFormat
{
public:
    QString name() const override { return QStringLiteral("govreport-qs"); }
    QString description() const override
    {
        return QStringLiteral("GovReport-QS layout: sections with depth and paragraphs, question-summary pairs with "
                              "parent index and paragraph alignment (JSON Lines)");
    }
    bool exportItems(const std::vector<DatasetItem> &items, const QString &outDir, const DatasetExportOptions &options,
                     QStringList *written, QString *error) const override;
    bool importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const override;
};

} // namespace folio
