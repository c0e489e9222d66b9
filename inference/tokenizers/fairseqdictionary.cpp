// fairseq's dict.txt over GPT-2's encoder.json + vocab.bpe (see fairseqdictionary.h).
#include "inference/tokenizers/fairseqdictionary.h"

#include "inference/checkpoint/detail/jsonfile.h"
#include "inference/errors.h"
#include "common/regularfile.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace folio::inference {

namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t kMaxFileBytes = 64ull << 20;
constexpr std::size_t kMaxDictLines = 1u << 20;
const char kOverwrite[] = " #fairseq:overwrite";

std::string existingFile(const std::string &dir, const char *name)
{
    const fs::path p = fs::path(dir) / name;
    std::error_code ec;
    if (!pathExists(p.string()))
        throw InferenceError(p.string() + ": missing (a fairseq GPT-2 BPE tokenizer needs dict.txt, encoder.json and vocab.bpe)");
    std::string notAFile; // a FIFO, a device, a folder: named, never opened (issue 51)
    if (regularFileSize(p.string(), -1, name, &notAFile) < 0) // the size limit: below, from the same stat
        throw InferenceError(notAFile);
    const std::uintmax_t size = fs::file_size(p, ec);
    if (ec || size > kMaxFileBytes)
        throw InferenceError(p.string() + ": larger than 64 MiB");
    return p.string();
}

