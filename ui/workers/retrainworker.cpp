#include "ui/workers/retrainworker.h"

#include "inference/checkpoint/modelconfig.h"
#include "inference/formtagger/taggerpage.h"
#include "inference/models/detail/tokenlabels.h"
#include "pipeline/hffinetuning.h"
#include "pipeline/labelling/loopsnapshot.h"
#include "ui/workers/hffinetuneworker.h"

#include <QDir>
#include <QElapsedTimer>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <exception>

namespace folio {

namespace {

// The entity labels of a Hugging Face folder's head: config.json's id2label as every token
// classifier's loader reads it (ModelConfig, labelsFromConfig), B-/I- stripped; empty when unreadable.
QStringList hfEntityLabels(const QString &dir)
{
    QStringList out;
    try {
        const inference::ModelConfig config = inference::ModelConfig::fromDirectory(dir.toStdString());
        for (const std::string &raw : inference::detail::labelsFromConfig(config)) {
            QString tag = QString::fromStdString(raw);
            if (tag.startsWith(QLatin1String("B-")) || tag.startsWith(QLatin1String("I-")))
                tag = tag.mid(2);
            if (!tag.isEmpty() && tag != QLatin1String("O") && !out.contains(tag))
                out << tag;
        }
    } catch (const std::exception &) { // no head to compare with: every label counts as new
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
        o.uncertainties = labelling::uncertaintiesOf(config.outputDir, pages.unlabelled, cancel, &o.suggestions);
    }
    o.message = labelling::retrainStatusLine(o);
    return o;
}

} // namespace

RetrainWorker::RetrainWorker(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<Result>::finished, this, [this] {
        const Result r = m_watcher.result();
        Q_EMIT finished(r.info, r.outcome);
    });
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

bool RetrainWorker::start(RetrainRequest request)
{
    if (m_watcher.isRunning())
        return false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelFlag = m_cancel;
    QPointer<RetrainWorker> self(this);
    m_watcher.setFuture(QtConcurrent::run([request = std::move(request), cancelFlag, self]() {
        Result r;
        labelling::ProjectRetrainConfig c = request.config;
        c.cancel = cancelFlag.get();
        r.outcome.model = c.currentModel;
        try {
            // The pages, read here through a connection of this thread's own.
            QElapsedTimer clock;
            clock.start();
            labelling::LoopSnapshot snapshot;
            QString error;
            r.info.read = labelling::readLoopSnapshot(request.project, request.readOnly, &snapshot, &error, request.maxUnlabelled,
                                                      request.afterListing);
            r.info.seconds = clock.elapsed() / 1000.0;
            r.info.error = error;
            r.info.accepted = snapshot.accepted;
            r.info.needed = snapshot.needed;
            r.info.note = snapshot.note;
            r.info.waitMessage = snapshot.waitMessage;
            r.info.revisions = snapshot.revisions;
            r.info.trainPages = int(snapshot.pages.train.size());
            r.info.heldOutPages = int(snapshot.pages.heldOut.size());
            if (self) { // the window learns the run's size before it trains (queued to its thread)
                const RetrainSnapshotInfo info = r.info;
                QMetaObject::invokeMethod(self.data(), [self, info] { if (self) Q_EMIT self->snapshotRead(info); }, Qt::QueuedConnection);
            }
            if (!r.info.started()) {
                r.outcome.error = r.info.read ? r.info.waitMessage : r.info.error;
                r.outcome.message = r.outcome.error;
                return r;
            }
            const bool huggingFace = !c.currentModel.isEmpty() && pipeline::isHfFineTunableFolder(c.currentModel);
            r.outcome = huggingFace ? retrainHf(snapshot.pages, c, cancelFlag.get()) : labelling::retrainOnPages(snapshot.pages, c);
        } catch (const std::exception &e) { // retrainOnPages promises none; a thread must not end in one
            r.outcome = labelling::ProjectRetrainOutcome();
            r.outcome.model = c.currentModel;
            r.outcome.error = QString::fromLocal8Bit(e.what());
            r.outcome.message = QStringLiteral("retraining failed (%1); the previous model stays").arg(r.outcome.error);
        }
        return r;
    }));
    return true;
}

} // namespace folio
