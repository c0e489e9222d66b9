#include "testscript.h"

#include "document/project/project.h"
#include "document/qstree.h"
#include "ui/annotation/annotationsession.h"
#include "ui/commands/fieldcommands.h"
#include "ui/commands/qscommands.h"
#include "ui/documents/scanpanel.h"
#include "ui/qs/qscontroller.h"
#include "ui/qs/qspanel.h"
#include "ui/qs/qstreemodel.h"
#include "ui/mainwindow.h"
#include "ui/palettefollower.h"
#include "ui/sessionrecovery.h"
#include "ui/training/trainingdialog.h"
#include "widgets/palettecolors.h"

#include <QApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QPalette>
#include <QStatusBar>
#include <QStyle>
#include <QTreeView>
#include <QCoreApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLineEdit>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QTimer>

#include <cstdio>

namespace folio {

TestScript::TestScript(MainWindow *window, SessionRecovery *recovery, QObject *parent)
    : QObject(parent), m_window(window), m_recovery(recovery)
{
    // A save that did not reach the disk fails the action it belongs to (it is not acknowledged).
    connect(window->session(), &AnnotationSession::failed, this, [this](const QString &message) {
        m_failed = true;
        say(QStringLiteral("failed %1").arg(message));
    });
}

bool TestScript::load(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot read the test script (%2)").arg(path, f.errorString());
        return false;
    }
    const QJsonDocument doc = QJsonDocument::fromJson(f.read(16 * 1024 * 1024));
    if (!doc.isObject() || !doc.object().value(QStringLiteral("actions")).isArray()) {
        *error = QStringLiteral("%1: not a test script (an object with an \"actions\" array)").arg(path);
        return false;
    }
    m_actions = doc.object().value(QStringLiteral("actions")).toArray();
    m_interval = qBound(0, doc.object().value(QStringLiteral("interval")).toInt(15), 10000);
    return true;
}

void TestScript::say(const QString &line)
{
    std::printf("folio-script %s\n", line.toUtf8().constData());
    std::fflush(stdout);
}

void TestScript::start()
{
    if (!m_recovery->recoveredMessage().isEmpty())
        say(QStringLiteral("recovered ") + QString(m_recovery->recoveredMessage()).replace(QLatin1Char('\n'), QLatin1Char(' ')));
    say(QStringLiteral("ready"));
    QTimer::singleShot(m_interval, this, &TestScript::step);
}

void TestScript::step()
{
    if (m_next >= m_actions.size()) {
        say(QStringLiteral("done"));
        return;
    }
    const QJsonObject action = m_actions.at(m_next).toObject();
    QString why;
    m_failed = false;
    const bool ok = run(action, &why);
    if (!ok && why.isEmpty()) { // waiting for something (a training run)
        QTimer::singleShot(100, this, &TestScript::step);
        return;
    }
    if (ok && !m_failed) {
        m_recovery->flush();
        say(QStringLiteral("ack %1 %2").arg(m_next).arg(action.value(QStringLiteral("do")).toString()));
    } else {
        say(QStringLiteral("error %1 %2").arg(m_next).arg(why.isEmpty() ? QStringLiteral("the save failed") : why));
    }
    ++m_next;
    QTimer::singleShot(m_interval, this, &TestScript::step);
}

