// SentencePiece `.model` files, read and applied here (no libsentencepiece in this process: its
// embedded protobuf clashes with LibTorch's, see inference/CMakeLists.txt).
//
// The model is a protobuf ModelProto; we read the pieces (piece, score, type), the trainer's
// model_type (unigram / bpe) and the normalizer flags. Normalisation: NFKC (Qt), extra
// whitespace removed, a dummy "▁" prefix, spaces -> "▁" — the nmt_nfkc default. Unigram
// encoding is the Viterbi best segmentation by piece score (unknown characters score
// min_score - 10 and consecutive unknowns merge into one <unk>), as sentencepiece does; BPE
// models merge the best-scoring adjacent pair repeatedly.
//
// Training runs the helper `folio-spm-train` (libsentencepiece's trainer) as a child process.
#include "inference/tokenizers/tokenizer.h"

#include "inference/errors.h"
#include "common/regularfile.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QString>

#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_map>

namespace folio::inference {

namespace {

struct Reader
{
    const unsigned char *p, *end;
    std::string where;
    std::uint64_t varint()
    {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p >= end) throw InferenceError(where + ": truncated protobuf");
            const unsigned char b = *p++;
            v |= std::uint64_t(b & 0x7f) << shift;
            if (!(b & 0x80)) return v;
        }
        throw InferenceError(where + ": bad varint");
    }
    Reader sub()
    {
        const std::uint64_t n = varint();
        if (n > std::uint64_t(end - p)) throw InferenceError(where + ": truncated protobuf field");
        Reader r{p, p + n, where};
        p += n;
        return r;
    }
    void skip(int wire)
    {
        switch (wire) {
        case 0: varint(); break;
        case 1: if (end - p < 8) throw InferenceError(where + ": truncated"); p += 8; break;
        case 2: sub(); break;
        case 5: if (end - p < 4) throw InferenceError(where + ": truncated"); p += 4; break;
        default: throw InferenceError(where + ": unsupported protobuf wire type " + std::to_string(wire));
        }
    }
    float fixed32f()
    {
        if (end - p < 4) throw InferenceError(where + ": truncated");
        float f;
        std::memcpy(&f, p, 4);
        p += 4;
        return f;
    }
};

enum PieceType { Normal = 1, Unknown = 2, Control = 3, UserDefined = 4, Unused = 5, Byte = 6 };

// UTF-8 character boundaries of s.
std::vector<size_t> charStarts(const std::string &s)
{
    std::vector<size_t> out;
    for (size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80)
            out.push_back(i);
    out.push_back(s.size());
    return out;
}

