// Tokenizer interface helpers: detection in a folder, word alignment, sliding windows.
#include "inference/tokenizers/tokenizer.h"

#include "inference/errors.h"
#include "common/regularfile.h"
#include "inference/tokenizers/hflayouttokenizer.h"
#include "inference/tokenizers/tokenizerjson.h"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace folio::inference {

std::vector<std::string> Tokenizer::pieces(const std::string &word, bool firstWord) const
{
    std::vector<std::string> out;
    for (int id : encodeWord(word, firstWord))
        out.push_back(idToPiece(id));
    return out;
}

std::unique_ptr<Tokenizer> Tokenizer::fromDirectory(const std::string &dir)
{
    const fs::path d(dir);
    std::error_code ec;
    if (!fs::is_directory(d, ec))
        throw InferenceError(dir + ": not a folder");
    // pathExists, not fs::exists: a FIFO or a link loop is "there" and refused by name when its
    // reader opens it (common/regularfile.h; fs::exists throws on a loop, issue 51).
    const auto there = [&d](const char *name) { return pathExists((d / name).string()); };
    if (there("tokenizer.json")) {
        // A file the `tokenizers` library wrote (it always lists added_tokens) is applied as that
        // library applies it; a minimal byte-level BPE file without the list keeps the slow-tokenizer
        // reading (the vocabulary's RoBERTa specials as added tokens).
        const std::string file = (d / "tokenizer.json").string();
        if (tokenizerJsonHasAddedTokens(file))
            return makeTokenizerFromJson(file);
        return makeBpeTokenizerFromJson(file);
    }
    if (there("vocab.json") && there("merges.txt")) {
        // tokenizer_config.json (when there) says add_prefix_space and the added tokens.
        const HfLayoutTokenizerConfig config = HfLayoutTokenizerConfig::fromDirectory(dir);
        BpeOptions options;
        options.addPrefixSpace = config.addPrefixSpace;
        options.addedTokensGiven = !config.addedTokens.empty();
        options.addedTokens = config.addedTokens;
        return makeBpeTokenizer((d / "vocab.json").string(), (d / "merges.txt").string(), options);
    }
    if (there("vocab.txt"))
        return makeWordPieceTokenizer((d / "vocab.txt").string());
    for (const char *name : {"spm.model", "sentencepiece.bpe.model", "tokenizer.model"})
        if (there(name))
            return makeSentencePieceTokenizer((d / name).string());
    for (const auto &entry : fs::directory_iterator(d, ec))
        if (entry.path().extension() == ".model")
            return makeSentencePieceTokenizer(entry.path().string());
    throw InferenceError(dir + ": no tokenizer files (looked for tokenizer.json, vocab.json + merges.txt, "
                               "vocab.txt, *.model)");
}

Encoding encodeWords(const Tokenizer &tok, const std::vector<std::string> &words, const std::vector<WordBox> &boxes,
                     int maxPiecesPerWord)
{
    if (words.size() != boxes.size())
        throw InferenceError("encodeWords: " + std::to_string(words.size()) + " words but " +
                             std::to_string(boxes.size()) + " boxes");
    Encoding e;
    for (size_t w = 0; w < words.size(); ++w) {
        std::vector<int> ids = tok.encodeWord(words[w], w == 0);
        if (ids.empty())
            ids.push_back(tok.unkId());
        if (maxPiecesPerWord > 0 && int(ids.size()) > maxPiecesPerWord)
            ids.resize(size_t(maxPiecesPerWord));
        e.wordStart.push_back(int(e.ids.size()));
        e.wordLength.push_back(int(ids.size()));
        for (size_t k = 0; k < ids.size(); ++k) {
            e.ids.push_back(ids[k]);
            e.wordIndex.push_back(int(w));
            e.boxes.push_back(boxes[w]);
            e.firstOfWord.push_back(k == 0 ? 1 : 0);
        }
    }
    return e;
}

std::vector<Window> slidingWindows(int count, int size, int stride)
{
    if (size <= 0 || stride <= 0 || stride > size)
        throw InferenceError("slidingWindows: need 0 < stride <= size (size " + std::to_string(size) + ", stride " +
                             std::to_string(stride) + ")");
    std::vector<Window> out;
    if (count <= 0)
        return out;
    for (int b = 0;; b += stride) {
        const int e = std::min(count, b + size);
        out.push_back(Window{b, e});
        if (e >= count)
            break;
    }
    if (out.size() > 1 && out.back().end - out.back().begin < size) // last window flush with the end
        out.back().begin = std::max(0, count - size);
    return out;
}

std::vector<float> mergeWindowScores(const std::vector<Window> &windows, const std::vector<std::vector<float>> &scores,
                                     int count, int numLabels)
{
    if (windows.size() != scores.size())
        throw InferenceError("mergeWindowScores: windows and scores differ in number");
    std::vector<float> out(size_t(count) * size_t(numLabels), 0.f);
    std::vector<int> bestMargin(size_t(count), -1);
    for (size_t w = 0; w < windows.size(); ++w) {
        const Window &win = windows[w];
        if (scores[w].size() != size_t(win.end - win.begin) * size_t(numLabels))
            throw InferenceError("mergeWindowScores: window " + std::to_string(w) + " has the wrong number of scores");
        for (int u = win.begin; u < win.end; ++u) {
            const int margin = std::min(u - win.begin, win.end - 1 - u);
            if (margin <= bestMargin[size_t(u)])
                continue;
            bestMargin[size_t(u)] = margin;
            std::copy_n(scores[w].begin() + long(u - win.begin) * numLabels, numLabels,
                        out.begin() + long(u) * numLabels);
        }
    }
    return out;
}

} // namespace folio::inference
