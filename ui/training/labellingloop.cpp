#include "ui/training/labellingloop.h"

#include "document/project/project.h"
#include "pipeline/hffinetuning.h"
#include "pipeline/labelling/loopsnapshot.h"
#include "ui/annotation/annotationsession.h"
#include "ui/team/projectservice.h"
#include "ui/workers/modelworker.h"
#include "ui/workers/retrainworker.h"

#include <QActionGroup>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QStandardPaths>
#include <QThread>
#include <QTimer>

#include <utility>

namespace folio {

namespace {

// "folio-formtagger", "layoutlmv3", ...; empty when the folder has no readable config.json.
QString modelType(const QString &dir)
{
    QFile f(QDir(dir).filePath(QStringLiteral("config.json")));
    if (!f.open(QIODevice::ReadOnly) || f.size() > (1 << 20))
        return QString();
    return QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("model_type")).toString();
}

constexpr int kChoices[] = {0, 2, 5, 10, 20};

} // namespace

LabellingLoop::LabellingLoop(QObject *parent, AnnotationSession *session, ProjectService *projects, Hooks hooks)
    : QObject(parent), m_session(session), m_projects(projects), m_hooks(std::move(hooks)),
      m_worker(new RetrainWorker(this)), m_suggester(new ModelWorker(this)), m_label(new QLabel)
{
    m_label->setObjectName(QStringLiteral("backgroundRetrainLabel"));
    m_label->hide();
    m_options.epochs = 20;
    m_options.threads = std::max(1, QThread::idealThreadCount() - 1); // a core left for the GUI and the user
    connect(m_worker, &RetrainWorker::snapshotRead, this, &LabellingLoop::onSnapshotRead);
    connect(m_worker, &RetrainWorker::finished, this, &LabellingLoop::onFinished);
    connect(m_projects, &ProjectService::projectOpened, this, &LabellingLoop::onProjectOpened);
    connect(m_projects, &ProjectService::projectClosed, this, &LabellingLoop::onProjectClosed);
    connect(m_session, &AnnotationSession::statusChanged, this, [this](qint64 id, DocumentStatus status) {
        if (status == DocumentStatus::Done)
            onAccepted(id);
    });
    connect(m_session, &AnnotationSession::documentOpened, this, &LabellingLoop::onDocumentOpened);
    connect(m_suggester, &ModelWorker::predicted, this, [this](const Annotations &suggestions, const QStringList &) {
        const qint64 id = m_suggesting;
        m_suggesting = -1;
        if (id < 0 || id != m_session->currentDocumentId())
            return; // the user moved on: that page stays stale and is suggested again when opened
        m_stale.remove(id);
        m_session->applyPredictions(suggestions);
        say(tr("Suggestions refreshed with the new model (%1 suggestions; Ctrl+Z undoes them)").arg(suggestions.entities.size()), 6000);
        Q_EMIT staleRefreshed(id);
    });
    connect(m_suggester, &ModelWorker::failed, this, [this](const QString &message) {
        m_suggesting = -1;
        say(tr("The new model could not suggest labels for this page: %1").arg(message), 10000);
    });
}

LabellingLoop::~LabellingLoop()
{
    if (m_label && !m_label->parent())
        delete m_label.data();
}

QLabel *LabellingLoop::statusLabel() const { return m_label.data(); }

QMenu *LabellingLoop::addMenu(QMenu *parent)
{
    m_menu = parent->addMenu(tr("Retrain in the &Background"));
    m_menu->setObjectName(QStringLiteral("retrainInBackgroundMenu"));
    m_menu->setToolTip(tr("A project setting: while you label, the tagger retrains after every N pages you mark done, "
                          "and takes over only when it scores better on the project's held-out pages"));
    m_menu->setToolTipsVisible(true);
    m_everyGroup = new QActionGroup(m_menu);
    for (int n : kChoices) {
        const QString text = n == 0 ? tr("Off") : n == labelling::kDefaultRetrainEvery ? tr("Every %1 Accepted Pages (suggested)").arg(n)
                                                                                      : tr("Every %1 Accepted Pages").arg(n);
        QAction *a = m_menu->addAction(text);
        a->setObjectName(QStringLiteral("retrainEvery%1").arg(n));
        a->setCheckable(true);
        a->setData(n);
        m_everyGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, n] { setEveryPages(n); });
    }
    m_menu->addSeparator();
    m_retrainNow = m_menu->addAction(tr("Retrain &Now"), this, [this] { retrainNow(); });
    m_retrainNow->setObjectName(QStringLiteral("retrainNowAction"));
    m_cancel = m_menu->addAction(tr("&Cancel Background Retraining"), this, &LabellingLoop::cancel);
    m_cancel->setObjectName(QStringLiteral("cancelRetrainAction"));
    connect(m_menu, &QMenu::aboutToShow, this, &LabellingLoop::updateMenu);
    updateMenu();
    return m_menu;
}

