#pragma once
// QsSummarizer: a document's question-summary hierarchy through one object, as DocumentTagger is for
// tagging. The one copy used by the GUI's QsWorker (Model > Generate Question-Summary Hierarchy) and
// `folio-cli qs generate / eval / check`.
//
//   folio::pipeline::QsSummarizer qs;
//   if (!qs.load(dir, &error, int8)) fail(error);              // cached: same folder and setting, no reload
//   if (!qs.setQuestionModel(questionsDir, &error)) fail(error); // drafter only; empty: templates
//   const folio::pipeline::QsResult r = qs.generate(document, annotations, belowId, settings, progress, &cancel);
//   if (!r.ok) fail(r.error);        // r.rootSummary, r.roots: the tree the editor shows, with its evidence
//
// A folder is either the drafter (drafter.json: pipeline/qs/draft/drafter.h, the shipped default) or a
// seq2seq checkpoint (pipeline/qs/qsinputs.h over inference/qs, optionally with dynamic int8 Linear
// layers). The drafter reads the document section by section and attaches each item's evidence (its
// section and one word span per summary sentence); progress counts sections, and its questions come
// from templates or from the neural question writer (setQuestionModel). A seq2seq model reads the
// document's sections as one source; progress counts decoding steps. Below an item, both read that
// item's evidence words alone. The tree's three shapes are converted in qstrees.h.
// Not thread-safe: use one QsSummarizer per thread. No exception leaves these functions.
#include "document/annotations.h"
#include "document/document.h"
#include "inference/qs/seq2seq.h"
#include "pipeline/qs/qmsum.h"
#include "pipeline/qs/draft/drafter.h"
#include "pipeline/qs/draft/draftsource.h"
#include "pipeline/qs/qsinputs.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace folio::pipeline {

// A run's choices; the defaults are the loaded model's own.
struct QsSettings
{
    // seq2seq: most target tokens (start token included; <= 1: the checkpoint's), beams (0), fewest
    // target tokens (-1), banned repeated n-gram size (-1), beam length penalty (< 0)
    int maxLength = 0, beams = 0, minLength = -1, noRepeatNgram = -1;
    double lengthPenalty = -1;
    // drafter: most items, deepest level, words per summary (<= 0: the drafter's defaults)
    int maxItems = 0, maxDepth = 0, summaryWords = 0;
};

// One text to summarise, in the shape each kind of model reads, and where its evidence lands.
struct QsText
{
    QsInput input;                      // what a seq2seq model reads
    DraftSource draft;                  // what the drafter reads
    const Document *document = nullptr; // evidence is attached in it; null: items without evidence
    std::vector<int> wordMap;           // the drafted words' indices in *document; empty: the same words
};

// The model input below an item: the item's evidence words alone, as one implicit section titled by
// its question; the whole document when `belowId` is empty, unknown or has no evidence words.
QsInput qsInputBelow(const Document &doc, const Annotations &annotations, const QString &belowId);
// `doc` as both shapes: the drafter reads `doc` itself, or (`evidenceWords` given) those words alone
// as one text titled input.id; a seq2seq model reads `input`. `doc` must outlive the text.
QsText qsTextOfDocument(const Document &doc, const QsInput &input, const std::vector<int> &evidenceWords = {});
// `doc` below an item (qsInputBelow and that item's evidence words); `doc` must outlive the text.
QsText qsTextOfDocument(const Document &doc, const Annotations &annotations, const QString &belowId);
// A QMSum meeting (topics as sections, speakers kept): no Document, so no evidence on the nodes.
QsText qsTextOfMeeting(const QmsumMeeting &meeting);

struct QsResult
{
    bool ok = false;
    bool cancelled = false;
    QString error;         // names the folder or what went wrong (set when cancelled too)
    QString checkpoint;    // the folder's name (the items' source)
    QString rootSummary;
    std::vector<QsNode> roots; // the tree the editor shows (no ids, no state), with evidence from the drafter
    QStringList warnings;  // truncated source, parser repairs, questions written by the question generator
    int questionsWritten = 0; // drafter items whose question the question writer wrote (the rest: templates)
    bool int8 = false;        // a seq2seq checkpoint ran with dynamic int8 Linear layers
    QsDraft draft;            // a drafter run: its items as drafted, evidence as (section, sentence) of QsText::draft
    QsGeneratedTree generated; // a seq2seq run: the decoded text, the parsed tree and its repairs
};

// Sections (drafter) or decoding steps (seq2seq) done of total.
using QsProgress = std::function<void(int done, int total)>;

class QsSummarizer
{
public:
    QsSummarizer();
    ~QsSummarizer();
    QsSummarizer(const QsSummarizer &) = delete;
    QsSummarizer &operator=(const QsSummarizer &) = delete;

    // Loads a drafter folder (drafter.json) or a seq2seq checkpoint (config.json, weights, tokenizer);
    // a folder already loaded with the same `int8` is kept. With `int8`, a seq2seq checkpoint's Linear
    // layers run dynamic int8 (Seq2seqGenerator::quantizeDynamicInt8; refused without a quantized
    // engine); the drafter has none and ignores it. False + *error (naming the folder) on failure: a
    // loaded drafter stays, a loaded seq2seq checkpoint is released first (one model in memory).
    bool load(const QString &dir, QString *error, bool int8 = false);
    bool isLoaded() const;
    bool isDrafter() const;
    bool isInt8() const;
    QString checkpointDir() const;
    QString checkpointName() const; // the folder's name

    // The drafter's question writer: a question generator folder (config folio_questions,
    // pipeline/qs/draft/questiongen.h) writes each item's question from its summary and evidence,
    // templates where it gives nothing new; empty: templates only. Loaded once per folder; kept across
    // load(). False + *error naming the folder when it does not load (the previous writer stays).
    bool setQuestionModel(const QString &dir, QString *error);
    QString questionModel() const;

    // The loaded model (null when none of that kind is loaded) and its settings for a run.
    const QsDrafter *drafter() const;
    const inference::Seq2seqGenerator *generator() const;
    const QsVocabulary &vocabulary() const;
    DraftOptions draftOptions(const QsSettings &settings) const;
    inference::GenerationSettings generationSettings(const QsSettings &settings) const;

    // The hierarchy of `document` (below the item `belowId` when it names one with evidence).
    // `progress` is called from this thread; `cancel` is polled after each section or decoding
    // step (then cancelled, not ok); `itemDrafted` sees each drafted item as it comes (drafter only).
    QsResult generate(const Document &document, const Annotations &annotations, const QString &belowId,
                      const QsSettings &settings = {}, const QsProgress &progress = {},
                      const std::atomic_bool *cancel = nullptr, const DraftItemSink &itemDrafted = {}) const;
    // The same for a text already in both shapes (qsTextOfDocument, qsTextOfMeeting).
    QsResult generate(const QsText &text, const QsSettings &settings = {}, const QsProgress &progress = {},
                      const std::atomic_bool *cancel = nullptr, const DraftItemSink &itemDrafted = {}) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace folio::pipeline
