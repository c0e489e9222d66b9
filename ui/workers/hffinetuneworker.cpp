#include "ui/workers/hffinetuneworker.h"

#include "inference/models/hftokenclassifier.h"
#include "inference/training/metrics.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <map>

namespace folio {

int heldOutCount(int labelledPages)
{
    return std::max(kHeldOutMinimum, labelledPages / 5);
}

bool projectHeldOutSplit(const std::vector<inference::TaggerPage> &pages, std::vector<inference::TaggerPage> *train,
                         std::vector<inference::TaggerPage> *heldOut, QString *error)
{
    const int n = int(pages.size());
    const int held = heldOutCount(n);
    if (n < held + 1) {
        if (error)
            *error = QCoreApplication::translate("folio::HfFineTuneWorker",
                                                 "%1 labelled pages: the regression guard holds out %2 and training needs at least one more "
                                                 "(label %3 more)")
                         .arg(n).arg(held).arg(held + 1 - n);
        return false;
    }
    train->assign(pages.begin(), pages.end() - held);
    heldOut->assign(pages.end() - held, pages.end());
    return true;
}

bool scoreHfFolderOnPages(const QString &dir, const std::vector<inference::TaggerPage> &pages, bool asBefore,
                          std::vector<HfGuardRow> *rows, QString *error)
{
    try {
        inference::HfTokenClassifier classifier;
        std::string loadError;
        if (!classifier.load(dir.toStdString(), &loadError)) {
            *error = QString::fromStdString(loadError);
            return false;
        }
        inference::EntityScorer scorer;
        for (const inference::TaggerPage &page : pages) {
            const inference::WordLabelling labelling = classifier.label(page.words, page.boxes);
            if (!labelling.ok) {
                *error = QStringLiteral("%1: page %2: %3").arg(dir, QString::fromStdString(page.id), QString::fromStdString(labelling.error));
                return false;
            }
            std::vector<std::string> predicted(page.words.size(), "O");
            for (std::size_t w = 0; w < predicted.size() && w < labelling.words.size(); ++w)
                if (labelling.words[w].labelId >= 0)
                    predicted[w] = labelling.words[w].label;
            scorer.add(page.tags, predicted);
        }
        // The labels the model knows ("B-X" / "I-X" -> "X"): a label it cannot predict has no score before.
        std::vector<QString> known;
        for (const std::string &l : classifier.labels())
            if (l.size() > 2 && l[1] == '-')
                known.push_back(QString::fromStdString(l.substr(2)));
        auto put = [&](const QString &label, double f1, long support) {
            auto it = std::find_if(rows->begin(), rows->end(), [&](const HfGuardRow &r) { return r.label == label; });
            if (it == rows->end())
                it = rows->insert(rows->end(), HfGuardRow{label, -1, -1, 0});
            (asBefore ? it->before : it->after) = f1;
            it->support = std::max(it->support, support);
        };
        const QString microLabel = QStringLiteral("all (micro)");
        for (const auto &[type, score] : scorer.perClass()) {
            const QString label = QString::fromStdString(type);
            const bool modelKnows = std::find(known.begin(), known.end(), label) != known.end();
            put(label, modelKnows || score.gold == 0 ? score.f1() : -1, score.gold);
        }
        for (const QString &label : known) // labels the model has but the pages and its guesses lack
            if (!scorer.perClass().count(label.toStdString()))
                put(label, -1, 0);
        std::sort(rows->begin(), rows->end(), [](const HfGuardRow &a, const HfGuardRow &b) { return a.label < b.label; });
        const inference::ClassScore micro = scorer.micro();
        put(microLabel, micro.f1(), micro.gold);
        // put() appended or updated the micro row; keep it last.
        std::stable_partition(rows->begin(), rows->end(), [&](const HfGuardRow &r) { return r.label != microLabel; });
        return true;
    } catch (const std::exception &e) {
        *error = QStringLiteral("%1: %2").arg(dir, QString::fromUtf8(e.what()));
        return false;
    }
}

bool HfGuardedRun::noRegression() const
{
    for (const HfGuardRow &r : rows)
        if (r.before >= 0 && r.after + 1e-9 < r.before)
            return false;
    return true;
}

HfFineTuneWorker::HfFineTuneWorker(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<HfGuardedRun>::finished, this, [this] { Q_EMIT finished(m_watcher.result()); });
}

HfFineTuneWorker::~HfFineTuneWorker()
{
    cancel();
    m_watcher.waitForFinished();
}

bool HfFineTuneWorker::isRunning() const
{
    return m_watcher.isRunning();
}

void HfFineTuneWorker::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void HfFineTuneWorker::start(const pipeline::HfFineTuneConfig &config, std::vector<inference::TaggerPage> train,
                             std::vector<inference::TaggerPage> heldOut, const QString &beforeDir)
{
    if (m_watcher.isRunning())
        return;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelFlag = m_cancel;
    QPointer<HfFineTuneWorker> self(this);
    m_watcher.setFuture(QtConcurrent::run([self, config, train = std::move(train), heldOut = std::move(heldOut), cancelFlag,
                                           before = beforeDir.isEmpty() ? config.initDir : beforeDir]() -> HfGuardedRun {
        HfGuardedRun run;
        run.outDir = config.outDir;
        run.beforeDir = before;
        run.trainPages = int(train.size());
        run.heldOutPages = int(heldOut.size());
        auto report = [self](const pipeline::HfFineTuneProgress &p) {
            const QString message = QString::fromStdString(p.message);
            QMetaObject::invokeMethod(qApp, [self, p, message] {
                if (self)
                    Q_EMIT self->progress(p.step, p.totalSteps, p.epoch, p.epochs, p.loss, p.etaSeconds, message);
            }, Qt::QueuedConnection);
        };
        std::vector<pipeline::HfTrainPage> trainPages;
        for (const inference::TaggerPage &p : train)
            trainPages.push_back(pipeline::HfTrainPage{p, QString()});
        // No dev pages: the held-out pages judge the result, and nothing else may see them.
        run.training = pipeline::fineTuneHfTokenClassifier(config, trainPages, {}, report, cancelFlag.get());
        if (run.training.cancelled) {
            run.cancelled = true;
            return run;
        }
        if (!run.training.ok) {
            run.error = run.training.error;
            return run;
        }
        QString error;
        if (!scoreHfFolderOnPages(before, heldOut, true, &run.rows, &error)
            || !scoreHfFolderOnPages(config.outDir, heldOut, false, &run.rows, &error)) {
            run.error = error;
            return run;
        }
        run.ok = true;
        return run;
    }));
}

} // namespace folio
