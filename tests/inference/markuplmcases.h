#pragma once
// The two MarkupLM parity case kinds (../shared/fixtures/parity-new READMEs), checked wherever such
// a case folder is found (tst_inference_parity dispatches here):
//  - tokenizer case (cases.json + tokenizer/ whose tokenizer_config.json names MarkupLMTokenizer):
//    every page gives the reference feature extractor's nodes and xpaths (extractMarkupNodes), and
//    every recorded call (cases, variants, the padded batch) gives the reference's input_ids,
//    token_type_ids, attention_mask, xpath_tags_seq, xpath_subs_seq, labels, node index and tokens;
//  - model case (config.json model_type "markuplm"): every non-debug output of outputs.safetensors
//    within atol 1e-5 / rtol 1e-4 (integers exact); `noxpath.<name>` is <name> from a second run
//    without xpath_tags_seq / xpath_subs_seq (the model fills them with the config's pad ids).
// QCOMPARE/QVERIFY inside: call from a test function; a malformed case file fails naming the case.

#include "document/html/markupnodes.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/models/modelrunner.h"
#include "inference/tokenizers/markuplmtokenizer.h"
#include "layoutlmv3cases.h"
#include "tensorcompare.h"

#include <QFile>
#include <QFileInfo>
#include <QtTest>

