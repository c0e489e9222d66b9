#pragma once
// Running a checkpoint with the AttentionTrace on and turning its outputs into the view-side
// AttentionTrace (attention/attentiontrace.h). The bridge between folio::inference::ModelRunner
// (torch-free facade) and the attention views, in folio_pipeline (no QtWidgets): used by
// AttentionPanel's worker and by `folio-cli attention`. Blocking: call it off the GUI thread.
// No exception leaves these functions.
//
// Inputs from a Document: the checkpoint's tokenizer encodes the words in reading order, every
// sub-token keeps its word's 0-1000 box; the token sequence is cut into consecutive windows of
// (model window - 2) tokens, each wrapped in the tokenizer's CLS/SEP, and run one by one
// (stitched in the view). Labels: argmax of `logits` at each word's first sub-token.
//
// "folio-formtagger" checkpoints (Folio's word-level layout tagger, inference/trainer.h) are run
// through inference::Predictor instead: units are words (the token -> word map is the identity on
// the non-blank words), one word page per Document page, windows of the config's max_words; the
// trace holds `attentions.N` and `bias.1d` / `bias.2d_x` / `bias.2d_y` (zeros when ablated), the
// labels are the Viterbi-decoded BIO tags per Document word ("" for blank words). maxWindow is not
// used for them; prepared inputs are refused.
//
// Hugging Face token-classification folders (a model_type HfTokenClassifier runs — layoutlmv3, lilt,
// layoutlmv2 — with vocab.json + merges.txt and id2label, or a layoutlmv2 / lilt folder
// HfTokenClassifier::checkFolder accepts (WordPiece, XLM-R), as DocumentTagger runs them) go through pipeline/hfpagelabeller.h: one word page per
// Document page (every word, white-space-only ones too), HfTokenClassifier's windows (the
// reference's truncated call, then sliding windows past its cut) run with the trace on and stitched
// (a word in two overlapping windows has tokens in both), specials mapped to no word; labels are
// the words' labels (first sub-token's argmax). maxWindow is not used for them. Windows longer than
// their text tokens (LayoutLMv2's visual tokens) hold tokens named "visual N" that map to no word.
//
// Hugging Face MarkupLM token-classification folders on a web page: the page's nodes and XPaths as
// Extract Fields gives them to the model (pipeline/markuplmfields.h), HfMarkupLM's windows with the
// trace on; a node's tokens spread over its Document words in order (the DOM node view sums them);
// labels are the nodes' labels on their words; no bias terms. QA folders are refused.

#include "attention/attentiontrace.h"
#include "attention/attentionviewmodel.h"

#include <QString>
#include <QStringList>

#include <cstdint>

namespace folio {

struct Document;

struct AttentionRunResult
{
    bool ok = false;
    QString error;
    AttentionTrace trace;
    QStringList labels; // per word (document runs) or per token (prepared inputs); empty without logits
};

// A prepared inputs file (as in ../shared/fixtures/parity/*/inputs.safetensors). batchRow >= 0
// takes that row as the one window; -1 takes every row as a window of its own.
AttentionRunResult runAttentionOnInputs(const QString &checkpointDir, const QString &inputsPath, int batchRow,
                                        std::uint32_t disabledBiases);

// A document, windowed as described above. maxWindow > 0 caps the window below the model's.
AttentionRunResult runAttentionOnDocument(const QString &checkpointDir, const Document &document,
                                          std::uint32_t disabledBiases, int maxWindow = 0);

// Adds the trace's raw matrices to an export: every layer's `attentions.N` and every bias term
// (`bias.1d`, ...) as [heads, Lw, Lw] float32; a stitched trace names them per window
// (`window.W.attentions.N`, `window.W.bias.1d`). Used by `folio-cli attention --out x.safetensors`.
void appendTraceMatrices(const AttentionTrace &trace, AttentionExport *out);

// Writes the view's matrices with their identity metadata (safetensors, atomically).
bool writeAttentionSafetensors(const AttentionExport &data, const QString &path, QString *error);

} // namespace folio
