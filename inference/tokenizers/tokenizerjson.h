#pragma once
// Hugging Face fast-tokenizer files (`tokenizer.json`, the single file the Hub ships), applied as the
// `tokenizers` library applies them to one pre-tokenized word (issue 46): added tokens split out
// first (leftmost-longest; lstrip / rstrip / single_word; raw-text tokens before the normaliser,
// `normalized` ones after it), then the normaliser, the pre-tokeniser and the model.
//
// Supported (anything else is refused with an InferenceError naming the file and the feature):
//  - models: BPE (merges as "a b" or [a, b]; unk_token, fuse_unk, continuing_subword_prefix,
//    end_of_word_suffix, ignore_merges; no dropout, no byte_fallback), WordPiece, Unigram (Viterbi,
//    unknowns fused; no byte_fallback);
//  - normalisers: BertNormalizer, Lowercase, NFC / NFD / NFKC / NFKD, StripAccents, Strip, Replace
//    (string or regex), Prepend, Precompiled (SentencePiece's compiled character map), Sequence;
//  - pre-tokenisers: ByteLevel, BertPreTokenizer, Whitespace, WhitespaceSplit, Metaspace,
//    Punctuation, Digits, Sequence;
//  - post-processors (read for the special tokens around a sequence): RobertaProcessing,
//    BertProcessing, TemplateProcessing of the form `CLS $A SEP`, ByteLevel, null.
// Checked against the library itself on tests/data/tokenizerjson (tst_tokenizerjson).
// Bounded: the file is parsed with readJsonFileBounded (vocabulary and merges at the BPE limits).

#include "inference/tokenizers/tokenizer.h"

#include <memory>
#include <string>

namespace folio::inference {

struct TokenizerJsonInfo
{
    std::string modelType;          // "BPE", "WordPiece", "Unigram"
    std::string clsToken, sepToken; // from the post-processor; empty when it names none
};

// Loads `tokenizer.json`; `info` (optional) receives the model type and the post-processor's specials.
// vocabSize() is the number of ids the file can give (the largest id + 1).
std::unique_ptr<Tokenizer> makeTokenizerFromJson(const std::string &tokenizerJson, TokenizerJsonInfo *info = nullptr);

// What a tokenizer.json's model is ("BPE", "WordPiece", "Unigram"; "" when it says none), read
// without building the tokenizer. Throws InferenceError naming the file when it is not JSON.
std::string tokenizerJsonModelType(const std::string &tokenizerJson);
// Whether the file lists added_tokens (every file the library writes does).
bool tokenizerJsonHasAddedTokens(const std::string &tokenizerJson);

} // namespace folio::inference