std::string readText(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InferenceError(path + ": cannot open");
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

std::vector<std::string> lines(const std::string &text)
{
    std::vector<std::string> out;
    for (std::size_t b = 0; b < text.size();) {
        std::size_t e = text.find('\n', b);
        if (e == std::string::npos)
            e = text.size();
        std::string line = text.substr(b, e - b);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        out.push_back(std::move(line));
        b = e + 1;
    }
    return out;
}

// GPT-2's printable stand-in of byte b (as tokenizer_bpe.cpp maps bytes), UTF-8.
std::string byteSymbol(unsigned b, unsigned *extra)
{
    const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    const unsigned cp = printable ? b : 256 + (*extra)++;
    std::string s;
    if (cp < 0x80) {
        s += char(cp);
    } else {
        s += char(0xC0 | (cp >> 6));
        s += char(0x80 | (cp & 0x3F));
    }
    return s;
}

bool isDecimal(const std::string &s)
{
    if (s.empty() || s.size() > 9 || (s.size() > 1 && s[0] == '0'))
        return false;
    for (char c : s)
        if (c < '0' || c > '9')
            return false;
    return true;
}

class FairseqGpt2BpeTokenizer : public Tokenizer
{
public:
    explicit FairseqGpt2BpeTokenizer(const std::string &dir)
    {
        const std::string dictTxt = existingFile(dir, "dict.txt");
        const std::string encoderJson = existingFile(dir, "encoder.json");
        const std::string vocabBpe = existingFile(dir, "vocab.bpe");
        m_files = {dictTxt, encoderJson, vocabBpe};
        checkEncoder(encoderJson, vocabBpe);
        BpeOptions options; // fairseq's encoder splits no added tokens out of the text
        options.addedTokensGiven = true;
        m_bpe = makeBpeTokenizer(encoderJson, vocabBpe, options);
        readDictionary(dictTxt);
    }

    std::string kind() const override { return "bpe"; } // byte-level pieces (decodeQsText)
    int vocabSize() const override { return int(m_symbols.size()); }
    std::vector<int> encodeWord(const std::string &word, bool firstWord) const override
    {
        std::vector<int> out;
        for (int gpt2 : m_bpe->encodeWord(word, firstWord)) {
            const auto it = m_ids.find(std::to_string(gpt2));
            out.push_back(it == m_ids.end() ? kUnk : it->second);
        }
        return out;
    }
    std::string idToPiece(int id) const override
    {
        if (id < 0 || id >= int(m_symbols.size()))
            return "<unk>";
        const std::string &symbol = m_symbols[std::size_t(id)];
        return isDecimal(symbol) ? m_bpe->idToPiece(std::stoi(symbol)) : symbol;
    }
    int pieceToId(const std::string &piece) const override
    {
        const int gpt2 = m_bpe->pieceToId(piece);
        const auto it = m_ids.find(gpt2 >= 0 ? std::to_string(gpt2) : piece);
        return it == m_ids.end() ? -1 : it->second;
    }
    int unkId() const override { return kUnk; }
    int padId() const override { return 1; }
    std::vector<std::string> files() const override { return m_files; }

private:
    static constexpr int kUnk = 3;

    // The BPE never meets a piece it has no id for: the 256 byte symbols and every merge's result
    // are in encoder.json (its unknown id would otherwise be GPT-2 id 0), and no id is given twice.
    static void checkEncoder(const std::string &encoderJson, const std::string &vocabBpe)
    {
        const nlohmann::json encoder = detail::readJsonFile(encoderJson);
        if (!encoder.is_object() || encoder.empty())
            throw InferenceError(encoderJson + ": not a non-empty JSON object of piece -> GPT-2 id");
        std::unordered_map<long long, std::string> byId;
        for (auto it = encoder.begin(); it != encoder.end(); ++it) {
            if (!it.value().is_number_integer() || it.value().get<long long>() < 0 || it.value().get<long long>() > 10'000'000)
                throw InferenceError(encoderJson + ": id of \"" + it.key().substr(0, 100) + "\" is not an integer in 0..10000000");
            const auto [at, fresh] = byId.emplace(it.value().get<long long>(), it.key());
            if (!fresh)
                throw InferenceError(encoderJson + ": GPT-2 id " + std::to_string(at->first) + " is given to \""
                                     + at->second.substr(0, 100) + "\" and \"" + it.key().substr(0, 100) + "\"");
        }
        unsigned extra = 0;
        for (unsigned b = 0; b < 256; ++b)
            if (!encoder.contains(byteSymbol(b, &extra)))
                throw InferenceError(encoderJson + ": no id for the byte symbol of byte " + std::to_string(b)
                                     + " (GPT-2's encoder.json has all 256)");
        const std::vector<std::string> merges = lines(readText(vocabBpe));
        if (merges.empty() || merges.front().rfind("#version", 0) != 0)
            throw InferenceError(vocabBpe + ": the first line is not a \"#version\" header");
        for (std::size_t i = 1; i < merges.size(); ++i) {
            const std::string &m = merges[i];
            const std::size_t sp = m.find(' ');
            if (m.empty() && i + 1 == merges.size())
                break;
            if (sp == std::string::npos || sp == 0 || sp + 1 >= m.size() || m.find(' ', sp + 1) != std::string::npos)
                throw InferenceError(vocabBpe + ": line " + std::to_string(i + 1) + " is not a merge \"a b\"");
            if (!encoder.contains(m.substr(0, sp) + m.substr(sp + 1)))
                throw InferenceError(vocabBpe + ": line " + std::to_string(i + 1) + ": the merge's result \""
                                     + m.substr(0, 100) + "\" has no id in " + encoderJson);
        }
    }

    void readDictionary(const std::string &dictTxt)
    {
        m_symbols = {"<s>", "<pad>", "</s>", "<unk>"};
        for (int i = 0; i < 4; ++i)
            m_ids[m_symbols[std::size_t(i)]] = i;
        const std::vector<std::string> text = lines(readText(dictTxt));
        if (text.size() > kMaxDictLines)
            throw InferenceError(dictTxt + ": more than " + std::to_string(kMaxDictLines) + " lines");
        for (std::size_t i = 0; i < text.size(); ++i) {
            std::string line = text[i];
            const std::string where = dictTxt + ": line " + std::to_string(i + 1);
            while (!line.empty() && (line.back() == ' ' || line.back() == '\t'))
                line.pop_back();
            if (line.empty()) {
                if (i + 1 == text.size())
                    break;
                throw InferenceError(where + " is empty");
            }
            const std::size_t flagLen = sizeof(kOverwrite) - 1;
            const bool overwrite = line.size() > flagLen && line.compare(line.size() - flagLen, flagLen, kOverwrite) == 0;
            if (overwrite)
                line.resize(line.size() - flagLen);
            const std::size_t sp = line.rfind(' ');
            if (sp == std::string::npos || sp == 0)
                throw InferenceError(where + " is not \"<symbol> <count> [#fairseq:overwrite]\"");
            const std::string symbol = line.substr(0, sp), count = line.substr(sp + 1);
            if (count.empty() || count.size() > 18 || count.find_first_not_of("0123456789") != std::string::npos)
                throw InferenceError(where + ": the count \"" + count.substr(0, 40) + "\" is not a non-negative integer");
            if (m_ids.count(symbol) && !overwrite)
                throw InferenceError(where + ": \"" + symbol.substr(0, 100) + "\" is already id " + std::to_string(m_ids[symbol])
                                     + " (a repeated symbol needs the #fairseq:overwrite flag)");
            if (isDecimal(symbol) && m_bpe->pieceToId(m_bpe->idToPiece(std::stoi(symbol))) != std::stoi(symbol))
                throw InferenceError(where + ": GPT-2 id " + symbol + " is not in encoder.json");
            m_ids[symbol] = int(m_symbols.size());
            m_symbols.push_back(symbol);
        }
    }

    std::vector<std::string> m_files;
    std::unique_ptr<Tokenizer> m_bpe;
    std::vector<std::string> m_symbols;               // by fairseq id
    std::unordered_map<std::string, int> m_ids;       // symbol -> fairseq id (the last line of a symbol)
};

} // namespace

bool hasFairseqGpt2BpeFiles(const std::string &dir)
{
    std::error_code ec;
    for (const char *name : {"dict.txt", "encoder.json", "vocab.bpe"})
        if (fs::exists(fs::path(dir) / name, ec))
            return true;
    return false;
}

std::unique_ptr<Tokenizer> makeFairseqGpt2BpeTokenizer(const std::string &dir)
{
    return std::make_unique<FairseqGpt2BpeTokenizer>(dir);
}

} // namespace folio::inference
