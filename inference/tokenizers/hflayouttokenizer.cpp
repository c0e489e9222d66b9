// Hugging Face LayoutLMv3 / LayoutLMv2 / LayoutXLM tokenizer semantics on top of the byte-level BPE,
// BERT WordPiece and XLM-R SentencePiece tokenizers.
#include "inference/tokenizers/hflayouttokenizer.h"

#include "inference/checkpoint/detail/jsonfile.h"
#include "inference/errors.h"
#include "inference/tokenizers/tokenizerjson.h"

#include <nlohmann/json.hpp>

#include <QtGlobal>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace folio::inference {

namespace {

WordBox readBox(const nlohmann::json &j, const char *key, const std::string &file, const WordBox &fallback)
{
    if (!j.contains(key))
        return fallback;
    const nlohmann::json &v = j[key];
    if (!v.is_array() || v.size() != 4)
        throw InferenceError(file + ": " + key + " is not a list of 4 integers");
    int c[4];
    for (int i = 0; i < 4; ++i) {
        if (!v[size_t(i)].is_number_integer() || std::llabs(v[size_t(i)].get<long long>()) > 1'000'000)
            throw InferenceError(file + ": " + key + "[" + std::to_string(i) + "] is not an integer in -1e6..1e6");
        c[i] = v[size_t(i)].get<int>();
    }
    return WordBox{c[0], c[1], c[2], c[3]};
}

// A special token entry is a string or an {"content": ...} object.
std::string tokenText(const nlohmann::json &j, const char *key, const std::string &fallback, const std::string &file)
{
    if (!j.contains(key) || j[key].is_null())
        return fallback;
    const nlohmann::json &v = j[key];
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_object() && v.contains("content") && v["content"].is_string())
        return v["content"].get<std::string>();
    throw InferenceError(file + ": " + key + " is neither a string nor an object with \"content\"");
}

bool readBool(const nlohmann::json &j, const char *key, bool fallback, const std::string &file)
{
    if (!j.contains(key))
        return fallback;
    if (!j[key].is_boolean())
        throw InferenceError(file + ": " + key + " is not true or false");
    return j[key].get<bool>();
}

} // namespace

HfLayoutTokenizerConfig::Kind HfLayoutTokenizerConfig::kindOfClass(const std::string &tokenizerClass, bool *known)
{
    std::string base = tokenizerClass;
    const std::string fast = "Fast";
    if (base.size() > fast.size() && base.compare(base.size() - fast.size(), fast.size(), fast) == 0)
        base.resize(base.size() - fast.size());
    *known = true;
    if (base == "LayoutLMv2Tokenizer" || base == "BertTokenizer")
        return Kind::WordPiece;
    if (base == "LayoutXLMTokenizer" || base == "XLMRobertaTokenizer")
        return Kind::XlmSentencePiece;
    *known = base == "LayoutLMv3Tokenizer" || base == "RobertaTokenizer";
    return Kind::Bpe;
}

