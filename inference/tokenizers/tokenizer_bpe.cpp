// Byte-level BPE as Hugging Face's slow GPT-2 / RoBERTa / LayoutLMv3 tokenizers do it, word by word:
// added-token text split out first (leftmost, longest; lstrip/rstrip trim the neighbours), one
// prefix space unless the word starts with whitespace or an added token, the GPT-2 pre-tokenizer
// with Unicode letter/number/space classes, bytes -> printable stand-ins, then merges by rank.
// Checked against the reference on ../shared/fixtures/parity-next/layoutlmv3_tokenizer.
#include "inference/tokenizers/tokenizer.h"
#include "inference/tokenizers/tokenizerjson_text.h"

#include "inference/checkpoint/detail/jsonfile.h"
#include "inference/checkpoint/jsonlimits.h"
#include "inference/errors.h"
#include "common/regularfile.h"

#include <nlohmann/json.hpp>

#include <QList>
#include <QString>

#include <algorithm>
#include <climits>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

namespace folio::inference {

namespace {

// A byte-level BPE vocabulary and its merges (issue 51: counted while reading, refused at the limit
// before the rest is built; config.json's vocab_size has the same limit).
constexpr std::size_t kMaxVocabulary = 1000000;
constexpr std::size_t kMaxMerges = 1000000;

std::string codepointToUtf8(unsigned cp)
{
    std::string s;
    if (cp < 0x80) {
        s += char(cp);
    } else if (cp < 0x800) {
        s += char(0xC0 | (cp >> 6));
        s += char(0x80 | (cp & 0x3F));
    } else {
        s += char(0xE0 | (cp >> 12));
        s += char(0x80 | ((cp >> 6) & 0x3F));
        s += char(0x80 | (cp & 0x3F));
    }
    return s;
}

const std::vector<std::string> &byteSymbols()
{
    static const std::vector<std::string> table = [] {
        std::vector<std::string> t(256);
        unsigned extra = 0;
        for (unsigned b = 0; b < 256; ++b) {
            const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
            t[b] = codepointToUtf8(printable ? b : 256 + extra++);
        }
        return t;
    }();
    return table;
}

// Unicode classes of the GPT-2 pattern, on code points. \p{L}: QChar letter categories, \p{N}:
// number categories, \s: the White_Space property (QChar::isSpace is exactly that set).
bool isLetterCp(char32_t c) { return QChar::isLetter(c); }
bool isNumberCp(char32_t c) { return QChar::isNumber(c); }
bool isSpaceCp(char32_t c) { return QChar::isSpace(c); }
// Python's str.isspace, used for the prefix-space rule: White_Space plus U+001C..U+001F.
bool isPythonSpace(char32_t c) { return isSpaceCp(c) || (c >= 0x1C && c <= 0x1F); }
bool isOtherCp(char32_t c) { return !isSpaceCp(c) && !isLetterCp(c) && !isNumberCp(c); }

std::u32string toCodePoints(const std::string &utf8)
{
    const QList<uint> ucs4 = QString::fromUtf8(utf8.data(), qsizetype(utf8.size())).toUcs4();
    return std::u32string(ucs4.begin(), ucs4.end());
}

// The GPT-2 pre-tokenizer, alternative by alternative as the regex engine tries them:
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
std::vector<std::string> preTokenize(const std::u32string &t)
{
    std::vector<std::string> out;
    const size_t n = t.size();
    size_t i = 0;
    auto runOf = [&](size_t from, bool (*pred)(char32_t)) {
        size_t j = from;
        while (j < n && pred(t[j])) ++j;
        return j;
    };
    while (i < n) {
        size_t end = i;
        static const std::u32string contractions[] = {U"'s", U"'t", U"'re", U"'ve", U"'m", U"'ll", U"'d"};
        for (const std::u32string &c : contractions)
            if (t.compare(i, c.size(), c) == 0) {
                end = i + c.size();
                break;
            }
        if (end == i) {
            for (bool (*pred)(char32_t) : {isLetterCp, isNumberCp, isOtherCp}) {
                const size_t from = (t[i] == U' ' && i + 1 < n && pred(t[i + 1])) ? i + 1 : i;
                if (pred(t[from])) {
                    end = runOf(from, pred);
                    break;
                }
            }
        }
        if (end == i) { // whitespace: \s+(?!\S) keeps the last space for the next token, else \s+
            const size_t j = runOf(i, isSpaceCp);
            end = (j == n || j - i == 1) ? j : j - 1;
        }
        out.push_back(tokjson::toUtf8(t, i, end));
        i = end;
    }
    return out;
}

class BpeTokenizer : public Tokenizer
{
public:
    BpeTokenizer(std::vector<std::string> files, const nlohmann::json &vocab, std::vector<std::pair<std::string, std::string>> merges,
                 BpeOptions options)
        : m_files(std::move(files)), m_options(std::move(options))
    {
        if (!vocab.is_object() || vocab.empty())
            throw InferenceError(m_files.front() + ": BPE vocabulary is not a non-empty object");
        if (vocab.size() > kMaxVocabulary)
            throw InferenceError(m_files.front() + ": the vocabulary has " + std::to_string(vocab.size())
                                 + " entries, more than the limit of " + std::to_string(kMaxVocabulary));
        if (merges.size() > kMaxMerges)
            throw InferenceError(m_files.back() + ": " + std::to_string(merges.size()) + " merges, more than the limit of "
                                 + std::to_string(kMaxMerges));
        int maxId = -1;
        for (auto it = vocab.begin(); it != vocab.end(); ++it) {
            if (!it.value().is_number_integer() || it.value().get<long long>() < 0
                || it.value().get<long long>() >= static_cast<long long>(kMaxVocabulary))
                throw InferenceError(m_files.front() + ": vocabulary id of \"" + it.key() + "\" is not an integer in 0.."
                                     + std::to_string(kMaxVocabulary - 1));
            m_ids[it.key()] = it.value().get<int>();
            maxId = std::max(maxId, it.value().get<int>());
        }
        m_pieces.assign(size_t(maxId + 1), std::string());
        for (const auto &kv : m_ids)
            m_pieces[size_t(kv.second)] = kv.first;
        for (size_t r = 0; r < merges.size(); ++r)
            m_ranks.emplace(merges[r].first + '\x01' + merges[r].second, int(r));
        m_unk = std::max(0, pieceToId("<unk>"));
        m_pad = pieceToId("<pad>");
        if (m_pad < 0) m_pad = 0;
        if (!m_options.addedTokensGiven)
            for (const char *special : {"<s>", "</s>", "<pad>", "<unk>", "<mask>"})
                if (m_ids.count(special))
                    m_options.addedTokens.push_back(AddedToken{special, std::string(special) == "<mask>", false});
        for (AddedToken &a : m_options.addedTokens) {
            if (a.content.empty())
                throw InferenceError(m_files.front() + ": an added token has no text");
            if (a.id < 0) a.id = pieceToId(a.content);
            if (a.id < 0)
                throw InferenceError(m_files.front() + ": added token \"" + a.content + "\" has no id in the vocabulary");
        }
        // Longest first, so that the split below takes the longest token at a position.
        std::stable_sort(m_options.addedTokens.begin(), m_options.addedTokens.end(),
                         [](const AddedToken &a, const AddedToken &b) { return a.content.size() > b.content.size(); });
    }
    std::string kind() const override { return "bpe"; }
    int vocabSize() const override { return int(m_pieces.size()); }
    std::string idToPiece(int id) const override { return id >= 0 && id < int(m_pieces.size()) ? m_pieces[size_t(id)] : "<unk>"; }
    int pieceToId(const std::string &p) const override
    {
        const auto it = m_ids.find(p);
        return it == m_ids.end() ? -1 : it->second;
    }
    int unkId() const override { return m_unk; }
    int padId() const override { return m_pad; }
    std::vector<std::string> files() const override { return m_files; }

