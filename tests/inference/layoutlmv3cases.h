#pragma once
// The two Hugging Face LayoutLMv3 parity case kinds (fixtures/parity-next README), checked the same
// way wherever such a case folder is found (tst_inference_parity runs them for every parity root):
//  - tokenizer case (cases.json + tokenizer/): every recorded call gives the reference's input_ids,
//    bbox, labels, attention_mask, word ids and tokens;
//  - pipeline case (documents.json + expected.json + outputs.safetensors + checkpoint/): the folder
//    labels every document as the reference did (inputs and word ids equal, logits within
//    atol 1e-5 / rtol 1e-4, word labels and margins equal, no label past the truncation).
// Both use QCOMPARE/QVERIFY: call them from a test function and return when they fail.

#include "inference/checkpoint/safetensors.h"
#include "inference/models/hftokenclassifier.h"
#include "inference/tokenizers/hflayouttokenizer.h"
#include "tensorcompare.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QtTest>

namespace folio::inference::test {

inline nlohmann::json readCaseJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return nlohmann::json();
    return nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
}

inline std::vector<int> caseInts(const nlohmann::json &j)
{
    std::vector<int> v;
    for (const auto &x : j)
        v.push_back(x.is_null() ? -1 : x.get<int>());
    return v;
}

inline std::vector<std::int64_t> caseFlatInts(const nlohmann::json &j)
{
    std::vector<std::int64_t> v;
    for (const auto &x : j) {
        if (x.is_array())
            for (const auto &y : x) v.push_back(y.get<std::int64_t>());
        else
            v.push_back(x.is_null() ? -1 : x.get<std::int64_t>());
    }
    return v;
}

inline std::vector<WordBox> caseBoxes(const nlohmann::json &j)
{
    std::vector<WordBox> v;
    for (const auto &b : j)
        v.push_back(WordBox{b[0].get<int>(), b[1].get<int>(), b[2].get<int>(), b[3].get<int>()});
    return v;
}

inline std::vector<std::string> caseWords(const nlohmann::json &j)
{
    std::vector<std::string> v;
    for (const auto &w : j) v.push_back(w.get<std::string>());
    return v;
}

inline std::vector<std::int64_t> tensorInts(const Tensor &t)
{
    std::vector<std::int64_t> v;
    for (std::int64_t i = 0; i < t.numel(); ++i)
        v.push_back(std::int64_t(valueAt(t, i)));
    return v;
}

// One sequence of a tokenizer call (row `row` of a batched entry, or -1) against the expected lists.
inline void checkTokenizerSequence(const HfLayoutTokenizer &tok, const nlohmann::json &entry, int row)
{
    auto pick = [row](const nlohmann::json &j) -> const nlohmann::json & { return row < 0 ? j : j[std::size_t(row)]; };
    const nlohmann::json &expected = entry["expected"], &derived = entry["derived"], &call = entry["call_kwargs"];
    const nlohmann::json &labelsJson = entry["word_labels"].is_null() ? entry["word_labels"] : pick(entry["word_labels"]);
    const std::vector<int> labels = labelsJson.is_null() ? std::vector<int>() : caseInts(labelsJson);
    const LayoutTokens got = tok.encode(caseWords(pick(entry["words"])), caseBoxes(pick(entry["boxes"])),
                                        labelsJson.is_null() ? nullptr : &labels, call.value("max_length", 0),
                                        call.value("truncation", false), call.value("padding", std::string()) == "max_length");
    std::vector<std::int64_t> bbox;
    for (const WordBox &b : got.bbox)
        bbox.insert(bbox.end(), {b.x0, b.y0, b.x1, b.y1});
    QCOMPARE(got.inputIds, caseInts(pick(expected["input_ids"])));
    QCOMPARE(bbox, caseFlatInts(pick(expected["bbox"])));
    QCOMPARE(got.attentionMask, caseInts(pick(expected["attention_mask"])));
    if (expected.contains("labels"))
        QCOMPARE(got.labels, caseInts(pick(expected["labels"])));
    else
        QVERIFY(got.labels.empty());
    QCOMPARE(got.wordIds, caseInts(pick(derived["word_ids"])));
    if (derived.contains("tokens")) {
        std::vector<std::string> tokens;
        for (int id : got.inputIds) tokens.push_back(tok.tokenizer().idToPiece(id));
        QCOMPARE(tokens, caseWords(derived["tokens"]));
    }
    if (derived.contains("n_tokens_without_truncation")) // <s> and </s> included there
        QCOMPARE(got.tokensWithoutTruncation + 2, derived["n_tokens_without_truncation"].get<int>());
    if (derived.contains("word_tokens")) { // tokenize(word): a symbol missing from the vocabulary is <unk>
        const nlohmann::json &wordTokens = derived["word_tokens"];
        const std::vector<std::string> words = caseWords(entry["words"]);
        for (std::size_t k = 0; k < words.size(); ++k) {
            std::vector<int> want;
            for (const auto &t : wordTokens[k]) {
                const int id = tok.tokenizer().pieceToId(t.get<std::string>());
                want.push_back(id >= 0 ? id : tok.tokenizer().unkId());
            }
            QVERIFY2(tok.tokenizer().encodeWord(words[k]) == want, qPrintable(QStringLiteral("word %1").arg(k)));
        }
    }
}

inline void checkLayoutLMv3TokenizerCaseUnguarded(const QString &caseDir);
inline void checkLayoutLMv3PipelineCaseUnguarded(const QString &caseDir);

