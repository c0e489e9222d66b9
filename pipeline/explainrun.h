#pragma once
// Why a label / what if, for the GUI (issue 48): the layout tagger's labels per Document word, the
// label diff of a what-if edit (pipeline/whatif.h), and one word's attributions as table rows.
// Built on inference::TaggerExplainer (inference/formtagger/taggerexplain.h says what each
// attribution is) and attention/attributions.h (rollout); the same quantities as folio-cli explain.
// No QtWidgets; nothing throws.

#include "document/document.h"
#include "inference/formtagger/taggerexplain.h"
#include "pipeline/modelinputs/taggerpages.h"

#include <QRectF>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace folio::pipeline {

// The tagger's label of every Document word ("" for blank words, which it does not see), page by
// page in the explainer's word order. `cancelled` (optional) is asked between pages: true stops the
// run with ok = false and error "cancelled".
struct WordLabels
{
    bool ok = false;
    QString error;
    QStringList labels;                    // one per Document word
    std::vector<DocumentTaggerPage> pages; // what the tagger saw
};
WordLabels taggerWordLabels(const inference::TaggerExplainer &explainer, const Document &document,
                            const std::function<bool()> &cancelled = {});

// Words whose label differs between the document and an edited copy of it (same words, same
// order: pipeline::applyWordEdits keeps every index), and words the edit deleted.
struct LabelChange
{
    int word = -1;
    QString text;   // the original word's text
    QString before; // label on the document
    QString after;  // label on the edited copy ("" when deleted)
    bool deleted = false;
};
std::vector<LabelChange> labelChanges(const Document &original, const Document &edited, const QStringList &before,
                                      const QStringList &after);

struct AttributionRow
{
    int word = -1;  // Document word index
    QString text, label;
    QRectF box;     // page units
    double rollout = 0;
    double gradInput = 0, gradInputText = 0, gradInputPosition = 0, gradInputBox = 0;
    double ig = 0, igText = 0, igPosition = 0, igBox = 0;
};

// One word's attributions over the words of its model window. Rows in window order.
struct WordAttributions
{
    bool ok = false;
    QString error;
    int word = -1;
    QString text, label;
    double logit = 0, baselineLogit = 0, igSum = 0;
    bool gradients = false; // gradient x input computed
    int igSteps = 0;        // 0: no integrated gradients
    int igPower = 3;
    int layers = 0, heads = 0, windowWords = 0;
    double forwardSeconds = 0, gradientSeconds = 0, igSeconds = 0;
    std::vector<AttributionRow> rows;
};
// `labels` from taggerWordLabels on the same document. Refused with a message: a word index out of
// range, a blank word (the tagger does not see it), the explainer's own errors.
WordAttributions explainWordAttributions(inference::TaggerExplainer &explainer, const Document &document,
                                         const WordLabels &labels, int word,
                                         const inference::TaggerExplainOptions &options);

} // namespace folio::pipeline
