// Byte-level BPE (GPT-2 / RoBERTa / LayoutLMv3): bytes -> printable unicode characters, a
// simplified GPT-2 pre-tokenizer (contractions, letter runs, digit runs, other runs, each with
// its leading space; non-ASCII bytes count as letters), then merges by rank.
#include "inference/tokenizers/tokenizer.h"

#include "inference/errors.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

namespace folio::inference {

namespace {

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

enum class Cls { Space, Letter, Digit, Other };
Cls classify(unsigned char c)
{
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return Cls::Space;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80) return Cls::Letter;
    if (c >= '0' && c <= '9') return Cls::Digit;
    return Cls::Other;
}

std::vector<std::string> preTokenize(const std::string &text)
{
    std::vector<std::string> out;
    size_t i = 0;
    while (i < text.size()) {
        static const char *const contractions[] = {"'s", "'t", "'re", "'ve", "'m", "'ll", "'d"};
        bool matched = false;
        for (const char *c : contractions) {
            const size_t n = std::char_traits<char>::length(c);
            if (text.compare(i, n, c) == 0) {
                out.emplace_back(c);
                i += n;
                matched = true;
                break;
            }
        }
        if (matched) continue;
        size_t start = i;
        if (text[i] == ' ' && i + 1 < text.size() && classify(static_cast<unsigned char>(text[i + 1])) != Cls::Space)
            ++i;
        const Cls cls = classify(static_cast<unsigned char>(text[i]));
        while (i < text.size() && classify(static_cast<unsigned char>(text[i])) == cls) {
            if (cls == Cls::Other && text[i] == '\'' && i > start) break;
            ++i;
        }
        if (i == start) ++i;
        out.push_back(text.substr(start, i - start));
    }
    return out;
}

class BpeTokenizer : public Tokenizer
{
public:
    BpeTokenizer(std::vector<std::string> files, const nlohmann::json &vocab, std::vector<std::pair<std::string, std::string>> merges,
                 bool addPrefixSpace)
        : m_files(std::move(files)), m_addPrefixSpace(addPrefixSpace)
    {
        if (!vocab.is_object() || vocab.empty())
            throw InferenceError(m_files.front() + ": BPE vocabulary is not a non-empty object");
        int maxId = -1;
        for (auto it = vocab.begin(); it != vocab.end(); ++it) {
            if (!it.value().is_number_integer())
                throw InferenceError(m_files.front() + ": vocabulary id of \"" + it.key() + "\" is not an integer");
            m_ids[it.key()] = it.value().get<int>();
            maxId = std::max(maxId, it.value().get<int>());
        }
        m_pieces.assign(size_t(maxId + 1), std::string());
        for (const auto &kv : m_ids)
            if (kv.second >= 0)
                m_pieces[size_t(kv.second)] = kv.first;
        for (size_t r = 0; r < merges.size(); ++r)
            m_ranks.emplace(merges[r].first + '\x01' + merges[r].second, int(r));
        m_unk = std::max(0, pieceToId("<unk>"));
        m_pad = pieceToId("<pad>");
        if (m_pad < 0) m_pad = 0;
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

    std::vector<int> encodeWord(const std::string &word, bool firstWord) const override
    {
        const std::string text = (m_addPrefixSpace || !firstWord) ? " " + word : word;
        std::vector<int> out;
        for (const std::string &chunk : preTokenize(text)) {
            std::vector<std::string> symbols;
            for (unsigned char c : chunk)
                symbols.push_back(byteSymbols()[c]);
            bpe(&symbols);
            for (const std::string &s : symbols) {
                const int id = pieceToId(s);
                out.push_back(id >= 0 ? id : m_unk);
            }
        }
        return out;
    }

private:
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
    bool m_addPrefixSpace;
    std::unordered_map<std::string, int> m_ids;
    std::vector<std::string> m_pieces;
    std::unordered_map<std::string, int> m_ranks;
    int m_unk = 0, m_pad = 0;
};

nlohmann::json readJsonFile(const std::string &path)
{
    std::ifstream in(path);
    if (!in)
        throw InferenceError(path + ": cannot open");
    try {
        return nlohmann::json::parse(in);
    } catch (const std::exception &e) {
        throw InferenceError(path + ": invalid JSON: " + e.what());
    }
}

} // namespace

std::unique_ptr<Tokenizer> makeBpeTokenizer(const std::string &vocabJson, const std::string &mergesTxt, bool addPrefixSpace)
{
    const nlohmann::json vocab = readJsonFile(vocabJson);
    std::ifstream in(mergesTxt);
    if (!in)
        throw InferenceError(mergesTxt + ": cannot open BPE merges");
    std::vector<std::pair<std::string, std::string>> merges;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line.rfind("#version", 0) == 0) continue;
        const auto sp = line.find(' ');
        if (sp == std::string::npos)
            throw InferenceError(mergesTxt + ": malformed merge line \"" + line + "\"");
        merges.emplace_back(line.substr(0, sp), line.substr(sp + 1));
    }
    return std::make_unique<BpeTokenizer>(std::vector<std::string>{vocabJson, mergesTxt}, vocab, std::move(merges), addPrefixSpace);
}

std::unique_ptr<Tokenizer> makeBpeTokenizerFromJson(const std::string &tokenizerJson, bool addPrefixSpace)
{
    const nlohmann::json j = readJsonFile(tokenizerJson);
    if (!j.contains("model") || !j["model"].is_object() || j["model"].value("type", std::string("BPE")) != "BPE")
        throw InferenceError(tokenizerJson + ": only byte-level BPE tokenizer.json files are supported");
    const nlohmann::json &m = j["model"];
    std::vector<std::pair<std::string, std::string>> merges;
    for (const auto &v : m.value("merges", nlohmann::json::array())) {
        if (v.is_string()) {
            const std::string s = v.get<std::string>();
            const auto sp = s.find(' ');
            if (sp == std::string::npos)
                throw InferenceError(tokenizerJson + ": malformed merge \"" + s + "\"");
            merges.emplace_back(s.substr(0, sp), s.substr(sp + 1));
        } else if (v.is_array() && v.size() == 2) {
            merges.emplace_back(v[0].get<std::string>(), v[1].get<std::string>());
        } else {
            throw InferenceError(tokenizerJson + ": malformed merge entry");
        }
    }
    if (j.contains("pre_tokenizer") && j["pre_tokenizer"].is_object() && j["pre_tokenizer"].contains("add_prefix_space"))
        addPrefixSpace = j["pre_tokenizer"]["add_prefix_space"].get<bool>();
    return std::make_unique<BpeTokenizer>(std::vector<std::string>{tokenizerJson}, m.value("vocab", nlohmann::json()),
                                          std::move(merges), addPrefixSpace);
}

} // namespace folio::inference