    // Every word is tokenized on its own (as the LayoutLMv3 tokenizer does), so `firstWord` does not
    // matter: the prefix space depends on add_prefix_space and the word's first character only.
    std::vector<int> encodeWord(const std::string &word, bool) const override
    {
        std::vector<int> out;
        if (word.empty())
            return out;
        const std::u32string cps = toCodePoints(word);
        const bool prefix = m_options.addPrefixSpace && !cps.empty() && !isPythonSpace(cps.front()) && !startsWithAddedToken(word);
        for (const Piece &piece : splitAddedTokens(prefix ? " " + word : word)) {
            if (piece.addedId >= 0) {
                out.push_back(piece.addedId);
                continue;
            }
            for (const std::string &chunk : preTokenize(toCodePoints(piece.text))) {
                std::vector<std::string> symbols;
                for (unsigned char c : chunk)
                    symbols.push_back(byteSymbols()[c]);
                bpe(&symbols);
                for (const std::string &sym : symbols) {
                    const int id = pieceToId(sym);
                    out.push_back(id >= 0 ? id : m_unk);
                }
            }
        }
        return out;
    }

private:
    struct Piece { std::string text; int addedId = -1; };

    bool startsWithAddedToken(const std::string &word) const
    {
        for (const AddedToken &a : m_options.addedTokens)
            if (word.compare(0, a.content.size(), a.content) == 0)
                return true;
        return false;
    }

