#pragma once
// Every head at once (issue 48): a layers x heads grid of thumbnails of one trace window, with the
// bias terms (bias.1d, bias.2d_x, ...) as extra rows, and per-head statistics to sort by. Used by
// `folio-cli attention --grid`. No engine, no QtWidgets; painting needs a QGuiApplication.
//
// Thumbnails: for the whole matrix, the window's [L, L] matrix of that head, one cell per
// query/key pair (scaled); for a selected token (a word's first token in the window), that
// token's row drawn on the page: every key word's 0-1000 box filled with its attention (or
// its bias value) — the page the model saw, as the attention dock colours it.
// Statistics per head (attention rows only, over the window's tokens that map to a word):
//  - mean 2-D distance: sum over queries q and keys k of P[q, k] * |c_q - c_k| / #queries, c the
//    box centre in 0-1000 page units (how far the head looks on the page);
//  - entropy: mean over queries of -sum_k P[q, k] ln P[q, k], in nats (how spread it looks).
// Sorting reorders the heads inside each layer's row (ascending); each thumbnail is labelled
// with its head number.

#include "attention/attentiontrace.h"

#include <QRectF>
#include <QSize>
#include <QString>

#include <vector>

namespace folio {

struct HeadStatistics
{
    int layer = 0, head = 0;
    double meanDistance = 0; // NaN without boxes
    double entropy = 0;
};

// Per layer and head of window `window` (empty when out of range). `tokenBoxes`: a 0-1000 box per
// global token of the trace (null rect for tokens without a word).
std::vector<HeadStatistics> headStatistics(const AttentionTrace &trace, int window, const std::vector<QRectF> &tokenBoxes);

enum class HeadSort { None, Distance, Entropy };

struct HeadGridOptions
{
    int window = 0;
    int selectedToken = -1;   // global token index; -1 = the whole matrix
    HeadSort sort = HeadSort::None;
    bool biasRows = true;
    QSize size = QSize(1600, 1200);
    QString title;
};

// Writes PNG or SVG (by the path's suffix). False + *error naming the file or the problem
// (window / token out of range, not a .png / .svg path, cannot write).
bool saveHeadGrid(const AttentionTrace &trace, const std::vector<QRectF> &tokenBoxes, const HeadGridOptions &options,
                  const QString &path, QString *error);

} // namespace folio
