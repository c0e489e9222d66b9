#pragma once
// Extract Fields (issue 15): the values of a project's fields on one document, as FieldValue
// suggestions (source Model, state Suggested, confidence), one per field the extractor answered;
// a field whose best answer is "no value on this page" comes back as a suggestion with no words
// and no text. Shared by the GUI's FieldsWorker (and anything headless).
//
//   web pages  -> a Hugging Face MarkupLM folder (markuplmfields.h): QA asks each field, a token
//                 classifier answers the fields named like its labels; structured data for fields
//                 it leaves empty;
//              -> a WebFormer checkpoint (config.json model_type "webformer"): the chosen one, else
//                 the shipped product model (shippedFieldModelDir()). The model answers the fields
//                 it was trained on (with the page's structured-data candidates prepended when its
//                 folio.json says "structured_candidates"); fields it does not know, and fields it
//                 answers "no value", take the page's schema.org / Open Graph value when there is
//                 one (source checkpoint "structured-data:<json-ld|microdata|rdfa|meta>", text only);
//                 the unknown fields are named in a note; for a field whose "<field>-ranker.json"
//                 the checkpoint folder holds (price and sku in the shipped one; any field of a
//                 model trained on a project), the value is the page's structured-data one or the
//                 ranker's pick among the page text's candidates, in the order the ranker learned
//                 (checkpoint "<field>-ranker", its words highlighted), else the model's;
//               -> no checkpoint at all: structured data alone, with a note when the page has none;
//   scans/PDFs -> a layout tagger (folio-formtagger / Hugging Face LayoutLMv3): its entities whose
//                 label equals a field name (case-insensitively, B-/I- stripped) become that field's
//                 value; a tagger with none of the field names is refused with a message naming
//                 its labels and the fields.
// Pages with no text give ok with no values and a note; pages past the model's text budget are
// truncated by the model and say so in a note. No exception leaves these functions.

#include "document/annotations.h"
#include "document/document.h"
#include "pipeline/hfpagelabeller.h" // checkpointModelType
#include "pipeline/webfieldset.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <vector>

namespace folio::pipeline {

struct FieldExtractionOptions
{
    QString checkpointDir;                               // empty: shipped model, else structured data
    bool shippedModel = true;                            // false: never fall back to the shipped model
    std::function<void(int done, int total)> progress;   // steps, optional
    const std::atomic_bool *cancel = nullptr;            // polled between steps, optional
    // Dynamic int8 Linear layers for the model that answers (WebFormer, MarkupLM or the tagger;
    // issue 35); its source then ends in " (int8)". A LibTorch without a quantized engine fails the
    // extraction with a message saying so.
    bool int8 = false;
};

struct FieldExtraction
{
    bool ok = false;
    bool cancelled = false;
    QString error;                 // names the document or the checkpoint
    QString source;                // what answered: "WebFormer <folder>", "tagger <folder>", "structured data"
    QStringList notes;             // unknown fields, truncation, empty page, ...
    QStringList unknownFields;     // fields the model was not trained on
    std::vector<FieldValue> values; // suggestions, in field-set order
};

FieldExtraction extractFields(const Document &document, const std::vector<FieldSpec> &fields,
                              const FieldExtractionOptions &options = {});

// The shipped product-field model: the first folder (by name) under resources/models whose
// config.json has model_type "webformer"; empty when none is shipped.
QString shippedFieldModelDir();
// The fields a WebFormer checkpoint was trained on (config.json "fields"; empty when unreadable).
QStringList checkpointFields(const QString &checkpointDir);
// Page word index (WebFormer's order: text nodes in document order, each node's words in Document
// order) -> Document::words index.
std::vector<int> webPageWordOrder(const Document &document);

} // namespace folio::pipeline
