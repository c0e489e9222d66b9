// A Hugging Face LayoutLMv3 token-classification checkpoint folder labelling documents word by word,
// against the reference (fixtures/parity-next/layoutlmv3_pipeline): inputs and word ids equal, logits
// within atol 1e-5 / rtol 1e-4, every word's label (or its absence past the truncation) equal.
// Also: sliding windows label every word; bad checkpoint folders are refused and leave the
// previous model loaded.
#include "inference/checkpoint/safetensors.h"
#include "inference/models/hftokenclassifier.h"
#include "tensorcompare.h"
#include "tests/common/testdata.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace folio::inference;
using nlohmann::json;

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

std::vector<std::int64_t> int64s(const Tensor &t)
{
    std::vector<std::int64_t> v;
    for (std::int64_t i = 0; i < t.numel(); ++i)
        v.push_back(std::int64_t(folio::inference::test::valueAt(t, i)));
    return v;
}

std::vector<std::int64_t> flatInts(const json &j)
{
    std::vector<std::int64_t> v;
    for (const auto &x : j) {
        if (x.is_array())
            for (const auto &y : x) v.push_back(y.get<std::int64_t>());
        else
            v.push_back(x.is_null() ? -1 : x.get<std::int64_t>());
    }
    return v;
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
    TensorMap m_outputs;
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
        m_outputs = readSafetensors((caseDir() + QStringLiteral("/outputs.safetensors")).toStdString());
        std::string error;
        QVERIFY2(m_classifier.load((caseDir() + QStringLiteral("/checkpoint")).toStdString(), &error), error.c_str());
    }

    void documents_data()
    {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < m_docs["documents"].size(); ++i)
            QTest::newRow(m_docs["documents"][i]["name"].get<std::string>().c_str()) << int(i);
    }

    void documents()
    {
        FOLIO_REQUIRE_DATA(caseDir() + QStringLiteral("/documents.json"));
        QFETCH(int, index);
        const json &doc = m_docs["documents"][std::size_t(index)];
        const json &want = m_expected["documents"][std::size_t(index)];
        std::vector<std::string> words;
        std::vector<WordBox> boxes;
        inputsOf(doc, &words, &boxes);
        const WordLabelling got = m_classifier.label(words, boxes, HfTokenClassifier::LongPages::Truncate);
        QVERIFY2(got.ok, got.error.c_str());
        QCOMPARE(got.windows.size(), std::size_t(1));
        const TensorMap &w = got.windows.front();
        QCOMPARE(int64s(w.at("input_ids")), flatInts(want["input_ids"]));
        QCOMPARE(int64s(w.at("bbox")), flatInts(want["bbox"]));
        QCOMPARE(int64s(w.at("attention_mask")), flatInts(want["attention_mask"]));
        std::vector<std::int64_t> wordIds(got.windowWordIds.front().begin(), got.windowWordIds.front().end());
        QCOMPARE(wordIds, flatInts(want["word_ids"]));
        const std::string prefix = "doc" + std::to_string(index) + ".";
        const auto d = folio::inference::test::compareTensors(w.at("logits"), m_outputs.at(prefix + "logits"), 1e-5, 1e-4);
        qInfo("%s: logits max|diff| %.3g", doc["name"].get<std::string>().c_str(), d.maxAbs);
        QVERIFY2(d.ok, d.message.c_str());
        for (const auto &ew : want["words"]) {
            const WordLabel &l = got.words[ew["index"].get<std::size_t>()];
            if (ew["pred_label"].is_null()) {
                QCOMPARE(l.labelId, -1);
            } else {
                QCOMPARE(l.label, ew["pred_label"].get<std::string>());
                QVERIFY(std::abs(l.margin - ew["margin"].get<float>()) < 1e-4f);
            }
        }
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