class SentencePieceTokenizer : public Tokenizer
{
public:
    explicit SentencePieceTokenizer(const std::string &path) : m_path(path)
    {
        std::string notAFile; // a FIFO, a link to /dev/zero: refused before the open (issue 51)
        if (regularFileSize(path, FileLimits::sentencePiece, "the SentencePiece model", &notAFile) < 0)
            throw InferenceError(notAFile);
        std::ifstream in(path, std::ios::binary);
        if (!in)
            throw InferenceError(path + ": cannot open SentencePiece model");
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string bytes = ss.str();
        Reader r{reinterpret_cast<const unsigned char *>(bytes.data()),
                 reinterpret_cast<const unsigned char *>(bytes.data()) + bytes.size(), path};
        while (r.p < r.end) {
            const std::uint64_t key = r.varint();
            const int field = int(key >> 3), wire = int(key & 7);
            if (field == 1 && wire == 2) {
                Reader pr = r.sub();
                std::string piece;
                float score = 0;
                int type = Normal;
                while (pr.p < pr.end) {
                    const std::uint64_t k = pr.varint();
                    const int f = int(k >> 3), w = int(k & 7);
                    if (f == 1 && w == 2) {
                        Reader s = pr.sub();
                        piece.assign(reinterpret_cast<const char *>(s.p), size_t(s.end - s.p));
                    } else if (f == 2 && w == 5) {
                        score = pr.fixed32f();
                    } else if (f == 3 && w == 0) {
                        type = int(pr.varint());
                    } else {
                        pr.skip(w);
                    }
                }
                m_pieces.push_back(piece);
                m_scores.push_back(score);
                m_types.push_back(type);
            } else if (field == 2 && wire == 2) { // TrainerSpec
                Reader tr = r.sub();
                while (tr.p < tr.end) {
                    const std::uint64_t k = tr.varint();
                    const int f = int(k >> 3), w = int(k & 7);
                    if (f == 3 && w == 0) m_modelType = int(tr.varint());
                    else tr.skip(w);
                }
            } else if (field == 3 && wire == 2) { // NormalizerSpec
                Reader nr = r.sub();
                while (nr.p < nr.end) {
                    const std::uint64_t k = nr.varint();
                    const int f = int(k >> 3), w = int(k & 7);
                    if (f == 1 && w == 2) {
                        Reader s = nr.sub();
                        m_normalizer.assign(reinterpret_cast<const char *>(s.p), size_t(s.end - s.p));
                    } else if (f == 3 && w == 0) m_addDummyPrefix = nr.varint() != 0;
                    else if (f == 4 && w == 0) m_removeExtraWhitespace = nr.varint() != 0;
                    else if (f == 5 && w == 0) m_escapeWhitespace = nr.varint() != 0;
                    else nr.skip(w);
                }
            } else {
                r.skip(wire);
            }
        }
        if (m_pieces.empty())
            throw InferenceError(path + ": not a SentencePiece model (no pieces)");
        if (m_modelType != 1 && m_modelType != 2)
            throw InferenceError(path + ": only unigram and BPE SentencePiece models are supported");
        m_minScore = std::numeric_limits<float>::max();
        for (size_t i = 0; i < m_pieces.size(); ++i) {
            if (m_types[i] == Unknown && m_unk < 0)
                m_unk = int(i);
            if (m_types[i] == Normal || m_types[i] == UserDefined) {
                m_index.emplace(m_pieces[i], int(i));
                m_maxPieceBytes = std::max(m_maxPieceBytes, m_pieces[i].size());
                if (m_types[i] == Normal)
                    m_minScore = std::min(m_minScore, m_scores[i]);
            }
        }
        if (m_unk < 0)
            throw InferenceError(path + ": SentencePiece model has no unknown piece");
        const auto pad = std::find(m_pieces.begin(), m_pieces.end(), std::string("<pad>"));
        m_pad = pad != m_pieces.end() && m_types[size_t(pad - m_pieces.begin())] == Control ? int(pad - m_pieces.begin()) : 0;
    }
    std::string kind() const override { return "sentencepiece"; }
    int vocabSize() const override { return int(m_pieces.size()); }
    std::string idToPiece(int id) const override
    {
        return id >= 0 && id < int(m_pieces.size()) ? m_pieces[size_t(id)] : std::string();
    }
    int pieceToId(const std::string &p) const override
    {
        const auto it = m_index.find(p);
        if (it != m_index.end()) return it->second;
        for (size_t i = 0; i < m_pieces.size(); ++i)
            if (m_pieces[i] == p) return int(i);
        return -1;
    }
    int unkId() const override { return m_unk; }
    int padId() const override { return m_pad; }
    std::vector<std::string> files() const override { return {m_path}; }

    std::vector<int> encodeWord(const std::string &word, bool) const override
    {
        const std::string text = normalise(word);
        if (text.empty())
            return {};
        return m_modelType == 1 ? unigram(text) : bpe(text);
    }

private:
    std::string normalise(const std::string &word) const
    {
        QString s = QString::fromUtf8(word.data(), qsizetype(word.size()));
        if (m_normalizer.rfind("nmt_nfkc", 0) == 0 || m_normalizer.rfind("nfkc", 0) == 0)
            s = s.normalized(QString::NormalizationForm_KC);
        if (m_normalizer.rfind("nmt", 0) == 0) { // control characters -> removed, other spaces -> ' '
            QString t;
            for (const QChar c : s) {
                if (c.unicode() < 0x20 && c != QLatin1Char('\t') && c != QLatin1Char('\n') && c != QLatin1Char('\r')) continue;
                t += c.isSpace() ? QLatin1Char(' ') : c;
            }
            s = t;
        }
        if (m_removeExtraWhitespace)
            s = s.simplified();
        if (s.isEmpty())
            return {};
        std::string out = s.toStdString();
        if (m_escapeWhitespace) {
            std::string esc;
            if (m_addDummyPrefix) esc = "\xE2\x96\x81";
            for (char c : out) {
                if (c == ' ') esc += "\xE2\x96\x81";
                else esc += c;
            }
            out = esc;
        } else if (m_addDummyPrefix) {
            out = " " + out;
        }
        return out;
    }

