// Product pages for WebFormer (pipeline/modelinputs/productpages.h): structured-data candidates in
// front of the page, gold surface forms of prices, site families and site-grouped folds, spans ->
// product values; and a tiny product model trained and read back end to end.
#include "pipeline/modelinputs/productpages.h"

#include "document/structured/structureddata.h"
#include "inference/webformer/webformerinput.h"
#include "pipeline/modelinputs/webpages.h"

#include "tests/common/testdata.h"

#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace folio::inference;
using namespace folio::pipeline;
namespace st = folio::structured;

namespace {

WebPage pageOf(const std::vector<std::vector<std::string>> &texts)
{
    WebPage p;
    p.id = "p";
    p.nodes.push_back({-1, "body", "/html/body", false, {}});
    for (std::size_t i = 0; i < texts.size(); ++i) {
        p.nodes.push_back({0, "span", "/html/body/span[" + std::to_string(i + 1) + "]", false, {}});
        p.nodes.push_back({int(p.nodes.size()) - 1, "#text", "/html/body/span[" + std::to_string(i + 1) + "]/text()", true, texts[i]});
    }
    return p;
}

st::StructuredData sdOf(std::vector<st::StructuredValue> values)
{
    st::StructuredData d;
    d.candidates = std::move(values);
    return d;
}

} // namespace

