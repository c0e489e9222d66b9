// WordPiece (BERT vocab.txt): basic split on whitespace and ASCII punctuation, optional ASCII
// lower-casing, then greedy longest-match-first with "##" continuation pieces.
#include "inference/tokenizers/tokenizer.h"

#include "inference/errors.h"

#include <fstream>
#include <unordered_map>

namespace folio::inference {

namespace {

bool isAsciiPunct(unsigned char c)
{
    return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

// Length of the UTF-8 sequence starting with byte c.
int utf8Len(unsigned char c)
{
    if (c < 0x80) return 1;
    if ((c >> 5) == 6) return 2;
    if ((c >> 4) == 14) return 3;
    if ((c >> 3) == 30) return 4;
    return 1;
}

class WordPieceTokenizer : public Tokenizer
{
public:
    WordPieceTokenizer(const std::string &path, bool lower) : m_path(path), m_lower(lower)
    {
        std::ifstream in(path);
        if (!in)
            throw InferenceError(path + ": cannot open WordPiece vocabulary");
        std::string line;
        while (std::getline(in, line)) {
            if (!line.empty() && line.back() == '\r')
                line.pop_back();
            m_ids.emplace(line, int(m_pieces.size()));
            m_pieces.push_back(line);
        }
        if (m_pieces.empty())
            throw InferenceError(path + ": empty WordPiece vocabulary");
        m_unk = pieceToId("[UNK]");
        if (m_unk < 0)
            throw InferenceError(path + ": WordPiece vocabulary has no [UNK]");
        m_pad = std::max(0, pieceToId("[PAD]"));
    }
    std::string kind() const override { return "wordpiece"; }
    int vocabSize() const override { return int(m_pieces.size()); }
    std::string idToPiece(int id) const override
    {
        return id >= 0 && id < int(m_pieces.size()) ? m_pieces[size_t(id)] : std::string("[UNK]");
    }
    int pieceToId(const std::string &p) const override
    {
        const auto it = m_ids.find(p);
        return it == m_ids.end() ? -1 : it->second;
    }
    int unkId() const override { return m_unk; }
    int padId() const override { return m_pad; }
    std::vector<std::string> files() const override { return {m_path}; }

    std::vector<int> encodeWord(const std::string &word, bool) const override
    {
        // basic tokenization: split on whitespace and punctuation
        std::vector<std::string> parts;
        std::string cur;
        for (size_t i = 0; i < word.size();) {
            const unsigned char c = static_cast<unsigned char>(word[i]);
            const int n = utf8Len(c);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                if (!cur.empty()) parts.push_back(cur);
                cur.clear();
            } else if (n == 1 && isAsciiPunct(c)) {
                if (!cur.empty()) parts.push_back(cur);
                cur.clear();
                parts.emplace_back(1, char(c));
            } else {
                cur += (m_lower && n == 1 && c >= 'A' && c <= 'Z') ? std::string(1, char(c - 'A' + 'a')) : word.substr(i, size_t(n));
            }
            i += size_t(n);
        }
        if (!cur.empty()) parts.push_back(cur);
        std::vector<int> out;
        for (const std::string &p : parts)
            wordPiece(p, &out);
        return out;
    }

private:
    void wordPiece(const std::string &s, std::vector<int> *out) const
    {
        if (s.size() > 200) {
            out->push_back(m_unk);
            return;
        }
        std::vector<int> local;
        size_t start = 0;
        while (start < s.size()) {
            size_t end = s.size();
            int found = -1;
            while (end > start) {
                std::string sub = s.substr(start, end - start);
                if (start > 0)
                    sub = "##" + sub;
                found = pieceToId(sub);
                if (found >= 0)
                    break;
                // step back one UTF-8 character
                do { --end; } while (end > start && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80);
            }
            if (found < 0) {
                out->push_back(m_unk);
                return;
            }
            local.push_back(found);
            start = end;
        }
        out->insert(out->end(), local.begin(), local.end());
    }

    std::string m_path;
    bool m_lower;
    std::vector<std::string> m_pieces;
    std::unordered_map<std::string, int> m_ids;
    int m_unk = 0, m_pad = 0;
};

} // namespace

std::unique_ptr<Tokenizer> makeWordPieceTokenizer(const std::string &vocabTxt, bool lowerCase)
{
    return std::make_unique<WordPieceTokenizer>(vocabTxt, lowerCase);
}

} // namespace folio::inference
