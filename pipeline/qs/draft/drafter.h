#pragma once
// The question-summary drafter (issue 31): reads the whole document, follows its section tree and
// writes a hierarchy from the document's own sentences.
//
//   QsDrafter d;  d.load(dir, &error);                      // <dir>/drafter.json (salience + templates)
//   QsDraft draft = d.draft(draftSourceFromDocument(doc), options, [](int done, int total) { return true; });
//   inference::QsHierarchy h = draft.hierarchy();           // for scoring / linearising
//
//  - root summary: the most salient sentence of each top-level section in turn (document order),
//    then the best of the rest, up to `rootWords`;
//  - one item per section with at least `minSectionWords` words in its subtree, depth-first
//    numbering, at most `maxDepth` levels and `maxItems` items (upper levels are kept first);
//    summary: the most salient sentences of the section's subtree, none repeating another's
//    content words by more than half, up to `summaryWords`, in document order; in transcripts each
//    sentence keeps its speaker ("Marketing: ...");
//  - questions: the most frequent mined template filled with the section's topic; transcripts also
//    ask what the section's most active speaker thought (same depth); no two items share a question
//    (a repeated one names its parent section, or is dropped); with a `questionWriter` (a neural
//    question generator, questiongen.h) each item's question is written from its summary and
//    evidence (the section title, then the section's sentences, the summary's first), the template
//    being the fallback when the writer returns nothing or a question already asked;
//  - evidence: the section and the sentences of the summary (word ranges).
// Progress is reported once per section; returning false cancels; `itemDrafted` sees each item as it
// is drafted. Linear in the document.
#include "inference/qs/qslinearize.h"
#include "pipeline/qs/draft/draftsource.h"
#include "pipeline/qs/draft/questiontemplates.h"
#include "pipeline/qs/draft/salience.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <utility>
#include <vector>

namespace folio::pipeline {

struct DraftOptions
{
    int maxItems = 40;
    int maxDepth = 3;
    int summaryWords = 80;
    int rootWords = 110;
    int minSectionWords = 50;
    int speakerQuestions = 1; // per section of a transcript
};

struct DraftItem
{
    QString question, summary;
    int depth = 1;        // 1 = child of the root
    int section = -1;     // DraftSource::sections index
    std::vector<std::pair<int, int>> evidence; // (section, sentence) of the summary, document order
    double confidence = 0.0; // mean predicted salience of its sentences, clamped to [0, 1]
    bool questionFromWriter = false; // the question came from QsDrafter::questionWriter (not a template)
};

struct QsDraft
{
    bool ok = false;
    bool cancelled = false;
    QString error;
    QString rootSummary;
    std::vector<std::pair<int, int>> rootEvidence;
    std::vector<DraftItem> items; // pre-order
    QStringList notes;            // structure found, limits reached
    inference::QsHierarchy hierarchy() const;
};

using DraftProgress = std::function<bool(int done, int total)>;
// Called with each item as it is drafted (pre-order, the order of QsDraft::items), from the
// drafting thread: a view can show drafts as they arrive.
using DraftItemSink = std::function<void(const DraftItem &item)>;

class QsDrafter
{
public:
    SalienceModel salience;
    QuestionTemplates questions;
    DraftOptions defaults;
    QString trainedOn; // data description, written to drafter.json
    // Optional: (answer, evidence sentences) -> question, empty when it has none (not saved).
    std::function<QString(const QString &answer, const QStringList &evidence)> questionWriter;

    static QString fileName() { return QStringLiteral("drafter.json"); }
    static bool isDrafterFolder(const QString &dir);
    bool load(const QString &dir, QString *error);
    bool save(const QString &dir, QString *error) const;

    QsDraft draft(const DraftSource &source, const DraftOptions &options, const DraftProgress &progress = {},
                  const DraftItemSink &itemDrafted = {}) const;
};

} // namespace folio::pipeline