    // Splits at every added-token occurrence (leftmost, then longest); lstrip trims the whitespace at
    // the end of the text before it, rstrip the whitespace at the start of the text after it; empty
    // text pieces are dropped.
    std::vector<Piece> splitAddedTokens(const std::string &text) const
    {
        std::vector<Piece> pieces;
        size_t from = 0;
        bool trimNextStart = false;
        auto pushText = [&](std::string t, bool trimEnd) {
            if (trimNextStart) t = trimmed(t, true, false);
            if (trimEnd) t = trimmed(t, false, true);
            trimNextStart = false;
            if (!t.empty()) pieces.push_back(Piece{std::move(t), -1});
        };
        for (size_t i = 0; i < text.size();) {
            const AddedToken *hit = nullptr;
            for (const AddedToken &a : m_options.addedTokens)
                if (text.compare(i, a.content.size(), a.content) == 0) {
                    hit = &a;
                    break;
                }
            if (!hit) {
                ++i;
                continue;
            }
            pushText(text.substr(from, i - from), hit->lstrip);
            pieces.push_back(Piece{std::string(), hit->id});
            trimNextStart = hit->rstrip;
            i += hit->content.size();
            from = i;
        }
        pushText(text.substr(from), false);
        return pieces;
    }

    static std::string trimmed(const std::string &t, bool front, bool back)
    {
        const std::u32string cps = toCodePoints(t);
        size_t b = 0, e = cps.size();
        while (front && b < e && isPythonSpace(cps[b])) ++b;
        while (back && e > b && isPythonSpace(cps[e - 1])) --e;
        return tokjson::toUtf8(cps, b, e);
    }

    void bpe(std::vector<std::string> *symbols) const
    {
        while (symbols->size() > 1) {
            int bestRank = INT_MAX;
            size_t best = 0;
            for (size_t i = 0; i + 1 < symbols->size(); ++i) {
                const auto it = m_ranks.find((*symbols)[i] + '\x01' + (*symbols)[i + 1]);
                if (it != m_ranks.end() && it->second < bestRank) {
                    bestRank = it->second;
                    best = i;
                }
            }
            if (bestRank == INT_MAX)
                break;
            const std::string a = (*symbols)[best], b = (*symbols)[best + 1];
            std::vector<std::string> merged;
            for (size_t i = 0; i < symbols->size();) {
                if (i + 1 < symbols->size() && (*symbols)[i] == a && (*symbols)[i + 1] == b) {
                    merged.push_back(a + b);
                    i += 2;
                } else {
                    merged.push_back((*symbols)[i++]);
                }
            }
            *symbols = std::move(merged);
        }
    }

