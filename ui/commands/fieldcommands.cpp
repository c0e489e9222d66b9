#include "ui/commands/fieldcommands.h"

#include "ui/annotation/annotationsession.h"
#include "ui/commands/annotationcommands.h"

#include <QHash>
#include <QUndoStack>

#include <algorithm>

namespace folio::fieldedits {

bool isNoValue(const FieldValue &v) { return v.wordIds.isEmpty() && v.text.trimmed().isEmpty(); }

const FieldValue *answerOf(const Annotations &a, const QString &field)
{
    const FieldValue *best = nullptr;
    const auto rank = [](ReviewState s) { return s == ReviewState::Accepted ? 0 : s == ReviewState::Suggested ? 1 : 2; };
    for (const FieldValue &v : a.fields)
        if (v.field == field && (!best || rank(v.state) < rank(best->state)))
            best = &v;
    return best;
}

static void removeField(Annotations &a, const QString &field)
{
    a.fields.erase(std::remove_if(a.fields.begin(), a.fields.end(), [&](const FieldValue &v) { return v.field == field; }),
                   a.fields.end());
}

static bool setState(Annotations &a, const QString &field, ReviewState from, ReviewState to)
{
    bool changed = false;
    for (FieldValue &v : a.fields)
        if (v.field == field && v.state == from) {
            v.state = to;
            changed = true;
        }
    if (changed && to == ReviewState::Accepted) // one accepted answer per field: older ones go
        a.fields.erase(std::remove_if(a.fields.begin(), a.fields.end(),
                                      [&](const FieldValue &v) { return v.field == field && v.state != to; }),
                       a.fields.end());
    return changed;
}

bool accept(Annotations &a, const QString &field) { return setState(a, field, ReviewState::Suggested, ReviewState::Accepted); }
bool reject(Annotations &a, const QString &field) { return setState(a, field, ReviewState::Suggested, ReviewState::Rejected); }

bool setValue(Annotations &a, const Document &doc, const QString &field, const QStringList &wordIds)
{
    QHash<QString, int> index;
    for (int i = 0; i < int(doc.words.size()); ++i)
        index.insert(doc.words[size_t(i)].id, i);
    std::vector<int> words;
    for (const QString &id : wordIds)
        if (const auto it = index.constFind(id); it != index.constEnd())
            words.push_back(*it);
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    if (field.isEmpty() || words.empty())
        return false;
    FieldValue v;
    v.field = field;
    QStringList texts;
    for (int i : words) {
        v.wordIds << doc.words[size_t(i)].id;
        texts << doc.words[size_t(i)].text;
    }
    v.text = texts.join(QLatin1Char(' '));
    const FieldValue *old = answerOf(a, field);
    if (old && old->state == ReviewState::Accepted && old->source.kind == AnnotationSource::User && old->wordIds == v.wordIds)
        return false;
    removeField(a, field);
    a.fields.push_back(v);
    return true;
}

bool setNoValue(Annotations &a, const QString &field)
{
    const FieldValue *old = answerOf(a, field);
    if (field.isEmpty() || (old && old->state == ReviewState::Accepted && isNoValue(*old)))
        return false;
    removeField(a, field);
    FieldValue v;
    v.field = field;
    a.fields.push_back(v);
    return true;
}

bool clear(Annotations &a, const QString &field)
{
    const size_t before = a.fields.size();
    removeField(a, field);
    return a.fields.size() != before;
}

int mergeSuggestions(Annotations &a, const std::vector<FieldValue> &suggested)
{
    std::vector<FieldValue> kept;
    for (const FieldValue &v : a.fields)
        if (v.state != ReviewState::Suggested)
            kept.push_back(v);
    int added = 0;
    for (FieldValue s : suggested) {
        bool decided = false;
        for (const FieldValue &k : kept)
            if (k.field == s.field
                && (k.state == ReviewState::Accepted || (k.wordIds == s.wordIds && k.text == s.text)))
                decided = true;
        if (decided)
            continue;
        s.state = ReviewState::Suggested;
        kept.push_back(s);
        ++added;
    }
    a.fields = std::move(kept);
    return added;
}

static bool underNode(const Document &doc, int node, int ancestor)
{
    for (int depth = 0; node >= 0 && node < int(doc.nodes.size()) && depth < 100000; ++depth) {
        if (node == ancestor)
            return true;
        node = doc.nodes[size_t(node)].parent;
    }
    return false;
}

QStringList wordsSpelling(const Document &doc, const QString &selectedText, int preferNode)
{
    const QStringList wanted = selectedText.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (wanted.isEmpty() || selectedText.size() > 4096)
        return {};
    const QString target = wanted.join(QString());
    QStringList first;
    const int n = int(doc.words.size());
    for (int start = 0; start < n; ++start) {
        // Words are matched by their concatenated text, so a selection cut mid-word still counts
        // when it starts and ends on word boundaries of the words it covers.
        const QString head = doc.words[size_t(start)].text.simplified().remove(QLatin1Char(' '));
        if (head.isEmpty() || !target.startsWith(head))
            continue;
        QString joined;
        QStringList ids;
        for (int i = start; i < n && joined.size() < target.size(); ++i) {
            joined += doc.words[size_t(i)].text.simplified().remove(QLatin1Char(' '));
            ids << doc.words[size_t(i)].id;
        }
        if (joined != target)
            continue;
        if (preferNode < 0 || underNode(doc, doc.words[size_t(start)].node, preferNode))
            return ids;
        if (first.isEmpty())
            first = ids;
    }
    return first;
}

bool pushFieldEdit(AnnotationSession *session, const QString &undoText, const Annotations &after)
{
    if (!session || session->currentDocumentId() < 0)
        return false;
    session->undoStack()->push(new AnnotationEditCommand(session, undoText, session->annotations(), after));
    return true;
}

} // namespace folio::fieldedits