bool TestScript::run(const QJsonObject &a, QString *why)
{
    AnnotationSession *session = m_window->session();
    const QString what = a.value(QStringLiteral("do")).toString();
    const auto words = [&a] { return a.value(QStringLiteral("words")).toVariant().toStringList(); };
    const auto refuse = [why](const QString &text) {
        *why = text;
        return false;
    };
    if (what == QLatin1String("label")) {
        session->setSelectedWords(words());
        return session->assignLabel(a.value(QStringLiteral("label")).toString()) || refuse(QStringLiteral("label refused"));
    }
    if (what == QLatin1String("qs")) {
        const QString q = a.value(QStringLiteral("question")).toString(), s = a.value(QStringLiteral("summary")).toString();
        return pushQsEdit(session, QStringLiteral("Add question"), [&](Annotations &ann) { return !qsedit::addChild(ann, {}, q, s).isEmpty(); })
               || refuse(QStringLiteral("qs edit refused"));
    }
    if (what == QLatin1String("field")) {
        Annotations after = session->annotations();
        const QString field = a.value(QStringLiteral("field")).toString();
        return (fieldedits::setValue(after, session->document(), field, words())
                && fieldedits::pushFieldEdit(session, QStringLiteral("Correct %1").arg(field), after))
               || refuse(QStringLiteral("field edit refused"));
    }
    if (what == QLatin1String("qsdraft")) {
        // The Questions dock to the front, the first item's question opened for editing, keys typed
        // into the editor (not committed: no edit yet, only a draft).
        m_window->qs()->dock()->show();
        m_window->qs()->dock()->raise();
        QAbstractItemView *view = m_window->qs()->panel()->view();
        const QModelIndex index = view->model()->index(0, QsTreeModel::QuestionColumn);
        if (!index.isValid())
            return refuse(QStringLiteral("no question to edit"));
        view->setCurrentIndex(index);
        view->edit(index);
        const QList<QLineEdit *> editors = view->viewport()->findChildren<QLineEdit *>();
        if (editors.isEmpty())
            return refuse(QStringLiteral("no editor opened"));
        QLineEdit *editor = editors.last();
        editor->selectAll();
        for (const QChar c : a.value(QStringLiteral("text")).toString()) {
            const int key = c == QLatin1Char(' ') ? int(Qt::Key_Space) : int(c.toUpper().unicode());
            QKeyEvent press(QEvent::KeyPress, key, Qt::NoModifier, QString(c));
            QCoreApplication::sendEvent(editor, &press);
        }
        return editor->text() == a.value(QStringLiteral("text")).toString() || refuse(QStringLiteral("typed, but the editor holds \"%1\"").arg(editor->text()));
    }
    if (what == QLatin1String("word"))
        return session->editWordText(a.value(QStringLiteral("word")).toString(), a.value(QStringLiteral("text")).toString())
               || refuse(QStringLiteral("word edit refused"));
    if (what == QLatin1String("open"))
        return session->openDocumentAt(a.value(QStringLiteral("row")).toInt()) || refuse(QStringLiteral("no such document"));
    if (what == QLatin1String("page")) {
        auto *scan = m_window->findChild<ScanPanel *>();
        const int page = a.value(QStringLiteral("page")).toInt();
        if (!scan || page < 0 || page >= int(session->document().pages.size()))
            return refuse(QStringLiteral("no page %1").arg(page));
        scan->showPage(page);
        return true;
    }
    if (what == QLatin1String("dock")) {
        auto *dock = m_window->findChild<QDockWidget *>(a.value(QStringLiteral("name")).toString());
        if (!dock)
            return refuse(QStringLiteral("no dock %1").arg(a.value(QStringLiteral("name")).toString()));
        dock->setVisible(a.value(QStringLiteral("visible")).toBool());
        return true;
    }
    if (what == QLatin1String("train")) {
        QPointer<MainWindow> window = m_window;
        auto *dialog = TrainingDialog::openBeside(m_window->project(), m_window->modelDirectory(), m_window->projects(), m_window,
                                                  [window](const QString &dir) {
                                                      if (window)
                                                          window->setModelDirectory(dir);
                                                  });
        QJsonObject run = dialog->folioRunDescription();
        run.insert(QStringLiteral("out"), a.value(QStringLiteral("out")).toString());
        run.insert(QStringLiteral("epochs"), a.value(QStringLiteral("epochs")).toInt(1));
        return dialog->startFolioRun(run, false) || refuse(QStringLiteral("training did not start"));
    }
    if (what == QLatin1String("trainhf")) { // Train on Project, Start from a Hugging Face folder
        QPointer<MainWindow> window = m_window;
        auto *dialog = TrainingDialog::openBeside(m_window->project(), m_window->modelDirectory(), m_window->projects(), m_window,
                                                  [window](const QString &dir) {
                                                      if (window)
                                                          window->setModelDirectory(dir);
                                                  });
        const QJsonObject run{{QStringLiteral("kind"), QStringLiteral("hf-finetune")},
                              {QStringLiteral("init"), a.value(QStringLiteral("init")).toString()},
                              {QStringLiteral("out"), a.value(QStringLiteral("out")).toString()},
                              {QStringLiteral("epochs"), a.value(QStringLiteral("epochs")).toInt(1)},
                              {QStringLiteral("maxSteps"), a.value(QStringLiteral("maxSteps")).toDouble(0)}};
        return dialog->startHfRun(run, false) || refuse(QStringLiteral("the fine-tune did not start"));
    }
    if (what == QLatin1String("resume"))
        return m_recovery->resumeTraining() || refuse(QStringLiteral("nothing to resume"));
    if (what == QLatin1String("waittrain"))
        return m_window->modelDirectory() == a.value(QStringLiteral("out")).toString(); // polled until accepted
    if (what == QLatin1String("waittrainend")) // polled until no training run is going on (finished, failed or cancelled)
        return m_recovery->current().training.isEmpty();
    if (what == QLatin1String("sleep")) {
        const int ms = qBound(0, a.value(QStringLiteral("ms")).toInt(), 600000);
        QEventLoop loop;
        QTimer::singleShot(ms, &loop, &QEventLoop::quit);
        loop.exec();
        return true;
    }
    if (what == QLatin1String("report")) {
        QJsonObject state;
        state.insert(QStringLiteral("project"), m_window->project() ? m_window->project()->path() : QString());
        state.insert(QStringLiteral("document"), session->currentDocumentId());
        auto *scan = m_window->findChild<ScanPanel *>();
        state.insert(QStringLiteral("page"), scan ? scan->currentPage() : -1);
        QJsonObject docks;
        for (QDockWidget *dock : m_window->findChildren<QDockWidget *>())
            if (!dock->objectName().isEmpty())
                docks.insert(dock->objectName(), !dock->isHidden()); // open (a tab behind another counts)
        state.insert(QStringLiteral("docks"), docks);
        state.insert(QStringLiteral("banner"), m_recovery->banner() != nullptr);
        // Issue 50: the palette as detected (ui/palettefollower.h), the status bar's message, the
        // window that has the keyboard and the top-level windows shown (a dialog, the command palette).
        state.insert(QStringLiteral("dark"), PaletteFollower::instance() && PaletteFollower::instance()->isDark());
        state.insert(QStringLiteral("paletteChanges"), PaletteFollower::instance() ? PaletteFollower::instance()->changes() : 0);
        state.insert(QStringLiteral("window"), QApplication::palette().color(QPalette::Window).name());
        state.insert(QStringLiteral("status"), m_window->statusBar()->currentMessage());
        state.insert(QStringLiteral("active"), QApplication::activeWindow() ? QApplication::activeWindow()->objectName() : QString());
        QJsonArray shown;
        for (QWidget *w : QApplication::topLevelWidgets())
            if (w->isVisible() && w != m_window && !w->objectName().isEmpty())
                shown.append(w->objectName());
        state.insert(QStringLiteral("shown"), shown);
        say(QStringLiteral("state ") + QString::fromUtf8(QJsonDocument(state).toJson(QJsonDocument::Compact)));
        return true;
    }
    // Issue 50: a widget's picture (the custom views in a dark palette), the palette changed at run time,
    // a step that waits for the test (it sends real keys meanwhile), the status bar cleared.
    if (what == QLatin1String("grab")) {
        QWidget *w = a.value(QStringLiteral("widget")).toString().isEmpty()
                         ? static_cast<QWidget *>(m_window)
                         : m_window->findChild<QWidget *>(a.value(QStringLiteral("widget")).toString());
        if (!w || !w->isVisible())
            return refuse(QStringLiteral("no visible widget \"%1\"").arg(a.value(QStringLiteral("widget")).toString()));
        const QString out = a.value(QStringLiteral("out")).toString();
        return w->grab().save(out, "PNG") || refuse(QStringLiteral("%1: cannot write the PNG file").arg(out));
    }
    if (what == QLatin1String("palette")) {
        const QString to = a.value(QStringLiteral("to")).toString();
        if (to == QLatin1String("dark"))
            QApplication::setPalette(forcedDarkPalette());
        else if (to == QLatin1String("light"))
            QApplication::setPalette(QApplication::style()->standardPalette());
        else
            return refuse(QStringLiteral("palette \"%1\": dark or light").arg(to));
        return true;
    }
    if (what == QLatin1String("waitfile")) // polled until the file exists
        return QFileInfo::exists(a.value(QStringLiteral("path")).toString());
    if (what == QLatin1String("clearstatus")) {
        m_window->statusBar()->clearMessage();
        return true;
    }
    if (what == QLatin1String("quit")) {
        QTimer::singleShot(0, m_window, [w = m_window] { w->close(); });
        return true;
    }
    return refuse(QStringLiteral("unknown action \"%1\"").arg(what));
}

} // namespace folio
