// Benchmark (issue 48): the What If dock, from a word box dropped on the page canvas to the diff
// painted, on a 512-word page with the shipped resources/models/funsd-layout; baseline, same
// process: one prediction of that page (TaggerExplainer::predict: the forward of the 512-word
// window + Viterbi), the unit the dock cannot go below.
//
// The page: the two FUNSD test forms with the most words side by side (the second shifted right by
// the first's width), its first 512 words (the tagger's window: max_words 512). Offscreen: a
// PageCanvas (900 x 700) and a WhatIfPanel whose overlays go to the canvas, as in the window. Each
// of R drops: a left drag through the canvas (press on a word, move 120 px right and 60 down,
// release); the clock starts at the release and stops when the dock has shown the diff and the
// canvas has repainted (QWidget::repaint, synchronous). "Back to the document" between drops, so
// every drop is one edit; the unedited labels were computed ahead (when "Edit boxes" came on).
//
// OpenMP waits passively, as in the folio program (inference/openmpenv.h): the baseline runs in the
// main thread and the dock in its own, and two spinning OpenMP teams on 2 cores cost 2-3x.
//
// bench_whatif_gui [FUNSD_TEST_DIR] [--reps R]
#include "bench/benchclock.h"
#include "inference/formtagger/taggerexplain.h"
#include "inference/openmpenv.h"
#include "pipeline/documentsource.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "ui/explain/whatifpanel.h"
#include "widgets/pagecanvas.h"

#include <QApplication>
#include <QDir>
#include <QMouseEvent>
#include <QThread>
#include <QTimer>

#include <cstdio>

FOLIO_PASSIVE_OPENMP_AT_LOAD(); // as the folio program does: two OpenMP teams (GUI thread, the dock's thread) must not spin

using namespace folio;
using folio::bench::median;
using folio::bench::seconds;

namespace {

Document loadPage(const QString &path)
{
    pipeline::LoadedDocument d = pipeline::loadDocumentFile(path);
    if (!d.ok)
        std::fprintf(stderr, "%s\n", qPrintable(d.error));
    return d.document;
}

// `a` and `b` side by side on one page, the first `maxWords` words.
Document spread(Document a, const Document &b, int maxWords)
{
    const QSizeF sa = a.pages[0].size, sb = b.pages[0].size;
    const QSizeF size(sa.width() + sb.width(), std::max(sa.height(), sb.height()));
    a.pages.resize(1);
    a.pages[0].size = size;
    a.pages[0].imagePath.clear();
    for (const Word &w : b.words) {
        Word c = w;
        c.page = 0;
        c.id = QStringLiteral("b") + w.id;
        c.box.translate(sa.width(), 0);
        c.node = -1;
        a.words.push_back(c);
    }
    std::vector<Word> kept;
    for (Word &w : a.words)
        if (w.page == 0 && !w.text.trimmed().isEmpty() && int(kept.size()) < maxWords) {
            w.norm = normaliseBox(w.box, size);
            kept.push_back(w);
        }
    a.words = kept;
    a.nodes.clear();
    for (Word &w : a.words)
        w.node = -1;
    return a;
}

bool drop(PageCanvas *canvas, int word)
{
    const QPointF from = canvas->wordRectInWidget(word).center(), to = from + QPointF(120, 60);
    if (canvas->wordAt(from) != word)
        return false;
    QMouseEvent press(QEvent::MouseButtonPress, from, canvas->mapToGlobal(from), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(canvas, &press);
    QMouseEvent move(QEvent::MouseMove, to, canvas->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(canvas, &move);
    QMouseEvent release(QEvent::MouseButtonRelease, to, canvas->mapToGlobal(to), Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(canvas, &release);
    return true;
}

// Sleeps in an event loop (no polling: a spinning GUI thread takes one of the 2 cores from the
// model) until `flag` is set by a slot, or `ms` passed.
void waitFor(const bool &flag, int ms)
{
    QEventLoop loop;
    QTimer poll, limit;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (flag)
            loop.quit();
    });
    QObject::connect(&limit, &QTimer::timeout, &loop, &QEventLoop::quit);
    poll.start(1);
    limit.setSingleShot(true);
    limit.start(ms);
    if (!flag)
        loop.exec();
}

} // namespace

int main(int argc, char **argv)
{
    folio::inference::ensurePassiveOpenMpWait(argv);
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QString funsd = QStringLiteral(FOLIO_SHARED_DIR "/data/funsd/dataset/testing_data");
    const QString model = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout");
    int reps = 9;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--reps") && i + 1 < args.size())
            reps = std::max(1, args[++i].toInt());
        else
            funsd = args[i];
    }
    // The two test forms with the most words.
    const QStringList files = QDir(funsd + QStringLiteral("/annotations")).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    std::vector<std::pair<int, QString>> sizes;
    for (const QString &f : files) {
        const Document d = loadPage(funsd + QStringLiteral("/annotations/") + f);
        sizes.emplace_back(int(d.words.size()), f);
    }
    if (sizes.size() < 2) {
        std::fprintf(stderr, "%s: fewer than two FUNSD forms\n", qPrintable(funsd));
        return 1;
    }
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    const Document doc = spread(loadPage(funsd + QStringLiteral("/annotations/") + sizes[0].second),
                                loadPage(funsd + QStringLiteral("/annotations/") + sizes[1].second), 512);
    std::printf("page: %s (%d words) + %s (%d words) side by side, %d words, %.0f x %.0f\n", qPrintable(sizes[0].second),
                sizes[0].first, qPrintable(sizes[1].second), sizes[1].first, int(doc.words.size()),
                doc.pages[0].size.width(), doc.pages[0].size.height());

