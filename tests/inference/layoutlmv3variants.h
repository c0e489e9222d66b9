#pragma once
// The documents of a Hugging Face LayoutLMv3 pipeline case (fixtures/parity-next/layoutlmv3_pipeline
// or a twin of it) and variants of them with white-space-only words, each with the reference's
// first (truncated) window. Torch-free: json and the case's own files only.
//
// A variant's reference window follows from the case's expected.json and the reference tokenizer's
// rules (fixtures/parity-next/layoutlmv3_tokenizer README, items 3, 4, 6, 7): a word that is one
// white-space character is not empty, gets no prefix space (it starts with white space), is one
// pre-token of one byte, so exactly one token, the byte's stand-in (tab U+0109 'ĉ', newline U+010A
// 'Ċ', space U+0120 'Ġ'), or <unk> when the vocabulary lacks it. Every other word keeps the tokens
// the reference gave it; an inserted word shifts all later tokens by one, and truncation keeps the
// first max_length - 2 word tokens. The variants' labels are then those of the reference call on
// those inputs (what HfTokenClassifier's Truncate run is checked to be by tst_inference_parity).

#include "inference/tokenizers/tokenizer.h"
#include "layoutlmv3cases.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <functional>
#include <string>
#include <vector>

namespace folio::inference::test {

struct PipelineDocCase
{
    std::string name;
    std::vector<std::string> words;
    std::vector<WordBox> boxes;
    std::vector<int> inputIds;         // the reference's first window: <s>, word tokens, </s>
    std::vector<WordBox> tokenBoxes;
    std::vector<int> wordIds;          // per position, -1 for <s> and </s>
    bool variant = false;
    std::vector<std::string> labels;   // originals: the reference's word labels ("" none); variants: empty
};

namespace detail {

// The id of the one token a single white-space byte (< 0x21) gives: its GPT-2 stand-in U+0100 + byte.
inline int whitespaceTokenId(const nlohmann::json &vocab, unsigned char byte)
{
    const char32_t cp = 0x100 + byte;
    const std::string piece{char(0xC0 | (cp >> 6)), char(0x80 | (cp & 0x3F))};
    if (vocab.contains(piece))
        return vocab[piece].get<int>();
    return vocab.value("<unk>", 3);
}

struct KnownWord
{
    std::string text;
    WordBox box;
    std::vector<int> ids;   // its tokens as the reference gives them (a prefix when !complete)
    bool complete = true;   // false: cut by the reference, only its first tokens (if any) are known
};

// The reference window of `words`, cut at `budget` word tokens; false when it needs a token of a
// word beyond what is known of it.
inline bool buildWindow(const std::vector<KnownWord> &words, int budget, int cls, int sep, PipelineDocCase *out)
{
    out->inputIds = {cls};
    out->tokenBoxes = {WordBox{}};
    out->wordIds = {-1};
    int used = 0;
    for (std::size_t w = 0; w < words.size() && used < budget; ++w) {
        for (std::size_t k = 0; k < words[w].ids.size() && used < budget; ++k, ++used) {
            out->inputIds.push_back(words[w].ids[k]);
            out->tokenBoxes.push_back(words[w].box);
            out->wordIds.push_back(int(w));
        }
        if (!words[w].complete && used < budget)
            return false;
    }
    out->inputIds.push_back(sep);
    out->tokenBoxes.push_back(WordBox{});
    out->wordIds.push_back(-1);
    for (const KnownWord &w : words) {
        out->words.push_back(w.text);
        out->boxes.push_back(w.box);
    }
    return true;
}

} // namespace detail

// The case's documents (labels from expected.json) followed by two variants of each: "<name>__tab"
// (a tab inserted among the words the reference labels, and a newline after the last
// word: past the cut on a truncated page) and, where the document has one-space words,
// "<name>__space_to_tab" (each replaced by a tab). `maxTokens`: the checkpoint's window.
// `acceptable` (optional) refuses a variant, e.g. one whose reference call has a near tie: the tab
// then moves to the next place outward from the middle; a variant no place suits is left out.
inline std::vector<PipelineDocCase> pipelineDocCases(const QString &caseDir, int maxTokens,
                                                     const std::function<bool(const PipelineDocCase &)> &acceptable = {})
{
    const nlohmann::json docs = readCaseJson(caseDir + QStringLiteral("/documents.json"));
    const nlohmann::json expected = readCaseJson(caseDir + QStringLiteral("/expected.json"));
    const nlohmann::json vocab = readCaseJson(caseDir + QStringLiteral("/checkpoint/vocab.json"));
    std::vector<PipelineDocCase> out;
    if (!docs.is_object() || !expected.is_object() || !vocab.is_object())
        return out;
    const int tab = detail::whitespaceTokenId(vocab, '\t'), newline = detail::whitespaceTokenId(vocab, '\n');
    for (std::size_t i = 0; i < docs["documents"].size(); ++i) {
        const nlohmann::json &doc = docs["documents"][i];
        const nlohmann::json &want = expected["documents"][i];
        PipelineDocCase original;
        original.name = doc.value("name", "doc" + std::to_string(i));
        original.words = caseWords(doc["words"]);
        original.boxes = caseBoxes(doc["boxes"]);
        original.inputIds = caseInts(want["input_ids"]);
        original.tokenBoxes = caseBoxes(want["bbox"]);
        original.wordIds = caseInts(want["word_ids"]);
        original.labels.assign(original.words.size(), std::string());
        int labelled = 0;
        for (const auto &w : want["words"])
            if (!w["pred_label"].is_null()) {
                original.labels[w["index"].get<std::size_t>()] = w["pred_label"].get<std::string>();
                ++labelled;
            }
        // Each word's reference tokens; on a truncated page the last word with a token may be cut.
        std::vector<detail::KnownWord> words(original.words.size());
        int lastWithToken = -1;
        for (std::size_t p = 0; p < original.wordIds.size(); ++p) {
            const int w = original.wordIds[p];
            if (w < 0)
                continue;
            words[std::size_t(w)].ids.push_back(original.inputIds[p]);
            lastWithToken = std::max(lastWithToken, w);
        }
        const bool truncated = want.value("truncated", false);
        for (std::size_t w = 0; w < words.size(); ++w) {
            words[w].text = original.words[w];
            words[w].box = original.boxes[w];
            words[w].complete = !truncated || int(w) < lastWithToken;
        }
        const int cls = original.inputIds.front(), sep = original.inputIds.back();
        out.push_back(original);
        if (words.empty())
            continue;

        // The tab goes halfway through the labelled words, or as near there as `acceptable` allows.
        const int middle = std::max(1, labelled / 2);
        for (int step = 0; step <= 2 * labelled; ++step) {
            const int at = middle + (step % 2 ? (step + 1) / 2 : -(step / 2));
            if (at < 1 || at > labelled || at > int(words.size()))
                continue;
            std::vector<detail::KnownWord> tabbed = words;
            tabbed.insert(tabbed.begin() + at, detail::KnownWord{"\t", words[std::size_t(std::min(at, int(words.size()) - 1))].box, {tab}, true});
            tabbed.push_back(detail::KnownWord{"\n", words.back().box, {newline}, true});
            PipelineDocCase v;
            v.name = original.name + "__tab";
            v.variant = true;
            if (detail::buildWindow(tabbed, maxTokens - 2, cls, sep, &v) && (!acceptable || acceptable(v))) {
                out.push_back(v);
                break;
            }
        }

        std::vector<detail::KnownWord> spaced = words;
        bool anySpace = false;
        for (detail::KnownWord &w : spaced)
            if (w.text == " ") {
                w.text = "\t";
                w.ids = {tab};
                anySpace = true;
            }
        PipelineDocCase s;
        s.name = original.name + "__space_to_tab";
        s.variant = true;
        if (anySpace && detail::buildWindow(spaced, maxTokens - 2, cls, sep, &s) && (!acceptable || acceptable(s)))
            out.push_back(s);
    }
    return out;
}

// True when the reference call on `c` (the classifier's Truncate run) labels every word of its
// window with an argmax margin of at least `minMargin`: the fixture's own rule against near ties,
// whose label float32 rounding could turn.
inline bool withoutNearTies(const HfTokenClassifier &classifier, const PipelineDocCase &c, float minMargin = 0.02f)
{
    const WordLabelling l = classifier.label(c.words, c.boxes, HfTokenClassifier::LongPages::Truncate);
    if (!l.ok)
        return false;
    for (const WordLabel &w : l.words)
        if (w.labelId >= 0 && w.margin < minMargin)
            return false;
    return true;
}

} // namespace folio::inference::test
