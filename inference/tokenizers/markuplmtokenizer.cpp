// Hugging Face MarkupLM tokenizer semantics (slow tokenizer) on top of the byte-level BPE and the
// tokenizer_config.json reader of hflayouttokenizer.h.
#include "inference/tokenizers/markuplmtokenizer.h"

#include "inference/checkpoint/detail/jsonfile.h"
#include "inference/errors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace folio::inference {

namespace {

int readLimitedInt(const nlohmann::json &j, const char *key, int fallback, int lo, int hi, const std::string &file)
{
    if (!j.contains(key) || j[key].is_null())
        return fallback;
    if (!j[key].is_number_integer() || j[key].get<long long>() < lo || j[key].get<long long>() > hi)
        throw InferenceError(file + ": " + key + " is not an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
    return j[key].get<int>();
}

std::string trimmedAscii(const std::string &s)
{
    size_t b = 0, e = s.size();
    while (b < e && (s[b] == ' ' || (s[b] >= '\t' && s[b] <= '\r'))) ++b;
    while (e > b && (s[e - 1] == ' ' || (s[e - 1] >= '\t' && s[e - 1] <= '\r'))) --e;
    return s.substr(b, e - b);
}

} // namespace

MarkupLMTokenizerConfig MarkupLMTokenizerConfig::fromDirectory(const std::string &dir)
{
    const fs::path file = fs::path(dir) / "tokenizer_config.json";
    const std::string name = file.string();
    if (!fs::exists(file))
        throw InferenceError(name + ": missing (a MarkupLM tokenizer needs tokenizer_config.json with tags_dict)");
    MarkupLMTokenizerConfig c;
    c.base = HfLayoutTokenizerConfig::fromDirectory(dir);
    const nlohmann::json j = detail::readJsonFile(name);
    if (!j.contains("add_prefix_space"))
        c.base.addPrefixSpace = false; // MarkupLMTokenizer's default (LayoutLMv3's is true)
    if (!j.contains("tags_dict") || !j["tags_dict"].is_object())
        throw InferenceError(name + ": no tags_dict object (a MarkupLM tokenizer maps XPath tags through it)");
    const nlohmann::json &tags = j["tags_dict"];
    if (tags.size() > 100'000)
        throw InferenceError(name + ": tags_dict has " + std::to_string(tags.size()) + " entries, the limit is 100000");
    for (auto it = tags.begin(); it != tags.end(); ++it) {
        if (!it.value().is_number_integer() || it.value().get<long long>() < 0 || it.value().get<long long>() > 1'000'000)
            throw InferenceError(name + ": tags_dict[\"" + it.key() + "\"] is not an integer in 0..1000000");
        c.tagsDict[it.key()] = it.value().get<int>();
    }
    c.maxDepth = readLimitedInt(j, "max_depth", c.maxDepth, 1, 4096, name);
    c.maxWidth = readLimitedInt(j, "max_width", c.maxWidth, 0, 1'000'000, name);
    c.padWidth = readLimitedInt(j, "pad_width", c.padWidth, 0, 1'000'001, name);
    return c;
}

MarkupLMTokenizer MarkupLMTokenizer::fromDirectory(const std::string &dir)
{
    const fs::path d(dir);
    if (!fs::exists(d / "tokenizer.json")) // the fast tokenizer's file stands for both
        for (const char *needed : {"vocab.json", "merges.txt"})
            if (!fs::exists(d / needed))
                throw InferenceError((d / needed).string() + ": missing (a MarkupLM tokenizer needs vocab.json and merges.txt, or tokenizer.json)");
    return fromDirectory(dir, MarkupLMTokenizerConfig::fromDirectory(dir));
}

MarkupLMTokenizer MarkupLMTokenizer::fromDirectory(const std::string &dir, const MarkupLMTokenizerConfig &config)
{
    return MarkupLMTokenizer(HfLayoutTokenizer::fromDirectory(dir, config.base), config);
}

MarkupLMTokenizer::MarkupLMTokenizer(HfLayoutTokenizer bpe, MarkupLMTokenizerConfig config)
    : m_bpe(std::move(bpe)), m_config(std::move(config))
{
}

XPathIds MarkupLMTokenizer::xpathIds(const std::string &xpath) const
{
    XPathIds ids;
    const size_t depth = size_t(m_config.maxDepth);
    for (size_t b = 0; b <= xpath.size() && ids.tags.size() < depth;) {
        size_t e = xpath.find('/', b);
        if (e == std::string::npos) e = xpath.size();
        const std::string unit = trimmedAscii(xpath.substr(b, e - b));
        b = e + 1;
        if (unit.empty())
            continue;
        const size_t bracket = unit.find('[');
        const std::string tag = unit.substr(0, bracket);
        long long sub = 0;
        if (bracket != std::string::npos) {
            // "[k]": the reference reads int(unit after '[' without its last character).
            const std::string digits = unit.substr(bracket + 1, unit.size() >= bracket + 2 ? unit.size() - bracket - 2 : 0);
            if (digits.empty() || digits.size() > 18 || unit.back() != ']'
                || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
                throw InferenceError("xpath \"" + xpath.substr(0, 200) + "\": unit \"" + unit.substr(0, 100)
                                     + "\" is not tag or tag[k]");
            sub = std::stoll(digits);
        }
        const auto it = m_config.tagsDict.find(tag);
        ids.tags.push_back(it == m_config.tagsDict.end() ? m_config.unkTagId() : it->second);
        ids.subs.push_back(int(std::min<long long>(m_config.maxWidth, sub)));
    }
    ids.tags.resize(depth, m_config.padTagId());
    ids.subs.resize(depth, m_config.padWidth);
    return ids;
}

MarkupTokens MarkupLMTokenizer::encode(const std::vector<std::string> &nodes, const std::vector<std::string> &xpaths,
                                       const std::vector<int> *nodeLabels, const MarkupEncodeOptions &options) const
{
    return build({}, nodes, xpaths, nodeLabels, options);
}

MarkupTokens MarkupLMTokenizer::encodeQuestion(const std::string &question, const std::vector<std::string> &nodes,
                                               const std::vector<std::string> &xpaths,
                                               const MarkupEncodeOptions &options) const
{
    std::vector<int> q = m_bpe.tokenizer().encodeWord(question);
    q.insert(q.begin(), clsId());
    q.push_back(sepId());
    return build(q, nodes, xpaths, nullptr, options);
}

// `prefix`: the ids before the nodes (empty: just <s>; QA: <s> question </s>), all with pad rows.
MarkupTokens MarkupLMTokenizer::build(const std::vector<int> &prefix, const std::vector<std::string> &nodes,
                                      const std::vector<std::string> &xpaths, const std::vector<int> *nodeLabels,
                                      const MarkupEncodeOptions &options) const
{
    if (nodes.size() != xpaths.size() || (nodeLabels && nodeLabels->size() != nodes.size()))
        throw InferenceError("MarkupLM tokenizer: " + std::to_string(nodes.size()) + " nodes, " + std::to_string(xpaths.size())
                             + " xpaths" + (nodeLabels ? ", " + std::to_string(nodeLabels->size()) + " labels" : std::string()));
    const std::vector<int> head = prefix.empty() ? std::vector<int>{clsId()} : prefix;
    const int maxLength = options.maxLength > 0 ? options.maxLength : m_config.base.modelMaxLength;
    const int room = maxLength - int(head.size()) - 1; // node tokens that fit with the final </s>
    if (options.truncation && room < 0)
        throw InferenceError("MarkupLM tokenizer: max_length " + std::to_string(maxLength) + " leaves no room for "
                             + (prefix.empty() ? std::string("<s> and </s>") : std::string("the question and its separators")));
    const HfLayoutTokenizerConfig &base = m_config.base;
    const int depth = m_config.maxDepth;
    const XPathIds padRow{std::vector<int>(size_t(depth), m_config.padTagId()), std::vector<int>(size_t(depth), m_config.padWidth)};

    MarkupTokens out;
    auto push = [&](int id, const XPathIds &row, int label, int mask, int node) {
        out.inputIds.push_back(id);
        out.tokenTypeIds.push_back(0);
        out.attentionMask.push_back(mask);
        out.xpathTags.insert(out.xpathTags.end(), row.tags.begin(), row.tags.end());
        out.xpathSubs.insert(out.xpathSubs.end(), row.subs.begin(), row.subs.end());
        if (nodeLabels) out.labels.push_back(label);
        out.nodeIds.push_back(node);
    };
    for (int id : head)
        push(id, padRow, base.padTokenLabel, 1, -1);
    int nodeTokens = 0;
    for (size_t n = 0; n < nodes.size(); ++n) {
        if (nodes[n].empty())
            continue; // the reference skips empty nodes and their labels
        const std::vector<int> pieces = m_bpe.tokenizer().encodeWord(nodes[n]);
        const XPathIds row = xpathIds(xpaths[n]);
        for (size_t k = 0; k < pieces.size(); ++k, ++nodeTokens) {
            if (options.truncation && nodeTokens >= room)
                continue; // counted for nodeTokensWithoutTruncation
            const int label = nodeLabels && (k == 0 || !base.onlyLabelFirstSubword) ? (*nodeLabels)[n] : base.padTokenLabel;
            push(pieces[k], row, label, 1, int(n));
        }
    }
    out.nodeTokensWithoutTruncation = nodeTokens;
    push(sepId(), padRow, base.padTokenLabel, 1, -1);
    while (options.padToMaxLength && out.length() < maxLength)
        push(padId(), padRow, base.padTokenLabel, 0, -1);
    return out;
}

} // namespace folio::inference
