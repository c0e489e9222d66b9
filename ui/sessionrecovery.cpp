#include "ui/sessionrecovery.h"

#include "document/project/project.h"
#include "ui/annotation/annotationsession.h"
#include "ui/documents/scanpanel.h"
#include "ui/mainwindow.h"
#include "ui/qs/qspanel.h"
#include "ui/team/projectservice.h"
#include "ui/training/trainingdialog.h"
#include "ui/windowlayout.h"

#include <QTreeView>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace folio {

namespace {

constexpr int kVersion = 1;
SessionRecovery *g_running = nullptr; // the session the training runs report to

QString b64(const QByteArray &bytes) { return QString::fromLatin1(bytes.toBase64()); }

bool fromB64(const QJsonValue &v, QByteArray *out)
{
    if (v.isUndefined() || v.isNull()) {
        out->clear();
        return true;
    }
    if (!v.isString())
        return false;
    const auto decoded = QByteArray::fromBase64Encoding(v.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return false;
    *out = *decoded;
    return true;
}

} // namespace

QJsonObject SessionState::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("version"), kVersion);
    o.insert(QStringLiteral("cleanExit"), cleanExit);
    o.insert(QStringLiteral("pid"), pid);
    o.insert(QStringLiteral("project"), project);
    o.insert(QStringLiteral("document"), document);
    o.insert(QStringLiteral("documentName"), documentName);
    o.insert(QStringLiteral("page"), page);
    o.insert(QStringLiteral("edits"), edits);
    o.insert(QStringLiteral("lastEdit"), lastEdit);
    o.insert(QStringLiteral("geometry"), b64(geometry));
    o.insert(QStringLiteral("windowState"), b64(windowState));
    QJsonObject split;
    for (auto it = splitters.cbegin(); it != splitters.cend(); ++it)
        split.insert(it.key(), b64(it.value()));
    o.insert(QStringLiteral("splitters"), split);
    if (!training.isEmpty())
        o.insert(QStringLiteral("training"), training);
    if (!draft.isEmpty())
        o.insert(QStringLiteral("draft"), draft);
    return o;
}

bool SessionState::fromJson(const QByteArray &bytes, const QString &path, SessionState *state, QString *error)
{
    const auto fail = [&](const QString &why) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, why);
        return false;
    };
    if (bytes.size() > kMaxBytes)
        return fail(QStringLiteral("%1 bytes, more than a session state holds (%2)").arg(bytes.size()).arg(kMaxBytes));
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parse);
    if (parse.error != QJsonParseError::NoError)
        return fail(QStringLiteral("not JSON (%1 at byte %2)").arg(parse.errorString()).arg(parse.offset));
    if (!doc.isObject())
        return fail(QStringLiteral("not a JSON object"));
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("version")).toInt() != kVersion)
        return fail(QStringLiteral("version %1, this Folio reads %2").arg(o.value(QStringLiteral("version")).toVariant().toString()).arg(kVersion));
    SessionState s;
    s.cleanExit = o.value(QStringLiteral("cleanExit")).toBool();
    s.pid = qint64(o.value(QStringLiteral("pid")).toDouble());
    s.project = o.value(QStringLiteral("project")).toString();
    s.document = qint64(o.value(QStringLiteral("document")).toDouble(-1));
    s.documentName = o.value(QStringLiteral("documentName")).toString();
    s.page = o.value(QStringLiteral("page")).toInt();
    s.edits = o.value(QStringLiteral("edits")).toInt();
    s.lastEdit = o.value(QStringLiteral("lastEdit")).toString();
    if (s.page < 0 || s.page > 100000 || s.edits < 0)
        return fail(QStringLiteral("page %1 / edits %2 out of range").arg(s.page).arg(s.edits));
    if (!fromB64(o.value(QStringLiteral("geometry")), &s.geometry) || !fromB64(o.value(QStringLiteral("windowState")), &s.windowState))
        return fail(QStringLiteral("geometry / windowState is not base64"));
    const QJsonObject split = o.value(QStringLiteral("splitters")).toObject();
    for (auto it = split.begin(); it != split.end(); ++it) {
        QByteArray st;
        if (!fromB64(it.value(), &st))
            return fail(QStringLiteral("splitter %1 is not base64").arg(it.key()));
        s.splitters.insert(it.key(), st);
    }
    const QJsonValue training = o.value(QStringLiteral("training"));
    if (!training.isUndefined() && !training.isObject())
        return fail(QStringLiteral("\"training\" is not an object"));
    s.training = training.toObject();
    const QJsonValue draft = o.value(QStringLiteral("draft"));
    if (!draft.isUndefined() && (!draft.isObject() || !draft.toObject().value(QStringLiteral("text")).isString()))
        return fail(QStringLiteral("\"draft\" is not an object with a text"));
    s.draft = draft.toObject();
    *state = s;
    return true;
}

