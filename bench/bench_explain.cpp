// Benchmark (issue 48): what an explanation costs against one forward pass, and how often the
// shipped layout tagger's labels move when a word's box moves.
//
// Part 1, cost: on one FUNSD test page with resources/models/funsd-layout, in this process, for
// each of R target words: one plain forward of the window (no grad), rollout (that forward with
// the trace + the rollout row), gradient x input (one forward + backward), integrated gradients
// with k steps (k/8 batched forward + backward passes of 8 rows, and the baseline's forward), a what-if
// move (edited copy + re-prediction). Medians over the words, each as a ratio to the
// median forward of the same run.
//
// Part 2, shift study: on every FUNSD test page (or the first --pages N), every --every-th word the
// tagger sees is moved right by d page pixels (d = 10, 50, 200; clamped onto the page as
// folio-cli explain --move does), the page re-predicted, and the word's label compared with its
// label on the unedited page; the same with the 1-D and 2-D bias families switched off (labels
// compared with the ablated model's own unedited labels).
//
// --model DIR runs both parts with another folio-formtagger checkpoint (any --arch: the shift study
// only predicts, so it needs no gradient path); --name sets its row name; --no-cost skips part 1.
// The shift rows also go to stdout as one JSON line per setting (bench/bench_shift_study.sh).
//
// bench_explain [FUNSD_DIR] [--pages N] [--every K] [--steps K] [--no-shift] [--no-cost]
//               [--model DIR] [--name NAME]
#include "bench/benchclock.h"
#include "attention/attributions.h"
#include "inference/formtagger/taggerexplain.h"
#include "inference/models/runoptions.h"
#include "pipeline/documentsource.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "pipeline/whatif.h"

#include <QCoreApplication>
#include <QDir>
#include <QStringList>

#include <algorithm>

#include <cstdio>
#include <vector>

