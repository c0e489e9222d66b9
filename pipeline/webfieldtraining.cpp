#include "pipeline/webfieldtraining.h"

#include "document/project/project.h"
#include "document/structured/fieldrankers.h"
#include "document/structured/structureddata.h"
#include "pipeline/modelinputs/webpages.h"
#include "pipeline/webfieldextraction.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace folio::pipeline {

namespace {

// The fallback folder's ranker for `field`, if it has one that loads.
std::optional<structured::CandidateRanker> fallbackRanker(const QString &dir, const std::string &field, QString *why)
{
    if (dir.isEmpty())
        return std::nullopt;
    const std::string file = structured::rankerFile(dir.toStdString(), field);
    if (!QFileInfo::exists(QString::fromStdString(file)))
        return std::nullopt;
    structured::CandidateRanker r;
    std::string error;
    if (!r.load(file, field, structured::candidateFeatureNames(field), &error)) {
        *why = QString::fromStdString(error);
        return std::nullopt;
    }
    return r;
}

// Puts the better ranker for each field with examples into the model folder; one note per field.
QStringList chooseRankers(const FieldTrainingData &data, const std::map<std::string, std::vector<structured::RankerPage>> &rankerPages,
                          const QString &modelDir)
{
    std::set<std::string> stale(structured::rankedFields().begin(), structured::rankedFields().end());
    for (const std::string &f : data.fields)
        stale.insert(structured::rankerKey(f));
    for (const QString &f : data.fieldsWithoutExamples)
        stale.insert(structured::rankerKey(f.toStdString()));
    for (const std::string &field : stale) // a reused folder keeps no ranker of an earlier training
        QFile::remove(QString::fromStdString(structured::rankerFile(modelDir.toStdString(), field)));
    QStringList notes;
    for (const auto &[field, rows] : rankerPages) {
        const QString target = QString::fromStdString(structured::rankerFile(modelDir.toStdString(), field));
        const QString name = QString::fromStdString(field);
        const int usable = int(std::count_if(rows.begin(), rows.end(), [](const structured::RankerPage &r) {
            return std::find(r.gold.begin(), r.gold.end(), 1) != r.gold.end();
        }));
        QString why;
        const auto fallback = fallbackRanker(data.rankersFallbackDir, field, &why);
        const double fallbackF1 = fallback ? fallback->ruleF1(rows) : -1;
        std::optional<structured::CandidateRanker> own;
        if (usable >= kMinRankerPages)
            own = structured::CandidateRanker::train(field, structured::candidateFeatureNames(field), rows);
        const QString counts = QStringLiteral("%1 answered page%2, %3 with the value among the page's candidates")
                                   .arg(rows.size()).arg(rows.size() == 1 ? QString() : QStringLiteral("s")).arg(usable);
        if (own && own->heldOutF1() > 0 && own->heldOutF1() > fallbackF1) {
            const nlohmann::json training{{"source", "Train Field Extractor on a project"},
                                          {"pages", rows.size()},
                                          {"pages_with_gold_candidate", usable},
                                          {"cross_validated_f1", own->heldOutF1()},
                                          {"fallback_f1_on_these_pages", fallbackF1}};
            std::string error;
            if (own->save(target.toStdString(), training, &error))
                notes << QStringLiteral("%1: a ranker trained on the project (%2): F1 %3 in cross-validation%4")
                             .arg(name, counts).arg(own->heldOutF1(), 0, 'f', 3)
                             .arg(fallback ? QStringLiteral(" against %1 for the shipped one").arg(fallbackF1, 0, 'f', 3) : QString());
            else
                notes << QStringLiteral("%1: the trained ranker could not be saved: %2").arg(name, QString::fromStdString(error));
            continue;
        }
        if (fallback) {
            const QString source = QString::fromStdString(structured::rankerFile(data.rankersFallbackDir.toStdString(), field));
            if (!QFile::copy(source, target)) {
                notes << QStringLiteral("%1: the shipped ranker could not be copied to %2").arg(name, target);
                continue;
            }
            notes << (own ? QStringLiteral("%1: the shipped ranker kept: F1 %2 on the project's pages, against %3 for one trained on them (%4)")
                                .arg(name).arg(fallbackF1, 0, 'f', 3).arg(own->heldOutF1(), 0, 'f', 3).arg(counts)
                          : QStringLiteral("%1: the shipped ranker kept (F1 %2 on the project's pages); %3, %4 needed to train one")
                                .arg(name).arg(fallbackF1, 0, 'f', 3).arg(counts).arg(kMinRankerPages));
            continue;
        }
        const QString shipped = why.isEmpty() ? QStringLiteral("no shipped ranker") : QStringLiteral("the shipped one does not load: %1").arg(why);
        notes << (own ? QStringLiteral("%1: no ranker (one trained on the project scored F1 %2 in cross-validation; %3)")
                            .arg(name).arg(own->heldOutF1(), 0, 'f', 3).arg(shipped)
                      : QStringLiteral("%1: no ranker (%2, %3 needed; %4)").arg(name, counts).arg(kMinRankerPages).arg(shipped));
    }
    return notes;
}

} // namespace

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
        if (int(data->rankerSources.size()) < kMaxRankerPages)
            data->rankerSources.push_back({doc, gold});
        inference::WebPage page = webPageFromDocument(doc, doc.sourcePath.toStdString());
        page.gold = std::move(gold);
        data->pages.push_back(std::move(page));
    }
    for (const FieldSpec &f : fieldSet) {
        if (withExamples.count(f.name.toStdString()))
            data->fields.push_back(f.name.toStdString());
        else
            data->fieldsWithoutExamples << f.name;
    }
    data->rankersFallbackDir = shippedFieldModelDir();
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

