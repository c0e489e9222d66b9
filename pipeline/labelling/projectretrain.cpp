#include "pipeline/labelling/projectretrain.h"

#include "inference/formtagger/predictor.h"
#include "pipeline/labelling/labellingsimulation.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "pipeline/taggertraining.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>


namespace folio::labelling {

namespace {

QString f1Text(double f1) { return f1 < 0 ? QStringLiteral("–") : QString::number(100 * f1, 'f', 1); }

} // namespace

ProjectRetrainOutcome retrainFromProject(const QString &projectPath, const ProjectRetrainConfig &config)
{
    ProjectRetrainOutcome o;
    o.model = config.currentModel;
    QElapsedTimer clock;
    clock.start();
    SimulationData data;
    if (!loadSimulationData(projectPath, QString(), &data, &o.error)) {
        o.message = QStringLiteral("retraining not started: %1").arg(o.error);
        return o;
    }
    std::vector<inference::TaggerPage> train, heldOut;
    for (const SimulationPage &p : data.pool) {
        Annotations accepted;
        for (const Entity &e : p.gold.entities)
            if (e.state == ReviewState::Accepted || e.state == ReviewState::Edited)
                accepted.entities.push_back(e);
        inference::TaggerPage tp = pipeline::taggerPageFromDocument(p.document, &accepted, p.id.toStdString());
        if (!tp.words.empty())
            train.push_back(std::move(tp));
    }
    for (const SimulationPage &p : data.test) {
        const Annotations target = labellingTarget(p.document, p.gold, data.labels);
        inference::TaggerPage tp = pipeline::taggerPageFromDocument(p.document, &target, p.id.toStdString());
        if (!tp.words.empty())
            heldOut.push_back(std::move(tp));
    }
    o.trainPages = int(train.size());
    o.heldOutPages = int(heldOut.size());

    inference::TrainConfig tc;
    tc.labels = {"O"};
    for (const QString &l : data.labels) {
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
    tc.dataDescription = QStringLiteral("%1: %2 labelled pages, %3 held out").arg(projectPath).arg(o.trainPages).arg(o.heldOutPages).toStdString();
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
            for (const QString &l : data.labels)
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
    const QString scores = QStringLiteral("F1 %1 → %2 on %3 held-out pages").arg(f1Text(o.previousF1), f1Text(o.newF1)).arg(o.heldOutPages);
    if (o.tookOver) {
        o.model = config.outputDir;
        o.message = QStringLiteral("model updated: %1").arg(scores);
        if (!o.grownLabels.isEmpty())
            o.message += QStringLiteral(" (new labels: %1)").arg(o.grownLabels.join(QStringLiteral(", ")));
    } else {
        o.message = QStringLiteral("model kept: %1 (the new one is not better)").arg(scores);
    }
    return o;
}

} // namespace folio::labelling