    std::vector<int> unigram(const std::string &text) const
    {
        const std::vector<size_t> starts = charStarts(text);
        const size_t n = starts.size() - 1; // characters
        const float unkScore = m_minScore - 10.0f; // float, as sentencepiece accumulates
        std::vector<float> best(n + 1, -std::numeric_limits<float>::infinity());
        std::vector<int> backId(n + 1, -1);
        std::vector<size_t> backFrom(n + 1, 0);
        best[0] = 0;
        for (size_t i = 0; i < n; ++i) {
            if (best[i] == -std::numeric_limits<float>::infinity()) continue;
            bool single = false;
            for (size_t j = i + 1; j <= n && starts[j] - starts[i] <= m_maxPieceBytes; ++j) {
                const auto it = m_index.find(text.substr(starts[i], starts[j] - starts[i]));
                if (it == m_index.end()) continue;
                if (j == i + 1) single = true;
                const float sc = (m_types[size_t(it->second)] == UserDefined ? 0.0f : m_scores[size_t(it->second)]) + best[i];
                if (sc > best[j]) { best[j] = sc; backId[j] = it->second; backFrom[j] = i; }
            }
            if (!single) {
                const float sc = unkScore + best[i];
                if (sc > best[i + 1]) { best[i + 1] = sc; backId[i + 1] = m_unk; backFrom[i + 1] = i; }
            }
        }
        std::vector<int> ids;
        for (size_t j = n; j > 0; j = backFrom[j])
            ids.push_back(backId[j]);
        std::reverse(ids.begin(), ids.end());
        std::vector<int> merged; // consecutive unknowns become one
        for (int id : ids)
            if (!(id == m_unk && !merged.empty() && merged.back() == m_unk))
                merged.push_back(id);
        return merged;
    }

    std::vector<int> bpe(const std::string &text) const
    {
        const std::vector<size_t> starts = charStarts(text);
        std::vector<std::string> sym;
        for (size_t i = 0; i + 1 < starts.size(); ++i)
            sym.push_back(text.substr(starts[i], starts[i + 1] - starts[i]));
        while (sym.size() > 1) {
            double bestScore = -std::numeric_limits<double>::infinity();
            size_t best = 0;
            bool found = false;
            for (size_t i = 0; i + 1 < sym.size(); ++i) {
                const auto it = m_index.find(sym[i] + sym[i + 1]);
                if (it != m_index.end() && double(m_scores[size_t(it->second)]) > bestScore) {
                    bestScore = m_scores[size_t(it->second)];
                    best = i;
                    found = true;
                }
            }
            if (!found) break;
            sym[best] += sym[best + 1];
            sym.erase(sym.begin() + long(best) + 1);
        }
        std::vector<int> ids;
        for (const std::string &s : sym) {
            const auto it = m_index.find(s);
            const int id = it == m_index.end() ? m_unk : it->second;
            if (!(id == m_unk && !ids.empty() && ids.back() == m_unk))
                ids.push_back(id);
        }
        return ids;
    }

    std::string m_path;
    std::vector<std::string> m_pieces;
    std::vector<float> m_scores;
    std::vector<int> m_types;
    std::unordered_map<std::string, int> m_index;
    size_t m_maxPieceBytes = 1;
    float m_minScore = 0;
    int m_modelType = 1;
    std::string m_normalizer = "nmt_nfkc";
    bool m_addDummyPrefix = true, m_removeExtraWhitespace = true, m_escapeWhitespace = true;
    int m_unk = -1, m_pad = 0;
};

