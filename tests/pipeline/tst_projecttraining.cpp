// Training on a .folio project (issue 12): the accepted labels of the project's documents become
// pages with the project's own label set, and an architecture trains on them; refusals for a
// missing project, too few labelled pages and tags that are not BIO.
#include "document/formats/funsd.h"
#include "document/project/project.h"
#include "pipeline/documentprediction.h"
#include "pipeline/projecttraining.h"
#include "pipeline/taggertraining.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include <nlohmann/json.hpp>

using namespace folio;

namespace {

QString funsdRoot()
{
    const QString shared = qEnvironmentVariableIsSet("FOLIO_SHARED_DIR") ? qEnvironmentVariable("FOLIO_SHARED_DIR")
                                                                        : QStringLiteral(FOLIO_SHARED_DIR);
    return shared + "/data/funsd/dataset";
}

// A project with `count` FUNSD pages; each entity label renamed through `rename` (the user's own set).
bool makeProject(const QString &path, int count, const QString &prefix, QString *error)
{
    auto project = Project::create(path, error);
    if (!project)
        return false;
    for (const QString &f : funsdSplitFiles(funsdRoot(), "train").mid(0, count)) {
        Document doc;
        Annotations annotations;
        if (!importFunsdFile(f, FunsdWordOrder::Annotation, &doc, &annotations, error))
            return false;
        for (Entity &e : annotations.entities) {
            e.label = prefix + e.label.toUpper();
            e.state = ReviewState::Accepted;
        }
        if (project->addDocument(doc, annotations, error) < 0)
            return false;
    }
    return true;
}

inference::TrainConfig tinyConfig(const std::vector<std::string> &labels, const QString &outputDir)
{
    inference::TrainConfig cfg;
    cfg.labels = labels;
    cfg.outputDir = outputDir.toStdString();
    cfg.tokenizerDir = FOLIO_SOURCE_DIR "/tests/data/tokenizers/wordpiece";
    cfg.hidden = 32;
    cfg.layers = 1;
    cfg.heads = 2;
    cfg.intermediate = 64;
    cfg.maxWords = 128;
    cfg.windowStride = 96;
    cfg.epochs = 2;
    cfg.batchSize = 1;
    cfg.threads = 1;
    return cfg;
}

} // namespace

