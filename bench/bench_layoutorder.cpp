// Word orders on FUNSD against the annotation (protocol) order, per test page, averaged (issue 12):
//   reading    lines top to bottom, words left to right (FunsdWordOrder::Reading)
//   layout     the XY-cut serialisation (document/layoutorder.h, FunsdWordOrder::Layout)
//   tesseract  Tesseract's own order: the page image OCR'd (psm 3), each gold word placed at the
//              OCR word it overlaps most (else the nearest by centre), ties left to right
// Measures: Kendall's tau with the annotation order; the share of annotation-order neighbours
// that stay neighbours; the share of entities whose words stay contiguous (what BIO tagging
// needs). Also the time to compute each order (tesseract: the OCR run).
// Usage: bench_layoutorder FUNSD_DATASET_DIR [PAGES=50]
#include "document/formats/funsd.h"
#include "document/layoutorder.h"
#include "ocr/ocr.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QHash>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

using namespace folio;

namespace {

struct Scores
{
    double tau = 0, neighbours = 0, contiguous = 0, ms = 0;
    int pages = 0;
};

// position[i] = rank of annotation-order word i in the other order.
void score(const std::vector<int> &position, const Document &doc, const Annotations &ann, Scores *s)
{
    const std::size_t n = position.size();
    long concordant = 0, discordant = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            (position[j] > position[i] ? concordant : discordant) += 1;
    const double pairs = double(concordant + discordant);
    s->tau += pairs > 0 ? double(concordant - discordant) / pairs : 1.0;
    long kept = 0;
    for (std::size_t i = 0; i + 1 < n; ++i)
        kept += position[i + 1] == position[i] + 1 ? 1 : 0;
    s->neighbours += n > 1 ? double(kept) / double(n - 1) : 1.0;
    QHash<QString, int> index;
    for (std::size_t i = 0; i < n; ++i)
        index.insert(doc.words[i].id, int(i));
    int contiguous = 0, entities = 0;
    for (const Entity &e : ann.entities) {
        std::vector<int> ranks;
        for (const QString &w : e.wordIds)
            if (index.contains(w))
                ranks.push_back(position[std::size_t(index.value(w))]);
        if (ranks.empty())
            continue;
        ++entities;
        const auto [lo, hi] = std::minmax_element(ranks.begin(), ranks.end());
        contiguous += (*hi - *lo + 1) == int(ranks.size()) ? 1 : 0;
    }
    s->contiguous += entities ? double(contiguous) / double(entities) : 1.0;
    ++s->pages;
}

std::vector<int> positionsOf(const std::vector<int> &order)
{
    std::vector<int> position(order.size());
    for (std::size_t r = 0; r < order.size(); ++r)
        position[std::size_t(order[r])] = int(r);
    return position;
}

// Gold words in the order of the OCR words they overlap most (nearest centre when none).
std::vector<int> tesseractOrder(const Document &gold, const Document &ocr)
{
    std::vector<std::pair<std::pair<int, double>, int>> keyed;
    for (std::size_t i = 0; i < gold.words.size(); ++i) {
        const QRectF g = gold.words[i].box;
        int best = -1;
        double bestArea = 0, bestDistance = 1e300;
        int nearest = 0;
        for (std::size_t k = 0; k < ocr.words.size(); ++k) {
            const QRectF o = ocr.words[k].box;
            const QRectF x = g.intersected(o);
            const double area = x.isValid() ? x.width() * x.height() : 0;
            if (area > bestArea) {
                bestArea = area;
                best = int(k);
            }
            const QPointF d = g.center() - o.center();
            const double dist = d.x() * d.x() + d.y() * d.y();
            if (dist < bestDistance) {
                bestDistance = dist;
                nearest = int(k);
            }
        }
        keyed.push_back({{best >= 0 ? best : nearest, g.left()}, int(i)});
    }
    std::stable_sort(keyed.begin(), keyed.end());
    std::vector<int> order;
    for (const auto &k : keyed)
        order.push_back(k.second);
    return order;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_layoutorder FUNSD_DATASET_DIR [PAGES]\n");
        return 2;
    }
    const QDir dir(QString::fromLocal8Bit(argv[1]) + QStringLiteral("/testing_data/annotations"));
    const int limit = argc > 2 ? std::atoi(argv[2]) : 50;
    std::map<QString, Scores> scores;
    int done = 0;
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        if (done++ >= limit)
            break;
        const QString json = dir.filePath(name);
        const QString image = QString(json).replace(QStringLiteral("/annotations/"), QStringLiteral("/images/")).replace(QStringLiteral(".json"), QStringLiteral(".png"));
        Document doc;
        Annotations ann;
        QString error;
        if (!importFunsdFile(json, FunsdWordOrder::Annotation, &doc, &ann, &error, image)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        // Words with text only (as training uses them), in annotation order.
        Document kept = doc;
        kept.words.clear();
        for (const Word &w : doc.words)
            if (!w.text.trimmed().isEmpty())
                kept.words.push_back(w);
        std::vector<QRectF> boxes;
        for (const Word &w : kept.words)
            boxes.push_back(w.box);
        QElapsedTimer t;
        {
            t.start();
            std::vector<int> line(kept.words.size());
            std::iota(line.begin(), line.end(), 0);
            std::stable_sort(line.begin(), line.end(), [&](int a, int b) { return boxes[std::size_t(a)].center().y() < boxes[std::size_t(b)].center().y(); });
            // The same line grouping as FunsdWordOrder::Reading, through the importer itself.
            Document reading;
            Annotations unused;
            importFunsdFile(json, FunsdWordOrder::Reading, &reading, &unused, &error, image);
            QHash<QString, int> rank;
            int r = 0;
            for (const Word &w : reading.words)
                if (!w.text.trimmed().isEmpty())
                    rank.insert(w.id, r++);
            std::vector<int> position;
            for (const Word &w : kept.words)
                position.push_back(rank.value(w.id));
            scores[QStringLiteral("reading")].ms += double(t.nsecsElapsed()) / 1e6;
            score(position, kept, ann, &scores[QStringLiteral("reading")]);
        }
        {
            t.start();
            const std::vector<int> order = layoutReadingOrder(boxes);
            scores[QStringLiteral("layout")].ms += double(t.nsecsElapsed()) / 1e6;
            score(positionsOf(order), kept, ann, &scores[QStringLiteral("layout")]);
        }
        {
            t.start();
            ocr::OcrOptions options;
            options.workers = 1;
            const ocr::OcrResult r = ocr::runOcr(image, options);
            scores[QStringLiteral("tesseract")].ms += double(t.nsecsElapsed()) / 1e6;
            if (!r.ok) {
                std::fprintf(stderr, "%s\n", qPrintable(r.error));
                return 1;
            }
            score(positionsOf(tesseractOrder(kept, r.document)), kept, ann, &scores[QStringLiteral("tesseract")]);
        }
    }
    std::printf("%-10s %6s %10s %12s %12s %9s\n", "order", "pages", "tau", "neighbours", "contiguous", "ms/page");
    for (const auto &[name, s] : scores)
        std::printf("%-10s %6d %10.3f %12.3f %12.3f %9.2f\n", qPrintable(name), s.pages, s.tau / s.pages, s.neighbours / s.pages,
                    s.contiguous / s.pages, s.ms / s.pages);
    return 0;
}
