#include "pipeline/qs/qsinputs.h"

#include "common/regularfile.h"
#include "inference/checkpoint/fairseq.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/tokenizers/fairseqdictionary.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <exception>
#include <map>

namespace folio::pipeline {

QString QsInput::text() const
{
    QStringList all;
    for (const QsSectionText &s : sections)
        all += s.paragraphs;
    return all.join(QLatin1Char('\n'));
}

namespace {

QStringList wordParagraphs(const Document &doc, int begin, int end, int perParagraph)
{
    QStringList paragraphs;
    QStringList current;
    for (int w = std::max(0, begin); w < std::min<int>(end, int(doc.words.size())); ++w) {
        const QString t = doc.words[std::size_t(w)].text.trimmed();
        if (t.isEmpty())
            continue;
        current << t;
        if (current.size() >= perParagraph) {
            paragraphs << current.join(QLatin1Char(' '));
            current.clear();
        }
    }
    if (!current.isEmpty())
        paragraphs << current.join(QLatin1Char(' '));
    return paragraphs;
}

// GPT-2 byte-level BPE: the printable stand-in of every byte, inverted.
const std::map<char32_t, unsigned char> &byteDecoder()
{
    static const std::map<char32_t, unsigned char> table = [] {
        std::map<char32_t, unsigned char> m;
        char32_t extra = 256;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
            m[printable ? char32_t(b) : extra++] = static_cast<unsigned char>(b);
        }
        return m;
    }();
    return table;
}

} // namespace

QsInput qsInputFromDocument(const Document &doc, int wordsPerParagraph)
{
    QsInput in;
    in.id = doc.title.isEmpty() ? doc.sourcePath : doc.title;
    const int per = std::max(1, wordsPerParagraph);
    const int firstOwned = doc.sections.empty() ? int(doc.words.size()) : doc.sections.front().firstWord;
    const QStringList before = wordParagraphs(doc, 0, std::min(firstOwned, int(doc.words.size())), per);
    const bool implicit = doc.sections.empty() || !before.isEmpty();
    if (implicit) {
        QsSectionText s;
        s.title = doc.title;
        s.paragraphs = before;
        in.sections.push_back(s);
    }
    const int offset = implicit ? 1 : 0;
    for (const Section &sec : doc.sections) {
        QsSectionText s;
        s.title = sec.title.simplified();
        s.parent = sec.parent < 0 ? -1 : sec.parent + offset;
        s.paragraphs = wordParagraphs(doc, sec.firstWord, sec.endWord, per);
        in.sections.push_back(s);
    }
    return in;
}

std::vector<std::int64_t> QsVocabulary::specialIds() const
{
    std::vector<std::int64_t> ids = markers.depth;
    ids.push_back(markers.paragraphSeparator);
    ids.push_back(markers.bos);
    ids.push_back(markers.eos);
    ids.push_back(pad);
    return ids;
}

QsVocabulary folioQsVocabulary(std::shared_ptr<inference::Tokenizer> tokenizer)
{
    QsVocabulary vocab;
    const int v = tokenizer->vocabSize();
    vocab.pad = tokenizer->padId();
    vocab.markers.bos = v;
    vocab.markers.eos = v + 1;
    vocab.markers.depth = {v + 2, v + 3, v + 4, v + 5, v + 6, v + 7, v + 8};
    vocab.markers.paragraphSeparator = v + 9;
    vocab.tokenizer = std::move(tokenizer);
    return vocab;
}

nlohmann::json folioQsConfig(const QsVocabulary &vocab)
{
    return {{"folio_qs", {{"depth_markers", vocab.markers.depth}, {"paragraph_separator", vocab.markers.paragraphSeparator}}}};
}

