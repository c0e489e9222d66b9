#include "document/annotationmerge.h"

#include "document/documentjson.h"

#include <QHash>
#include <QStringList>

#include <algorithm>
#include <functional>

namespace folio {

namespace {

QString wordsText(const QStringList &wordIds, const Document *document)
{
    if (!document)
        return wordIds.join(QLatin1Char(' '));
    QStringList words;
    for (const QString &id : wordIds) {
        const int i = document->wordIndex(id);
        words << (i >= 0 ? document->words[size_t(i)].text : id);
    }
    return words.join(QLatin1Char(' '));
}

QString describe(const Entity &e, const Document *document)
{
    return QStringLiteral("%1: %2 (%3)").arg(e.label, wordsText(e.wordIds, document), reviewStateName(e.state));
}

QString describe(const Link &l, const Annotations &a, const Document *document)
{
    const auto end = [&](const QString &id) {
        const Entity *e = a.entity(id);
        return e ? QStringLiteral("%1 \"%2\"").arg(e->label, wordsText(e->wordIds, document)) : id;
    };
    return QStringLiteral("%1 \u2192 %2 (%3)").arg(end(l.from), end(l.to), reviewStateName(l.state));
}

QString describe(const FieldValue &f)
{
    return QStringLiteral("%1 = %2 (%3)").arg(f.field, f.text, reviewStateName(f.state));
}

QString describeHierarchy(const Annotations &a)
{
    int items = 0;
    std::function<void(const std::vector<QsNode> &)> count = [&](const std::vector<QsNode> &nodes) {
        for (const QsNode &n : nodes) {
            ++items;
            count(n.children);
        }
    };
    count(a.qsRoots);
    if (items == 0 && a.qsSummary.isEmpty())
        return QString();
    return QStringLiteral("%1 question-summary item(s)%2")
        .arg(items)
        .arg(a.qsSummary.isEmpty() ? QString() : QStringLiteral(", summary \"%1\"").arg(a.qsSummary.left(60)));
}

bool sameEntity(const Entity &a, const Entity &b)
{
    return a.label == b.label && a.wordIds == b.wordIds && a.state == b.state;
}

bool sameLink(const Link &a, const Link &b)
{
    return a.from == b.from && a.to == b.to && a.state == b.state;
}

bool sameField(const FieldValue &a, const FieldValue &b)
{
    return a.text == b.text && a.wordIds == b.wordIds && a.state == b.state;
}

bool sameHierarchy(const Annotations &a, const Annotations &b)
{
    Annotations x, y;
    x.qsRoots = a.qsRoots;
    x.qsSummary = a.qsSummary;
    y.qsRoots = b.qsRoots;
    y.qsSummary = b.qsSummary;
    return annotationsToJsonObject(x) == annotationsToJsonObject(y);
}

// Items keyed by `key`, in theirs' order then mine's new ones.
template <typename T, typename Key>
std::vector<QString> unionKeys(const std::vector<T> &theirs, const std::vector<T> &mine, Key key)
{
    std::vector<QString> keys;
    QHash<QString, bool> seen;
    for (const auto *list : {&theirs, &mine})
        for (const T &item : *list)
            if (!seen.contains(key(item))) {
                seen.insert(key(item), true);
                keys.push_back(key(item));
            }
    return keys;
}

template <typename T, typename Key>
const T *find(const std::vector<T> &items, const QString &k, Key key)
{
    const auto it = std::find_if(items.begin(), items.end(), [&](const T &item) { return key(item) == k; });
    return it == items.end() ? nullptr : &*it;
}

template <typename T, typename Key>
void takeMine(std::vector<T> *merged, const std::vector<T> &mine, const QString &k, Key key)
{
    const T *m = find(mine, k, key);
    const auto it = std::find_if(merged->begin(), merged->end(), [&](const T &item) { return key(item) == k; });
    if (it != merged->end()) {
        if (m)
            *it = *m;
        else
            merged->erase(it);
    } else if (m) {
        merged->push_back(*m);
    }
}

const auto entityKey = [](const Entity &e) { return e.id; };
const auto linkKey = [](const Link &l) { return l.id; };
const auto fieldKey = [](const FieldValue &f) { return f.field; };

} // namespace

QString mergeItemKindName(MergeItem::Kind kind)
{
    switch (kind) {
    case MergeItem::Kind::Entity: return QStringLiteral("entity");
    case MergeItem::Kind::Link: return QStringLiteral("link");
    case MergeItem::Kind::Field: return QStringLiteral("field");
    case MergeItem::Kind::Hierarchy: return QStringLiteral("hierarchy");
    }
    return QString();
}

std::vector<MergeItem> annotationDifferences(const Annotations &theirs, const Annotations &mine, const Document *document)
{
    std::vector<MergeItem> out;
    for (const QString &k : unionKeys(theirs.entities, mine.entities, entityKey)) {
        const Entity *t = find(theirs.entities, k, entityKey), *m = find(mine.entities, k, entityKey);
        if (t && m && sameEntity(*t, *m))
            continue;
        out.push_back({MergeItem::Kind::Entity, k, t ? describe(*t, document) : QString(), m ? describe(*m, document) : QString(), m != nullptr});
    }
    for (const QString &k : unionKeys(theirs.links, mine.links, linkKey)) {
        const Link *t = find(theirs.links, k, linkKey), *m = find(mine.links, k, linkKey);
        if (t && m && sameLink(*t, *m))
            continue;
        out.push_back({MergeItem::Kind::Link, k, t ? describe(*t, theirs, document) : QString(),
                       m ? describe(*m, mine, document) : QString(), m != nullptr});
    }
    for (const QString &k : unionKeys(theirs.fields, mine.fields, fieldKey)) {
        const FieldValue *t = find(theirs.fields, k, fieldKey), *m = find(mine.fields, k, fieldKey);
        if (t && m && sameField(*t, *m))
            continue;
        out.push_back({MergeItem::Kind::Field, k, t ? describe(*t) : QString(), m ? describe(*m) : QString(), m != nullptr});
    }
    if (!sameHierarchy(theirs, mine))
        out.push_back({MergeItem::Kind::Hierarchy, QString(), describeHierarchy(theirs), describeHierarchy(mine), true});
    return out;
}

Annotations mergeAnnotations(const Annotations &theirs, const Annotations &mine, const std::vector<MergeItem> &items)
{
    Annotations merged = theirs;
    for (const MergeItem &item : items) {
        if (!item.takeMine)
            continue;
        switch (item.kind) {
        case MergeItem::Kind::Entity: takeMine(&merged.entities, mine.entities, item.key, entityKey); break;
        case MergeItem::Kind::Link: takeMine(&merged.links, mine.links, item.key, linkKey); break;
        case MergeItem::Kind::Field: takeMine(&merged.fields, mine.fields, item.key, fieldKey); break;
        case MergeItem::Kind::Hierarchy:
            merged.qsRoots = mine.qsRoots;
            merged.qsSummary = mine.qsSummary;
            break;
        }
    }
    merged.links.erase(std::remove_if(merged.links.begin(), merged.links.end(),
                                      [&](const Link &l) { return !merged.entity(l.from) || !merged.entity(l.to); }),
                       merged.links.end());
    return merged;
}

} // namespace folio