namespace folio::inference::test {

// True when <dir>/tokenizer/tokenizer_config.json names a MarkupLM tokenizer.
inline bool isMarkupLMTokenizerCase(const QString &dir)
{
    QFile f(dir + QStringLiteral("/tokenizer/tokenizer_config.json"));
    if (!QFileInfo::exists(dir + QStringLiteral("/cases.json")) || !f.open(QIODevice::ReadOnly))
        return false;
    return f.readAll().contains("\"MarkupLMTokenizer");
}

inline MarkupLMTokenizer markupTokenizerFor(const QString &tokDir, const nlohmann::json &initKwargs)
{
    MarkupLMTokenizerConfig config = MarkupLMTokenizerConfig::fromDirectory(tokDir.toStdString());
    if (initKwargs.is_object()) {
        if (initKwargs.contains("add_prefix_space"))
            config.base.addPrefixSpace = initKwargs["add_prefix_space"].get<bool>();
        if (initKwargs.contains("only_label_first_subword"))
            config.base.onlyLabelFirstSubword = initKwargs["only_label_first_subword"].get<bool>();
    }
    return MarkupLMTokenizer::fromDirectory(tokDir.toStdString(), config);
}

// One sequence (row `row` of a batched entry, or -1) against the expected lists.
inline void checkMarkupSequence(const MarkupLMTokenizer &tok, const nlohmann::json &entry, int row, const QString &what)
{
    auto pick = [row](const nlohmann::json &j) -> const nlohmann::json & { return row < 0 ? j : j[std::size_t(row)]; };
    const nlohmann::json &expected = entry["expected"], &call = entry["call_kwargs"];
    MarkupEncodeOptions options;
    options.maxLength = call.value("max_length", 0);
    options.truncation = call.contains("truncation") && (call["truncation"].is_string() || call["truncation"].get<bool>());
    options.padToMaxLength = call.value("padding", std::string()) == "max_length";
    const std::vector<std::string> nodes = caseWords(pick(entry["nodes"])), xpaths = caseWords(pick(entry["xpaths"]));
    const bool withLabels = !entry["node_labels"].is_null();
    const std::vector<int> labels = withLabels ? caseInts(pick(entry["node_labels"])) : std::vector<int>();
    const bool question = entry.contains("question") && !entry["question"].is_null();
    const MarkupTokens got = !question
        ? tok.encode(nodes, xpaths, withLabels ? &labels : nullptr, options)
        : tok.encodeQuestion(pick(entry["question"]).get<std::string>(), nodes, xpaths, options);
    const QByteArray where = what.toUtf8();
    QVERIFY2(got.inputIds == caseInts(pick(expected["input_ids"])), where + ": input_ids");
    QVERIFY2(got.tokenTypeIds == caseInts(pick(expected["token_type_ids"])), where + ": token_type_ids");
    QVERIFY2(got.attentionMask == caseInts(pick(expected["attention_mask"])), where + ": attention_mask");
    const std::vector<std::int64_t> tags(got.xpathTags.begin(), got.xpathTags.end()), subs(got.xpathSubs.begin(), got.xpathSubs.end());
    QVERIFY2(tags == caseFlatInts(pick(expected["xpath_tags_seq"])), where + ": xpath_tags_seq");
    QVERIFY2(subs == caseFlatInts(pick(expected["xpath_subs_seq"])), where + ": xpath_subs_seq");
    if (expected.contains("labels"))
        QVERIFY2(got.labels == caseInts(pick(expected["labels"])), where + ": labels");
    else
        QVERIFY2(got.labels.empty(), where + ": labels without node labels");
    if (row < 0 && entry.contains("derived")) {
        const nlohmann::json &derived = entry["derived"];
        if (derived.contains("tokens")) {
            std::vector<std::string> tokens;
            for (int id : got.inputIds) tokens.push_back(tok.tokenizer().idToPiece(id));
            QVERIFY2(tokens == caseWords(derived["tokens"]), where + ": tokens");
        }
        if (derived.contains("node_index")) {
            // The reference's question positions are null too; ours are -1 like the specials.
            QVERIFY2(got.nodeIds == caseInts(derived["node_index"]), where + ": node index");
        }
    }
}

inline void checkMarkupLMTokenizerCaseUnguarded(const QString &dir)
{
    const nlohmann::json cases = readCaseJson(dir + QStringLiteral("/cases.json"));
    QVERIFY2(cases.is_object(), qPrintable(dir + ": cases.json is not a JSON object"));
    const QString tokDir = dir + QStringLiteral("/tokenizer");
    int checked = 0;
    // Pages through the feature extractor.
    for (auto it = cases["pages"].begin(); it != cases["pages"].end(); ++it) {
        const QString page = QString::fromStdString(it.key());
        const MarkupNodeList nodes = extractMarkupNodes(QByteArray::fromStdString(it.value()["html"].get<std::string>()), page);
        QVERIFY2(nodes.ok, qPrintable(nodes.error));
        QStringList wantNodes, wantXPaths;
        for (const auto &n : it.value()["nodes"]) wantNodes << QString::fromStdString(n.get<std::string>());
        for (const auto &x : it.value()["xpaths"]) wantXPaths << QString::fromStdString(x.get<std::string>());
        QCOMPARE(nodes.nodes, wantNodes);
        QCOMPARE(nodes.xpaths, wantXPaths);
        ++checked;
    }
    for (const char *group : {"cases", "variants"})
        for (const nlohmann::json &entry : cases[group]) {
            const MarkupLMTokenizer tok = markupTokenizerFor(tokDir, entry["init_kwargs"]);
            checkMarkupSequence(tok, entry, -1, QString::fromStdString(entry["name"].get<std::string>()));
            if (QTest::currentTestFailed())
                return;
            // Each recorded xpath's ids, as the reference's get_xpath_seq gives them.
            const nlohmann::json &perNode = entry["derived"]["xpath_seq_per_node"];
            for (std::size_t k = 0; k < perNode.size() && k < entry["xpaths"].size(); ++k) {
                const nlohmann::json &want = perNode[k];
                if (!want.is_array() || want.size() != 2)
                    continue; // an entry in another shape is not ours to read
                const XPathIds ids = tok.xpathIds(entry["xpaths"][k].get<std::string>());
                QVERIFY2(ids.tags == caseInts(want[0]) && ids.subs == caseInts(want[1]),
                         qPrintable(QStringLiteral("%1: xpath %2").arg(QString::fromStdString(entry["name"].get<std::string>())).arg(k)));
            }
            ++checked;
        }
    if (cases.contains("batch")) {
        const nlohmann::json &batch = cases["batch"];
        const MarkupLMTokenizer tok = markupTokenizerFor(tokDir, batch.value("init_kwargs", nlohmann::json()));
        for (std::size_t row = 0; row < batch["nodes"].size(); ++row) {
            checkMarkupSequence(tok, batch, int(row), QStringLiteral("batch row %1").arg(row));
            if (QTest::currentTestFailed())
                return;
        }
        ++checked;
    }
    qInfo("%s: %d MarkupLM pages/calls identical to the reference", qPrintable(QFileInfo(dir).fileName()), checked);
    QVERIFY(checked > 0);
}

inline void checkMarkupLMTokenizerCase(const QString &dir)
{
    try {
        checkMarkupLMTokenizerCaseUnguarded(dir);
    } catch (const std::exception &e) {
        QFAIL(qPrintable(dir + QStringLiteral(": ") + QString::fromUtf8(e.what())));
    }
}

inline void checkMarkupLMModelCase(const QString &dir)
{
    const QString caseName = QFileInfo(dir).fileName();
    configureThreads();
    ModelRunner runner;
    std::string error;
    QVERIFY2(runner.load(dir.toStdString(), &error), error.c_str());
    const TensorMap inputs = readSafetensors((dir + "/inputs.safetensors").toStdString());
    const TensorMap expected = readSafetensors((dir + "/outputs.safetensors").toStdString());
    RunOptions options;
    options.trace = true;
    const RunResult full = runner.run(inputs, options);
    QVERIFY2(full.ok, full.error.c_str());
    TensorMap noXPathInputs = inputs;
    noXPathInputs.erase("xpath_tags_seq");
    noXPathInputs.erase("xpath_subs_seq");
    const RunResult noXPath = runner.run(noXPathInputs, RunOptions());
    QVERIFY2(noXPath.ok, noXPath.error.c_str());
    bool ok = true;
    int checked = 0;
    for (const auto &[name, want] : expected) {
        const bool fromNoXPath = name.rfind("noxpath.", 0) == 0;
        const RunResult &run = fromNoXPath ? noXPath : full;
        const std::string produced = fromNoXPath ? name.substr(8) : name;
        const auto it = run.outputs.find(produced);
        // debug.* (bisecting aids) are compared when produced, never required.
        if (name.rfind("debug.", 0) == 0 && it == run.outputs.end())
            continue;
        QVERIFY2(it != run.outputs.end(), ("output '" + name + "' not produced").c_str());
        const bool exact = want.dtype != DType::F32 && want.dtype != DType::F64;
        const auto d = compareTensors(it->second, want, exact ? 0 : 1e-5, exact ? 0 : 1e-4);
        qInfo("%s: %-32s max|diff| %.3g %s", qPrintable(caseName), name.c_str(), d.maxAbs, d.ok ? "ok" : "FAIL");
        if (!d.ok) {
            qWarning("%s: %s: %s", qPrintable(caseName), name.c_str(), d.message.c_str());
            ok = false;
        }
        ++checked;
    }
    QVERIFY(checked > 0);
    QVERIFY2(ok, "outputs differ from the reference beyond atol 1e-5 / rtol 1e-4");
}

} // namespace folio::inference::test
