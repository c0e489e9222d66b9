#include "document/annotationedits.h"

#include <QHash>
#include <QSet>

#include <algorithm>

namespace folio::edits {

namespace {

Entity *findEntity(Annotations &a, const QString &id)
{
    for (Entity &e : a.entities)
        if (e.id == id)
            return &e;
    return nullptr;
}

Link *findLink(Annotations &a, const QString &id)
{
    for (Link &l : a.links)
        if (l.id == id)
            return &l;
    return nullptr;
}

void removeEntities(Annotations &a, const QSet<QString> &gone)
{
    a.entities.erase(std::remove_if(a.entities.begin(), a.entities.end(), [&](const Entity &e) { return gone.contains(e.id); }),
                     a.entities.end());
    a.links.erase(std::remove_if(a.links.begin(), a.links.end(),
                                 [&](const Link &l) { return gone.contains(l.from) || gone.contains(l.to); }),
                  a.links.end());
}

// Words leave every entity; entities left empty go, with their links.
void releaseWords(Annotations &a, const QSet<QString> &words)
{
    QSet<QString> gone;
    for (Entity &e : a.entities) {
        QStringList kept;
        for (const QString &w : e.wordIds)
            if (!words.contains(w))
                kept << w;
        e.wordIds = kept;
        if (kept.isEmpty())
            gone.insert(e.id);
    }
    removeEntities(a, gone);
}

void markAcceptedByHand(Entity &e, const QString &label)
{
    e.label = label;
    e.source = AnnotationSource();
    e.confidence = 1.0;
    e.state = ReviewState::Accepted;
}

} // namespace

QStringList inReadingOrder(const Document &document, QStringList ids)
{
    QHash<QString, int> index;
    for (int i = 0; i < int(document.words.size()); ++i)
        index.insert(document.words[size_t(i)].id, i);
    ids.erase(std::remove_if(ids.begin(), ids.end(), [&](const QString &w) { return !index.contains(w); }), ids.end());
    std::sort(ids.begin(), ids.end(), [&](const QString &a, const QString &b) { return index[a] < index[b]; });
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

bool labelWords(const Document &document, Annotations &a, const QStringList &wordIds, const QString &label, QString *entityId)
{
    const QStringList words = inReadingOrder(document, wordIds);
    if (words.isEmpty() || label.isEmpty())
        return false;
    for (Entity &e : a.entities)
        if (inReadingOrder(document, e.wordIds) == words) {
            markAcceptedByHand(e, label);
            if (entityId)
                *entityId = e.id;
            return true;
        }
    releaseWords(a, QSet<QString>(words.begin(), words.end()));
    Entity e;
    e.id = a.freshId(QStringLiteral("e"));
    e.label = label;
    e.wordIds = words;
    a.entities.push_back(e);
    if (entityId)
        *entityId = e.id;
    return true;
}

bool relabel(Annotations &a, const QString &entityId, const QString &label)
{
    Entity *t = findEntity(a, entityId);
    if (!t || label.isEmpty() || (t->label == label && t->state == ReviewState::Accepted))
        return false;
    markAcceptedByHand(*t, label);
    return true;
}

bool mergeEntities(const Document &document, Annotations &a, const QStringList &entityIds)
{
    if (entityIds.size() < 2)
        return false;
    const Entity *first = a.entity(entityIds.first());
    if (!first)
        return false;
    QStringList words = first->wordIds;
    const QString label = first->label;
    const QString keepId = first->id;
    for (int i = 1; i < entityIds.size(); ++i) {
        const Entity *e = a.entity(entityIds[i]);
        if (!e)
            return false;
        words += e->wordIds;
    }
    for (Link &l : a.links) {
        if (entityIds.contains(l.from))
            l.from = keepId;
        if (entityIds.contains(l.to))
            l.to = keepId;
    }
    a.links.erase(std::remove_if(a.links.begin(), a.links.end(), [](const Link &l) { return l.from == l.to; }), a.links.end());
    a.entities.erase(std::remove_if(a.entities.begin(), a.entities.end(),
                                    [&](const Entity &e) { return e.id != keepId && entityIds.contains(e.id); }),
                     a.entities.end());
    Entity *kept = findEntity(a, keepId);
    kept->wordIds = inReadingOrder(document, words);
    markAcceptedByHand(*kept, label);
    return true;
}

bool splitEntity(Annotations &a, const QString &entityId)
{
    Entity *target = findEntity(a, entityId);
    if (!target || target->wordIds.size() < 2)
        return false;
    const QStringList words = target->wordIds;
    target->wordIds = {words.first()};
    target->source = AnnotationSource();
    target->state = ReviewState::Accepted;
    const Entity part0 = *target;
    for (int i = 1; i < words.size(); ++i) {
        Entity part = part0;
        part.id = a.freshId(QStringLiteral("e"));
        part.wordIds = {words[i]};
        a.entities.push_back(part);
    }
    return true;
}

bool deleteEntity(Annotations &a, const QString &entityId)
{
    if (!a.entity(entityId))
        return false;
    removeEntities(a, {entityId});
    return true;
}

bool addLink(Annotations &a, const QString &fromEntity, const QString &toEntity)
{
    if (fromEntity == toEntity || !a.entity(fromEntity) || !a.entity(toEntity))
        return false;
    for (const Link &l : a.links)
        if (l.from == fromEntity && l.to == toEntity)
            return false;
    Link l;
    l.id = a.freshId(QStringLiteral("l"));
    l.from = fromEntity;
    l.to = toEntity;
    a.links.push_back(l);
    return true;
}

bool deleteLink(Annotations &a, const QString &linkId)
{
    const auto before = a.links.size();
    a.links.erase(std::remove_if(a.links.begin(), a.links.end(), [&](const Link &l) { return l.id == linkId; }), a.links.end());
    return a.links.size() != before;
}

bool acceptSuggestion(Annotations &a, const QString &entityId)
{
    Entity *e = findEntity(a, entityId);
    if (!e || e->state != ReviewState::Suggested)
        return false;
    e->state = ReviewState::Accepted; // keeps its model source and confidence
    for (Link &l : a.links)
        if ((l.from == entityId || l.to == entityId) && l.state == ReviewState::Suggested) {
            const Entity *other = a.entity(l.from == entityId ? l.to : l.from);
            if (other && other->state == ReviewState::Accepted)
                l.state = ReviewState::Accepted;
        }
    return true;
}

bool rejectSuggestion(Annotations &a, const QString &entityId)
{
    Entity *e = findEntity(a, entityId);
    if (!e || e->state != ReviewState::Suggested)
        return false;
    e->state = ReviewState::Rejected;
    for (Link &l : a.links)
        if (l.from == entityId || l.to == entityId)
            l.state = ReviewState::Rejected;
    return true;
}

bool acceptLink(Annotations &a, const QString &linkId)
{
    Link *l = findLink(a, linkId);
    if (!l || l->state != ReviewState::Suggested)
        return false;
    l->state = ReviewState::Accepted;
    for (const QString &end : {l->from, l->to})
        if (Entity *e = findEntity(a, end); e && e->state == ReviewState::Suggested)
            e->state = ReviewState::Accepted;
    return true;
}

bool rejectLink(Annotations &a, const QString &linkId)
{
    Link *l = findLink(a, linkId);
    if (!l || l->state != ReviewState::Suggested)
        return false;
    l->state = ReviewState::Rejected;
    return true;
}

int acceptAllSuggestions(Annotations &a)
{
    int n = 0;
    for (Entity &e : a.entities)
        if (e.state == ReviewState::Suggested) {
            e.state = ReviewState::Accepted;
            ++n;
        }
    if (n > 0)
        for (Link &l : a.links)
            if (l.state == ReviewState::Suggested)
                l.state = ReviewState::Accepted;
    return n;
}

} // namespace folio::edits
