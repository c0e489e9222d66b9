// tokenizer.json (Hugging Face fast tokenizers) as the `tokenizers` library applies it to one
// pre-tokenized word: added tokens, normaliser, pre-tokeniser, model. See tokenizerjson.h.
#include "inference/tokenizers/tokenizerjson.h"

#include "inference/checkpoint/jsonlimits.h"
#include "common/regularfile.h"
#include "inference/errors.h"
#include "inference/tokenizers/tokenizerjson_text.h"

#include <QChar>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <queue>
#include <unordered_map>
#include <vector>

namespace folio::inference {

using namespace tokjson;

namespace {

constexpr std::size_t kMaxVocabulary = 1000000;
constexpr std::size_t kMaxMerges = 1000000;
constexpr std::size_t kMaxAddedTokens = 100000;

// ---- added tokens ---------------------------------------------------------------------------------

struct Added
{
    std::u32string content; // normalised when `normalized`
    int id = -1;
    bool lstrip = false, rstrip = false, singleWord = false, normalized = false;
};

struct Segment
{
    std::u32string text;
    int addedId = -1;      // >= 0: an added token, not split further
    std::size_t start = 0; // where the text began in what was split
};

// The library's AddedVocabulary::split_with_indices: leftmost-longest matches, single_word
// boundaries, lstrip / rstrip widening over white space (never before the previous match's end).
std::vector<Segment> splitAdded(const std::u32string &t, const std::vector<const Added *> &tokens)
{
    std::vector<Segment> out;
    std::size_t startOffset = 0;
    for (std::size_t i = 0; i < t.size();) {
        const Added *hit = nullptr;
        for (const Added *a : tokens) // longest first
            if (!a->content.empty() && t.compare(i, a->content.size(), a->content) == 0) {
                hit = a;
                break;
            }
        if (!hit) {
            ++i;
            continue;
        }
        std::size_t start = i, stop = i + hit->content.size();
        i = stop;
        if (hit->singleWord) {
            const auto word = isWordChar; // the library's \w (ZWJ / ZWNJ included)
            const bool startSpace = start == 0 || !word(t[start - 1]);
            const bool stopSpace = stop == t.size() || !word(t[stop]);
            if (!startSpace || !stopSpace)
                continue;
        }
        if (hit->lstrip) {
            std::size_t s = start;
            while (s > 0 && isWhitespace(t[s - 1])) --s;
            start = std::max(s, startOffset);
        }
        if (hit->rstrip)
            while (stop < t.size() && isWhitespace(t[stop])) ++stop;
        if (startOffset < start)
            out.push_back(Segment{t.substr(startOffset, start - startOffset), -1, startOffset});
        out.push_back(Segment{std::u32string(), hit->id, start});
        startOffset = stop;
    }
    if (startOffset < t.size())
        out.push_back(Segment{t.substr(startOffset), -1, startOffset});
    return out;
}

// ---- the tokenizer --------------------------------------------------------------------------------

class JsonTokenizer : public Tokenizer
{
public:
    JsonTokenizer(const std::string &file, const nlohmann::json &j, TokenizerJsonInfo *info) : m_file(file)
    {
        if (!j.is_object() || !j.contains("model") || !j["model"].is_object())
            throw InferenceError(file + ": no \"model\" object (not a tokenizer.json)");
        const nlohmann::json &m = j["model"];
        std::string type;
        if (m.contains("type") && m["type"].is_string())
            type = m["type"].get<std::string>();
        else if (m.contains("merges"))
            type = "BPE"; // old files leave the type out
        else
            throw InferenceError(file + ": the model has no \"type\"");
        m_type = type;
        if (type == "BPE") loadBpe(m);
        else if (type == "WordPiece") loadWordPiece(m);
        else if (type == "Unigram") loadUnigram(m);
        else
            throw InferenceError(file + ": model \"" + type + "\" is not supported by Folio (supported: BPE, WordPiece, Unigram)");
        m_normalizer = makeNormalizer(j.value("normalizer", nlohmann::json()), file);
        m_preTokenizer = makePreTokenizer(j.value("pre_tokenizer", nlohmann::json()), file);
        loadAdded(j.value("added_tokens", nlohmann::json()));
        for (const auto &kv : m_vocab)
            m_maxId = std::max(m_maxId, kv.second);
        m_pieces.assign(std::size_t(m_maxId + 1), std::string());
        for (const auto &kv : m_vocab)
            if (m_pieces[std::size_t(kv.second)].empty()) m_pieces[std::size_t(kv.second)] = kv.first;
        for (const Added &a : m_added)
            m_pieces[std::size_t(a.id)] = m_addedText.at(a.id);
        TokenizerJsonInfo local;
        local.modelType = type;
        readPostProcessor(j.value("post_processor", nlohmann::json()), &local);
        if (info)
            *info = local;
        m_pad = pieceToId("<pad>");
        if (m_pad < 0) m_pad = pieceToId("[PAD]");
        if (m_pad < 0) m_pad = 0;
        if (m_unk < 0) {
            m_unk = pieceToId("<unk>");
            if (m_unk < 0) m_unk = pieceToId("[UNK]");
            if (m_unk < 0) m_unk = 0;
        }
    }

