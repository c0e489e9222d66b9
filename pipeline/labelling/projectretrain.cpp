#include "pipeline/labelling/projectretrain.h"

#include "inference/formtagger/predictor.h"
#include "pipeline/documentprediction.h"
#include "pipeline/labelling/labellingsimulation.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "pipeline/taggertraining.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <set>


namespace folio::labelling {

namespace {

QString f1Text(double f1) { return f1 < 0 ? QStringLiteral("–") : QString::number(100 * f1, 'f', 1); }

} // namespace

std::vector<std::pair<QString, double>> uncertaintiesOf(const QString &checkpoint, const std::vector<SimulationPage> &pages,
                                                       const std::atomic<bool> *cancel,
                                                       std::vector<std::pair<QString, Annotations>> *suggested)
{
    std::vector<std::pair<QString, double>> out;
    if (pages.empty())
        return out;
    pipeline::DocumentTagger tagger;
    QString why;
    if (!tagger.load(checkpoint, &why))
        return out;
    for (const SimulationPage &p : pages) {
        if (cancel && cancel->load())
            break;
        Annotations suggestions;
        if (!pipeline::predictSuggestions(tagger, p.document, p.gold, &suggestions, &why))
            continue;
        Annotations merged = p.gold;
        mergeModelAnnotations(merged, suggestions);
        double sum = 0;
        int n = 0;
        for (const Entity &e : merged.entities)
            if (e.state == ReviewState::Suggested) {
                sum += e.confidence;
                ++n;
            }
        out.emplace_back(p.id, n > 0 ? 1.0 - sum / n : 0.0);
        if (suggested)
            suggested->emplace_back(p.id, std::move(merged));
    }
    return out;
}

void retrainTaggerPages(const RetrainPages &pages, const QStringList &labels, std::vector<inference::TaggerPage> *train,
                        std::vector<inference::TaggerPage> *heldOut)
{
    for (const SimulationPage &p : pages.train) {
        Annotations accepted;
        for (const Entity &e : p.gold.entities)
            if (e.state == ReviewState::Accepted || e.state == ReviewState::Edited)
                accepted.entities.push_back(e);
        inference::TaggerPage tp = pipeline::taggerPageFromDocument(p.document, &accepted, p.id.toStdString());
        if (!tp.words.empty())
            train->push_back(std::move(tp));
    }
    for (const SimulationPage &p : pages.heldOut) {
        const Annotations target = labellingTarget(p.document, p.gold, labels);
        inference::TaggerPage tp = pipeline::taggerPageFromDocument(p.document, &target, p.id.toStdString());
        if (!tp.words.empty())
            heldOut->push_back(std::move(tp));
    }
}

QStringList labelsOfPages(const std::vector<SimulationPage> &pages)
{
    std::set<QString> labels;
    for (const SimulationPage &p : pages)
        for (const Entity &e : p.gold.entities)
            if ((e.state == ReviewState::Accepted || e.state == ReviewState::Edited) && !e.label.isEmpty()
                && e.label.compare(QLatin1String("other"), Qt::CaseInsensitive) != 0)
                labels.insert(e.label);
    QStringList out;
    for (const QString &l : labels)
        out << l;
    return out;
}

ProjectRetrainOutcome retrainFromProject(const QString &projectPath, const ProjectRetrainConfig &config)
{
    SimulationData data;
    QString error;
    if (!loadSimulationData(projectPath, QString(), &data, &error)) {
        ProjectRetrainOutcome o;
        o.model = config.currentModel;
        o.error = error;
        o.message = QStringLiteral("retraining not started: %1").arg(error);
        return o;
    }
    RetrainPages pages;
    pages.source = projectPath;
    pages.train = std::move(data.pool);
    pages.heldOut = std::move(data.test);
    pages.labels = data.labels;
    return retrainOnPages(pages, config);
}

ProjectRetrainOutcome retrainOnPages(const RetrainPages &pages, const ProjectRetrainConfig &config)
{
    ProjectRetrainOutcome o;
    o.model = config.currentModel;
    QElapsedTimer clock;
    clock.start();
    const QStringList labels = pages.labels.isEmpty() ? labelsOfPages(pages.train) : pages.labels;
    if (int(pages.train.size()) < kMinPoolPages || int(pages.heldOut.size()) < kMinHeldOutPages || labels.isEmpty()) {
        o.error = labels.isEmpty() && !pages.train.empty()
                      ? QStringLiteral("%1: the accepted pages use no entity label").arg(pages.source)
                      : QStringLiteral("%1: %2 page(s) to train on and %3 held out; a retraining needs at least %4 and %5")
                            .arg(pages.source).arg(pages.train.size()).arg(pages.heldOut.size()).arg(kMinPoolPages).arg(kMinHeldOutPages);
        o.message = QStringLiteral("retraining not started: %1").arg(o.error);
        return o;
    }
    std::vector<inference::TaggerPage> train, heldOut;
    retrainTaggerPages(pages, labels, &train, &heldOut);
    o.trainPages = int(train.size());
    o.heldOutPages = int(heldOut.size());

    inference::TrainConfig tc;
    tc.labels = {"O"};
    for (const QString &l : labels) {
        tc.labels.push_back(("B-" + l).toStdString());
        tc.labels.push_back(("I-" + l).toStdString());
    }
    tc.outputDir = config.outputDir.toStdString();
    tc.epochs = config.epochs;
    tc.maxSteps = config.maxSteps;
    tc.seed = config.seed;
    tc.threads = config.threads;
    tc.hidden = config.hidden;
    tc.layers = config.layers;
    tc.intermediate = config.hidden * 4;
    tc.heads = std::max(1, config.hidden / 64);
    tc.command = "retrain (labelling loop)";
    tc.dataDescription = QStringLiteral("%1: %2 labelled pages, %3 held out").arg(pages.source).arg(o.trainPages).arg(o.heldOutPages).toStdString();
    if (!config.currentModel.isEmpty()) {
        QFile f(QDir(config.currentModel).filePath(QStringLiteral("config.json")));
        QJsonObject c;
        if (f.open(QIODevice::ReadOnly))
            c = QJsonDocument::fromJson(f.readAll()).object();
        tc.initDir = config.currentModel.toStdString();
        tc.variant = c.value(QStringLiteral("variant")).toString(QStringLiteral("full")).toStdString();
        tc.architecture = c.value(QStringLiteral("architecture")).toString().toStdString();
        tc.wordOrder = c.value(QStringLiteral("word_order")).toString().toStdString();
        inference::Predictor current;
        std::string loadError;
        if (current.load(config.currentModel.toStdString(), &loadError)) {
            const std::vector<std::string> &known = current.labels();
            for (const QString &l : labels)
                if (std::find(known.begin(), known.end(), ("B-" + l).toStdString()) == known.end())
                    o.grownLabels << l;
        }
    }

    QDir(config.outputDir).removeRecursively();
    QDir().mkpath(config.outputDir);
    std::atomic<bool> stop{config.cancel && config.cancel->load()};
    const auto progress = [&](const inference::TrainProgress &) {
        if (config.cancel && config.cancel->load())
            stop = true;
    };
    const pipeline::TaggerTrainOutcome t = stop ? pipeline::TaggerTrainOutcome{} : pipeline::trainTaggerOnPages(tc, train, progress, &stop);
    o.seconds = clock.elapsed() / 1000.0;
    if (stop || t.cancelled) {
        o.cancelled = true;
        o.message = QStringLiteral("retraining cancelled; the previous model stays");
        return o;
    }
    if (!t.ok) {
        o.error = t.error;
        o.message = QStringLiteral("retraining failed (%1); the previous model stays").arg(t.error);
        return o;
    }
    QString why;
    o.newF1 = taggerF1On(config.outputDir, heldOut, &why);
    if (o.newF1 < 0) {
        o.error = why;
        o.message = QStringLiteral("the new model could not be scored (%1); the previous model stays").arg(why);
        return o;
    }
    if (!config.currentModel.isEmpty() && o.grownLabels.isEmpty())
        o.previousF1 = taggerF1On(config.currentModel, heldOut, &why);
    o.ok = true;
    o.tookOver = o.newF1 > o.previousF1;
    if (o.tookOver) {
        o.model = config.outputDir;
        o.uncertainties = uncertaintiesOf(config.outputDir, pages.unlabelled, config.cancel, &o.suggestions);
    }
    o.message = retrainStatusLine(o);
    return o;
}

QString retrainStatusLine(const ProjectRetrainOutcome &o)
{
    const QString scores = QStringLiteral("F1 %1 → %2 on %3 held-out pages").arg(f1Text(o.previousF1), f1Text(o.newF1)).arg(o.heldOutPages);
    if (!o.tookOver)
        return QStringLiteral("model kept: %1 (the new one is not better)").arg(scores);
    QString line = QStringLiteral("model updated: %1").arg(scores);
    if (!o.grownLabels.isEmpty())
        line += QStringLiteral(" (new labels: %1)").arg(o.grownLabels.join(QStringLiteral(", ")));
    return line;
}

} // namespace folio::labelling
