// WebFormer unit tests: the blockwise/edge-list attention equals the dense masked [L, L] reference
// (outputs and per-pattern attention probabilities), DOM edge types of a hand-written tree, input
// pruning and H2T edges, span decoding, the ModelRunner adapter.
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/webformer/detail/webformer.h"
#include "inference/models/modelrunner.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/webformer/webformereval.h"
#include "inference/webformer/webformerinput.h"
#include "tests/common/testdata.h"

#include <QtTest>

#include <algorithm>
#include <fstream>
#include <set>
#include <tuple>

using namespace folio::inference;
using namespace folio::inference::detail;

namespace {

WebNode el(int parent, const std::string &tag) { return WebNode{parent, tag, "/" + tag, false, {}}; }
WebNode tx(int parent, std::vector<std::string> words) { return WebNode{parent, "#text", "/text()", true, std::move(words)}; }

// html > (head > title > "t"), (body > div > (p > "a b c", img, p > "d e", script, p > "f g h i"), ul > li*4 > text)
WebPage smallPage(int wordsPerLi = 3)
{
    WebPage p;
    p.id = "small";
    p.nodes = {el(-1, "html"), el(0, "head"), el(1, "title"), tx(2, {"Book", "Title"}), el(0, "body"), el(4, "div"),
               el(5, "p"), tx(6, {"alpha", "beta", "gamma"}), el(5, "img"), el(5, "p"), tx(9, {"delta", "epsilon"}),
               el(5, "script"), el(5, "p"), tx(12, {"by", "Jane", "Doe", "today"}), el(4, "ul")};
    for (int i = 0; i < 4; ++i) {
        const int li = int(p.nodes.size());
        p.nodes.push_back(el(14, "li"));
        std::vector<std::string> w;
        for (int k = 0; k < wordsPerLi; ++k)
            w.push_back("item" + std::to_string(i) + "w" + std::to_string(k));
        p.nodes.push_back(tx(li, w));
    }
    return p;
}

// A vocabulary of every word on the page.
WebVocab pageVocab(const WebPage &page, int maxSize)
{
    std::vector<std::string> words;
    for (const auto &n : page.nodes)
        words.insert(words.end(), n.words.begin(), n.words.end());
    return WebVocab::build(words, maxSize);
}

// The 2-layer, 16-wide model the gradient and runner tests use.
WebFormerConfig tinyConfig()
{
    WebFormerConfig cfg;
    cfg.hidden = 16;
    cfg.heads = 2;
    cfg.layers = 2;
    cfg.intermediate = 32;
    cfg.radius = 2;
    return cfg;
}

std::set<std::tuple<int, int, int>> edgeSet(const std::vector<WebEdge> &e)
{
    std::set<std::tuple<int, int, int>> s;
    for (const auto &x : e)
        s.insert({x.query, x.key, x.type});
    return s;
}

} // namespace

