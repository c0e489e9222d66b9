#pragma once
// The simulated annotator's hands (issue 47): how a person fixes a page's suggestions into its gold
// labels with the annotation workspace's edits, and how many edits that takes. Torch-free.
//
// The edits are those of folio::AnnotationSession (ui/annotation/annotationsession.h), one undo
// step each: label a word selection, relabel an entity, merge entities, reject a suggestion or
// delete an entity, add / delete / reject a link, accept all suggestions. correctPage() drives an
// AnnotationEditor; MemoryEditor applies the same edits to Annotations in memory with the session's
// semantics (tst_labellingsession applies one page's fixes through a real AnnotationSession and
// checks that its undo stack records as many steps as MemoryEditor counts, ending in the same labels).
//
// The person's strategy, per page: every gold entity in reading order — kept when a live (not
// rejected) entity has exactly its words and label; relabelled when only the label is wrong; merged
// when live entities lying wholly inside it cover it exactly (then relabelled if the first one's
// label is wrong); otherwise its words are selected and labelled (which takes them out of the
// entities they were in: the "split" of a suggestion that ran over two fields). Then every live
// entity that is not gold is rejected (a suggestion) or deleted; wrong links are rejected / deleted,
// missing ones added; and what is left suggested is accepted with one "accept all".

#include "document/annotations.h"
#include "document/document.h"

#include <QString>
#include <QStringList>

namespace folio::labelling {

struct EditCounts
{
    int label = 0;      // words selected and labelled (a new entity, or one split off another)
    int relabel = 0;    // an entity's label changed
    int merge = 0;      // entities merged into one
    int remove = 0;     // a wrong entity rejected or deleted
    int addLink = 0;
    int removeLink = 0; // a wrong link rejected or deleted
    int accept = 0;     // "accept all suggestions" (or one suggested link accepted)
    int entityEdits() const { return label + relabel + merge + remove; }
    int linkEdits() const { return addLink + removeLink; }
    int total() const { return entityEdits() + linkEdits() + accept; }
    EditCounts &operator+=(const EditCounts &o);
};

// The edits of the annotation workspace (AnnotationSession's); each returns false when it did
// nothing (and then no undo step was recorded).
class AnnotationEditor
{
public:
    virtual ~AnnotationEditor() = default;
    virtual const Annotations &current() const = 0;
    virtual bool labelWords(const QStringList &wordIds, const QString &label) = 0; // select + assign
    virtual bool relabel(const QString &entityId, const QString &label) = 0;
    virtual bool mergeEntities(const QStringList &entityIds) = 0;
    virtual bool rejectSuggestion(const QString &entityId) = 0;
    virtual bool deleteEntity(const QString &entityId) = 0;
    virtual bool addLink(const QString &fromEntity, const QString &toEntity) = 0;
    virtual bool deleteLink(const QString &linkId) = 0;
    virtual bool rejectLink(const QString &linkId) = 0;
    virtual bool acceptLink(const QString &linkId) = 0;
    virtual bool acceptAllSuggestions() = 0;
};

// AnnotationSession's edits on Annotations in memory (no project, no undo stack); steps() counts
// the edits that changed something, as the session's undo stack would.
class MemoryEditor : public AnnotationEditor
{
public:
    MemoryEditor(const Document &document, Annotations start);
    const Annotations &current() const override { return m_annotations; }
    int steps() const { return m_steps; }
    bool labelWords(const QStringList &wordIds, const QString &label) override;
    bool relabel(const QString &entityId, const QString &label) override;
    bool mergeEntities(const QStringList &entityIds) override;
    bool rejectSuggestion(const QString &entityId) override;
    bool deleteEntity(const QString &entityId) override;
    bool addLink(const QString &fromEntity, const QString &toEntity) override;
    bool deleteLink(const QString &linkId) override;
    bool rejectLink(const QString &linkId) override;
    bool acceptLink(const QString &linkId) override;
    bool acceptAllSuggestions() override;

private:
    bool counted(bool applied);
    const Document &m_document;
    Annotations m_annotations;
    int m_steps = 0;
};

// What the person labels on a page: the gold entities whose label is in `labels` (others, e.g.
// FUNSD's OTHER, stay unlabelled), with only the words a model sees (non-blank ones), accepted,
// user-made; the gold links between two kept entities.
Annotations labellingTarget(const Document &document, const Annotations &gold, const QStringList &labels);

// Fixes the editor's annotations into `target` (labellingTarget's) and returns the edits made.
// Afterwards the live entities (state not Rejected) are exactly target's (words and labels) and
// the live links exactly its links; nothing is left suggested.
EditCounts correctPage(AnnotationEditor &editor, const Document &document, const Annotations &target);

// True when the live entities and links of `a` are those of `target` (word sets, labels, link ends).
bool sameLabelling(const Annotations &a, const Annotations &target, QString *difference = nullptr);

} // namespace folio::labelling
