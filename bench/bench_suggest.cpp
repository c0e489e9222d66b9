// Benchmark: Suggest Labels with the shipped reading-order model (tagger + key -> value link head)
// on the FUNSD test pages, three ways in the same run:
//   tagger        entities only (PredictOptions::links off): the baseline
//   second pass   entities, then DocumentTagger::suggestLinks without the prediction: the link head
//                 runs the encoder again (what Folio did before the states were shared)
//   shared pass   pipeline::predictSuggestions: the link head reads the encoder states the tagger kept
// Per page, the three are run in rotating order, each `repeats` times; the median per page is
// summed over the pages. Prints a Markdown block with ms per page and ratios to the tagger alone,
// and checks that both link paths propose the same links.
//
//   bench_suggest [repeats=3] [pages=50]
#include "bench/benchclock.h"
#include "document/formats/funsd.h"
#include "pipeline/documentprediction.h"

#include <QCoreApplication>
#include <QDir>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>

using namespace folio;

using folio::bench::median;
using folio::bench::seconds;

namespace {

double timed(const std::function<void()> &f)
{
    const double t0 = seconds();
    f();
    return seconds() - t0;
}

[[noreturn]] void fail(const QString &what)
{
    std::fprintf(stderr, "bench_suggest: %s\n", qPrintable(what));
    std::exit(1);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    const int maxPages = argc > 2 ? std::max(1, std::atoi(argv[2])) : 50;
    const QString model = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading");
    const QDir annotations(QStringLiteral(FOLIO_SHARED_DIR "/data/funsd/dataset/testing_data/annotations"));
    QStringList files = annotations.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    if (files.isEmpty())
        fail(annotations.path() + ": no FUNSD test pages");
    if (files.size() > maxPages)
        files = files.mid(0, maxPages);

    pipeline::DocumentTagger tagger;
    QString error;
    if (!tagger.load(model, &error))
        fail(error);
    if (!tagger.hasLinkHead())
        fail(model + ": no link head");
    pipeline::PredictOptions entitiesOnly;
    entitiesOnly.links = false;

    double taggerTotal = 0, secondTotal = 0, sharedTotal = 0;
    int words = 0, links = 0, differing = 0;
    for (const QString &name : files) {
        Document doc;
        Annotations gold;
        if (!importFunsdFile(annotations.filePath(name), FunsdWordOrder::Reading, &doc, &gold, &error))
            fail(error);
        words += int(doc.words.size());
        std::vector<double> tTagger, tSecond, tShared;
        Annotations viaSecond, viaShared;
        for (int r = 0; r < repeats; ++r) {
            const std::function<void()> runs[3] = {
                [&] {
                    tTagger.push_back(timed([&] {
                        if (!tagger.predict(doc, entitiesOnly).ok)
                            fail(name + ": prediction failed");
                    }));
                },
                [&] {
                    tSecond.push_back(timed([&] {
                        const pipeline::DocumentPrediction p = tagger.predict(doc, entitiesOnly);
                        if (!p.ok || !pipeline::suggestionsFromPrediction(tagger, p, doc, Annotations(), &viaSecond, &error, entitiesOnly))
                            fail(name + ": " + error);
                        std::vector<Link> l;
                        if (!tagger.suggestLinks(doc, viaSecond, &l, &error))
                            fail(name + ": " + error);
                        viaSecond.links = l;
                    }));
                },
                [&] {
                    tShared.push_back(timed([&] {
                        if (!pipeline::predictSuggestions(tagger, doc, Annotations(), &viaShared, &error))
                            fail(name + ": " + error);
                    }));
                }};
            for (int k = 0; k < 3; ++k)
                runs[(r + k) % 3]();
        }
        taggerTotal += median(tTagger);
        secondTotal += median(tSecond);
        sharedTotal += median(tShared);
        links += int(viaShared.links.size());
        bool same = viaSecond.links.size() == viaShared.links.size();
        for (size_t i = 0; same && i < viaShared.links.size(); ++i)
            same = viaSecond.entity(viaSecond.links[i].from)->wordIds == viaShared.entity(viaShared.links[i].from)->wordIds &&
                   viaSecond.entity(viaSecond.links[i].to)->wordIds == viaShared.entity(viaShared.links[i].to)->wordIds &&
                   std::abs(viaSecond.links[i].confidence - viaShared.links[i].confidence) < 1e-5;
        differing += same ? 0 : 1;
    }
    const double n = double(files.size());
    std::printf("### Suggest Labels with the link head, FUNSD test (%d pages, %d words, %d links suggested; median of %d per page)\n\n",
                int(files.size()), words, links, repeats);
    std::printf("| path | ms per page | vs tagger alone |\n|---|---|---|\n");
    std::printf("| tagger alone (links off) | %.1f | 1.00x |\n", 1000 * taggerTotal / n);
    std::printf("| tagger + link head, second encoder pass | %.1f | %.2fx |\n", 1000 * secondTotal / n, secondTotal / taggerTotal);
    std::printf("| tagger + link head, shared encoder pass | %.1f | %.2fx |\n", 1000 * sharedTotal / n, sharedTotal / taggerTotal);
    std::printf("\nshared / second pass: %.2fx the time; pages where the two propose different links: %d\n",
                sharedTotal / secondTotal, differing);
    return differing == 0 ? 0 : 2;
}
