// Ensembles of form taggers (inference/formtagger/predictor.h, issue 37): an ensemble folder's
// prediction is the members' averaged label probabilities decoded (checked against the members run
// one by one on a FUNSD test page), the same folder twice is the folder itself, the pipeline's
// DocumentTagger and `info --checkpoint` take it, and malformed ensembles are refused before any
// member is used: a missing member (named), another label map, another word order, one member,
// an ensemble inside an ensemble, an ensemble listing itself.
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/formtagger/detail/taggermodel.h"
#include "inference/formtagger/predictor.h"
#include "inference/tokenizers/tokenizer.h"
#include "pipeline/checkpointinfo.h"
#include "pipeline/documentprediction.h"
#include "tests/common/funsdtestpage.h"
#include "tests/common/testdata.h"

#include <QtTest>

#include <cmath>
#include <fstream>

using namespace folio;
namespace inf = folio::inference;
namespace det = folio::inference::detail;

namespace {

const std::string kModels = FOLIO_SOURCE_DIR "/resources/models";
const std::string kProtocol = kModels + "/funsd-layout";   // FUNSD only, protocol order
const std::string kBilingual = kModels + "/forms-en-de";   // FUNSD + XFUND-de, protocol order
const std::string kReading = kModels + "/forms-en-de-reading";
const std::string kReceipts = kModels + "/sroie-receipts"; // another label map

// Writes <dir>/config.json of an ensemble with these members.
void writeEnsemble(const QString &dir, const std::vector<std::string> &members)
{
    QDir().mkpath(dir);
    std::ofstream out((dir + "/config.json").toStdString());
    out << "{\"model_type\": \"folio-formtagger-ensemble\", \"members\": [";
    for (size_t i = 0; i < members.size(); ++i)
        out << (i ? ", " : "") << '"' << members[i] << '"';
    out << "]}";
}

// The member's n x L log-probabilities on the page, computed as the Predictor computes one tagger's.
std::vector<float> memberLogProbs(const std::string &dir, const inf::TaggerPage &page)
{
    const det::TaggerConfig cfg = det::TaggerConfig::fromJsonFile(dir + "/config.json");
    det::ParamStore store(dir + "/model.safetensors");
    det::Tagger tagger(cfg, store);
    const auto tok = inf::Tokenizer::fromDirectory(dir);
    return det::predictLogProbs(tagger, *tok, page);
}

} // namespace

class TestTaggerEnsemble : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void averagesMemberProbabilities();
    void sameFolderTwiceIsTheFolder();
    void pipelineAndInfoTakeIt();
    void shippedEnsembleLoads();
    void refusals_data();
    void refusals();

private:
    QTemporaryDir m_tmp;
    Document m_doc;
    inf::TaggerPage m_page;
};

void TestTaggerEnsemble::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    FOLIO_FIRST_FUNSD_TEST_PAGE(&m_doc, &m_page);
}

// Argmax decoding of the ensemble = argmax of the mean of the members' probabilities, and each
// word's confidence is that mean probability (1e-5).
void TestTaggerEnsemble::averagesMemberProbabilities()
{
    const QString dir = m_tmp.filePath(QStringLiteral("pair"));
    writeEnsemble(dir, {kProtocol, kBilingual});
    inf::Predictor ensemble;
    std::string why;
    QVERIFY2(ensemble.load(dir.toStdString(), &why), why.c_str());
    QCOMPARE(ensemble.memberCount(), 2);
    inf::PagePrediction got;
    QVERIFY2(ensemble.predict(m_page, &got, &why, false), why.c_str());

    const std::vector<float> a = memberLogProbs(kProtocol, m_page), b = memberLogProbs(kBilingual, m_page);
    QCOMPARE(a.size(), b.size());
    const std::vector<std::string> &labels = ensemble.labels();
    const int n = int(m_page.words.size()), L = int(labels.size());
    QCOMPARE(int(got.tags.size()), n);
    int differsFromA = 0;
    for (int i = 0; i < n; ++i) {
        int best = 0, bestA = 0;
        std::vector<double> mean(static_cast<size_t>(L), 0.0);
        for (int k = 0; k < L; ++k) {
            const size_t at = size_t(i) * size_t(L) + size_t(k);
            mean[size_t(k)] = (std::exp(double(a[at])) + std::exp(double(b[at]))) / 2;
            if (mean[size_t(k)] > mean[size_t(best)])
                best = k;
            if (a[at] > a[size_t(i) * size_t(L) + size_t(bestA)])
                bestA = k;
        }
        QCOMPARE(got.tags[size_t(i)], labels[size_t(best)]);
        QVERIFY2(std::fabs(got.confidences[size_t(i)] - mean[size_t(best)]) < 1e-5, qPrintable(QString::number(i)));
        differsFromA += best != bestA;
    }
    // Two differently trained taggers: the average is not simply the first one (measured: 11 words).
    QVERIFY2(differsFromA > 0, "the second member changed no word's label");
}