    std::string kind() const override { return m_type == "BPE" ? "bpe" : m_type == "WordPiece" ? "wordpiece" : "sentencepiece"; }
    int vocabSize() const override { return m_maxId + 1; }
    std::string idToPiece(int id) const override
    {
        return id >= 0 && id < int(m_pieces.size()) ? m_pieces[std::size_t(id)] : std::string("<unk>");
    }
    int pieceToId(const std::string &piece) const override
    {
        const auto a = m_addedIds.find(piece);
        if (a != m_addedIds.end()) return a->second;
        const auto it = m_vocab.find(piece);
        return it == m_vocab.end() ? -1 : it->second;
    }
    int unkId() const override { return m_unk; }
    int padId() const override { return m_pad; }
    std::vector<std::string> files() const override { return {m_file}; }

    std::vector<int> encodeWord(const std::string &word, bool) const override
    {
        std::vector<int> ids;
        if (word.empty())
            return ids;
        bool atStart = true; // nothing of the word before this text
        for (Segment &raw : splitAdded(fromUtf8(word), m_rawAdded)) {
            if (raw.addedId >= 0) {
                ids.push_back(raw.addedId);
                atStart = false;
                continue;
            }
            m_normalizer(raw.text);
            for (const Segment &seg : splitAdded(raw.text, m_normalizedAdded)) {
                if (seg.addedId >= 0) {
                    ids.push_back(seg.addedId);
                    atStart = false;
                    continue;
                }
                for (const std::u32string &piece : m_preTokenizer(seg.text, atStart && raw.start == 0))
                    encodePiece(piece, &ids);
                atStart = false;
            }
        }
        return ids;
    }

private:
    int vocabId(const std::u32string &piece) const
    {
        const auto it = m_vocab.find(toUtf8(piece));
        return it == m_vocab.end() ? -1 : it->second;
    }

    std::string stringField(const nlohmann::json &m, const char *key) const
    {
        if (!m.contains(key) || m[key].is_null())
            return {};
        if (!m[key].is_string())
            throw InferenceError(m_file + ": model field " + key + " is not a string");
        return m[key].get<std::string>();
    }

    void loadVocabObject(const nlohmann::json &m)
    {
        if (!m.contains("vocab") || !m["vocab"].is_object())
            throw InferenceError(m_file + ": the " + m_type + " model has no \"vocab\" object");
        const nlohmann::json &v = m["vocab"];
        if (v.size() > kMaxVocabulary)
            throw InferenceError(m_file + ": the vocabulary has " + std::to_string(v.size()) + " entries, more than the limit of "
                                 + std::to_string(kMaxVocabulary));
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (!it.value().is_number_integer() || it.value().get<long long>() < 0
                || it.value().get<long long>() >= static_cast<long long>(kMaxVocabulary))
                throw InferenceError(m_file + ": vocabulary id of \"" + it.key() + "\" is not an integer in 0.."
                                     + std::to_string(kMaxVocabulary - 1));
            m_vocab[it.key()] = it.value().get<int>();
        }
    }

