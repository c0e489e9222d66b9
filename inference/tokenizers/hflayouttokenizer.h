#pragma once
// A Hugging Face LayoutLMv3 tokenizer folder (vocab.json + merges.txt + tokenizer_config.json), or
// a LayoutLMv2 (BERT WordPiece vocab.txt) or LayoutXLM (XLM-R sentencepiece.bpe.model) one, turning words with 0-1000 boxes (and optional word labels) into exactly what the reference's
// `tokenizer(words, boxes=..., word_labels=..., truncation=True, max_length=N[, padding="max_length"])`
// returns: input_ids, bbox, labels, attention_mask, plus the word of each position. Torch-free.
//
// Semantics (checked on ../shared/fixtures/parity-next/layoutlmv3_tokenizer): words are tokenized
// one at a time; an empty word gets no token (its index still counts); every sub-token carries its
// word's box; the word label goes on the first sub-token (or on all of them when
// only_label_first_subword is false), -100 elsewhere; <s> + tokens + </s> with the config's
// cls/sep boxes; truncation keeps the first max_length - 2 word tokens (it may cut inside a word);
// padding on the right with <pad>, the pad box, -100 and mask 0.
// LayoutLMv2Tokenizer / LayoutXLMTokenizer (checked on tests/data/tokenizers/layoutlmv2 and
// layoutxlm): the same per-word scheme with [CLS]/[SEP]/[PAD] (<s>/</s>/<pad>), the separator's box
// [1000, 1000, 1000, 1000] unless tokenizer_config.json says otherwise, and a white-space-only word
// gets no token (BERT's BasicTokenizer and SentencePiece drop it).

#include "inference/tokenizers/tokenizer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace folio::inference {

struct HfLayoutTokenizerConfig
{
    // Byte-level BPE (LayoutLMv3Tokenizer, RobertaTokenizer, ...), BERT WordPiece
    // (LayoutLMv2Tokenizer, BertTokenizer) or XLM-R SentencePiece (LayoutXLMTokenizer, XLMRobertaTokenizer).
    enum class Kind { Bpe, WordPiece, XlmSentencePiece };
    Kind kind = Kind::Bpe;
    bool doLowerCase = true;           // WordPiece: do_lower_case
    int stripAccents = -1;             // WordPiece: strip_accents (-1: null, i.e. when lower-casing)
    bool addPrefixSpace = true;
    bool onlyLabelFirstSubword = true;
    int modelMaxLength = 512;          // clamped to 1..1,000,000 (unset configs say 1e30)
    WordBox clsBox, sepBox, padBox;    // all zero by default
    int padTokenLabel = -100;
    std::string clsToken = "<s>", sepToken = "</s>", padToken = "<pad>";
    std::vector<AddedToken> addedTokens; // from added_tokens_decoder; empty: the vocabulary's specials
    std::string tokenizerClass;        // tokenizer_class ("" when the file does not say)
    // Reads <dir>/tokenizer_config.json when present (defaults otherwise). The kind comes from
    // tokenizer_class, else from the files (vocab.json, vocab.txt, sentencepiece.bpe.model), and sets
    // the defaults (special tokens, separator box) the file may override. Throws InferenceError
    // naming the file for malformed values.
    static HfLayoutTokenizerConfig fromDirectory(const std::string &dir);
    // The kind a tokenizer_class names (Kind::Bpe with *known = false for a class it does not know).
    static Kind kindOfClass(const std::string &tokenizerClass, bool *known);
};

struct LayoutTokens
{
    std::vector<int> inputIds;
    std::vector<WordBox> bbox;
    std::vector<int> labels;        // empty when no word labels were given (or every word was empty)
    std::vector<int> attentionMask;
    std::vector<int> wordIds;       // word index per position, -1 for <s>, </s> and padding
    int tokensWithoutTruncation = 0; // word tokens before truncation
};

class HfLayoutTokenizer
{
public:
    // Loads a checkpoint or tokenizer folder. tokenizer.json, when there, is used even beside the slow
    // tokenizer's files (as Python's AutoTokenizer, use_fast=True, does); when Folio refuses it and the
    // slow files are there, those are used and loadWarning() says why. Throws InferenceError naming
    // the folder and the missing file (vocab.json / merges.txt) or the malformed one.
    static HfLayoutTokenizer fromDirectory(const std::string &dir);
    // The same with a config read (and adjusted) by the caller, e.g. add_prefix_space overridden.
    static HfLayoutTokenizer fromDirectory(const std::string &dir, const HfLayoutTokenizerConfig &config);
    HfLayoutTokenizer(std::unique_ptr<Tokenizer> tokenizer, HfLayoutTokenizerConfig config);

    const Tokenizer &tokenizer() const { return *m_tokenizer; }
    const HfLayoutTokenizerConfig &config() const { return m_config; }
    int clsId() const { return m_cls; }
    int sepId() const { return m_sep; }
    int padId() const { return m_pad; }
    // Why the folder's tokenizer.json was passed over for the slow files ("" when it was not).
    const std::string &loadWarning() const { return m_loadWarning; }

    // maxLength <= 0: the config's model_max_length. wordLabels: nullptr or one per word.
    // Throws InferenceError when words, boxes and labels differ in size or maxLength < 2.
    LayoutTokens encode(const std::vector<std::string> &words, const std::vector<WordBox> &boxes,
                        const std::vector<int> *wordLabels = nullptr, int maxLength = 0, bool truncation = true,
                        bool padToMaxLength = false) const;

private:
    std::shared_ptr<Tokenizer> m_tokenizer;
    HfLayoutTokenizerConfig m_config;
    int m_cls = 0, m_sep = 2, m_pad = 1;
    std::string m_loadWarning;
};

} // namespace folio::inference
