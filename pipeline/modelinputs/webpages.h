#pragma once
// Web pages for WebFormer (inference::WebPage) from folio::Document (HTML loader) and the SWDE layout.

#include "inference/webformer/webformer.h"

#include <string>
#include <vector>

namespace folio {
struct Document;
}

namespace folio::pipeline {

// Element and text nodes of `doc` (the Root is dropped; its children become roots); text nodes
// carry the Document's words of that node.
inference::WebPage webPageFromDocument(const folio::Document &doc, const std::string &id);
// loadHtmlFile + webPageFromDocument; false + *error naming the file.
bool loadWebPage(const std::string &htmlPath, inference::WebPage *page, std::string *error);

// The SWDE split used by train-webformer and BENCHMARKS.md. `dataDir` is the folder holding
// `groundtruth/` and `testset/` (or any parent of it, e.g. shared/data/swde-book-subset). Per
// site, page files sorted by name: the last 30% are test, the 10% before them dev, the rest
// train (50 pages a site: 0000-0029 train, 0030-0034 dev, 0035-0049 test). Gold values come
// from groundtruth/<vertical>/<vertical>-<site>-<field>.txt. `maxPagesPerSite` > 0 keeps only
// the first pages of each site before splitting (tests). Throws std::runtime_error naming the path.
// `testSites` non-empty: the unseen-site protocol instead. Every page of the named sites (by site,
// "booksamillion", or by "<vertical>-<site>") is test; the other sites' pages are train, their last
// 10% dev. A named site that does not exist, or no site left to train on, is an error.
struct SwdeSplit
{
    std::vector<inference::WebPage> train, dev, test;
    std::vector<std::string> fields;
    std::string root; // the folder with groundtruth/ and testset/
};
SwdeSplit loadSwdeSplit(const std::string &dataDir, int maxPagesPerSite = 0, const std::vector<std::string> &testSites = {});

} // namespace folio::pipeline