void LabellingLoop::updateMenu()
{
    if (!m_menu)
        return;
    Project *project = m_projects->project();
    const int every = everyPages();
    for (QAction *a : m_everyGroup->actions()) {
        a->setEnabled(project != nullptr);
        a->setChecked(project && a->data().toInt() == every);
    }
    m_retrainNow->setEnabled(project && !isRunning());
    m_cancel->setEnabled(isRunning());
}

int LabellingLoop::everyPages() const
{
    Project *project = m_projects->project();
    return project ? labelling::retrainEvery(*project) : 0;
}

bool LabellingLoop::setEveryPages(int pages)
{
    Project *project = m_projects->project();
    if (!project)
        return false;
    QString error;
    if (!labelling::setRetrainEvery(*project, pages, &error)) {
        say(tr("The setting could not be stored: %1").arg(error), 10000);
        updateMenu();
        return false;
    }
    say(pages > 0 ? tr("Retraining in the background after every %1 accepted pages (Mark Done); %2 accepted so far")
                        .arg(pages).arg(m_acceptedSince.size())
                  : tr("Background retraining is off"), 8000);
    updateMenu();
    if (pages > 0 && int(m_acceptedSince.size()) >= pages && !isRunning())
        retrainNow();
    return true;
}

bool LabellingLoop::isRunning() const { return m_worker->isRunning(); }

void LabellingLoop::onProjectOpened()
{
    // A run in flight for another project finishes (its model may still take over: the model is
    // the window's, not the project's), but its uncertainties are not written into this project.
    m_acceptedSince.clear();
    m_counted.clear();
    m_stale.clear();
    m_toStore.clear();
    m_pending = false;
    updateMenu();
}

void LabellingLoop::onProjectClosed() { onProjectOpened(); }

void LabellingLoop::onAccepted(qint64 id)
{
    if (m_counted.contains(id))
        return; // accepted again: not a newly accepted page
    m_counted.insert(id);
    m_acceptedSince.insert(id);
    const int every = everyPages();
    if (every <= 0 || int(m_acceptedSince.size()) < every)
        return;
    if (isRunning()) {
        m_pending = true;
        return;
    }
    retrainNow();
}

QString LabellingLoop::outputFolder() const
{
    const QFileInfo info(m_projects->path());
    QString base = info.isFile() ? info.absolutePath() + QStringLiteral("/models/") + info.completeBaseName() + QStringLiteral("-background")
                                 : QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/background-models");
    const QString current = m_hooks.currentModel ? m_hooks.currentModel() : QString();
    for (int k = 1;; ++k) {
        const QString dir = QStringLiteral("%1/model-%2").arg(base).arg(k);
        if (!QFileInfo::exists(dir) && QDir(dir) != QDir(current))
            return dir;
    }
}

