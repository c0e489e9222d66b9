// Word by word, the Hugging Face pipeline case (fixtures/parity-next/layoutlmv3_pipeline, or a twin
// of it under $FOLIO_PARITY_DIR) and its white-space variants (tests/inference/layoutlmv3variants.h:
// a tab inside the reference's window, a newline past its cut, one-space words turned into tabs)
// through every path that labels a document (issue 32): DocumentTagger with the suggestions it
// merges (Suggest Labels), the attention run (Show Attention), and folio-cli predict --word-labels
// on Document JSON files, one file and a batch with --jobs 2. Each path gives the reference's label to every word the reference labels
// and, past the reference's cut, the sliding windows' label, the same in every path.
#include "document/documentjson.h"
#include "document/formats/datasetformat.h"
#include "inference/models/hftokenclassifier.h"
#include "pipeline/attentionrun.h"
#include "pipeline/documentprediction.h"
#include "tests/app/clirunner.h"
#include "tests/common/testdata.h"
#include "tests/inference/layoutlmv3variants.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QHash>
#include <QTemporaryDir>
#include <QtTest>

using namespace folio;
using nlohmann::json;
namespace hft = folio::inference::test;

namespace {

QString caseDir()
{
    for (const QString &root : test::parityRoots())
        if (QDir(root + QStringLiteral("/layoutlmv3_pipeline")).exists())
            return root + QStringLiteral("/layoutlmv3_pipeline");
    return test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline"));
}

QString checkpointDir()
{
    return caseDir() + QStringLiteral("/checkpoint");
}

// "B-QUESTION" -> "QUESTION"; "O" and "" (no label) -> "" (outside every entity).
QString entityType(const std::string &label)
{
    if (label.empty() || label == "O")
        return QString();
    const QString l = QString::fromStdString(label);
    return l.size() > 2 && l[1] == QLatin1Char('-') ? l.mid(2) : l;
}

struct Expected
{
    hft::PipelineDocCase c;
    std::vector<std::string> labels;  // per word: the reference's label inside its window, else Slide's
    std::vector<bool> byReference;    // the word has a token in the reference's window
    Document document;
    QString file;                     // the Document JSON written for the CLI
};

} // namespace

