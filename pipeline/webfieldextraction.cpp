#include "pipeline/webfieldextraction.h"

#include "common/regularfile.h"
#include "pipeline/shippedmodels.h"

#include "document/structured/fieldrankers.h"
#include "document/structured/structureddata.h"
#include "inference/webformer/webformer.h"
#include "pipeline/documentprediction.h"
#include "pipeline/markuplmfields.h"
#include "pipeline/modelinputs/productpages.h"
#include "pipeline/modelinputs/webpages.h"

#include <QDir>
#include <QFile>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

namespace folio::pipeline {

namespace {

bool cancelled(const FieldExtractionOptions &o) { return o.cancel && o.cancel->load(); }

void report(const FieldExtractionOptions &o, int done, int total)
{
    if (o.progress)
        o.progress(done, total);
}

QString documentName(const Document &d)
{
    return d.sourcePath.isEmpty() ? QStringLiteral("document") : d.sourcePath;
}

FieldValue suggestion(const QString &field, const QString &checkpoint, double confidence)
{
    FieldValue v;
    v.field = field;
    v.source.kind = AnnotationSource::Model;
    v.source.checkpoint = checkpoint;
    v.confidence = confidence;
    v.state = ReviewState::Suggested;
    return v;
}

int nonBlankWords(const Document &d)
{
    int n = 0;
    for (const Word &w : d.words)
        n += w.text.trimmed().isEmpty() ? 0 : 1;
    return n;
}

// The page's schema.org / Open Graph values (read from its file); a note when it cannot be read.
structured::StructuredData pageStructuredData(const Document &doc, QStringList *notes)
{
    structured::StructuredData sd;
    QString error;
    if (doc.sourcePath.isEmpty() || !structured::readStructuredDataFile(doc.sourcePath, &sd, &error))
        *notes << QStringLiteral("no structured data: %1").arg(error.isEmpty() ? QStringLiteral("the page has no file") : error);
    for (const std::string &n : sd.notes)
        *notes << QString::fromStdString(n);
    return sd;
}

// Structured-data answers for the fields in `missing` (names matched case-insensitively).
void addStructuredAnswers(const structured::StructuredData &sd, const QStringList &missing, FieldExtraction *out)
{
    for (const auto &[name, value] : structured::productFields(sd))
        for (const QString &field : missing)
            if (field.compare(QString::fromStdString(name), Qt::CaseInsensitive) == 0) {
                FieldValue v = suggestion(field, QStringLiteral("structured-data:%1").arg(QString::fromStdString(value.source)), 1.0);
                v.text = QString::fromStdString(value.raw.empty() ? value.value : value.raw).simplified();
                if (!v.text.isEmpty())
                    out->values.push_back(v);
            }
}

// folio.json "structured_candidates": the model was trained with the candidates prepended.
bool usesStructuredCandidates(const QString &dir)
{
    QFile file(QDir(dir).filePath(QStringLiteral("folio.json")));
    // A regular file only (issue 51: a FIFO would block the open).
    if (regularFileSize(QFile::encodeName(file.fileName()).toStdString(), 4 << 20, "folio.json", nullptr) < 0
        || !file.open(QIODevice::ReadOnly))
        return false;
    return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("structured_candidates")).toBool();
}

// Puts `v` in place of the value of the same field, or adds it.
void placeValue(FieldExtraction *out, const FieldValue &v)
{
    const auto same = std::find_if(out->values.begin(), out->values.end(), [&](const FieldValue &m) { return m.field == v.field; });
    if (same != out->values.end())
        *same = v;
    else
        out->values.push_back(v);
}

// The rule of folio-cli extract (chooseRankedValue) for each field with a
// "<field>-ranker.json" in the model folder (price and sku in the shipped model; any field of a
// model trained on a project, webfieldtraining.h): the page's structured-data value and the
// ranker's choice among the candidates of the page text (its words highlighted, confidence = its
// probability), in the order the ranker learned, else the model's.
void chooseRankedValues(const Document &doc, const structured::StructuredData &sd, const std::vector<FieldSpec> &fields,
                        const QString &dir, FieldExtraction *out)
{
    const structured::ProductFields fromData = structured::productFields(sd);
    for (const FieldSpec &spec : fields) {
        const std::string field = structured::rankerKey(spec.name.toStdString());
        const QString name = QString::fromStdString(field);
        const std::string file = structured::rankerFile(dir.toStdString(), field);
        if (!QFileInfo::exists(QString::fromStdString(file)))
            continue;
        structured::CandidateRanker ranker;
        std::string error;
        if (!ranker.load(file, field, structured::candidateFeatureNames(field), &error)) {
            out->notes << QString::fromStdString(error);
            continue;
        }
        const auto ranked = structured::rankCandidates(ranker, structured::findCandidates(field, doc, sd));
        if (fromData.count(field) && (ranker.structuredFirst() || !ranked)) {
            FieldExtraction answers;
            addStructuredAnswers(sd, {spec.name}, &answers);
            for (const FieldValue &v : answers.values)
                placeValue(out, v);
            continue;
        }
        if (!ranked)
            continue;
        FieldValue v = suggestion(spec.name, name + QStringLiteral("-ranker"), ranked->probability);
        for (int w : structured::wordsInRange(doc, ranked->candidate.node, ranked->candidate.start, ranked->candidate.end))
            v.wordIds << doc.words[std::size_t(w)].id;
        v.text = QString::fromStdString(ranked->candidate.text);
        placeValue(out, v);
    }
}

FieldExtraction withStructuredData(const Document &doc, const std::vector<FieldSpec> &fields)
{
    FieldExtraction out;
    out.source = QStringLiteral("structured data (no field model)");
    const structured::StructuredData sd = pageStructuredData(doc, &out.notes);
    addStructuredAnswers(sd, fieldNames(fields), &out);
    if (out.values.empty())
        out.notes << QStringLiteral("%1: no field model and no schema.org / Open Graph product values on the page: train a "
                                    "field extractor on the project (Model > Train Field Extractor)")
                         .arg(documentName(doc));
    out.ok = true;
    return out;
}

// The last WebFormer loaded, kept while its folder's files are unchanged (a re-run on the next
// page does not load the checkpoint again). Used under modelCacheMutex().
std::mutex &modelCacheMutex()
{
    static std::mutex m;
    return m;
}

const inference::WebFormerExtractor *cachedWebFormer(const QString &dir, bool int8, std::string *error)
{
    static std::unique_ptr<inference::WebFormerExtractor> model;
    static QString key;
    QString stamp = QFileInfo(dir).canonicalFilePath() + (int8 ? QStringLiteral("|int8") : QString());
    for (const char *file : {"config.json", "model.safetensors", "vocab.txt"}) {
        const QFileInfo info(QDir(dir).filePath(QLatin1String(file)));
        stamp += QStringLiteral("|%1:%2").arg(info.size()).arg(info.lastModified().toMSecsSinceEpoch());
    }
    if (model && key == stamp)
        return model.get();
    model.reset();
    auto fresh = std::make_unique<inference::WebFormerExtractor>();
    if (!fresh->load(dir.toStdString(), error) || (int8 && !fresh->quantizeDynamicInt8(error)))
        return nullptr;
    model = std::move(fresh);
    key = stamp;
    return model.get();
}

// An extraction by the model in `dir`: its source named "<kind> <folder>", " (int8)" appended when
// the options quantize it.
FieldExtraction byModel(const QString &kind, const QString &dir, const FieldExtractionOptions &options)
{
    FieldExtraction out;
    out.source = kind + QLatin1Char(' ') + QDir(dir).dirName() + (options.int8 ? QStringLiteral(" (int8)") : QString());
    return out;
}

FieldExtraction withWebFormer(const Document &doc, const std::vector<FieldSpec> &fields, const QString &dir,
                              const FieldExtractionOptions &options)
{
    FieldExtraction out = byModel(QStringLiteral("WebFormer"), dir, options);
    const QString name = QDir(dir).dirName();
    report(options, 0, 3);
    std::string error;
    const std::lock_guard<std::mutex> lock(modelCacheMutex()); // one extraction at a time uses the cache
    const inference::WebFormerExtractor *loaded = cachedWebFormer(dir, options.int8, &error);
    if (!loaded) {
        out.error = QString::fromStdString(error);
        return out;
    }
    const inference::WebFormerExtractor &extractor = *loaded;
    QStringList known;
    for (const std::string &f : extractor.config().fields)
        known << QString::fromStdString(f);
    out.unknownFields = fieldsUnknownTo(known, fields);
    const structured::StructuredData sd = pageStructuredData(doc, &out.notes);
    report(options, 1, 3);
    if (cancelled(options)) {
        out.cancelled = true;
        return out;
    }
    const int words = nonBlankWords(doc);
    if (words == 0)
        out.notes << QStringLiteral("%1: the page has no text, so the model has nothing to read").arg(documentName(doc));
    std::vector<std::string> names; // the fields the model knows, in field-set order
    for (const FieldSpec &f : fields)
        if (known.contains(f.name))
            names.push_back(f.name.toStdString());
    QStringList unanswered = out.unknownFields;
    if (words > 0 && !names.empty()) {
        inference::WebPage page = webPageFromDocument(doc, documentName(doc).toStdString());
        const int prefix = usesStructuredCandidates(dir) ? prependStructuredCandidates(&page, sd) : 0;
        const int budget = extractor.config().maxTextTokens;
        if (words + prefix > budget)
            out.notes << QStringLiteral("%1: %2 words; the model reads at most %3 word pieces, the rest of the page is not seen")
                             .arg(documentName(doc)).arg(words).arg(budget);
        std::vector<inference::FieldSpan> spans;
        if (!extractor.extract(page, names, &spans, &error)) {
            out.error = QString::fromStdString(error);
            return out;
        }
        report(options, 2, 3);
        const std::vector<int> order = webPageWordOrder(doc);
        for (const inference::FieldSpan &s : spans) {
            FieldValue v = suggestion(QString::fromStdString(s.field), name, s.confidence);
            const int first = s.firstWord - prefix, last = s.lastWord - prefix;
            if (s.found && s.firstWord >= 0 && s.firstWord < prefix) {
                v.text = QString::fromStdString(s.value); // a structured-data candidate the model pointed at
            } else if (s.found && first >= 0 && last >= first && last < int(order.size())) {
                for (int i = first; i <= last; ++i)
                    v.wordIds << doc.words[size_t(order[size_t(i)])].id;
                v.text = QString::fromStdString(s.value);
            }
            if (!s.found)
                unanswered << v.field;
            out.values.push_back(v);
        }
    } else {
        unanswered = fieldNames(fields);
    }
    // Structured data for what the model did not answer (fields it does not know, null answers).
    FieldExtraction fromData;
    addStructuredAnswers(sd, unanswered, &fromData);
    for (const FieldValue &v : fromData.values)
        placeValue(&out, v); // a value from the page's own data beats the model's "no value"
    chooseRankedValues(doc, sd, fields, dir, &out);
    if (!out.unknownFields.isEmpty())
        out.notes << QStringLiteral("the model %1 was trained on %2 and does not know %3: those come from the page's "
                                    "structured data when it has them (train on the project's field set: Model > Train "
                                    "Field Extractor)")
                         .arg(name, known.join(QStringLiteral(", ")), out.unknownFields.join(QStringLiteral(", ")));
    report(options, 3, 3);
    out.ok = true;
    return out;
}

// A Hugging Face MarkupLM folder (markuplmfields.h): QA asks each field, token classification
// answers the fields named like its labels (case-insensitively); structured data for the rest.
FieldExtraction withMarkupLM(const Document &doc, const std::vector<FieldSpec> &fields, const QString &dir,
                             const FieldExtractionOptions &options)
{
    FieldExtraction out = byModel(QStringLiteral("MarkupLM"), dir, options);
    const QString name = QDir(dir).dirName();
    MarkupRunOptions run;
    run.progress = options.progress;
    run.cancel = options.cancel;
    run.int8 = options.int8;
    const MarkupFieldRun r = runMarkupLM(doc, dir, fieldNames(fields), run);
    if (r.cancelled || !r.ok) {
        out.cancelled = r.cancelled;
        out.error = r.error;
        return out;
    }
    out.notes << r.notes;
    QStringList unanswered;
    for (const FieldSpec &f : fields) {
        const auto it = std::find_if(r.answers.begin(), r.answers.end(), [&](const MarkupFieldAnswer &a) {
            return a.field.compare(f.name, Qt::CaseInsensitive) == 0;
        });
        if (!r.questionAnswering && !r.labels.contains(f.name, Qt::CaseInsensitive))
            out.unknownFields << f.name;
        if (it == r.answers.end() || !it->found) {
            unanswered << f.name;
            continue;
        }
        FieldValue v = suggestion(f.name, name, it->confidence);
        for (int w : it->words)
            v.wordIds << doc.words[std::size_t(w)].id;
        v.text = it->text;
        out.values.push_back(v);
    }
    if (!r.questionAnswering) {
        QStringList extra;
        for (const QString &l : r.labels)
            if (!fieldNames(fields).contains(l, Qt::CaseInsensitive))
                extra << l;
        if (!out.unknownFields.isEmpty())
            out.notes << QStringLiteral("the MarkupLM model %1 has no label for %2 (its labels: %3)")
                             .arg(name, out.unknownFields.join(QStringLiteral(", ")), r.labels.join(QStringLiteral(", ")));
        if (!extra.isEmpty())
            out.notes << QStringLiteral("labels of %1 that are no field: %2 (add them to the field set to see them: Model > Field Set)")
                             .arg(name, extra.join(QStringLiteral(", ")));
    }
    if (!unanswered.isEmpty() && !doc.sourcePath.isEmpty()) {
        QStringList ignored;
        const structured::StructuredData sd = pageStructuredData(doc, &ignored);
        FieldExtraction fromData;
        addStructuredAnswers(sd, unanswered, &fromData);
        for (const FieldValue &v : fromData.values)
            placeValue(&out, v);
    }
    out.ok = true;
    return out;
}

QString entityLabel(QString label)
{
    if (label.startsWith(QLatin1String("B-")) || label.startsWith(QLatin1String("I-")))
        label = label.mid(2);
    return label;
}

FieldExtraction withTagger(const Document &doc, const std::vector<FieldSpec> &fields, const QString &dir,
                           const FieldExtractionOptions &options)
{
    FieldExtraction out = byModel(QStringLiteral("tagger"), dir, options);
    const QString name = QDir(dir).dirName();
    DocumentTagger tagger;
    if (!tagger.load(dir, &out.error, options.int8))
        return out;
    QStringList labels;
    for (const QString &l : tagger.labels())
        if (l != QLatin1String("O") && !labels.contains(entityLabel(l)))
            labels << entityLabel(l);
    std::map<QString, QString> fieldOfLabel; // lower-case label -> field
    for (const FieldSpec &f : fields)
        for (const QString &l : labels)
            if (l.compare(f.name, Qt::CaseInsensitive) == 0)
                fieldOfLabel[l.toLower()] = f.name;
    if (fieldOfLabel.empty()) {
        out.error = QStringLiteral("%1: scans are read through the layout tagger's entities, and the tagger %2 has no label "
                                   "named like a field (its labels: %3; the fields: %4). Train a tagger on entities "
                                   "labelled with the field names (Model > Train on Project) or choose one that has them.")
                        .arg(documentName(doc), name, labels.join(QStringLiteral(", ")),
                             fieldNames(fields).join(QStringLiteral(", ")));
        return out;
    }
    for (const FieldSpec &f : fields)
        if (!labels.contains(f.name, Qt::CaseInsensitive))
            out.unknownFields << f.name;
    if (!out.unknownFields.isEmpty())
        out.notes << QStringLiteral("the tagger %1 has no label for %2").arg(name, out.unknownFields.join(QStringLiteral(", ")));
    PredictOptions po;
    po.progress = options.progress;
    po.cancel = options.cancel;
    const DocumentPrediction p = tagger.predict(doc, po);
    if (p.cancelled) {
        out.cancelled = true;
        return out;
    }
    if (!p.ok) {
        out.error = p.error;
        return out;
    }
    if (p.words() == 0)
        out.notes << QStringLiteral("%1: the document has no text, so there is nothing to extract").arg(documentName(doc));
    std::map<QString, const PredictedSpan *> best; // field -> most confident entity
    for (const PredictedSpan &s : p.entities) {
        const auto it = fieldOfLabel.find(entityLabel(s.label).toLower());
        if (it == fieldOfLabel.end())
            continue;
        const PredictedSpan *&b = best[it->second];
        if (!b || s.confidence > b->confidence)
            b = &s;
    }
    for (const FieldSpec &f : fields) {
        const auto it = best.find(f.name);
        if (it == best.end())
            continue;
        FieldValue v = suggestion(f.name, name, it->second->confidence);
        QStringList texts;
        for (int w : it->second->words)
            if (w >= 0 && w < int(doc.words.size())) {
                v.wordIds << doc.words[size_t(w)].id;
                texts << doc.words[size_t(w)].text;
            }
        v.text = texts.join(QLatin1Char(' '));
        out.values.push_back(v);
    }
    out.ok = true;
    return out;
}

} // namespace