bool LabellingLoop::retrainNow()
{
    Project *project = m_projects->project();
    if (!project) {
        say(tr("Open a project first"), 5000);
        return false;
    }
    if (isRunning()) {
        say(tr("A background retraining is already running"), 5000);
        return false;
    }
    const QString current = m_hooks.currentModel ? m_hooks.currentModel() : QString();
    if (!current.isEmpty() && modelType(current) != QLatin1String("folio-formtagger") && !pipeline::isHfFineTunableFolder(current)) {
        say(tr("Background retraining starts from Folio's own tagger or a LayoutLMv3 / LiLT / LayoutLMv2 token classifier; "
               "the current model (%1, %2) is neither: use Model > Train on Project, or choose another model")
                .arg(QDir(current).dirName(), modelType(current).isEmpty() ? tr("no model type") : modelType(current)));
        return false;
    }
    QElapsedTimer clock;
    clock.start();
    RetrainRequest request;
    request.project = m_projects->path();
    request.readOnly = project->isReadOnly();
    request.config = m_options;
    request.config.currentModel = current;
    request.config.outputDir = outputFolder();
    request.config.cancel = nullptr;
    request.afterListing = m_afterListing;
    const QString output = request.config.outputDir;
    if (!m_worker->start(std::move(request)))
        return false;
    m_runProject = m_projects->path();
    m_runOutput = output;
    m_runAccepted = m_acceptedSince;
    m_pending = false;
    if (m_label) {
        m_label->setText(tr("Reading the accepted pages for a background retraining…"));
        m_label->show();
    }
    updateMenu();
    m_startMs = clock.nsecsElapsed() / 1e6;
    return true;
}

void LabellingLoop::onSnapshotRead(const RetrainSnapshotInfo &info)
{
    if (!info.started())
        return; // onFinished says why
    QElapsedTimer clock;
    clock.start();
    m_readMs = info.seconds * 1000;
    for (qint64 id : std::as_const(m_runAccepted))
        m_acceptedSince.remove(id);
    m_runAccepted.clear();
    if (m_label) {
        m_label->setText(tr("Retraining in the background on %1 accepted pages…").arg(info.trainPages));
        m_label->show();
    }
    QString text = tr("Retraining in the background on %1 accepted pages (%2 held out to score it); keep labelling")
                       .arg(info.trainPages).arg(info.heldOutPages);
    if (!info.note.isEmpty())
        text += QStringLiteral("; ") + info.note;
    say(text, 10000);
    Q_EMIT started(info.trainPages, info.heldOutPages);
    m_snapshotMs = clock.nsecsElapsed() / 1e6;
}

void LabellingLoop::cancel()
{
    if (isRunning()) {
        m_worker->cancel();
        if (m_label)
            m_label->setText(tr("Cancelling the background retraining…"));
    }
}

void LabellingLoop::onFinished(const RetrainSnapshotInfo &info, const labelling::ProjectRetrainOutcome &outcome)
{
    if (m_label)
        m_label->hide();
    const QString current = m_hooks.currentModel ? m_hooks.currentModel() : QString();
    const bool sameProject = m_projects->project() && m_projects->path() == m_runProject;
    if (!info.started()) { // nothing was trained: too few accepted pages, or the project could not be read
        m_runAccepted.clear();
        m_runOutput.clear();
        QString message = info.read ? info.waitMessage : tr("Background retraining not started: %1").arg(info.error);
        if (!info.read && m_projects->project() && m_projects->project()->backend() == QLatin1String("postgresql"))
            message += tr(" (the background run opens a connection of its own, without a password given in the URL: "
                          "keep it in PGPASSWORD, ~/.pgpass or a .folio-pg connection file)");
        say(message);
        updateMenu();
        Q_EMIT notStarted(message);
        if (sameProject && m_pending) // more pages were accepted while it read: read again
            retrainNow();
        return;
    }
    QString message = outcome.message;
    if (outcome.tookOver) {
        if (m_hooks.useModel)
            m_hooks.useModel(outcome.model);
        if (!outcome.grownLabels.isEmpty()) { // said once, in the user's language
            const QString labels = outcome.grownLabels.join(QStringLiteral(", "));
            message.remove(QStringLiteral(" (new labels: %1)").arg(labels));
            message += tr("; the model learnt labels it had never seen: %1").arg(labels);
        }
        if (sameProject && !outcome.uncertainties.empty()) {
            // One list read here; the uncertainties and suggestions are written a few pages per turn.
            QElapsedTimer clock;
            clock.start();
            QSet<qint64> present;
            for (const ProjectDocument &d : m_projects->project()->documents())
                present.insert(d.id); // a document deleted during the run: nothing to rank
            QHash<qint64, const Annotations *> suggested;
            for (const auto &[id, annotations] : outcome.suggestions)
                suggested.insert(id.toLongLong(), &annotations);
            m_toStore.clear();
            m_stored = 0;
            m_storeMs = m_maxSliceMs = 0;
            int ranked = 0;
            for (const auto &[key, uncertainty] : outcome.uncertainties) {
                const qint64 id = key.toLongLong();
                if (!present.contains(id))
                    continue;
                PendingSuggestions p{id, uncertainty, info.revisions.value(id, -1), Annotations(), false};
                if (suggested.contains(id) && info.revisions.contains(id)) {
                    p.annotations = *suggested.value(id);
                    p.hasAnnotations = true;
                }
                m_toStore.push_back(std::move(p));
                if (id != m_session->currentDocumentId()) {
                    m_stale.insert(id);
                    ++ranked;
                }
            }
            if (ranked > 0)
                message += tr("; new suggestions on %n page(s) not yet accepted", nullptr, ranked);
            if (!m_toStore.empty())
                QTimer::singleShot(0, this, &LabellingLoop::storeSuggestionsSlice);
            m_storeMs += clock.nsecsElapsed() / 1e6;
        }
    } else if (!m_runOutput.isEmpty() && QDir(m_runOutput) != QDir(current)) {
        // Kept, failed or cancelled: the previous model stays; the unused checkpoint goes.
        QDir(m_runOutput).removeRecursively();
    }
    m_runOutput.clear();
    m_lastMessage = message;
    say(message, 30000);
    updateMenu();
    Q_EMIT finished(message, outcome.tookOver);
    const int every = everyPages();
    if (sameProject && (m_pending || (every > 0 && int(m_acceptedSince.size()) >= every)))
        retrainNow();
}

