#include "ui/team/teamcontroller.h"

#include "ui/annotation/annotationsession.h"
#include "ui/documents/documentlistpanel.h"
#include "ui/team/mergedialog.h"
#include "ui/team/projectservice.h"

#include <QInputDialog>
#include <QLineEdit>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>

namespace folio {

TeamController::TeamController(QMainWindow *window, AnnotationSession *session, ProjectService *projects,
                               DocumentListPanel *list)
    : QObject(window), m_window(window), m_session(session), m_projects(projects), m_list(list), m_timer(new QTimer(this)),
      m_label(new QLabel(window))
{
    m_label->setObjectName(QStringLiteral("teamLabel"));
    m_timer->setInterval(3000);
    connect(m_timer, &QTimer::timeout, this, &TeamController::pollNow);
    m_timer->start();
    connect(projects, &ProjectService::projectOpened, this, &TeamController::onProjectOpened);
    connect(session, &AnnotationSession::documentOpened, this, [this] { pollNow(); });
    connect(session, &AnnotationSession::conflicted, this, &TeamController::onConflict);
    connect(session, &AnnotationSession::saved, this, [this] {
        if (Project *p = project())
            m_counter = p->changeCounter(); // our own save is not "someone else's change"
    });
}

MergeDialog *TeamController::mergeDialog() const
{
    return m_merge;
}

Project *TeamController::project() const
{
    return m_projects->project();
}

void TeamController::message(const QString &text, int ms)
{
    m_window->statusBar()->showMessage(text, ms);
}

void TeamController::setPollInterval(int ms)
{
    m_timer->setInterval(ms);
}

void TeamController::onProjectOpened()
{
    const QString user = QSettings().value(QStringLiteral("team/user")).toString();
    if (Project *p = project()) {
        if (!user.isEmpty())
            p->setUser(user);
        m_counter = p->changeCounter();
    }
    pollNow();
}

void TeamController::pollNow()
{
    Project *p = project();
    if (!p)
        return;
    QString error;
    const qint64 doc = m_session->currentDocumentId();
    if (!p->isReadOnly())
        p->heartbeat(doc, &error); // a failure here is not worth a message; the next poll retries
    QStringList others;
    for (const PresenceEntry &e : p->presence(30, &error))
        if (e.documentId == doc && doc >= 0 && e.user != p->user() && !others.contains(e.user))
            others << e.user;
    if (others != m_others) {
        m_others = others;
        Q_EMIT presenceChanged(m_others);
    }
    const qint64 counter = p->changeCounter();
    if (counter >= 0 && counter != m_counter) {
        m_counter = counter;
        m_list->refresh();
        bool reloaded = false;
        if (doc >= 0 && !m_session->hasConflict() && m_session->storedRevisionChanged()) {
            std::vector<HistoryEntry> h = p->history(doc, &error);
            const QString who = h.empty() ? tr("Someone") : h.back().user;
            reloaded = m_session->reloadStored();
            if (reloaded)
                message(tr("%1 changed this document: showing the stored version").arg(who), 10000);
        }
        Q_EMIT changedElsewhere(reloaded);
    }
    updateLabel();
}

void TeamController::updateLabel()
{
    Project *p = project();
    const qint64 doc = m_session->currentDocumentId();
    QStringList parts;
    if (p) {
        parts << tr("You: %1").arg(p->user());
        QString error;
        DocumentAssignment who;
        if (doc >= 0 && p->documentAssignment(doc, &who, &error) && !who.user.isEmpty())
            parts << tr("%1 %2").arg(who.how == QLatin1String("claimed") ? tr("claimed by") : tr("assigned to"), who.user);
        DocumentReview review;
        if (doc >= 0 && p->documentReview(doc, &review, &error) && review.status != ReviewStatus::None)
            parts << tr("review: %1").arg(reviewStatusName(review.status));
    }
    if (!m_others.isEmpty())
        parts << tr("also here: %1").arg(m_others.join(QStringLiteral(", ")));
    if (m_session->hasConflict())
        parts << tr("NOT SAVED: merge needed (Team > Merge…)");
    m_label->setText(parts.join(QStringLiteral("  ·  ")));
}

void TeamController::onConflict(const SaveConflict &conflict, const QString &message)
{
    m_conflict = conflict;
    this->message(message, 15000);
    updateLabel();
    // Not inside the undo stack's push that triggered the save: open the view afterwards.
    QTimer::singleShot(0, this, &TeamController::openMergeView);
}

void TeamController::openMergeView()
{
    Project *p = project();
    if (m_merge || !p || !m_session->hasConflict())
        return;
    Annotations theirs;
    int revision = 0;
    QString error;
    if (!p->loadAnnotations(m_session->currentDocumentId(), &theirs, &revision, &error)) {
        message(error);
        return;
    }
    m_conflict.storedRevision = revision;
    m_merge = new MergeDialog(m_conflict, theirs, m_session->annotations(), &m_session->document(), m_window);
    m_merge->setAttribute(Qt::WA_DeleteOnClose);
    const QString changedBy = m_conflict.changedBy;
    connect(m_merge, &QDialog::finished, this, [this, revision, changedBy](int result) {
        if (!m_merge)
            return;
        if (result == QDialog::Accepted) {
            const bool ok = m_merge->tookTheirs() ? m_session->reloadStored()
                                                  : m_session->resolveConflict(m_merge->merged(), revision, changedBy);
            message(ok ? tr("Merged with %1's version and saved").arg(changedBy) : tr("The merge could not be saved"));
        } else {
            message(tr("Your changes are not saved yet: Team > Merge… when you are ready"), 15000);
        }
        updateLabel();
    });
    m_merge->open();
}

bool TeamController::signInAs(const QString &user)
{
    Project *p = project();
    if (!p || user.trimmed().isEmpty())
        return false;
    QString error;
    if (!p->isReadOnly())
        p->leave(&error); // the previous name is no longer on any document
    p->setUser(user.trimmed());
    QSettings().setValue(QStringLiteral("team/user"), user.trimmed());
    UserRole role;
    message(p->userRole(p->user(), &role) ? tr("Signed in as %1 (%2)").arg(p->user(), userRoleName(role))
                                          : tr("Signed in as %1 (not a user of this project: single-user rules)").arg(p->user()));
    pollNow();
    return true;
}

bool TeamController::claimCurrent()
{
    Project *p = project();
    QString error;
    if (!p || m_session->currentDocumentId() < 0 || !p->claimDocument(m_session->currentDocumentId(), &error)) {
        message(error.isEmpty() ? tr("No document to claim") : error, 10000);
        return false;
    }
    message(tr("You have this document now"));
    pollNow();
    return true;
}

bool TeamController::setCurrentReview(ReviewStatus status, const QString &note)
{
    Project *p = project();
    QString error;
    if (!p || m_session->currentDocumentId() < 0 || !p->setReview(m_session->currentDocumentId(), status, note, &error)) {
        message(error.isEmpty() ? tr("No document open") : error, 10000);
        return false;
    }
    message(tr("Review: %1").arg(reviewStatusName(status)));
    pollNow();
    return true;
}

void TeamController::showHistory()
{
    Project *p = project();
    if (!p || m_session->currentDocumentId() < 0)
        return;
    QString error;
    QStringList lines;
    for (const HistoryEntry &h : p->history(m_session->currentDocumentId(), &error))
        lines << QStringLiteral("%1  %2  %3  %4").arg(h.at.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")), h.user,
                                                      h.action, h.detail);
    QMessageBox box(QMessageBox::Information, tr("Document history"),
                    lines.isEmpty() ? (error.isEmpty() ? tr("No history yet") : error) : lines.join(QLatin1Char('\n')),
                    QMessageBox::Close, m_window);
    box.exec();
}

void TeamController::addMenu(QMenuBar *bar)
{
    QMenu *team = bar->addMenu(tr("&Team"));
    team->addAction(tr("Sign In As…"), this, [this] {
        Project *p = project();
        if (!p)
            return;
        QStringList names;
        for (const ProjectUser &u : p->users())
            names << u.name;
        bool ok = false;
        const QString user = QInputDialog::getItem(m_window, tr("Sign in as"), tr("User"), names.isEmpty() ? QStringList{p->user()} : names,
                                                   0, true, &ok);
        if (ok)
            signInAs(user);
    });
    team->addSeparator();
    team->addAction(tr("&Claim Document"), this, [this] { claimCurrent(); });
    team->addAction(tr("S&ubmit for Review"), this, [this] { setCurrentReview(ReviewStatus::Submitted); });
    team->addAction(tr("&Accept Review"), this, [this] { setCurrentReview(ReviewStatus::Accepted); });
    team->addAction(tr("Send &Back…"), this, [this] {
        bool ok = false;
        const QString note = QInputDialog::getText(m_window, tr("Send back"), tr("What needs fixing?"), QLineEdit::Normal, QString(), &ok);
        if (ok)
            setCurrentReview(ReviewStatus::SentBack, note);
    });
    team->addSeparator();
    team->addAction(tr("Document &History…"), this, &TeamController::showHistory);
    team->addAction(tr("&Merge With Stored Version…"), this, &TeamController::openMergeView);
}

} // namespace folio
