// Several annotators on one project: users and roles, who has a document, review states, the
// history, presence heartbeats and the change counter (schema 4 and 5, projectschema.cpp).
#include "document/project/projectprivate.h"

#include <QSet>

#include <map>

namespace folio {

QString userRoleName(UserRole role)
{
    switch (role) {
    case UserRole::Annotator: return QStringLiteral("annotator");
    case UserRole::Reviewer: return QStringLiteral("reviewer");
    case UserRole::Admin: return QStringLiteral("admin");
    }
    return QStringLiteral("annotator");
}

UserRole userRoleFromName(const QString &name, bool *ok)
{
    if (ok)
        *ok = true;
    if (name == QLatin1String("reviewer"))
        return UserRole::Reviewer;
    if (name == QLatin1String("admin"))
        return UserRole::Admin;
    if (ok)
        *ok = name == QLatin1String("annotator");
    return UserRole::Annotator;
}

QString reviewStatusName(ReviewStatus status)
{
    switch (status) {
    case ReviewStatus::None: return QStringLiteral("none");
    case ReviewStatus::Submitted: return QStringLiteral("submitted");
    case ReviewStatus::Accepted: return QStringLiteral("accepted");
    case ReviewStatus::SentBack: return QStringLiteral("sent-back");
    }
    return QStringLiteral("none");
}

ReviewStatus reviewStatusFromName(const QString &name, bool *ok)
{
    if (ok)
        *ok = true;
    if (name == QLatin1String("submitted"))
        return ReviewStatus::Submitted;
    if (name == QLatin1String("accepted"))
        return ReviewStatus::Accepted;
    if (name == QLatin1String("sent-back"))
        return ReviewStatus::SentBack;
    if (ok)
        *ok = name == QLatin1String("none");
    return ReviewStatus::None;
}

// "+2 entities, -1 entity, 1 relabelled; links +1, -1; fields ~1"
QString annotationChangeSummary(const Annotations &before, const Annotations &after)
{
    auto plural = [](int n, const char *word) {
        return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(word)).arg(n == 1 ? QString() : QStringLiteral("s"));
    };
    QStringList parts;
    {
        std::map<QString, const Entity *> old;
        for (const Entity &e : before.entities)
            old[e.id] = &e;
        int added = 0, relabelled = 0, changed = 0;
        for (const Entity &e : after.entities) {
            auto it = old.find(e.id);
            if (it == old.end()) {
                ++added;
                continue;
            }
            if (it->second->label != e.label)
                ++relabelled;
            else if (it->second->wordIds != e.wordIds || it->second->state != e.state)
                ++changed;
            old.erase(it);
        }
        QStringList p;
        if (added)
            p << QLatin1Char('+') + plural(added, "entity").replace(QLatin1String("entitys"), QLatin1String("entities"));
        if (!old.empty())
            p << QLatin1Char('-') + plural(int(old.size()), "entity").replace(QLatin1String("entitys"), QLatin1String("entities"));
        if (relabelled)
            p << QStringLiteral("%1 relabelled").arg(relabelled);
        if (changed)
            p << QStringLiteral("%1 changed").arg(changed);
        if (!p.isEmpty())
            parts << p.join(QStringLiteral(", "));
    }
    auto countDiff = [&](const char *what, QSet<QString> a, const QSet<QString> &b) {
        const int removed = int((a - b).size());
        const int added = int((b - a).size());
        if (added || removed)
            parts << QStringLiteral("%1 +%2 -%3").arg(QLatin1String(what)).arg(added).arg(removed);
    };
    QSet<QString> la, lb, fa, fb;
    for (const Link &l : before.links)
        la << l.id + l.from + l.to;
    for (const Link &l : after.links)
        lb << l.id + l.from + l.to;
    for (const FieldValue &f : before.fields)
        fa << f.field + QLatin1Char(0x1f) + f.text + reviewStateName(f.state);
    for (const FieldValue &f : after.fields)
        fb << f.field + QLatin1Char(0x1f) + f.text + reviewStateName(f.state);
    countDiff("links", la, lb);
    countDiff("fields", fa, fb);
    if (before.qsSummary != after.qsSummary || before.qsRoots.size() != after.qsRoots.size())
        parts << QStringLiteral("question-summary tree");
    return parts.isEmpty() ? QStringLiteral("no change") : parts.join(QStringLiteral("; "));
}

