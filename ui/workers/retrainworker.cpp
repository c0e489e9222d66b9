#include "ui/workers/retrainworker.h"

#include "inference/formtagger/taggerpage.h"
#include "pipeline/hffinetuning.h"
#include "ui/workers/hffinetuneworker.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <exception>

namespace folio {

namespace {

// The entity labels of a Hugging Face folder's head (config.json id2label, B-/I- stripped).
QStringList hfEntityLabels(const QString &dir)
{
    QFile f(QDir(dir).filePath(QStringLiteral("config.json")));
    QStringList out;
    if (!f.open(QIODevice::ReadOnly) || f.size() > (4 << 20))
        return out;
    const QJsonObject id2label = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("id2label")).toObject();
    for (auto it = id2label.begin(); it != id2label.end(); ++it) {
        QString tag = it.value().toString();
        if (tag.startsWith(QLatin1String("B-")) || tag.startsWith(QLatin1String("I-")))
            tag = tag.mid(2);
        if (!tag.isEmpty() && tag != QLatin1String("O") && !out.contains(tag))
            out << tag;
    }
    return out;
}

// The labelling loop's retraining from a Hugging Face token classifier (LayoutLMv3, LiLT, LayoutLMv2):
// fine-tuned on the accepted pages (pipeline::fineTuneHfTokenClassifier, no dev pages: the held-out
// pages judge it and nothing else sees them), both models scored on the held-out pages (micro F1,
// scoreHfFolderOnPages), the same outcome and status line as Folio's own tagger's retraining.
labelling::ProjectRetrainOutcome retrainHf(const labelling::RetrainPages &pages, const labelling::ProjectRetrainConfig &config,
                                           std::atomic<bool> *cancel)
{
    labelling::ProjectRetrainOutcome o;
    o.model = config.currentModel;
    QElapsedTimer clock;
    clock.start();
    const QStringList labels = pages.labels.isEmpty() ? labelling::labelsOfPages(pages.train) : pages.labels;
    if (int(pages.train.size()) < labelling::kMinPoolPages || int(pages.heldOut.size()) < labelling::kMinHeldOutPages || labels.isEmpty()) {
        o.error = QStringLiteral("%1: %2 page(s) to train on and %3 held out, labels: %4")
                      .arg(pages.source).arg(pages.train.size()).arg(pages.heldOut.size()).arg(labels.join(QStringLiteral(", ")));
        o.message = QStringLiteral("retraining not started: %1").arg(o.error);
        return o;
    }
    std::vector<inference::TaggerPage> train, heldOut;
    labelling::retrainTaggerPages(pages, labels, &train, &heldOut);
    o.trainPages = int(train.size());
    o.heldOutPages = int(heldOut.size());
    const QStringList known = hfEntityLabels(config.currentModel);
    for (const QString &l : labels)
        if (!known.contains(l))
            o.grownLabels << l;
    pipeline::HfFineTuneConfig hc;
    hc.initDir = config.currentModel;
    hc.outDir = config.outputDir;
    hc.labels = {"O"};
    for (const QString &l : labels) {
        hc.labels.push_back(("B-" + l).toStdString());
        hc.labels.push_back(("I-" + l).toStdString());
    }
    hc.epochs = std::max(1, std::min(config.epochs, 3)); // a pretrained model: a few epochs, as Train on Project
    hc.batchSize = 8;
    hc.maxSteps = config.maxSteps;
    hc.seed = config.seed;
    hc.command = "folio (GUI): Retrain in the Background from " + config.currentModel.toStdString();
    hc.dataDescription = QStringLiteral("%1: %2 accepted pages, %3 held out (never trained on)")
                             .arg(pages.source).arg(o.trainPages).arg(o.heldOutPages).toStdString();
    QDir(config.outputDir).removeRecursively();
    QDir().mkpath(config.outputDir);
    std::vector<pipeline::HfTrainPage> trainPages;
    for (const inference::TaggerPage &p : train)
        trainPages.push_back(pipeline::HfTrainPage{p, QString()});
    const pipeline::HfFineTuneOutcome t =
        pipeline::fineTuneHfTokenClassifier(hc, trainPages, {}, [](const pipeline::HfFineTuneProgress &) {}, cancel);
    o.seconds = clock.elapsed() / 1000.0;
    if (t.cancelled || cancel->load()) {
        o.cancelled = true;
        o.message = QStringLiteral("retraining cancelled; the previous model stays");
        return o;
    }
    if (!t.ok) {
        o.error = t.error;
        o.message = QStringLiteral("retraining failed (%1); the previous model stays").arg(t.error);
        return o;
    }
    std::vector<HfGuardRow> rows;
    QString error;
    if (!scoreHfFolderOnPages(config.outputDir, heldOut, false, &rows, &error) || rows.empty()) {
        o.error = error;
        o.message = QStringLiteral("the new model could not be scored (%1); the previous model stays").arg(error);
        return o;
    }
    o.newF1 = rows.back().after;
    if (o.grownLabels.isEmpty()) {
        std::vector<HfGuardRow> before;
        if (scoreHfFolderOnPages(config.currentModel, heldOut, true, &before, &error) && !before.empty())
            o.previousF1 = before.back().before;
    }
    o.ok = true;
    o.tookOver = o.newF1 > o.previousF1;
    if (o.tookOver) {
        o.model = config.outputDir;
        o.uncertainties = labelling::uncertaintiesOf(config.outputDir, pages.unlabelled, cancel);
    }
    o.message = labelling::retrainStatusLine(o);
    return o;
}

} // namespace

RetrainWorker::RetrainWorker(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<labelling::ProjectRetrainOutcome>::finished, this,
            [this] { Q_EMIT finished(m_watcher.result()); });
}

RetrainWorker::~RetrainWorker()
{
    cancel();
    m_watcher.waitForFinished();
}

bool RetrainWorker::isRunning() const { return m_watcher.isRunning(); }

void RetrainWorker::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

bool RetrainWorker::start(labelling::RetrainPages pages, labelling::ProjectRetrainConfig config)
{
    if (m_watcher.isRunning())
        return false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelFlag = m_cancel;
    const bool huggingFace = !config.currentModel.isEmpty() && pipeline::isHfFineTunableFolder(config.currentModel);
    m_watcher.setFuture(QtConcurrent::run([pages = std::move(pages), config, cancelFlag, huggingFace]() {
        labelling::ProjectRetrainConfig c = config;
        c.cancel = cancelFlag.get();
        try {
            return huggingFace ? retrainHf(pages, c, cancelFlag.get()) : labelling::retrainOnPages(pages, c);
        } catch (const std::exception &e) { // retrainOnPages promises none; a thread must not end in one
            labelling::ProjectRetrainOutcome o;
            o.model = config.currentModel;
            o.error = QString::fromLocal8Bit(e.what());
            o.message = QStringLiteral("retraining failed (%1); the previous model stays").arg(o.error);
            return o;
        }
    }));
    return true;
}

} // namespace folio