using namespace folio;
namespace inf = folio::inference;
using folio::bench::median;
using folio::bench::seconds;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QString funsd = QStringLiteral(FOLIO_SHARED_DIR "/data/funsd/dataset/testing_data");
    int pagesWanted = 1000, every = 1, steps = 32;
    bool shift = true, cost = true;
    QString model = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout"), name = QStringLiteral("funsd-layout");
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--pages") && i + 1 < args.size()) pagesWanted = args[++i].toInt();
        else if (args[i] == QLatin1String("--every") && i + 1 < args.size()) every = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--steps") && i + 1 < args.size()) steps = args[++i].toInt();
        else if (args[i] == QLatin1String("--no-shift")) shift = false;
        else if (args[i] == QLatin1String("--no-cost")) cost = false;
        else if (args[i] == QLatin1String("--model") && i + 1 < args.size()) model = args[++i];
        else if (args[i] == QLatin1String("--name") && i + 1 < args.size()) name = args[++i];
        else funsd = args[i];
    }
    inf::TaggerExplainer explainer;
    std::string why;
    if (!explainer.load(model.toStdString(), &why)) {
        std::fprintf(stderr, "%s\n", why.c_str());
        return 1;
    }
    QStringList files = QDir(funsd + QStringLiteral("/annotations")).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    if (files.isEmpty()) {
        std::fprintf(stderr, "%s: no FUNSD annotations\n", qPrintable(funsd));
        return 1;
    }

    // ---- part 1: cost ---------------------------------------------------------------------------
    if (cost) {
        const QString path = funsd + QStringLiteral("/annotations/") + files.front();
        pipeline::LoadedDocument d = pipeline::loadDocumentFile(path);
        if (!d.ok) {
            std::fprintf(stderr, "%s\n", qPrintable(d.error));
            return 1;
        }
        const auto pages = pipeline::taggerPagesOfDocument(d.document, nullptr, explainer.wordOrder() == "layout");
        const inf::TaggerPage &page = pages.front().taggerPage;
        const int n = int(page.words.size());
        std::vector<double> fwd, roll, gi, ig;
        const int R = 9;
        for (int r = 0; r < R + 1; ++r) {
            const int target = (r * 37) % n;
            inf::TaggerExplanation ex;
            inf::TaggerExplainOptions o;
            o.gradients = false;
            double t0 = seconds();
            if (!explainer.explain(page, target, "", o, &ex, &why)) {
                std::fprintf(stderr, "%s\n", why.c_str());
                return 1;
            }
            const std::vector<double> row = attentionRolloutRow(ex.attentions, ex.layers, ex.heads, ex.wordCount, target - ex.firstWord);
            const double rolloutOnly = seconds() - t0; // includes the Viterbi labels of the page (one more forward)
            (void)rolloutOnly;
            const double forward = ex.forwardSeconds;
            t0 = seconds();
            (void)attentionRolloutRow(ex.attentions, ex.layers, ex.heads, ex.wordCount, target - ex.firstWord);
            const double rolloutMaths = seconds() - t0;
            o.gradients = true;
            o.igSteps = steps;
            if (!explainer.explain(page, target, ex.label, o, &ex, &why)) {
                std::fprintf(stderr, "%s\n", why.c_str());
                return 1;
            }
            if (r == 0)
                continue; // warm-up
            fwd.push_back(forward);
            roll.push_back(forward + rolloutMaths); // the traced forward + the rollout row
            gi.push_back(ex.gradientSeconds);
            ig.push_back(ex.igSeconds);
        }
        // A what-if as folio-cli explain --move does it, the unedited labels already known: the edit
        // on a copy of the Document, its model page, one prediction (Viterbi over the page).
        std::vector<double> whatIf;
        for (int r = 0; r < R + 1; ++r) {
            const int word = pages.front().wordIndex[std::size_t((r * 37) % n)];
            const double t0 = seconds();
            const pipeline::EditedDocument e = pipeline::applyWordEdits(
                d.document, {pipeline::WordEdit{pipeline::WordEdit::Kind::Move, word, 50, 0}});
            const auto edited = pipeline::taggerPagesOfDocument(e.document, nullptr, explainer.wordOrder() == "layout");
            std::vector<std::string> tags;
            if (!e.ok || !explainer.predict(edited.front().taggerPage, &tags, &why)) {
                std::fprintf(stderr, "what-if: %s %s\n", qPrintable(e.error), why.c_str());
                return 1;
            }
            if (r > 0)
                whatIf.push_back(seconds() - t0);
        }
        const double f = median(fwd);
        std::printf("cost on %s (%d words, window %d), %d target words, median seconds and ratio to one forward:\n",
                    qPrintable(files.front()), n, std::min(n, explainer.maxWords()), R);
        std::printf("  forward (no grad)          %.4f s  1.00x\n", f);
        std::printf("  rollout (traced forward)   %.4f s  %.2fx\n", median(roll), median(roll) / f);
        std::printf("  gradient x input           %.4f s  %.2fx\n", median(gi), median(gi) / f);
        std::printf("  integrated gradients k=%-3d %.4f s  %.2fx  (k/8 forward+backward passes of 8 rows)\n", steps, median(ig), median(ig) / f);
        std::printf("  what-if (move, re-predict) %.4f s  %.2fx\n", median(whatIf), median(whatIf) / f);
        std::fflush(stdout);
    }
    if (!shift)
        return 0;

    // ---- part 2: shift study ----------------------------------------------------------------------
    const double shifts[3] = {10, 50, 200};
    const std::uint32_t settings[2] = {0, inf::Bias1D | inf::Bias2D};
    long tried[2][3] = {}, changed[2][3] = {}, changedElsewhere[2][3] = {};
    int pagesDone = 0;
    const double t0 = seconds();
    for (const QString &file : files) {
        if (pagesDone >= pagesWanted)
            break;
        pipeline::LoadedDocument d = pipeline::loadDocumentFile(funsd + QStringLiteral("/annotations/") + file);
        if (!d.ok)
            continue;
        ++pagesDone;
        const bool layout = explainer.wordOrder() == "layout";
        const auto pages = pipeline::taggerPagesOfDocument(d.document, nullptr, layout);
        for (int s = 0; s < 2; ++s) {
            std::vector<std::vector<std::string>> base;
            for (const auto &p : pages) {
                std::vector<std::string> tags;
                explainer.predict(p.taggerPage, &tags, &why, settings[s]);
                base.push_back(tags);
            }
            for (std::size_t pi = 0; pi < pages.size(); ++pi)
                for (std::size_t i = 0; i < pages[pi].wordIndex.size(); i += std::size_t(every)) {
                    const int word = pages[pi].wordIndex[i];
                    for (int k = 0; k < 3; ++k) {
                        const pipeline::EditedDocument e = pipeline::applyWordEdits(
                            d.document, {pipeline::WordEdit{pipeline::WordEdit::Kind::Move, word, shifts[k], 0}});
                        if (!e.ok)
                            continue;
                        const auto edited = pipeline::taggerPagesOfDocument(e.document, nullptr, layout);
                        // The same page, the same words (a move never blanks one); find the word again
                        // (a layout order may have moved it).
                        const auto &ep = edited[pi];
                        std::vector<std::string> tags;
                        if (!explainer.predict(ep.taggerPage, &tags, &why, settings[s]))
                            continue;
                        ++tried[s][k];
                        for (std::size_t j = 0; j < ep.wordIndex.size(); ++j) {
                            const auto at = std::find(pages[pi].wordIndex.begin(), pages[pi].wordIndex.end(), ep.wordIndex[j]);
                            const std::string before = base[pi][std::size_t(at - pages[pi].wordIndex.begin())];
                            if (tags[j] == before)
                                continue;
                            if (ep.wordIndex[j] == word)
                                ++changed[s][k];
                            else
                                ++changedElsewhere[s][k];
                        }
                    }
                }
        }
    }
    std::printf("shift study (%s): %d FUNSD test pages, every %d-th word moved right by d page pixels (%.0f s)\n",
                qPrintable(model), pagesDone, every, seconds() - t0);
    const double elapsed = seconds() - t0;
    const QByteArray label = name.toUtf8(), ablated = (name + QStringLiteral(", no 1-D/2-D bias")).toUtf8();
    for (int s = 0; s < 2; ++s)
        for (int k = 0; k < 3; ++k)
            std::printf("  %-22s d=%-4.0f words %6ld  own label changed %6ld (%.1f%%)  other words' labels changed per move %.2f\n",
                        s == 0 ? label.constData() : ablated.constData(), shifts[k], tried[s][k], changed[s][k],
                        tried[s][k] ? 100.0 * double(changed[s][k]) / double(tried[s][k]) : 0.0,
                        tried[s][k] ? double(changedElsewhere[s][k]) / double(tried[s][k]) : 0.0);
    for (int s = 0; s < 2; ++s)
        for (int k = 0; k < 3; ++k)
            std::printf("{\"model\": \"%s\", \"biases_off\": %s, \"d\": %.0f, \"pages\": %d, \"every\": %d, \"words\": %ld, "
                        "\"own_changed\": %ld, \"others_changed\": %ld, \"seconds\": %.1f}\n",
                        label.constData(), s ? "true" : "false", shifts[k], pagesDone, every, tried[s][k], changed[s][k],
                        changedElsewhere[s][k], elapsed);
    return 0;
}