QString Project::user() const { return d->user; }
void Project::setUser(const QString &name) { d->user = name.trimmed().isEmpty() ? defaultUser() : name.trimmed(); }

static bool needTeams(const Project::Private &d, int version, QString *error)
{
    if (d.schemaVersion >= version)
        return true;
    if (error)
        *error = d.fail(QStringLiteral("schema version %1 has no team tables; open the project read-write once to "
                                       "upgrade it")
                            .arg(d.schemaVersion));
    return false;
}

std::vector<ProjectUser> Project::users(QString *error) const
{
    std::vector<ProjectUser> out;
    if (!d->revive(error) || !needTeams(*d, 4, error))
        return out;
    QSqlQuery q(d->db);
    if (!q.exec(QStringLiteral("SELECT name, role FROM users ORDER BY name"))) {
        d->setError(error, d->failSql(q));
        return out;
    }
    while (q.next())
        out.push_back({q.value(0).toString(), userRoleFromName(q.value(1).toString())});
    return out;
}

bool Project::userRole(const QString &name, UserRole *role) const
{
    if (!d->hasTeams())
        return false;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("SELECT role FROM users WHERE name = ?"));
    q.addBindValue(name);
    if (!q.exec() || !q.next())
        return false;
    *role = userRoleFromName(q.value(0).toString());
    return true;
}

// Whether the acting user may do what needs one of `roles`. A project without users checks
// nothing.
static bool allowed(const Project &p, const Project::Private &d, std::initializer_list<UserRole> roles,
                    const QString &what, QString *error)
{
    QSqlQuery q(const_cast<QSqlDatabase &>(d.db));
    if (!q.exec(QStringLiteral("SELECT count(*) FROM users")) || !q.next())
        return true;
    if (q.value(0).toInt() == 0)
        return true;
    UserRole role;
    if (!p.userRole(d.user, &role)) {
        if (error)
            *error = d.fail(QStringLiteral("%1 is not a user of this project (%2 needs a user with a role)").arg(d.user, what));
        return false;
    }
    for (UserRole r : roles)
        if (r == role)
            return true;
    QStringList names;
    for (UserRole r : roles)
        names << userRoleName(r);
    if (error)
        *error = d.fail(QStringLiteral("%1 is %2: %3 needs %4").arg(d.user, userRoleName(role), what, names.join(QStringLiteral(" or "))));
    return false;
}

static bool validUserName(const QString &name)
{
    if (name.isEmpty() || name.size() > 64)
        return false;
    for (QChar c : name)
        if (!(c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('_') || c == QLatin1Char('-')
              || c == QLatin1Char('@')))
            return false;
    return true;
}

bool Project::addUser(const QString &name, UserRole role, QString *error)
{
    if (!needTeams(*d, 4, error))
        return false;
    if (!validUserName(name))
        return d->setError(error, d->fail(QStringLiteral("invalid user name \"%1\" (letters, digits, . _ - @; at most 64)").arg(name)));
    if (!d->begin(error))
        return false;
    QSqlQuery count(d->db);
    if (!count.exec(QStringLiteral("SELECT count(*) FROM users")) || !count.next())
        return d->rollbackWith(error, d->failSql(count));
    if (count.value(0).toInt() == 0 && role != UserRole::Admin)
        return d->rollbackWith(error, d->fail(QStringLiteral("the first user of a project must be an admin")));
    QString e;
    if (!allowed(*this, *d, {UserRole::Admin}, QStringLiteral("adding users"), &e))
        return d->rollbackWith(error, e);
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("INSERT INTO users (name, role, added) VALUES (?, ?, ?) "
                             "ON CONFLICT (name) DO UPDATE SET role = excluded.role"));
    q.addBindValue(name);
    q.addBindValue(userRoleName(role));
    q.addBindValue(projectNow());
    if (!q.exec())
        return d->rollbackWith(error, d->failSql(q));
    return d->commit(error);
}