class TestHfWordLabels : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::vector<Expected> m_cases;

    // How many reference-labelled words `got` (one label per word, "" none) gets right, and the
    // first word where it differs from the expectation at all.
    static int agreeing(const Expected &e, const std::vector<std::string> &got, std::string *firstDifference)
    {
        int n = 0;
        for (std::size_t k = 0; k < e.labels.size(); ++k) {
            const std::string g = k < got.size() ? got[k] : std::string("<missing>");
            if (e.byReference[k] && !e.c.words[k].empty() && g == e.labels[k])
                ++n;
            if (g != e.labels[k] && firstDifference->empty())
                *firstDifference = e.c.name + ", word " + std::to_string(k) + " \"" + e.c.words[k] + "\": " + g +
                                   " instead of " + e.labels[k];
        }
        return n;
    }

    static int referenceWords(const Expected &e)
    {
        int n = 0;
        for (std::size_t k = 0; k < e.labels.size(); ++k)
            n += e.byReference[k] && !e.c.words[k].empty();
        return n;
    }

    // The word labels of predict's JSON ("word_labels": one {"word", "label"} per Document word).
    static std::vector<std::string> cliLabels(const json &j)
    {
        std::vector<std::string> out;
        for (const auto &w : j.value("word_labels", json::array()))
            out.push_back(w["label"].is_null() ? std::string() : w["label"].get<std::string>());
        return out;
    }

    // predict's "entities" hold each word in an entity of its label's type, O and unlabelled in none.
    static std::string entityDifference(const Expected &e, const json &result)
    {
        QHash<QString, QString> typeOfWord;
        for (const auto &entity : result.value("entities", json::array()))
            for (const auto &id : entity["words"])
                typeOfWord.insert(QString::fromStdString(id.get<std::string>()), QString::fromStdString(entity["label"].get<std::string>()));
        for (std::size_t k = 0; k < e.labels.size(); ++k)
            if (typeOfWord.value(e.document.words[k].id) != entityType(e.labels[k]))
                return e.c.name + ", word " + std::to_string(k) + ": entity " + typeOfWord.value(e.document.words[k].id).toStdString() +
                       " for the label " + e.labels[k];
        return std::string();
    }

    void checkCliLines(const QByteArray &out, const char *what)
    {
        QHash<QString, const Expected *> byFile;
        for (const Expected &e : m_cases)
            byFile.insert(QFileInfo(e.file).fileName(), &e);
        int lines = 0, agree = 0, total = 0;
        for (const QByteArray &line : out.split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            // A batch line: {"input": FILE, "ok": true, "result": predict's JSON}.
            const json j = json::parse(line.toStdString(), nullptr, false);
            QVERIFY2(j.is_object() && j.value("ok", false) && j.contains("result"), line.constData());
            const Expected *e = byFile.value(QFileInfo(QString::fromStdString(j["input"].get<std::string>())).fileName());
            QVERIFY2(e, line.constData());
            std::string diff;
            agree += agreeing(*e, cliLabels(j["result"]), &diff);
            if (diff.empty())
                diff = entityDifference(*e, j["result"]);
            total += referenceWords(*e);
            QVERIFY2(diff.empty(), (std::string(what) + ": " + diff).c_str());
            ++lines;
        }
        QCOMPARE(lines, int(m_cases.size()));
        qInfo("%s: %d of %d reference word labels", what, agree, total);
        QVERIFY(total > 0);
        QCOMPARE(agree, total);
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFile::exists(caseDir() + QStringLiteral("/documents.json")))
            return;
        QVERIFY(m_dir.isValid());
        inference::HfTokenClassifier classifier;
        std::string error;
        QVERIFY2(classifier.load(checkpointDir().toStdString(), &error), error.c_str());
        const auto noNearTie = [&](const hft::PipelineDocCase &c) { return hft::withoutNearTies(classifier, c); };
        for (const hft::PipelineDocCase &c : hft::pipelineDocCases(caseDir(), classifier.maxTokens(), noNearTie)) {
            Expected e;
            e.c = c;
            // The reference call: checked against the constructed window (and, for the case's own
            // documents, against expected.json's labels), then the labels of the words it holds.
            const inference::WordLabelling cut = classifier.label(c.words, c.boxes, inference::HfTokenClassifier::LongPages::Truncate);
            const inference::WordLabelling slide = classifier.label(c.words, c.boxes, inference::HfTokenClassifier::LongPages::Slide);
            QVERIFY2(cut.ok && slide.ok, (cut.error + slide.error).c_str());
            QVERIFY2(hft::tensorInts(cut.windows.front().at("input_ids")) == std::vector<std::int64_t>(c.inputIds.begin(), c.inputIds.end()),
                     c.name.c_str());
            e.byReference.assign(c.words.size(), false);
            for (int w : c.wordIds)
                if (w >= 0)
                    e.byReference[std::size_t(w)] = true;
            for (std::size_t k = 0; k < c.words.size(); ++k) {
                if (!c.variant)
                    QVERIFY2(cut.words[k].label == c.labels[k], (c.name + ", word " + std::to_string(k)).c_str());
                e.labels.push_back(e.byReference[k] ? cut.words[k].label : slide.words[k].label);
            }
            QStringList texts;
            std::vector<NormBox> boxes;
            for (std::size_t k = 0; k < c.words.size(); ++k) {
                texts << QString::fromStdString(c.words[k]);
                boxes.push_back(NormBox{c.boxes[k].x0, c.boxes[k].y0, c.boxes[k].x1, c.boxes[k].y1});
            }
            e.file = m_dir.filePath(QString::fromStdString(c.name) + QStringLiteral(".json"));
            e.document = formats::documentFromWords(e.file, texts, boxes, QSizeF(1000, 1000), QString());
            test::writeTestFile(m_dir, QFileInfo(e.file).fileName(), documentToJson(e.document));
            m_cases.push_back(std::move(e));
        }
    }

    void suggestLabelsGivesTheReferenceLabels()
    {
        FOLIO_REQUIRE_DATA(caseDir() + QStringLiteral("/documents.json"));
        pipeline::DocumentTagger tagger;
        QString error;
        QVERIFY2(tagger.load(checkpointDir(), &error), qPrintable(error));
        int agree = 0, total = 0, tabs = 0;
        for (const Expected &e : m_cases) {
            Document document;
            QVERIFY2(readDocumentJsonFile(e.file, &document, nullptr, &error), qPrintable(error)); // as predict reads it
            QCOMPARE(int(document.words.size()), int(e.c.words.size()));
            for (const Word &w : document.words)
                tabs += w.text == QLatin1String("\t");
            pipeline::DocumentPrediction prediction;
            Annotations suggestions;
            QVERIFY2(pipeline::predictSuggestions(tagger, document, Annotations(), &suggestions, &error, {}, &prediction),
                     qPrintable(error));
            std::vector<std::string> got;
            for (const QString &l : prediction.wordLabels)
                got.push_back(l.toStdString());
            std::string diff;
            agree += agreeing(e, got, &diff);
            total += referenceWords(e);
            QVERIFY2(diff.empty(), diff.c_str());
            QCOMPARE(prediction.words(), int(e.c.words.size())); // every word fed, white space too
            // The suggestions hold each word in an entity of its label's type, O and unlabelled in none.
            QHash<QString, QString> typeOfWord;
            for (const Entity &entity : suggestions.entities)
                for (const QString &id : entity.wordIds) {
                    QVERIFY2(!typeOfWord.contains(id), qPrintable(id));
                    typeOfWord.insert(id, entity.label);
                }
            for (std::size_t k = 0; k < e.labels.size(); ++k)
                QVERIFY2(typeOfWord.value(document.words[k].id) == entityType(e.labels[k]),
                         (e.c.name + ", word " + std::to_string(k) + ": " + e.labels[k]).c_str());
        }
        qInfo("DocumentTagger / Suggest Labels: %d of %d reference word labels", agree, total);
        QVERIFY(total > 0);
        QCOMPARE(agree, total);
        QVERIFY(tabs >= 3); // the variants reached the tagger with their tabs
    }

    // Show Attention labels the words of its trace the same way (the same pages and windows).
    void showAttentionGivesTheReferenceLabels()
    {
        FOLIO_REQUIRE_DATA(caseDir() + QStringLiteral("/documents.json"));
        for (const Expected &e : m_cases) {
            const AttentionRunResult r = runAttentionOnDocument(checkpointDir(), e.document, 0);
            QVERIFY2(r.ok, qPrintable(r.error));
            std::vector<std::string> got;
            for (const QString &l : r.labels)
                got.push_back(l.toStdString());
            std::string diff;
            QCOMPARE(agreeing(e, got, &diff), referenceWords(e));
            QVERIFY2(diff.empty(), diff.c_str());
        }
    }

    void predictGivesTheReferenceLabels()
    {
        FOLIO_REQUIRE_DATA(caseDir() + QStringLiteral("/documents.json"));
        // One file (the long page with a tab in the reference's window): the indented JSON.
        const Expected *longTab = nullptr;
        for (const Expected &e : m_cases)
            if (e.c.variant && e.c.name.find("__tab") != std::string::npos && !e.c.words.empty() &&
                std::count(e.byReference.begin(), e.byReference.end(), false) > 1)
                longTab = &e;
        QVERIFY(longTab);
        const test::CliRun one = test::runCli({QStringLiteral("predict"), QStringLiteral("--argmax"), QStringLiteral("--word-labels"),
                                               QStringLiteral("--checkpoint"), checkpointDir(), longTab->file});
        QVERIFY2(one.code == 0, one.err.constData());
        const json j = json::parse(one.out.toStdString(), nullptr, false);
        std::string diff;
        QCOMPARE(agreeing(*longTab, cliLabels(j), &diff), referenceWords(*longTab));
        QVERIFY2(diff.empty(), diff.c_str());
        QVERIFY2(entityDifference(*longTab, j).empty(), entityDifference(*longTab, j).c_str());
        QCOMPARE(j["words"].get<int>(), int(longTab->c.words.size()));
    }

    void batchesGiveTheReferenceLabels()
    {
        FOLIO_REQUIRE_DATA(caseDir() + QStringLiteral("/documents.json"));
        QStringList files;
        for (const Expected &e : m_cases)
            files << e.file;
        const QStringList args{QStringLiteral("predict"), QStringLiteral("--argmax"), QStringLiteral("--word-labels"),
                               QStringLiteral("--checkpoint"), checkpointDir()};
        const test::CliRun inOrder = test::runCli(args + files);
        QVERIFY2(inOrder.code == 0, inOrder.err.constData());
        checkCliLines(inOrder.out, "predict FILES");
        if (QTest::currentTestFailed())
            return;
        const test::CliRun workers = test::runCli(args + QStringList{QStringLiteral("--jobs"), QStringLiteral("2")} + files);
        QVERIFY2(workers.code == 0, workers.err.constData());
        checkCliLines(workers.out, "predict --jobs 2");
    }
};

FOLIO_TEST_GUILESS_MAIN(TestHfWordLabels)
#include "tst_hfwordlabels.moc"