    void loadBpe(const nlohmann::json &m)
    {
        loadVocabObject(m);
        if (m.contains("dropout") && !m["dropout"].is_null() && !(m["dropout"].is_number() && m["dropout"].get<double>() == 1.0))
            throw InferenceError(m_file + ": BPE dropout is not supported by Folio (it makes tokenization random)");
        if (boolField(m, "byte_fallback", false, m_file))
            throw InferenceError(m_file + ": BPE byte_fallback is not supported by Folio");
        m_fuseUnk = boolField(m, "fuse_unk", false, m_file);
        m_ignoreMerges = boolField(m, "ignore_merges", false, m_file);
        m_prefix = fromUtf8(stringField(m, "continuing_subword_prefix"));
        m_suffix = fromUtf8(stringField(m, "end_of_word_suffix"));
        const std::string unk = stringField(m, "unk_token");
        if (!unk.empty()) {
            const auto it = m_vocab.find(unk);
            if (it == m_vocab.end())
                throw InferenceError(m_file + ": BPE unk_token \"" + unk + "\" is not in the vocabulary");
            m_unk = it->second;
            m_bpeUnk = true;
        }
        const nlohmann::json merges = m.value("merges", nlohmann::json::array());
        if (!merges.is_array())
            throw InferenceError(m_file + ": BPE merges is not a list");
        if (merges.size() > kMaxMerges)
            throw InferenceError(m_file + ": " + std::to_string(merges.size()) + " merges, more than the limit of "
                                 + std::to_string(kMaxMerges));
        const std::size_t prefixBytes = toUtf8(m_prefix).size();
        for (std::size_t r = 0; r < merges.size(); ++r) {
            const nlohmann::json &v = merges[r];
            std::string a, b;
            if (v.is_string()) {
                const std::string s = v.get<std::string>();
                const auto sp = s.find(' ');
                if (sp == std::string::npos || sp == 0 || sp + 1 >= s.size() || s.find(' ', sp + 1) != std::string::npos)
                    throw InferenceError(m_file + ": malformed merge \"" + s.substr(0, 200) + "\"");
                a = s.substr(0, sp);
                b = s.substr(sp + 1);
            } else if (v.is_array() && v.size() == 2 && v[0].is_string() && v[1].is_string()) {
                a = v[0].get<std::string>();
                b = v[1].get<std::string>();
            } else {
                throw InferenceError(m_file + ": merge " + std::to_string(r) + " is neither \"a b\" nor [a, b]");
            }
            const auto ia = m_vocab.find(a), ib = m_vocab.find(b);
            if (ia == m_vocab.end() || ib == m_vocab.end())
                throw InferenceError(m_file + ": merge " + std::to_string(r) + " (\"" + a + "\", \"" + b + "\") uses a token not in the vocabulary");
            const std::string merged = a + (b.compare(0, prefixBytes, toUtf8(m_prefix)) == 0 ? b.substr(prefixBytes) : b);
            const auto im = m_vocab.find(merged);
            if (im == m_vocab.end())
                throw InferenceError(m_file + ": merge " + std::to_string(r) + " gives \"" + merged + "\", which is not in the vocabulary");
            m_merges.emplace(pairKey(ia->second, ib->second), std::make_pair(int(r), im->second));
        }
    }

