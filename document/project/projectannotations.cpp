// The annotation rows of the project store: reading them with their revision and author, and
// writing them with the optimistic version check, the history line and the annotator's version.
#include "document/project/projectprivate.h"

namespace folio {

static bool parseStoredAnnotations(const QByteArray &stored, Annotations *annotations, QString *error)
{
    QByteArray bytes;
    if (!detail::unpackJson(stored, &bytes, error))
        return false;
    QJsonParseError pe;
    const QJsonDocument json = QJsonDocument::fromJson(bytes, &pe);
    if (!json.isObject()) {
        *error = pe.errorString();
        return false;
    }
    return annotationsFromJsonObject(json.object(), annotations, error);
}

bool Project::Private::readAnnotations(qint64 id, Annotations *annotations, int *revision, QString *by, QDateTime *at,
                                       QString *error) const
{
    auto *self = const_cast<Private *>(this);
    QSqlQuery q(self->db);
    q.prepare(hasTeams() ? QStringLiteral("SELECT annotations_json, revision, modified_by, modified FROM annotations "
                                          "WHERE document_id = ?")
                         : QStringLiteral("SELECT annotations_json, revision, '', modified FROM annotations "
                                          "WHERE document_id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return setError(error, self->failSql(q));
    if (annotations)
        *annotations = Annotations();
    if (revision)
        *revision = 0;
    if (by)
        by->clear();
    if (!q.next())
        return true; // never annotated
    if (revision)
        *revision = q.value(1).toInt();
    if (by)
        *by = q.value(2).toString();
    if (at)
        *at = QDateTime::fromString(q.value(3).toString(), Qt::ISODateWithMs);
    QString e;
    if (annotations && !parseStoredAnnotations(q.value(0).toByteArray(), annotations, &e))
        return setError(error, fail(QStringLiteral("annotations of document %1: %2").arg(id).arg(e)));
    return true;
}

bool Project::Private::recordHistory(qint64 id, int revision, const QString &action, const QString &detail, QString *error)
{
    if (!hasTeams())
        return true;
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO history (document_id, revision, user_name, action, detail, at) "
                             "VALUES (?, ?, ?, ?, ?, ?)"));
    q.addBindValue(id);
    q.addBindValue(revision);
    q.addBindValue(sqlText(user));
    q.addBindValue(sqlText(action));
    q.addBindValue(sqlText(detail));
    q.addBindValue(projectNow());
    if (!q.exec())
        return setError(error, failSql(q));
    return true;
}

bool Project::Private::writeAnnotations(qint64 id, const Annotations &ann, QString *error, const QString &action,
                                        int expected, bool *conflict, bool asVersion)
{
    if (conflict)
        *conflict = false;
    const QString now = projectNow();
    // What was there, for the history's summary (a new document had nothing).
    Annotations before;
    if (hasTeams() && action != QLatin1String("add") && !readAnnotations(id, &before, nullptr, nullptr, nullptr, error))
        return false;
    const QByteArray json = annotationsJson(ann);
    QSqlQuery q(db);
    const QString author = hasTeams() ? QStringLiteral(", modified_by") : QString();
    const QString authorValue = hasTeams() ? QStringLiteral(", ?") : QString();
    const QString authorUpdate = hasTeams() ? QStringLiteral(", modified_by = excluded.modified_by") : QString();
    // ON CONFLICT ... DO UPDATE ... WHERE: the update happens only on the expected revision, in
    // the same statement (no window between check and write, on either engine).
    q.prepare(QStringLiteral("INSERT INTO annotations (document_id, revision, annotations_json, modified%1) "
                             "VALUES (?, 1, ?, ?%2) ON CONFLICT (document_id) DO UPDATE SET "
                             "revision = annotations.revision + 1, annotations_json = excluded.annotations_json, "
                             "modified = excluded.modified%3%4 RETURNING revision")
                  .arg(author, authorValue, authorUpdate,
                       expected >= 0 ? QStringLiteral(" WHERE annotations.revision = ?") : QString()));
    q.addBindValue(id);
    q.addBindValue(json);
    q.addBindValue(now);
    if (hasTeams())
        q.addBindValue(user);
    if (expected >= 0)
        q.addBindValue(expected);
    if (!q.exec())
        return setError(error, failSql(q));
    if (!q.next()) {
        if (conflict)
            *conflict = true;
        return setError(error, fail(QStringLiteral("document %1 changed since revision %2").arg(id).arg(expected)));
    }
    const int revision = q.value(0).toInt();
    q.finish();
    if (expected == 0 && revision != 1) { // an insert was expected, the row existed
        if (conflict)
            *conflict = true;
        return setError(error, fail(QStringLiteral("document %1 changed since revision 0").arg(id)));
    }
    QString itemError;
    if (!detail::writeAnnotationItems(db, *dialect, id, ann, &itemError))
        return setError(error, fail(itemError));
    QSqlQuery touch(db);
    touch.prepare(QStringLiteral("UPDATE documents SET modified = ? WHERE id = ?"));
    touch.addBindValue(now);
    touch.addBindValue(id);
    if (!touch.exec())
        return setError(error, failSql(touch));
    if (!recordHistory(id, revision, action, annotationChangeSummary(before, ann), error))
        return false;
    if (asVersion && schemaVersion >= 5) {
        QSqlQuery v(db);
        v.prepare(QStringLiteral("INSERT INTO annotator_versions (document_id, user_name, revision, annotations_json, "
                                 "modified) VALUES (?, ?, ?, ?, ?) ON CONFLICT (document_id, user_name) DO UPDATE SET "
                                 "revision = excluded.revision, annotations_json = excluded.annotations_json, "
                                 "modified = excluded.modified"));
        v.addBindValue(id);
        v.addBindValue(user);
        v.addBindValue(revision);
        v.addBindValue(json);
        v.addBindValue(now);
        if (!v.exec())
            return setError(error, failSql(v));
    }
    return true;
}

bool Project::annotatorVersion(qint64 id, const QString &user, Annotations *annotations, QString *error) const
{
    if (!d->revive(error))
        return false;
    if (d->schemaVersion < 5)
        return d->setError(error, d->fail(QStringLiteral("schema version %1 keeps no annotator versions").arg(d->schemaVersion)));
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("SELECT annotations_json FROM annotator_versions WHERE document_id = ? AND user_name = ?"));
    q.addBindValue(id);
    q.addBindValue(user);
    if (!q.exec())
        return d->setError(error, d->failSql(q));
    if (!q.next())
        return d->setError(error, d->fail(QStringLiteral("%1 has not saved document %2").arg(user).arg(id)));
    QString e;
    if (!parseStoredAnnotations(q.value(0).toByteArray(), annotations, &e))
        return d->setError(error, d->fail(QStringLiteral("%1's annotations of document %2: %3").arg(user).arg(id).arg(e)));
    return true;
}

QStringList Project::annotatorsOf(qint64 id, QString *error) const
{
    QStringList out;
    if (!d->revive(error) || d->schemaVersion < 5)
        return out;
    QSqlQuery q(d->db);
    q.prepare(QStringLiteral("SELECT user_name FROM annotator_versions WHERE document_id = ? ORDER BY user_name"));
    q.addBindValue(id);
    if (!q.exec()) {
        d->setError(error, d->failSql(q));
        return out;
    }
    while (q.next())
        out << q.value(0).toString();
    return out;
}

} // namespace folio
