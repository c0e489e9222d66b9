#pragma once
// Page-by-page prediction with the layout tagger (a "folio-formtagger" checkpoint) or a Hugging Face
// token-classification folder (config.json model_type "layoutlmv3": pipeline/hfpagelabeller.h, the
// reference's own window then sliding windows past its cut, word labels repaired into entities by inference/models/wordlabels.h, confidence = mean word
// confidence) and the results merged back into Annotations. The one copy used by `folio-cli predict` and the GUI's
// ModelWorker.
//
//   folio::pipeline::DocumentTagger tagger;
//   if (!tagger.load(checkpointDir, &error)) fail(error);     // cached: same folder, no reload
//   const folio::pipeline::DocumentPrediction p = tagger.predict(document);
//   if (!p.ok) fail(p.error);
//   folio::pipeline::appendSuggestions(p, document, tagger.checkpointName(), &annotations);
//
// Each Document page with non-blank words is one model page (taggerPagesOfDocument);
// a Hugging Face folder is fed every word of the page, white-space-only ones too, as its reference
// tokenizer is. An entity never runs across a page break. Not thread-safe: use one DocumentTagger per thread.
// No exception leaves these functions.

#include "document/annotations.h"
#include "document/document.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace folio::pipeline {

struct PredictedSpan
{
    int page = 0;               // Document page
    QString label;              // e.g. "QUESTION"
    double confidence = 0;      // mean probability of the span's tags
    std::vector<int> words;     // Document::words indices, in reading order
};

struct PagePredictionInfo
{
    int page = 0;  // Document page
    int words = 0; // words the model saw (non-blank ones; every word for a Hugging Face folder)
    int entities = 0;
};

// The tagger's encoder states of each page of one prediction (defined in documentprediction.cpp).
struct EncoderStates;

struct DocumentPrediction
{
    bool ok = false;
    bool cancelled = false;
    QString error; // names the document or checkpoint
    std::vector<PagePredictionInfo> pages;
    std::vector<PredictedSpan> entities; // page by page
    // The model's own label of each Document word (index as Document::words): the tagger's tag or
    // the Hugging Face word label (its first sub-token's argmax), "" for a word it did not label.
    QStringList wordLabels;
    // What the model could not do as its architecture would, once each (e.g. a LayoutLMv2 folder
    // without visual backbone weights, or a page without an image: text + layout only).
    QStringList warnings;
    // Kept when options.links is on and the checkpoint has a link head: suggestLinks() then reads
    // these instead of running the encoder a second time.
    std::shared_ptr<const EncoderStates> encoderStates;
    int words() const;
};

struct PredictOptions
{
    bool viterbi = true;                           // constrained BIO decoding (false: argmax); tagger only
    bool layoutOrder = false;                      // words in the layout-aware order (document/layoutorder.h), tagger only;
                                                   // always so for a checkpoint trained that way (usesLayoutOrder())
    bool links = true;                             // link suggestions when the checkpoint has a link head
    std::function<void(int done, int total)> progress; // pages, optional
    const std::atomic_bool *cancel = nullptr;       // polled between pages, optional
};

class DocumentTagger
{
public:
    DocumentTagger();
    ~DocumentTagger();
    DocumentTagger(const DocumentTagger &) = delete;
    DocumentTagger &operator=(const DocumentTagger &) = delete;

    // Loads a checkpoint folder (dispatch on config.json's model_type); a folder already loaded is
    // kept. False + *error (naming the file) on failure, and the previous checkpoint stays loaded.
    // With `int8`, the model's encoder Linear layers run dynamic int8 (Predictor::quantizeDynamicInt8 for a
    // folio-formtagger, HfTokenClassifier::quantizeDynamicInt8 for a Hugging Face folder: layoutlmv3,
    // layoutlmv2 / layoutxlm, lilt; issue 35); a LibTorch without a quantized engine refuses it. The
    // cache is per folder and setting.
    bool load(const QString &checkpointDir, QString *error, bool int8 = false);
    bool isLoaded() const;
    bool isInt8() const; // the loaded model runs in dynamic int8 (loaded with `int8`)
    // True when the loaded checkpoint was trained on words in the layout-aware order (config.json
    // "word_order": "layout"): predict() then serialises every document by layout.
    bool usesLayoutOrder() const;
    QString checkpointDir() const;
    QString checkpointName() const; // the folder's name, as an AnnotationSource names the model
    QStringList labels() const;

    DocumentPrediction predict(const Document &document, const PredictOptions &options = {}) const;

    // True when the loaded folio-formtagger checkpoint carries a key -> value link head
    // (link_head.json + link_head.safetensors, inference/formtagger/linking.h).
    bool hasLinkHead() const;
    // Suggested links (source Model, state Suggested, fresh "l" ids, best first) among the entities
    // of `annotations` that are not rejected, page by page. An entity that already receives a link
    // the user made or accepted gets none, and a pair the user rejected is not proposed again.
    // Empty without a link head. False + *error on failure. `tagged` (optional): this tagger's
    // prediction of `document`, whose encoder states are reused (pages it does not fit are encoded again).
    bool suggestLinks(const Document &document, const Annotations &annotations, std::vector<Link> *links, QString *error,
                      const PredictOptions &options = {}, const DocumentPrediction *tagged = nullptr) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// The spans as model suggestions (fresh "m" ids, source Model/checkpointName, state Suggested).
void appendSuggestions(const DocumentPrediction &prediction, const Document &document, const QString &checkpointName,
                       Annotations *out);

// One model run as the GUI, `folio-cli predict --project` and batch runs do it: the tagger's
// entities merged into a copy of `current` (mergeModelAnnotations), then link suggestions among the
// merged entities (the user's included). *suggestions is what mergeModelAnnotations takes: the
// suggested entities (ids fresh in `current`) and links between them or to entities `current`
// keeps. *prediction (optional) receives the tagger's spans. False + *error.
bool predictSuggestions(const DocumentTagger &tagger, const Document &document, const Annotations &current,
                        Annotations *suggestions, QString *error, const PredictOptions &options = {},
                        DocumentPrediction *prediction = nullptr);

// predictSuggestions after the prediction: `prediction` (tagger.predict of `document`, ok) merged
// into a copy of `current`, links suggested from the prediction's encoder states. What `folio-cli
// predict --project` does with the prediction it has already printed.
bool suggestionsFromPrediction(const DocumentTagger &tagger, const DocumentPrediction &prediction, const Document &document,
                               const Annotations &current, Annotations *suggestions, QString *error,
                               const PredictOptions &options = {});

// The union of the words' 0-1000 boxes.
NormBox spanNormBox(const PredictedSpan &span, const Document &document);

} // namespace folio::pipeline