HfLayoutTokenizerConfig HfLayoutTokenizerConfig::fromDirectory(const std::string &dir)
{
    HfLayoutTokenizerConfig c;
    const fs::path file = fs::path(dir) / "tokenizer_config.json";
    nlohmann::json j = nlohmann::json::object();
    const std::string name = file.string();
    if (fs::exists(file)) {
        j = detail::readJsonFile(name);
        if (!j.is_object())
            throw InferenceError(name + ": not a JSON object");
    }
    if (j.contains("tokenizer_class") && !j["tokenizer_class"].is_null()) {
        if (!j["tokenizer_class"].is_string())
            throw InferenceError(name + ": tokenizer_class is not a string");
        c.tokenizerClass = j["tokenizer_class"].get<std::string>();
    }
    bool known = false;
    c.kind = kindOfClass(c.tokenizerClass, &known);
    if (!known) { // the files say: tokenizer.json's model first (the file Python's fast tokenizer uses)
        const fs::path d(dir);
        std::string model;
        if (fs::exists(d / "tokenizer.json")) {
            try {
                model = tokenizerJsonModelType((d / "tokenizer.json").string());
            } catch (const InferenceError &) {
                if (!fs::exists(d / "vocab.json") && !fs::exists(d / "vocab.txt") && !fs::exists(d / "sentencepiece.bpe.model"))
                    throw; // nothing else to read: the file's own error
                // the slow files decide; HfLayoutTokenizer::fromDirectory warns why tokenizer.json is not used
            }
        }
        if (model == "WordPiece")
            c.kind = Kind::WordPiece;
        else if (model == "Unigram")
            c.kind = Kind::XlmSentencePiece;
        else if (model == "BPE")
            c.kind = Kind::Bpe;
        else if (!fs::exists(d / "vocab.json") && fs::exists(d / "vocab.txt"))
            c.kind = Kind::WordPiece;
        else if (!fs::exists(d / "vocab.json") && fs::exists(d / "sentencepiece.bpe.model"))
            c.kind = Kind::XlmSentencePiece;
    }
    if (c.kind == Kind::WordPiece) {
        c.clsToken = "[CLS]";
        c.sepToken = "[SEP]";
        c.padToken = "[PAD]";
    }
    if (c.kind != Kind::Bpe)
        c.sepBox = WordBox{1000, 1000, 1000, 1000};
    if (j.empty())
        return c;
    c.doLowerCase = readBool(j, "do_lower_case", c.doLowerCase, name);
    if (j.contains("strip_accents") && !j["strip_accents"].is_null())
        c.stripAccents = readBool(j, "strip_accents", false, name) ? 1 : 0;
    c.addPrefixSpace = readBool(j, "add_prefix_space", c.addPrefixSpace, name);
    c.onlyLabelFirstSubword = readBool(j, "only_label_first_subword", c.onlyLabelFirstSubword, name);
    if (j.contains("model_max_length")) {
        if (!j["model_max_length"].is_number())
            throw InferenceError(name + ": model_max_length is not a number");
        const double m = j["model_max_length"].get<double>();
        c.modelMaxLength = m < 2 ? 2 : m > 1'000'000 ? 1'000'000 : int(m);
    }
    c.clsBox = readBox(j, "cls_token_box", name, c.clsBox);
    c.sepBox = readBox(j, "sep_token_box", name, c.sepBox);
    c.padBox = readBox(j, "pad_token_box", name, c.padBox);
    if (j.contains("pad_token_label")) {
        if (!j["pad_token_label"].is_number_integer())
            throw InferenceError(name + ": pad_token_label is not an integer");
        c.padTokenLabel = j["pad_token_label"].get<int>();
    }
    c.clsToken = tokenText(j, "cls_token", c.clsToken, name);
    c.sepToken = tokenText(j, "sep_token", c.sepToken, name);
    c.padToken = tokenText(j, "pad_token", c.padToken, name);
    if (j.contains("added_tokens_decoder")) {
        const nlohmann::json &d = j["added_tokens_decoder"];
        if (!d.is_object())
            throw InferenceError(name + ": added_tokens_decoder is not an object");
        for (auto it = d.begin(); it != d.end(); ++it) {
            const nlohmann::json &a = it.value();
            if (!a.is_object() || !a.contains("content") || !a["content"].is_string())
                throw InferenceError(name + ": added_tokens_decoder[" + it.key() + "] has no \"content\" text");
            int id = -1;
            try {
                id = std::stoi(it.key());
            } catch (const std::exception &) {
                throw InferenceError(name + ": added_tokens_decoder key \"" + it.key() + "\" is not an id");
            }
            c.addedTokens.push_back(AddedToken{a["content"].get<std::string>(), readBool(a, "lstrip", false, name),
                                               readBool(a, "rstrip", false, name), id});
        }
    }
    return c;
}

HfLayoutTokenizer HfLayoutTokenizer::fromDirectory(const std::string &dir)
{
    return fromDirectory(dir, HfLayoutTokenizerConfig::fromDirectory(dir));
}

