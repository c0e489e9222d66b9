#pragma once
// The Zyte product benchmark's pages as the ranker benchmarks read them (bench_site_ranker,
// bench_single_source): its ground truth, each page's site family, a page with its structured
// data, and every family's SiteTexts over all its pages (unlabelled, as a project holds them).
#include "document/structured/benchmarkscore.h"
#include "document/structured/sitetexts.h"
#include "document/structured/structureddata.h"
#include "pipeline/modelinputs/productpages.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>

namespace folio::bench {

struct ProductBenchmark
{
    std::string dir = FOLIO_SHARED_DIR "/data/product-extraction-benchmark/dataset";
    structured::BenchmarkTruth truth;
    nlohmann::json groundTruth; // for the pages' URLs

    // False (and a message on stderr naming `who`) when the ground truth cannot be read.
    bool load(const char *who)
    {
        QString error;
        if (!structured::readBenchmarkTruth(dir + "/ground-truth.json", &truth, &error)) {
            std::fprintf(stderr, "%s: %s\n", who, qPrintable(error));
            return false;
        }
        std::ifstream in(dir + "/ground-truth.json");
        groundTruth = nlohmann::json::parse(in, nullptr, false);
        if (!groundTruth.is_discarded() && groundTruth.is_object() && !truth.empty())
            return true;
        std::fprintf(stderr, "%s: cannot read %s/ground-truth.json\n", who, dir.c_str());
        return false;
    }

    std::string family(const std::string &key) const
    {
        return pipeline::siteFamily(groundTruth.at(key).at("url").get<std::string>());
    }

    bool readPage(const std::string &key, structured::PageWithStructuredData *loaded, const char *who) const
    {
        QString error;
        if (structured::readPageWithStructuredData(QString::fromStdString(dir + "/html/" + key + ".html.gz"), loaded, &error))
            return true;
        std::fprintf(stderr, "%s: %s\n", who, qPrintable(error));
        return false;
    }

    // Every family's site texts over all of its pages; false when a page cannot be read.
    bool familySiteTexts(std::map<std::string, structured::SiteTexts> *out, const char *who) const
    {
        for (const auto &page : truth) {
            structured::PageWithStructuredData loaded;
            if (!readPage(page.key, &loaded, who))
                return false;
            (*out)[family(page.key)].addPage(loaded.document);
        }
        return true;
    }
};

} // namespace folio::bench
