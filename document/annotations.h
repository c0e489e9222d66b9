#pragma once
// Annotations over a Document: entities, links, field values and question-summary hierarchies.
// Everything refers to words and sections by stable id, so a re-OCR or re-render keeps labels.
// Each item records where it came from (the user, or a model and its checkpoint) and a
// confidence; a model run never overwrites what the user fixed (see mergeModelAnnotations).

#include <QString>
#include <QStringList>

#include <vector>

namespace folio {

struct AnnotationSource
{
    enum Kind { User, Model };
    Kind kind = User;
    QString checkpoint;      // model checkpoint id when kind == Model
    bool operator==(const AnnotationSource &o) const { return kind == o.kind && checkpoint == o.checkpoint; }
};

// Edited: a model suggestion the user changed (counts as accepted; a later model run keeps it).
enum class ReviewState { Accepted, Suggested, Rejected, Edited };
QString reviewStateName(ReviewState s);
ReviewState reviewStateFromName(const QString &name, bool *ok = nullptr);

struct Entity
{
    QString id;
    QString label;           // e.g. "QUESTION"
    QStringList wordIds;     // in reading order
    AnnotationSource source;
    double confidence = 1.0;
    ReviewState state = ReviewState::Accepted;
};

struct Link
{
    QString id;
    QString from;            // entity id (key / question)
    QString to;              // entity id (value / answer)
    AnnotationSource source;
    double confidence = 1.0;
    ReviewState state = ReviewState::Accepted;
};

struct FieldValue
{
    QString field;           // e.g. "title", "price"
    QStringList wordIds;     // the span
    QString text;            // the extracted text (kept for pages without words)
    AnnotationSource source;
    double confidence = 1.0;
    ReviewState state = ReviewState::Accepted;
};

// A run of consecutive words (document order, both ends inclusive) a question-summary item rests
// on, with the text it had when attached (shown when a re-OCR removed the words).
struct QsEvidenceSpan
{
    QString firstWord;       // word id
    QString lastWord;        // word id (== firstWord for one word)
    QString text;
    bool operator==(const QsEvidenceSpan &o) const
    {
        return firstWord == o.firstWord && lastWord == o.lastWord && text == o.text;
    }
};

// One item of a question-summary hierarchy (HIBRIDS): a question, its summary answer, the
// sections and word spans that support it, and follow-up questions as children. Parent and
// order are the tree itself (children in order); document/qstree.h gives the flat view
// (id, parent id, order, depth, number "1.2") and the edits. See /work/notes/r3/QSMODEL.md.
struct QsNode
{
    QString question;
    QString summary;
    QStringList evidenceSections; // section keys (qsSectionKey: "node:<id>", "word:<id>"); older files: titles
    std::vector<QsNode> children;
    AnnotationSource source;      // the user, or a model and its checkpoint
    QString id;                   // stable, unique in the document ("q<n>"); given on load when missing
    std::vector<QsEvidenceSpan> evidenceSpans;
    double confidence = 1.0;
    ReviewState state = ReviewState::Accepted;
    bool evidenceMissing = false; // some evidence (words or sections) no longer exists (re-OCR, edit)
};

struct Annotations
{
    std::vector<Entity> entities;
    std::vector<Link> links;
    std::vector<FieldValue> fields;
    QString qsSummary;               // the root summary of the hierarchy
    std::vector<QsNode> qsRoots;

    bool isEmpty() const
    {
        return entities.empty() && links.empty() && fields.empty() && qsRoots.empty() && qsSummary.isEmpty();
    }
    const Entity *entity(const QString &id) const;
    // A fresh id of the form "<prefix><n>" not used by any entity or link.
    QString freshId(const QString &prefix) const;
};

// Merge model predictions into existing annotations without touching anything the user made:
// previous model suggestions are replaced, user entities stay, and a predicted entity that
// overlaps a user entity is dropped. Predicted links follow their entities when those get fresh
// ids, may end at kept entities, and never duplicate a link that is there (the user's, or one
// the user rejected).
void mergeModelAnnotations(Annotations &target, const Annotations &predicted);

// The word-level BIO tags implied by the entities (for training and export). Words not in any
// entity get "O".
std::vector<QString> bioTags(const Annotations &annotations, const QStringList &wordIdsInOrder);

} // namespace folio