    // Baseline: one prediction of the page in this process.
    inference::TaggerExplainer explainer;
    std::string why;
    if (!explainer.load(model.toStdString(), &why)) {
        std::fprintf(stderr, "%s\n", why.c_str());
        return 1;
    }
    const auto pages = pipeline::taggerPagesOfDocument(doc, nullptr, explainer.wordOrder() == "layout");
    std::vector<double> forward;
    for (int i = 0; i < reps + 1; ++i) {
        std::vector<std::string> tags;
        const double t0 = seconds();
        if (!explainer.predict(pages.front().taggerPage, &tags, &why)) {
            std::fprintf(stderr, "%s\n", why.c_str());
            return 1;
        }
        if (i > 0) // the first is a warm-up
            forward.push_back(seconds() - t0);
    }

    // Part of every what-if run: the edited copy's model pages (word order, tokens), before the forward.
    std::vector<double> pagesTime;
    for (int i = 0; i < reps; ++i) {
        const double t0 = seconds();
        const auto again = pipeline::taggerPagesOfDocument(doc, nullptr, explainer.wordOrder() == "layout");
        pagesTime.push_back(seconds() - t0);
        if (again.empty())
            return 1;
    }

    PageCanvas canvas;
    canvas.resize(900, 700);
    canvas.setPage(doc, 0);
    canvas.show();
    WhatIfPanel panel;
    panel.setCheckpointProvider([model] { return model; });
    panel.attachCanvas(&canvas);
    QObject::connect(&panel, &WhatIfPanel::overlayColorsChanged, &canvas, &PageCanvas::setBoxColors);
    QObject::connect(&panel, &WhatIfPanel::overlayLabelsChanged, &canvas, &PageCanvas::setBoxLabels);
    panel.setDocument(doc);
    bool ready = false;
    QObject::connect(&panel, &WhatIfPanel::labelsReady, [&ready] { ready = true; });
    panel.setEditing(true);
    waitFor(ready, 120000);
    if (!ready) {
        std::fprintf(stderr, "the unedited labels never came: %s\n", qPrintable(panel.statusText()));
        return 1;
    }
    std::vector<double> dropToDiff, diffToPainted, ratios;
    // One more baseline forward right before each drop (the machine's load moves between runs).
    const auto oneForward = [&] {
        std::vector<std::string> tags;
        const double t0 = seconds();
        explainer.predict(pages.front().taggerPage, &tags, &why);
        return seconds() - t0;
    };
    int changedTotal = 0, done = 0;
    const int step = std::max(1, int(doc.words.size()) / (reps + 2));
    for (int w = step; int(dropToDiff.size()) < reps && w < int(doc.words.size()); w += step) {
        canvas.setCurrentWord(w); // scrolled into view
        const double pairedForward = oneForward();
        bool shown = false;
        const QMetaObject::Connection c = QObject::connect(&panel, &WhatIfPanel::diffShown, [&] { shown = true; });
        const double t0 = seconds();
        if (!drop(&canvas, w)) {
            QObject::disconnect(c);
            continue;
        }
        waitFor(shown, 60000);
        const double t1 = seconds();
        canvas.repaint();
        const double t = seconds() - t0;
        if (done > 0)
            diffToPainted.push_back(seconds() - t1);
        QObject::disconnect(c);
        if (!shown) {
            std::fprintf(stderr, "word %d: no diff after 60 s\n", w);
            return 1;
        }
        if (done++ > 0) { // the first drop is a warm-up
            dropToDiff.push_back(t);
            forward.push_back(pairedForward);
            ratios.push_back(t / pairedForward);
        }
        changedTotal += int(panel.changes().size());
        panel.backToDocument();
        QCoreApplication::processEvents();
    }
    const double f = median(forward), d = median(dropToDiff);
    std::printf("threads: %d (QThread::idealThreadCount)\n", QThread::idealThreadCount());
    std::printf("baseline, one prediction of the page (forward + Viterbi), median of %d (%d up front, one before each drop): %.3f s, 1.00x\n",
                int(forward.size()), reps, f);
    std::printf("box dropped -> diff painted, median of %d drops: %.3f s, %.2fx (min %.3f, max %.3f)\n", int(dropToDiff.size()), d,
                d / f, *std::min_element(dropToDiff.begin(), dropToDiff.end()),
                *std::max_element(dropToDiff.begin(), dropToDiff.end()));
    std::printf("  each drop against the forward just before it: median ratio %.2fx\n", median(ratios));
    std::printf("  of which: the edited copy's model pages (taggerPagesOfDocument, %s order), median: %.3f s, %.2fx\n",
                explainer.wordOrder().empty() ? "document" : explainer.wordOrder().c_str(), median(pagesTime), median(pagesTime) / f);
    std::printf("  of which: diff shown -> canvas repainted, median: %.3f s\n", median(diffToPainted));
    std::printf("labels changed per drop (mean): %.2f\n", double(changedTotal) / std::max(1, done));
    return 0;
}