void TestTaggerEnsemble::sameFolderTwiceIsTheFolder()
{
    const QString dir = m_tmp.filePath(QStringLiteral("twice"));
    writeEnsemble(dir, {kProtocol, kProtocol});
    inf::Predictor single, twice;
    std::string why;
    QVERIFY2(single.load(kProtocol, &why), why.c_str());
    QVERIFY2(twice.load(dir.toStdString(), &why), why.c_str());
    inf::PagePrediction p, q;
    QVERIFY2(single.predict(m_page, &p, &why), why.c_str());
    QVERIFY2(twice.predict(m_page, &q, &why), why.c_str());
    QCOMPARE(q.tags, p.tags);
    for (size_t i = 0; i < p.confidences.size(); ++i)
        QVERIFY(std::fabs(p.confidences[i] - q.confidences[i]) < 1e-6);
    QCOMPARE(twice.wordOrder(), single.wordOrder());
    QCOMPARE(twice.variant(), single.variant());
}

// Suggest Labels' loader (DocumentTagger) runs an ensemble folder on a Document; `info --checkpoint`
// names its members and says it runs.
void TestTaggerEnsemble::pipelineAndInfoTakeIt()
{
    const QString dir = m_tmp.filePath(QStringLiteral("pipeline"));
    writeEnsemble(dir, {kProtocol, kBilingual});
    pipeline::DocumentTagger tagger;
    QString error;
    QVERIFY2(tagger.load(dir, &error), qPrintable(error));
    const nlohmann::json info = pipeline::describeCheckpoint(dir);
    QVERIFY2(info["runnable"].get<bool>(), info["problems"].dump().c_str());
    QCOMPARE(info["model_type"].get<std::string>(), std::string("folio-formtagger-ensemble"));
    QCOMPARE(info["members"].size(), size_t(2));
    QCOMPARE(info["labels"]["count"].get<int>(), 7);
}

// The shipped ensemble (relative member paths, one of them a sibling folder) loads all three members.
void TestTaggerEnsemble::shippedEnsembleLoads()
{
    inf::Predictor p;
    std::string why;
    QVERIFY2(p.load(kModels + "/forms-en-de-ensemble", &why), why.c_str());
    QCOMPARE(p.memberCount(), 3);
    inf::PagePrediction out;
    QVERIFY2(p.predict(m_page, &out, &why), why.c_str());
    QCOMPARE(out.tags.size(), m_page.words.size());
}

void TestTaggerEnsemble::refusals_data()
{
    QTest::addColumn<QString>("config");   // config.json text; MEMBERS is replaced by the list
    QTest::addColumn<QStringList>("members");
    QTest::addColumn<QString>("message");  // a part of the error
    const QString std = QStringLiteral("{\"model_type\": \"folio-formtagger-ensemble\", \"members\": MEMBERS}");
    const QString missing = QStringLiteral("/nonexistent/tagger-folder");
    QTest::newRow("missing member") << std << QStringList{QString::fromStdString(kProtocol), missing} << missing;
    QTest::newRow("other label map") << std << QStringList{QString::fromStdString(kProtocol), QString::fromStdString(kReceipts)}
                                     << QStringLiteral("another label map");
    QTest::newRow("other word order") << std << QStringList{QString::fromStdString(kBilingual), QString::fromStdString(kReading)}
                                      << QStringLiteral("order");
    QTest::newRow("one member") << std << QStringList{QString::fromStdString(kProtocol)} << QStringLiteral("2 to 16");
    QTest::newRow("not a list") << QStringLiteral("{\"model_type\": \"folio-formtagger-ensemble\", \"members\": 3}")
                                << QStringList() << QStringLiteral("2 to 16");
    QTest::newRow("not names") << QStringLiteral("{\"model_type\": \"folio-formtagger-ensemble\", \"members\": [1, 2]}")
                               << QStringList() << QStringLiteral("folder name");
    QTest::newRow("lists itself") << std << QStringList{QStringLiteral("."), QString::fromStdString(kProtocol)}
                                  << QStringLiteral("ensemble itself");
}

void TestTaggerEnsemble::refusals()
{
    QFETCH(QString, config);
    QFETCH(QStringList, members);
    QFETCH(QString, message);
    const QString dir = m_tmp.filePath(QStringLiteral("bad-") + QString::number(qHash(QTest::currentDataTag())));
    QDir().mkpath(dir);
    QStringList quoted;
    for (const QString &m : members)
        quoted << QLatin1Char('"') + m + QLatin1Char('"');
    QFile f(dir + QStringLiteral("/config.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QString(config).replace(QStringLiteral("MEMBERS"), QLatin1Char('[') + quoted.join(QStringLiteral(", ")) + QLatin1Char(']')).toUtf8());
    f.close();

    inf::Predictor p;
    std::string why;
    QVERIFY(!p.load(dir.toStdString(), &why));
    QVERIFY2(QString::fromStdString(why).contains(message), why.c_str());
    QVERIFY(!p.isLoaded());
    // `info` says the same without looping (an ensemble listing itself) and without running it.
    const nlohmann::json info = pipeline::describeCheckpoint(dir);
    QVERIFY(!info["runnable"].get<bool>());
}

FOLIO_TEST_GUILESS_MAIN(TestTaggerEnsemble)
#include "tst_tagger_ensemble.moc"
