// Pretraining (issue 16): a corpus folder with readable, empty, corrupt and FUNSD-test files is
// read with each skip counted; a corpus too small is refused; the MLM loss goes down; a run
// stopped half way and resumed ends with exactly the weights of an uninterrupted run; train
// --init starts the tagger from the pretrained encoder and refuses another vocabulary.
#include "document/formats/funsd.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/formtagger/pretrain.h"
#include "pipeline/pretraincorpus.h"
#include "pipeline/taggertraining.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

using namespace folio;

namespace {

const std::string kVocab = FOLIO_SOURCE_DIR "/resources/models/funsd-layout"; // a given vocabulary: runs comparable

inference::PretrainConfig tinyConfig(const QString &out, long steps)
{
    inference::PretrainConfig c;
    c.outputDir = out.toStdString();
    c.tokenizerDir = kVocab;
    c.hidden = 32;
    c.layers = 1;
    c.heads = 2;
    c.intermediate = 64;
    c.batchSize = 4;
    c.steps = steps;
    c.lr = 3e-3;
    c.checkpointEvery = 5;
    c.threads = 1;
    c.minWords = 500;
    return c;
}

bool sameTensors(const std::string &a, const std::string &b, const std::string &skipPrefix, int *compared)
{
    const inference::TensorMap x = inference::readSafetensors(a), y = inference::readSafetensors(b);
    *compared = 0;
    for (const auto &[name, t] : x) {
        if (!skipPrefix.empty() && name.rfind(skipPrefix, 0) == 0)
            continue;
        const auto it = y.find(name);
        if (it == y.end() || it->second.shape != t.shape || it->second.bytes != t.bytes)
            return false;
        ++*compared;
    }
    return true;
}

} // namespace