namespace sessionstate {

QString markerPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/session.json");
}

bool write(const QString &path, const SessionState &state, QString *error)
{
    // Written beside, then renamed over the old one (rename(2) replaces atomically): a reader sees
    // the old state or the new one, never half a file. No fsync: the file is rewritten on every
    // edit, and what it guards against is the process dying (a kill, a crash), after which the
    // kernel still writes the page cache; QSaveFile's fsync made each write ~9 ms of the GUI thread.
    // A file cut short by a power loss is refused by read() (it is bounded JSON): nothing reopens.
    QDir().mkpath(QFileInfo(path).absolutePath());
    const QString tmp = path + QStringLiteral(".tmp");
    QFile out(tmp);
    const QByteArray bytes = QJsonDocument(state.toJson()).toJson(QJsonDocument::Compact);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(bytes) != bytes.size() || !out.flush()) {
        if (error)
            *error = QStringLiteral("%1: cannot write the session state (%2)").arg(tmp, out.errorString());
        return false;
    }
    out.close();
    if (std::rename(QFile::encodeName(tmp).constData(), QFile::encodeName(path).constData()) != 0) {
        if (error)
            *error = QStringLiteral("%1: cannot replace the session state (%2)").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        QFile::remove(tmp);
        return false;
    }
    return true;
}

bool read(const QString &path, SessionState *state, QString *error)
{
    if (error)
        error->clear();
    QFile f(path);
    if (!f.exists())
        return false;
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot read (%2)").arg(path, f.errorString());
        return false;
    }
    return SessionState::fromJson(f.read(SessionState::kMaxBytes + 1), path, state, error);
}

void noteTrainingStarted(const QJsonObject &run)
{
    if (!g_running)
        return;
    g_running->m_state.training = run;
    g_running->changed(true);
}

void noteTrainingEnded()
{
    if (!g_running || g_running->m_state.training.isEmpty())
        return;
    g_running->m_state.training = QJsonObject();
    g_running->changed(true);
}

} // namespace sessionstate

SessionRecovery::SessionRecovery(MainWindow *window)
    : QObject(window), m_window(window), m_path(sessionstate::markerPath()), m_pending(new QTimer(this))
{
    QString error;
    if (sessionstate::read(m_path, &m_previous, &error))
        m_previousCrashed = !m_previous.cleanExit;
    else if (!error.isEmpty())
        qWarning("%s", qPrintable(error)); // an unreadable state: nothing to recover
    m_state.pid = QCoreApplication::applicationPid();
    g_running = this;

    m_pending->setSingleShot(true);
    m_pending->setInterval(0);
    connect(m_pending, &QTimer::timeout, this, &SessionRecovery::writeNow);

    ProjectService *projects = window->projects();
    AnnotationSession *session = window->session();
    connect(projects, &ProjectService::projectOpened, this, [this] { changed(true); });
    connect(projects, &ProjectService::projectClosed, this, [this] { changed(true); });
    connect(session, &AnnotationSession::documentOpened, this, [this] { changed(true); });
    const auto edited = [this] { // the edit is in the project already; its count goes with the undo text
        ++m_state.edits;
        changed(false);
    };
    connect(session, &AnnotationSession::saved, this, edited);
    connect(session, &AnnotationSession::documentChanged, this, edited); // a word's text
    // The undo text of the last edit (the stack's index moves after the edit has been saved).
    connect(session->undoStack(), &QUndoStack::indexChanged, this, [this, session] {
        m_state.lastEdit = session->undoStack()->undoText();
        changed(false);
    });
    if (auto *scan = window->findChild<ScanPanel *>())
        if (auto *pageBox = scan->findChild<QSpinBox *>())
            connect(pageBox, &QSpinBox::valueChanged, this, [this] { changed(true); });
    // Pages shown by other paths (the evidence of a question, PageDown) set the page box without its
    // signal: the page is also looked at four times a second.
    auto *pageWatch = new QTimer(this);
    pageWatch->setInterval(250);
    connect(pageWatch, &QTimer::timeout, this, [this] {
        if (pageMoved())
            changed(true);
    });
    pageWatch->start();
    watchDocks();
    m_draftWrite = new QTimer(this);
    m_draftWrite->setSingleShot(true);
    m_draftWrite->setInterval(300);
    connect(m_draftWrite, &QTimer::timeout, this, [this] { changed(true); });
    if (auto *qs = window->findChild<QsPanel *>()) {
        qs->view()->viewport()->installEventFilter(this); // item editors
        for (QLineEdit *edit : qs->findChildren<QLineEdit *>()) // the document's summary line
            watchDraft(edit);
    }
    connect(qApp, &QCoreApplication::aboutToQuit, this, &SessionRecovery::markCleanExit);
}

