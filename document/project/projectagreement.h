#pragma once
// Inter-annotator agreement for documents labelled twice: entity-level F1 between two
// annotators' versions (an entity matches when label and word set are equal; F1 = 2 * matched /
// (entities of A + entities of B), the same whichever annotator is the reference) and Cohen's
// kappa on token labels (each word's label, "O" outside entities; kappa = (po - pe) / (1 - pe)).
// Suggestions and rejected entities do not count.
//
//   folio::AgreementAccumulator acc;
//   acc.add(document, alicesAnnotations, bobsAnnotations);
//   const folio::Agreement a = acc.result();   // pooled over the documents added
//   folio::projectAgreement(project, "alice", "bob", &total, &perDocument, &error);

#include "document/annotations.h"
#include "document/document.h"

#include <QString>

#include <map>
#include <utility>
#include <vector>

namespace folio {

class Project;

struct Agreement
{
    int documents = 0;
    int entitiesA = 0;
    int entitiesB = 0;
    int matchedEntities = 0;
    double entityF1 = 1.0; // 1 when neither has an entity
    int tokens = 0;
    double observed = 1.0; // share of tokens with the same label
    double kappa = 1.0;    // 1 when the labels agree and are all the same (pe = 1)
};

class AgreementAccumulator
{
public:
    void add(const Document &document, const Annotations &a, const Annotations &b);
    Agreement result() const;

private:
    int m_documents = 0;
    int m_entitiesA = 0, m_entitiesB = 0, m_matched = 0;
    std::map<std::pair<QString, QString>, long> m_confusion; // (label A, label B) -> tokens
};

// One document.
Agreement compareAnnotations(const Document &document, const Annotations &a, const Annotations &b);

// Every document of `project` both users have saved (their annotator versions). False when a
// document cannot be read; zero documents is not an error (result().documents == 0).
bool projectAgreement(const Project &project, const QString &userA, const QString &userB, Agreement *total,
                      std::vector<std::pair<qint64, Agreement>> *perDocument, QString *error);

} // namespace folio
