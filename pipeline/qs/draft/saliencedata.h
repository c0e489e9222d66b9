#pragma once
// Section-structured documents with reference text per section, for fitting and scoring the
// drafter's sentence salience beyond QMSum (issue 31):
//  - FairytaleQA (../shared/data/fairytaleqa, Apache-2.0): a story's sections; a section's reference
//    is the questions tied to it (cor_section) and their answers (answer1);
//  - CL-SciSumm / ScisummNet (../shared/data/cl-scisumm, CC BY 4.0): a paper's <ABSTRACT> and
//    <SECTION>s (one implicit section when it has none); every section's reference is the paper's
//    human summary (`*.human.txt`, `*.human`, `*.scisummnet_human.txt`; papers without one are
//    skipped, the author abstract is never a reference since it is part of the text).
//
//   std::vector<ReferencedDocument> docs;
//   readFairytaleQaDocuments(dir, "train", &docs, &error);
//   fitter.addDocument(docs[0].source, docs[0].references);
#include "pipeline/qs/draft/draftsource.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace folio::pipeline {

struct ReferencedDocument
{
    DraftSource source;
    std::vector<QString> references;     // per section: what a summary of it should use (fitting target)
    std::vector<QStringList> answers;    // FairytaleQA: answer1 of each question tied to the section
    std::vector<QStringList> questions;  // FairytaleQA: those questions
};

bool readFairytaleQaDocuments(const QString &dir, const QString &split, std::vector<ReferencedDocument> *out,
                              QString *error, int limit = -1);
// `dir`: the cl-scisumm folder or any folder above <ID>/Reference_XML/<ID>.xml (searched 5 levels deep).
bool readClSciSummDocuments(const QString &dir, std::vector<ReferencedDocument> *out, QString *error, int limit = -1,
                            int *skipped = nullptr);

bool looksLikeFairytaleQa(const QString &dir);
bool looksLikeClSciSumm(const QString &dir);

} // namespace folio::pipeline