class TestWebFormer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void domEdgeTypes()
    {
        // 0 root; 1,2,3 children of 0; 4,5 children of 2; 6 child of 5
        const std::vector<int> parent = {-1, 0, 0, 0, 2, 2, 5};
        const auto all = edgeSet(buildDomEdges(parent, 0));
        const std::set<std::tuple<int, int, int>> want = {
            {0, 0, EdgeSelf}, {0, 1, EdgeChild}, {0, 2, EdgeChild}, {0, 3, EdgeChild},
            {1, 1, EdgeSelf}, {1, 0, EdgeParent}, {1, 2, EdgeSibling}, {1, 3, EdgeSibling},
            {2, 2, EdgeSelf}, {2, 0, EdgeParent}, {2, 4, EdgeChild}, {2, 5, EdgeChild}, {2, 1, EdgeSibling}, {2, 3, EdgeSibling},
            {3, 3, EdgeSelf}, {3, 0, EdgeParent}, {3, 1, EdgeSibling}, {3, 2, EdgeSibling},
            {4, 4, EdgeSelf}, {4, 2, EdgeParent}, {4, 5, EdgeSibling},
            {5, 5, EdgeSelf}, {5, 2, EdgeParent}, {5, 6, EdgeChild}, {5, 4, EdgeSibling},
            {6, 6, EdgeSelf}, {6, 5, EdgeParent}};
        QCOMPARE(all, want);
        // Sibling window 1: node 1 sees only 2, node 3 only 2.
        const auto w1 = edgeSet(buildDomEdges(parent, 1));
        QVERIFY(w1.count({1, 2, EdgeSibling}) && !w1.count({1, 3, EdgeSibling}));
        QVERIFY(w1.count({3, 2, EdgeSibling}) && !w1.count({3, 1, EdgeSibling}));
        QCOMPARE(int(w1.size()), int(all.size()) - 2);
    }

    void inputsPruneAndLinkText()
    {
        const WebPage page = smallPage();
        const WebVocab vocab = pageVocab(page, 300);
        WebFormerConfig cfg;
        const WebFormerInputs in = buildWebFormerInputs(page, vocab, cfg, {"title", "author"});
        // img and script have no text: dropped. 21 nodes - 2.
        QCOMPARE(in.numHtml(), int(page.nodes.size()) - 2);
        for (int h = 0; h < in.numHtml(); ++h)
            QVERIFY(page.nodes[in.htmlNode[h]].tag != "img" && page.nodes[in.htmlNode[h]].tag != "script");
        QCOMPARE(int(in.words.size()), 2 + 3 + 2 + 4 + 12);
        // Every text token's node is a #text HTML token whose parent is textParent.
        for (int t = 0; t < in.numText(); ++t) {
            QCOMPARE(in.tagIds[in.textNode[t]], std::int64_t(1));
            QCOMPARE(std::int64_t(in.htmlParent[in.textNode[t]]), in.textParent[t]);
        }
        // H2T edges: text node and its parent element attend to each of its tokens; H2F to every field.
        const int N = in.numHtml(), T = in.numText();
        int h2t = 0, h2f = 0;
        for (std::size_t e = 0; e < in.edgeType.size(); ++e) {
            if (in.edgeType[e] == EdgeH2T) {
                const int t = int(in.edgeKey[e]) - N;
                QVERIFY(t >= 0 && t < T);
                QVERIFY(in.edgeQuery[e] == in.textNode[t] || in.edgeQuery[e] == in.textParent[t]);
                ++h2t;
            } else if (in.edgeType[e] == EdgeH2F) {
                QVERIFY(in.edgeKey[e] >= N + T);
                ++h2f;
            } else {
                QVERIFY(in.edgeKey[e] < N);
            }
        }
        QCOMPARE(h2t, 2 * T);
        QCOMPARE(h2f, 2 * N);
        // Gold spans: "Jane Doe" = words 8..9 of the page.
        const auto spans = findGoldSpans(in, {"jane  DOE."});
        QCOMPARE(int(spans.size()), 1);
        QCOMPARE(in.textWord[spans[0].start], 8);
        QCOMPARE(in.textWord[spans[0].end], 9);
        QVERIFY(findGoldSpans(in, {"Jane Smith"}).empty());
        // Truncation.
        cfg.maxTextTokens = 5;
        QVERIFY(buildWebFormerInputs(page, vocab, cfg, {"title"}).truncated);
    }

    void blockwiseEqualsDense_data()
    {
        QTest::addColumn<int>("radius");
        QTest::addColumn<int>("liWords");
        QTest::addColumn<bool>("float64");
        QTest::addColumn<double>("initStd");
        QTest::addColumn<int>("queryRows"); // text queries at a time (0: the default)
        QTest::newRow("r=3, T not a multiple of 4") << 3 << 5 << false << 0.2 << 0;
        QTest::newRow("r=1") << 1 << 2 << false << 0.2 << 0;
        QTest::newRow("r=8, one block") << 8 << 1 << false << 0.2 << 0;
        QTest::newRow("r=16, long") << 16 << 40 << false << 0.2 << 0;
        QTest::newRow("r=16, long, float64, sharp attention") << 16 << 40 << true << 0.6 << 0;
        QTest::newRow("r=5, float64, sharp attention") << 5 << 6 << true << 0.6 << 0;
        // Text queries a chunk of blocks at a time (what long pages get outside training).
        QTest::newRow("r=3, one block a chunk") << 3 << 5 << false << 0.2 << 1;
        QTest::newRow("r=16, long, 2 blocks a chunk, float64") << 16 << 40 << true << 0.6 << 34;
        QTest::newRow("r=5, 3 blocks a chunk, last chunk short") << 5 << 12 << false << 0.2 << 18;
    }
    void blockwiseEqualsDense()
    {
        QFETCH(int, radius);
        QFETCH(int, liWords);
        QFETCH(bool, float64);
        QFETCH(double, initStd);
        QFETCH(int, queryRows);
        const WebPage page = smallPage(liWords);
        const WebVocab vocab = pageVocab(page, 200);
        WebFormerConfig cfg;
        cfg.hidden = 32;
        cfg.heads = 4;
        cfg.layers = 2;
        cfg.intermediate = 64;
        cfg.radius = radius;
        cfg.siblingWindow = 2;
        const WebFormerInputs in = buildWebFormerInputs(page, vocab, cfg, {"title", "author", "publisher"});
        WebFormerModel model(cfg, vocab.size());
        model.initialise(11);
        if (queryRows > 0)
            model.setTextQueryRows(queryRows);
        {
            at::NoGradGuard g;
            for (auto &[name, t] : model.params())
                if (name.find("LayerNorm") == std::string::npos)
                    t.normal_(0.0, initStd); // non-trivial attention
            if (float64)
                model.convert(at::kDouble);
        }
        at::NoGradGuard g;
        const WebTensors t = toWebTensors(in);
        AtMap traceB, traceD;
        const WebEncoded b = model.encode(t, false, WebFormerModel::Form::Blockwise, &traceB);
        const WebEncoded d = model.encode(t, false, WebFormerModel::Form::Dense, &traceD);
        const double diff = std::max({(b.text - d.text).abs().max().item<double>(), (b.html - d.html).abs().max().item<double>(),
                                      (b.field - d.field).abs().max().item<double>()});
        const double tol = float64 ? 1e-10 : 1e-5;
        QVERIFY2(diff < tol, qPrintable(QString("max |blockwise - dense| = %1").arg(diff)));
        QVERIFY((model.startLogits(b) - model.startLogits(d)).abs().max().item<double>() < 10 * tol);

        // Attention probabilities, pattern by pattern, against the dense [H, L, L] rows.
        const int T = in.numText(), N = in.numHtml(), F = in.numFields(), H = cfg.heads, bl = radius + 1;
        QVERIFY(T % bl != 0 || radius == 8 || radius == 1 || radius == 16);
        if (queryRows > 0) {
            const int blocks = (T + bl - 1) / bl, perChunk = std::max(1, queryRows / bl);
            QVERIFY2(blocks > perChunk, "the page fits one chunk: the chunked path is not exercised");
        }
        for (int layer = 0; layer < cfg.layers; ++layer) {
            const std::string p = "attentions." + std::to_string(layer);
            const at::Tensor dense = traceD.at(p); // [H, L, L], order text | HTML | field
            at::Tensor rebuilt = at::zeros_like(dense);
            const at::Tensor t2t = traceB.at(p + ".t2t"), t2g = traceB.at(p + ".t2g"), h2x = traceB.at(p + ".h2x"),
                             f2x = traceB.at(p + ".f2x");
            for (int q = 0; q < T; ++q)
                for (int k = 0; k < 3 * bl; ++k) {
                    const int key = (q / bl - 1) * bl + k;
                    if (key >= 0 && key < T)
                        rebuilt.select(1, q).select(1, key) += t2t[q].select(1, k);
                }
            rebuilt.narrow(1, 0, T).narrow(2, T, N + F).copy_(t2g.permute({1, 0, 2}));
            for (int e = 0; e < int(in.edgeQuery.size()); ++e) {
                const int key = int(in.edgeKey[e]);
                const int col = key < N ? T + key : key < N + T ? key - N : key;
                rebuilt.select(1, T + int(in.edgeQuery[e])).select(1, col) += h2x[e];
            }
            rebuilt.narrow(1, T + N, F).narrow(2, T, N + F).copy_(f2x.permute({1, 0, 2}));
            const double pd = (rebuilt - dense).abs().max().item<double>();
            QVERIFY2(pd < tol, qPrintable(QString("layer %1: attention differs by %2").arg(layer).arg(pd)));
            // every query row sums to one; text rows never reach beyond the radius
            QVERIFY((dense.sum(2) - 1).abs().max().item<double>() < 1e-5);
            QVERIFY(dense.select(1, 0).narrow(1, std::min(T, radius + 1), T - std::min(T, radius + 1)).abs().max().item<double>() == 0.0
                    || T <= radius + 1);
        }
        Q_UNUSED(H);
    }

    void gradientsReachEveryPattern()
    {
        const WebPage page = smallPage(4);
        const WebVocab vocab = pageVocab(page, 200);
        // 2 layers: the last layer's HTML outputs feed nothing, edge embeddings of layer 0 do.
        const WebFormerConfig cfg = tinyConfig();
        WebFormerModel model(cfg, vocab.size());
        model.initialise(3);
        const WebFormerInputs in = buildWebFormerInputs(page, vocab, cfg, {"author"});
        const WebTensors t = toWebTensors(in);
        const WebEncoded e = model.encode(t, true);
        (model.startLogits(e).sum() + model.endLogits(e, at::zeros({1}, at::kLong)).sum()).backward();
        for (const char *n : {"encoder.layer.0.attention.t2t_relative.weight", "encoder.layer.0.attention.t2h_relative.weight",
                              "encoder.layer.0.attention.h2x_edge.weight", "encoder.layer.0.attention.field.weight",
                              "embeddings.tag_embeddings.weight", "span.end.start.weight"}) {
            const at::Tensor g = model.params().at(n).grad();
            QVERIFY2(g.defined() && g.abs().sum().item<double>() > 0, n);
        }
    }

    void modelRunnerWithTrace()
    {
        // A tiny random checkpoint through the ModelRunner registry (model_type "webformer"):
        // start_logits equal the internal model's, and the trace holds every pattern per layer.
        const WebPage page = smallPage(3);
        const WebVocab vocab = pageVocab(page, 200);
        WebFormerConfig cfg = tinyConfig();
        cfg.fields = {"author", "title"};
        WebFormerModel model(cfg, vocab.size());
        model.initialise(9);
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        TensorMap weights;
        for (const auto &[name, t] : model.params())
            weights[name] = fromAten(t.detach());
        writeSafetensors(d + "/model.safetensors", weights);
        std::ofstream(d + "/config.json") << webFormerConfigJson(cfg, vocab.size()).dump();
        vocab.save(d + "/vocab.txt");
        ModelRunner runner;
        std::string error;
        QVERIFY2(runner.load(d, &error), error.c_str());
        QCOMPARE(runner.modelType(), std::string("webformer"));
        const WebFormerInputs in = buildWebFormerInputs(page, vocab, cfg, cfg.fields);
        const WebTensors t = toWebTensors(in);
        TensorMap inputs{{"input_ids", fromAten(t.textIds)}, {"text_node", fromAten(t.textNode)},
                         {"text_parent", fromAten(t.textParent)}, {"tag_ids", fromAten(t.tagIds)},
                         {"edge_query", fromAten(t.edgeQuery)}, {"edge_key", fromAten(t.edgeKey)},
                         {"edge_type", fromAten(t.edgeType)}, {"field_pieces", fromAten(t.fieldPieces)}};
        RunOptions off;
        RunResult r = runner.run(inputs, off);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.outputs.count("start_logits") && !r.outputs.count("attentions.0.t2t")); // trace off: nothing kept
        at::Tensor want;
        {
            at::NoGradGuard g;
            want = model.startLogits(model.encode(t, false)).unsqueeze(0);
        }
        QVERIFY(at::allclose(toAten(r.outputs.at("start_logits")), want, 1e-5, 1e-6));
        RunOptions on;
        on.trace = true;
        r = runner.run(inputs, on);
        QVERIFY2(r.ok, r.error.c_str());
        for (const char *name : {"attentions.0.t2t", "attentions.0.t2g", "attentions.0.h2x", "attentions.0.f2x", "attentions.1.h2x"})
            QVERIFY2(r.outputs.count(name), name);
        QCOMPARE(r.outputs.at("attentions.0.h2x").shape, (std::vector<std::int64_t>{std::int64_t(in.edgeQuery.size()), 2}));
        // Inconsistent index lists are refused with a message, not a crash.
        inputs["edge_key"] = Tensor::fromInt64({1}, {999999});
        inputs["edge_query"] = Tensor::fromInt64({1}, {0});
        inputs["edge_type"] = Tensor::fromInt64({1}, {0});
        r = runner.run(inputs, off);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("inconsistent") != std::string::npos, r.error.c_str());
        // A wrong model_type in config.json is named.
        std::ofstream(d + "/config.json") << R"({"model_type": "webformer", "hidden_size": 15, "num_attention_heads": 2, "vocab_size": 10})";
        WebFormerExtractor ex;
        QVERIFY(!ex.load(d, &error));
        QVERIFY2(error.find("config.json") != std::string::npos, error.c_str());
    }

    void spanDecoding()
    {
        // T = 5; null log-prob -3; best start 2, end conditioned on the start.
        const std::vector<float> start = {-3.0f, -4.0f, -5.0f, -0.2f, -2.0f, -6.0f};
        auto ends = [](int s) {
            std::vector<float> e(5, -9.0f);
            if (s == 2) {
                e[1] = -0.01f; // before the start: never chosen
                e[4] = -0.5f;  // 3 tokens long
                e[3] = -1.0f;
            } else {
                e[s] = -0.1f;
            }
            return e;
        };
        DecodedSpan d = decodeBestSpan(start, ends, 10);
        QVERIFY(d.found);
        QCOMPARE(d.start, 2);
        QCOMPARE(d.end, 4);
        QCOMPARE(d.logProb, double(-0.2f) + double(-0.5f));
        // Max length 2 forbids 2..4: 2..3 wins.
        d = decodeBestSpan(start, ends, 2);
        QCOMPARE(d.end, 3);
        // A confident null wins.
        std::vector<float> nullFirst = start;
        nullFirst[0] = -0.01f;
        QVERIFY(!decodeBestSpan(nullFirst, ends, 10).found);
        // Max length 1: span 2..2 scores -9.2 (below null); expanding more starts finds 3..3 (-2.1);
        // expanding only the best start (top-1) leaves the null answer.
        d = decodeBestSpan(start, ends, 1);
        QVERIFY(d.found);
        QCOMPARE(d.start, 3);
        QCOMPARE(d.end, 3);
        QVERIFY(!decodeBestSpan(start, ends, 1, 1).found);
        QVERIFY(!decodeBestSpan({}, ends, 3).found);
    }

    void relativeIds()
    {
        QCOMPARE(webRelativeId(0, 4), std::int64_t(0));
        QCOMPARE(webRelativeId(3, 4), std::int64_t(3));
        QCOMPARE(webRelativeId(9, 4), std::int64_t(4));
        QCOMPARE(webRelativeId(-1, 4), std::int64_t(5));
        QCOMPARE(webRelativeId(-9, 4), std::int64_t(8));
    }

    void scorerRules()
    {
        PageFieldValues gold;
        gold["p1"]["a"] = {"X &amp; Y"};
        gold["p2"]["a"] = {};          // no value: a prediction is a false positive
        gold["p3"]["a"] = {"v1", "V2"};
        std::map<std::string, std::map<std::string, std::string>> pred;
        pred["p1"]["a"] = " x & y. ";
        pred["p2"]["a"] = "something";
        pred["p3"]["a"] = "v2";
        const PageLevelScore s = scorePageLevel(pred, gold);
        QCOMPARE(int(s.fields.size()), 1);
        QCOMPARE(s.fields[0].tp, 2);
        QCOMPARE(s.fields[0].fp, 1);
        QCOMPARE(s.fields[0].fn, 0);
        QCOMPARE(s.precision, 2.0 / 3.0);
        QCOMPARE(s.recall, 1.0);
        QCOMPARE(normaliseFieldValue("  : 978&#48;\xC2\xA0 Z  "), std::string("9780 z"));
    }

    void vocabRoundTrip()
    {
        const WebVocab v = WebVocab::build({"Books", "books", "bookstore", "Zebra", "zebra", "9780316125581"}, 100);
        QCOMPARE(v.piece(0), std::string("[PAD]"));
        const std::vector<int> ids = v.encode("Bookstores", 0);
        QVERIFY(!ids.empty());
        std::string joined;
        for (int id : ids)
            joined += v.piece(id).rfind("##", 0) == 0 ? v.piece(id).substr(2) : v.piece(id);
        QCOMPARE(joined, std::string("bookstores"));
        QCOMPARE(int(v.encode("qqq", 0).size()), 3); // unseen characters: one [UNK] each
        QCOMPARE(v.encode("qqq", 0)[0], 1);
        const QString path = QDir::temp().filePath("folio_webformer_vocab.txt");
        v.save(path.toStdString());
        const WebVocab w = WebVocab::load(path.toStdString());
        QCOMPARE(w.size(), v.size());
        QCOMPARE(w.encode("Bookstores", 0), ids);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestWebFormer)
#include "tst_webformer.moc"
