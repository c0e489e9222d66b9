#pragma once
// AnnotationSession: the state of the annotation workspace (no widgets).
//
// Holds the open Project (not owned), the current document's Document + Annotations, the word
// selection and a QUndoStack of edits. Every edit goes through the undo stack and is saved to
// the project at once (one durable transaction, a few ms): what the screen shows is on disk.
//
// Usage (MainWindow composes; panels talk to the session, never to the project):
//   auto *session = new folio::AnnotationSession(this);
//   session->setProject(project.get());          // Project outlives the session's use of it
//   session->openDocumentAt(0);                  // or openDocument(id)
//   canvas -> session->setSelectedWords(ids);    // from the page canvas selection signal
//   palette labelChosen -> session->assignLabel(label);
//   connect(session, &AnnotationSession::annotationsChanged, dock, &AnnotationDock::refresh);
//   undo: session->undoStack()->createUndoAction(...), Ctrl+Z / Ctrl+Shift+Z.
// Failures (a save that did not reach the disk, a document that does not load) are reported
// through failed(QString); the edit stays on screen and in the undo stack, and the next
// successful save writes it. No method throws.
#include "document/annotations.h"
#include "document/document.h"
#include "document/project/project.h"

#include <QObject>
#include <QStringList>

class QUndoStack;

namespace folio {

class AnnotationSession : public QObject
{
    Q_OBJECT

public:
    explicit AnnotationSession(QObject *parent = nullptr);
    ~AnnotationSession() override;

    void setProject(Project *project); // nullptr closes; clears the undo stack
    Project *project() const { return m_project; }
    void setDocumentOrder(DocumentOrder order); // next/previous follow this order
    // At random (issue 47's labelling loop): the documents shuffled by `seed`, the same seed giving
    // the same order (documents added later fall in among them). setDocumentOrder ends it.
    void setRandomOrder(quint32 seed);

    // ---- documents ----
    bool openDocument(qint64 id);
    bool openDocumentAt(int row);      // row in documentIds()
    bool nextDocument();
    bool previousDocument();
    QList<qint64> documentIds() const { return m_order; }
    qint64 currentDocumentId() const { return m_docId; }
    const Document &document() const { return m_document; }
    const Annotations &annotations() const { return m_annotations; }
    QUndoStack *undoStack() const { return m_undo; }
    QStringList labels() const;        // the project's label set (palette order)

    // ---- several editors on one project (issue 17) ----
    // Every save is checked against the revision this session loaded: when someone else saved the
    // document in between, nothing is written, conflicted() is emitted and hasConflict() is true
    // until the user merges (resolveConflict) or takes the stored version (reloadStored).
    int revision() const { return m_revision; }
    bool hasConflict() const { return m_conflict; }
    bool storedRevisionChanged() const; // someone else saved the open document since it was loaded
    bool reloadStored();                // the stored annotations replace the session's (undo cleared)
    // Saves `merged` (from the merge view) on top of the stored revision, as one undoable step.
    bool resolveConflict(const Annotations &merged, int storedRevision, const QString &changedBy);

    // ---- selection ----
    void setSelectedWords(const QStringList &wordIds);
    QStringList selectedWords() const { return m_selectedWords; }
    void setCurrentEntity(const QString &entityId); // also selects its words
    QString currentEntity() const { return m_currentEntity; }

    // ---- edits (each one undoable, each one autosaved); false when nothing to do ----
    bool assignLabel(const QString &label);                  // selected words -> one entity
    bool mergeEntities(const QStringList &entityIds);         // into the first, its label
    bool splitEntity(const QString &entityId);                // one entity per word
    bool relabel(const QString &entityId, const QString &label);
    bool deleteEntity(const QString &entityId);               // and its links
    bool addLink(const QString &fromEntity, const QString &toEntity);
    bool deleteLink(const QString &linkId);
    bool editWordText(const QString &wordId, const QString &text);
    bool acceptSuggestion(const QString &entityId);           // current entity when empty
    bool rejectSuggestion(const QString &entityId);
    bool acceptAllSuggestions();
    // A suggested link: accepted together with its suggested ends, or rejected (kept as Rejected,
    // so a later model run does not propose it again).
    bool acceptLink(const QString &linkId);
    bool rejectLink(const QString &linkId);
    bool markDone();                                          // status, not undoable
    // Makes the least confident pending suggestion current; false when none is left.
    bool nextUncertain();
    // Pre-annotation: merges model predictions as suggestions (never touching what the user made
    // or decided, see mergeModelAnnotations), undoable, and records the document's uncertainty
    // (1 - mean confidence of the suggestions) for the "most uncertain first" order.
    bool applyPredictions(const Annotations &predicted);
    // Replaces the current document's Document (a re-OCR of a region, ...) as one undoable step:
    // the annotations and the earlier undo history stay. Saved at once. False when none is open.
    bool replaceDocument(const Document &updated, const QString &undoText);
    // Takes the rendered geometry of the current document (page sizes, node and word boxes and
    // 0-1000 boxes, node visibility) from a renderer such as the web page view. Not an edit (not
    // undoable, the undo history stays); saved at once. False when `rendered` is not the current
    // document (other source or other word ids).
    bool applyRenderedGeometry(const Document &rendered);

    // ---- called by the undo commands ----
    void applyState(const Annotations &annotations);
    void applyWordText(const QString &wordId, const QString &text);
    void applyDocument(const Document &document); // saves it, emits documentReplaced()

Q_SIGNALS:
    void documentOpened(qint64 id);
    void annotationsChanged();
    void documentChanged();               // word text edited
    void documentReplaced();              // words / structure replaced (re-OCR, rendered boxes)
    void selectionChanged(const QStringList &wordIds);
    void currentEntityChanged(const QString &entityId);
    void saved(int revision);
    void conflicted(const folio::SaveConflict &conflict, const QString &message); // nothing was written
    void statusChanged(qint64 id, folio::DocumentStatus status);
    void failed(const QString &message);

private:
    bool push(const QString &text, const Annotations &after);
    void save();
    void saveDocument();
    void reloadOrder();

    Project *m_project = nullptr;
    QUndoStack *m_undo = nullptr;
    DocumentOrder m_orderKind = DocumentOrder::Position;
    quint32 m_randomSeed = 0; // 0: not at random
    QList<qint64> m_order;
    qint64 m_docId = -1;
    int m_revision = 0;
    bool m_conflict = false;
    Document m_document;
    Annotations m_annotations;
    QStringList m_selectedWords;
    QString m_currentEntity;
};

} // namespace folio