class TestProjectTraining : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void projectLabelsAndArchitecture()
    {
        QTemporaryDir tmp;
        const QString path = tmp.path() + "/forms.folio";
        QString error;
        QVERIFY2(makeProject(path, 3, "MY_", &error), qPrintable(error));
        std::vector<inference::TaggerPage> pages;
        std::vector<std::string> labels;
        int documents = 0;
        QVERIFY2(pipeline::loadProjectTrainingData(path, &pages, &labels, &documents, &error), qPrintable(error));
        QCOMPARE(documents, 3);
        QCOMPARE(int(pages.size()), 3);
        QCOMPARE(labels.front(), std::string("O"));
        QVERIFY(std::find(labels.begin(), labels.end(), "B-MY_QUESTION") != labels.end());
        QVERIFY(std::find(labels.begin(), labels.end(), "I-MY_ANSWER") != labels.end());
        QVERIFY(std::find(labels.begin(), labels.end(), "B-QUESTION") == labels.end());
        QCOMPARE(labels.size() % 2, size_t(1));

        inference::TrainConfig cfg = tinyConfig(labels, tmp.path() + "/model");
        cfg.architecture = "ernie";
        const pipeline::TaggerTrainOutcome r = pipeline::trainTaggerOnPages(cfg, pages, {}, nullptr);
        QVERIFY2(r.ok, qPrintable(r.error));
        std::ifstream in(cfg.outputDir + "/config.json");
        const nlohmann::json config = nlohmann::json::parse(in);
        QCOMPARE(config.at("architecture").get<std::string>(), std::string("ernie"));
        QCOMPARE(config.at("id2label").size(), labels.size());
        QCOMPARE(config.at("label2id").count("B-MY_HEADER") + config.at("label2id").count("B-MY_QUESTION"), size_t(2));
    }

    // Training in the layout-aware order: the project's pages are re-serialised (same words, another
    // order), the checkpoint records "word_order": "layout", and the tagger that loads it serialises
    // every document so when it predicts; a checkpoint without the key keeps the document's order.
    void layoutOrderTravelsWithTheCheckpoint()
    {
        QTemporaryDir tmp;
        const QString path = tmp.path() + "/forms.folio";
        QString error;
        QVERIFY2(makeProject(path, 2, "", &error), qPrintable(error));
        std::vector<inference::TaggerPage> stored, layout;
        std::vector<std::string> labels;
        int documents = 0;
        QVERIFY2(pipeline::loadProjectTrainingData(path, &stored, &labels, &documents, &error), qPrintable(error));
        QVERIFY2(pipeline::loadProjectTrainingData(path, &layout, &labels, &documents, &error, true), qPrintable(error));
        QCOMPARE(layout.size(), stored.size());
        bool reordered = false;
        for (size_t i = 0; i < stored.size(); ++i) {
            reordered = reordered || layout[i].words != stored[i].words;
            auto a = stored[i].words, b = layout[i].words;
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            QVERIFY(a == b); // a permutation of the same words
        }
        QVERIFY(reordered);

        inference::TrainConfig cfg = tinyConfig(labels, tmp.path() + "/layout-model");
        cfg.wordOrder = "layout";
        QVERIFY2(pipeline::trainTaggerOnPages(cfg, layout, {}, nullptr).ok, "training failed");
        std::ifstream in(cfg.outputDir + "/config.json");
        const nlohmann::json config = nlohmann::json::parse(in);
        QCOMPARE(config.at("word_order").get<std::string>(), std::string("layout"));
        pipeline::DocumentTagger tagger;
        QVERIFY2(tagger.load(QString::fromStdString(cfg.outputDir), &error), qPrintable(error));
        QVERIFY(tagger.usesLayoutOrder());

        inference::TrainConfig plain = tinyConfig(labels, tmp.path() + "/plain-model");
        QVERIFY2(pipeline::trainTaggerOnPages(plain, stored, {}, nullptr).ok, "training failed");
        pipeline::DocumentTagger plainTagger;
        QVERIFY2(plainTagger.load(QString::fromStdString(plain.outputDir), &error), qPrintable(error));
        QVERIFY(!plainTagger.usesLayoutOrder());

        // an unknown word order in config.json is refused, naming the file
        nlohmann::json broken = config;
        broken["word_order"] = "diagonal";
        std::ofstream(cfg.outputDir + "/config.json") << broken.dump();
        pipeline::DocumentTagger refused;
        QVERIFY(!refused.load(QString::fromStdString(cfg.outputDir), &error));
        QVERIFY2(error.contains("config.json") && error.contains("diagonal"), qPrintable(error));
    }

    void refusals()
    {
        QTemporaryDir tmp;
        std::vector<inference::TaggerPage> pages;
        std::vector<std::string> labels;
        int documents = 0;
        QString error;
        QVERIFY(!pipeline::loadProjectTrainingData(tmp.path() + "/missing.folio", &pages, &labels, &documents, &error));
        QVERIFY2(error.contains("missing.folio"), qPrintable(error));

        const QString one = tmp.path() + "/one.folio";
        QVERIFY2(makeProject(one, 1, "", &error), qPrintable(error));
        QVERIFY(!pipeline::loadProjectTrainingData(one, &pages, &labels, &documents, &error));
        QVERIFY2(error.contains("one.folio") && error.contains("at least 2"), qPrintable(error));

        inference::TaggerPage bad;
        bad.id = "p7";
        bad.words = {"a", "b"};
        bad.tags = {"O", "QUESTION"};
        QVERIFY(!pipeline::labelSetOfPages({bad}, &labels, &error));
        QVERIFY2(error.contains("p7") && error.contains("\"QUESTION\""), qPrintable(error));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestProjectTraining)
#include "tst_projecttraining.moc"