// The new model's suggestions for pages not yet opened, stored a few pages per event-loop turn (a
// few milliseconds each: the window stays responsive). A page is written only when its annotations
// are still the revision the worker read (Project::saveAnnotations' revision check), and never the
// page open now; either way it stays stale and is suggested again when opened.
void LabellingLoop::storeSuggestionsSlice()
{
    Project *project = m_projects->project();
    if (!project || m_projects->path() != m_runProject) {
        m_toStore.clear();
        return;
    }
    QElapsedTimer clock;
    clock.start();
    while (!m_toStore.empty() && clock.elapsed() < 8) {
        PendingSuggestions next = std::move(m_toStore.back());
        m_toStore.pop_back();
        QString error; // a document deleted meanwhile: nothing to rank
        project->setUncertainty(next.id, next.uncertainty, &error);
        if (!next.hasAnnotations || next.id == m_session->currentDocumentId())
            continue;
        SaveConflict conflict; // changed since it was read, or deleted: the page stays stale
        if (project->saveAnnotations(next.id, next.annotations, next.revision, &conflict, &error)) {
            m_stale.remove(next.id);
            ++m_stored;
        }
    }
    const double ms = clock.nsecsElapsed() / 1e6;
    m_storeMs += ms;
    m_maxSliceMs = std::max(m_maxSliceMs, ms);
    if (!m_toStore.empty()) {
        QTimer::singleShot(0, this, &LabellingLoop::storeSuggestionsSlice);
        return;
    }
    Q_EMIT uncertaintiesUpdated(); // the Documents list: its order and suggestion counts
    Q_EMIT suggestionsStored(m_stored);
}

void LabellingLoop::onDocumentOpened(qint64 id)
{
    if (!m_stale.contains(id) || m_suggester->isBusy())
        return;
    const QString model = m_hooks.currentModel ? m_hooks.currentModel() : QString();
    if (model.isEmpty())
        return;
    Project *project = m_projects->project();
    ProjectDocument info;
    QString error;
    if (project && project->documentInfo(id, &info, &error) && info.status == DocumentStatus::Done) {
        m_stale.remove(id);
        return;
    }
    m_suggesting = id;
    say(tr("Suggesting labels with the new model (this page's suggestions came from the previous one)…"), 5000);
    m_suggester->predict(model, m_session->document(), m_session->annotations());
}

void LabellingLoop::say(const QString &message, int ms)
{
    m_lastMessage = message;
    if (m_hooks.showMessage)
        m_hooks.showMessage(message, ms);
}

} // namespace folio
