// A Hugging Face LayoutLMv3 token-classification checkpoint folder (fixtures/parity-next/
// layoutlmv3_pipeline) beyond the reference: sliding windows label every word of long pages, but
// only the words the reference truncates (its own call is the first window, white-space-only words
// fed as tokens: layoutlmv3variants.h); bad checkpoint folders are refused and leave the previous
// model loaded. Parity with the reference (inputs, word ids, logits, labels) is checked by
// tst_inference_parity (layoutlmv3cases.h).
#include "inference/models/hftokenclassifier.h"
#include "layoutlmv3variants.h"
#include "tests/common/testdata.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace folio::inference;
using nlohmann::json;
namespace hft = folio::inference::test;

namespace {

QString caseDir()
{
    for (const QString &root : folio::test::parityRoots())
        if (QDir(root + QStringLiteral("/layoutlmv3_pipeline")).exists())
            return root + QStringLiteral("/layoutlmv3_pipeline");
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline"));
}

json readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return json();
    return json::parse(f.readAll().toStdString());
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

} // namespace

class TestLayoutLMv3Pipeline : public QObject
{
    Q_OBJECT

private:
    json m_docs, m_expected;
    HfTokenClassifier m_classifier;

    void inputsOf(const json &doc, std::vector<std::string> *words, std::vector<WordBox> *boxes)
    {
        for (const auto &w : doc["words"]) words->push_back(w.get<std::string>());
        for (const auto &b : doc["boxes"]) boxes->push_back(WordBox{b[0].get<int>(), b[1].get<int>(), b[2].get<int>(), b[3].get<int>()});
    }

