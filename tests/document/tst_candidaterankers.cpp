// Price and identifier candidates (what is found, what the features say) and the candidate ranker
// (learning, the threshold and rule, its file: round trip and refusals), on hand-written pages.
#include "document/html/htmlloader.h"
#include "document/structured/candidateranker.h"
#include "document/structured/fieldrankers.h"
#include "document/structured/identifiercandidates.h"
#include "document/structured/pricecandidates.h"
#include "document/structured/textnodecandidates.h"
#include "tests/common/testdata.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <random>

using namespace folio;
using namespace folio::structured;

namespace {

Document page(const QByteArray &html)
{
    const HtmlLoadResult r = loadHtmlBytes(html, QStringLiteral("page.html"));
    if (!r.ok)
        qFatal("cannot load the test page: %s", qPrintable(r.error));
    return r.document;
}

float feature(const TextCandidate &c, const std::vector<std::string> &names, const std::string &name)
{
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end())
        qFatal("no feature %s", name.c_str());
    return c.features[std::size_t(it - names.begin())];
}

const TextCandidate *withText(const std::vector<TextCandidate> &cs, const std::string &text)
{
    for (const auto &c : cs)
        if (c.text == text)
            return &c;
    return nullptr;
}

// Synthetic pages: candidate 0..n-1, the gold one has feature 0 set (others random noise).
std::vector<RankerPage> syntheticPages(int count, int width, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> noise(0, 1);
    std::vector<RankerPage> pages;
    for (int p = 0; p < count; ++p) {
        RankerPage page;
        const int n = 5 + p % 4, gold = int(rng() % unsigned(n));
        for (int i = 0; i < n; ++i) {
            std::vector<float> row(static_cast<std::size_t>(width));
            for (auto &v : row)
                v = noise(rng);
            row[0] = i == gold ? 1.f : 0.f;
            page.features.push_back(row);
            page.gold.push_back(i == gold ? 1 : 0);
        }
        page.group = "site" + std::to_string(p % 7);
        page.hasGold = true;
        pages.push_back(page);
    }
    return pages;
}

std::vector<std::string> names(int width)
{
    std::vector<std::string> out;
    for (int i = 0; i < width; ++i)
        out.push_back("f" + std::to_string(i));
    return out;
}

} // namespace

