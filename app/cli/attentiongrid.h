#pragma once
// folio-cli attention --grid (issue 48): every layer x head of a traced run as thumbnails
// (attention/headgrid.h), the bias terms as extra rows, heads sorted by mean 2-D distance or
// entropy; the per-head statistics printed as a table (or JSON).

#include "attention/attentiontrace.h"
#include "document/document.h"

#include <QString>
#include <QSize>

namespace folio::cli {

struct AttentionGridArgs
{
    QString out;          // .png, .svg or .html
    QSize size;
    int word = -1;        // Document word to select (-1: the whole matrix)
    QString sort;         // "none", "distance", "entropy"
    bool biasRows = true;
    bool json = false;
};

// Throws CliError naming the problem (a word not in the trace, a bad --sort, an unwritable file).
void writeAttentionGrid(const AttentionTrace &trace, const Document *document, const AttentionGridArgs &args);

} // namespace folio::cli
