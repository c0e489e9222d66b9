#pragma once
// A Hugging Face MarkupLM tokenizer folder (vocab.json + merges.txt + tokenizer_config.json with
// `tags_dict`, `max_depth`, `max_width`, `pad_width`) turning web-page nodes and their XPaths
// (and optional node labels, or a question) into exactly what the reference's slow
// `MarkupLMTokenizer(nodes, xpaths=..., node_labels=...)` / `(question, nodes, xpaths=...)` returns:
// input_ids, token_type_ids, attention_mask, xpath_tags_seq, xpath_subs_seq, labels. Torch-free.
//
// Semantics (checked on ../shared/fixtures/parity-new/markuplm_tokenizer): each node is tokenized
// on its own by the byte-level BPE of hflayouttokenizer.h (no prefix space unless add_prefix_space);
// an empty node gives no token and drops its label; every sub-token repeats the node's xpath rows;
// the label goes on the first sub-token (all of them when only_label_first_subword is false);
// `<s> nodes </s>` or, for web QA, `<s> question </s> nodes </s>` (one `</s>` in the middle),
// specials and question tokens with all-pad xpath rows, token types all 0; truncation cuts tokens
// (not nodes) from the end of the nodes; padding on the right with <pad>, pad rows, -100, mask 0.

#include "inference/tokenizers/hflayouttokenizer.h"

#include <map>
#include <string>
#include <vector>

namespace folio::inference {

struct MarkupLMTokenizerConfig
{
    HfLayoutTokenizerConfig base;       // add_prefix_space (false here), labels, model_max_length, specials
    std::map<std::string, int> tagsDict; // tag name -> id; unknown tags get tagsDict.size()
    int maxDepth = 50, maxWidth = 1000, padWidth = 1001;
    int unkTagId() const { return int(tagsDict.size()); }
    int padTagId() const { return int(tagsDict.size()) + 1; }
    // Reads <dir>/tokenizer_config.json, which must exist and hold tags_dict. Throws InferenceError
    // naming the file for a missing file/key or malformed values.
    static MarkupLMTokenizerConfig fromDirectory(const std::string &dir);
};

// One XPath as ids: maxDepth tag ids and maxDepth subscripts (padded).
struct XPathIds
{
    std::vector<int> tags, subs;
};

struct MarkupTokens
{
    std::vector<int> inputIds, tokenTypeIds, attentionMask;
    std::vector<int> xpathTags, xpathSubs; // [positions x maxDepth] row-major
    std::vector<int> labels;               // empty when no node labels were given
    std::vector<int> nodeIds;              // node index per position, -1 for specials, question and padding
    int nodeTokensWithoutTruncation = 0;
    int length() const { return int(inputIds.size()); }
};

struct MarkupEncodeOptions
{
    int maxLength = 0;        // <= 0: model_max_length
    bool truncation = false;  // single: cut node tokens from the end; QA pair: only_second
    bool padToMaxLength = false;
};

class MarkupLMTokenizer
{
public:
    // Throws InferenceError naming the missing file (vocab.json, merges.txt, tokenizer_config.json)
    // or the malformed one.
    static MarkupLMTokenizer fromDirectory(const std::string &dir);
    static MarkupLMTokenizer fromDirectory(const std::string &dir, const MarkupLMTokenizerConfig &config);

    const MarkupLMTokenizerConfig &config() const { return m_config; }
    const Tokenizer &tokenizer() const { return m_bpe.tokenizer(); }
    int clsId() const { return m_bpe.clsId(); }
    int sepId() const { return m_bpe.sepId(); }
    int padId() const { return m_bpe.padId(); }

    // The reference's get_xpath_seq: split on '/', empty units skipped, tag id from tags_dict
    // (unknown: len(tags_dict)), subscript min(max_width, k) (0 without brackets), the first
    // max_depth units, padded with len(tags_dict)+1 / pad_width.
    XPathIds xpathIds(const std::string &xpath) const;

    // nodes/xpaths (and labels when given) of equal size; throws InferenceError otherwise or when
    // maxLength leaves no room for the specials.
    MarkupTokens encode(const std::vector<std::string> &nodes, const std::vector<std::string> &xpaths,
                        const std::vector<int> *nodeLabels = nullptr, const MarkupEncodeOptions &options = {}) const;
    // Web QA: <s> question </s> nodes </s>.
    MarkupTokens encodeQuestion(const std::string &question, const std::vector<std::string> &nodes,
                                const std::vector<std::string> &xpaths, const MarkupEncodeOptions &options = {}) const;

private:
    MarkupLMTokenizer(HfLayoutTokenizer bpe, MarkupLMTokenizerConfig config);
    MarkupTokens build(const std::vector<int> &prefix, const std::vector<std::string> &nodes,
                       const std::vector<std::string> &xpaths, const std::vector<int> *nodeLabels,
                       const MarkupEncodeOptions &options) const;

    HfLayoutTokenizer m_bpe;
    MarkupLMTokenizerConfig m_config;
};

} // namespace folio::inference
