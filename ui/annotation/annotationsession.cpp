#include "ui/annotation/annotationsession.h"

#include "document/annotationedits.h"
#include "document/qstree.h"

#include "ui/commands/annotationcommands.h"

#include <QUndoCommand>
#include <QUndoStack>

#include <algorithm>
#include <utility>

namespace folio {

namespace {
// Swaps the whole Document (re-OCR of a region); the annotations are left alone.
class DocumentReplaceCommand : public QUndoCommand
{
public:
    DocumentReplaceCommand(AnnotationSession *session, const QString &text, Document before, Document after)
        : m_session(session), m_before(std::move(before)), m_after(std::move(after))
    {
        setText(text);
    }
    void undo() override { m_session->applyDocument(m_before); }
    void redo() override { m_session->applyDocument(m_after); }

private:
    AnnotationSession *m_session; // not owned; outlives its undo stack
    Document m_before;
    Document m_after;
};
} // namespace

AnnotationSession::AnnotationSession(QObject *parent) : QObject(parent), m_undo(new QUndoStack(this)) {}

AnnotationSession::~AnnotationSession()
{
    // Commands point back at this session: drop them before the members go.
    m_undo->clear();
}

void AnnotationSession::setProject(Project *project)
{
    m_undo->clear();
    m_project = project;
    m_docId = -1;
    m_document = Document();
    m_annotations = Annotations();
    m_selectedWords.clear();
    m_currentEntity.clear();
    reloadOrder();
}

void AnnotationSession::setDocumentOrder(DocumentOrder order)
{
    m_orderKind = order;
    m_randomSeed = 0;
    reloadOrder();
}

void AnnotationSession::setRandomOrder(quint32 seed)
{
    m_orderKind = DocumentOrder::Position;
    m_randomSeed = seed == 0 ? 1 : seed;
    reloadOrder();
}

// A document's place in a random order: a fixed mix of its id and the seed (splitmix64), so the
// order survives reloads and a new document does not move the others.
static quint64 randomRank(qint64 id, quint32 seed)
{
    quint64 z = quint64(id) + quint64(seed) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void AnnotationSession::reloadOrder()
{
    m_order.clear();
    if (!m_project)
        return;
    QString error;
    for (const ProjectDocument &d : m_project->documents(m_orderKind, &error))
        m_order << d.id;
    if (m_randomSeed != 0)
        std::stable_sort(m_order.begin(), m_order.end(),
                         [seed = m_randomSeed](qint64 a, qint64 b) { return randomRank(a, seed) < randomRank(b, seed); });
    if (!error.isEmpty())
        Q_EMIT failed(error);
}

QStringList AnnotationSession::labels() const { return m_project ? m_project->labels() : QStringList(); }

bool AnnotationSession::openDocument(qint64 id)
{
    if (!m_project)
        return false;
    Document doc;
    Annotations ann;
    QString error;
    int revision = 0;
    if (!m_project->loadDocument(id, &doc, &ann, &error) || !m_project->loadAnnotations(id, &ann, &revision, &error)) {
        Q_EMIT failed(error);
        return false;
    }
    m_revision = revision; // saves are checked against it: another user's save in between is never overwritten
    m_conflict = false;
    m_undo->clear(); // undo history is per document
    if (!m_order.contains(id))
        reloadOrder(); // added to the project since the order was read
    m_docId = id;
    qsAssignIds(ann.qsRoots); // question-summary items from older files get ids (pre-order, deterministic)
    qsUpdateEvidenceFlags(ann, doc);
    m_document = std::move(doc);
    m_annotations = std::move(ann);
    m_selectedWords.clear();
    m_currentEntity.clear();
    Q_EMIT documentOpened(id);
    Q_EMIT annotationsChanged();
    Q_EMIT selectionChanged({});
    return true;
}

bool AnnotationSession::openDocumentAt(int row)
{
    if (row < 0 || row >= m_order.size())
        return false;
    return openDocument(m_order[row]);
}

bool AnnotationSession::nextDocument() { return openDocumentAt(int(m_order.indexOf(m_docId)) + 1); }

bool AnnotationSession::previousDocument()
{
    const int row = int(m_order.indexOf(m_docId));
    return row > 0 && openDocumentAt(row - 1);
}

void AnnotationSession::setSelectedWords(const QStringList &wordIds)
{
    if (wordIds == m_selectedWords)
        return;
    m_selectedWords = wordIds;
    Q_EMIT selectionChanged(m_selectedWords);
}

void AnnotationSession::setCurrentEntity(const QString &entityId)
{
    if (entityId == m_currentEntity)
        return;
    m_currentEntity = entityId;
    if (const Entity *e = m_annotations.entity(entityId))
        setSelectedWords(e->wordIds);
    Q_EMIT currentEntityChanged(entityId);
}

bool AnnotationSession::assignLabel(const QString &label)
{
    const QStringList words = edits::inReadingOrder(m_document, m_selectedWords);
    if (m_docId < 0 || words.isEmpty() || label.isEmpty())
        return false;
    Annotations after = m_annotations;
    QString id;
    edits::labelWords(m_document, after, words, label, &id);
    const bool ok = push(tr("Label %1 word(s) %2").arg(words.size()).arg(label), after);
    setCurrentEntity(id);
    return ok;
}

bool AnnotationSession::mergeEntities(const QStringList &entityIds)
{
    Annotations after = m_annotations;
    return edits::mergeEntities(m_document, after, entityIds)
        && push(tr("Merge %1 entities").arg(entityIds.size()), after);
}

bool AnnotationSession::splitEntity(const QString &entityId)
{
    Annotations after = m_annotations;
    const Entity *e = m_annotations.entity(entityId);
    return edits::splitEntity(after, entityId) && push(tr("Split entity into %1").arg(e->wordIds.size()), after);
}

bool AnnotationSession::relabel(const QString &entityId, const QString &label)
{
    Annotations after = m_annotations;
    return edits::relabel(after, entityId, label) && push(tr("Relabel as %1").arg(label), after);
}

bool AnnotationSession::deleteEntity(const QString &entityId)
{
    Annotations after = m_annotations;
    if (!edits::deleteEntity(after, entityId))
        return false;
    if (m_currentEntity == entityId)
        setCurrentEntity(QString());
    return push(tr("Delete entity"), after);
}

bool AnnotationSession::addLink(const QString &fromEntity, const QString &toEntity)
{
    Annotations after = m_annotations;
    return edits::addLink(after, fromEntity, toEntity) && push(tr("Link"), after);
}

bool AnnotationSession::deleteLink(const QString &linkId)
{
    Annotations after = m_annotations;
    return edits::deleteLink(after, linkId) && push(tr("Delete link"), after);
}

bool AnnotationSession::editWordText(const QString &wordId, const QString &text)
{
    const int i = m_document.wordIndex(wordId);
    if (i < 0 || m_document.words[size_t(i)].text == text)
        return false;
    m_undo->push(new WordTextCommand(this, wordId, m_document.words[size_t(i)].text, text));
    return true;
}

bool AnnotationSession::acceptSuggestion(const QString &entityId)
{
    Annotations after = m_annotations;
    return edits::acceptSuggestion(after, entityId.isEmpty() ? m_currentEntity : entityId)
        && push(tr("Accept suggestion"), after);
}

bool AnnotationSession::rejectSuggestion(const QString &entityId)
{
    Annotations after = m_annotations;
    return edits::rejectSuggestion(after, entityId.isEmpty() ? m_currentEntity : entityId)
        && push(tr("Reject suggestion"), after);
}

bool AnnotationSession::acceptLink(const QString &linkId)
{
    Annotations after = m_annotations;
    return edits::acceptLink(after, linkId) && push(tr("Accept link"), after);
}

bool AnnotationSession::rejectLink(const QString &linkId)
{
    Annotations after = m_annotations;
    return edits::rejectLink(after, linkId) && push(tr("Reject link"), after);
}

bool AnnotationSession::storedRevisionChanged() const
{
    ProjectDocument info;
    QString error;
    return m_project && m_docId >= 0 && m_project->documentInfo(m_docId, &info, &error) && info.annotationRevision != m_revision;
}

bool AnnotationSession::reloadStored()
{
    if (!m_project || m_docId < 0)
        return false;
    Annotations stored;
    int revision = 0;
    QString error;
    if (!m_project->loadAnnotations(m_docId, &stored, &revision, &error)) {
        Q_EMIT failed(error);
        return false;
    }
    m_undo->clear(); // the history was of a version that is no longer stored
    m_revision = revision;
    m_conflict = false;
    qsAssignIds(stored.qsRoots);
    qsUpdateEvidenceFlags(stored, m_document);
    m_annotations = std::move(stored);
    if (!m_currentEntity.isEmpty() && !m_annotations.entity(m_currentEntity)) {
        m_currentEntity.clear();
        Q_EMIT currentEntityChanged(QString());
    }
    Q_EMIT annotationsChanged();
    return true;
}

bool AnnotationSession::resolveConflict(const Annotations &merged, int storedRevision, const QString &changedBy)
{
    if (m_docId < 0)
        return false;
    m_revision = storedRevision; // the merge is saved on top of what is stored
    m_conflict = false;
    m_undo->push(new AnnotationEditCommand(this, tr("Merge with %1's version").arg(changedBy.isEmpty() ? tr("the stored") : changedBy),
                                           m_annotations, merged));
    return !m_conflict;
}

bool AnnotationSession::acceptAllSuggestions()
{
    Annotations after = m_annotations;
    const int n = edits::acceptAllSuggestions(after);
    return n > 0 && push(tr("Accept %1 suggestions").arg(n), after);
}

bool AnnotationSession::applyPredictions(const Annotations &predicted)
{
    if (m_docId < 0)
        return false;
    Annotations after = m_annotations;
    mergeModelAnnotations(after, predicted);
    double sum = 0;
    int n = 0;
    for (const Entity &e : after.entities)
        if (e.state == ReviewState::Suggested) {
            sum += e.confidence;
            ++n;
        }
    if (m_project) {
        QString error;
        if (!m_project->setUncertainty(m_docId, n > 0 ? 1.0 - sum / n : 0.0, &error))
            Q_EMIT failed(error);
    }
    return push(tr("Model suggestions (%1)").arg(n), after);
}

bool AnnotationSession::replaceDocument(const Document &updated, const QString &undoText)
{
    if (m_docId < 0)
        return false;
    m_undo->push(new DocumentReplaceCommand(this, undoText, m_document, updated));
    return true;
}

bool AnnotationSession::applyRenderedGeometry(const Document &rendered)
{
    if (m_docId < 0 || rendered.sourcePath != m_document.sourcePath || rendered.words.size() != m_document.words.size()
        || rendered.nodes.size() != m_document.nodes.size())
        return false;
    for (size_t i = 0; i < rendered.words.size(); ++i)
        if (rendered.words[i].id != m_document.words[i].id)
            return false;
    // Geometry only: texts the user corrected since the page was handed to the renderer stay.
    m_document.pages = rendered.pages;
    for (size_t i = 0; i < rendered.nodes.size(); ++i) {
        Node &n = m_document.nodes[i];
        n.box = rendered.nodes[i].box;
        n.page = rendered.nodes[i].page;
        n.visible = rendered.nodes[i].visible;
    }
    for (size_t i = 0; i < rendered.words.size(); ++i) {
        Word &w = m_document.words[i];
        w.box = rendered.words[i].box;
        w.norm = rendered.words[i].norm;
        w.page = rendered.words[i].page;
    }
    saveDocument();
    Q_EMIT documentReplaced();
    return true;
}

void AnnotationSession::applyDocument(const Document &document)
{
    m_document = document;
    // Question-summary items whose evidence words are gone (a re-OCR) are flagged, never dropped.
    const bool qsFlagsChanged = qsUpdateEvidenceFlags(m_annotations, m_document) > 0;
    QStringList kept;
    for (const QString &w : m_selectedWords)
        if (m_document.wordIndex(w) >= 0)
            kept << w;
    saveDocument();
    if (qsFlagsChanged) {
        save();
        Q_EMIT annotationsChanged();
    }
    Q_EMIT documentReplaced();
    setSelectedWords(kept);
}

bool AnnotationSession::nextUncertain()
{
    const Entity *best = nullptr;
    for (const Entity &e : m_annotations.entities)
        if (e.state == ReviewState::Suggested && (!best || e.confidence < best->confidence))
            best = &e;
    if (!best)
        return false;
    setCurrentEntity(best->id);
    return true;
}

bool AnnotationSession::markDone()
{
    if (!m_project || m_docId < 0)
        return false;
    QString error;
    if (!m_project->setStatus(m_docId, DocumentStatus::Done, &error)) {
        Q_EMIT failed(error);
        return false;
    }
    Q_EMIT statusChanged(m_docId, DocumentStatus::Done);
    return true;
}

bool AnnotationSession::push(const QString &text, const Annotations &after)
{
    if (m_docId < 0)
        return false;
    m_undo->push(new AnnotationEditCommand(this, text, m_annotations, after));
    return true;
}

void AnnotationSession::applyState(const Annotations &annotations)
{
    m_annotations = annotations;
    qsUpdateEvidenceFlags(m_annotations, m_document);
    if (!m_currentEntity.isEmpty() && !m_annotations.entity(m_currentEntity)) {
        m_currentEntity.clear();
        Q_EMIT currentEntityChanged(QString());
    }
    save();
    Q_EMIT annotationsChanged();
}

void AnnotationSession::applyWordText(const QString &wordId, const QString &text)
{
    const int i = m_document.wordIndex(wordId);
    if (i < 0)
        return;
    Word &w = m_document.words[size_t(i)];
    w.text = text;
    w.userEdited = true;
    if (w.node >= 0 && w.node < int(m_document.nodes.size()))
        m_document.nodes[size_t(w.node)].text = text;
    saveDocument();
    Q_EMIT documentChanged();
}

void AnnotationSession::saveDocument()
{
    QString error;
    if (m_project && m_docId >= 0 && !m_project->saveDocument(m_docId, m_document, &error))
        Q_EMIT failed(error);
}

void AnnotationSession::save()
{
    if (!m_project || m_docId < 0)
        return;
    QString error;
    SaveConflict conflict;
    if (!m_project->saveAnnotations(m_docId, m_annotations, m_revision, &conflict, &error)) {
        if (conflict.documentId == m_docId && conflict.storedRevision != m_revision) {
            m_conflict = true; // the edit stays on screen and in the undo stack; nothing was written
            Q_EMIT conflicted(conflict, error);
        } else {
            Q_EMIT failed(error);
        }
        return;
    }
    ProjectDocument info;
    if (m_project->documentInfo(m_docId, &info, &error)) {
        m_revision = info.annotationRevision;
        if (info.status == DocumentStatus::ToDo && m_project->setStatus(m_docId, DocumentStatus::InProgress, &error))
            Q_EMIT statusChanged(m_docId, DocumentStatus::InProgress);
        Q_EMIT saved(info.annotationRevision);
    }
}

} // namespace folio
