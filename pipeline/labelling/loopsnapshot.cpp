#include "pipeline/labelling/loopsnapshot.h"

#include "document/project/project.h"

#include <QHash>
#include <QSet>

#include <memory>

#include <algorithm>

namespace folio::labelling {

namespace {

bool hasAcceptedEntity(const Annotations &a)
{
    for (const Entity &e : a.entities)
        if (e.state == ReviewState::Accepted || e.state == ReviewState::Edited)
            return true;
    return false;
}

QList<qint64> storedHeldOut(const Project &project)
{
    QList<qint64> ids;
    const QStringList parts = project.setting(QString::fromLatin1(kHeldOutSetting)).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &p : parts) {
        bool ok = false;
        const qint64 id = p.trimmed().toLongLong(&ok);
        if (ok && id >= 0 && !ids.contains(id))
            ids << id;
    }
    return ids;
}

QString idList(const QList<qint64> &ids)
{
    QStringList parts;
    for (qint64 id : ids)
        parts << QString::number(id);
    return parts.join(QLatin1Char(','));
}

} // namespace

int retrainEvery(const Project &project)
{
    bool ok = false;
    const int n = project.setting(QString::fromLatin1(kRetrainEverySetting), QStringLiteral("0")).toInt(&ok);
    return ok && n > 0 ? n : 0;
}

bool setRetrainEvery(Project &project, int everyPages, QString *error)
{
    return project.setSetting(QString::fromLatin1(kRetrainEverySetting), QString::number(std::max(0, everyPages)), error);
}

bool readLoopSnapshot(const QString &location, bool readOnly, LoopSnapshot *out, QString *error, int maxUnlabelled,
                      const std::function<void()> &afterListing)
{
    *out = LoopSnapshot();
    QString openError;
    const std::unique_ptr<Project> project =
        Project::open(location, &openError, readOnly ? Project::Mode::ReadOnly : Project::Mode::ReadWrite);
    if (!project) {
        *error = openError;
        return false;
    }
    return takeLoopSnapshot(*project, out, error, maxUnlabelled, afterListing);
}

bool takeLoopSnapshot(Project &project, LoopSnapshot *out, QString *error, int maxUnlabelled, const std::function<void()> &afterListing)
{
    *out = LoopSnapshot();
    out->pages.source = project.path();
    QString listError;
    const std::vector<ProjectDocument> docs = project.documents(DocumentOrder::Position, &listError);
    if (!listError.isEmpty()) {
        *error = listError;
        return false;
    }
    if (afterListing)
        afterListing();
    std::vector<SimulationPage> accepted; // position order
    QHash<qint64, QString> names;
    for (const ProjectDocument &d : docs) {
        names.insert(d.id, d.name);
        const bool done = d.status == DocumentStatus::Done;
        if (!done && int(out->pages.unlabelled.size()) >= maxUnlabelled)
            continue;
        SimulationPage p;
        QString loadError;
        if (!project.loadDocument(d.id, &p.document, &p.gold, &loadError))
            continue; // deleted since the list was read
        p.id = QString::number(d.id);
        if (done && hasAcceptedEntity(p.gold))
            accepted.push_back(std::move(p));
        else if (!done) {
            out->revisions.insert(d.id, d.annotationRevision);
            out->pages.unlabelled.push_back(std::move(p));
        }
    }
    const int n = int(accepted.size());
    out->accepted = n;
    const int minimum = kMinHeldOutPages + kMinPoolPages;
    QSet<qint64> acceptedIds;
    for (const SimulationPage &p : accepted)
        acceptedIds.insert(p.id.toLongLong());

    const QList<qint64> stored = storedHeldOut(project);
    QList<qint64> held;
    for (qint64 id : stored)
        if (acceptedIds.contains(id))
            held << id;
    if (n < minimum) {
        out->needed = minimum - n;
        out->waitMessage = QStringLiteral("background retraining waits for %1 more accepted page(s): it needs %2 "
                                          "(%3 held out to score each model, never trained on, and %4 to train on); %5 so far")
                               .arg(out->needed).arg(minimum).arg(kMinHeldOutPages).arg(kMinPoolPages).arg(n);
        return true;
    }
    const int want = std::max(kMinHeldOutPages, n / 5);
    QList<qint64> added;
    for (int i = n - 1; i >= 0 && held.size() < want; --i) {
        const qint64 id = accepted[size_t(i)].id.toLongLong();
        if (!held.contains(id)) {
            held << id;
            added << id;
        }
    }
    if (n - held.size() < kMinPoolPages) { // held-out pages remembered from before leave too few to train on
        out->needed = kMinPoolPages - (n - int(held.size()));
        out->waitMessage = QStringLiteral("background retraining waits for %1 more accepted page(s): %2 of the %3 are "
                                          "held out to score each model, and it needs %4 to train on")
                               .arg(out->needed).arg(held.size()).arg(n).arg(kMinPoolPages);
        return true;
    }
    if (held != stored) {
        QString setError;
        project.setSetting(QString::fromLatin1(kHeldOutSetting), idList(held), &setError); // read-only: chosen again next time
    }
    if (!added.isEmpty()) {
        QStringList heldNames;
        for (qint64 id : added)
            heldNames << names.value(id);
        out->note = QStringLiteral("held out %1 accepted page(s) (%2) to score each model; they are never trained on")
                        .arg(added.size()).arg(heldNames.join(QStringLiteral(", ")));
    }
    out->heldOutIds = held;
    const QSet<qint64> heldSet(held.begin(), held.end());
    for (SimulationPage &p : accepted) {
        if (heldSet.contains(p.id.toLongLong()))
            out->pages.heldOut.push_back(std::move(p));
        else
            out->pages.train.push_back(std::move(p));
    }
    return true;
}

} // namespace folio::labelling
