#include "pipeline/webfieldextraction.h"

#include "inference/webformer/webformer.h"
#include "inference/webformer/webformerdata.h"
#include "pipeline/documentprediction.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>

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

FieldExtraction withWebFormer(const Document &doc, const std::vector<FieldSpec> &fields, const QString &dir,
                              const FieldExtractionOptions &options)
{
    FieldExtraction out;
    const QString name = QDir(dir).dirName();
    out.source = QStringLiteral("WebFormer %1").arg(name);
    report(options, 0, 3);
    inference::WebFormerExtractor extractor;
    std::string error;
    if (!extractor.load(dir.toStdString(), &error)) {
        out.error = QString::fromStdString(error);
        return out;
    }
    QStringList known;
    for (const std::string &f : extractor.config().fields)
        known << QString::fromStdString(f);
    out.unknownFields = fieldsUnknownTo(known, fields);
    if (!out.unknownFields.isEmpty())
        out.notes << QStringLiteral("the model %1 was trained on %2; it has never seen %3 — its answers for them are "
                                    "unreliable (train on the project's field set: Model > Train Field Extractor)")
                         .arg(name, known.join(QStringLiteral(", ")), out.unknownFields.join(QStringLiteral(", ")));
    report(options, 1, 3);
    if (cancelled(options)) {
        out.cancelled = true;
        return out;
    }
    const int words = nonBlankWords(doc);
    if (words == 0) {
        out.ok = true;
        out.notes << QStringLiteral("%1: the page has no text, so there is nothing to extract").arg(documentName(doc));
        return out;
    }
    const int budget = extractor.config().maxTextTokens;
    if (words > budget)
        out.notes << QStringLiteral("%1: %2 words; the model reads at most %3 word pieces, the rest of the page is not seen")
                         .arg(documentName(doc)).arg(words).arg(budget);
    const inference::WebPage page = inference::webPageFromDocument(doc, documentName(doc).toStdString());
    std::vector<std::string> names;
    for (const FieldSpec &f : fields)
        names.push_back(f.name.toStdString());
    std::vector<inference::FieldSpan> spans;
    if (!extractor.extract(page, names, &spans, &error)) {
        out.error = QString::fromStdString(error);
        return out;
    }
    report(options, 2, 3);
    const std::vector<int> order = webPageWordOrder(doc);
    for (const inference::FieldSpan &s : spans) {
        FieldValue v = suggestion(QString::fromStdString(s.field), name, s.confidence);
        if (s.found && s.firstWord >= 0 && s.lastWord >= s.firstWord && s.lastWord < int(order.size())) {
            for (int i = s.firstWord; i <= s.lastWord; ++i)
                v.wordIds << doc.words[size_t(order[size_t(i)])].id;
            v.text = QString::fromStdString(s.value);
        }
        out.values.push_back(v);
    }
    report(options, 3, 3);
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
    FieldExtraction out;
    const QString name = QDir(dir).dirName();
    out.source = QStringLiteral("tagger %1").arg(name);
    DocumentTagger tagger;
    if (!tagger.load(dir, &out.error))
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
    if (file.size() > (4 << 20) || !file.open(QIODevice::ReadOnly))
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
    QDir models(QStringLiteral(FOLIO_SOURCE_DIR "/resources/models"));
    for (const QString &sub : models.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (checkpointModelType(models.filePath(sub)) == QLatin1String("webformer"))
            return models.filePath(sub);
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
        if (!dir.isEmpty() && checkpointModelType(dir) != QLatin1String("webformer"))
            dir.clear(); // the current model is a tagger: web fields need a WebFormer, use the shipped one
        if (dir.isEmpty())
            dir = shippedFieldModelDir();
        if (dir.isEmpty()) {
            out.error = QStringLiteral("%1: no field extractor: choose a WebFormer checkpoint (Model > Choose Model) or "
                                       "train one on the project (Model > Train Field Extractor)")
                            .arg(documentName(document));
            return out;
        }
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
