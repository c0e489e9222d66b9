// The key -> value link head (issue 16): trained for a few epochs on real FUNSD pages over the
// shipped reading-order tagger (a copy), loaded back, scored, refused when broken; and link
// suggestions through DocumentTagger (what Suggest Labels and folio-cli predict run), which never
// go over what the user linked or rejected.
#include "document/formats/funsd.h"
#include "inference/formtagger/linking.h"
#include "inference/formtagger/predictor.h"
#include "pipeline/documentprediction.h"
#include "pipeline/linkdata.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "pipeline/taggertraining.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using namespace folio;

namespace {

const QString kTagger = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading");

// The tagger's files only (no link head) into `dir`.
bool copyTagger(const QString &dir)
{
    for (const char *name : {"config.json", "model.safetensors", "spm.model", "folio.json"})
        if (QFile::exists(kTagger + "/" + name) && !QFile::copy(kTagger + "/" + name, dir + "/" + name))
            return false;
    return true;
}

} // namespace

class TestLinking : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_withHead, m_withoutHead;
    std::vector<inference::LinkPage> m_train, m_dev;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_withHead = m_dir.filePath(QStringLiteral("with-head"));
        m_withoutHead = m_dir.filePath(QStringLiteral("without-head"));
        QVERIFY(QDir().mkpath(m_withHead) && QDir().mkpath(m_withoutHead));
        QVERIFY(copyTagger(m_withHead) && copyTagger(m_withoutHead));
    }

    void scoresCountLinksExactly()
    {
        inference::LinkPage gold;
        gold.entities = {{"QUESTION", {0}}, {"ANSWER", {1, 2}}, {"QUESTION", {3}}, {"ANSWER", {4}}};
        gold.links = {{0, 1}, {2, 3}};
        // End to end: predicted entity 1 covers only word 1 (not the gold answer), entity 2 is right.
        const std::vector<inference::LinkEntity> predictedEntities{{"QUESTION", {0}}, {"ANSWER", {1}}, {"QUESTION", {3}}, {"ANSWER", {4}}};
        inference::LinkScore s;
        inference::scoreLinks(gold, predictedEntities, {{0, 1, 0.9}, {2, 3, 0.8}, {0, 3, 0.7}, {2, 3, 0.6}}, &s);
        QCOMPARE(s.tp, 1L); // (2, 3) once; its duplicate is a false positive
        QCOMPARE(s.fp, 3L);
        QCOMPARE(s.fn, 1L);
        QCOMPARE(s.f1(), 2 * 0.25 * 0.5 / 0.75);
    }

    void trainsOnFunsdAndPredicts()
    {
        const QString funsd = test::sharedPath(QStringLiteral("data/funsd/dataset"));
        FOLIO_REQUIRE_DATA(funsd);
        std::vector<inference::LinkPage> pages;
        QString error;
        QVERIFY2(pipeline::loadFunsdLinkPages(funsd, QStringLiteral("dev"), FunsdWordOrder::Reading, &pages, &error), qPrintable(error));
        QVERIFY(pages.size() >= 12);
        m_train.assign(pages.begin(), pages.begin() + 8);
        m_dev.assign(pages.begin() + 8, pages.begin() + 12);
        for (const inference::LinkPage &p : m_train)
            for (const auto &[from, to] : p.links) {
                QVERIFY(from >= 0 && to >= 0 && from != to);
                QVERIFY(size_t(std::max(from, to)) < p.entities.size());
            }

        inference::LinkTrainConfig cfg;
        cfg.checkpointDir = m_withHead.toStdString();
        cfg.epochs = 4;
        cfg.threads = 2;
        std::vector<double> losses;
        const inference::LinkTrainResult r = inference::trainLinkHead(cfg, m_train, m_dev, [&](const inference::LinkTrainProgress &p) {
            losses.push_back(p.loss);
        });
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(int(losses.size()), 4);
        QVERIFY2(losses.back() < losses.front(), "the training loss did not go down");
        QVERIFY(r.bestEpoch >= 1 && r.bestEpoch <= 4);
        QVERIFY(r.threshold >= 0.3 && r.threshold <= 0.9);
        QVERIFY(QFile::exists(m_withHead + "/link_head.json") && QFile::exists(m_withHead + "/link_head.safetensors"));

        inference::LinkPredictor predictor;
        std::string why;
        QVERIFY2(predictor.load(cfg.checkpointDir, &why), why.c_str());
        QVERIFY(predictor.hasHead());
        inference::LinkScore score;
        long goldLinks = 0;
        for (const inference::LinkPage &p : m_dev) {
            std::vector<inference::PredictedLink> links;
            QVERIFY2(predictor.predict(p.page, p.entities, &links, &why), why.c_str());
            QSet<int> targets;
            for (size_t i = 0; i < links.size(); ++i) {
                const inference::PredictedLink &l = links[i];
                QVERIFY(l.from != l.to && size_t(l.from) < p.entities.size() && size_t(l.to) < p.entities.size());
                QVERIFY(l.confidence > r.threshold && l.confidence <= 1.0);
                QVERIFY2(!targets.contains(l.to), "an entity got two incoming links");
                targets.insert(l.to);
                if (i > 0)
                    QVERIFY(links[i - 1].confidence >= l.confidence);
            }
            inference::scoreLinks(p, p.entities, links, &score);
            goldLinks += long(p.links.size());
        }
        QCOMPARE(score.tp + score.fn, goldLinks);
        QVERIFY2(score.tp > 0, "not one dev link found after training");
    }

    void checkpointWithoutHeadHasNoLinks()
    {
        inference::LinkPredictor predictor;
        std::string why;
        QVERIFY2(predictor.load(m_withoutHead.toStdString(), &why), why.c_str());
        QVERIFY(!predictor.hasHead());
        pipeline::DocumentTagger tagger;
        QString error;
        QVERIFY2(tagger.load(m_withoutHead, &error), qPrintable(error));
        QVERIFY(!tagger.hasLinkHead());
    }

    void brokenHeadsAreRefused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("content"); // empty: the file is removed
        QTest::addColumn<QString>("message");
        QTest::newRow("weights missing") << "link_head.safetensors" << QByteArray() << "must come together";
        QTest::newRow("not a link head") << "link_head.json" << QByteArray(R"({"format": "other"})") << "not a Folio link head";
        QTest::newRow("not json") << "link_head.json" << QByteArray("{oops") << "link_head.json";
        QTest::newRow("other entity types")
            << "link_head.json" << QByteArray(R"({"format": "folio.linkhead", "entity_types": ["KEY"], "hidden_size": 128})")
            << "entity_types do not match";
        QTest::newRow("truncated weights") << "link_head.safetensors" << QByteArray("\x10\x00\x00\x00\x00\x00\x00\x00{\"a\"", 12)
                                           << "link_head.safetensors";
    }

    void brokenHeadsAreRefused()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        if (!QFile::exists(m_withHead + "/link_head.json"))
            FOLIO_DATA_MISSING(QStringLiteral("needs the head trained by trainsOnFunsdAndPredicts (FUNSD data)"));
        const QString broken = m_dir.filePath(QStringLiteral("broken-%1").arg(QTest::currentDataTag()).replace(' ', '-'));
        QVERIFY(QDir().mkpath(broken) && copyTagger(broken));
        QVERIFY(QFile::copy(m_withHead + "/link_head.json", broken + "/link_head.json"));
        QVERIFY(QFile::copy(m_withHead + "/link_head.safetensors", broken + "/link_head.safetensors"));
        QFile f(broken + "/" + file);
        if (content.isEmpty()) {
            QVERIFY(f.remove());
        } else {
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(content);
            f.close();
        }
        inference::LinkPredictor predictor;
        std::string why;
        QVERIFY(!predictor.load(broken.toStdString(), &why));
        QVERIFY2(QString::fromStdString(why).contains(message), why.c_str());
        // The whole checkpoint is refused, and the model loaded before stays.
        pipeline::DocumentTagger tagger;
        QString error;
        QVERIFY2(tagger.load(m_withoutHead, &error), qPrintable(error));
        QVERIFY(!tagger.load(broken, &error));
        QVERIFY2(error.contains(message), qPrintable(error));
        QCOMPARE(tagger.checkpointDir(), QDir::cleanPath(m_withoutHead));
    }

    // Suggest Labels' path: entities and links in one run; links may end at the user's entities,
    // never into an entity the user already linked, never a pair the user rejected.
    void suggestionsRespectTheUsersLinks()
    {
        if (!QFile::exists(m_withHead + "/link_head.json"))
            FOLIO_DATA_MISSING(QStringLiteral("needs the head trained by trainsOnFunsdAndPredicts (FUNSD data)"));
        const QString file = test::sharedPath(QStringLiteral("data/funsd/dataset/training_data/annotations/0000971160.json"));
        FOLIO_REQUIRE_DATA(file);
        Document doc;
        Annotations gold;
        QString error;
        QVERIFY2(importFunsdFile(file, FunsdWordOrder::Reading, &doc, &gold, &error), qPrintable(error));
        pipeline::DocumentTagger tagger;
        QVERIFY2(tagger.load(m_withHead, &error), qPrintable(error));
        QVERIFY(tagger.hasLinkHead());

        // The user kept the gold entities and one gold link, and rejected another gold link.
        QVERIFY(gold.links.size() >= 2);
        Annotations current;
        current.entities = gold.entities;
        for (Entity &e : current.entities)
            e.state = ReviewState::Accepted;
        current.links = {gold.links[0], gold.links[1]};
        current.links[1].state = ReviewState::Rejected;
        Annotations suggestions;
        QVERIFY2(pipeline::predictSuggestions(tagger, doc, current, &suggestions, &error), qPrintable(error));
        QVERIFY2(suggestions.entities.empty(), "the user's entities cover every word the model labels");
        QVERIFY2(!suggestions.links.empty(), "no link suggested among the user's entities");
        QSet<QString> ids;
        for (const Link &l : suggestions.links) {
            QVERIFY(current.entity(l.from) && current.entity(l.to));
            QVERIFY(l.to != current.links[0].to);
            QVERIFY(!(l.from == current.links[1].from && l.to == current.links[1].to));
            QCOMPARE(l.state, ReviewState::Suggested);
            QCOMPARE(l.source.kind, AnnotationSource::Model);
            QVERIFY(!ids.contains(l.id) && !current.entity(l.id));
            ids.insert(l.id);
        }
        Annotations merged = current;
        mergeModelAnnotations(merged, suggestions);
        QCOMPARE(merged.links.size(), current.links.size() + suggestions.links.size());

        // Without the user's entities the run suggests entities and links among them.
        QVERIFY2(pipeline::predictSuggestions(tagger, doc, Annotations(), &suggestions, &error), qPrintable(error));
        QVERIFY(!suggestions.entities.empty());
        for (const Link &l : suggestions.links)
            QVERIFY(suggestions.entity(l.from) && suggestions.entity(l.to));
        // Links can be switched off.
        pipeline::PredictOptions noLinks;
        noLinks.links = false;
        QVERIFY2(pipeline::predictSuggestions(tagger, doc, Annotations(), &suggestions, &error, noLinks), qPrintable(error));
        QVERIFY(suggestions.links.empty());
    }

    // Suggest Labels runs the encoder once a page: the link head reads the states the tagger kept.
    // Same tags, same links (pairs and confidences) as the head running the encoder itself.
    void sharedEncoderPassGivesTheSameLinks()
    {
        const QString file = test::sharedPath(QStringLiteral("data/funsd/dataset/testing_data/annotations/82092117.json"));
        FOLIO_REQUIRE_DATA(file);
        Document doc;
        Annotations gold;
        QString error;
        QVERIFY2(importFunsdFile(file, FunsdWordOrder::Reading, &doc, &gold, &error), qPrintable(error));
        const std::vector<pipeline::DocumentTaggerPage> pages = pipeline::taggerPagesOfDocument(doc, nullptr, false);
        QCOMPARE(int(pages.size()), 1);
        const inference::TaggerPage &page = pages[0].taggerPage;

        inference::Predictor predictor;
        inference::LinkPredictor links;
        std::string why;
        QVERIFY2(predictor.load(kTagger.toStdString(), &why), why.c_str());
        QVERIFY2(links.load(kTagger.toStdString(), &why), why.c_str());
        QVERIFY2(links.hasHead(), "the shipped reading-order model carries a link head");
        inference::PagePrediction plain, kept;
        inference::WordStates states;
        QVERIFY2(predictor.predict(page, &plain, &why), why.c_str());
        QVERIFY2(predictor.predict(page, &kept, &why, true, nullptr, nullptr, &states), why.c_str());
        QCOMPARE(kept.tags, plain.tags);
        QCOMPARE(kept.confidences.size(), plain.confidences.size());
        for (size_t i = 0; i < kept.confidences.size(); ++i)
            QVERIFY(std::abs(kept.confidences[i] - plain.confidences[i]) < 1e-6);
        QCOMPARE(states.words, int(page.words.size()));
        QCOMPARE(states.values.size(), size_t(states.words) * size_t(states.dim));

        const std::vector<inference::LinkEntity> entities = inference::linkEntities(kept.entities);
        QVERIFY(entities.size() >= 10);
        std::vector<inference::PredictedLink> own, shared;
        QVERIFY2(links.predict(page, entities, &own, &why), why.c_str());
        QVERIFY2(links.predict(page, states, entities, &shared, &why), why.c_str());
        QVERIFY2(!own.empty(), "the shipped head proposes no link on a FUNSD test page");
        QCOMPARE(shared.size(), own.size());
        for (size_t i = 0; i < own.size(); ++i) {
            QCOMPARE(shared[i].from, own[i].from);
            QCOMPARE(shared[i].to, own[i].to);
            QVERIFY(std::abs(shared[i].confidence - own[i].confidence) < 1e-5);
        }

        // States of another page (or another encoder) are refused, not read past their end.
        inference::WordStates wrong = states;
        wrong.words -= 1;
        wrong.values.resize(size_t(wrong.words) * size_t(wrong.dim));
        QVERIFY(!links.predict(page, wrong, entities, &shared, &why));
        QVERIFY2(QString::fromStdString(why).contains("do not fit"), why.c_str());
        wrong = states;
        wrong.values.pop_back();
        QVERIFY(!links.predict(page, wrong, entities, &shared, &why));

        // Through DocumentTagger: the prediction keeps the states only when links are wanted, and
        // the links from them equal those of a second encoder pass.
        pipeline::DocumentTagger tagger;
        QVERIFY2(tagger.load(kTagger, &error), qPrintable(error));
        pipeline::PredictOptions noLinks;
        noLinks.links = false;
        const pipeline::DocumentPrediction without = tagger.predict(doc, noLinks);
        QVERIFY2(without.ok, qPrintable(without.error));
        QVERIFY(!without.encoderStates);
        Annotations viaShared;
        pipeline::DocumentPrediction with;
        QVERIFY2(pipeline::predictSuggestions(tagger, doc, Annotations(), &viaShared, &error, {}, &with), qPrintable(error));
        QVERIFY(with.encoderStates);
        Annotations entitiesOnly;
        QVERIFY2(pipeline::suggestionsFromPrediction(tagger, without, doc, Annotations(), &entitiesOnly, &error, noLinks),
                 qPrintable(error));
        QVERIFY(entitiesOnly.links.empty());
        std::vector<Link> secondPass;
        QVERIFY2(tagger.suggestLinks(doc, entitiesOnly, &secondPass, &error), qPrintable(error));
        QVERIFY(!secondPass.empty());
        QCOMPARE(int(viaShared.links.size()), int(secondPass.size()));
        for (size_t i = 0; i < secondPass.size(); ++i) {
            const Link &a = viaShared.links[i];
            const Link &b = secondPass[i];
            QCOMPARE(viaShared.entity(a.from)->wordIds, entitiesOnly.entity(b.from)->wordIds);
            QCOMPARE(viaShared.entity(a.to)->wordIds, entitiesOnly.entity(b.to)->wordIds);
            QVERIFY(std::abs(a.confidence - b.confidence) < 1e-5);
        }
    }
};

FOLIO_TEST_GUILESS_MAIN(TestLinking)
#include "tst_linking.moc"
