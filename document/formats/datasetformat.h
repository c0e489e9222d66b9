#pragma once
// Dataset formats: the small interface every import/export format implements.
//
// Usage:
//   auto format = folio::createDatasetFormat("hfjsonl");           // nullptr for an unknown name
//   QString error;
//   std::vector<folio::DatasetItem> items = ...;                   // Document + Annotations each
//   if (!format->exportItems(items, "/out/dir", options, &error)) show(error);
//   std::vector<folio::DatasetItem> back;
//   if (!format->importFile("/out/dir/data.jsonl", &back, &error)) show(error);
//
// One file pair per format in document/formats/: funsd (funsdformat: annotations/<id>.json,
// on funsd.h), hfjsonl (HF `datasets` token classification
// JSONL), conll (BIO per word or per sub-token), labelstudio (tasks with predictions out,
// annotations in), qs (question-summary hierarchies: JSON tree + linearised string), swde (field
// values, SWDE ground-truth layout), govreport-qs / hibrids / qmsum (question-summary hierarchies
// with their document text: govreportqs.h, hibridsformat.h, qmsumformat.h), qs-markdown / qs-html
// (outlines for people, export only: qsoutline.h).
//
// Import validates strictly: a missing field or a wrong type fails with a message that names the
// file and the JSON path (or line) of the problem, e.g. "data.jsonl:3: $.bboxes[2]: expected an
// array of 4 integers". Nothing is half-imported: either all items come back or none. Every
// item read must pass checkDatasetItem (datasetlimits.h: sizes, boxes, depths), the same check
// every export runs first: what cannot be exported is not imported. Reads are bounded
// (DatasetLimits: JSON Lines records, whole JSON files, text files).
// Export writes each file atomically (QSaveFile): an interrupted export leaves no torn file.

#include "document/annotations.h"
#include "document/document.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

namespace folio {

struct DatasetItem
{
    QString name;            // stable id in the dataset (file stem, task id, page id)
    Document document;
    Annotations annotations;
};

// Splits one word into sub-tokens (e.g. a WordPiece/BPE tokenizer from inference/). Must return
// at least one piece for a non-empty word.
using SubTokenizer = std::function<QStringList(const QString &word)>;

struct DatasetExportOptions
{
    QStringList labels;          // label set (entity labels); empty: collected from the items
    bool includeSuggestions = false; // also export model suggestions not yet accepted (as labels)
    SubTokenizer tokenizer;      // CoNLL: one line per sub-token when set
    QString baseName;            // output file stem; empty: the format's default ("data")
    QString vertical = QStringLiteral("folio"); // SWDE: vertical and site of the file names
    QString site = QStringLiteral("project");
};

class DatasetFormat
{
public:
    virtual ~DatasetFormat() = default;
    virtual QString name() const = 0;        // "funsd", "hfjsonl", "conll", "labelstudio", "qs", "swde"
    virtual QString description() const = 0; // one line for --help
    virtual bool canImport() const { return true; }

    // Writes the dataset into `outDir` (created when missing). `written` receives the paths.
    virtual bool exportItems(const std::vector<DatasetItem> &items, const QString &outDir,
                             const DatasetExportOptions &options, QStringList *written, QString *error) const = 0;
    // Reads one file of this format.
    virtual bool importFile(const QString &path, std::vector<DatasetItem> *items, QString *error) const = 0;
};

std::unique_ptr<DatasetFormat> createDatasetFormat(const QString &name);
QStringList datasetFormatNames();

// ---- helpers shared by the formats (formats/datasetformat.cpp) ----
namespace formats {

class JsonValidator;

// The entities that go into a dataset: accepted ones (and suggestions when asked), never rejected.
std::vector<const Entity *> exportedEntities(const Annotations &a, bool includeSuggestions);
// Labels used by the items, sorted, when `given` is empty; otherwise `given`.
QStringList collectLabels(const std::vector<DatasetItem> &items, const QStringList &given, bool includeSuggestions);
// BIO tag per word of the document ("O", "B-X", "I-X").
QStringList wordBioTags(const Document &doc, const Annotations &a, bool includeSuggestions);
// Entities from a BIO tag sequence over word ids (B starts, I continues the same label, a stray
// I starts a new entity). Ids "e0", "e1", ...; source user.
std::vector<Entity> entitiesFromBio(const QStringList &wordIds, const QStringList &tags);
// A one-page document with the given words (box in pixels == 0-1000 box on a 1000x1000 page when
// no page size is known). Ids "w0".. unless given.
Document documentFromWords(const QString &source, const QStringList &texts, const std::vector<NormBox> &boxes,
                           const QSizeF &pageSize = QSizeF(1000, 1000), const QString &imagePath = QString());
// Writes bytes atomically; message names the file on failure.
bool writeFileAtomically(const QString &path, const QByteArray &bytes, QString *error);
// An export's output path: <outDir>/<options.baseName, or "data" when empty><suffix>.
QString exportFilePath(const QString &outDir, const DatasetExportOptions &options, const QString &suffix);
// writeFileAtomically, then records `path` in `written` (may be null) when it succeeded.
bool writeExportFile(const QString &path, const QByteArray &bytes, QStringList *written, QString *error);
// Reads a whole file of at most `maxBytes` (see DatasetLimits in datasetlimits.h); the message
// names the file and the limit.
bool readWholeFile(const QString &path, QByteArray *bytes, QString *error, qint64 maxBytes);
bool ensureDir(const QString &dir, QString *error);
// JSON Lines import, streamed from `path` (one record in memory at a time, each at most
// DatasetLimits::maxJsonLineBytes): `readRow` fills one item per non-blank line (see
// forEachJsonLine in jsonvalidate.h), which must then pass checkDatasetItem ("<file>:<line>");
// *items gets them all only when every line was read.
using JsonLineItemReader = std::function<bool(int line, const QJsonObject &row, DatasetItem &item)>;
bool importJsonLines(const QString &path, JsonValidator &jv, const JsonLineItemReader &readRow,
                     std::vector<DatasetItem> *items, QString *error);

} // namespace formats
} // namespace folio