    void loadWordPiece(const nlohmann::json &m)
    {
        loadVocabObject(m);
        const std::string unk = m.contains("unk_token") ? stringField(m, "unk_token") : std::string("[UNK]");
        const auto it = m_vocab.find(unk);
        if (it == m_vocab.end())
            throw InferenceError(m_file + ": WordPiece unk_token \"" + unk + "\" is not in the vocabulary");
        m_unk = it->second;
        m_prefix = fromUtf8(m.contains("continuing_subword_prefix") ? stringField(m, "continuing_subword_prefix") : std::string("##"));
        if (m.contains("max_input_chars_per_word")) {
            if (!m["max_input_chars_per_word"].is_number_unsigned())
                throw InferenceError(m_file + ": WordPiece max_input_chars_per_word is not a non-negative integer");
            m_maxChars = std::size_t(std::min<std::uint64_t>(m["max_input_chars_per_word"].get<std::uint64_t>(), 1u << 30));
        }
    }

    void loadUnigram(const nlohmann::json &m)
    {
        if (!m.contains("vocab") || !m["vocab"].is_array())
            throw InferenceError(m_file + ": the Unigram model has no \"vocab\" list");
        const nlohmann::json &v = m["vocab"];
        if (v.size() > kMaxVocabulary)
            throw InferenceError(m_file + ": the vocabulary has " + std::to_string(v.size()) + " entries, more than the limit of "
                                 + std::to_string(kMaxVocabulary));
        if (boolField(m, "byte_fallback", false, m_file))
            throw InferenceError(m_file + ": Unigram byte_fallback is not supported by Folio");
        m_scores.reserve(v.size());
        m_minScore = std::numeric_limits<double>::max();
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (!v[i].is_array() || v[i].size() != 2 || !v[i][0].is_string() || !v[i][1].is_number())
                throw InferenceError(m_file + ": Unigram vocab entry " + std::to_string(i) + " is not [piece, score]");
            const std::string piece = v[i][0].get<std::string>();
            const double score = v[i][1].get<double>();
            m_vocab[piece] = int(i);
            m_scores.push_back(score);
            m_minScore = std::min(m_minScore, score);
            std::size_t chars = 0; // UTF-8 lead bytes
            for (const char ch : piece)
                chars += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
            m_maxPieceChars = std::max(m_maxPieceChars, chars);
        }
        if (m.contains("unk_id") && !m["unk_id"].is_null()) {
            if (!m["unk_id"].is_number_unsigned() || m["unk_id"].get<std::uint64_t>() >= v.size())
                throw InferenceError(m_file + ": Unigram unk_id is not an index into the vocabulary");
            m_unk = int(m["unk_id"].get<std::uint64_t>());
            m_unigramUnk = true;
        }
    }

    void loadAdded(const nlohmann::json &list)
    {
        if (list.is_null())
            return;
        if (!list.is_array())
            throw InferenceError(m_file + ": added_tokens is not a list");
        if (list.size() > kMaxAddedTokens)
            throw InferenceError(m_file + ": " + std::to_string(list.size()) + " added tokens, more than the limit of "
                                 + std::to_string(kMaxAddedTokens));
        for (const auto &a : list) {
            if (!a.is_object() || !a.contains("content") || !a["content"].is_string() || !a.contains("id")
                || !a["id"].is_number_unsigned() || a["id"].get<std::uint64_t>() >= kMaxVocabulary)
                throw InferenceError(m_file + ": an added_tokens entry lacks its content text or an id in 0.."
                                     + std::to_string(kMaxVocabulary - 1));
            Added t;
            const std::string content = a["content"].get<std::string>();
            if (content.empty())
                throw InferenceError(m_file + ": an added token has no text");
            t.id = int(a["id"].get<std::uint64_t>());
            t.lstrip = boolField(a, "lstrip", false, m_file);
            t.rstrip = boolField(a, "rstrip", false, m_file);
            t.singleWord = boolField(a, "single_word", false, m_file);
            const bool special = boolField(a, "special", false, m_file);
            t.normalized = boolField(a, "normalized", !special, m_file);
            t.content = fromUtf8(content);
            if (t.normalized)
                m_normalizer(t.content);
            m_addedIds[content] = t.id;
            m_addedText[t.id] = content;
            m_maxId = std::max(m_maxId, t.id);
            m_added.push_back(std::move(t));
        }
        for (const Added &a : m_added)
            (a.normalized ? m_normalizedAdded : m_rawAdded).push_back(&a);
        for (auto *list2 : {&m_rawAdded, &m_normalizedAdded})
            std::stable_sort(list2->begin(), list2->end(),
                             [](const Added *x, const Added *y) { return x->content.size() > y->content.size(); });
    }

