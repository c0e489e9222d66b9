#include "pipeline/webfieldtraining.h"

#include "document/project/project.h"
#include "inference/webformer/webformerdata.h"

#include <QDir>

#include <map>
#include <set>

namespace folio::pipeline {

bool loadFieldTrainingData(Project *project, const std::vector<FieldSpec> &fieldSet, FieldTrainingData *data,
                           QString *error)
{
    *data = FieldTrainingData();
    if (!project) {
        *error = QStringLiteral("no project is open");
        return false;
    }
    if (!validateFieldSet(fieldSet, error)) {
        *error = project->path() + QStringLiteral(": ") + *error;
        return false;
    }
    QString why;
    const std::vector<ProjectDocument> docs = project->documents(DocumentOrder::Position, &why);
    if (!why.isEmpty()) {
        *error = why;
        return false;
    }
    std::set<std::string> withExamples;
    for (const ProjectDocument &info : docs) {
        if (info.kind != SourceKind::Html)
            continue;
        ++data->webDocuments;
        Document doc;
        Annotations ann;
        if (!project->loadDocument(info.id, &doc, &ann, error))
            return false;
        std::map<std::string, std::vector<std::string>> gold;
        bool answered = false;
        for (const FieldSpec &f : fieldSet)
            gold[f.name.toStdString()];
        for (const FieldValue &v : ann.fields) {
            if (v.state != ReviewState::Accepted || !gold.count(v.field.toStdString()))
                continue;
            answered = true;
            QString text = v.text.simplified();
            if (text.isEmpty()) {
                QStringList parts;
                for (const QString &id : v.wordIds)
                    if (const int i = doc.wordIndex(id); i >= 0)
                        parts << doc.words[size_t(i)].text;
                text = parts.join(QLatin1Char(' ')).simplified();
            }
            if (!text.isEmpty()) {
                gold[v.field.toStdString()].push_back(text.toStdString());
                withExamples.insert(v.field.toStdString());
            }
        }
        if (!answered)
            continue;
        inference::WebPage page = inference::webPageFromDocument(doc, doc.sourcePath.toStdString());
        page.gold = std::move(gold);
        data->pages.push_back(std::move(page));
    }
    for (const FieldSpec &f : fieldSet) {
        if (withExamples.count(f.name.toStdString()))
            data->fields.push_back(f.name.toStdString());
        else
            data->fieldsWithoutExamples << f.name;
    }
    if (data->pages.empty()) {
        *error = QStringLiteral("%1: no web page has an accepted field value or \"no value\" answer yet (%2 web pages): "
                                "accept or correct values in the Fields panel first")
                     .arg(project->path())
                     .arg(data->webDocuments);
        return false;
    }
    if (data->fields.empty()) {
        *error = QStringLiteral("%1: no field has an example value (%2 answered pages, all \"no value\"): %3")
                     .arg(project->path())
                     .arg(data->pages.size())
                     .arg(data->fieldsWithoutExamples.join(QStringLiteral(", ")));
        return false;
    }
    for (inference::WebPage &p : data->pages) // only the trained fields
        for (const QString &f : data->fieldsWithoutExamples)
            p.gold.erase(f.toStdString());
    return true;
}

FieldTrainingOutcome trainFieldExtractor(const inference::WebFormerTrainOptions &options, const FieldTrainingData &data,
                                         const std::function<void(const inference::WebFormerTrainProgress &)> &progress,
                                         const std::atomic<bool> *cancel)
{
    FieldTrainingOutcome out;
    if (data.pages.empty() || data.fields.empty()) {
        out.error = QStringLiteral("nothing to train on: no answered web pages or no field with an example value");
        return out;
    }
    if (!QDir().mkpath(QString::fromStdString(options.outputDir))) {
        out.error = QStringLiteral("%1: cannot create the checkpoint folder").arg(QString::fromStdString(options.outputDir));
        return out;
    }
    inference::WebFormerTrainOptions o = options;
    o.model.fields = data.fields;
    std::vector<inference::WebPage> train, dev;
    for (size_t i = 0; i < data.pages.size(); ++i)
        (data.pages.size() >= 5 && i % 5 == 4 ? dev : train).push_back(data.pages[i]);
    const inference::WebFormerTrainResult r = inference::trainWebFormer(o, train, dev, progress, cancel);
    out.seconds = r.seconds;
    out.steps = r.steps;
    if (cancel && cancel->load()) {
        out.cancelled = true;
        return out;
    }
    if (!r.ok) {
        out.error = QString::fromStdString(r.error);
        return out;
    }
    out.ok = true;
    out.checkpointDir = QString::fromStdString(options.outputDir);
    for (const std::string &f : data.fields)
        out.fields << QString::fromStdString(f);
    out.bestDevF1 = dev.empty() ? -1 : r.bestDevF1;
    return out;
}

} // namespace folio::pipeline