class TestPretrain : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::vector<inference::TaggerPage> m_pages;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString funsd = test::sharedPath(QStringLiteral("data/funsd/dataset"));
        if (!QDir(funsd).exists())
            return;
        std::vector<inference::TaggerPage> pages;
        QString error;
        QVERIFY2(pipeline::loadFunsdSplit(funsd, QStringLiteral("dev"), FunsdWordOrder::Reading, &pages, &error), qPrintable(error));
        for (inference::TaggerPage &p : pages) {
            p.tags.clear(); // unlabelled
            m_pages.push_back(p);
        }
    }

    void corpusCountsWhatItSkips()
    {
        const QString funsd = test::sharedPath(QStringLiteral("data/funsd/dataset/training_data/annotations/0000971160.json"));
        FOLIO_REQUIRE_DATA(funsd);
        const QString root = m_dir.filePath(QStringLiteral("corpus"));
        QVERIFY(QDir().mkpath(root + "/sub/annotations") && QDir().mkpath(root + "/sub/images") && QDir().mkpath(root + "/funsd/testing_data"));
        QVERIFY(QFile::copy(funsd, root + "/sub/annotations/form.json")); // a FUNSD page beside its scan
        QVERIFY(QFile::copy(test::sharedPath(QStringLiteral("data/funsd/dataset/training_data/images/0000971160.png")),
                            root + "/sub/images/form.png"));
        QVERIFY(QFile::copy(QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/product-page.html"), root + "/page.html"));
        QVERIFY(QFile::copy(funsd, root + "/funsd/testing_data/test-form.json"));
        QFile empty(root + "/empty.pdf");
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.close();
        QFile broken(root + "/broken.pdf");
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage without an end");
        broken.close();
        pipeline::PretrainCorpus corpus;
        QString error;
        int calls = 0;
        QVERIFY2(pipeline::loadPretrainCorpus(root, {}, &corpus, &error, [&](int, int) { ++calls; }), qPrintable(error));
        QCOMPARE(corpus.files, 6);      // the scan itself is a document too
        QCOMPARE(corpus.used, 2);       // the form, its scan (OCR'd)
        QCOMPARE(corpus.empty, 2);      // the empty file, the bare web page (no rendered boxes)
        QCOMPARE(corpus.unreadable, 1); // the broken PDF
        QCOMPARE(corpus.refused, 1);    // the FUNSD test page
        QCOMPARE(calls, 6);
        QCOMPARE(int(corpus.skipped.size()), 4);
        QVERIFY2(corpus.skipped.join('\n').contains(QStringLiteral("without rendered word boxes")), qPrintable(corpus.skipped.join('\n')));
        QVERIFY(corpus.words > 100);
        for (const inference::TaggerPage &p : corpus.pages) {
            QCOMPARE(p.words.size(), p.boxes.size());
            QVERIFY(p.tags.empty());
        }
        // A missing source is an error, not an empty corpus.
        QVERIFY(!pipeline::loadPretrainCorpus(m_dir.filePath(QStringLiteral("nothing.folio")), {}, &corpus, &error));
    }

    // --corpus-fraction: a fixed sample of the pages, nested across fractions, words recounted.
    void sampledCorpusIsNestedAndRecounted()
    {
        if (m_pages.empty())
            FOLIO_DATA_MISSING(QStringLiteral("FUNSD data not found"));
        pipeline::PretrainCorpus full;
        for (const inference::TaggerPage &p : m_pages) {
            full.pages.push_back(p);
            full.words += long(p.words.size());
        }
        const auto sample = [&](double fraction) {
            pipeline::PretrainCorpus c = full;
            pipeline::samplePretrainPages(&c, fraction);
            std::set<std::string> ids;
            long words = 0;
            for (const inference::TaggerPage &p : c.pages) {
                ids.insert(p.id);
                words += long(p.words.size());
            }
            if (words != c.words)
                return std::set<std::string>{"words not recounted"};
            return ids;
        };
        QCOMPARE(int(sample(1.0).size()), int(m_pages.size()));
        const std::set<std::string> half = sample(0.5), quarter = sample(0.25);
        QCOMPARE(int(half.size()), int(std::lround(0.5 * double(m_pages.size()))));
        QCOMPARE(int(quarter.size()), int(std::lround(0.25 * double(m_pages.size()))));
        QVERIFY(std::includes(half.begin(), half.end(), quarter.begin(), quarter.end())); // nested
        QVERIFY(sample(0.5) == half);                                                    // the same pages every time
        QCOMPARE(int(sample(0.0001).size()), 1);                                          // never empty
    }

    void tooSmallIsRefused()
    {
        if (!m_pages.empty()) {
            // Enough words, but too little text for the vocabulary asked for.
            inference::PretrainConfig c = tinyConfig(m_dir.filePath(QStringLiteral("vocab")), 5);
            c.tokenizerDir.clear();
            c.vocabSize = 100000;
            const inference::PretrainResult r = inference::pretrain(c, {m_pages[0], m_pages[1], m_pages[2], m_pages[3]});
            QVERIFY(!r.ok);
            QVERIFY2(QString::fromStdString(r.error).contains(QStringLiteral("too small for a vocabulary")), r.error.c_str());
        }
        inference::TaggerPage page;
        page.id = "tiny";
        page.words = {"a", "b", "c"};
        page.boxes = {{0, 0, 10, 10}, {20, 0, 30, 10}, {40, 0, 50, 10}};
        const inference::PretrainResult r = inference::pretrain(tinyConfig(m_dir.filePath(QStringLiteral("small")), 5), {page});
        QVERIFY(!r.ok);
        QVERIFY2(QString::fromStdString(r.error).contains(QStringLiteral("too small")), r.error.c_str());
    }

    void lossFallsAndResumeIsExact()
    {
        FOLIO_REQUIRE_DATA(test::sharedPath(QStringLiteral("data/funsd/dataset")));
        QVERIFY(m_pages.size() >= 10);
        const QString straight = m_dir.filePath(QStringLiteral("straight")), resumed = m_dir.filePath(QStringLiteral("resumed"));
        const inference::PretrainResult a = inference::pretrain(tinyConfig(straight, 20), m_pages);
        QVERIFY2(a.ok, a.error.c_str());
        QCOMPARE(a.steps, 20L);
        QVERIFY2(a.lastMlmLoss < a.firstMlmLoss, qPrintable(QStringLiteral("%1 -> %2").arg(a.firstMlmLoss).arg(a.lastMlmLoss)));
        QVERIFY(a.wordsPerSecond > 0);

        // Stopped at step 10 (as Ctrl-C does), then resumed.
        std::atomic<bool> stop{false};
        const inference::PretrainResult b1 = inference::pretrain(tinyConfig(resumed, 20), m_pages, [&](const inference::PretrainProgress &p) {
            if (p.step >= 10)
                stop = true;
        }, &stop);
        QVERIFY(b1.cancelled && !b1.ok);
        QCOMPARE(b1.steps, 10L);
        QVERIFY(QFile::exists(resumed + "/last/state.json"));
        QVERIFY(!QFile::exists(resumed + "/model.safetensors")); // only the resumable state
        inference::PretrainConfig again = tinyConfig(resumed, 20);
        again.resume = true;
        const inference::PretrainResult b2 = inference::pretrain(again, m_pages);
        QVERIFY2(b2.ok, b2.error.c_str());
        QCOMPARE(b2.steps, 20L);
        int compared = 0;
        QVERIFY2(sameTensors((straight + "/model.safetensors").toStdString(), (resumed + "/model.safetensors").toStdString(), {}, &compared),
                 "the resumed run's weights differ from the uninterrupted run's");
        QVERIFY(compared > 10);
        QVERIFY(sameTensors((straight + "/heads.safetensors").toStdString(), (resumed + "/heads.safetensors").toStdString(), {}, &compared));
    }

    void trainStartsFromThePretrainedEncoder()
    {
        const QString pretrained = m_dir.filePath(QStringLiteral("straight"));
        if (!QFile::exists(pretrained + "/model.safetensors"))
            FOLIO_DATA_MISSING(QStringLiteral("needs the encoder lossFallsAndResumeIsExact pretrained (FUNSD data)"));
        std::vector<inference::TaggerPage> labelled;
        QString error;
        QVERIFY(pipeline::loadFunsdSplit(test::sharedPath(QStringLiteral("data/funsd/dataset")), QStringLiteral("dev"),
                                         FunsdWordOrder::Reading, &labelled, &error));
        labelled.resize(4);
        inference::TrainConfig cfg;
        cfg.initDir = pretrained.toStdString();
        cfg.outputDir = m_dir.filePath(QStringLiteral("finetuned")).toStdString();
        cfg.epochs = 1;
        cfg.maxSteps = 1;
        cfg.lr = 0; // nothing moves: the encoder must equal the pretrained one
        cfg.threads = 1;
        const inference::TrainResult r = inference::train(cfg, labelled, {});
        QVERIFY2(r.ok, r.error.c_str());
        int compared = 0;
        QVERIFY2(sameTensors(cfg.outputDir + "/model.safetensors", (pretrained + "/model.safetensors").toStdString(), "classifier.", &compared),
                 "the fine-tuning did not start from the pretrained encoder");
        QVERIFY(compared > 10);
        // Another vocabulary is refused.
        cfg.tokenizerDir = FOLIO_SOURCE_DIR "/tests/data/tokenizers/wordpiece";
        cfg.outputDir = m_dir.filePath(QStringLiteral("refused")).toStdString();
        const inference::TrainResult refused = inference::train(cfg, labelled, {});
        QVERIFY(!refused.ok);
        QVERIFY2(QString::fromStdString(refused.error).contains(QStringLiteral("own vocabulary")), refused.error.c_str());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestPretrain)
#include "tst_pretrain.moc"