bool Project::removeUser(const QString &name, QString *error)
{
    if (!needTeams(*d, 4, error) || !d->begin(error))
        return false;
    QString e;
    if (!allowed(*this, *d, {UserRole::Admin}, QStringLiteral("removing users"), &e))
        return d->rollbackWith(error, e);
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("DELETE FROM users WHERE name = ?"));
    q.addBindValue(name);
    if (!q.exec())
        return d->rollbackWith(error, d->failSql(q));
    if (q.numRowsAffected() == 0)
        return d->rollbackWith(error, d->fail(QStringLiteral("no user named %1").arg(name)));
    QSqlQuery admins(d->db);
    if (!admins.exec(QStringLiteral("SELECT count(*) FILTER (WHERE role = 'admin'), count(*) FROM users")) || !admins.next())
        return d->rollbackWith(error, d->failSql(admins));
    if (admins.value(0).toInt() == 0 && admins.value(1).toInt() > 0)
        return d->rollbackWith(error, d->fail(QStringLiteral("%1 is the last admin; add another admin first").arg(name)));
    return d->commit(error);
}

// Writes (or clears) the assignment row and its history line, inside the caller's transaction.
static bool writeAssignment(Project::Private &d, qint64 id, const QString &user, const QString &how, QString *error)
{
    QSqlQuery q(d.db);
    if (user.isEmpty()) {
        q.prepare(QStringLiteral("DELETE FROM assignments WHERE document_id = ?"));
        q.addBindValue(id);
    } else {
        q.prepare(QStringLiteral("INSERT INTO assignments (document_id, user_name, how, by_user, at) VALUES (?, ?, ?, ?, ?) "
                                 "ON CONFLICT (document_id) DO UPDATE SET user_name = excluded.user_name, "
                                 "how = excluded.how, by_user = excluded.by_user, at = excluded.at"));
        q.addBindValue(id);
        q.addBindValue(user);
        q.addBindValue(how);
        q.addBindValue(d.user);
        q.addBindValue(projectNow());
    }
    if (!q.exec())
        return d.setError(error, d.failSql(q));
    const QString detail = user.isEmpty() ? QStringLiteral("unassigned")
                                          : (how == QLatin1String("claimed") ? QStringLiteral("claimed by %1").arg(user)
                                                                             : QStringLiteral("assigned to %1").arg(user));
    return d.recordHistory(id, 0, how == QLatin1String("claimed") ? QStringLiteral("claim") : QStringLiteral("assign"),
                           detail, error);
}

bool Project::assignDocument(qint64 id, const QString &user, QString *error)
{
    if (!needTeams(*d, 4, error) || !d->begin(error))
        return false;
    QString e;
    UserRole role;
    if (!allowed(*this, *d, {UserRole::Admin, UserRole::Reviewer}, QStringLiteral("assigning documents"), &e)
        || !d->exists(id, &e))
        return d->rollbackWith(error, e);
    if (!user.isEmpty() && !userRole(user, &role))
        return d->rollbackWith(error, d->fail(QStringLiteral("no user named %1 (add it first: project users --add)").arg(user)));
    if (!writeAssignment(*d, id, user, QStringLiteral("assigned"), &e))
        return d->rollbackWith(error, e);
    return d->commit(error);
}