class TstProductPages : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void candidatesArePrepended()
    {
        WebPage p = pageOf({{"Kettle"}, {"$87.11"}});
        const auto sd = sdOf({{"price", "87.11", "87.11", "json-ld", "/html/head/script", 0},
                              {"price", "87.11", "$87.11", "microdata", "/html/body/div", 0}, // duplicate value: once
                              {"sku", "K 3", "K 3", "json-ld", "/html/head/script", 0}});
        const int added = prependStructuredCandidates(&p, sd);
        QCOMPARE(added, 2 + 3); // "price" "87.11", "sku" "K" "3"
        QCOMPARE(p.nodes[0].tag, std::string("dl"));
        QCOMPARE(p.nodes[2].words, std::vector<std::string>{"price"});
        QCOMPARE(p.nodes[4].words, std::vector<std::string>{"87.11"});
        QCOMPARE(p.nodes[4].xpath, std::string("structured-data:json-ld /html/head/script #price"));
        // the original nodes follow with shifted parents, still pre-order
        for (int i = 0; i < int(p.nodes.size()); ++i)
            QVERIFY(p.nodes[i].parent < i);
        QCOMPARE(p.nodes[9].xpath, std::string("/html/body"));
        QCOMPARE(p.nodes[10].parent, 9);
        WebPage none = pageOf({{"a"}});
        QCOMPARE(prependStructuredCandidates(&none, st::StructuredData()), 0);
        QCOMPARE(none.nodes.size(), std::size_t(3));
    }

    void priceGoldSurfaces()
    {
        WebPage p = pageOf({{"Now", "$87.11", "was", "99.00"}, {"€", "87,11"}, {"8711"}, {"1", "234,56"}});
        attachProductGold(&p, {{"price", {"87.11"}}, {"sku", {"B07"}}});
        const std::set<std::string> gold(p.gold["price"].begin(), p.gold["price"].end());
        QVERIFY(gold.count("$87.11"));
        QVERIFY(gold.count("€ 87,11")); // currency token + amount
        QVERIFY(gold.count("87,11"));
        QVERIFY(gold.count("87.11")); // the benchmark's spelling, as a candidate shows it
        QVERIFY(!gold.count("8711"));
        QVERIFY(!gold.count("99.00"));
        QCOMPARE(p.gold["sku"], std::vector<std::string>{"B07"});
        QVERIFY(p.gold.count("gtin") && p.gold["gtin"].empty()); // no value: trains the null answer
        // the spans are found in the model inputs
        const WebVocab vocab = WebVocab::build({"now", "was", "$87.11", "87,11", "€"}, 100);
        WebFormerConfig cfg;
        const WebFormerInputs in = buildWebFormerInputs(p, vocab, cfg, productModelFields());
        QVERIFY(findGoldSpans(in, p.gold["price"]).size() >= 2);
    }

    void sitesAndFolds()
    {
        QCOMPARE(siteFamily("https://www.amazon.co.uk/dp/B01"), std::string("amazon"));
        QCOMPARE(siteFamily("https://www.amazon.de/x"), std::string("amazon"));
        QCOMPARE(siteFamily("https://pokupki.market.yandex.ru/product"), std::string("yandex"));
        QCOMPARE(siteFamily("http://zalando.ie:8080/a"), std::string("zalando"));
        QCOMPARE(siteFamily("https://shop.example.com.au/p"), std::string("example"));
        const std::vector<std::string> groups{"a", "a", "a", "b", "b", "c", "d", "d", "e", "f", "g"};
        const std::vector<int> fold = groupedFolds(groups, 3);
        std::map<std::string, std::set<int>> foldsOf;
        std::vector<int> size(3, 0);
        for (std::size_t i = 0; i < groups.size(); ++i) {
            foldsOf[groups[i]].insert(fold[i]);
            ++size[fold[i]];
        }
        for (const auto &[g, f] : foldsOf)
            QVERIFY2(f.size() == 1, g.c_str()); // no group split across folds
        QVERIFY(*std::max_element(size.begin(), size.end()) - *std::min_element(size.begin(), size.end()) <= 1);
        QCOMPARE(groupedFolds(groups, 3), fold); // deterministic
    }

    void spansToValues()
    {
        const auto sd = sdOf({{"availability", "OutOfStock", "OutOfStock", "json-ld", "/s", 0},
                              {"sku", "SD-1", "SD-1", "json-ld", "/s", 0},
                              {"gtin", "4006381333931", "4006381333931", "json-ld", "/s", 0}});
        std::vector<FieldSpan> spans{{"price", true, "£1,299.50", "/html/body/span[2]/text()", 7, 7, 0.9},
                                     {"sku", false, "", "", -1, -1, 0.8},
                                     {"brand", true, "Acme", "structured-data:json-ld /s #brand", 0, 0, 0.5},
                                     {"gtin", true, "K-1", "structured-data:json-ld /s #sku", 0, 0, 0.7},
                                     {"mpn", true, "   ", "/x", 9, 9, 0.4}};
        const auto values = productValues(spans, 5, sd, true);
        std::map<std::string, ProductValue> byField;
        for (const auto &v : values)
            byField[v.field] = v;
        QCOMPARE(byField["price"].value, std::string("1299.50"));
        QCOMPARE(byField["price"].source, std::string("model"));
        QCOMPARE(byField["price"].firstWord, 2); // prefix removed
        QCOMPARE(byField["currency"].value, std::string("GBP"));
        QCOMPARE(byField["brand"].source, std::string("model:structured-data"));
        QCOMPARE(byField["gtin"].source, std::string("structured-data")); // the sku candidate was refused: fallback
        QCOMPARE(byField["sku"].value, std::string("SD-1")); // fallback
        QCOMPARE(byField["sku"].source, std::string("structured-data"));
        QVERIFY(!byField.count("mpn")); // white space is no identifier
        QCOMPARE(byField["availability"].value, std::string("OutOfStock"));
        const auto noFallback = productValues(spans, 5, sd, false);
        QVERIFY(std::none_of(noFallback.begin(), noFallback.end(), [](const ProductValue &v) { return v.field == "sku"; }));
        const auto row = benchmarkRow(noFallback);
        QCOMPARE(row.at("OutOfStock"), std::string("OutOfStock"));
        QVERIFY(!row.count("InStock"));
        const auto empty = benchmarkRow(structuredProductValues(st::StructuredData()));
        QCOMPARE(empty.at("availability"), std::string("InStock")); // the benchmark's default
        QCOMPARE(empty.size(), std::size_t(2));
    }

    // Three benchmark pages read, with gold and candidates; a model trained for a few steps on them
    // loads and extracts values whose spans map back to page words.
    void benchmarkPagesEndToEnd()
    {
        const QString data = folio::test::sharedPath("data/product-extraction-benchmark/dataset");
        FOLIO_REQUIRE_DATA(data + "/ground-truth.json");
        const auto pages = loadProductBenchmark(data.toStdString(), true, 3);
        QCOMPARE(pages.size(), std::size_t(3));
        for (const auto &p : pages) {
            QVERIFY(!p.site.empty());
            QVERIFY(p.page.gold.count("price"));
            QVERIFY(p.prefixWords == 0 || p.page.nodes[0].tag == "dl");
        }
        QTemporaryDir dir;
        WebFormerTrainOptions o;
        o.outputDir = dir.path().toStdString();
        o.model.hidden = 32;
        o.model.heads = 2;
        o.model.intermediate = 64;
        o.model.layers = 1;
        o.model.maxTextTokens = 256;
        o.model.fields = productModelFields();
        o.epochs = 1;
        o.threads = 1;
        o.vocabSize = 500;
        std::vector<WebPage> train;
        for (const auto &p : pages)
            train.push_back(p.page);
        const auto r = trainWebFormer(o, train, {});
        QVERIFY2(r.ok, r.error.c_str());
        WebFormerExtractor ex;
        std::string error;
        QVERIFY2(ex.load(o.outputDir, &error), error.c_str());
        std::vector<FieldSpan> spans;
        QVERIFY2(ex.extract(pages[0].page, {}, &spans, &error), error.c_str());
        QCOMPARE(spans.size(), productModelFields().size());
        const auto values = productValues(spans, pages[0].prefixWords, pages[0].sd, true);
        QVERIFY(!values.empty());
        for (const auto &v : values)
            if (v.source == "model")
                QVERIFY(v.firstWord >= 0);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, loadProductBenchmark("/nonexistent/dataset", false));
    }
};

FOLIO_TEST_GUILESS_MAIN(TstProductPages)
#include "tst_productpages.moc"
