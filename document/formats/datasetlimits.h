#pragma once
// What a project stores and a dataset format carries: explicit limits and the one check that
// import and export share ("what cannot be exported must not be imported").
//
//   QString error;
//   if (!folio::checkDatasetItem(item, QStringLiteral("data.jsonl:3"), &error))
//       show(error);  // "data.jsonl:3: words[2].box: x0 1e+300 is outside -1000000..1000000"
//
// Every importer checks each item it read (the prefix names the file and the line or JSON path
// of the record), importItemsIntoProject checks again before anything is written (so a FUNSD page
// or a hand-made item cannot get past), and every exporter checks before it writes, so a project
// damaged by an older Folio fails with a message instead of a broken file. Problems are named by
// their path inside the item: pages[0].width, words[2].box, nodes[5].box, entities[1].label,
// qs.nodes[0].children[0]..., with the value and the limit.
#include "document/formats/datasetformat.h"

namespace folio {

struct DatasetLimits
{
    static constexpr double maxCoordinate = 1e6;        // |pixel coordinate|, page width/height
    static constexpr int maxNormCoordinate = 1000;      // 0..1000 boxes
    static constexpr int maxWords = 1'000'000;          // words (and nodes: 4x) of one document
    static constexpr int maxPages = 10'000;
    static constexpr int maxStringChars = 1 << 20;      // one word text / label / question / summary
    static constexpr int maxEntities = 1'000'000;       // entities + links + fields of one document
    static constexpr int maxQsDepth = 64;               // levels of a question-summary hierarchy
    static constexpr int maxQsNodes = 100'000;
    static constexpr qint64 maxJsonLineBytes = qint64(16) << 20;  // one JSON Lines record
    static constexpr qint64 maxJsonFileBytes = qint64(256) << 20; // one whole-file JSON document
    static constexpr qint64 maxTextFileBytes = qint64(256) << 20;   // CoNLL, SWDE text files
};

// True when the item can be stored and exported by every format; otherwise false and
// *error = "<where>: <path in the item>: <problem>".
bool checkDatasetItem(const DatasetItem &item, const QString &where, QString *error);
// Each item, its name added to `where` ("<where>: <name>").
bool checkDatasetItems(const std::vector<DatasetItem> &items, const QString &where, QString *error);

// Words in `text` separated by ASCII white space (the importers' split on \s+), counted without
// allocating; counting stops once it passes `stopAfter`. A reader checks a transcript's size
// with it before building a Word per token.
qint64 countWords(QStringView text, qint64 stopAfter);

// The depth of a question-summary forest (0 when empty), iteratively: a hostile hierarchy is
// measured without recursion.
int qsDepth(const std::vector<QsNode> &roots, int *nodeCount = nullptr);

} // namespace folio
