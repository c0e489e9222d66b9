// Train Field Extractor's price / sku rankers (issue 15): the project's answered pages become ranker
// rows, and the model folder gets the better of a ranker trained on them and the fallback (shipped)
// one, compared on the project's pages; too few pages keep the fallback; a reused folder loses a
// stale ranker. Real project store, real candidate finders, a real (tiny) WebFormer.
#include "document/html/htmlloader.h"
#include "document/project/project.h"
#include "document/structured/candidateranker.h"
#include "document/structured/fieldrankers.h"
#include "pipeline/webfieldextraction.h"
#include "pipeline/webfieldset.h"
#include "pipeline/webfieldtraining.h"
#include "tests/common/testdata.h"
#include "tests/common/tinywebformer.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

namespace {

QString maker(int i)
{
    static const char *names[] = {"Acme Works", "Zeta Home", "Orbit Kitchen", "Nova Living", "Kessel GmbH", "Brio & Co"};
    return QString::fromUtf8(names[i % 6]) + (i >= 6 ? QStringLiteral(" %1").arg(i) : QString());
}

// A shop page: the price in its price box, an old price struck through before it, a delivery cost
// and a rating around it; the sku after its label, a catalogue number elsewhere.
QByteArray shopPage(int i)
{
    const QString price = QStringLiteral("%1.%2").arg(20 + i * 7).arg(10 + i % 80);
    return QStringLiteral("<html><body><nav>Basket 0 items</nav><h1>Kettle model %1</h1>"
                          "<p>Rated 4.%2 by %3 buyers</p><del class=\"old\">%4.99 EUR</del>"
                          "<div class=\"price\">Now <b>%5</b> EUR</div><div class=\"delivery\">Delivery 4.95 EUR</div>"
                          "<p>SKU: KT-%6X</p><table><tr><td>Maker</td><td>%8</td></tr><tr><td>Colour</td><td>Steel</td></tr></table>"
                          "<footer>Catalogue 2021/%7</footer></body></html>")
        .arg(i).arg(i % 10).arg(100 + i).arg(60 + i * 7).arg(price).arg(1000 + i).arg(300 + i).arg(maker(i))
        .toUtf8();
}

QString goldPrice(int i) { return QStringLiteral("%1.%2").arg(20 + i * 7).arg(10 + i % 80); }
QString goldSku(int i) { return QStringLiteral("KT-%1X").arg(1000 + i); }

FieldValue accepted(const QString &field, const QString &text)
{
    FieldValue v;
    v.field = field;
    v.text = text;
    v.state = ReviewState::Accepted;
    return v;
}

std::unique_ptr<Project> projectWith(const QString &path, int pages, const QString &priceField = QStringLiteral("price"),
                                     bool answerMaker = false)
{
    QString error;
    auto project = Project::create(path, &error);
    if (!project)
        return nullptr;
    for (int i = 0; i < pages; ++i) {
        const Document doc = loadHtmlBytes(shopPage(i), QStringLiteral("shop%1.html").arg(i)).document;
        Annotations a;
        a.fields = {accepted(priceField, QStringLiteral("€ ") + goldPrice(i)), accepted(QStringLiteral("sku"), goldSku(i))};
        if (answerMaker)
            a.fields.push_back(accepted(QStringLiteral("Maker"), maker(i)));
        if (project->addDocument(doc, a, &error, QStringLiteral("shop%1.html").arg(i)) < 0)
            return nullptr;
    }
    return project;
}

inference::WebFormerTrainOptions tinyOptions(const QString &dir)
{
    return test::tinyWebFormerOptions(dir.toStdString(), /*maxTextTokens=*/96, /*epochs=*/1, /*maxSteps=*/4);
}

// A ranker that learned the wrong thing: the struck-through old price (a bad fallback).
void writeOldPriceRanker(const pipeline::FieldTrainingData &data, const QString &dir)
{
    std::vector<structured::RankerPage> rows = pipeline::rankerRows(data).at("price");
    for (int i = 0; i < int(rows.size()); ++i) {
        const Document doc = loadHtmlBytes(shopPage(i), QStringLiteral("shop%1.html").arg(i)).document;
        const auto cands = structured::findCandidates("price", doc, {});
        rows[std::size_t(i)] = structured::rankerPage("price", cands, {}, {std::to_string(60 + i * 7) + ".99"}, "p");
    }
    const auto ranker = structured::CandidateRanker::train("price", structured::candidateFeatureNames("price"), rows, {300, 0.01, 1e-4, 0});
    std::string error;
    QVERIFY2(ranker.save(structured::rankerFile(dir.toStdString(), "price"), {}, &error), error.c_str());
}

QString noteFor(const QStringList &notes, const QString &field)
{
    for (const QString &n : notes)
        if (n.startsWith(field + QLatin1Char(':')))
            return n;
    return {};
}

} // namespace

