#pragma once
// Hugging Face MarkupLM folders as field extractors on web pages (issue 32), shared by Extract
// Fields (webfieldextraction.h: the GUI's Fields dock) and `folio-cli extract` / `predict`.
//
//   MarkupFieldRun r = runMarkupLM(doc, "models/markuplm-qa", {"price", "brand"});
//   for (const MarkupFieldAnswer &a : r.answers) ... a.words (Document::words indices) ...
//
//  - MarkupLMForQuestionAnswering: each asked field is a question (markupQuestion: "What is the
//    <field>?", '_' and '-' read as spaces; or the question given as is); the answer span's nodes
//    are the value, its text their texts joined by a space, confidence p(start) * p(end).
//  - MarkupLMForTokenClassification: every node gets a label; each entity label (B-/I- merged, O
//    dropped) is one answer: the nodes labelled with it, confidence their mean probability.
// The nodes and XPaths are the reference feature extractor's (document/html/markupnodes.h) read
// from the page's file; each node is matched to the Document text node it came from (same XPath,
// same text), whose words are the answer's words (so highlighting works as for WebFormer). A page
// whose file cannot be read that way (a saved MHTML) uses the Document's own text nodes.
// No exception leaves these functions.

#include "document/document.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <vector>

namespace folio::pipeline {

struct MarkupFieldAnswer
{
    QString field;             // asked field / question, or the entity label
    bool found = false;
    QString text;              // the answer nodes' texts (reference form) joined by ' ', page text only
                               // (comments / script text left out) unless no node is page text
    std::vector<int> nodes;    // indices into MarkupFieldRun::nodes
    std::vector<int> words;    // Document::words indices, document order (empty: no page words)
    double confidence = 0;
};

struct MarkupFieldRun
{
    bool ok = false;
    bool cancelled = false;
    QString error;                       // names the document or the folder
    bool questionAnswering = false;
    QStringList labels;                  // token classification: entity labels (O dropped, B-/I- merged)
    QStringList notes;
    QStringList nodes, xpaths;           // the model's input nodes
    std::vector<std::vector<int>> nodeWords; // Document::words of each node (empty: none matched)
    QStringList nodeLabels;              // token classification: each node's label ("" when none)
    std::vector<MarkupFieldAnswer> answers; // QA: one per asked field; tokcls: one per label found
};

struct MarkupRunOptions
{
    std::function<void(int done, int total)> progress;
    const std::atomic_bool *cancel = nullptr;
    bool rawQuestions = false; // true: `asked` are questions, asked as they are
    bool int8 = false;         // dynamic int8 Linears (HfMarkupLM::quantizeDynamicInt8, issue 35)
};

// "What is the <field>?" ("unit_price" -> "What is the unit price?").
QString markupQuestion(const QString &field);
// The folder checks made before any weight is read (HfMarkupLM::checkFolder): false + *error
// naming the file and the problem.
bool checkMarkupLMFolder(const QString &dir, QString *error);
bool isMarkupLMFolder(const QString &dir); // config.json model_type "markuplm"

// Loads the folder (into the cache runMarkupLM uses): is it a QA model, and its entity labels
// (token classification). False + *error naming the file and the problem.
bool markupLMKind(const QString &dir, bool *questionAnswering, QStringList *labels, QString *error);

// The page's nodes and XPaths as runMarkupLM gives them to the model, each with its Document words
// (fills run->nodes, xpaths, nodeWords and notes; runs nothing). Used by the attention views.
void markupPageNodes(const Document &doc, MarkupFieldRun *run);

// Runs the folder (loaded once and kept while its files are unchanged) on the page. `asked`: QA
// fields (or questions); ignored by token classification (every label answers).
MarkupFieldRun runMarkupLM(const Document &doc, const QString &dir, const QStringList &asked,
                           const MarkupRunOptions &options = {});

} // namespace folio::pipeline