    void readPostProcessor(const nlohmann::json &p, TokenizerJsonInfo *info) const
    {
        if (p.is_null())
            return;
        const std::string type = specType(p, m_file, "the post_processor");
        auto pairText = [&](const char *key) {
            if (!p.contains(key) || !p[key].is_array() || p[key].empty() || !p[key][0].is_string())
                throw InferenceError(m_file + ": post_processor " + type + " has no " + key + " [token, id]");
            return p[key][0].get<std::string>();
        };
        if (type == "RobertaProcessing" || type == "BertProcessing") {
            info->clsToken = pairText("cls");
            info->sepToken = pairText("sep");
            return;
        }
        if (type == "ByteLevel")
            return;
        if (type == "TemplateProcessing") {
            // single: [SpecialToken CLS] [Sequence A] [SpecialToken SEP], as the layout tokenizers add them.
            const nlohmann::json single = p.value("single", nlohmann::json());
            std::vector<std::string> before, after;
            bool seenA = false;
            if (single.is_array())
                for (const auto &piece : single) {
                    if (piece.is_object() && piece.contains("Sequence")) {
                        seenA = true;
                    } else if (piece.is_object() && piece.contains("SpecialToken") && piece["SpecialToken"].is_object()
                               && piece["SpecialToken"].contains("id") && piece["SpecialToken"]["id"].is_string()) {
                        (seenA ? after : before).push_back(piece["SpecialToken"]["id"].get<std::string>());
                    }
                }
            if (!seenA || before.size() > 1 || after.size() > 1)
                throw InferenceError(m_file + ": post_processor TemplateProcessing's single template is not "
                                     "\"CLS $A SEP\" (Folio's layout tokenizers add one token before and one after)");
            // The template names a special token; its text is the special token's first token.
            auto tokenOf = [&](const std::string &name) {
                const nlohmann::json st = p.value("special_tokens", nlohmann::json::object());
                if (st.is_object() && st.contains(name) && st[name].is_object() && st[name].contains("tokens")
                    && st[name]["tokens"].is_array() && st[name]["tokens"].size() == 1 && st[name]["tokens"][0].is_string())
                    return st[name]["tokens"][0].get<std::string>();
                throw InferenceError(m_file + ": post_processor TemplateProcessing's special token \"" + name
                                     + "\" is not one token");
            };
            if (!before.empty()) info->clsToken = tokenOf(before.front());
            if (!after.empty()) info->sepToken = tokenOf(after.front());
            return;
        }
        throw InferenceError(m_file + ": post_processor \"" + type + "\" is not supported by Folio (supported: "
                             "RobertaProcessing, BertProcessing, TemplateProcessing, ByteLevel)");
    }

    static std::uint64_t pairKey(int a, int b) { return (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b); }

    void encodePiece(const std::u32string &piece, std::vector<int> *ids) const
    {
        if (piece.empty())
            return;
        if (m_type == "BPE") bpe(piece, ids);
        else if (m_type == "WordPiece") wordPiece(piece, ids);
        else unigram(piece, ids);
    }