    // A copy of the checkpoint folder to break.
    QString copyCheckpoint(const QTemporaryDir &dir)
    {
        const QDir from(caseDir() + QStringLiteral("/checkpoint"));
        for (const QString &name : from.entryList(QDir::Files))
            QFile::copy(from.filePath(name), dir.filePath(name));
        return dir.path();
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFile::exists(caseDir() + QStringLiteral("/documents.json")))
            return;
        m_docs = readJson(caseDir() + QStringLiteral("/documents.json"));
        m_expected = readJson(caseDir() + QStringLiteral("/expected.json"));
        std::string error;
        QVERIFY2(m_classifier.load((caseDir() + QStringLiteral("/checkpoint")).toStdString(), &error), error.c_str());
    }

    void slidingWindowsLabelEveryWord()
    {
        FOLIO_REQUIRE_DATA(caseDir() + QStringLiteral("/documents.json"));
        for (std::size_t i = 0; i < m_docs["documents"].size(); ++i) {
            std::vector<std::string> words;
            std::vector<WordBox> boxes;
            inputsOf(m_docs["documents"][i], &words, &boxes);
            const WordLabelling slide = m_classifier.label(words, boxes, HfTokenClassifier::LongPages::Slide);
            const WordLabelling cut = m_classifier.label(words, boxes, HfTokenClassifier::LongPages::Truncate);
            QVERIFY2(slide.ok, slide.error.c_str());
            for (std::size_t k = 0; k < words.size(); ++k) {
                QCOMPARE(slide.words[k].labelId < 0, words[k].empty());
                QVERIFY(slide.words[k].confidence >= 0 && slide.words[k].confidence <= 1);
            }
            if (cut.windows.size() == 1 && slide.windows.size() == 1) // short page: the same call
                for (std::size_t k = 0; k < words.size(); ++k)
                    QCOMPARE(slide.words[k].label, cut.words[k].label);
            if (m_expected["documents"][i]["truncated"].get<bool>())
                QVERIFY(slide.windows.size() > 1);
        }
    }

    // Slide labels every word the reference labels from the reference's own (truncated) call, the
    // first window, white-space-only words fed as one token each; only the words past the cut come
    // from later windows. Originals against expected.json; variants against their constructed
    // reference window and the labels of that call.
    void theFirstWindowIsTheReferenceCall()
    {
        FOLIO_REQUIRE_DATA(caseDir() + QStringLiteral("/documents.json"));
        const std::vector<hft::PipelineDocCase> cases = hft::pipelineDocCases(
            caseDir(), m_classifier.maxTokens(), [&](const hft::PipelineDocCase &c) { return hft::withoutNearTies(m_classifier, c); });
        QVERIFY(cases.size() > m_docs["documents"].size()); // the variants were built
        int variants = 0, truncatedVariants = 0;
        for (const hft::PipelineDocCase &c : cases) {
            const WordLabelling slide = m_classifier.label(c.words, c.boxes, HfTokenClassifier::LongPages::Slide);
            const WordLabelling cut = m_classifier.label(c.words, c.boxes, HfTokenClassifier::LongPages::Truncate);
            QVERIFY2(slide.ok && cut.ok, (c.name + ": " + slide.error + cut.error).c_str());
            const TensorMap &first = slide.windows.front();
            std::vector<std::int64_t> ids(c.inputIds.begin(), c.inputIds.end()), box;
            for (const WordBox &b : c.tokenBoxes)
                box.insert(box.end(), {b.x0, b.y0, b.x1, b.y1});
            QVERIFY2(hft::tensorInts(first.at("input_ids")) == ids, c.name.c_str());
            QVERIFY2(hft::tensorInts(first.at("bbox")) == box, c.name.c_str());
            QVERIFY2(slide.windowWordIds.front() == c.wordIds, c.name.c_str());
            std::vector<bool> inFirst(c.words.size(), false);
            for (int w : c.wordIds)
                if (w >= 0)
                    inFirst[std::size_t(w)] = true;
            float smallestMargin = 1e9f;
            for (std::size_t k = 0; k < c.words.size(); ++k) {
                const std::string where = c.name + ", word " + std::to_string(k);
                QVERIFY2((slide.words[k].labelId < 0) == c.words[k].empty(), where.c_str());
                QVERIFY2((cut.words[k].labelId >= 0) == inFirst[k], where.c_str());
                if (inFirst[k]) {
                    QVERIFY2(slide.words[k].label == cut.words[k].label, where.c_str());
                    QCOMPARE(slide.words[k].margin, cut.words[k].margin); // the same window, not a later one
                    smallestMargin = std::min(smallestMargin, cut.words[k].margin);
                }
                if (!c.variant)
                    QVERIFY2(cut.words[k].label == c.labels[k] && (!inFirst[k] || slide.words[k].label == c.labels[k]),
                             (where + ": " + slide.words[k].label + " vs the reference's " + c.labels[k]).c_str());
            }
            if (c.variant) {
                ++variants;
                if (cut.windows.size() == 1 && slide.windows.size() > 1)
                    ++truncatedVariants;
                qInfo("%s: %d windows, smallest margin in the reference window %.4f", c.name.c_str(), int(slide.windows.size()),
                      double(smallestMargin));
            }
        }
        QVERIFY(variants >= int(m_docs["documents"].size()));
        QVERIFY(truncatedVariants >= 1); // a long page with a tab inside the reference's window
    }

    void badCheckpointsAreRefused()
    {
        FOLIO_REQUIRE_DATA(caseDir() + QStringLiteral("/checkpoint"));
        HfTokenClassifier c;
        std::string error;
        QVERIFY2(c.load((caseDir() + QStringLiteral("/checkpoint")).toStdString(), &error), error.c_str());
        const std::vector<std::string> labelsBefore = c.labels();
        auto refused = [&](const QString &dir, const QString &needle) {
            std::string e;
            QVERIFY(!c.load(dir.toStdString(), &e));
            QVERIFY2(QString::fromStdString(e).contains(needle), e.c_str());
            QVERIFY(c.isLoaded()); // the previous checkpoint is still there
            QCOMPARE(c.labels(), labelsBefore);
            QVERIFY(c.label({"Date:"}, {WordBox{1, 2, 3, 4}}).ok);
        };
        {
            QTemporaryDir dir;
            copyCheckpoint(dir);
            QFile::remove(dir.filePath(QStringLiteral("merges.txt")));
            refused(dir.path(), QStringLiteral("merges.txt"));
        }
        {
            QTemporaryDir dir;
            copyCheckpoint(dir);
            json config = readJson(dir.filePath(QStringLiteral("config.json")));
            config["model_type"] = "bert";
            writeFile(dir.filePath(QStringLiteral("config.json")), QByteArray::fromStdString(config.dump()));
            refused(dir.path(), QStringLiteral("model_type \"bert\""));
            config["model_type"] = "layoutlmv3";
            config["id2label"].erase("4");
            writeFile(dir.filePath(QStringLiteral("config.json")), QByteArray::fromStdString(config.dump()));
            refused(dir.path(), QStringLiteral("id2label names 4 labels"));
        }
        QVERIFY(!c.label({"a", "b"}, {WordBox{}}).ok); // words and boxes disagree
    }
};

FOLIO_TEST_GUILESS_MAIN(TestLayoutLMv3Pipeline)
#include "tst_layoutlmv3_pipeline.moc"
