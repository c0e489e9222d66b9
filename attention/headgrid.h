#pragma once
// Every head at once (issue 48): a layers x heads grid of thumbnails of one trace window, with the
// bias terms (bias.1d, bias.2d_x, ...) as extra rows, and per-head statistics to sort by. Used by
// `folio-cli attention --grid` and the GUI's Head Grid (ui/attention/headgridpanel.h). No engine, no QtWidgets; painting needs a QGuiApplication.
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
#include "attention/heatmaprender.h"

#include <QImage>
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
    double meanTreeDistance = 0; // NaN until addTreeDistances() (DOM or section tree, in edges)
};

// Per layer and head of window `window` (empty when out of range). `tokenBoxes`: a 0-1000 box per
// global token of the trace (null rect for tokens without a word).
std::vector<HeadStatistics> headStatistics(const AttentionTrace &trace, int window, const std::vector<QRectF> &tokenBoxes);

enum class HeadSort { None, Distance, Entropy, TreeDistance };

// Mean tree distance per head (the GUI's sort for web pages and sectioned documents): as the 2-D
// distance with |c_q - c_k| replaced by the number of edges between the tokens' tree nodes.
// `tokenNode`: a node per global token (-1: none); `parent`: the tree's parent array (-1: root).
// Heads whose queries have no node keep NaN.
void addTreeDistances(std::vector<HeadStatistics> *stats, const AttentionTrace &trace, int window,
                      const std::vector<int> &tokenNode, const std::vector<int> &parent);

// Head order of one layer's row: ascending by the statistic, NaN last, ties in head order.
std::vector<int> sortedHeadOrder(const std::vector<HeadStatistics> &stats, int layer, int headCount, HeadSort sort);

// One row of the grid: a layer's attention or one bias term, each a [heads, Lw, Lw] block.
struct HeadGridRow
{
    QString name;         // "layer 0", "bias.2d_x"
    int layer = -1;       // attention rows; -1 for a bias term
    QString biasTerm;     // bias rows
    const float *block = nullptr;
    bool signedTerm = false;
};
// The layers, then (biasRows) each bias term of the window whose shape fits.
std::vector<HeadGridRow> headGridRows(const AttentionTrace &trace, int window, bool biasRows);
// One colour scale per row (heads of a layer compare, layers need not).
HeatmapScale headGridRowScale(const HeadGridRow &row, int headCount, int length);
// One thumbnail (side x side, ARGB32) as saveHeadGrid draws it: the head's [Lw, Lw] matrix, or
// the selected token's row on the page.
QImage headThumbnail(const AttentionTrace &trace, int window, const HeadGridRow &row, int head, int selectedToken,
                     const std::vector<QRectF> &tokenBoxes, const HeatmapScale &scale, int side);

// A 0-1000 box per global token from its word (null rect for tokens without a word or document).
std::vector<QRectF> headGridTokenBoxes(const AttentionTrace &trace, const Document *document);
// The first token the model saw of Document word `word` and its window; false when none.
bool headGridTokenOfWord(const AttentionTrace &trace, int word, int *token, int *window);

// Bytes of the trace's matrices (every window's layers and bias terms, float32).
qint64 attentionTraceBytes(const AttentionTrace &trace);
// A one-window trace of tokens [first, first + count) of `window` (its matrices cropped, tokens
// renumbered from 0): the smaller window offered when a trace is too large for the grid.
AttentionTrace cropAttentionWindow(const AttentionTrace &trace, int window, int first, int count);

struct HeadGridOptions
{
    int window = 0;
    int selectedToken = -1;   // global token index; -1 = the whole matrix
    HeadSort sort = HeadSort::None;
    bool biasRows = true;
    QSize size = QSize(1600, 1200);
    QString title;
    std::vector<int> tokenTreeNode; // HeadSort::TreeDistance: node per global token
    std::vector<int> treeParent;    // and the tree's parent array
};

// Whether options.window is one of the trace's windows and options.selectedToken (when set) lies in
// it; false + *error naming what is wrong. saveHeadGrid and saveHeadGridHtml check this first.
bool checkHeadGridWindow(const AttentionTrace &trace, const HeadGridOptions &options, QString *error);

// Writes PNG or SVG (by the path's suffix). False + *error naming the file or the problem
// (window / token out of range, not a .png / .svg path, cannot write).
bool saveHeadGrid(const AttentionTrace &trace, const std::vector<QRectF> &tokenBoxes, const HeadGridOptions &options,
                  const QString &path, QString *error);
// The same grid as one self-contained HTML page: a table per row of PNG thumbnails (data: URLs)
// with each head's statistics in its caption and tooltip. False + *error as saveHeadGrid.
bool saveHeadGridHtml(const AttentionTrace &trace, const std::vector<QRectF> &tokenBoxes, const HeadGridOptions &options,
                      const QString &path, QString *error);

} // namespace folio
