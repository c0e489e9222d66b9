#include "pipeline/labelling/pagecorrection.h"

#include "document/annotationedits.h"

#include <QHash>
#include <QSet>

#include <algorithm>

namespace folio::labelling {

EditCounts &EditCounts::operator+=(const EditCounts &o)
{
    label += o.label;
    relabel += o.relabel;
    merge += o.merge;
    remove += o.remove;
    addLink += o.addLink;
    removeLink += o.removeLink;
    accept += o.accept;
    return *this;
}

namespace {

QSet<QString> wordSet(const QStringList &ids) { return QSet<QString>(ids.begin(), ids.end()); }

bool live(const Entity &e) { return e.state != ReviewState::Rejected; }
bool live(const Link &l) { return l.state != ReviewState::Rejected; }

// A word set as one sorted key (entities compared by their words).
QString wordKey(QStringList ids)
{
    ids.sort();
    ids.removeDuplicates();
    return ids.join(QLatin1Char('\x1f'));
}

} // namespace

MemoryEditor::MemoryEditor(const Document &document, Annotations start) : m_document(document), m_annotations(std::move(start)) {}

// Every edit is AnnotationSession's own rule (document/annotationedits.h), counted when it applies.
bool MemoryEditor::counted(bool applied)
{
    if (applied)
        ++m_steps;
    return applied;
}

bool MemoryEditor::labelWords(const QStringList &wordIds, const QString &label)
{
    return counted(edits::labelWords(m_document, m_annotations, wordIds, label));
}

bool MemoryEditor::relabel(const QString &entityId, const QString &label)
{
    return counted(edits::relabel(m_annotations, entityId, label));
}

bool MemoryEditor::mergeEntities(const QStringList &entityIds)
{
    return counted(edits::mergeEntities(m_document, m_annotations, entityIds));
}

bool MemoryEditor::rejectSuggestion(const QString &entityId)
{
    return counted(edits::rejectSuggestion(m_annotations, entityId));
}

bool MemoryEditor::deleteEntity(const QString &entityId)
{
    return counted(edits::deleteEntity(m_annotations, entityId));
}

bool MemoryEditor::addLink(const QString &fromEntity, const QString &toEntity)
{
    return counted(edits::addLink(m_annotations, fromEntity, toEntity));
}

bool MemoryEditor::deleteLink(const QString &linkId)
{
    return counted(edits::deleteLink(m_annotations, linkId));
}

bool MemoryEditor::rejectLink(const QString &linkId)
{
    return counted(edits::rejectLink(m_annotations, linkId));
}

bool MemoryEditor::acceptLink(const QString &linkId)
{
    return counted(edits::acceptLink(m_annotations, linkId));
}

bool MemoryEditor::acceptAllSuggestions()
{
    return counted(edits::acceptAllSuggestions(m_annotations) > 0);
}

Annotations labellingTarget(const Document &document, const Annotations &gold, const QStringList &labels)
{
    QSet<QString> modelWords;
    for (const Word &w : document.words)
        if (!w.text.trimmed().isEmpty())
            modelWords.insert(w.id);
    Annotations target;
    QSet<QString> taken, kept;
    for (const Entity &g : gold.entities) {
        if (g.state == ReviewState::Rejected || g.state == ReviewState::Suggested || !labels.contains(g.label))
            continue;
        Entity e;
        e.id = g.id;
        e.label = g.label;
        for (const QString &w : g.wordIds)
            if (modelWords.contains(w) && !taken.contains(w)) {
                e.wordIds << w;
                taken.insert(w);
            }
        if (e.wordIds.isEmpty())
            continue;
        kept.insert(e.id);
        target.entities.push_back(e);
    }
    QSet<QString> pairs;
    for (const Link &l : gold.links) {
        const QString pair = l.from + QLatin1Char('>') + l.to;
        if (l.state == ReviewState::Rejected || l.state == ReviewState::Suggested || !kept.contains(l.from) || !kept.contains(l.to)
            || l.from == l.to || pairs.contains(pair))
            continue;
        pairs.insert(pair);
        Link t;
        t.id = l.id;
        t.from = l.from;
        t.to = l.to;
        target.links.push_back(t);
    }
    return target;
}

namespace {

// The live entity whose words are exactly `key`, or null.
const Entity *liveWithWords(const Annotations &a, const QString &key)
{
    for (const Entity &e : a.entities)
        if (live(e) && wordKey(e.wordIds) == key)
            return &e;
    return nullptr;
}

int firstWordIndex(const Document &doc, const QStringList &ids)
{
    int best = int(doc.words.size());
    for (const QString &w : ids)
        if (const int i = doc.wordIndex(w); i >= 0)
            best = std::min(best, i);
    return best;
}

} // namespace

EditCounts correctPage(AnnotationEditor &editor, const Document &document, const Annotations &target)
{
    EditCounts counts;
    std::vector<const Entity *> gold;
    for (const Entity &g : target.entities)
        gold.push_back(&g);
    std::stable_sort(gold.begin(), gold.end(), [&](const Entity *a, const Entity *b) {
        return firstWordIndex(document, a->wordIds) < firstWordIndex(document, b->wordIds);
    });
    for (const Entity *g : gold) {
        const QString key = wordKey(g->wordIds);
        if (const Entity *exact = liveWithWords(editor.current(), key)) {
            if (exact->label != g->label && editor.relabel(exact->id, g->label))
                ++counts.relabel;
            continue;
        }
        // Live entities wholly inside the gold one that together cover it: one merge.
        const QSet<QString> goldWords = wordSet(g->wordIds);
        std::vector<std::pair<int, QString>> inside;
        QSet<QString> covered;
        for (const Entity &e : editor.current().entities) {
            if (!live(e) || e.wordIds.isEmpty())
                continue;
            const QSet<QString> words = wordSet(e.wordIds);
            if (!goldWords.contains(words))
                continue;
            inside.push_back({firstWordIndex(document, e.wordIds), e.id});
            covered.unite(words);
        }
        if (inside.size() >= 2 && covered == goldWords) {
            std::sort(inside.begin(), inside.end());
            QStringList ids;
            for (const auto &p : inside)
                ids << p.second;
            if (editor.mergeEntities(ids)) {
                ++counts.merge;
                const Entity *merged = editor.current().entity(ids.first());
                if (merged && merged->label != g->label && editor.relabel(merged->id, g->label))
                    ++counts.relabel;
                continue;
            }
        }
        if (editor.labelWords(g->wordIds, g->label))
            ++counts.label;
    }

    // Entities that are not gold: rejected (a suggestion) or deleted.
    QHash<QString, QString> goldLabelOfKey;
    for (const Entity &g : target.entities)
        goldLabelOfKey.insert(wordKey(g.wordIds), g.label);
    QStringList wrong;
    for (const Entity &e : editor.current().entities)
        if (live(e) && goldLabelOfKey.value(wordKey(e.wordIds)) != e.label)
            wrong << e.id;
    for (const QString &id : wrong) {
        const Entity *e = editor.current().entity(id);
        if (!e)
            continue;
        if (e->state == ReviewState::Suggested ? editor.rejectSuggestion(id) : editor.deleteEntity(id))
            ++counts.remove;
    }

    // Links, by the word sets of their ends.
    QHash<QString, QString> keyOfGoldId, currentIdOfKey;
    for (const Entity &g : target.entities)
        keyOfGoldId.insert(g.id, wordKey(g.wordIds));
    for (const Entity &e : editor.current().entities)
        if (live(e))
            currentIdOfKey.insert(wordKey(e.wordIds), e.id);
    QSet<QString> goldPairs;
    for (const Link &l : target.links)
        goldPairs.insert(keyOfGoldId.value(l.from) + QLatin1Char('>') + keyOfGoldId.value(l.to));
    QHash<QString, QString> keyOfCurrentId;
    for (auto it = currentIdOfKey.cbegin(); it != currentIdOfKey.cend(); ++it)
        keyOfCurrentId.insert(it.value(), it.key());
    QStringList wrongLinks;
    QSet<QString> livePairs;
    for (const Link &l : editor.current().links) {
        if (!live(l))
            continue;
        const QString pair = keyOfCurrentId.value(l.from) + QLatin1Char('>') + keyOfCurrentId.value(l.to);
        if (!keyOfCurrentId.contains(l.from) || !keyOfCurrentId.contains(l.to) || !goldPairs.contains(pair) || livePairs.contains(pair))
            wrongLinks << l.id;
        else
            livePairs.insert(pair);
    }
    for (const QString &id : wrongLinks) {
        bool suggested = false;
        for (const Link &l : editor.current().links)
            if (l.id == id)
                suggested = l.state == ReviewState::Suggested;
        if (suggested ? editor.rejectLink(id) : editor.deleteLink(id))
            ++counts.removeLink;
    }
    for (const Link &l : target.links) {
        const QString from = keyOfGoldId.value(l.from), to = keyOfGoldId.value(l.to);
        if (livePairs.contains(from + QLatin1Char('>') + to))
            continue;
        if (editor.addLink(currentIdOfKey.value(from), currentIdOfKey.value(to)))
            ++counts.addLink;
    }

    // What is left suggested is right: one "accept all" (or, with no suggested entity, each link).
    bool suggestedEntity = false;
    for (const Entity &e : editor.current().entities)
        suggestedEntity = suggestedEntity || e.state == ReviewState::Suggested;
    if (suggestedEntity) {
        if (editor.acceptAllSuggestions())
            ++counts.accept;
    } else {
        QStringList suggestedLinks;
        for (const Link &l : editor.current().links)
            if (l.state == ReviewState::Suggested)
                suggestedLinks << l.id;
        for (const QString &id : suggestedLinks)
            if (editor.acceptLink(id))
                ++counts.accept;
    }
    return counts;
}

bool sameLabelling(const Annotations &a, const Annotations &target, QString *difference)
{
    auto entitiesOf = [](const Annotations &x, QHash<QString, QString> *keyOfId) {
        QStringList out;
        for (const Entity &e : x.entities)
            if (live(e) && e.state != ReviewState::Suggested) {
                out << wordKey(e.wordIds) + QLatin1Char('=') + e.label;
                keyOfId->insert(e.id, wordKey(e.wordIds));
            }
        out.sort();
        return out;
    };
    auto linksOf = [](const Annotations &x, const QHash<QString, QString> &keyOfId) {
        QStringList out;
        for (const Link &l : x.links)
            if (live(l) && l.state != ReviewState::Suggested)
                out << keyOfId.value(l.from) + QLatin1Char('>') + keyOfId.value(l.to);
        out.sort();
        return out;
    };
    QHash<QString, QString> ka, kt;
    const QStringList ea = entitiesOf(a, &ka), et = entitiesOf(target, &kt);
    if (ea != et) {
        if (difference)
            *difference = QStringLiteral("entities differ: %1 vs %2 accepted").arg(ea.size()).arg(et.size());
        return false;
    }
    if (linksOf(a, ka) != linksOf(target, kt)) {
        if (difference)
            *difference = QStringLiteral("links differ");
        return false;
    }
    return true;
}

} // namespace folio::labelling
