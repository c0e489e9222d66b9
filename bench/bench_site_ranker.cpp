// Benchmark: is a ranker trained on a few pages of one site better, on that site's other pages,
// than the shipped kind of ranker that never saw the site? And does Train Field Extractor's choice
// (pipeline/webfieldtraining.h: the project's own ranker when its cross-validated F1 on the
// project's pages beats the shipped one's F1 there) pick the better one?
//
// On the Zyte benchmark pages: for a site family S (default amazon, the only one with 20 pages),
//   shipped = a ranker trained on every page not of S (as train-rankers trains, inner 4-fold
//             site-grouped threshold), the stand-in for the shipped ranker on a site it never saw;
//   own     = a ranker trained on k pages of S drawn at random (inner folds over pages),
//   chosen  = own when its cross-validated F1 beats shipped's F1 on those k pages, else shipped;
// each scored (CandidateRanker::ruleF1) on the pages of S not drawn. 20 draws per k, seed 1.
// --site-texts: text fields' candidates get the share of their family's other pages holding the same
// text (sitetexts.h; every page of the family, unlabelled, as a project holds them).
// --own-l2 X: the own ranker's L2 penalty (default the plain fit's 1e-4).
//   bench_site_ranker [--site amazon] [--field price|sku|brand|...] [--draws 20] [--site-texts] [--own-l2 X]
#include "bench/productbenchmarkpages.h"
#include "document/structured/candidateranker.h"
#include "document/structured/fieldrankers.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace folio;

int main(int argc, char **argv)
{
    std::string site = "amazon", field = "price";
    int draws = 20;
    bool withSiteTexts = false;
    structured::RankerOptions ownOptions;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--site-texts")
            withSiteTexts = true;
        else if (i + 1 >= argc)
            break;
        else if (a == "--site")
            site = argv[++i];
        else if (a == "--field")
            field = argv[++i];
        else if (a == "--draws")
            draws = std::max(1, std::atoi(argv[++i]));
        else if (a == "--own-l2")
            ownOptions.l2 = std::max(0.0, std::atof(argv[++i]));
    }
    if (structured::candidateFeatureNames(field).empty()) {
        std::fprintf(stderr, "bench_site_ranker: --field needs a name\n");
        return 2;
    }
    bench::ProductBenchmark benchmark;
    if (!benchmark.load("bench_site_ranker"))
        return 1;
    std::map<std::string, structured::SiteTexts> siteTexts; // per family, every page of it
    if (withSiteTexts && !benchmark.familySiteTexts(&siteTexts, "bench_site_ranker"))
        return 1;
    std::vector<structured::RankerPage> others, ofSite;
    for (const auto &page : benchmark.truth) {
        structured::PageWithStructuredData loaded;
        if (!benchmark.readPage(page.key, &loaded, "bench_site_ranker"))
            return 1;
        const std::string family = benchmark.family(page.key);
        const auto it = page.values.find(field);
        const auto row = structured::rankerPage(field,
                                                structured::findCandidates(field, loaded.document, loaded.data,
                                                                           withSiteTexts ? &siteTexts[family] : nullptr),
                                                loaded.data, it != page.values.end() ? it->second : std::vector<std::string>(), family);
        (family == site ? ofSite : others).push_back(row);
    }
    if (ofSite.size() < 6) {
        std::fprintf(stderr, "bench_site_ranker: %zu pages of %s, 6 needed\n", ofSite.size(), site.c_str());
        return 1;
    }
    const auto &names = structured::candidateFeatureNames(field);
    const structured::CandidateRanker shipped = structured::CandidateRanker::train(field, names, others);
    std::printf("%s on %s: %zu pages of the site, shipped-like ranker trained on the other %zu pages; "
                "F1 on all %zu pages of the site: %.3f\n\n",
                field.c_str(), site.c_str(), ofSite.size(), others.size(), ofSite.size(), shipped.ruleF1(ofSite));
    std::printf("| own pages k | held-out pages | shipped F1 | own F1 | chosen F1 | own chosen in |\n|---:|---:|---:|---:|---:|---:|\n");
    std::mt19937 rng(1);
    for (int k = 4; k <= int(ofSite.size()) - 4; k += 4) {
        double sumShipped = 0, sumOwn = 0, sumChosen = 0;
        int ownChosen = 0;
        for (int d = 0; d < draws; ++d) {
            std::vector<structured::RankerPage> pages = ofSite;
            std::shuffle(pages.begin(), pages.end(), rng);
            std::vector<structured::RankerPage> train(pages.begin(), pages.begin() + k), rest(pages.begin() + k, pages.end());
            for (std::size_t i = 0; i < train.size(); ++i)
                train[i].group = "page " + std::to_string(i); // as a project's pages are grouped
            const structured::CandidateRanker own = structured::CandidateRanker::train(field, names, train, ownOptions);
            const bool takeOwn = own.heldOutF1() > 0 && own.heldOutF1() > shipped.ruleF1(train);
            const double s = shipped.ruleF1(rest), o = own.ruleF1(rest);
            sumShipped += s;
            sumOwn += o;
            sumChosen += takeOwn ? o : s;
            ownChosen += takeOwn ? 1 : 0;
        }
        std::printf("| %d | %zu | %.3f | %.3f | %.3f | %d of %d |\n", k, ofSite.size() - std::size_t(k), sumShipped / draws, sumOwn / draws,
                    sumChosen / draws, ownChosen, draws);
    }
    return 0;
}
