#pragma once
// QMSum meetings (../shared/data/qmsum: one JSON file per meeting) as two-level question-summary
// hierarchies with evidence spans. One meeting file <-> one item:
//   meeting_transcripts [{speaker, content}] -> the Document: one Paragraph node per turn (content
//       as given, the speaker as its "speaker" attribute; words "Speaker: content ...");
//   topic_list [{topic, relevant_text_span}]  -> level-1 sections, in the order they start, each
//       from the first turn of its spans to the next topic (turns before the first topic: none);
//   general_query_list [{query, answer}]      -> the top-level items;
//   specific_query_list [{query, answer, relevant_text_span}] -> children of the first top-level
//       item (an empty one is made when the meeting has no general query), each span of turns
//       [start, end] one evidence span from the first word of `start` to the last of `end`.
// Export writes `<outDir>/<item name>.json` per item (characters other than letters, digits, '-',
// '_' and '.' become '_'; a name used twice gets "-2", "-3"): turns = the document's paragraphs
// (documentParagraphs), topics = its sections (every level, as one list), general queries = the
// root summary when there is one (with an empty query) and the top-level items, specific queries =
// every deeper item in pre-order with its evidence as turn spans ["start", "end"] (strings, as
// QMSum writes them). Rejected items are never written, suggestions only when asked. Spans are
// read as strings or integers and must lie within the transcript. Export -> import -> export gives
// the same bytes (tested on every meeting of every split).
#include "document/formats/datasetformat.h"

namespace folio {

class QmsumFormat : public DatasetFormat
{
public:
    QString name() const override { return QStringLiteral("qmsum"); }
    QString description() const override
    {
        return QStringLiteral("QMSum meetings: transcript turns, topics as sections, general and specific queries as a "
                              "two-level hierarchy with evidence turn spans (one JSON file per meeting)");
    }
    bool exportItems(const std::vector<DatasetItem> &items, const QString &outDir, const DatasetExportOptions &options,
                     QStringList *written, QString *error) const override;
    bool importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const override;
};

} // namespace folio
