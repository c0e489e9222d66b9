#include "autorun.h"
#include "layoutaudit.h"

#include "ui/attention/attentionpanel.h"
#include "ui/fields/fieldscontroller.h"
#include "ui/mainwindow.h"
#include "ui/qs/qscontroller.h"
#include "ui/resultpresenter.h"
#include "ui/documents/webpagepanel.h"
#include "widgets/stallwatchdog.h"

#include <QApplication>
#include <QDockWidget>
#include <QDateTime>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QPixmap>
#include <QScreen>
#include <QStatusBar>
#include <QWindow>

namespace folio {

namespace {
const qint64 kStepTimeoutMs = 180000;
const qint64 kQuietMs = 400; // idle this long before the next step
const qint64 kSuggestGraceMs = 3000; // the model worker idle this long with nothing presented: Suggest Labels ended without a result

// The dock that shows each step's result.
QString resultDock(const QString &step)
{
    if (step == QLatin1String("suggest"))
        return QStringLiteral("annotationsDock");
    if (step == QLatin1String("generate"))
        return QStringLiteral("qsDock");
    if (step == QLatin1String("extract"))
        return QStringLiteral("fieldsDock");
    if (step == QLatin1String("attention"))
        return QStringLiteral("attentionDock");
    return {};
}
} // namespace

AutoRun::AutoRun(MainWindow *window, StallWatchdog *watchdog, const QStringList &steps, const QString &screenshot,
                 bool expectDocument, QObject *parent)
    : QObject(parent), m_window(window), m_watchdog(watchdog), m_steps(steps), m_screenshot(screenshot),
      m_expectDocument(expectDocument)
{
    connect(m_window->statusBar(), &QStatusBar::messageChanged, this, [this](const QString &text) {
        if (!text.isEmpty() && m_messages.size() < 500)
            m_messages << text;
    });
    if (auto *qs = m_window->findChild<QsController *>())
        connect(qs, &QsController::generationFinished, this, [this](int added) {
            if (m_running == QLatin1String("generate"))
                finishStep(added < 0 ? QStringLiteral("failed or cancelled") : QStringLiteral("%1 questions added").arg(added));
        });
    if (auto *fields = m_window->findChild<FieldsController *>())
        connect(fields, &FieldsController::extractionFinished, this, [this, fields](bool ok) {
            if (m_running == QLatin1String("extract"))
                finishStep(ok ? QStringLiteral("extracted: ") + fields->lastMessage() : QStringLiteral("failed: ") + fields->lastMessage());
        });
    if (auto *attention = m_window->findChild<AttentionPanel *>())
        connect(attention, &AttentionPanel::runFinished, this, [this, attention](bool ok) {
            if (m_running != QLatin1String("attention"))
                return;
            // A word in the middle of the document selected, so the page shows its attention: after the
            // check that the result came to the front (auditFront), as a user would after seeing it.
            m_selectMiddleWord = ok;
            finishStep(ok ? QStringLiteral("shown: ") + attention->statusText() : QStringLiteral("failed: ") + m_window->statusBar()->currentMessage());
        });
    if (ResultPresenter *results = m_window->results())
        connect(results, &ResultPresenter::presented, this, [this](const QString &action, const QString &dock, const QString &message) {
            if (m_running != action)
                return;
            m_presentedDock = dock;
            m_presentedMessage = message;
            // Suggest Labels has no finished signal of its own: its result being presented ends it.
            if (action == QLatin1String("suggest"))
                finishStep(QStringLiteral("done: ") + message);
        });
    m_poll.setInterval(50);
    connect(&m_poll, &QTimer::timeout, this, &AutoRun::poll);
}

void AutoRun::start()
{
    m_stepStarted = QDateTime::currentMSecsSinceEpoch();
    m_poll.start();
}

bool AutoRun::idle() const
{
    if (m_window->isBusy())
        return false;
    if (m_expectDocument && !m_window->currentDocument())
        return false;
    return true;
}

void AutoRun::poll()
{
    if (m_done)
        return;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (m_frontCheck >= 0)
        auditFront();
    if (!m_running.isEmpty()) {
        // Suggest Labels ends when its result is presented; a model worker idle for a while without one
        // (a failure reported in a dialog) ends it too.
        if (m_running == QLatin1String("suggest") && m_window->isBusy())
            m_quietSince = -1;
        else if (m_running == QLatin1String("suggest") && m_quietSince < 0)
            m_quietSince = now;
        if (m_running == QLatin1String("suggest") && m_quietSince >= 0 && now - m_quietSince > kSuggestGraceMs) {
            m_quietSince = -1;
            finishStep(QStringLiteral("ended without a result: ") + m_window->statusBar()->currentMessage());
        } else if (now - m_stepStarted > kStepTimeoutMs)
            finishStep(QStringLiteral("timed out after %1 s").arg(kStepTimeoutMs / 1000));
        return;
    }
    if (!idle()) {
        m_quietSince = -1;
        if (now - m_stepStarted > kStepTimeoutMs * 2 && m_next == 0) {
            m_stepReports.append(QJsonObject{{QStringLiteral("step"), QStringLiteral("open")},
                                             {QStringLiteral("outcome"), QStringLiteral("timed out waiting for the document")}});
            takeScreenshot();
        }
        return;
    }
    if (m_quietSince < 0) {
        m_quietSince = now;
        return;
    }
    if (now - m_quietSince < kQuietMs)
        return;
    m_quietSince = -1;
    if (m_next < m_steps.size()) {
        startStep(m_steps[m_next++]);
        return;
    }
    takeScreenshot();
}

void AutoRun::startStep(const QString &step)
{
    m_watchdog->setPhase(step);
    m_running = step;
    m_presentedDock.clear();
    m_presentedMessage.clear();
    m_quietSince = -1;
    m_stepStarted = QDateTime::currentMSecsSinceEpoch();
    bool started = true;
    QString why;
    if (step == QLatin1String("suggest")) {
        m_window->suggestLabels();
        started = m_window->isBusy();
        why = m_window->statusBar()->currentMessage();
    } else if (step == QLatin1String("generate")) {
        auto *qs = m_window->findChild<QsController *>();
        started = qs && qs->generate();
        why = qs ? qs->lastMessage() : QStringLiteral("no Questions controller");
    } else if (step == QLatin1String("extract")) {
        auto *fields = m_window->findChild<FieldsController *>();
        started = fields && fields->extractFields();
        why = fields ? fields->lastMessage() : QStringLiteral("no Fields controller");
    } else if (step == QLatin1String("attention")) {
        auto *attention = m_window->findChild<AttentionPanel *>();
        m_window->showAttention();
        started = attention && attention->isRunning();
        why = m_window->statusBar()->currentMessage();
    } else {
        started = false;
        why = QStringLiteral("unknown step (suggest, generate, extract, attention)");
    }
    if (!started && m_running == step) // (a step that failed at once has finished itself)
        finishStep(QStringLiteral("not started: ") + why);
}

void AutoRun::finishStep(const QString &outcome)
{
    const qint64 ms = QDateTime::currentMSecsSinceEpoch() - m_stepStarted;
    m_stepReports.append(QJsonObject{{QStringLiteral("step"), m_running},
                                     {QStringLiteral("outcome"), outcome},
                                     {QStringLiteral("ms"), ms},
                                     {QStringLiteral("longestStallMs"), m_watchdog->longestStallMs(m_running)},
                                     {QStringLiteral("presentedDock"), m_presentedDock}});
    // A step that ran: whether its result came to the front, looked at once the layout has settled.
    m_frontCheck = outcome.startsWith(QLatin1String("not started")) ? -1 : int(m_stepReports.size()) - 1;
    m_watchdog->mark(QStringLiteral("step %1 finished: %2").arg(m_running, outcome));
    m_watchdog->setPhase(QStringLiteral("idle"));
    m_running.clear();
    m_quietSince = -1;
    m_stepStarted = QDateTime::currentMSecsSinceEpoch();
}

void AutoRun::auditFront()
{
    QJsonObject step = m_stepReports.at(m_frontCheck).toObject();
    step.insert(QStringLiteral("front"), auditResultShown(m_window, resultDock(step.value(QStringLiteral("step")).toString()), m_presentedMessage));
    m_stepReports.replace(m_frontCheck, step);
    m_frontCheck = -1;
    if (m_selectMiddleWord && m_window->currentDocument() && !m_window->currentDocument()->words.empty())
        if (auto *attention = m_window->findChild<AttentionPanel *>())
            attention->selectWord(int(m_window->currentDocument()->words.size() / 2));
    m_selectMiddleWord = false;
}

void AutoRun::takeScreenshot()
{
    m_done = true;
    m_poll.stop();
    m_watchdog->setPhase(QStringLiteral("screenshot"));
    if (!m_screenshot.isEmpty()) {
        QPixmap shot;
        // On a real screen, the X server's pixels of the window (what a user sees); offscreen, the grab.
        if (QGuiApplication::platformName() == QLatin1String("xcb") && m_window->screen())
            shot = m_window->screen()->grabWindow(0, m_window->frameGeometry().x(), m_window->frameGeometry().y(),
                                                  m_window->frameGeometry().width(), m_window->frameGeometry().height());
        if (shot.isNull() || shot.toImage().allGray()) // a black grab (no compositor): fall back
            shot = m_window->grab();
        if (shot.save(m_screenshot))
            m_screenshotSaved = m_screenshot;
    }
    m_watchdog->mark(QStringLiteral("screenshot saved"));
    auditDocks();
    QTimer::singleShot(0, qApp, &QApplication::quit);
}

void AutoRun::auditDocks()
{
    // What the screenshot shows, then each dock tabbed behind another one brought to the front in turn
    // (the Questions and Fields docks share a tab group with Annotations), checked on the widgets.
    m_layoutAudit = auditLayout(m_window);
    QJsonArray narrow = m_layoutAudit.value(QStringLiteral("narrowDocks")).toArray();
    QJsonArray cut = m_layoutAudit.value(QStringLiteral("cutTexts")).toArray();
    int checked = m_layoutAudit.value(QStringLiteral("checkedTexts")).toInt();
    QStringList raised;
    const QList<QDockWidget *> docks = m_window->findChildren<QDockWidget *>();
    for (QDockWidget *dock : docks) {
        if (dock->isFloating() || dock->isHidden() || !dock->visibleRegion().isEmpty() || m_window->tabifiedDockWidgets(dock).isEmpty())
            continue;
        QList<QDockWidget *> front;
        for (QDockWidget *other : m_window->tabifiedDockWidgets(dock))
            if (!other->visibleRegion().isEmpty())
                front << other;
        dock->raise();
        QCoreApplication::processEvents();
        const QJsonObject more = auditLayout(m_window);
        for (const QJsonValue &v : more.value(QStringLiteral("narrowDocks")).toArray())
            if (!narrow.contains(v))
                narrow.append(v);
        for (const QJsonValue &v : more.value(QStringLiteral("cutTexts")).toArray())
            if (!cut.contains(v))
                cut.append(v);
        checked += more.value(QStringLiteral("checkedTexts")).toInt();
        raised << dock->windowTitle();
        for (QDockWidget *other : front)
            other->raise();
    }
    m_layoutAudit.insert(QStringLiteral("narrowDocks"), narrow);
    m_layoutAudit.insert(QStringLiteral("cutTexts"), cut);
    m_layoutAudit.insert(QStringLiteral("checkedTexts"), checked);
    m_layoutAudit.insert(QStringLiteral("docksRaised"), QJsonArray::fromStringList(raised));
}

QJsonObject AutoRun::report() const
{
    QJsonObject o;
    o.insert(QStringLiteral("steps"), m_stepReports);
    o.insert(QStringLiteral("messages"), QJsonArray::fromStringList(m_messages));
    if (auto *web = m_window->findChild<WebPagePanel *>()) {
        if (auto *header = web->findChild<QLabel *>(QStringLiteral("webStatus")))
            o.insert(QStringLiteral("webStatus"), header->text());
        o.insert(QStringLiteral("webRendered"), web->isRendered());
    }
    o.insert(QStringLiteral("screenshot"), m_screenshotSaved);
    o.insert(QStringLiteral("layout"), m_layoutAudit);
    o.insert(QStringLiteral("windowSize"), QStringLiteral("%1x%2").arg(m_window->width()).arg(m_window->height()));
    if (const Document *doc = m_window->currentDocument())
        o.insert(QStringLiteral("document"), QJsonObject{{QStringLiteral("path"), doc->sourcePath},
                                                          {QStringLiteral("words"), int(doc->words.size())},
                                                          {QStringLiteral("pages"), int(doc->pages.size())}});
    return o;
}

} // namespace folio