bool loadQsVocabulary(const QString &dir, QsVocabulary *vocab, QString *error)
{
    const QString configPath = QDir(dir).filePath(QStringLiteral("config.json"));
    QByteArray configText;
    QFile f(configPath);
    if (!f.exists() && !inference::fairseqCheckpointIn(dir.toStdString()).empty()) {
        try { // a fairseq BART without config.json: the ids its args give (inference/checkpoint/fairseq.h)
            configText = QByteArray::fromStdString(inference::ModelConfig::fromDirectory(dir.toStdString()).json().dump());
        } catch (const std::exception &e) {
            *error = QString::fromStdString(e.what());
            return false;
        }
    } else if (std::string notAFile; // a FIFO, a device, a folder: named, never opened (issue 51)
               regularFileSize(QFile::encodeName(configPath).toStdString(), 16 << 20, "config.json", &notAFile) < 0) {
        *error = QFile::decodeName(QByteArray::fromStdString(notAFile));
        return false;
    } else if (!f.open(QIODevice::ReadOnly)) {
        *error = configPath + QStringLiteral(": cannot read: ") + f.errorString();
        return false;
    } else {
        configText = f.readAll();
    }
    QJsonParseError pe;
    const QJsonDocument json = QJsonDocument::fromJson(configText, &pe);
    if (!json.isObject()) {
        *error = configPath + QStringLiteral(": not a JSON object (") + pe.errorString() + QLatin1Char(')');
        return false;
    }
    const QJsonObject c = json.object();
    QsVocabulary v;
    v.markers.bos = c.value(QStringLiteral("bos_token_id")).toInteger(0);
    v.markers.eos = c.value(QStringLiteral("eos_token_id")).toInteger(2);
    v.pad = c.value(QStringLiteral("pad_token_id")).toInteger(1);
    const QJsonObject qs = c.value(QStringLiteral("folio_qs")).toObject();
    if (!qs.isEmpty()) {
        const QJsonArray depth = qs.value(QStringLiteral("depth_markers")).toArray();
        if (depth.size() != 7 || !qs.value(QStringLiteral("paragraph_separator")).isDouble()) {
            *error = configPath + QStringLiteral(": folio_qs needs 7 depth_markers and a paragraph_separator");
            return false;
        }
        v.markers.depth.clear();
        for (const QJsonValue &d : depth)
            v.markers.depth.push_back(d.toInteger());
        v.markers.paragraphSeparator = qs.value(QStringLiteral("paragraph_separator")).toInteger();
    }
    try {
        // The Hugging Face files first; without them, fairseq's dict.txt + encoder.json + vocab.bpe
        // (a fairseq BART folder as people have it, inference/tokenizers/fairseqdictionary.h).
        const QDir d(dir);
        const bool huggingFace = d.exists(QStringLiteral("tokenizer.json"))
            || (d.exists(QStringLiteral("vocab.json")) && d.exists(QStringLiteral("merges.txt")));
        if (!huggingFace && inference::hasFairseqGpt2BpeFiles(dir.toStdString()))
            v.tokenizer = inference::makeFairseqGpt2BpeTokenizer(dir.toStdString());
        else
            v.tokenizer = inference::Tokenizer::fromDirectory(dir.toStdString());
    } catch (const std::exception &e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    *vocab = std::move(v);
    return true;
}

std::vector<std::int64_t> encodeQsText(const QsVocabulary &vocab, const QString &text)
{
    std::vector<std::int64_t> ids;
    bool first = true;
    for (const QString &word : text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
        for (int id : vocab.tokenizer->encodeWord(word.toStdString(), first))
            ids.push_back(id);
        first = false;
    }
    return ids;
}

QString decodeQsText(const QsVocabulary &vocab, const std::vector<std::int64_t> &ids)
{
    const std::vector<std::int64_t> specials = vocab.specialIds();
    const bool byteLevel = vocab.tokenizer->kind() == "bpe";
    std::string out;
    for (std::int64_t id : ids) {
        if (std::find(specials.begin(), specials.end(), id) != specials.end() || id < 0
            || id >= vocab.tokenizer->vocabSize())
            continue;
        const std::string piece = vocab.tokenizer->idToPiece(int(id));
        if (!byteLevel) {
            out += piece;
            continue;
        }
        for (const char32_t ch : QString::fromStdString(piece).toStdU32String()) {
            const auto it = byteDecoder().find(ch);
            if (it != byteDecoder().end())
                out.push_back(static_cast<char>(it->second));
        }
    }
    QString text = QString::fromStdString(out);
    if (!byteLevel)
        text.replace(QString::fromUtf8("\u2581"), QStringLiteral(" "));
    return text.simplified();
}

namespace {

// Water-filling: the largest per-section token quota q such that sum(min(size_i, q)) <= budget.
std::size_t sectionQuota(const std::vector<std::size_t> &sizes, std::size_t budget)
{
    std::vector<std::size_t> sorted = sizes;
    std::sort(sorted.begin(), sorted.end());
    std::size_t used = 0;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        const std::size_t rest = sorted.size() - i;
        if (used + sorted[i] * rest > budget)
            return (budget - used) / rest;
        used += sorted[i];
    }
    return sorted.empty() ? budget : sorted.back();
}

} // namespace

