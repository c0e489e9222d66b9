// bench_headgrid (issue 48): the Head Grid's first paint on a 512-token page, against the Attention
// dock's one-head heatmap painted in the same run (the baseline).
// A synthetic trace of LayoutLMv3-base's shape (12 layers x 12 heads, 514 tokens: [CLS], 512
// words, [SEP]; bias.1d / bias.2d_x / bias.2d_y) on a 512-word page: softmax rows of
// pseudo-random scores (fixed seed). Times (median of --reps, offscreen):
//   baseline: AttentionPanel::setTrace + the panel painted once (one head's 514 x 514 heatmap);
//   grid first paint: HeadGridPanel::setViewModel (the trace copied) until the first thumbnail is
//     on screen; grid complete: until all (12 + 3) x 12 thumbnails are; the same for a selected word.
// Usage: bench_headgrid [--reps N] [--threads N]
#include "attention/attentionviewmodel.h"
#include "attention/headgrid.h"
#include "document/formats/datasetformat.h"
#include "ui/attention/attentionpanel.h"
#include "ui/attention/headgridpanel.h"
#include "ui/attention/headgridview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QThreadPool>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

using namespace folio;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    int reps = 5;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--reps"))
            reps = std::max(1, args[i + 1].toInt());
        if (args[i] == QLatin1String("--threads"))
            QThreadPool::globalInstance()->setMaxThreadCount(std::max(1, args[i + 1].toInt()));
    }
    const int words = 512, L = words + 2, layers = 12, heads = 12;
    QStringList texts;
    std::vector<NormBox> boxes;
    for (int w = 0; w < words; ++w) {
        const int row = w / 16, col = w % 16;
        texts << QStringLiteral("w%1").arg(w);
        boxes.push_back(NormBox{20 + col * 60, 20 + row * 30, 70 + col * 60, 40 + row * 30});
    }
    const Document doc = formats::documentFromWords(QStringLiteral("bench.json"), texts, boxes);
    AttentionTrace trace;
    trace.modelType = QStringLiteral("synthetic-layoutlmv3-base");
    trace.checkpoint = QStringLiteral("synthetic");
    trace.documentId = attentionDocumentId(doc);
    std::mt19937 rng(48);
    std::normal_distribution<float> normal(0.f, 2.f);
    QString error;
    std::vector<float> block(std::size_t(heads) * L * L);
    for (int l = 0; l < layers; ++l) {
        for (std::size_t r = 0; r < std::size_t(heads) * L; ++r) {
            float *row = block.data() + r * L, sum = 0;
            for (int k = 0; k < L; ++k)
                sum += (row[k] = std::exp(normal(rng)));
            for (int k = 0; k < L; ++k)
                row[k] /= sum;
        }
        if (!trace.ingest(QStringLiteral("attentions.%1").arg(l), {1, heads, L, L}, block.data(), {}, &error))
            return std::fprintf(stderr, "%s\n", qPrintable(error)), 1;
    }
    for (const char *term : {"bias.1d", "bias.2d_x", "bias.2d_y"}) {
        for (float &v : block)
            v = normal(rng);
        if (!trace.ingest(QLatin1String(term), {1, heads, L, L}, block.data(), {}, &error))
            return std::fprintf(stderr, "%s\n", qPrintable(error)), 1;
    }
    trace.tokenWord.push_back(-1);
    for (int w = 0; w < words; ++w)
        trace.tokenWord.push_back(w);
    trace.tokenWord.push_back(-1);
    if (!trace.finish(&error))
        return std::fprintf(stderr, "%s\n", qPrintable(error)), 1;
    std::printf("trace: %d layers x %d heads, %d tokens, 3 bias terms, %.1f MiB; %d pool threads\n", layers, heads, L,
                double(attentionTraceBytes(trace)) / (1024.0 * 1024.0), QThreadPool::globalInstance()->maxThreadCount());

    // The work itself, on this thread: every thumbnail of the grid and the statistics.
    {
        const std::vector<QRectF> tokenBoxes = headGridTokenBoxes(trace, &doc);
        for (int selected : {-1, 101}) {
            QElapsedTimer t;
            t.start();
            int n = 0;
            for (const HeadGridRow &row : headGridRows(trace, 0, true)) {
                const HeatmapScale scale = headGridRowScale(row, heads, L);
                for (int h = 0; h < heads; ++h)
                    n += headThumbnail(trace, 0, row, h, selected, tokenBoxes, scale, 72).isNull() ? 0 : 1;
            }
            const double thumbs = double(t.nsecsElapsed()) / 1e6;
            t.restart();
            const std::vector<HeadStatistics> stats = headStatistics(trace, 0, tokenBoxes);
            std::printf("synchronous, %s: %d thumbnails %.1f ms, statistics %.1f ms\n", selected < 0 ? "whole matrices" : "selected word", n,
                        thumbs, double(t.nsecsElapsed()) / 1e6);
        }
    }
    std::vector<double> base, first, full, firstWord, fullWord;
    for (int r = 0; r < reps; ++r) {
        {
            AttentionPanel panel;
            panel.resize(900, 500);
            panel.show();
            panel.setDocument(doc);
            QElapsedTimer t;
            t.start();
            panel.setTrace(trace);
            panel.grab();
            base.push_back(double(t.nsecsElapsed()) / 1e6);
        }
        AttentionViewModel model;
        model.setDocument(doc);
        if (!model.setTrace(trace, &error))
            return std::fprintf(stderr, "%s\n", qPrintable(error)), 1;
        for (int selected : {-1, 100}) {
            HeadGridPanel grid;
            grid.resize(1200, 900);
            grid.show();
            QApplication::processEvents();
            if (selected >= 0)
                grid.selectWord(selected);
            QElapsedTimer t;
            t.start();
            grid.setViewModel(&model);
            double firstMs = -1;
            while (grid.isComputing() || grid.view()->thumbnailCount() < grid.expectedThumbnailCount()) {
                QApplication::processEvents(QEventLoop::AllEvents, 5);
                if (firstMs < 0 && grid.view()->thumbnailCount() > 0) {
                    grid.view()->repaint();
                    firstMs = double(t.nsecsElapsed()) / 1e6;
                }
            }
            grid.view()->repaint();
            const double fullMs = double(t.nsecsElapsed()) / 1e6;
            (selected < 0 ? first : firstWord).push_back(firstMs);
            (selected < 0 ? full : fullWord).push_back(fullMs);
        }
    }
    const double b = median(base);
    std::printf("baseline: Attention dock, one head's heatmap painted: %.1f ms\n", b);
    std::printf("grid, whole matrices: first paint %.1f ms (%.2fx baseline), all %d thumbnails %.1f ms (%.2fx)\n", median(first),
                median(first) / b, (layers + 3) * heads, median(full), median(full) / b);
    std::printf("grid, selected word: first paint %.1f ms (%.2fx baseline), all thumbnails %.1f ms (%.2fx)\n", median(firstWord),
                median(firstWord) / b, median(fullWord), median(fullWord) / b);
    return 0;
}
