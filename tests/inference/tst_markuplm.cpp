// MarkupLM beyond the parity cases (tst_inference_parity checks those): the tokenizer's bad folders
// (missing vocab/merges/config, a config without tags_dict) refused naming the file, the xpath
// rule's edges, the QA head (qa_outputs -> start/end logits), and the model's bad inputs.
#include "document/html/markupnodes.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/models/hfmarkuplm.h"
#include "inference/errors.h"
#include "inference/models/modelrunner.h"
#include "inference/tokenizers/markuplmtokenizer.h"
#include "tensorcompare.h"
#include "tests/common/testdata.h"
#include "tests/common/tinymarkuplm.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace folio::inference;

namespace {

QString newFixture(const QString &name)
{
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-new/") + name);
}

// The error of loading `dir`, empty when it loads.
std::string loadError(const QString &dir)
{
    try {
        MarkupLMTokenizer::fromDirectory(dir.toStdString());
    } catch (const InferenceError &e) {
        return e.what();
    }
    return {};
}

void copyTokenizer(const QString &from, const QString &to, const QStringList &skip = {})
{
    folio::test::copyFolderFiles(from, to, skip);
}

QString makeCheckpoint(const QString &dir, bool qa)
{
    return folio::test::makeTinyMarkupLM(dir, qa);
}

std::vector<std::string> utf8(const QStringList &l)
{
    std::vector<std::string> v;
    for (const QString &s : l) v.push_back(s.toStdString());
    return v;
}

const QByteArray kProductPage = "<html><head><title>Blue Mug &amp; Co.</title></head><body><div><h1>Blue Mug</h1>"
                                "<p>Price: <b>$12.50</b> (incl. VAT)</p><ul><li>Ceramic</li><li>350 ml</li>"
                                "<li>Dishwasher-safe</li></ul><p>5 &amp;lt; 6</p></div><!-- promo banner -->"
                                "<script>var x = 1;</script><span>Rated 4.5/5</span></body></html>";

} // namespace