SessionRecovery::~SessionRecovery()
{
    markCleanExit();
    if (g_running == this)
        g_running = nullptr;
}

void SessionRecovery::watchDocks()
{
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>()) {
        connect(dock, &QDockWidget::visibilityChanged, this, [this] { changed(false); });
        connect(dock, &QDockWidget::topLevelChanged, this, [this] { changed(false); });
        connect(dock, &QDockWidget::dockLocationChanged, this, [this] { changed(false); });
    }
    for (QSplitter *split : m_window->findChildren<QSplitter *>())
        connect(split, &QSplitter::splitterMoved, this, [this] { changed(false); });
}

bool SessionRecovery::eventFilter(QObject *watched, QEvent *event)
{
    // An item editor of the Questions dock's tree: a child of its viewport, polished when shown.
    if (event->type() == QEvent::ChildPolished)
        if (auto *edit = qobject_cast<QLineEdit *>(static_cast<QChildEvent *>(event)->child()))
            watchDraft(edit);
    return QObject::eventFilter(watched, event);
}

void SessionRecovery::watchDraft(QLineEdit *edit)
{
    auto *qs = m_window ? m_window->findChild<QsPanel *>() : nullptr;
    if (!edit || !qs || edit->property("folioDraftWatched").toBool())
        return;
    edit->setProperty("folioDraftWatched", true);
    // Keys typed (textEdited: not the text the editor was given) are a draft until committed.
    connect(edit, &QLineEdit::textEdited, this, [this, qs](const QString &text) {
        m_state.draft = QJsonObject{{QStringLiteral("item"), qs->currentId()}, {QStringLiteral("text"), text.left(100000)}};
        m_draftWrite->start();
    });
    const auto finished = [this] { // committed (an edit, saved) or dropped
        m_draftWrite->stop();
        if (!m_state.draft.isEmpty()) {
            m_state.draft = QJsonObject();
            changed(false);
        }
    };
    connect(edit, &QLineEdit::editingFinished, this, finished);
    connect(edit, &QObject::destroyed, this, finished);
}

void SessionRecovery::capture()
{
    if (!m_window)
        return;
    Project *project = m_window->project();
    AnnotationSession *session = m_window->session();
    m_state.project = project ? project->path() : QString();
    m_state.document = project ? session->currentDocumentId() : -1;
    m_state.documentName = m_state.document >= 0 ? QFileInfo(session->document().sourcePath).fileName() : QString();
    auto *scan = m_window->findChild<ScanPanel *>();
    m_state.page = scan && m_state.document >= 0 && session->document().kind != SourceKind::Html ? qMax(0, scan->currentPage()) : 0;
    m_state.geometry = m_window->saveGeometry();
    m_state.windowState = m_window->saveState(windowlayout::kStateVersion);
    m_state.splitters.clear();
    for (const QSplitter *split : m_window->findChildren<QSplitter *>())
        m_state.splitters.insert(windowlayout::splitterKey(split, m_window), split->saveState());
}