    void bpe(const std::u32string &w, std::vector<int> *ids) const
    {
        if (m_ignoreMerges) {
            const int whole = vocabId(w);
            if (whole >= 0) {
                ids->push_back(whole);
                return;
            }
        }
        std::vector<int> symbols;
        int pendingUnk = 0; // unknown characters waiting (fused or not)
        auto flushUnk = [&] {
            if (pendingUnk) symbols.push_back(m_unk);
            pendingUnk = 0;
        };
        for (std::size_t i = 0; i < w.size(); ++i) {
            std::u32string s(1, w[i]);
            if (i > 0) s = m_prefix + s;
            if (i + 1 == w.size()) s += m_suffix;
            const int id = vocabId(s);
            if (id >= 0) {
                flushUnk();
                symbols.push_back(id);
            } else if (m_bpeUnk) {
                if (pendingUnk && !m_fuseUnk) symbols.push_back(m_unk);
                pendingUnk = 1;
            }
        }
        flushUnk();
        mergeAll(&symbols);
        ids->insert(ids->end(), symbols.begin(), symbols.end());
    }

    // The library's Word::merge_all: a queue of candidate pairs by (rank, position), a popped pair
    // applied when it is still there, the new neighbours' pairs queued.
    void mergeAll(std::vector<int> *ids) const
    {
        struct Symbol { int id; long prev, next; bool gone; };
        struct Candidate { int rank; std::size_t pos; int newId; };
        const auto later = [](const Candidate &x, const Candidate &y) { return x.rank != y.rank ? x.rank > y.rank : x.pos > y.pos; };
        std::vector<Symbol> sym;
        for (std::size_t i = 0; i < ids->size(); ++i)
            sym.push_back(Symbol{(*ids)[i], long(i) - 1, i + 1 < ids->size() ? long(i + 1) : -1, false});
        std::priority_queue<Candidate, std::vector<Candidate>, decltype(later)> queue(later);
        for (std::size_t i = 0; i + 1 < sym.size(); ++i) {
            const auto it = m_merges.find(pairKey(sym[i].id, sym[i + 1].id));
            if (it != m_merges.end()) queue.push(Candidate{it->second.first, i, it->second.second});
        }
        while (!queue.empty()) {
            const Candidate top = queue.top();
            queue.pop();
            Symbol &cur = sym[top.pos];
            if (cur.gone || cur.next < 0)
                continue;
            const std::size_t nextPos = std::size_t(cur.next);
            const auto target = m_merges.find(pairKey(cur.id, sym[nextPos].id));
            if (target == m_merges.end() || target->second.second != top.newId)
                continue;
            cur.id = top.newId;
            cur.next = sym[nextPos].next;
            sym[nextPos].gone = true;
            if (cur.next >= 0) sym[std::size_t(cur.next)].prev = long(top.pos);
            if (cur.prev >= 0) {
                const auto it = m_merges.find(pairKey(sym[std::size_t(cur.prev)].id, cur.id));
                if (it != m_merges.end()) queue.push(Candidate{it->second.first, std::size_t(cur.prev), it->second.second});
            }
            if (cur.next >= 0) {
                const auto it = m_merges.find(pairKey(cur.id, sym[std::size_t(cur.next)].id));
                if (it != m_merges.end()) queue.push(Candidate{it->second.first, top.pos, it->second.second});
            }
        }
        std::vector<int> out;
        for (const Symbol &s : sym)
            if (!s.gone) out.push_back(s.id);
        *ids = std::move(out);
    }

    void wordPiece(const std::u32string &w, std::vector<int> *ids) const
    {
        if (w.size() > m_maxChars) {
            ids->push_back(m_unk);
            return;
        }
        std::vector<int> out;
        for (std::size_t start = 0; start < w.size();) {
            int found = -1;
            std::size_t end = w.size();
            for (; end > start; --end) {
                std::u32string sub = w.substr(start, end - start);
                if (start > 0) sub = m_prefix + sub;
                found = vocabId(sub);
                if (found >= 0) break;
            }
            if (found < 0) {
                ids->push_back(m_unk);
                return;
            }
            out.push_back(found);
            start = end;
        }
        ids->insert(ids->end(), out.begin(), out.end());
    }

