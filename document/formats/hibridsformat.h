#pragma once
// The HIBRIDS reference layout (github.com/ShuyangCao/hibrids_summ: a report as one nested
// section; the question-summary hierarchy as questions with answers and child questions), as
// Folio writes it: one JSON line per document in `<base>.hibrids.jsonl`:
//   { "doc_id": str, "summary": root summary,
//     "section": { "section_title": the document title, "paragraphs": [words before the first section],
//                  "subsections": [ { "section_title", "paragraphs": [str], "subsections": [...] } ] },
//     "questions": [ { "question": str, "answer": str, "paragraph_alignment": [paragraph indices],
//                      "child_questions": [...] } ] }
// Paragraph indices count the paragraphs of the section tree in document order (the root
// section's first). Nesting is read iteratively and refused past 64 levels (sections and
// questions, DatasetLimits::maxQsDepth). What is exported and how evidence maps: as govreport-qs
// (govreportqs.h). Export -> import -> export gives the same bytes.
#include "document/formats/datasetformat.h"

namespace folio {

class HibridsFormat : public DatasetFormat
{
public:
    QString name() const override { return QStringLiteral("hibrids"); }
    QString description() const override
    {
        return QStringLiteral("HIBRIDS reference layout: nested sections with paragraphs and subsections, questions "
                              "with answers and child questions (JSON Lines)");
    }
    bool exportItems(const std::vector<DatasetItem> &items, const QString &outDir, const DatasetExportOptions &options,
                     QStringList *written, QString *error) const override;
    bool importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const override;
};

} // namespace folio