bool Project::claimDocument(qint64 id, QString *error)
{
    if (!needTeams(*d, 4, error) || !d->begin(error))
        return false;
    QString e;
    if (!allowed(*this, *d, {UserRole::Admin, UserRole::Reviewer, UserRole::Annotator}, QStringLiteral("claiming"), &e)
        || !d->exists(id, &e))
        return d->rollbackWith(error, e);
    DocumentAssignment who;
    if (!documentAssignment(id, &who, &e))
        return d->rollbackWith(error, e);
    if (!who.user.isEmpty() && who.user != d->user)
        return d->rollbackWith(error, d->fail(QStringLiteral("document %1 is already %2 %3")
                                                  .arg(id)
                                                  .arg(who.how == QLatin1String("claimed") ? QStringLiteral("claimed by")
                                                                                         : QStringLiteral("assigned to"),
                                                       who.user)));
    if (who.user == d->user) { // already theirs: nothing to write
        d->db.rollback();
        return true;
    }
    // Two claims at once: the insert of the second fails on the primary key or finds the row.
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("INSERT INTO assignments (document_id, user_name, how, by_user, at) VALUES (?, ?, 'claimed', ?, ?) "
                             "ON CONFLICT (document_id) DO NOTHING"));
    q.addBindValue(id);
    q.addBindValue(d->user);
    q.addBindValue(d->user);
    q.addBindValue(projectNow());
    if (!q.exec())
        return d->rollbackWith(error, d->failSql(q));
    if (q.numRowsAffected() == 0)
        return d->rollbackWith(error, d->fail(QStringLiteral("document %1 was claimed by someone else just now").arg(id)));
    if (!d->recordHistory(id, 0, QStringLiteral("claim"), QStringLiteral("claimed by %1").arg(d->user), &e))
        return d->rollbackWith(error, e);
    return d->commit(error);
}

bool Project::documentAssignment(qint64 id, DocumentAssignment *assignment, QString *error) const
{
    *assignment = DocumentAssignment();
    assignment->documentId = id;
    if (!d->hasTeams())
        return true;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("SELECT user_name, how, by_user, at FROM assignments WHERE document_id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return d->setError(error, d->failSql(q));
    if (q.next()) {
        assignment->user = q.value(0).toString();
        assignment->how = q.value(1).toString();
        assignment->by = q.value(2).toString();
        assignment->at = QDateTime::fromString(q.value(3).toString(), Qt::ISODateWithMs);
    }
    return true;
}

std::vector<qint64> Project::documentsOf(const QString &user, QString *error) const
{
    std::vector<qint64> out;
    if (!d->revive(error) || !needTeams(*d, 4, error))
        return out;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("SELECT document_id FROM assignments WHERE user_name = ? ORDER BY document_id"));
    q.addBindValue(user);
    if (!q.exec()) {
        d->setError(error, d->failSql(q));
        return out;
    }
    while (q.next())
        out.push_back(q.value(0).toLongLong());
    return out;
}

bool Project::setReview(qint64 id, ReviewStatus status, const QString &note, QString *error)
{
    if (!needTeams(*d, 4, error) || !d->begin(error))
        return false;
    QString e;
    const bool judging = status == ReviewStatus::Accepted || status == ReviewStatus::SentBack;
    if (judging && !allowed(*this, *d, {UserRole::Admin, UserRole::Reviewer}, QStringLiteral("accepting or sending back"), &e))
        return d->rollbackWith(error, e);
    if (!judging && !allowed(*this, *d, {UserRole::Admin, UserRole::Reviewer, UserRole::Annotator},
                             QStringLiteral("submitting"), &e))
        return d->rollbackWith(error, e);
    if (!d->exists(id, &e))
        return d->rollbackWith(error, e);
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("INSERT INTO reviews (document_id, state, by_user, note, at) VALUES (?, ?, ?, ?, ?) "
                             "ON CONFLICT (document_id) DO UPDATE SET state = excluded.state, by_user = excluded.by_user, "
                             "note = excluded.note, at = excluded.at"));
    q.addBindValue(id);
    q.addBindValue(reviewStatusName(status));
    q.addBindValue(d->user);
    q.addBindValue(sqlText(note));
    q.addBindValue(projectNow());
    if (!q.exec())
        return d->rollbackWith(error, d->failSql(q));
    const QString detail = note.isEmpty() ? reviewStatusName(status) : reviewStatusName(status) + QStringLiteral(": ") + note;
    if (!d->recordHistory(id, 0, QStringLiteral("review"), detail, &e))
        return d->rollbackWith(error, e);
    return d->commit(error);
}