    // The library's Unigram::encode_optimized: best path by summed scores (a later candidate wins
    // only when strictly better; pieces are tried shortest first), a character no piece covers
    // alone costs min_score - 10 as <unk>, and consecutive unknowns are fused into one.
    void unigram(const std::u32string &w, std::vector<int> *ids) const
    {
        struct Node { double score = 0; long start = -1; int id = -1; };
        const std::size_t n = w.size();
        std::vector<Node> best(n + 1);
        best[0].start = 0;
        const double unkScore = m_minScore - 10.0;
        for (std::size_t s = 0; s < n; ++s) {
            if (best[s].start < 0 && s > 0)
                continue;
            const double here = best[s].score;
            bool single = false;
            const std::size_t longest = std::min(n - s, m_maxPieceChars);
            for (std::size_t len = 1; len <= longest; ++len) {
                const int id = vocabId(w.substr(s, len));
                if (id < 0)
                    continue;
                Node &target = best[s + len];
                const double candidate = m_scores[std::size_t(id)] + here;
                if (target.start < 0 || candidate > target.score)
                    target = Node{candidate, long(s), id};
                if (len == 1) single = true;
            }
            if (!single) {
                if (!m_unigramUnk)
                    throw InferenceError(m_file + ": the Unigram model has no unk_id and cannot encode \""
                                         + toUtf8(w.substr(s, 1)) + "\"");
                Node &target = best[s + 1];
                const double candidate = unkScore + here;
                if (target.start < 0 || candidate > target.score)
                    target = Node{candidate, long(s), m_unk};
            }
        }
        std::vector<int> reversed;
        for (std::size_t end = n; end > 0;) {
            const Node &node = best[end];
            if (node.start < 0)
                throw InferenceError(m_file + ": no Unigram segmentation of \"" + toUtf8(w) + "\"");
            if (!(node.id == m_unk && !reversed.empty() && reversed.back() == m_unk))
                reversed.push_back(node.id);
            end = std::size_t(node.start);
        }
        ids->insert(ids->end(), reversed.rbegin(), reversed.rend());
    }

    std::string m_file, m_type;
    std::unordered_map<std::string, int> m_vocab;
    std::vector<std::string> m_pieces;
    int m_maxId = -1, m_unk = -1, m_pad = 0;
    Normalizer m_normalizer;
    PreTokenizer m_preTokenizer;
    std::vector<Added> m_added;
    std::vector<const Added *> m_rawAdded, m_normalizedAdded;
    std::unordered_map<std::string, int> m_addedIds;
    std::unordered_map<int, std::string> m_addedText;
    // BPE
    std::unordered_map<std::uint64_t, std::pair<int, int>> m_merges; // (a, b) -> (rank, merged id)
    std::u32string m_prefix, m_suffix;
    bool m_bpeUnk = false, m_fuseUnk = false, m_ignoreMerges = false;
    // WordPiece
    std::size_t m_maxChars = 100;
    // Unigram
    std::vector<double> m_scores;
    double m_minScore = 0;
    std::size_t m_maxPieceChars = 1;
    bool m_unigramUnk = false;
};

} // namespace

namespace {

// A vocabulary and merges at their limits (a merge as [a, b] is three values; a Unigram entry
// [piece, score] three too) and the rest.
nlohmann::json readTokenizerJson(const std::string &file)
{
    return readJsonFileBounded(file, {32, 3 * kMaxVocabulary + 3 * kMaxMerges + (1u << 20),
                                      "JSON values (vocabulary, merges and the rest)"});
}

} // namespace

std::unique_ptr<Tokenizer> makeTokenizerFromJson(const std::string &tokenizerJson, TokenizerJsonInfo *info)
{
    return std::make_unique<JsonTokenizer>(tokenizerJson, readTokenizerJson(tokenizerJson), info);
}

} // namespace folio::inference