// fairseq's dictionary over an XLM-R SentencePiece model (see makeXlmRobertaTokenizer).
class XlmRobertaTokenizer : public Tokenizer
{
public:
    explicit XlmRobertaTokenizer(const std::string &path) : m_spm(path) {}
    std::string kind() const override { return "sentencepiece"; }
    int vocabSize() const override { return m_spm.vocabSize() + kOffset + 1; }
    std::vector<int> encodeWord(const std::string &word, bool firstWord) const override
    {
        std::vector<int> ids = m_spm.encodeWord(word, firstWord);
        for (int &id : ids)
            id = id == m_spm.unkId() ? kUnk : id + kOffset;
        return ids;
    }
    std::string idToPiece(int id) const override
    {
        static const char *const kFairseq[] = {"<s>", "<pad>", "</s>", "<unk>"};
        if (id >= 0 && id < 4)
            return kFairseq[id];
        if (id == maskId())
            return "<mask>";
        return m_spm.idToPiece(id - kOffset);
    }
    int pieceToId(const std::string &piece) const override
    {
        static const char *const kFairseq[] = {"<s>", "<pad>", "</s>", "<unk>"};
        for (int i = 0; i < 4; ++i)
            if (piece == kFairseq[i])
                return i;
        if (piece == "<mask>")
            return maskId();
        const int id = m_spm.pieceToId(piece);
        return id <= 0 || id == m_spm.unkId() ? -1 : id + kOffset;
    }
    int unkId() const override { return kUnk; }
    int padId() const override { return 1; }
    std::vector<std::string> files() const override { return m_spm.files(); }

private:
    static constexpr int kOffset = 1, kUnk = 3;
    int maskId() const { return m_spm.vocabSize() + kOffset; }
    SentencePieceTokenizer m_spm;
};

QString spmTrainExecutable()
{
    const QByteArray env = qgetenv("FOLIO_SPM_TRAIN");
    if (!env.isEmpty())
        return QString::fromLocal8Bit(env);
    QStringList candidates;
    if (QCoreApplication::instance())
        candidates << QCoreApplication::applicationDirPath() + QStringLiteral("/folio-spm-train");
    candidates << QFileInfo(QStringLiteral("/proc/self/exe")).canonicalPath() + QStringLiteral("/folio-spm-train");
#ifdef FOLIO_SPM_TRAIN_BUILD_PATH
    candidates << QStringLiteral(FOLIO_SPM_TRAIN_BUILD_PATH);
#endif
    for (const QString &c : candidates)
        if (QFileInfo(c).isExecutable())
            return c;
    return QStandardPaths::findExecutable(QStringLiteral("spm_train"));
}

} // namespace

std::unique_ptr<Tokenizer> makeSentencePieceTokenizer(const std::string &modelFile)
{
    return std::make_unique<SentencePieceTokenizer>(modelFile);
}

std::unique_ptr<Tokenizer> makeXlmRobertaTokenizer(const std::string &modelFile)
{
    return std::make_unique<XlmRobertaTokenizer>(modelFile);
}

void trainSentencePiece(const std::string &inputFile, const std::string &modelPrefix, int vocabSize,
                        const std::string &type, double characterCoverage, bool atMost)
{
    if (type != "unigram" && type != "bpe")
        throw InferenceError("SentencePiece model type must be unigram or bpe, not \"" + type + "\"");
    const QString exe = spmTrainExecutable();
    if (exe.isEmpty())
        throw InferenceError("cannot train a SentencePiece vocabulary: neither folio-spm-train nor spm_train was found "
                             "(set FOLIO_SPM_TRAIN)");
    QStringList args = {
        QStringLiteral("--input=") + QString::fromStdString(inputFile),
        QStringLiteral("--model_prefix=") + QString::fromStdString(modelPrefix),
        QStringLiteral("--vocab_size=%1").arg(vocabSize),
        QStringLiteral("--model_type=") + QString::fromStdString(type),
        QStringLiteral("--character_coverage=%1").arg(characterCoverage),
        QStringLiteral("--pad_id=0"), QStringLiteral("--unk_id=1"), QStringLiteral("--bos_id=-1"), QStringLiteral("--eos_id=-1"),
        QStringLiteral("--minloglevel=2"), QStringLiteral("--num_threads=2")};
    if (atMost)
        args.push_back(QStringLiteral("--hard_vocab_limit=false"));
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(exe, args);
    if (!p.waitForStarted(30000))
        throw InferenceError(exe.toStdString() + ": cannot start: " + p.errorString().toStdString());
    p.waitForFinished(-1);
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        const QString out = QString::fromUtf8(p.readAll()).trimmed();
        throw InferenceError(inputFile + ": SentencePiece training failed: " + out.right(600).toStdString());
    }
}

} // namespace folio::inference
