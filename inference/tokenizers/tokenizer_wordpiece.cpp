// WordPiece (BERT vocab.txt): a basic split, then greedy longest-match-first with "##"
// continuation pieces. Two basic splits: the light one (whitespace and ASCII punctuation, optional
// ASCII lower-casing) and BERT's BasicTokenizer (makeBertWordPieceTokenizer: control characters
// dropped, CJK ideographs split, NFC, lower-casing and accent stripping, Unicode punctuation split,
// words of more than 100 characters -> [UNK]), as the Hugging Face slow BERT / LayoutLMv2
// tokenizers apply it.
#include "inference/tokenizers/tokenizer.h"

#include "inference/errors.h"
#include "common/regularfile.h"

#include <QString>

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

bool isCjk(char32_t c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF)
           || (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF)
           || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

bool isBertWhitespace(char32_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || QChar::category(c) == QChar::Separator_Space;
}

bool isBertControl(char32_t c)
{
    if (c == '\t' || c == '\n' || c == '\r')
        return false;
    switch (QChar::category(c)) {
    case QChar::Other_Control: case QChar::Other_Format: case QChar::Other_Surrogate:
    case QChar::Other_PrivateUse: case QChar::Other_NotAssigned:
        return true;
    default:
        return false;
    }
}

bool isBertPunctuation(char32_t c)
{
    if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126))
        return true;
    const QChar::Category k = QChar::category(c);
    return k >= QChar::Punctuation_Connector && k <= QChar::Punctuation_Other;
}

// BERT's BasicTokenizer on one text: its tokens (UTF-8).
std::vector<std::string> bertBasicSplit(const std::string &text, bool lower, bool stripAccents)
{
    // Clean (NUL, U+FFFD and control characters dropped, whitespace -> ' '), CJK ideographs spaced.
    std::u32string cleaned;
    for (const char32_t c : QString::fromUtf8(text.data(), qsizetype(text.size())).toStdU32String()) {
        if (c == 0 || c == 0xFFFD || isBertControl(c))
            continue;
        if (isBertWhitespace(c)) {
            cleaned += U' ';
        } else if (isCjk(c)) {
            cleaned += U' ';
            cleaned += c;
            cleaned += U' ';
        } else {
            cleaned += c;
        }
    }
    const std::u32string nfc = QString::fromStdU32String(cleaned).normalized(QString::NormalizationForm_C).toStdU32String();
    std::vector<std::string> out;
    std::u32string word;
    auto flushWord = [&] {
        if (word.empty())
            return;
        QString w = QString::fromStdU32String(word);
        word.clear();
        if (lower)
            w = w.toLower();
        if (stripAccents) {
            QString kept;
            for (const QChar ch : w.normalized(QString::NormalizationForm_D))
                if (ch.category() != QChar::Mark_NonSpacing)
                    kept += ch;
            w = kept;
        }
        std::string piece;
        for (const char32_t c : w.toStdU32String()) {
            if (isBertPunctuation(c)) {
                if (!piece.empty()) out.push_back(piece);
                piece.clear();
                out.push_back(QString::fromStdU32String(std::u32string(1, c)).toStdString());
            } else if (isBertWhitespace(c)) { // lower-casing / NFD never makes one, but split as the reference would
                if (!piece.empty()) out.push_back(piece);
                piece.clear();
            } else {
                piece += QString::fromStdU32String(std::u32string(1, c)).toStdString();
            }
        }
        if (!piece.empty()) out.push_back(piece);
    };
    for (const char32_t c : nfc) {
        if (c == U' ')
            flushWord();
        else
            word += c;
    }
    flushWord();
    return out;
}

class WordPieceTokenizer : public Tokenizer
{
public:
    WordPieceTokenizer(const std::string &path, bool lower, bool bert = false, bool stripAccents = false)
        : m_path(path), m_lower(lower), m_bert(bert), m_stripAccents(stripAccents)
    {
        std::string notAFile; // a FIFO, a device: refused before the open (issue 51)
        if (regularFileSize(path, FileLimits::vocabulary, "the WordPiece vocabulary", &notAFile) < 0)
            throw InferenceError(notAFile);
        std::ifstream in(path);
        if (!in)
            throw InferenceError(path + ": cannot open WordPiece vocabulary");
        std::string line;
        while (std::getline(in, line)) {
            if (!line.empty() && line.back() == '\r')
                line.pop_back();
            m_ids[line] = int(m_pieces.size()); // a repeated piece takes its last id, as BERT's load_vocab does
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
        std::vector<int> out;
        if (m_bert) {
            for (const std::string &p : bertBasicSplit(word, m_lower, m_stripAccents))
                wordPiece(p, &out);
            return out;
        }
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
        for (const std::string &p : parts)
            wordPiece(p, &out);
        return out;
    }

private:
    void wordPiece(const std::string &s, std::vector<int> *out) const
    {
        if (m_bert ? QString::fromUtf8(s.data(), qsizetype(s.size())).toStdU32String().size() > 100 : s.size() > 200) {
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
    bool m_lower, m_bert, m_stripAccents;
    std::vector<std::string> m_pieces;
    std::unordered_map<std::string, int> m_ids;
    int m_unk = 0, m_pad = 0;
};

} // namespace

std::unique_ptr<Tokenizer> makeWordPieceTokenizer(const std::string &vocabTxt, bool lowerCase)
{
    return std::make_unique<WordPieceTokenizer>(vocabTxt, lowerCase);
}

std::unique_ptr<Tokenizer> makeBertWordPieceTokenizer(const std::string &vocabTxt, bool lowerCase, int stripAccents)
{
    return std::make_unique<WordPieceTokenizer>(vocabTxt, lowerCase, true, stripAccents < 0 ? lowerCase : stripAccents != 0);
}

} // namespace folio::inference