// A malformed case file (a json or Folio exception) fails the test, naming the case.
inline void checkLayoutLMv3TokenizerCase(const QString &caseDir)
{
    try {
        checkLayoutLMv3TokenizerCaseUnguarded(caseDir);
    } catch (const std::exception &e) {
        QFAIL(qPrintable(caseDir + QStringLiteral(": ") + QString::fromUtf8(e.what())));
    }
}

inline void checkLayoutLMv3PipelineCase(const QString &caseDir)
{
    try {
        checkLayoutLMv3PipelineCaseUnguarded(caseDir);
    } catch (const std::exception &e) {
        QFAIL(qPrintable(caseDir + QStringLiteral(": ") + QString::fromUtf8(e.what())));
    }
}

inline void checkLayoutLMv3TokenizerCaseUnguarded(const QString &caseDir)
{
    const nlohmann::json cases = readCaseJson(caseDir + QStringLiteral("/cases.json"));
    QVERIFY2(cases.is_object() && cases.contains("cases"), qPrintable(caseDir + ": cases.json unreadable"));
    const std::string tokDir = (caseDir + QStringLiteral("/") +
                                QString::fromStdString(cases.value("tokenizer_folder", std::string("tokenizer")))).toStdString();
    std::vector<const nlohmann::json *> entries;
    for (const char *group : {"cases", "variants"})
        if (cases.contains(group))
            for (const auto &e : cases[group]) entries.push_back(&e);
    if (cases.contains("batch")) entries.push_back(&cases["batch"]);
    QVERIFY(!entries.empty());
    for (const nlohmann::json *e : entries) {
        const nlohmann::json &entry = *e;
        HfLayoutTokenizerConfig config = HfLayoutTokenizerConfig::fromDirectory(tokDir);
        const nlohmann::json &init = entry["init_kwargs"];
        if (init.contains("add_prefix_space")) config.addPrefixSpace = init["add_prefix_space"].get<bool>();
        if (init.contains("only_label_first_subword")) config.onlyLabelFirstSubword = init["only_label_first_subword"].get<bool>();
        const HfLayoutTokenizer tok = HfLayoutTokenizer::fromDirectory(tokDir, config);
        const std::size_t rows = entry.value("batched", false) ? entry["words"].size() : 1;
        for (std::size_t r = 0; r < rows; ++r) {
            checkTokenizerSequence(tok, entry, entry.value("batched", false) ? int(r) : -1);
            if (QTest::currentTestFailed()) {
                qWarning("tokenizer call '%s' differs from the reference", entry.value("name", std::string("?")).c_str());
                return;
            }
        }
    }
    qInfo("%s: %d tokenizer calls equal the reference", qPrintable(caseDir), int(entries.size()));
}

inline void checkLayoutLMv3PipelineCaseUnguarded(const QString &caseDir)
{
    const nlohmann::json docs = readCaseJson(caseDir + QStringLiteral("/documents.json"));
    const nlohmann::json expected = readCaseJson(caseDir + QStringLiteral("/expected.json"));
    QVERIFY2(docs.is_object() && expected.is_object(), qPrintable(caseDir + ": documents.json / expected.json unreadable"));
    const TensorMap outputs = readSafetensors((caseDir + QStringLiteral("/outputs.safetensors")).toStdString());
    HfTokenClassifier classifier;
    std::string error;
    QVERIFY2(classifier.load((caseDir + QStringLiteral("/checkpoint")).toStdString(), &error), error.c_str());
    for (std::size_t i = 0; i < docs["documents"].size(); ++i) {
        const nlohmann::json &doc = docs["documents"][i];
        const nlohmann::json &want = expected["documents"][i];
        const std::string name = doc.value("name", std::string("?"));
        const WordLabelling got = classifier.label(caseWords(doc["words"]), caseBoxes(doc["boxes"]),
                                                   HfTokenClassifier::LongPages::Truncate);
        QVERIFY2(got.ok, (name + ": " + got.error).c_str());
        QCOMPARE(got.windows.size(), std::size_t(1));
        const TensorMap &w = got.windows.front();
        QCOMPARE(tensorInts(w.at("input_ids")), caseFlatInts(want["input_ids"]));
        QCOMPARE(tensorInts(w.at("bbox")), caseFlatInts(want["bbox"]));
        QCOMPARE(tensorInts(w.at("attention_mask")), caseFlatInts(want["attention_mask"]));
        std::vector<std::int64_t> wordIds(got.windowWordIds.front().begin(), got.windowWordIds.front().end());
        QCOMPARE(wordIds, caseFlatInts(want["word_ids"]));
        const std::string key = "doc" + std::to_string(i) + ".logits";
        QVERIFY2(outputs.count(key), (caseDir.toStdString() + ": outputs.safetensors has no " + key).c_str());
        const Diff d = compareTensors(w.at("logits"), outputs.at(key), 1e-5, 1e-4);
        qInfo("%s: logits max|diff| %.3g", name.c_str(), d.maxAbs);
        QVERIFY2(d.ok, (name + ": " + d.message).c_str());
        for (const auto &ew : want["words"]) {
            const WordLabel &l = got.words[ew["index"].get<std::size_t>()];
            if (ew["pred_label"].is_null()) {
                QCOMPARE(l.labelId, -1);
            } else {
                QCOMPARE(l.label, ew["pred_label"].get<std::string>());
                QVERIFY(std::abs(l.margin - ew["margin"].get<float>()) < 1e-4f);
            }
        }
    }
}

} // namespace folio::inference::test
