#pragma once
// One question-summary tree in its three shapes, and the conversions between them (the only copy):
//  - inference::QsHierarchy: std::string items in pre-order with depths (1 = child of the root), what
//    the seq2seq models read and write, what the metrics score and training references hold;
//  - pipeline::QsDraft: the drafter's items in pre-order with depths, confidences and their evidence as
//    (section, sentence) of a DraftSource;
//  - QsNode (document/annotations.h): the nested tree the editor shows and a project stores, its
//    evidence as section keys and word-id spans of the Document.
//
//   std::vector<QsNode> roots = qsNodesFromHierarchy(generated.parse.tree);         // seq2seq output
//   std::vector<QsNode> roots = qsNodesFromDraft(src, draft, document);             // with evidence
//   inference::QsHierarchy ref = qsHierarchyFromNodes(a.qsSummary, a.qsRoots);      // training reference
//   inference::QsHierarchy h = qsHierarchyFromDraft(draft);                         // scoring a draft
//
// Nodes made here have no ids and no state (qsedit::mergeGenerated makes them suggestions).
#include "document/annotations.h"
#include "document/document.h"
#include "inference/qs/qslinearize.h"
#include "pipeline/qs/draft/drafter.h"
#include "pipeline/qs/draft/draftsource.h"

#include <QString>

#include <vector>

namespace folio::pipeline {

// Pre-order items with depths -> nested nodes (question and summary, no evidence).
std::vector<QsNode> qsNodesFromHierarchy(const inference::QsHierarchy &tree);

// Drafted items -> nested nodes with their evidence in `doc`: the item's section (when it is one of
// `doc`'s and the draft read `doc` itself) and one span per summary sentence. `wordMap` maps the
// drafted document's word indices to `doc`'s (a part drafted below an item), empty when they are the
// same; sentences without words in `doc` (a QMSum meeting) give no span.
std::vector<QsNode> qsNodesFromDraft(const DraftSource &src, const QsDraft &draft, const Document &doc,
                                     const std::vector<int> &wordMap = {});

// Nested nodes -> pre-order items with depths, texts simplified (white space collapsed).
inference::QsHierarchy qsHierarchyFromNodes(const QString &rootSummary, const std::vector<QsNode> &roots);

// Drafted items -> pre-order items with depths, texts as drafted.
inference::QsHierarchy qsHierarchyFromDraft(const QsDraft &draft);

} // namespace folio::pipeline