void SessionRecovery::changed(bool now)
{
    if (m_clean)
        return;
    if (now)
        writeNow();
    else if (!m_pending->isActive())
        m_pending->start();
}

bool SessionRecovery::pageMoved() const
{
    if (!m_window || m_clean || m_state.document < 0 || m_window->session()->currentDocumentId() != m_state.document)
        return false;
    auto *scan = m_window->findChild<ScanPanel *>();
    return scan && m_window->session()->document().kind != SourceKind::Html && qMax(0, scan->currentPage()) != m_state.page;
}

void SessionRecovery::flush()
{
    if (m_pending->isActive() || pageMoved()) {
        m_pending->stop();
        writeNow();
    }
}

void SessionRecovery::writeNow()
{
    m_pending->stop();
    if (m_clean)
        return;
    capture();
    QString error;
    if (!sessionstate::write(m_path, m_state, &error))
        qWarning("%s", qPrintable(error));
}

void SessionRecovery::markCleanExit()
{
    if (m_clean)
        return;
    m_clean = true;
    m_pending->stop();
    QFile::remove(m_path);
}

bool SessionRecovery::recoverIfCrashed()
{
    if (!m_previousCrashed || !m_window)
        return false;
    const SessionState last = m_previous;
    m_previousCrashed = false;
    QStringList parts;
    bool reopened = false;
    if (!last.project.isEmpty()) {
        if (!m_window->openProject(last.project)) {
            parts << tr("the project %1 could not be reopened").arg(last.project);
        } else {
            reopened = true;
            parts << tr("project %1").arg(QFileInfo(last.project).fileName());
            AnnotationSession *session = m_window->session();
            if (last.document >= 0 && session->documentIds().contains(last.document)) {
                if (session->currentDocumentId() != last.document)
                    session->openDocument(last.document);
                QString where = tr("document %1").arg(last.documentName.isEmpty() ? QString::number(last.document) : last.documentName);
                auto *scan = m_window->findChild<ScanPanel *>();
                if (scan && last.page > 0 && last.page < int(session->document().pages.size())) {
                    scan->showPage(last.page);
                    where += tr(", page %1").arg(last.page + 1);
                }
                parts << where;
            } else if (last.document >= 0) {
                parts << tr("document %1 is no longer in the project").arg(last.documentName);
            }
        }
    }
    // The layout of the killed session (docks, splitters, geometry) over the one saved at the last clean exit.
    if (!last.windowState.isEmpty()) {
        if (!last.geometry.isEmpty())
            m_window->restoreGeometry(last.geometry);
        m_window->restoreState(last.windowState, windowlayout::kStateVersion);
        for (QSplitter *split : m_window->findChildren<QSplitter *>()) {
            const QByteArray st = last.splitters.value(windowlayout::splitterKey(split, m_window));
            if (!st.isEmpty())
                split->restoreState(st);
        }
        parts << tr("the window layout");
    }
    QString text = tr("Folio was not closed properly last time. Recovered: %1.").arg(parts.join(QStringLiteral("; ")));
    if (reopened && last.edits > 0)
        text += QLatin1Char(' ') + tr("All %n edit(s) saved in that session are in the project", nullptr, last.edits)
                + (last.lastEdit.isEmpty() ? QString() : tr(" (the last: %1)").arg(last.lastEdit)) + QLatin1Char('.');
    bool offerTraining = false;
    if (!last.training.isEmpty()) {
        m_interrupted = last.training;
        const QString out = last.training.value(QStringLiteral("out")).toString();
        // Folio's tagger keeps its last epoch in last/state.json, a Hugging Face fine-tune in last/trainer_state.json.
        const bool hf = last.training.value(QStringLiteral("kind")).toString() == QLatin1String("hf-finetune");
        QFile state(out + (hf ? QStringLiteral("/last/trainer_state.json") : QStringLiteral("/last/state.json")));
        QJsonObject saved;
        if (state.size() < (1 << 20) && state.open(QIODevice::ReadOnly))
            saved = QJsonDocument::fromJson(state.readAll()).object();
        const int epoch = saved.value(QStringLiteral("epoch")).toInt();
        const int epochs = last.training.value(QStringLiteral("epochs")).toInt();
        const qint64 step = qint64(saved.value(QStringLiteral("global_step")).toDouble());
        const QString init = QDir(last.training.value(QStringLiteral("init")).toString()).dirName();
        text += QLatin1Char(' ')
                + (hf ? (step > 0 ? tr("A fine-tune of %1 into %2 was interrupted at step %3 of %4: Resume Training continues it.")
                                        .arg(init, QDir(out).dirName())
                                        .arg(step)
                                        .arg(qint64(saved.value(QStringLiteral("total_steps")).toDouble()))
                                  : tr("A fine-tune of %1 into %2 was interrupted before its first epoch was saved: Resume Training starts it again.")
                                        .arg(init, QDir(out).dirName()))
                 : epoch > 0 ? tr("A training run into %1 was interrupted after epoch %2 of %3: Resume Training continues it.")
                                   .arg(QDir(out).dirName()).arg(epoch).arg(epochs)
                             : tr("A training run into %1 was interrupted before its first epoch was saved: Resume Training starts it again.")
                                   .arg(QDir(out).dirName()));
        offerTraining = true;
        // The run is not going on in this session: the next state says so unless it is resumed.
    }
    const QString draft = last.draft.value(QStringLiteral("text")).toString();
    if (!draft.isEmpty())
        text += QLatin1Char(' ') + tr("Text being typed in the Questions dock was not saved yet; here it is to copy back: “%1”.").arg(draft);
    m_message = text;
    changed(true);
    showBanner(text, offerTraining);
    Q_EMIT recovered(text);
    return true;
}

