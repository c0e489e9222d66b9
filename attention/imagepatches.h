#pragma once
// The image the model saw (issue 48): for a run whose windows hold image tokens after the text
// (LayoutLMv3: a visual [CLS] then side x side patches of the resized page; LayoutLMv2: its 7 x 7
// pooled visual tokens), a word's attention to those tokens as a side x side grid over the page
// image, and an image cell's attention back to the words. The page image is resized to a square
// by both models (no aspect kept), so patch (r, c) covers the page's r-th row / c-th column of
// cells. Image tokens are the trace's "visual N" tokens (pipeline/attentionrun.h: no word).
// No QtWidgets, no engine.

#include "attention/attentiontrace.h"

#include <QString>

#include <vector>

namespace folio {

struct ImagePatchGrid
{
    int window = -1;
    int firstPatch = 0;  // local index (in the window) of patch (0, 0)
    int side = 0;        // patches per row and column
    bool visualCls = false; // a visual [CLS] token precedes the patches (LayoutLMv3)
    int patchCount() const { return side * side; }
};

// The image tokens of `window`. False + *why (naming the model type) when the window has none
// (a checkpoint without an image branch, or one run without the page image) or their count is no
// square (with or without one [CLS]).
bool imagePatchGrid(const AttentionTrace &trace, int window, ImagePatchGrid *grid, QString *why);

// A window of the trace that has the token and image tokens: the first such window, -1 when none.
int imagePatchWindowOfToken(const AttentionTrace &trace, int token);

// Attention of global token `token` to each patch (row-major, side * side values); layer / head
// -1 averages over layers / heads. Empty when the token is not in the grid's window.
std::vector<float> attentionToPatches(const AttentionTrace &trace, const ImagePatchGrid &grid, int token, int layer, int head);

// Attention from patch `patch` (row-major) to the document's words: per word, the sum over its
// tokens in the grid's window (0 for words not there); `wordCount` values.
std::vector<float> patchAttentionToWords(const AttentionTrace &trace, const ImagePatchGrid &grid, int patch, int layer, int head,
                                         int wordCount);

} // namespace folio
