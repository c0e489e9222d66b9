// MarkupLM fine-tuning on web pages' text nodes (issue 46): node labels from gold values, windows,
// batches, page-level F1, and the run through runHfFineTuning.
#include "pipeline/markuplmtraining.h"

#include "document/html/markupnodes.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/errors.h"
#include "inference/models/hfmarkuplm.h"
#include "inference/training/hf/hfarchitectures.h"
#include "inference/training/hf/hffinetuner.h"
#include "inference/webformer/webformereval.h"
#include "pipeline/hffinetuneloop.h"
#include "pipeline/unitwindows.h"
#include "pipeline/markuplmfields.h"
#include "pipeline/modelinputs/productpages.h"
#include "pipeline/modelinputs/webpages.h"
#include "pipeline/webfieldset.h"
#include "pipeline/webfieldtraining.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <numeric>
#include <regex>
#include <set>
#include <stdexcept>

namespace folio::pipeline {

using inference::Tensor;
using inference::TensorMap;

MarkupTrainPage markupTrainPage(const std::string &id, const QStringList &nodes, const QStringList &xpaths,
                                const std::map<std::string, std::vector<std::string>> &gold)
{
    MarkupTrainPage p;
    p.id = id;
    p.gold = gold;
    const std::size_t n = std::size_t(nodes.size());
    std::vector<std::string> norm(n);
    for (std::size_t i = 0; i < n; ++i) {
        p.nodes.push_back(nodes[int(i)].toStdString());
        p.xpaths.push_back(i < std::size_t(xpaths.size()) ? xpaths[int(i)].toStdString() : std::string());
        norm[i] = inference::normaliseFieldValue(p.nodes.back());
    }
    p.nodeFields.assign(n, std::string());
    p.valueStarts.assign(n, false);
    for (const auto &[field, values] : gold) {
        for (const std::string &value : values) {
            const std::string v = inference::normaliseFieldValue(value);
            if (v.empty())
                continue; // SWDE's <NULL>: no value
            bool found = false;
            for (std::size_t i = 0; i < n; ++i) {
                if (norm[i].empty() || !p.nodeFields[i].empty())
                    continue;
                // The shortest run of nodes from i (at most kMaxValueNodes) that reads as the value.
                std::string joined;
                for (std::size_t k = i; k < n && k < i + std::size_t(kMaxValueNodes); ++k) {
                    if (!p.nodeFields[k].empty())
                        break;
                    joined += (joined.empty() ? "" : " ") + p.nodes[k];
                    const std::string j = inference::normaliseFieldValue(joined);
                    if (j == v) {
                        for (std::size_t m = i; m <= k; ++m)
                            p.nodeFields[m] = field;
                        p.valueStarts[i] = true;
                        found = true;
                        break;
                    }
                    if (j.size() >= v.size())
                        break;
                }
            }
            (found ? p.valuesFound : p.valuesMissed) += 1;
        }
    }
    return p;
}

MarkupTrainPage markupTrainPageFromFile(const std::string &id, const std::string &htmlPath,
                                        const std::map<std::string, std::vector<std::string>> &gold)
{
    const MarkupNodeList list = extractMarkupNodesFromFile(QString::fromStdString(htmlPath));
    if (!list.ok)
        throw std::runtime_error(list.error.isEmpty() ? htmlPath + ": cannot read its nodes" : list.error.toStdString());
    return markupTrainPage(id, list.nodes, list.xpaths, gold);
}

namespace {

MarkupTrainingSet loadSwde(const std::string &dataDir, int maxPagesPerSite)
{
    const SwdeSplit split = loadSwdeSplit(dataDir, maxPagesPerSite);
    MarkupTrainingSet set;
    set.fields = split.fields;
    auto convert = [](const std::vector<inference::WebPage> &pages, std::vector<MarkupTrainPage> *out) {
        for (const inference::WebPage &w : pages)
            out->push_back(markupTrainPageFromFile(w.id, w.source, w.gold));
    };
    convert(split.train, &set.train);
    convert(split.dev, &set.dev);
    convert(split.test, &set.test);
    set.description = "SWDE " + split.root + ": " + std::to_string(set.train.size()) + " train / " + std::to_string(set.dev.size())
                      + " dev pages (per site: first 60% train, next 10% dev, last 30% test, " + std::to_string(set.test.size())
                      + " test pages). SWDE has no licence: research use";
    return set;
}

MarkupTrainingSet loadProducts(const std::string &dataDir, int maxPages)
{
    std::string root = dataDir; // the folder with ground-truth.json and html/ (or its parent)
    if (std::filesystem::is_directory(std::filesystem::path(dataDir) / "dataset"))
        root = (std::filesystem::path(dataDir) / "dataset").string();
    std::vector<ProductBenchmarkPage> pages = loadProductBenchmark(root, false, maxPages);
    if (pages.size() < 3)
        throw std::runtime_error(dataDir + ": fewer than 3 product pages (train, dev and test need one each)");
    std::vector<std::string> sites;
    for (const ProductBenchmarkPage &p : pages)
        sites.push_back(p.site);
    const std::vector<int> fold = structured::groupedFolds(sites, std::min<int>(5, int(pages.size())));
    MarkupTrainingSet set;
    set.fields = productModelFields();
    for (std::size_t i = 0; i < pages.size(); ++i) {
        std::map<std::string, std::vector<std::string>> gold;
        for (const std::string &f : set.fields) {
            const auto it = pages[i].page.gold.find(f);
            gold[f] = it == pages[i].page.gold.end() ? std::vector<std::string>() : it->second;
        }
        const std::string html = root + "/html/" + pages[i].key + ".html.gz";
        MarkupTrainPage p = markupTrainPageFromFile(pages[i].key, html, gold);
        (fold[i] == 0 ? set.test : fold[i] == 1 ? set.dev : set.train).push_back(std::move(p));
    }
    set.description = "Zyte product extraction benchmark " + dataDir + ": " + std::to_string(set.train.size()) + " train / "
                      + std::to_string(set.dev.size()) + " dev pages (sites grouped into 5 folds: fold 0 test ("
                      + std::to_string(set.test.size()) + " pages), fold 1 dev, the rest train). MIT; the pages belong to their sites";
    return set;
}

} // namespace

MarkupTrainingSet loadMarkupTrainingSet(const std::string &dataDir, int maxPagesPerSite)
{
    namespace fs = std::filesystem;
    const fs::path d(dataDir);
    if (fs::is_regular_file(d / "ground-truth.json") || fs::is_regular_file(d / "dataset" / "ground-truth.json"))
        return loadProducts(dataDir, maxPagesPerSite);
    return loadSwde(dataDir, maxPagesPerSite);
}

bool loadProjectMarkupTrainingSet(Project *project, MarkupTrainingSet *set, QString *error)
{
    try {
        std::vector<FieldSpec> fieldSet;
        if (!projectFieldSet(*project, &fieldSet, error))
            return false;
        FieldTrainingData data;
        if (!loadFieldTrainingData(project, fieldSet, &data, error))
            return false;
        *set = MarkupTrainingSet{};
        set->fields = data.fields;
        const std::size_t n = data.rankerSources.size();
        for (std::size_t i = 0; i < n; ++i) {
            const FieldTrainingData::RankerSource &source = data.rankerSources[i];
            MarkupFieldRun run;
            markupPageNodes(source.doc, &run);
            const std::string id = source.doc.sourcePath.isEmpty() ? "page " + std::to_string(i + 1) : source.doc.sourcePath.toStdString();
            MarkupTrainPage page = markupTrainPage(id, run.nodes, run.xpaths, source.gold);
            (n >= 2 && i % 7 == 6 % std::min<std::size_t>(7, n) ? set->dev : set->train).push_back(std::move(page));
        }
        set->description = std::to_string(n) + " answered web pages of the project (" + std::to_string(set->train.size()) + " train / "
                           + std::to_string(set->dev.size()) + " dev: every 7th page), gold = the accepted field answers; the "
                           "project's own documents";
        return true;
    } catch (const std::exception &e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
}

std::string markupLabelScheme(const std::vector<std::string> &checkpointLabels)
{
    static const std::regex generic("LABEL_[0-9]+");
    bool plain = false;
    for (const std::string &l : checkpointLabels) {
        if (l == "O" || std::regex_match(l, generic))
            continue;
        if (l.rfind("B-", 0) == 0 || l.rfind("I-", 0) == 0)
            return "bio";
        plain = true;
    }
    return plain ? "plain" : "bio";
}

std::vector<std::string> markupLabels(const std::vector<std::string> &fields, const std::string &scheme)
{
    std::vector<std::string> out{"O"};
    for (const std::string &f : fields) {
        if (f.empty() || f == "O")
            throw inference::InferenceError("field name \"" + f + "\" cannot be a label (O means no field)");
        if (scheme == "bio" && (f.rfind("B-", 0) == 0 || f.rfind("I-", 0) == 0))
            throw inference::InferenceError("field name \"" + f + "\" already carries a B-/I- prefix; the checkpoint's BIO labels cannot take it");
        if (scheme == "bio") {
            out.push_back("B-" + f);
            out.push_back("I-" + f);
        } else {
            out.push_back(f);
        }
    }
    return out;
}

std::vector<int> markupNodeLabelIds(const MarkupTrainPage &page, const std::vector<std::string> &labels,
                                    const std::string &scheme)
{
    std::vector<int> ids(page.nodes.size(), -100);
    for (std::size_t i = 0; i < page.nodes.size(); ++i) {
        if (page.nodes[i].empty())
            continue;
        std::string label = "O";
        if (!page.nodeFields[i].empty())
            label = scheme == "plain" ? page.nodeFields[i] : (page.valueStarts[i] ? "B-" : "I-") + page.nodeFields[i];
        const auto it = std::find(labels.begin(), labels.end(), label);
        if (it == labels.end())
            throw inference::InferenceError("page " + page.id + ": label \"" + label + "\" is not in the label set being trained");
        ids[i] = int(it - labels.begin());
    }
    return ids;
}

std::vector<MarkupWindow> markupPageWindows(const inference::MarkupLMTokenizer &tokenizer, const MarkupTrainPage &page,
                                            int pageIndex, const std::vector<int> &labelIds, int maxTokens)
{
    if (maxTokens < 3)
        throw inference::InferenceError("a window needs room for at least one token besides the two specials");
    const std::size_t n = page.nodes.size();
    std::vector<MarkupWindow> out;
    if (n == 0)
        return out;
    inference::MarkupEncodeOptions all;
    all.maxLength = 1 << 30;
    const inference::MarkupTokens whole = tokenizer.encode(page.nodes, page.xpaths, nullptr, all);
    std::vector<int> count(n, 0);
    for (int node : whole.nodeIds)
        if (node >= 0)
            ++count[std::size_t(node)];
    const int budget = maxTokens - 2;
    inference::MarkupEncodeOptions cut;
    cut.maxLength = maxTokens;
    cut.truncation = true;
    for (const UnitWindow &span : planUnitWindows(count, budget)) {
        const std::size_t begin = span.begin, owned = span.owned, end = span.end;
        MarkupWindow win;
        win.page = pageIndex;
        win.firstNode = int(begin);
        win.firstOwnedNode = int(owned);
        win.endOwnedNode = int(end);
        const std::vector<std::string> nodes(page.nodes.begin() + long(begin), page.nodes.begin() + long(end));
        const std::vector<std::string> xpaths(page.xpaths.begin() + long(begin), page.xpaths.begin() + long(end));
        if (labelIds.empty()) {
            win.tokens = tokenizer.encode(nodes, xpaths, nullptr, cut);
        } else {
            std::vector<int> wl(labelIds.begin() + long(begin), labelIds.begin() + long(end));
            for (std::size_t i = begin; i < owned && i < end; ++i)
                wl[i - begin] = -100; // labelled by an earlier window
            win.tokens = tokenizer.encode(nodes, xpaths, &wl, cut);
        }
        out.push_back(std::move(win));
    }
    return out;
}

TensorMap markupBatch(const std::vector<const MarkupWindow *> &windows, const inference::MarkupLMTokenizer &tokenizer)
{
    const auto b = std::int64_t(windows.size());
    const std::int64_t depth = tokenizer.config().maxDepth;
    std::int64_t t = 0;
    for (const MarkupWindow *w : windows)
        t = std::max<std::int64_t>(t, w->tokens.length());
    const auto cells = std::size_t(b * t);
    std::vector<std::int64_t> ids(cells, tokenizer.padId()), types(cells, 0), mask(cells, 0), labels(cells, -100),
        tags(cells * std::size_t(depth), tokenizer.config().padTagId()), subs(cells * std::size_t(depth), tokenizer.config().padWidth);
    for (std::int64_t r = 0; r < b; ++r) {
        const inference::MarkupTokens &k = windows[std::size_t(r)]->tokens;
        for (int i = 0; i < k.length(); ++i) {
            const std::size_t at = std::size_t(r * t + i);
            ids[at] = k.inputIds[std::size_t(i)];
            types[at] = k.tokenTypeIds.empty() ? 0 : k.tokenTypeIds[std::size_t(i)];
            mask[at] = k.attentionMask.empty() ? 1 : k.attentionMask[std::size_t(i)];
            labels[at] = k.labels.empty() ? -100 : k.labels[std::size_t(i)];
            for (std::int64_t d = 0; d < depth; ++d) {
                tags[at * std::size_t(depth) + std::size_t(d)] = k.xpathTags[std::size_t(i * depth + d)];
                subs[at * std::size_t(depth) + std::size_t(d)] = k.xpathSubs[std::size_t(i * depth + d)];
            }
        }
    }
    TensorMap out;
    out["input_ids"] = Tensor::fromInt64({b, t}, ids);
    out["token_type_ids"] = Tensor::fromInt64({b, t}, types);
    out["attention_mask"] = Tensor::fromInt64({b, t}, mask);
    out["labels"] = Tensor::fromInt64({b, t}, labels);
    out["xpath_tags_seq"] = Tensor::fromInt64({b, t, depth}, tags);
    out["xpath_subs_seq"] = Tensor::fromInt64({b, t, depth}, subs);
    return out;
}

std::map<std::string, std::string> decodeMarkupFields(const std::vector<std::string> &nodes,
                                                      const std::vector<std::string> &nodeLabels,
                                                      const std::vector<float> &confidences)
{
    auto entity = [](const std::string &l) {
        return l.rfind("B-", 0) == 0 || l.rfind("I-", 0) == 0 ? l.substr(2) : l;
    };
    struct Best
    {
        int node = -1;
        bool start = false;
        float confidence = -1;
    };
    std::map<std::string, Best> best;
    for (std::size_t i = 0; i < nodeLabels.size() && i < nodes.size(); ++i) {
        const std::string &l = nodeLabels[i];
        if (l.empty() || l == "O")
            continue;
        const bool start = l.rfind("I-", 0) != 0;
        const float c = i < confidences.size() ? confidences[i] : 0.f;
        Best &b = best[entity(l)];
        if (b.node < 0 || (start && !b.start) || (start == b.start && c > b.confidence))
            b = Best{int(i), start, c};
    }
    std::map<std::string, std::string> out;
    for (const auto &[field, b] : best) {
        std::string value = nodes[std::size_t(b.node)];
        for (std::size_t k = std::size_t(b.node) + 1; k < nodeLabels.size() && k < nodes.size() && nodeLabels[k] == "I-" + field; ++k)
            value += " " + nodes[k];
        out[field] = value;
    }
    return out;
}

namespace {

// Per node, the softmax over the labels at its first sub-token (empty: the node has no token).
using NodeProbabilities = std::vector<std::vector<float>>;

std::vector<float> softmaxRow(const float *row, std::int64_t c)
{
    const float top = *std::max_element(row, row + c);
    std::vector<float> p(static_cast<std::size_t>(c), 0.f);
    double sum = 0;
    for (std::int64_t j = 0; j < c; ++j)
        sum += std::exp(double(row[j] - top));
    for (std::int64_t j = 0; j < c; ++j)
        p[std::size_t(j)] = float(std::exp(double(row[j] - top)) / sum);
    return p;
}

// Each node's probabilities from the windows' logits: the first window where the node has a
// first sub-token gives them (nodeIds: page node per position, -1 for specials and padding).
void nodeProbabilitiesFrom(const Tensor &logits, std::int64_t row, const std::vector<int> &nodeIds, NodeProbabilities *probs,
                           int firstOwned = 0, int endOwned = 1 << 30)
{
    const auto t = logits.shape[1], c = logits.shape[2];
    const float *v = logits.data<float>() + row * t * c;
    for (std::size_t k = 0; k < nodeIds.size(); ++k) {
        const int node = nodeIds[k];
        if (node < 0 || (k > 0 && nodeIds[k - 1] == node) || node < firstOwned || node >= endOwned
            || std::size_t(node) >= probs->size() || !(*probs)[std::size_t(node)].empty())
            continue;
        (*probs)[std::size_t(node)] = softmaxRow(v + std::int64_t(k) * c, c);
    }
}

void fillScore(const std::map<std::string, std::map<std::string, std::string>> &predicted, const inference::PageFieldValues &gold,
               double *precision, double *recall, double *f1, std::map<std::string, double> *fieldF1)
{
    const inference::PageLevelScore score = inference::scorePageLevel(predicted, gold);
    *precision = score.precision;
    *recall = score.recall;
    *f1 = score.f1;
    for (const inference::FieldScore &f : score.fields)
        (*fieldF1)[f.field] = f.f1;
}

MarkupFieldScore scorePages(const std::vector<MarkupTrainPage> &pages, const std::vector<std::string> &fields,
                            const std::vector<std::string> &labels,
                            const std::function<void(std::size_t, NodeProbabilities *)> &labelPage)
{
    MarkupFieldScore s;
    inference::PageFieldValues gold;
    for (std::size_t i = 0; i < pages.size(); ++i) {
        const MarkupTrainPage &page = pages[i];
        NodeProbabilities probs(page.nodes.size());
        labelPage(i, &probs);
        std::vector<std::string> argmax(page.nodes.size());
        std::vector<float> conf(page.nodes.size(), 0.f);
        for (std::size_t n = 0; n < probs.size(); ++n) {
            if (probs[n].empty())
                continue;
            const auto top = std::size_t(std::max_element(probs[n].begin(), probs[n].end()) - probs[n].begin());
            argmax[n] = labels[top];
            conf[n] = probs[n][top];
        }
        const auto fieldsFound = decodeMarkupFields(page.nodes, argmax, conf);
        for (const std::string &f : fields) {
            const auto g = page.gold.find(f);
            gold[page.id][f] = g == page.gold.end() ? std::vector<std::string>() : g->second;
            const auto p = fieldsFound.find(f);
            if (p != fieldsFound.end())
                s.predicted[page.id][f] = p->second;
            // Top-1: the node with the field's highest (B- or plain) probability, with the nodes after
            // it labelled I- of the field.
            const auto b = std::find(labels.begin(), labels.end(), "B-" + f);
            const auto plain = std::find(labels.begin(), labels.end(), f);
            const std::size_t col = std::size_t((b != labels.end() ? b : plain) - labels.begin());
            if (col >= labels.size())
                continue;
            int best = -1;
            for (std::size_t n = 0; n < probs.size(); ++n)
                if (!probs[n].empty() && (best < 0 || probs[n][col] > probs[std::size_t(best)][col]))
                    best = int(n);
            if (best < 0)
                continue;
            std::string value = page.nodes[std::size_t(best)];
            for (std::size_t k = std::size_t(best) + 1; k < argmax.size() && argmax[k] == "I-" + f; ++k)
                value += " " + page.nodes[k];
            s.top1Predicted[page.id][f] = value;
        }
    }
    fillScore(s.predicted, gold, &s.precision, &s.recall, &s.f1, &s.fieldF1);
    fillScore(s.top1Predicted, gold, &s.top1Precision, &s.top1Recall, &s.top1F1, &s.top1FieldF1);
    s.ok = true;
    return s;
}

} // namespace

MarkupFieldScore scoreMarkupFolder(const QString &dir, const std::vector<MarkupTrainPage> &pages,
                                   const std::vector<std::string> &fields)
{
    MarkupFieldScore failed;
    try {
        inference::HfMarkupLM model;
        std::string error;
        if (!model.load(dir.toStdString(), &error))
            throw inference::InferenceError(error);
        return scorePages(pages, fields, model.labels(), [&](std::size_t i, NodeProbabilities *probs) {
            const MarkupTrainPage &p = pages[i];
            if (p.nodes.empty())
                return;
            const inference::MarkupNodeLabelling r = model.label(p.nodes, p.xpaths);
            if (!r.ok)
                throw inference::InferenceError(p.id + ": " + r.error);
            for (std::size_t w = 0; w < r.windows.size() && w < r.windowNodeIds.size(); ++w)
                nodeProbabilitiesFrom(r.windows[w].at("logits"), 0, r.windowNodeIds[w], probs);
        });
    } catch (const std::exception &e) {
        failed.error = e.what();
    }
    return failed;
}

HfFineTuneOutcome fineTuneMarkupLM(HfFineTuneConfig cfg, const std::vector<MarkupTrainPage> &train,
                                   const std::vector<MarkupTrainPage> &dev, const std::vector<std::string> &fields,
                                   const std::function<void(const HfFineTuneProgress &)> &progress,
                                   std::atomic<bool> *cancel, std::vector<std::string> *labelsUsed)
{
    HfFineTuneOutcome refused;
    std::string scheme = "bio";
    try {
        if (!isMarkupLMFolder(cfg.initDir))
            throw inference::InferenceError(cfg.initDir.toStdString() + "/config.json: not a MarkupLM folder (model_type \"markuplm\")");
        if (train.empty())
            throw inference::InferenceError("no training pages");
        int labelled = 0;
        for (const MarkupTrainPage &p : train)
            labelled += int(std::count_if(p.nodeFields.begin(), p.nodeFields.end(), [](const std::string &f) { return !f.empty(); }));
        if (labelled == 0)
            throw inference::InferenceError("no node of the " + std::to_string(train.size())
                                            + " training pages holds a field's gold value: nothing to learn the fields from");
        // The checkpoint's head: a question-answering one cannot take node labels; its label names pick the scheme.
        QString folderError;
        if (!checkMarkupLMFolder(cfg.initDir, &folderError))
            throw inference::InferenceError(folderError.toStdString());
        const inference::ModelConfig config = inference::ModelConfig::fromDirectory(cfg.initDir.toStdString());
        bool qa = false, head = false;
        if (config.json().contains("architectures") && config.json()["architectures"].is_array())
            for (const auto &a : config.json()["architectures"])
                qa = qa || (a.is_string() && a.get<std::string>() == "MarkupLMForQuestionAnswering");
        const std::string weights = cfg.initDir.toStdString() + "/model.safetensors";
        if (QFileInfo::exists(QString::fromStdString(weights))) {
            const inference::SafetensorsFile file(weights);
            qa = qa || file.contains("qa_outputs.weight");
            head = file.contains("classifier.weight");
        }
        if (qa)
            throw inference::InferenceError(cfg.initDir.toStdString() + ": a MarkupLMForQuestionAnswering checkpoint (qa_outputs) cannot "
                                            "take node labels; start from a MarkupLM base or token-classification folder");
        std::vector<std::string> current;
        if (head && config.json().contains("id2label") && config.json()["id2label"].is_object())
            for (int i = 0; i < int(config.json()["id2label"].size()); ++i) {
                const auto it = config.json()["id2label"].find(std::to_string(i));
                if (it != config.json()["id2label"].end() && it->is_string())
                    current.push_back(it->get<std::string>());
            }
        scheme = markupLabelScheme(current);
        if (cfg.labels.empty())
            cfg.labels = markupLabels(fields, scheme);
        else
            scheme = markupLabelScheme(cfg.labels);
        if (labelsUsed)
            *labelsUsed = cfg.labels;
    } catch (const std::exception &e) {
        refused.error = QString::fromUtf8(e.what());
        return refused;
    }
    std::unique_ptr<inference::MarkupLMTokenizer> tokenizer;
    std::vector<MarkupWindow> trainWindows, devWindows;
    return runHfFineTuning(
        cfg,
        [&](const inference::HfFineTuner &) {
            tokenizer = std::make_unique<inference::MarkupLMTokenizer>(
                inference::MarkupLMTokenizer::fromDirectory(cfg.initDir.toStdString()));
            const inference::ModelConfig config = inference::ModelConfig::fromDirectory(cfg.initDir.toStdString());
            int maxTokens = int(std::min<long long>(tokenizer->config().base.modelMaxLength,
                                                    std::max(3LL, inference::hfMaxTextPositions(config))));
            if (cfg.maxTokens > 0)
                maxTokens = std::min(maxTokens, cfg.maxTokens);
            for (std::size_t i = 0; i < train.size(); ++i) {
                auto w = markupPageWindows(*tokenizer, train[i], int(i), markupNodeLabelIds(train[i], cfg.labels, scheme), maxTokens);
                trainWindows.insert(trainWindows.end(), std::make_move_iterator(w.begin()), std::make_move_iterator(w.end()));
            }
            for (std::size_t i = 0; i < dev.size(); ++i) {
                auto w = markupPageWindows(*tokenizer, dev[i], int(i), {}, maxTokens);
                devWindows.insert(devWindows.end(), std::make_move_iterator(w.begin()), std::make_move_iterator(w.end()));
            }
            HfTrainingData d;
            d.trainWindows = trainWindows.size();
            d.devWindows = devWindows.size();
            d.metric = "dev page-level F1";
            d.laterEpochWinsTies = true; // top-1 F1 saturates on a few dev pages
            d.metricNote = "SWDE's page-level rule, macro over the fields: per field the node with the field's highest B- (or "
                           "plain) probability, with the I- nodes after it, correct when its normalised text is a gold value";
            d.batch = [&](const std::vector<std::size_t> &windows) {
                std::vector<const MarkupWindow *> part;
                for (std::size_t k : windows)
                    part.push_back(&trainWindows[k]);
                return markupBatch(part, *tokenizer);
            };
            d.devScore = [&](const inference::HfFineTuner &tuner) {
                std::vector<NodeProbabilities> probs(dev.size());
                for (std::size_t i = 0; i < dev.size(); ++i)
                    probs[i].resize(dev[i].nodes.size());
                // Windows of a similar length together (padding costs nothing else), a few per forward.
                std::vector<std::size_t> order(devWindows.size());
                std::iota(order.begin(), order.end(), 0);
                std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                    return devWindows[a].tokens.length() < devWindows[b].tokens.length();
                });
                const std::size_t chunk = std::size_t(std::max(1, cfg.batchSize));
                for (std::size_t at = 0; at < order.size(); at += chunk) {
                    std::vector<const MarkupWindow *> part;
                    for (std::size_t k = at; k < order.size() && k < at + chunk; ++k)
                        part.push_back(&devWindows[order[k]]);
                    const inference::RunResult r = tuner.forward(markupBatch(part, *tokenizer));
                    if (!r.ok)
                        throw inference::InferenceError(r.error);
                    for (std::size_t row = 0; row < part.size(); ++row) {
                        const MarkupWindow &w = *part[row];
                        std::vector<int> ids = w.tokens.nodeIds;
                        for (int &id : ids)
                            if (id >= 0)
                                id += w.firstNode;
                        nodeProbabilitiesFrom(r.outputs.at("logits"), std::int64_t(row), ids, &probs[std::size_t(w.page)],
                                              w.firstOwnedNode, w.endOwnedNode);
                    }
                }
                return scorePages(dev, fields, cfg.labels, [&](std::size_t i, NodeProbabilities *p) { *p = probs[i]; }).top1F1;
            };
            return d;
        },
        progress, cancel);
}

} // namespace folio::pipeline
