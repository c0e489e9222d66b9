#pragma once
// WebFormer input construction (torch-free): WordPiece vocabulary, HTML tag vocabulary, and a
// page -> index lists (text pieces, HTML tokens, DOM edges, H2T edges, field pieces, gold spans).
// The graph enters the model only as these lists; nothing here is quadratic in the page length.

#include "inference/webformer/webformer.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace folio::inference {

// Greedy longest-match-first WordPiece over lower-cased words ("##" continuations), saved as a
// BERT vocab.txt. Row 0 [PAD], 1 [UNK].
class WebVocab
{
public:
    static WebVocab build(const std::vector<std::string> &words, int size);
    static WebVocab load(const std::string &vocabTxt); // throws InferenceError naming the file
    void save(const std::string &vocabTxt) const;
    int size() const { return int(m_pieces.size()); }
    std::vector<int> encode(const std::string &word, int maxPieces) const; // never empty for a non-empty word
    const std::string &piece(int id) const { return m_pieces[id]; }
    static std::string lower(const std::string &s);

private:
    std::vector<std::string> m_pieces;
    std::unordered_map<std::string, int> m_ids;
    void add(const std::string &p);
};

// DOM edge types (query node -> key node), H2H relation ids of the edge embedding table.
enum WebEdgeType : int { EdgeSelf = 0, EdgeParent = 1, EdgeChild = 2, EdgeSibling = 3, EdgeH2T = 4, EdgeH2F = 5 };
constexpr int kWebEdgeTypes = 6;
// Text -> HTML relation ids (key side): 0 none, 1 own text node, 2 that node's parent.
constexpr int kTextHtmlRelations = 3;

struct WebEdge
{
    int query = 0, key = 0, type = 0;
};

// H2H edges of a forest given by `parent` (parent[i] < i or -1): self, parent, every child, and
// siblings within `siblingWindow` positions on each side (0 = all siblings). Sorted by query.
std::vector<WebEdge> buildDomEdges(const std::vector<int> &parent, int siblingWindow);

// The fixed HTML tag list (index 0 = unknown tag, 1 = "#text").
const std::vector<std::string> &webTagList();

struct WebFormerInputs
{
    // text tokens [T]
    std::vector<std::int64_t> textIds;
    std::vector<std::int64_t> textNode;    // HTML token of each text token's text node
    std::vector<std::int64_t> textParent;  // HTML token of that node's parent (-1 none)
    std::vector<int> textWord;             // page word index of each text token
    // HTML tokens [N] (kept nodes, document order)
    std::vector<std::int64_t> tagIds;
    std::vector<int> htmlNode;             // WebPage node index of each HTML token
    std::vector<int> htmlParent;           // parent HTML token (-1 none)
    // HTML-query edges into the concatenated keys [HTML N | text T | field F]
    std::vector<std::int64_t> edgeQuery, edgeKey, edgeType;
    // field tokens [F]: word pieces of each name (padded with 0) and their count
    std::vector<std::int64_t> fieldPieces; // [F, P] row-major
    int fieldPieceWidth = 1;
    // page words (text nodes' words in document order) with their text node
    std::vector<std::string> words;
    std::vector<int> wordNode;
    bool truncated = false;

    int numText() const { return int(textIds.size()); }
    int numHtml() const { return int(tagIds.size()); }
    int numFields() const { return int(fieldPieces.size()) / fieldPieceWidth; }
};

// Builds the inputs of one page. Text beyond config.maxTextTokens is cut (inputs.truncated);
// nodes without kept text below them (img, br, script/style whose text the loader drops, the
// nodes of a cut tail) get no HTML token.
WebFormerInputs buildWebFormerInputs(const WebPage &page, const WebVocab &vocab, const WebFormerConfig &config,
                                     const std::vector<std::string> &fields);

// Gold spans of one field on text tokens: every occurrence of a gold value's normalised word
// sequence (normaliseFieldValue per word) among the page words. Empty when none occurs.
struct GoldSpan
{
    int start = 0, end = 0; // inclusive text token indices
};
std::vector<GoldSpan> findGoldSpans(const WebFormerInputs &inputs, const std::vector<std::string> &values);

} // namespace folio::inference