static QJsonObject checkpointConfig(const QString &checkpointDir)
{
    QFile file(QDir(checkpointDir).filePath(QStringLiteral("config.json")));
    // A regular file only (issue 51: a FIFO would block the open).
    if (regularFileSize(QFile::encodeName(file.fileName()).toStdString(), 4 << 20, "config.json", nullptr) < 0
        || !file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

QStringList checkpointFields(const QString &checkpointDir)
{
    QStringList out;
    for (const QJsonValue &v : checkpointConfig(checkpointDir).value(QStringLiteral("fields")).toArray())
        out << v.toString();
    return out;
}

QString shippedFieldModelDir()
{
    const QString models = shippedModelsRoot();
    if (models.isEmpty())
        return {};
    const QDir dir(models);
    for (const QString &sub : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (checkpointModelType(dir.filePath(sub)) == QLatin1String("webformer"))
            return dir.filePath(sub);
    return {};
}

std::vector<int> webPageWordOrder(const Document &document)
{
    std::vector<std::vector<int>> wordsOfNode(document.nodes.size());
    for (int i = 0; i < int(document.words.size()); ++i) {
        const int node = document.words[size_t(i)].node;
        if (node >= 0 && node < int(document.nodes.size()))
            wordsOfNode[size_t(node)].push_back(i);
    }
    std::vector<int> order;
    for (size_t n = 0; n < document.nodes.size(); ++n)
        if (document.nodes[n].kind == NodeKind::Text)
            order.insert(order.end(), wordsOfNode[n].begin(), wordsOfNode[n].end());
    return order;
}

FieldExtraction extractFields(const Document &document, const std::vector<FieldSpec> &fields,
                              const FieldExtractionOptions &options)
{
    FieldExtraction out;
    QString why;
    if (!validateFieldSet(fields, &why)) {
        out.error = QStringLiteral("%1: %2").arg(documentName(document), why);
        return out;
    }
    const bool web = document.kind == SourceKind::Html;
    QString dir = options.checkpointDir;
    if (!dir.isEmpty() && !QFileInfo(QDir(dir).filePath(QStringLiteral("config.json"))).isFile()) {
        out.error = QStringLiteral("%1: no config.json: not a model checkpoint folder").arg(dir);
        return out;
    }
    if (web) {
        if (!dir.isEmpty() && isMarkupLMFolder(dir))
            return withMarkupLM(document, fields, dir, options);
        if (!dir.isEmpty() && checkpointModelType(dir) != QLatin1String("webformer"))
            dir.clear(); // the current model is a tagger: web fields need a WebFormer, use the shipped one
        if (dir.isEmpty() && options.shippedModel)
            dir = shippedFieldModelDir();
        if (dir.isEmpty())
            return withStructuredData(document, fields);
        return withWebFormer(document, fields, dir, options);
    }
    if (dir.isEmpty() || checkpointModelType(dir) == QLatin1String("webformer")) {
        out.error = QStringLiteral("%1: fields on scans come from a layout tagger's entities: choose a tagger whose labels "
                                   "are the field names (%2)")
                        .arg(documentName(document), fieldNames(fields).join(QStringLiteral(", ")));
        return out;
    }
    return withTagger(document, fields, dir, options);
}

} // namespace folio::pipeline
