#pragma once
// What the question-summary formats (govreport-qs, hibrids, qmsum, qs-markdown, qs-html) share:
// a Document seen as sections of paragraphs, the Document those formats import (text only), and
// evidence as paragraph indices.
//
// Paragraphs of any Document (documentParagraphs): runs of consecutive words under the same
// paragraph node - the nearest Paragraph ancestor of the word's node (OCR paragraphs, transcript
// turns, the paragraphs these formats import), else the nearest block-level HTML element (p, li,
// td, h1-h6, div ...: inline markup stays inside), else the word node's parent - cut wherever a
// section starts. A paragraph belongs to the last section starting at or
// before its first word (words in a gap between HTML sections go with the section before), or
// to none (-1) before the first section. Its text is the paragraph node's own text when the node
// is a Paragraph holding exactly these words (so imported text comes back byte for byte), else
// the words joined by single spaces.
//
// The imported Document (documentFromParagraphs): one page (1000 x 1000, no image), one Paragraph
// node per paragraph ("p<i>", text as given, attribute "speaker" when given), its words the
// whitespace-separated tokens (ids "p<i>/w<k>", no boxes), the sections with their levels, each
// owning its paragraphs' words. Blank paragraphs carry no words and are not kept.
#include "document/document.h"
#include "document/formats/datasetformat.h"

#include <QHash>

#include <vector>

namespace folio::formats {

struct QsParagraph
{
    QString text;
    QString speaker;   // the paragraph node's "speaker" attribute (transcripts), else empty
    int firstWord = 0;
    int endWord = 0;
    int section = -1;  // index into Document::sections, -1 before the first section
};

std::vector<QsParagraph> documentParagraphs(const Document &doc);
// The paragraph as text for layouts without speakers: "speaker: text" when it has one.
QString paragraphPlainText(const QsParagraph &p);

struct QsTextSection
{
    QString title;
    int level = 1;
    std::vector<QsParagraph> paragraphs; // text and speaker used
};

// `preamble`: paragraphs before the first section. Levels must already be valid (1, and at most
// one deeper than the section before).
Document documentFromParagraphs(const QString &name, const QString &title, const std::vector<QsParagraph> &preamble,
                                const std::vector<QsTextSection> &sections);

// Section text of a Document: preamble paragraphs, then each section with its paragraphs.
void documentTextSections(const Document &doc, std::vector<QsParagraph> *preamble, std::vector<QsTextSection> *sections);

// Paragraph indices (into documentParagraphs) an item's evidence covers: paragraphs overlapping
// its word spans, and every paragraph of its evidence sections. Sorted, unique.
std::vector<int> evidenceParagraphs(const Document &doc, const std::vector<QsParagraph> &paragraphs,
                                    const QHash<QString, int> &wordIndex, const QsNode &node);
// Evidence spans for sorted paragraph indices: one span (first to last word, no quoted text) per
// run of consecutive paragraphs; indices out of range or of blank paragraphs are skipped (the
// importers check them first).
std::vector<QsEvidenceSpan> paragraphSpans(const Document &doc, const std::vector<QsParagraph> &paragraphs,
                                           const std::vector<int> &indices);

// The items a training-data format writes: rejected items (with their subtrees) never, suggested
// ones only with options.includeSuggestions.
std::vector<QsNode> exportedQsRoots(const std::vector<QsNode> &roots, bool includeSuggestions);

// A hierarchy in pre-order with parent indices (-1 for top level) and depths (1 = top level).
struct QsFlatItem
{
    const QsNode *node = nullptr;
    int parent = -1;
    int depth = 1;
};
std::vector<QsFlatItem> flattenQs(const std::vector<QsNode> &roots);

// A hierarchy from pre-order items with parent indices (parents first: the importers check it).
std::vector<QsNode> treeFromParents(std::vector<QsNode> items, const std::vector<int> &parents);

// Paragraph alignment as written (indices into the file's paragraphs, blank ones included) ->
// evidence spans on the imported Document. `kept[i]` is the index of written paragraph i among
// the kept (non-blank) ones, -1 for a blank one; `paragraphs` = documentParagraphs(imported).
// Fails (jv) on a non-integer or an index outside 0..written-1.
class JsonValidator;
bool readAlignment(JsonValidator &jv, const QJsonArray &array, const QString &path, const std::vector<int> &kept,
                   const Document &doc, const std::vector<QsParagraph> &paragraphs, std::vector<QsEvidenceSpan> *spans);
// kept[] for a list of written paragraph texts (see documentFromParagraphs: blank ones are dropped).
void countKeptParagraph(const QsParagraph &p, std::vector<int> *kept, int *keptCount);
// Adds the paragraph's words (speaker and text, as documentFromParagraphs splits them) to *words,
// without allocating; false once the total passes DatasetLimits::maxWords. Readers call it per
// paragraph, before documentFromParagraphs builds a Word per token.
bool countParagraphWords(const QsParagraph &p, qint64 *words);

// Checks that `level` may follow `previous` (0 before the first section): 1 <= level <= previous + 1
// and level <= DatasetLimits::maxQsDepth. Empty when fine, else the problem.
QString sectionLevelProblem(int level, int previous);

} // namespace folio::formats