namespace {

// The folder's tokenizer.json (used when the slow tokenizer's files are not there): its model must
// be the one the config's kind needs; the post-processor names the specials around a sequence.
HfLayoutTokenizer fromTokenizerJson(const fs::path &d, const HfLayoutTokenizerConfig &config)
{
    const std::string file = (d / "tokenizer.json").string();
    TokenizerJsonInfo info;
    std::unique_ptr<Tokenizer> tok = makeTokenizerFromJson(file, &info);
    const char *want = config.kind == HfLayoutTokenizerConfig::Kind::WordPiece ? "WordPiece"
                       : config.kind == HfLayoutTokenizerConfig::Kind::XlmSentencePiece ? "Unigram" : "BPE";
    if (info.modelType != want)
        throw InferenceError(file + ": a " + info.modelType + " model, but " +
                             (config.tokenizerClass.empty() ? std::string("the folder") : config.tokenizerClass) +
                             " needs a " + want + " tokenizer");
    HfLayoutTokenizerConfig c = config;
    if (!info.clsToken.empty()) c.clsToken = info.clsToken;
    if (!info.sepToken.empty()) c.sepToken = info.sepToken;
    return HfLayoutTokenizer(std::move(tok), c);
}

} // namespace

HfLayoutTokenizer HfLayoutTokenizer::fromDirectory(const std::string &dir, const HfLayoutTokenizerConfig &config)
{
    // As Python's AutoTokenizer (use_fast=True) does: tokenizer.json, when the folder has it, is the
    // tokenizer, even beside the slow tokenizer's files (vocab.json + merges.txt, vocab.txt,
    // sentencepiece.bpe.model). When Folio refuses something in it (a feature it does not run, a
    // model that is not the config's kind) and the slow files are there, those are used and
    // loadWarning() says why.
    const fs::path d(dir);
    const bool json = fs::exists(d / "tokenizer.json");
    const char *slowName = config.kind == HfLayoutTokenizerConfig::Kind::WordPiece          ? "vocab.txt"
                           : config.kind == HfLayoutTokenizerConfig::Kind::XlmSentencePiece ? "sentencepiece.bpe.model"
                                                                                           : "vocab.json + merges.txt";
    const bool slow = config.kind == HfLayoutTokenizerConfig::Kind::WordPiece          ? fs::exists(d / "vocab.txt")
                      : config.kind == HfLayoutTokenizerConfig::Kind::XlmSentencePiece ? fs::exists(d / "sentencepiece.bpe.model")
                                                                                      : fs::exists(d / "vocab.json") && fs::exists(d / "merges.txt");
    std::string warning;
    if (json) {
        if (!slow)
            return fromTokenizerJson(d, config);
        try {
            return fromTokenizerJson(d, config);
        } catch (const InferenceError &e) {
            warning = std::string("tokenizer.json not used (") + e.what() + "); tokenizing with the slow tokenizer's " +
                      slowName + " instead, which Python's fast tokenizer would not use";
            qWarning("%s", warning.c_str());
        }
    }
    HfLayoutTokenizer out = [&] {
        if (config.kind == HfLayoutTokenizerConfig::Kind::WordPiece) {
            if (!slow)
                throw InferenceError(dir + ": no vocab.txt (a " + (config.tokenizerClass.empty() ? std::string("WordPiece") : config.tokenizerClass) +
                                     " tokenizer needs its BERT WordPiece vocabulary)");
            return HfLayoutTokenizer(makeBertWordPieceTokenizer((d / "vocab.txt").string(), config.doLowerCase, config.stripAccents), config);
        }
        if (config.kind == HfLayoutTokenizerConfig::Kind::XlmSentencePiece) {
            if (!slow)
                throw InferenceError(dir + ": no sentencepiece.bpe.model (a " + (config.tokenizerClass.empty() ? std::string("XLM-R") : config.tokenizerClass) +
                                     " tokenizer needs its SentencePiece model)");
            return HfLayoutTokenizer(makeXlmRobertaTokenizer((d / "sentencepiece.bpe.model").string()), config);
        }
        for (const char *needed : {"vocab.json", "merges.txt"})
            if (!fs::exists(d / needed))
                throw InferenceError(dir + ": no " + needed + " (a LayoutLMv3 tokenizer needs vocab.json and merges.txt, or tokenizer.json)");
        BpeOptions options;
        options.addPrefixSpace = config.addPrefixSpace;
        options.addedTokensGiven = !config.addedTokens.empty();
        options.addedTokens = config.addedTokens;
        return HfLayoutTokenizer(makeBpeTokenizer((d / "vocab.json").string(), (d / "merges.txt").string(), options), config);
    }();
    out.m_loadWarning = std::move(warning);
    return out;
}

