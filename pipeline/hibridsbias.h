#pragma once
// HIBRIDS' learned hierarchical bias of a checkpoint laid over a document's section tree: for every
// pair of sections (x, y), the bias the model adds to attention from x's tokens to y's, looked up
// in a layer's `relative_hierarchical_bias.weight` table [600, heads] by the pair's (PathLen,
// LvlDiff) as inference/layers/hibrids.h indexes it (a virtual root joins the top-level
// sections). Encoder variant: one table per encoder layer; decoder variant: the last decoder
// layer's scalar table (one "head"). Sections come from Document::sections (its tree).
//
//   HibridsSectionBias b = hibridsSectionBias(checkpointDir, doc);
//   if (!b.ok) show(b.error);                       // names the folder and the problem
//   float v = b.at(layer, head, x, y);
//
// The weights are found as the generator finds them: model.safetensors (memory-mapped, only the
// bias tensors read), else pytorch_model.bin, else a fairseq checkpoint_best.pt (read whole by the
// bounded torch readers, inference/checkpoint/torchpickle.h and fairseq.h). Refuses a checkpoint
// without such tables, a document without sections, more than 1,024 sections, or a tree whose
// paths reach 20 steps (the table has no row for them). No exception leaves these functions.

#include "document/document.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace folio::pipeline {

struct HibridsSectionBias
{
    bool ok = false;
    QString error;
    QStringList tableNames; // the tensors used, one per layer
    int layers = 0, heads = 0, sections = 0;
    std::vector<float> values; // [layers][heads][sections][sections]

    float at(int layer, int head, int x, int y) const
    {
        return values[((size_t(layer) * size_t(heads) + size_t(head)) * size_t(sections) + size_t(x)) * size_t(sections) + size_t(y)];
    }
    // The [sections x sections] matrix of one layer and head; -1 averages over layers / heads.
    std::vector<float> matrix(int layer, int head) const;
};

constexpr int kMaxHibridsSections = 1024;

HibridsSectionBias hibridsSectionBias(const QString &checkpointDir, const Document &doc);

} // namespace folio::pipeline