bool Project::documentReview(qint64 id, DocumentReview *review, QString *error) const
{
    *review = DocumentReview();
    if (!d->hasTeams())
        return true;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("SELECT state, by_user, note, at FROM reviews WHERE document_id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return d->setError(error, d->failSql(q));
    if (q.next()) {
        review->status = reviewStatusFromName(q.value(0).toString());
        review->by = q.value(1).toString();
        review->note = q.value(2).toString();
        review->at = QDateTime::fromString(q.value(3).toString(), Qt::ISODateWithMs);
    }
    return true;
}

std::vector<HistoryEntry> Project::history(qint64 id, QString *error) const
{
    std::vector<HistoryEntry> out;
    if (!d->revive(error) || !needTeams(*d, 4, error))
        return out;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("SELECT revision, user_name, action, detail, at FROM history WHERE document_id = ? ORDER BY id"));
    q.addBindValue(id);
    if (!q.exec()) {
        d->setError(error, d->failSql(q));
        return out;
    }
    while (q.next())
        out.push_back({id, q.value(0).toInt(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
                       QDateTime::fromString(q.value(4).toString(), Qt::ISODateWithMs)});
    return out;
}

bool Project::heartbeat(qint64 id, QString *error)
{
    if (!needTeams(*d, 5, error) || !d->begin(error))
        return false;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("INSERT INTO presence (user_name, document_id, heartbeat) VALUES (?, ?, ?) "
                             "ON CONFLICT (user_name) DO UPDATE SET document_id = excluded.document_id, "
                             "heartbeat = excluded.heartbeat"));
    q.addBindValue(d->user);
    q.addBindValue(id < 0 ? QVariant() : QVariant(id));
    q.addBindValue(projectNow());
    if (!q.exec())
        return d->rollbackWith(error, d->failSql(q));
    return d->commit(error, /*bump=*/false);
}

bool Project::leave(QString *error)
{
    if (!needTeams(*d, 5, error) || !d->begin(error))
        return false;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("DELETE FROM presence WHERE user_name = ?"));
    q.addBindValue(d->user);
    if (!q.exec())
        return d->rollbackWith(error, d->failSql(q));
    return d->commit(error, /*bump=*/false);
}

std::vector<PresenceEntry> Project::presence(int staleSeconds, QString *error) const
{
    std::vector<PresenceEntry> out;
    if (!d->revive(error) || !needTeams(*d, 5, error))
        return out;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("SELECT user_name, document_id, heartbeat FROM presence WHERE heartbeat >= ? ORDER BY user_name"));
    q.addBindValue(QDateTime::currentDateTimeUtc().addSecs(-staleSeconds).toString(Qt::ISODateWithMs));
    if (!q.exec()) {
        d->setError(error, d->failSql(q));
        return out;
    }
    while (q.next())
        out.push_back({q.value(0).toString(), q.value(1).isNull() ? -1 : q.value(1).toLongLong(),
                       QDateTime::fromString(q.value(2).toString(), Qt::ISODateWithMs)});
    return out;
}

qint64 Project::changeCounter() const
{
    if (!d->hasTeams() || !d->revive(nullptr))
        return -1;
    QSqlQuery q(d->db);
    if (!q.exec(QStringLiteral("SELECT counter FROM changes WHERE id = 1")) || !q.next()) {
        d->failSql(q);
        return -1;
    }
    return q.value(0).toLongLong();
}

} // namespace folio