std::map<std::string, std::vector<structured::RankerPage>> rankerRows(const FieldTrainingData &data,
                                                                      const std::atomic<bool> *cancel)
{
    std::map<std::string, std::vector<structured::RankerPage>> rows;
    for (const FieldTrainingData::RankerSource &page : data.rankerSources) {
        if (cancel && cancel->load())
            return {};
        structured::StructuredData sd;
        QString ignored; // a page without readable structured data is still a row (structured = none)
        if (!page.doc.sourcePath.isEmpty())
            structured::readStructuredDataFile(page.doc.sourcePath, &sd, &ignored);
        for (const auto &[name, texts] : page.gold) {
            const std::string field = structured::rankerKey(name);
            std::vector<std::string> values;
            for (const std::string &text : texts)
                if (const auto v = structured::rankedValue(field, text))
                    values.push_back(*v);
            if (!texts.empty() && values.empty())
                continue; // answered with a text that does not read as one ("call us"): not a "no value" page
            std::vector<structured::RankerPage> &fieldRows = rows[field];
            fieldRows.push_back(structured::rankerPage(field, structured::findCandidates(field, page.doc, sd), sd, values,
                                                       "page " + std::to_string(fieldRows.size())));
        }
    }
    for (auto it = rows.begin(); it != rows.end();) { // no example: no ranker to train
        const bool example = std::any_of(it->second.begin(), it->second.end(), [](const structured::RankerPage &r) { return r.hasGold; });
        it = example ? std::next(it) : rows.erase(it);
    }
    return rows;
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
    const auto rows = rankerRows(data, cancel);
    if (cancel && cancel->load()) { // the model is written but not offered; its folder gets no ranker
        out.cancelled = true;
        return out;
    }
    out.ok = true;
    out.checkpointDir = QString::fromStdString(options.outputDir);
    for (const std::string &f : data.fields)
        out.fields << QString::fromStdString(f);
    out.bestDevF1 = dev.empty() ? -1 : r.bestDevF1;
    out.rankerNotes = chooseRankers(data, rows, out.checkpointDir);
    return out;
}

} // namespace folio::pipeline