inference::HibridsSource qsSource(const QsVocabulary &vocab, const QsInput &input, int maxSourcePositions,
                                  long *tokensDropped)
{
    std::vector<inference::HibridsSectionText> sections;
    std::vector<int> depth;
    std::vector<std::size_t> sizes;
    for (const QsSectionText &s : input.sections) {
        inference::HibridsSectionText t;
        t.parent = s.parent;
        const int d = (s.parent >= 0 && s.parent < int(depth.size())) ? depth[std::size_t(s.parent)] + 1 : 0;
        depth.push_back(d);
        t.depth = d;
        t.title = encodeQsText(vocab, s.title);
        std::size_t size = 1 + t.title.size();
        for (const QString &p : s.paragraphs) {
            t.paragraphs.push_back(encodeQsText(vocab, p));
            size += 1 + t.paragraphs.back().size();
        }
        sizes.push_back(size);
        sections.push_back(std::move(t));
    }
    // Every section keeps a share of the positions (the reference would stop at the first section
    // that does not fit, which for long meetings is the first one): paragraphs are cut at the quota.
    const std::size_t budget = std::size_t(std::max(0, maxSourcePositions - 2));
    const std::size_t quota = sectionQuota(sizes, budget);
    long dropped = 0;
    for (std::size_t i = 0; i < sections.size(); ++i) {
        if (sizes[i] <= quota)
            continue;
        dropped += long(sizes[i] - quota);
        inference::HibridsSectionText &t = sections[i];
        std::size_t left = quota > 1 ? quota - 1 : 0;
        if (t.title.size() > left)
            t.title.resize(left);
        left -= t.title.size();
        std::vector<std::vector<std::int64_t>> kept;
        for (std::vector<std::int64_t> &p : t.paragraphs) {
            if (left < 2)
                break;
            if (p.size() + 1 > left)
                p.resize(left - 1);
            left -= p.size() + 1;
            kept.push_back(std::move(p));
        }
        t.paragraphs = std::move(kept);
    }
    if (tokensDropped)
        *tokensDropped = dropped;
    return inference::linearizeHibridsSource(sections, {}, maxSourcePositions, vocab.markers);
}

QsGenerated generateQs(const inference::Seq2seqGenerator &generator, const QsVocabulary &vocab,
                       const std::vector<QsInput> &inputs, const inference::GenerationSettings &settings,
                       const inference::GenerationCallback &progress)
{
    QsGenerated out;
    try {
        for (const QsInput &in : inputs) {
            long dropped = 0;
            const inference::HibridsSource src = qsSource(vocab, in, generator.maxSourceLength(), &dropped);
            QsGeneratedTree tree;
            if (src.truncated || dropped > 0)
                tree.warnings << QStringLiteral("%1: source truncated to %2 tokens (%3 tokens cut; %4 of %5 sections kept)")
                                     .arg(in.id)
                                     .arg(src.ids.size())
                                     .arg(dropped)
                                     .arg(std::max(0, src.sectionsKept))
                                     .arg(in.sections.size());
            const inference::GenerationResult r = generator.generate({inference::seq2seqSource(src)}, settings, progress);
            for (const std::string &w : r.warnings)
                tree.warnings << in.id + QStringLiteral(": ") + QString::fromStdString(w);
            if (r.cancelled) {
                out.cancelled = true;
                out.error = QStringLiteral("cancelled");
                return out;
            }
            if (!r.ok || r.rows.empty()) {
                out.error = in.id + QStringLiteral(": ") + QString::fromStdString(r.error);
                return out;
            }
            const std::vector<std::int64_t> &tokens = r.rows.front().tokens;
            if (!tokens.empty() && tokens.back() != vocab.markers.eos && int(tokens.size()) >= settings.maxLength)
                tree.warnings << QStringLiteral("%1: output stopped at max length %2 before the end token")
                                     .arg(in.id)
                                     .arg(settings.maxLength);
            tree.text = decodeQsText(vocab, tokens);
            tree.parse = inference::parseQsTarget(inference::normaliseQsActions(tree.text.toStdString()));
            out.trees.push_back(std::move(tree));
        }
        out.ok = true;
    } catch (const std::exception &e) {
        out.error = QString::fromStdString(e.what());
    }
    return out;
}

} // namespace folio::pipeline
