#include "pipeline/modelinputs/webpages.h"

#include "document/html/htmlloader.h"
#include "document/html/htmlxpath.h"
#include "inference/webformer/webformereval.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

namespace fs = std::filesystem;

namespace folio::pipeline {

using inference::WebNode;
using inference::WebPage;
using inference::readSwdeGroundTruth;

WebPage webPageFromDocument(const folio::Document &doc, const std::string &id)
{
    WebPage page;
    page.id = id;
    std::vector<int> map(doc.nodes.size(), -1);
    for (int i = 0; i < int(doc.nodes.size()); ++i) {
        const folio::Node &n = doc.nodes[i];
        if (n.kind != folio::NodeKind::Element && n.kind != folio::NodeKind::Text)
            continue;
        WebNode w;
        w.parent = n.parent >= 0 && n.parent < i ? map[n.parent] : -1;
        w.isText = n.kind == folio::NodeKind::Text;
        w.tag = w.isText ? "#text" : n.tag.toStdString();
        w.xpath = folio::xpathOf(doc, i).toStdString();
        map[i] = int(page.nodes.size());
        page.nodes.push_back(std::move(w));
    }
    for (const folio::Word &w : doc.words)
        if (w.node >= 0 && w.node < int(map.size()) && map[w.node] >= 0)
            page.nodes[map[w.node]].words.push_back(w.text.toStdString());
    return page;
}

bool loadWebPage(const std::string &htmlPath, WebPage *page, std::string *error)
{
    const folio::HtmlLoadResult r = folio::loadHtmlFile(QString::fromStdString(htmlPath));
    if (!r.ok) {
        if (error)
            *error = r.error.toStdString();
        return false;
    }
    *page = webPageFromDocument(r.document, htmlPath);
    return true;
}

SwdeSplit loadSwdeSplit(const std::string &dataDir, int maxPagesPerSite, const std::vector<std::string> &testSites)
{
    SwdeSplit split;
    fs::path root;
    if (fs::is_directory(fs::path(dataDir) / "groundtruth"))
        root = dataDir;
    else if (fs::is_directory(dataDir))
        for (const auto &e : fs::recursive_directory_iterator(dataDir))
            if (e.is_directory() && e.path().filename() == "groundtruth") {
                root = e.path().parent_path();
                break;
            }
    if (root.empty() || !fs::is_directory(root / "testset"))
        throw std::runtime_error(dataDir + ": no SWDE folder (groundtruth/ and testset/) found");
    split.root = root.string();
    // site folder testset/<vertical>/<vertical>-<site>-<n> -> pages; ground truth by "<vertical>-<site>".
    std::map<std::string, std::map<std::string, std::map<std::string, std::vector<std::string>>>> gold; // key -> field -> page -> values
    std::set<std::string> fields;
    for (const auto &e : fs::recursive_directory_iterator(root / "groundtruth")) {
        if (!e.is_regular_file() || e.path().extension() != ".txt")
            continue;
        std::string field;
        auto values = readSwdeGroundTruth(e.path().string(), &field);
        const std::string stem = e.path().stem().string(); // <vertical>-<site>-<field>
        if (stem.size() <= field.size() + 1)
            throw std::runtime_error(e.path().string() + ": file name does not end in the attribute '" + field + "'");
        gold[stem.substr(0, stem.size() - field.size() - 1)][field] = std::move(values);
        fields.insert(field);
    }
    std::vector<fs::path> siteDirs;
    for (const auto &v : fs::directory_iterator(root / "testset"))
        if (v.is_directory())
            for (const auto &s : fs::directory_iterator(v.path()))
                if (s.is_directory())
                    siteDirs.push_back(s.path());
    std::sort(siteDirs.begin(), siteDirs.end());
    std::set<std::string> unseen(testSites.begin(), testSites.end()), named;
    for (const fs::path &site : siteDirs) {
        const std::string name = site.filename().string(); // book-booksamillion-2000
        const std::string key = name.substr(0, name.rfind('-'));
        const auto git = gold.find(key);
        if (git == gold.end())
            continue;
        std::set<std::string> siteFields;
        for (const auto &kv : git->second)
            siteFields.insert(kv.first);
        std::vector<fs::path> files;
        for (const auto &f : fs::directory_iterator(site))
            if (f.is_regular_file() && (f.path().extension() == ".htm" || f.path().extension() == ".html"))
                files.push_back(f.path());
        std::sort(files.begin(), files.end());
        if (maxPagesPerSite > 0 && int(files.size()) > maxPagesPerSite)
            files.resize(maxPagesPerSite);
        const int n = int(files.size());
        const std::string siteName = key.substr(key.find('-') + 1); // book-booksamillion -> booksamillion
        const bool heldOut = unseen.count(key) || unseen.count(siteName);
        if (heldOut)
            named.insert(unseen.count(key) ? key : siteName);
        const int nTest = unseen.empty() ? int(n * 0.3 + 0.5) : heldOut ? n : 0;
        const int nDev = heldOut ? 0 : int(n * 0.1 + 0.5);
        for (int i = 0; i < n; ++i) {
            WebPage page;
            std::string error;
            if (!loadWebPage(files[i].string(), &page, &error))
                throw std::runtime_error(error);
            const std::string pageNo = files[i].stem().string();
            page.id = key + "/" + pageNo;
            page.source = files[i].string();
            for (const auto &f : siteFields) {
                const auto &byPage = git->second.at(f);
                const auto pit = byPage.find(pageNo);
                page.gold[f] = pit == byPage.end() ? std::vector<std::string>() : pit->second;
            }
            (i >= n - nTest ? split.test : i >= n - nTest - nDev ? split.dev : split.train).push_back(std::move(page));
        }
    }
    split.fields.assign(fields.begin(), fields.end());
    for (const std::string &s : unseen)
        if (!named.count(s))
            throw std::runtime_error(dataDir + ": test site \"" + s + "\" not found (sites are the folders of testset/<vertical>/)");
    if (split.train.empty() && !unseen.empty())
        throw std::runtime_error(dataDir + ": no SWDE pages left to train on (every site is a test site)");
    if (split.train.empty())
        throw std::runtime_error(dataDir + ": no SWDE pages with ground truth found");
    return split;
}

} // namespace folio::pipeline