class TstCandidateRankers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void priceCandidatesAndTheirFeatures()
    {
        const Document doc = page(
            "<html><body><nav>Cart (2) 3 items</nav><h1>Desk lamp 2000</h1>"
            "<div class=\"product-price\"><span>$1,299.00</span></div>"
            "<del class=\"old-price\">1.499,00 €</del><p>Save 15% today. Made in 2021.</p>"
            "<p>모음2900원부터 30,000원</p><p>Ref B07FW264WL</p></body></html>");
        const auto cs = findPriceCandidates(doc, {});
        const auto &n = priceFeatureNames();
        const TextCandidate *now = withText(cs, "1,299.00"), *old = withText(cs, "1.499,00");
        QVERIFY(now && old);
        QCOMPARE(now->value, std::string("1299.00"));
        QCOMPARE(now->currency, std::string("USD"));
        QCOMPARE(old->value, std::string("1499.00"));
        QCOMPARE(old->currency, std::string("EUR"));
        QCOMPARE(feature(*now, n, "currency_next_to_number"), 1.f);
        QCOMPARE(feature(*now, n, "price_word_d1"), 1.f); // <div class="product-price"><span>
        QCOMPARE(feature(*now, n, "decimal_part"), 1.f);
        QCOMPARE(feature(*now, n, "after_h1"), 1.f);
        QCOMPARE(feature(*old, n, "struck_through"), 1.f);
        QCOMPARE(feature(*old, n, "old_price_word_d0"), 1.f);
        QCOMPARE(feature(*now, n, "struck_through"), 0.f);
        const TextCandidate *year = withText(cs, "2021"), *percent = withText(cs, "15");
        QVERIFY(year && percent);
        QCOMPARE(feature(*year, n, "looks_like_year"), 1.f);
        QCOMPARE(feature(*percent, n, "percent_follows"), 1.f);
        QCOMPARE(feature(*withText(cs, "3"), n, "elsewhere_word_near"), 1.f); // inside <nav>
        QVERIFY(withText(cs, "2000")); // in the title: a candidate, scored like the others
        // CJK currency written straight after the number; a number glued to letters is no candidate
        const TextCandidate *won = withText(cs, "30,000");
        QVERIFY(won);
        QCOMPARE(won->value, std::string("30000"));
        QCOMPARE(feature(*won, n, "currency_next_to_number"), 1.f);
        QVERIFY(!withText(cs, "2900"));
        QVERIFY(!withText(cs, "07")); // inside an identifier
        for (const auto &c : cs) {
            QCOMPARE(c.features.size(), n.size());
            const QString text = doc.nodes[std::size_t(c.node)].text.mid(c.start, c.end - c.start);
            QCOMPARE(text.toStdString(), c.text); // offsets cut the number out of its node
        }
        // the words to highlight
        const std::vector<int> words = wordsInRange(doc, now->node, now->start, now->end);
        QCOMPARE(int(words.size()), 1);
        QCOMPARE(doc.words[std::size_t(words[0])].text, QString("$1,299.00"));
    }

    void quantitiesAreNoPricesAndSuperscriptCentsAreRead()
    {
        const Document doc = page("<html><body><p>8,27 € (4,14 € / 100 ml)</p><p>Portion: 250 Gramm</p>"
                                  "<p>Pack of 12 pcs</p><div class=\"price\">173<sup>34</sup> <span>Lei</span></div>"
                                  "<p>99<sup>th</sup> percentile</p><p>15 <sup>2</sup></p><p>40 kr</p></body></html>");
        const auto cs = findPriceCandidates(doc, {});
        const auto &n = priceFeatureNames();
        QVERIFY(withText(cs, "8,27") && withText(cs, "4,14"));
        QVERIFY(!withText(cs, "100")); // per 100 ml
        QVERIFY(!withText(cs, "250"));
        QVERIFY(!withText(cs, "12"));
        QVERIFY(withText(cs, "40")); // a currency word, not a unit
        const TextCandidate *lei = withText(cs, "173");
        QVERIFY(lei);
        QCOMPARE(lei->value, std::string("173.34"));
        QCOMPARE(feature(*lei, n, "decimal_part"), 1.f);
        QCOMPARE(feature(*lei, n, "currency_in_element"), 1.f);
        QCOMPARE(withText(cs, "99")->value, std::string("99"));  // <sup>th</sup>: no cents
        QCOMPARE(withText(cs, "15")->value, std::string("15"));  // one digit: an exponent, not cents
    }

    void structuredPriceAgreement()
    {
        const Document doc = page("<html><body><p>EUR 49,90</p><p>EUR 59,90</p></body></html>");
        StructuredData sd;
        sd.candidates.push_back({"price", "49.90", "49.90", "json-ld", "/html/head/script", 0});
        const auto cs = findPriceCandidates(doc, sd);
        const auto &n = priceFeatureNames();
        QCOMPARE(feature(*withText(cs, "49,90"), n, "equals_structured_price"), 1.f);
        QCOMPARE(feature(*withText(cs, "59,90"), n, "equals_structured_price"), 0.f);
        QCOMPARE(feature(*withText(cs, "59,90"), n, "page_has_structured_price"), 1.f);
    }

    void candidateCapIsKept()
    {
        QByteArray html = "<html><body>";
        for (int i = 0; i < 500; ++i)
            html += "<p>" + QByteArray::number(i) + ".99 EUR SKU-" + QByteArray::number(i) + "</p>";
        html += "</body></html>";
        const Document doc = page(html);
        QCOMPARE(int(findPriceCandidates(doc, {}, 100).size()), 100);
        QCOMPARE(int(findIdentifierCandidates(doc, {}, 50).size()), 50);
    }

    void identifierCandidatesAndTheirFeatures()
    {
        const Document doc = page("<html><body><h1>Boots 40</h1><p>Ref. 1002/710</p>"
                                  "<span class=\"product-sku\">AB-1234X</span><p>SKU:</p><p>7730921</p>"
                                  "<p>Price 12.99</p><p>EAN 4006381333931</p><ul><li><b>ASIN : </b><span>B07FW264WL</span></li></ul>"
                                  "<p>Purchasing Q4 2900X</p>"
                                  "<footer>(c) 2021 shop</footer></body></html>");
        StructuredData sd;
        sd.candidates.push_back({"sku", "AB-1234X", "AB-1234X", "microdata", "/html/body/span", 0});
        const auto cs = findIdentifierCandidates(doc, sd);
        const auto &n = identifierFeatureNames();
        const TextCandidate *ref = withText(cs, "1002/710"), *sku = withText(cs, "AB-1234X"), *next = withText(cs, "7730921");
        QVERIFY(ref && sku && next);
        QCOMPARE(feature(*ref, n, "label_before_in_node"), 1.f);
        QCOMPARE(feature(*ref, n, "has_inner_mark"), 1.f);
        QCOMPARE(feature(*sku, n, "label_attribute_d0"), 1.f);
        QCOMPARE(feature(*sku, n, "equals_structured_sku"), 1.f);
        QCOMPARE(feature(*sku, n, "alone_in_node"), 1.f);
        QCOMPARE(feature(*next, n, "label_in_previous_node"), 1.f);
        QCOMPARE(feature(*next, n, "all_digits"), 1.f);
        QCOMPARE(feature(*withText(cs, "B07FW264WL"), n, "label_in_previous_node"), 1.f); // Amazon's label
        QCOMPARE(feature(*withText(cs, "2900X"), n, "label_before_in_node"), 0.f); // "purchasing" holds no "asin"
        QCOMPARE(feature(*withText(cs, "4006381333931"), n, "valid_gtin"), 1.f);
        QCOMPARE(feature(*withText(cs, "12.99"), n, "price_like"), 1.f);
        QCOMPARE(feature(*withText(cs, "2021"), n, "year_like"), 1.f);
        QVERIFY(!withText(cs, "40")); // shorter than 3 characters
        QVERIFY(!withText(cs, "shop")); // no digit
        for (const auto &c : cs)
            QCOMPARE(c.features.size(), n.size());
    }

    void textNodeCandidatesAndTheirFeatures()
    {
        const Document doc = page("<html><head><title>Game Over by Fern Michaels: shop</title></head><body>"
                                  "<h1>Game Over</h1><p>By Fern Michaels</p><ul><li><b>Publisher:</b></li><li>Zebra</li>"
                                  "<li>ISBN: 978-1-4201-0687-9</li><li>Published June 2010</li></ul>"
                                  "<div class=\"book-publisher\">Zebra Books</div><footer>About us</footer></body></html>");
        const auto &n = textNodeFeatureNames();
        const auto publisher = findTextNodeCandidates(doc, "publisher");
        for (const auto &c : publisher)
            QCOMPARE(c.features.size(), n.size());
        const TextCandidate *zebra = withText(publisher, "Zebra"), *label = withText(publisher, "Publisher:");
        QVERIFY(zebra && label);
        QCOMPARE(feature(*zebra, n, "label_in_previous_node"), 1.f);
        QCOMPARE(feature(*label, n, "node_is_a_label"), 1.f);
        QCOMPARE(feature(*zebra, n, "node_is_a_label"), 0.f);
        QCOMPARE(feature(*label, n, "in_bold"), 1.f);
        QCOMPARE(feature(*withText(publisher, "Zebra Books"), n, "label_in_ancestor_attributes"), 1.f);
        const auto author = findTextNodeCandidates(doc, "author");
        QCOMPARE(feature(*withText(author, "By Fern Michaels"), n, "label_at_node_start"), 1.f);
        const auto isbn = findTextNodeCandidates(doc, "isbn_13");
        QCOMPARE(feature(*withText(isbn, "ISBN: 978-1-4201-0687-9"), n, "valid_isbn13"), 0.f); // letters in the node
        const auto title = findTextNodeCandidates(doc, "title");
        const TextCandidate *h1 = withText(title, "Game Over");
        QVERIFY(h1);
        QCOMPARE(feature(*h1, n, "in_h1"), 1.f);
        QCOMPARE(feature(*h1, n, "inside_page_title"), 1.f);
        QCOMPARE(feature(*h1, n, "log_repeats"), float(std::log1p(1.0)));
        const auto date = findTextNodeCandidates(doc, "publication_date");
        const TextCandidate *june = withText(date, "Published June 2010");
        QCOMPARE(feature(*june, n, "has_year"), 1.f);
        QCOMPARE(feature(*june, n, "has_month_name"), 1.f);
        QCOMPARE(feature(*june, n, "label_at_node_start"), 1.f);
        QCOMPARE(feature(*withText(date, "About us"), n, "elsewhere_word_near"), 1.f);
        // a user's own field: its name's words are its labels
        QVERIFY(fieldLabelPattern("release_year").match(QStringLiteral("Release: 1999")).hasMatch());
        QVERIFY(!fieldLabelPattern("release_year").match(QStringLiteral("Price 10")).hasMatch());
        const Document isbnOnly = page("<html><body><p>9781420106879</p><p>9781420106870</p></body></html>");
        const auto digits = findTextNodeCandidates(isbnOnly, "isbn_13");
        QCOMPARE(feature(*withText(digits, "9781420106879"), n, "valid_isbn13"), 1.f);
        QCOMPARE(feature(*withText(digits, "9781420106870"), n, "valid_isbn13"), 0.f); // check digit
    }

    void siteTextsMarkTheTemplate()
    {
        // three pages of one site: "Add to Cart" on all (template), the title on one each, the
        // publisher on two; a text twice on one page counts once for that page
        const auto bookPage = [](const char *title, const char *publisher) {
            return page(QByteArray("<html><body><h2>") + title + "</h2><p>" + publisher + "</p><a>Add to Cart</a><a>Add to Cart</a></body></html>");
        };
        const Document a = bookPage("Game Over", "Zebra"), b = bookPage("Lydia's Charm", "Zebra"), c = bookPage("Foreign Influence", "Atria");
        SiteTexts site;
        QCOMPARE(site.shareOfOtherPages(QStringLiteral("Add to Cart")), 0.0);
        site.addPage(a);
        QCOMPARE(site.shareOfOtherPages(QStringLiteral("Add to Cart")), 0.0); // one page: nothing to compare
        site.addPage(b);
        site.addPage(c);
        QCOMPARE(site.pages(), 3);
        QCOMPARE(site.shareOfOtherPages(QStringLiteral("Add to Cart")), 1.0);
        QCOMPARE(site.shareOfOtherPages(QStringLiteral("Zebra")), 0.5);
        QCOMPARE(site.shareOfOtherPages(QStringLiteral("Game Over")), 0.0);
        QCOMPARE(site.shareOfOtherPages(QStringLiteral("never seen")), 0.0);
        const auto &n = textNodeFeatureNames();
        const auto withSite = findTextNodeCandidates(a, "title", &site), without = findTextNodeCandidates(a, "title");
        QCOMPARE(feature(*withText(withSite, "Add to Cart"), n, "share_of_site_pages_with_text"), 1.f);
        QCOMPARE(feature(*withText(withSite, "Zebra"), n, "share_of_site_pages_with_text"), 0.5f);
        QCOMPARE(feature(*withText(withSite, "Game Over"), n, "share_of_site_pages_with_text"), 0.f);
        QCOMPARE(feature(*withText(without, "Add to Cart"), n, "share_of_site_pages_with_text"), 0.f);
    }

    void rankerLearnsAndChoosesItsRule()
    {
        const int width = 6;
        const auto train = syntheticPages(60, width, 1), test = syntheticPages(30, width, 2);
        const CandidateRanker r = CandidateRanker::train("price", names(width), train);
        QVERIFY(!r.empty());
        int right = 0;
        for (const auto &p : test) {
            const auto prob = r.probabilities(p.features);
            QCOMPARE(prob.size(), p.features.size());
            double sum = 0;
            for (double v : prob)
                sum += v;
            QVERIFY(std::abs(sum - 1) < 1e-9);
            const std::size_t best = std::size_t(std::max_element(prob.begin(), prob.end()) - prob.begin());
            right += p.gold[best] ? 1 : 0;
        }
        QCOMPARE(right, 30); // the signal is one clean feature
        QVERIFY(r.threshold() >= 0 && r.threshold() <= 0.9);
        // rankCandidates answers with the best candidate when it reaches the threshold
        std::vector<TextCandidate> cs;
        for (std::size_t i = 0; i < test[0].features.size(); ++i) {
            TextCandidate c;
            c.text = c.value = std::to_string(i);
            c.features = test[0].features[i];
            cs.push_back(c);
        }
        const auto best = rankCandidates(r, cs);
        QVERIFY(best);
        QVERIFY(test[0].gold[std::size_t(std::stoi(best->candidate.value))]);
        QVERIFY(!rankCandidates(r, {}));
    }

    void penaltyAndSubspacesShareTheScoreWithWeakerFeatures()
    {
        // feature 0 separates every training page alone (one site's <h1>); feature 1 marks the gold
        // candidate on 80 % of pages (what also holds elsewhere). Asked to choose between a node with
        // feature 0 only and one with feature 1 only, the plain fit backs feature 0 almost wholly; the
        // penalised and subspace fits leave feature 1 a larger share of the score.
        const int width = 4;
        auto pages = syntheticPages(40, width, 5);
        std::mt19937 rng(11);
        for (auto &p : pages)
            for (std::size_t i = 0; i < p.features.size(); ++i)
                p.features[i][1] = p.gold[i] ? float(rng() % 5 != 0) : float(rng() % 5 == 0);
        RankerOptions plain;
        plain.innerFolds = 0;
        RankerOptions penalised = plain, subspaces = plain;
        penalised.l2 = 1;
        subspaces.subspaces = 32;
        const std::vector<std::vector<float>> otherSite{{0, 1, 0.5f, 0.5f}, {1, 0, 0.5f, 0.5f}, {0, 0, 0.5f, 0.5f}};
        const double plainMass = CandidateRanker::train("sku", names(width), pages, plain).probabilities(otherSite)[0];
        const double penalisedMass = CandidateRanker::train("sku", names(width), pages, penalised).probabilities(otherSite)[0];
        const auto a = CandidateRanker::train("sku", names(width), pages, subspaces);
        const double subspaceMass = a.probabilities(otherSite)[0];
        qInfo("feature-1 node's share: plain %.3f, L2 1 %.3f, 32 subspaces %.3f", plainMass, penalisedMass, subspaceMass);
        QVERIFY(penalisedMass > plainMass + 0.05);
        QVERIFY(subspaceMass > plainMass + 0.05);
        // deterministic, and subspaces = 0 is the plain fit
        QCOMPARE(CandidateRanker::train("sku", names(width), pages, subspaces).probabilities(otherSite), a.probabilities(otherSite));
        RankerOptions off = plain;
        off.subspaceKeep = 0.1;
        QCOMPARE(CandidateRanker::train("sku", names(width), pages, off).probabilities(otherSite)[0], plainMass);
    }

    void structuredDataWinsWhenItIsRight()
    {
        // every page has a right structured value and a ranker signal that is pure noise: the
        // inner cross-validation must choose "structured data first"
        const int width = 4;
        auto pages = syntheticPages(40, width, 3);
        std::mt19937 rng(9);
        for (auto &p : pages) {
            for (auto &row : p.features)
                row[0] = float(rng() % 2);
            p.structured = 1;
        }
        const CandidateRanker r = CandidateRanker::train("sku", names(width), pages);
        QVERIFY(r.structuredFirst());
    }

    void fileRoundTripAndRefusals()
    {
        QTemporaryDir dir;
        const int width = 5;
        const CandidateRanker r = CandidateRanker::train("sku", names(width), syntheticPages(30, width, 4));
        const std::string path = dir.filePath("sku-ranker.json").toStdString();
        std::string error;
        QVERIFY2(r.save(path, {{"pages", 30}}, &error), error.c_str());
        CandidateRanker back;
        QVERIFY2(back.load(path, "sku", names(width), &error), error.c_str());
        const auto probe = syntheticPages(3, width, 5);
        for (const auto &p : probe)
            QCOMPARE(back.probabilities(p.features), r.probabilities(p.features));
        QCOMPARE(back.threshold(), r.threshold());
        QCOMPARE(back.structuredFirst(), r.structuredFirst());

        const auto refuses = [&](const QByteArray &bytes, const char *field, const std::vector<std::string> &features,
                                 const QString &expected) {
            const QString bad = dir.filePath("bad.json");
            QFile f(bad);
            f.open(QIODevice::WriteOnly | QIODevice::Truncate);
            f.write(bytes);
            f.close();
            CandidateRanker kept = back;
            std::string why;
            QVERIFY(!kept.load(bad.toStdString(), field, features, &why));
            QVERIFY2(QString::fromStdString(why).contains(expected), why.c_str());
            QVERIFY2(QString::fromStdString(why).contains("bad.json"), why.c_str());
            for (const auto &p : probe) // a refused file replaces nothing
                QCOMPARE(kept.probabilities(p.features), r.probabilities(p.features));
        };
        QFile good(QString::fromStdString(path));
        good.open(QIODevice::ReadOnly);
        const QByteArray bytes = good.readAll();
        auto j = nlohmann::json::parse(bytes.toStdString());
        refuses(bytes, "price", names(width), "not for \"price\"");
        refuses(bytes, "sku", names(width - 1), "features differ");
        std::vector<std::string> renamed = names(width);
        renamed[2] = "other";
        refuses(bytes, "sku", renamed, "features differ");
        // a file from before a feature was appended loads; the new feature weighs nothing
        CandidateRanker widened;
        QVERIFY2(widened.load(path, "sku", names(width + 1), &error), error.c_str());
        for (const auto &p : probe) {
            auto rows = p.features;
            for (std::size_t i = 0; i < rows.size(); ++i)
                rows[i].push_back(float(i % 2));
            QCOMPARE(widened.probabilities(rows), r.probabilities(p.features));
        }
        refuses(bytes.left(bytes.size() / 2), "sku", names(width), "not a ranker file");
        refuses("[]", "sku", names(width), "not a ranker file");
        refuses(QByteArray(2 << 20, ' '), "sku", names(width), "over 1 MiB");
        auto k = j;
        k["weights"][1] = "x";
        refuses(QByteArray::fromStdString(k.dump()), "sku", names(width), "not a finite number");
        k = j;
        k["scale"][0] = 0;
        refuses(QByteArray::fromStdString(k.dump()), "sku", names(width), "positive");
        k = j;
        k["mean"].erase(0);
        refuses(QByteArray::fromStdString(k.dump()), "sku", names(width), "must be 5 numbers");
        k = j;
        k["version"] = 2;
        refuses(QByteArray::fromStdString(k.dump()), "sku", names(width), "version");
        k = j;
        k["structured_first"] = "yes";
        refuses(QByteArray::fromStdString(k.dump()), "sku", names(width), "structured_first");
        CandidateRanker none;
        QVERIFY(!none.load(dir.filePath("missing.json").toStdString(), "sku", names(width), &error));
        QVERIFY(QString::fromStdString(error).contains("cannot open"));
    }

    void fieldRegistry()
    {
        QCOMPARE(rankedFields(), (std::vector<std::string>{"price", "sku"}));
        QCOMPARE(candidateFeatureNames("price"), priceFeatureNames());
        QCOMPARE(candidateFeatureNames("sku"), identifierFeatureNames());
        QCOMPARE(candidateFeatureNames("brand"), textNodeFeatureNames()); // any other field: whole text nodes
        QVERIFY(candidateFeatureNames("").empty());
        QVERIFY(isRankedField("sku") && !isRankedField("brand"));
        QVERIFY(candidateMatches("brand", "  Acme  Works.", "acme works"));
        QVERIFY(!candidateMatches("brand", "Acme", "Acme Works"));
        QVERIFY(!candidateMatches("brand", "...", ""));
        QCOMPARE(rankedValue("brand", "  Acme \n Works ").value(), std::string("Acme Works"));
        QVERIFY(!rankedValue("brand", " \t "));
        QVERIFY(candidateMatches("price", "87.10", "87.1"));
        QVERIFY(!candidateMatches("price", "87.11", "87.1"));
        QVERIFY(!candidateMatches("price", "abc", "abc"));
        QVERIFY(candidateMatches("sku", "AB-1", "AB-1"));
        QVERIFY(!candidateMatches("sku", "ab-1", "AB-1"));
        QCOMPARE(rankerFile("/m", "sku"), std::string("/m/sku-ranker.json"));
    }
};

FOLIO_TEST_GUILESS_MAIN(TstCandidateRankers)
#include "tst_candidaterankers.moc"