void SessionRecovery::showBanner(const QString &text, bool offerTraining)
{
    delete m_banner;
    m_banner = new QToolBar(tr("Recovered session"), m_window);
    m_banner->setObjectName(QStringLiteral("recoveryBanner"));
    m_banner->setMovable(false);
    m_banner->setFloatable(false);
    auto *label = new QLabel(text, m_banner);
    label->setObjectName(QStringLiteral("recoveryMessage"));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAccessibleName(tr("Recovered session"));
    m_banner->addWidget(label);
    if (offerTraining) {
        QAction *resume = m_banner->addAction(tr("Resume Training"));
        resume->setObjectName(QStringLiteral("resumeTrainingAction"));
        connect(resume, &QAction::triggered, this, [this] { resumeTraining(); });
    }
    QAction *dismiss = m_banner->addAction(tr("Dismiss"));
    dismiss->setObjectName(QStringLiteral("dismissRecoveryAction"));
    connect(dismiss, &QAction::triggered, this, [this] {
        if (m_banner)
            m_banner->deleteLater();
        m_banner = nullptr;
    });
    m_window->addToolBar(Qt::TopToolBarArea, m_banner);
    m_window->statusBar()->showMessage(text, 20000);
}

bool SessionRecovery::resumeTraining()
{
    if (m_interrupted.isEmpty() || !m_window || !m_window->project()) {
        if (m_window)
            m_window->statusBar()->showMessage(tr("Nothing to resume: open the project the training ran on"), 8000);
        return false;
    }
    QPointer<MainWindow> window = m_window;
    TrainingDialog *dialog = TrainingDialog::openBeside(m_window->project(), m_window->modelDirectory(), m_window->projects(), m_window,
                                                        [window](const QString &checkpointDir) {
                                                            if (window)
                                                                window->setModelDirectory(checkpointDir);
                                                        });
    if (!dialog || !dialog->startRecordedRun(m_interrupted, true)) // Folio's tagger or a Hugging Face fine-tune
        return false;
    const QString out = m_interrupted.value(QStringLiteral("out")).toString();
    m_interrupted = QJsonObject();
    if (m_banner) {
        if (QAction *resume = m_banner->findChild<QAction *>(QStringLiteral("resumeTrainingAction")))
            resume->setEnabled(false);
    }
    Q_EMIT trainingResumed(out);
    return true;
}

} // namespace folio