class TestWebFieldRankers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void answeredPagesBecomeRankerRows()
    {
        QTemporaryDir dir;
        auto project = projectWith(dir.filePath(QStringLiteral("p.folio")), 3, QStringLiteral("Price"));
        QVERIFY(project);
        const std::vector<pipeline::FieldSpec> fields{{QStringLiteral("Price"), pipeline::FieldType::Price},
                                                      {QStringLiteral("sku"), pipeline::FieldType::Identifier},
                                                      {QStringLiteral("brand"), pipeline::FieldType::Text}};
        pipeline::FieldTrainingData data;
        QString error;
        QVERIFY2(pipeline::loadFieldTrainingData(project.get(), fields, &data, &error), qPrintable(error));
        QCOMPARE(int(data.rankerSources.size()), 3);
        const auto rankerRows = pipeline::rankerRows(data);
        QCOMPARE(int(rankerRows.size()), 2); // "Price" as "price"; brand has no example: no ranker
        for (const auto &[field, rows] : rankerRows) {
            QCOMPARE(int(rows.size()), 3);
            for (const auto &r : rows) {
                QVERIFY(r.hasGold);
                QCOMPARE(int(std::count(r.gold.begin(), r.gold.end(), 1)), 1); // "€ 20.10" read as the amount 20.10
                QCOMPARE(r.structured, -1);
            }
        }
        // A price answered with words that are no amount: that page is no row of the price ranker
        // (it is not a "no value" page), but still one of the sku ranker.
        Annotations a;
        a.fields = {accepted(QStringLiteral("Price"), QStringLiteral("call us")), accepted(QStringLiteral("sku"), goldSku(3))};
        QVERIFY2(project->addDocument(loadHtmlBytes(shopPage(3), QStringLiteral("shop3.html")).document, a, &error,
                                      QStringLiteral("shop3.html")) >= 0,
                 qPrintable(error));
        QVERIFY2(pipeline::loadFieldTrainingData(project.get(), fields, &data, &error), qPrintable(error));
        QCOMPARE(int(pipeline::rankerRows(data).at("price").size()), 3);
        QCOMPARE(int(pipeline::rankerRows(data).at("sku").size()), 4);
        QCOMPARE(structured::rankedValue("price", "€ 1.299,00").value(), std::string("1299.00"));
        QCOMPARE(structured::rankedValue("sku", "  KT-1000X ").value(), std::string("KT-1000X"));
        QVERIFY(!structured::rankedValue("price", "call us"));
    }

    void theProjectsRankerReplacesAWorseFallback()
    {
        QTemporaryDir dir;
        auto project = projectWith(dir.filePath(QStringLiteral("p.folio")), 12);
        QVERIFY(project);
        const std::vector<pipeline::FieldSpec> fields{{QStringLiteral("price"), pipeline::FieldType::Price},
                                                      {QStringLiteral("sku"), pipeline::FieldType::Identifier}};
        pipeline::FieldTrainingData data;
        QString error;
        QVERIFY2(pipeline::loadFieldTrainingData(project.get(), fields, &data, &error), qPrintable(error));
        const QString fallback = dir.filePath(QStringLiteral("shipped"));
        QVERIFY(QDir().mkpath(fallback));
        writeOldPriceRanker(data, fallback);
        data.rankersFallbackDir = fallback;

        const QString model = dir.filePath(QStringLiteral("model"));
        const pipeline::FieldTrainingOutcome out = pipeline::trainFieldExtractor(tinyOptions(model), data);
        QVERIFY2(out.ok, qPrintable(out.error));
        qInfo().noquote() << out.rankerNotes.join(QLatin1Char('\n'));
        const QString price = noteFor(out.rankerNotes, QStringLiteral("price"));
        QVERIFY2(price.contains(QStringLiteral("trained on the project")) && price.contains(QStringLiteral("against 0.000")),
                 qPrintable(out.rankerNotes.join(QLatin1Char('\n'))));
        const QString sku = noteFor(out.rankerNotes, QStringLiteral("sku")); // no fallback for sku: the project's own
        QVERIFY2(sku.contains(QStringLiteral("trained on the project")) && !sku.contains(QStringLiteral("against")), qPrintable(sku));
        QVERIFY(QFile::exists(model + QStringLiteral("/sku-ranker.json")));

        // The saved ranker picks the price of a page it has not seen.
        structured::CandidateRanker ranker;
        std::string why;
        QVERIFY2(ranker.load(structured::rankerFile(model.toStdString(), "price"), "price", structured::candidateFeatureNames("price"), &why),
                 why.c_str());
        const Document unseen = loadHtmlBytes(shopPage(40), QStringLiteral("shop40.html")).document;
        const auto pick = structured::rankCandidates(ranker, structured::findCandidates("price", unseen, {}));
        QVERIFY(pick);
        QCOMPARE(QString::fromStdString(pick->candidate.value), goldPrice(40));
        QVERIFY(ranker.heldOutF1() < 0); // not saved: a loaded ranker has no cross-validation of its own
    }

    void tooFewPagesKeepTheFallbackAndStaleRankersGo()
    {
        QTemporaryDir dir;
        auto project = projectWith(dir.filePath(QStringLiteral("p.folio")), 12);
        QVERIFY(project);
        pipeline::FieldTrainingData many;
        QString error;
        const std::vector<pipeline::FieldSpec> both{{QStringLiteral("price"), pipeline::FieldType::Price},
                                                    {QStringLiteral("sku"), pipeline::FieldType::Identifier}};
        QVERIFY2(pipeline::loadFieldTrainingData(project.get(), both, &many, &error), qPrintable(error));
        const QString fallback = dir.filePath(QStringLiteral("shipped"));
        QVERIFY(QDir().mkpath(fallback));
        writeOldPriceRanker(many, fallback);

        auto small = projectWith(dir.filePath(QStringLiteral("small.folio")), 3);
        QVERIFY(small);
        const std::vector<pipeline::FieldSpec> priceOnly{{QStringLiteral("price"), pipeline::FieldType::Price}};
        pipeline::FieldTrainingData data;
        QVERIFY2(pipeline::loadFieldTrainingData(small.get(), priceOnly, &data, &error), qPrintable(error));
        data.rankersFallbackDir = fallback;
        const QString model = dir.filePath(QStringLiteral("model"));
        QVERIFY(QDir().mkpath(model));
        QFile stale(model + QStringLiteral("/sku-ranker.json")); // from an earlier training into the same folder
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.write("{}");
        stale.close();

        const pipeline::FieldTrainingOutcome out = pipeline::trainFieldExtractor(tinyOptions(model), data);
        QVERIFY2(out.ok, qPrintable(out.error));
        qInfo().noquote() << out.rankerNotes.join(QLatin1Char('\n'));
        const QString note = noteFor(out.rankerNotes, QStringLiteral("price"));
        QVERIFY2(note.contains(QStringLiteral("shipped ranker kept")) && note.contains(QStringLiteral("3 answered pages"))
                     && note.contains(QStringLiteral("4 needed")),
                 qPrintable(note));
        QFile copied(model + QStringLiteral("/price-ranker.json")), original(fallback + QStringLiteral("/price-ranker.json"));
        QVERIFY(copied.open(QIODevice::ReadOnly) && original.open(QIODevice::ReadOnly));
        QCOMPARE(copied.readAll(), original.readAll());
        QVERIFY(!QFile::exists(model + QStringLiteral("/sku-ranker.json")));
        QCOMPARE(int(out.rankerNotes.size()), 1); // sku is not in this field set
    }

    // A field of the user's own ("Maker"): a text-node ranker trained on the project answers it on a
    // page it has not seen, through Extract Fields.
    void aFieldOfTheUsersOwnGetsATextRanker()
    {
        QTemporaryDir dir;
        auto project = projectWith(dir.filePath(QStringLiteral("p.folio")), 6, QStringLiteral("price"), true);
        QVERIFY(project);
        const std::vector<pipeline::FieldSpec> fields{{QStringLiteral("price"), pipeline::FieldType::Price},
                                                      {QStringLiteral("Maker"), pipeline::FieldType::Text}};
        pipeline::FieldTrainingData data;
        QString error;
        QVERIFY2(pipeline::loadFieldTrainingData(project.get(), fields, &data, &error), qPrintable(error));
        QCOMPARE(int(pipeline::rankerRows(data).at("maker").size()), 6);
        data.rankersFallbackDir.clear();
        const QString model = dir.filePath(QStringLiteral("model"));
        const pipeline::FieldTrainingOutcome out = pipeline::trainFieldExtractor(tinyOptions(model), data);
        QVERIFY2(out.ok, qPrintable(out.error));
        qInfo().noquote() << out.rankerNotes.join(QLatin1Char('\n'));
        QVERIFY2(noteFor(out.rankerNotes, QStringLiteral("maker")).contains(QStringLiteral("trained on the project")),
                 qPrintable(out.rankerNotes.join(QLatin1Char('\n'))));
        QVERIFY(QFile::exists(model + QStringLiteral("/maker-ranker.json")));

        const Document unseen = loadHtmlBytes(shopPage(13), QStringLiteral("shop13.html")).document;
        pipeline::FieldExtractionOptions options;
        options.checkpointDir = model;
        options.shippedModel = false;
        const pipeline::FieldExtraction got = pipeline::extractFields(unseen, fields, options);
        QVERIFY2(got.ok, qPrintable(got.error));
        const auto value = std::find_if(got.values.begin(), got.values.end(), [](const FieldValue &v) { return v.field == QLatin1String("Maker"); });
        QVERIFY(value != got.values.end());
        QCOMPARE(value->text, maker(13));
        QCOMPARE(value->source.checkpoint, QStringLiteral("maker-ranker"));
        QVERIFY(!value->wordIds.isEmpty()); // highlighted where it is printed
    }
};

FOLIO_TEST_MAIN(TestWebFieldRankers)
#include "tst_webfieldrankers.moc"
