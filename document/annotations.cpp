#include "document/annotations.h"

#include "document/qstree.h"

#include <algorithm>

#include <QHash>
#include <QSet>

namespace folio {

QString reviewStateName(ReviewState s)
{
    switch (s) {
    case ReviewState::Accepted: return QStringLiteral("accepted");
    case ReviewState::Suggested: return QStringLiteral("suggested");
    case ReviewState::Rejected: return QStringLiteral("rejected");
    case ReviewState::Edited: return QStringLiteral("edited");
    }
    return QStringLiteral("accepted");
}

ReviewState reviewStateFromName(const QString &name, bool *ok)
{
    if (ok) *ok = true;
    if (name == QLatin1String("accepted")) return ReviewState::Accepted;
    if (name == QLatin1String("suggested")) return ReviewState::Suggested;
    if (name == QLatin1String("rejected")) return ReviewState::Rejected;
    if (name == QLatin1String("edited")) return ReviewState::Edited;
    if (ok) *ok = false;
    return ReviewState::Accepted;
}

const Entity *Annotations::entity(const QString &id) const
{
    for (const Entity &e : entities)
        if (e.id == id)
            return &e;
    return nullptr;
}

QString Annotations::freshId(const QString &prefix) const
{
    QSet<QString> used;
    for (const Entity &e : entities) used.insert(e.id);
    for (const Link &l : links) used.insert(l.id);
    for (int n = int(entities.size() + links.size());; ++n) {
        const QString candidate = prefix + QString::number(n);
        if (!used.contains(candidate))
            return candidate;
    }
}

void mergeModelAnnotations(Annotations &target, const Annotations &predicted)
{
    // Words owned by the user (any entity the user made or accepted) are off limits.
    QSet<QString> userWords;
    std::vector<Entity> kept;
    for (const Entity &e : target.entities) {
        const bool fromUser = e.source.kind == AnnotationSource::User || e.state != ReviewState::Suggested;
        if (fromUser) {
            for (const QString &w : e.wordIds) userWords.insert(w);
            kept.push_back(e);
        }
    }
    QSet<QString> keptIds;
    for (const Entity &e : kept) keptIds.insert(e.id);
    Annotations merged;
    merged.entities = kept;
    QHash<QString, QString> renamed; // predicted entity id -> its id in the merge ("" when dropped)
    for (Entity e : predicted.entities) {
        bool overlaps = false;
        for (const QString &w : e.wordIds)
            if (userWords.contains(w)) { overlaps = true; break; }
        if (overlaps) {
            renamed.insert(e.id, QString());
            continue;
        }
        e.state = ReviewState::Suggested;
        const QString predictedId = e.id;
        if (e.id.isEmpty() || keptIds.contains(e.id))
            e.id = merged.freshId(QStringLiteral("e"));
        renamed.insert(predictedId, e.id);
        keptIds.insert(e.id);
        merged.entities.push_back(e);
    }
    // Links: keep user links, replace model suggestions by the new ones whose ends still exist (a
    // predicted entity's link follows it when it was renamed; a link may also end at a kept entity).
    for (const Link &l : target.links)
        if (l.source.kind == AnnotationSource::User || l.state != ReviewState::Suggested)
            merged.links.push_back(l);
    for (Link l : predicted.links) {
        l.from = renamed.value(l.from, l.from);
        l.to = renamed.value(l.to, l.to);
        if (l.from.isEmpty() || l.to.isEmpty() || l.from == l.to || !merged.entity(l.from) || !merged.entity(l.to))
            continue;
        const bool known = std::any_of(merged.links.begin(), merged.links.end(),
                                       [&](const Link &m) { return m.from == l.from && m.to == l.to; });
        if (known) // the user's link, or one the user rejected, is never replaced by a suggestion
            continue;
        l.state = ReviewState::Suggested;
        if (l.id.isEmpty() || std::any_of(merged.links.begin(), merged.links.end(), [&](const Link &m) { return m.id == l.id; }))
            l.id = merged.freshId(QStringLiteral("l"));
        merged.links.push_back(l);
    }
    // Fields: a user value for a field wins over any prediction of that field.
    QSet<QString> userFields;
    for (const FieldValue &f : target.fields)
        if (f.source.kind == AnnotationSource::User || f.state != ReviewState::Suggested) {
            userFields.insert(f.field);
            merged.fields.push_back(f);
        }
    for (FieldValue f : predicted.fields)
        if (!userFields.contains(f.field)) {
            f.state = ReviewState::Suggested;
            merged.fields.push_back(f);
        }
    // QS hierarchy: predicted items arrive as suggestions; what the user made, accepted, edited or
    // rejected stays (qsedit::mergeGenerated). Predictions without a hierarchy leave it alone.
    merged.qsRoots = target.qsRoots;
    merged.qsSummary = target.qsSummary;
    if (!predicted.qsRoots.empty() || !predicted.qsSummary.isEmpty()) {
        qsAssignIds(merged.qsRoots);
        const AnnotationSource source = predicted.qsRoots.empty() ? AnnotationSource{AnnotationSource::Model, {}}
                                                                  : predicted.qsRoots.front().source;
        qsedit::mergeGenerated(merged, predicted.qsSummary, predicted.qsRoots, source);
    }
    target = std::move(merged);
}

std::vector<QString> bioTags(const Annotations &annotations, const QStringList &wordIdsInOrder)
{
    QHash<QString, int> position;
    for (int i = 0; i < wordIdsInOrder.size(); ++i)
        position.insert(wordIdsInOrder[i], i);
    std::vector<QString> tags(size_t(wordIdsInOrder.size()), QStringLiteral("O"));
    for (const Entity &e : annotations.entities) {
        if (e.state == ReviewState::Rejected || e.label.isEmpty() || e.label.compare(QLatin1String("other"), Qt::CaseInsensitive) == 0)
            continue;
        bool first = true;
        for (const QString &w : e.wordIds) {
            const auto it = position.constFind(w);
            if (it == position.constEnd())
                continue;
            tags[size_t(*it)] = (first ? QStringLiteral("B-") : QStringLiteral("I-")) + e.label;
            first = false;
        }
    }
    return tags;
}

} // namespace folio
