#pragma once
// Sub-word tokenizers behind one interface, with word -> sub-token alignment and sliding
// windows. Torch-free.
//
//  - WordPiece (BERT `vocab.txt`), greedy longest-match-first with "##" continuations;
//  - byte-level BPE (RoBERTa / LayoutLMv3: `vocab.json` + `merges.txt`, or `tokenizer.json`);
//  - SentencePiece (`*.model`, through libsentencepiece).
// Layout models tokenize word by word: every sub-token keeps its word's box, and a word's label
// goes on its first sub-token (the others are ignored by the loss, or pooled back to the word).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace folio::inference {

class Tokenizer
{
public:
    virtual ~Tokenizer() = default;
    virtual std::string kind() const = 0;             // "wordpiece", "bpe", "sentencepiece"
    virtual int vocabSize() const = 0;
    // Sub-token ids of one word. `firstWord` matters for BPE (no leading space on the first word
    // unless add_prefix_space). Never empty for a non-blank word (unknown -> unkId()).
    virtual std::vector<int> encodeWord(const std::string &word, bool firstWord = false) const = 0;
    virtual std::vector<std::string> pieces(const std::string &word, bool firstWord = false) const;
    virtual std::string idToPiece(int id) const = 0;
    virtual int pieceToId(const std::string &piece) const = 0; // -1 when absent
    virtual int unkId() const = 0;
    virtual int padId() const = 0;
    // Files that make up this tokenizer (absolute paths), copied into checkpoints.
    virtual std::vector<std::string> files() const = 0;

    // Detects the tokenizer in a checkpoint folder: tokenizer.json, vocab.json + merges.txt,
    // vocab.txt, or *.model / sentencepiece.bpe.model / spm.model. Throws InferenceError naming the
    // folder and the files it looked for when none is there.
    static std::unique_ptr<Tokenizer> fromDirectory(const std::string &dir);
};

std::unique_ptr<Tokenizer> makeWordPieceTokenizer(const std::string &vocabTxt, bool lowerCase = false);
// WordPiece behind BERT's full BasicTokenizer (Hugging Face BertTokenizer / LayoutLMv2Tokenizer):
// control characters dropped, CJK ideographs split, NFC, lower-casing, accent stripping
// (stripAccents < 0: when lower-casing, as strip_accents=None does), Unicode punctuation split.
std::unique_ptr<Tokenizer> makeBertWordPieceTokenizer(const std::string &vocabTxt, bool lowerCase, int stripAccents = -1);
// Text that is never split by BPE and maps to one id (Hugging Face "added tokens": <s>, <mask>, ...).
// lstrip / rstrip: whitespace before / after an occurrence is dropped.
struct AddedToken
{
    std::string content;
    bool lstrip = false, rstrip = false;
    int id = -1; // -1: looked up in the vocabulary
};
struct BpeOptions
{
    bool addPrefixSpace = true;
    // When false, the RoBERTa specials present in the vocabulary (<s> </s> <pad> <unk>, and <mask>
    // with lstrip) are the added tokens.
    bool addedTokensGiven = false;
    std::vector<AddedToken> addedTokens;
};
std::unique_ptr<Tokenizer> makeBpeTokenizer(const std::string &vocabJson, const std::string &mergesTxt,
                                            bool addPrefixSpace = true);
std::unique_ptr<Tokenizer> makeBpeTokenizer(const std::string &vocabJson, const std::string &mergesTxt,
                                            const BpeOptions &options);
std::unique_ptr<Tokenizer> makeBpeTokenizerFromJson(const std::string &tokenizerJson, bool addPrefixSpace = true);
std::unique_ptr<Tokenizer> makeSentencePieceTokenizer(const std::string &modelFile);
// An XLM-R SentencePiece model with fairseq's ids (XLMRobertaTokenizer / LayoutXLMTokenizer):
// <s> 0, <pad> 1, </s> 2, <unk> 3, every other piece its SentencePiece id + 1 (SentencePiece's own
// unknown -> 3), <mask> last (vocabSize() = pieces + 2).
std::unique_ptr<Tokenizer> makeXlmRobertaTokenizer(const std::string &modelFile);

// Trains a SentencePiece model from a text file (one sentence/word per line) into
// `<modelPrefix>.model` / `.vocab`. type: "unigram" or "bpe". Throws InferenceError.
// `atMost`: vocabSize is an upper bound (SentencePiece's hard_vocab_limit=false): a small corpus
// (a project with a few labelled pages) gets the pieces it can give instead of an error.
void trainSentencePiece(const std::string &inputFile, const std::string &modelPrefix, int vocabSize,
                        const std::string &type = "unigram", double characterCoverage = 1.0, bool atMost = false);

// Words -> sub-tokens with alignment.
struct WordBox { int x0 = 0, y0 = 0, x1 = 0, y1 = 0; };
struct Encoding
{
    std::vector<int> ids;            // sub-token ids
    std::vector<int> wordIndex;      // word of each sub-token
    std::vector<WordBox> boxes;      // each sub-token keeps its word's box
    std::vector<char> firstOfWord;   // 1 on a word's first sub-token (where its label goes)
    std::vector<int> wordStart;      // first sub-token of each word
    std::vector<int> wordLength;     // sub-tokens of each word (after maxPiecesPerWord)
};
// maxPiecesPerWord <= 0 keeps every piece. Throws InferenceError when words and boxes differ in size.
Encoding encodeWords(const Tokenizer &tok, const std::vector<std::string> &words, const std::vector<WordBox> &boxes,
                     int maxPiecesPerWord = 0);

// Sliding windows of at most `size` units over `count` units, each starting `stride` after the
// previous (stride <= size); the last window ends at `count`. One window when count <= size.
struct Window { int begin = 0; int end = 0; };
std::vector<Window> slidingWindows(int count, int size, int stride);

// Merge per-window scores (window w: (end-begin) x L row-major) back to count x L: each unit takes
// the scores of the window where it is farthest from a window edge (ties: the earlier window).
std::vector<float> mergeWindowScores(const std::vector<Window> &windows, const std::vector<std::vector<float>> &scores,
                                     int count, int numLabels);

} // namespace folio::inference