class TestMarkupLM : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tokenizerFolderProblemsNameTheFile()
    {
        const QString tok = newFixture(QStringLiteral("markuplm_tokenizer/tokenizer"));
        FOLIO_REQUIRE_DATA(tok);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QVERIFY2(loadError(tok).empty(), loadError(tok).c_str());
        for (const QString &missing : {QStringLiteral("vocab.json"), QStringLiteral("merges.txt"), QStringLiteral("tokenizer_config.json")}) {
            const QString dir = tmp.path() + "/no-" + missing;
            copyTokenizer(tok, dir, {missing});
            const std::string error = loadError(dir);
            QVERIFY2(error.find((dir + "/" + missing).toStdString()) != std::string::npos, error.c_str());
        }
        // tokenizer_config.json without tags_dict, and with a tag id that is not an integer.
        std::ifstream in((tok + "/tokenizer_config.json").toStdString());
        const nlohmann::json config = nlohmann::json::parse(in);
        for (int variant = 0; variant < 3; ++variant) {
            const QString dir = tmp.path() + "/config" + QString::number(variant);
            copyTokenizer(tok, dir, {QStringLiteral("tokenizer_config.json")});
            nlohmann::json c = config;
            if (variant == 0) c.erase("tags_dict");
            if (variant == 1) c["tags_dict"]["div"] = "four";
            if (variant == 2) c["max_depth"] = 0;
            std::ofstream((dir + "/tokenizer_config.json").toStdString()) << c.dump();
            const std::string error = loadError(dir);
            QVERIFY2(error.find((dir + "/tokenizer_config.json").toStdString()) != std::string::npos, error.c_str());
            QVERIFY2(error.find(variant == 2 ? "max_depth" : "tags_dict") != std::string::npos, error.c_str());
        }
    }

    void xpathRule()
    {
        const QString tokDir = newFixture(QStringLiteral("markuplm_tokenizer/tokenizer"));
        FOLIO_REQUIRE_DATA(tokDir);
        const MarkupLMTokenizer tok = MarkupLMTokenizer::fromDirectory(tokDir.toStdString());
        // max_depth 8, max_width 30, pad_width 31, 20 tags: unknown 20, pad 21.
        XPathIds ids = tok.xpathIds("/html/body/table/tr[45]/td[3]");
        QCOMPARE(ids.tags, std::vector<int>({9, 2, 15, 18, 16, 21, 21, 21}));
        QCOMPARE(ids.subs, std::vector<int>({0, 0, 0, 30, 3, 31, 31, 31}));
        ids = tok.xpathIds("/html/body/x-card/div/div/div/div/div/div/span[2]");
        QCOMPARE(ids.tags, std::vector<int>({9, 2, 20, 4, 4, 4, 4, 4}));
        QCOMPARE(ids.subs, std::vector<int>(8, 0));
        ids = tok.xpathIds("");
        QCOMPARE(ids.tags, std::vector<int>(8, 21));
        QCOMPARE(ids.subs, std::vector<int>(8, 31));
        QVERIFY_THROWS_EXCEPTION(InferenceError, tok.xpathIds("/html/body/div[x]"));
        // Mismatched lists and a max_length without room for the specials are refused.
        QVERIFY_THROWS_EXCEPTION(InferenceError, tok.encode({"a", "b"}, {"/html"}));
        MarkupEncodeOptions options;
        options.truncation = true;
        options.maxLength = 1;
        QVERIFY_THROWS_EXCEPTION(InferenceError, tok.encode({"a"}, {"/html"}, nullptr, options));
        // A 10,000-unit xpath keeps max_depth units.
        std::string deep;
        for (int i = 0; i < 10000; ++i) deep += "/div";
        QCOMPARE(tok.xpathIds(deep).tags, std::vector<int>(8, 4));
    }

    // MarkupLMForQuestionAnswering: qa_outputs [2, D]; start/end logits are its two columns.
    void questionAnsweringHead()
    {
        const QString src = newFixture(QStringLiteral("markuplm_tokcls"));
        FOLIO_REQUIRE_DATA(src);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        TensorMap weights = readSafetensors((src + "/model.safetensors").toStdString());
        const Tensor w = weights.at("classifier.weight"), b = weights.at("classifier.bias");
        const std::int64_t d = w.shape[1];
        weights.erase("classifier.weight");
        weights.erase("classifier.bias");
        weights["qa_outputs.weight"] = Tensor::fromFloats({2, d}, std::vector<float>(w.data<float>(), w.data<float>() + 2 * d));
        weights["qa_outputs.bias"] = Tensor::fromFloats({2}, std::vector<float>(b.data<float>(), b.data<float>() + 2));
        writeSafetensors((tmp.path() + "/model.safetensors").toStdString(), weights);
        std::ifstream in((src + "/config.json").toStdString());
        nlohmann::json config = nlohmann::json::parse(in);
        config.erase("id2label");
        config.erase("label2id");
        std::ofstream((tmp.path() + "/config.json").toStdString()) << config.dump();

        ModelRunner qa, tokcls;
        std::string error;
        QVERIFY2(qa.load(tmp.path().toStdString(), &error), error.c_str());
        QVERIFY2(tokcls.load(src.toStdString(), &error), error.c_str());
        const TensorMap inputs = readSafetensors((src + "/inputs.safetensors").toStdString());
        const RunResult a = qa.run(inputs), t = tokcls.run(inputs);
        QVERIFY2(a.ok, a.error.c_str());
        QVERIFY2(t.ok, t.error.c_str());
        const Tensor &logits = t.outputs.at("logits"), &start = a.outputs.at("start_logits"), &end = a.outputs.at("end_logits");
        QCOMPARE(start.shape, std::vector<std::int64_t>({logits.shape[0], logits.shape[1]}));
        const std::int64_t labels = logits.shape[2];
        for (std::int64_t i = 0; i < start.numel(); ++i) {
            // The same dot products; a GEMM of another width may round the last bit differently.
            QVERIFY(std::abs(test::valueAt(start, i) - test::valueAt(logits, i * labels)) <= 1e-5);
            QVERIFY(std::abs(test::valueAt(end, i) - test::valueAt(logits, i * labels + 1)) <= 1e-5);
        }
    }

    // The facade over a page's nodes: the first window is the reference's truncated call, nodes past
    // it are labelled from later windows, every non-empty node gets a label.
    void facadeLabelsEveryNode()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString dir = makeCheckpoint(tmp.path() + "/tokcls", false);
        FOLIO_REQUIRE_DATA(dir);
        HfMarkupLM model;
        std::string error;
        QVERIFY2(model.load(dir.toStdString(), &error), error.c_str());
        QVERIFY(!model.isQuestionAnswering());
        QCOMPARE(int(model.labels().size()), 5);
        QCOMPARE(model.maxTokens(), 62); // max_position_embeddings 64 - pad 1 - 1
        const folio::MarkupNodeList page = folio::extractMarkupNodes(kProductPage, QStringLiteral("product.html"));
        QVERIFY2(page.ok, qPrintable(page.error));
        std::vector<std::string> nodes = utf8(page.nodes), xpaths = utf8(page.xpaths);
        nodes.insert(nodes.begin() + 1, std::string()); // an empty node gets no label
        xpaths.insert(xpaths.begin() + 1, "/html/body");
        const MarkupNodeLabelling r = model.label(nodes, xpaths);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.nodes.size(), nodes.size());
        QVERIFY(r.windows.size() >= 2); // 70+ node tokens, 60 per window
        for (std::size_t n = 0; n < nodes.size(); ++n)
            QVERIFY2((r.nodes[n].labelId >= 0) == !nodes[n].empty(), qPrintable(QStringLiteral("node %1").arg(n)));
        // Window 0 is the tokenizer's own truncated call.
        MarkupEncodeOptions options;
        options.maxLength = model.maxTokens();
        options.truncation = true;
        const MarkupTokens first = model.tokenizer()->encode(nodes, xpaths, nullptr, options);
        const Tensor &ids = r.windows[0].at("input_ids");
        QCOMPARE(ids.numel(), std::int64_t(first.inputIds.size()));
        for (std::int64_t i = 0; i < ids.numel(); ++i)
            QCOMPARE(int(test::valueAt(ids, i)), first.inputIds[std::size_t(i)]);
        QCOMPARE(r.windowNodeIds[0], first.nodeIds);

        // A folder that fails to load leaves the loaded one in place.
        QVERIFY(!model.load((tmp.path() + "/nothing").toStdString(), &error));
        QVERIFY(model.isLoaded() && !model.isQuestionAnswering());
    }

    void facadeAnswersQuestions()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString dir = makeCheckpoint(tmp.path() + "/qa", true);
        FOLIO_REQUIRE_DATA(dir);
        HfMarkupLM model;
        std::string error;
        QVERIFY2(model.load(dir.toStdString(), &error), error.c_str());
        QVERIFY(model.isQuestionAnswering());
        const folio::MarkupNodeList page = folio::extractMarkupNodes(kProductPage, QStringLiteral("product.html"));
        QVERIFY2(page.ok, qPrintable(page.error));
        const MarkupAnswer a = model.answer("What is the price?", utf8(page.nodes), utf8(page.xpaths), 5);
        QVERIFY2(a.ok, a.error.c_str());
        QVERIFY(a.found);
        QVERIFY(a.firstNode >= 0 && a.firstNode <= a.lastNode && a.lastNode < page.nodes.size());
        QVERIFY(a.endToken >= a.startToken && a.endToken - a.startToken < 5);
        QCOMPARE(int(a.tokenIds.size()), a.endToken - a.startToken + 1);
        QVERIFY2(a.confidence > 0 && a.confidence <= 1, qPrintable(QString::number(a.confidence))); // p(start) * p(end)
        // The token classifier is no QA model.
        HfMarkupLM tokcls;
        QVERIFY2(tokcls.load(makeCheckpoint(tmp.path() + "/tokcls", false).toStdString(), &error), error.c_str());
        QVERIFY(!tokcls.answer("q", {"a"}, {"/html"}).ok);
    }

    void badModelInputs()
    {
        const QString src = newFixture(QStringLiteral("markuplm_tokcls"));
        FOLIO_REQUIRE_DATA(src);
        ModelRunner runner;
        std::string error;
        QVERIFY2(runner.load(src.toStdString(), &error), error.c_str());
        const TensorMap inputs = readSafetensors((src + "/inputs.safetensors").toStdString());
        TensorMap shallow = inputs;
        shallow["xpath_tags_seq"] = Tensor::fromInt64({2, 24, 7}, std::vector<std::int64_t>(2 * 24 * 7, 0));
        RunResult r = runner.run(shallow);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("xpath_tags_seq") != std::string::npos && r.error.find("max_depth") != std::string::npos, r.error.c_str());
        TensorMap outOfRange = inputs;
        outOfRange["xpath_subs_seq"] = Tensor::fromInt64({2, 24, 8}, std::vector<std::int64_t>(2 * 24 * 8, 32));
        r = runner.run(outOfRange);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("xpath_subs_seq") != std::string::npos, r.error.c_str());

        // A config whose max_depth does not match the weights: the missing table is named.
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QFile::link(src + "/model.safetensors", tmp.path() + "/model.safetensors");
        std::ifstream in((src + "/config.json").toStdString());
        nlohmann::json config = nlohmann::json::parse(in);
        config["max_depth"] = 9;
        std::ofstream((tmp.path() + "/config.json").toStdString()) << config.dump();
        ModelRunner wrong;
        QVERIFY(!wrong.load(tmp.path().toStdString(), &error));
        QVERIFY2(error.find("xpath_tag_sub_embeddings.8") != std::string::npos || error.find("xpath_unitseq2_inner") != std::string::npos,
                 error.c_str());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestMarkupLM)
#include "tst_markuplm.moc"