    std::vector<std::string> m_files;
    BpeOptions m_options;
    std::unordered_map<std::string, int> m_ids;
    std::vector<std::string> m_pieces;
    std::unordered_map<std::string, int> m_ranks;
    int m_unk = 0, m_pad = 0;
};

std::pair<std::string, std::string> splitMerge(const std::string &line, const std::string &file)
{
    const auto sp = line.find(' ');
    if (sp == std::string::npos || sp == 0 || sp + 1 >= line.size())
        throw InferenceError(file + ": malformed merge \"" + line.substr(0, 200) + "\"");
    return {line.substr(0, sp), line.substr(sp + 1)};
}

} // namespace

std::unique_ptr<Tokenizer> makeBpeTokenizer(const std::string &vocabJson, const std::string &mergesTxt, bool addPrefixSpace)
{
    BpeOptions options;
    options.addPrefixSpace = addPrefixSpace;
    return makeBpeTokenizer(vocabJson, mergesTxt, options);
}

std::unique_ptr<Tokenizer> makeBpeTokenizer(const std::string &vocabJson, const std::string &mergesTxt, const BpeOptions &options)
{
    std::string notAFile; // FIFOs, devices, oversized files: refused before the open (issue 51)
    if (regularFileSize(vocabJson, FileLimits::vocabulary, "the BPE vocabulary", &notAFile) < 0
        || regularFileSize(mergesTxt, FileLimits::vocabulary, "the BPE merges", &notAFile) < 0)
        throw InferenceError(notAFile);
    // The root object and one value per entry: the count stops the parse at the limit.
    const nlohmann::json vocab = readJsonFileBounded(vocabJson, {8, kMaxVocabulary + 1, "JSON values (the object and one per vocabulary entry)"});
    std::ifstream in(mergesTxt, std::ios::binary);
    if (!in)
        throw InferenceError(mergesTxt + ": cannot open BPE merges");
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    // As the reference reads it: split at '\n', drop the first line (the "#version" header, whatever
    // it says) and the last element (empty when the file ends with a newline). Counted as they are
    // split: past kMaxMerges the file is refused before more are built.
    std::vector<std::pair<std::string, std::string>> merges;
    const size_t firstEnd = text.find('\n');
    for (size_t b = firstEnd == std::string::npos ? text.size() : firstEnd + 1; b < text.size();) {
        const size_t e = text.find('\n', b);
        if (e == std::string::npos)
            break; // the last element: empty, or a line without its newline (the reference drops it too)
        if (merges.size() == kMaxMerges)
            throw InferenceError(mergesTxt + ": more than " + std::to_string(kMaxMerges)
                                 + " merges, the limit; refused before reading the rest");
        std::string line = text.substr(b, e - b);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        merges.push_back(splitMerge(line, mergesTxt));
        b = e + 1;
    }
    return std::make_unique<BpeTokenizer>(std::vector<std::string>{vocabJson, mergesTxt}, vocab, std::move(merges), options);
}

std::unique_ptr<Tokenizer> makeBpeTokenizerFromJson(const std::string &tokenizerJson, bool addPrefixSpace)
{
    // A vocabulary and merges at their limits (a merge as [a, b] is three values) and the rest.
    const nlohmann::json j = readJsonFileBounded(tokenizerJson, {32, kMaxVocabulary + 3 * kMaxMerges + (1u << 20)});
    if (!j.contains("model") || !j["model"].is_object() || j["model"].value("type", std::string("BPE")) != "BPE")
        throw InferenceError(tokenizerJson + ": only byte-level BPE tokenizer.json files are supported");
    const nlohmann::json &m = j["model"];
    std::vector<std::pair<std::string, std::string>> merges;
    const auto mergeList = m.find("merges");
    if (mergeList != m.end() && mergeList->is_array() && mergeList->size() > kMaxMerges)
        throw InferenceError(tokenizerJson + ": " + std::to_string(mergeList->size()) + " merges, more than the limit of "
                             + std::to_string(kMaxMerges));
    for (const auto &v : m.value("merges", nlohmann::json::array())) {
        if (v.is_string())
            merges.push_back(splitMerge(v.get<std::string>(), tokenizerJson));
        else if (v.is_array() && v.size() == 2 && v[0].is_string() && v[1].is_string())
            merges.emplace_back(v[0].get<std::string>(), v[1].get<std::string>());
        else
            throw InferenceError(tokenizerJson + ": malformed merge entry");
    }
    BpeOptions options;
    options.addPrefixSpace = addPrefixSpace;
    if (j.contains("pre_tokenizer") && j["pre_tokenizer"].is_object() && j["pre_tokenizer"].contains("add_prefix_space")
        && j["pre_tokenizer"]["add_prefix_space"].is_boolean())
        options.addPrefixSpace = j["pre_tokenizer"]["add_prefix_space"].get<bool>();
    if (j.contains("added_tokens") && j["added_tokens"].is_array()) {
        options.addedTokensGiven = true;
        for (const auto &a : j["added_tokens"]) {
            if (!a.is_object() || !a.contains("content") || !a["content"].is_string())
                throw InferenceError(tokenizerJson + ": malformed added_tokens entry");
            options.addedTokens.push_back(AddedToken{a["content"].get<std::string>(), a.value("lstrip", false),
                                                     a.value("rstrip", false), a.value("id", -1)});
        }
    }
    return std::make_unique<BpeTokenizer>(std::vector<std::string>{tokenizerJson}, m.value("vocab", nlohmann::json()),
                                          std::move(merges), options);
}

} // namespace folio::inference