HfLayoutTokenizer::HfLayoutTokenizer(std::unique_ptr<Tokenizer> tokenizer, HfLayoutTokenizerConfig config)
    : m_tokenizer(std::move(tokenizer)), m_config(std::move(config))
{
    auto idOf = [&](const std::string &text) {
        const int id = m_tokenizer->pieceToId(text);
        if (id < 0)
            throw InferenceError("tokenizer: special token \"" + text + "\" is not in the vocabulary");
        return id;
    };
    m_cls = idOf(m_config.clsToken);
    m_sep = idOf(m_config.sepToken);
    m_pad = idOf(m_config.padToken);
}

LayoutTokens HfLayoutTokenizer::encode(const std::vector<std::string> &words, const std::vector<WordBox> &boxes,
                                       const std::vector<int> *wordLabels, int maxLength, bool truncation,
                                       bool padToMaxLength) const
{
    if (words.size() != boxes.size() || (wordLabels && wordLabels->size() != words.size()))
        throw InferenceError("tokenizer: " + std::to_string(words.size()) + " words, " + std::to_string(boxes.size()) +
                             " boxes" + (wordLabels ? ", " + std::to_string(wordLabels->size()) + " labels" : std::string()));
    if (maxLength <= 0)
        maxLength = m_config.modelMaxLength;
    if (maxLength < 2)
        throw InferenceError("tokenizer: max_length " + std::to_string(maxLength) + " leaves no room for <s> and </s>");

    LayoutTokens out;
    std::vector<int> ids, wordIds, labels;
    std::vector<WordBox> tokenBoxes;
    bool anyLabel = false;
    for (size_t w = 0; w < words.size(); ++w) {
        if (words[w].empty())
            continue;
        const std::vector<int> pieces = m_tokenizer->encodeWord(words[w]);
        for (size_t k = 0; k < pieces.size(); ++k) {
            ids.push_back(pieces[k]);
            wordIds.push_back(int(w));
            tokenBoxes.push_back(boxes[w]);
            if (wordLabels) {
                anyLabel = true;
                labels.push_back(k == 0 || !m_config.onlyLabelFirstSubword ? (*wordLabels)[w] : m_config.padTokenLabel);
            }
        }
    }
    out.tokensWithoutTruncation = int(ids.size());
    if (truncation && int(ids.size()) > maxLength - 2) {
        const size_t keep = size_t(maxLength - 2);
        ids.resize(keep);
        wordIds.resize(keep);
        tokenBoxes.resize(keep);
        if (!labels.empty()) labels.resize(keep);
    }
    const bool withLabels = wordLabels && anyLabel;
    auto push = [&](int id, const WordBox &box, int label, int mask, int word) {
        out.inputIds.push_back(id);
        out.bbox.push_back(box);
        if (withLabels) out.labels.push_back(label);
        out.attentionMask.push_back(mask);
        out.wordIds.push_back(word);
    };
    push(m_cls, m_config.clsBox, m_config.padTokenLabel, 1, -1);
    for (size_t i = 0; i < ids.size(); ++i)
        push(ids[i], tokenBoxes[i], withLabels ? labels[i] : 0, 1, wordIds[i]);
    push(m_sep, m_config.sepBox, m_config.padTokenLabel, 1, -1);
    while (padToMaxLength && int(out.inputIds.size()) < maxLength)
        push(m_pad, m_config.padBox, m_config.padTokenLabel, 0, -1);
    return out;
}

} // namespace folio::inference
