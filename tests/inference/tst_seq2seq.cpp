// Seq2seqGenerator (inference/qs/seq2seq.h) on the HIBRIDS LED reference cases of
// ../shared/fixtures/parity-next: greedy and beam tokens with the key/value cache equal the
// reference's, the cache changes nothing, progress and cancel work, several rows with beams work
// for the decoder variant (the reference cannot), and bad input gives clear errors.
#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/qs/seq2seq.h"
#include "seq2seqfixture.h"
#include "tensorcompare.h"
#include "tests/common/testdata.h"

#include <QFileInfo>
#include <QtTest>

using namespace folio::inference;
using folio::inference::test::fixtureSources;
using folio::inference::test::valueAt;
using folio::inference::test::tensorRow;

namespace {

QString caseDir(const QString &name)
{
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-next/") + name);
}

GenerationSettings fixtureBeam(const QString &dir)
{
    const ModelConfig c = ModelConfig::fromDirectory(dir.toStdString());
    const auto &bm = c.json()["hibrids"]["beam"];
    GenerationSettings s;
    s.numBeams = bm["num_beams"].get<int>();
    s.maxLength = bm["max_length"].get<int>();
    s.minLength = bm["min_length"].get<int>();
    s.noRepeatNgramSize = bm["no_repeat_ngram_size"].get<int>();
    s.earlyStopping = bm["early_stopping"].get<bool>();
    return s;
}

} // namespace

class TestSeq2seq : public QObject
{
    Q_OBJECT

private:
    bool loadCase(const QString &name, Seq2seqGenerator *gen, TensorMap *in, TensorMap *out)
    {
        const QString dir = caseDir(name);
        if (!QFileInfo::exists(dir + "/model.safetensors"))
            return false;
        std::string error;
        if (!gen->load(dir.toStdString(), &error))
            qFatal("%s", error.c_str());
        *in = readSafetensors((dir + "/inputs.safetensors").toStdString());
        *out = readSafetensors((dir + "/outputs.safetensors").toStdString());
        return true;
    }

private Q_SLOTS:
    void beamMatchesReference_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("cache");
        QTest::newRow("encoder variant, cache") << "hibrids_led_enc" << true;
        QTest::newRow("encoder variant, no cache") << "hibrids_led_enc" << false;
        QTest::newRow("decoder variant, cache") << "hibrids_led_dec" << true;
        QTest::newRow("decoder variant, no cache") << "hibrids_led_dec" << false;
    }
    void beamMatchesReference()
    {
        QFETCH(QString, name);
        QFETCH(bool, cache);
        Seq2seqGenerator gen;
        TensorMap in, out;
        FOLIO_REQUIRE_DATA(caseDir(name) + QStringLiteral("/model.safetensors"));
        if (!loadCase(name, &gen, &in, &out))
            QFAIL(qPrintable(caseDir(name) + QStringLiteral(": the case does not load")));
        QCOMPARE(QString::fromStdString(gen.hibridsVariant()), name.endsWith("enc") ? QString("encoder") : QString("decoder"));
        GenerationSettings s = fixtureBeam(caseDir(name));
        s.useCache = cache;
        const auto sources = fixtureSources(in);
        for (std::size_t b = 0; b < sources.size(); ++b) { // one row at a time, as the reference
            const GenerationResult r = gen.generate({sources[b]}, s);
            QVERIFY2(r.ok, r.error.c_str());
            const Tensor &want = out.at("beam_tokens.row" + std::to_string(b));
            QCOMPARE(r.rows.at(0).tokens, tensorRow(want, 0));
            const double score = valueAt(out.at("beam_score.row" + std::to_string(b)), 0);
            QVERIFY2(std::fabs(r.rows[0].score - score) < 1e-5, qPrintable(QString::number(r.rows[0].score - score)));
        }
    }

    void greedyMatchesReference_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("encoder variant") << "hibrids_led_enc";
        QTest::newRow("decoder variant") << "hibrids_led_dec";
    }
    void greedyMatchesReference()
    {
        QFETCH(QString, name);
        Seq2seqGenerator gen;
        TensorMap in, out;
        FOLIO_REQUIRE_DATA(caseDir(name) + QStringLiteral("/model.safetensors"));
        if (!loadCase(name, &gen, &in, &out))
            QFAIL(qPrintable(caseDir(name) + QStringLiteral(": the case does not load")));
        GenerationSettings s;
        s.maxLength = 13;
        s.stopAtEos = false; // the fixture's loop never stops early
        const GenerationResult r = gen.generate(fixtureSources(in), s);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.rows.size(), std::size_t(2));
        for (std::size_t b = 0; b < 2; ++b)
            QCOMPARE(r.rows[b].tokens, tensorRow(out.at("greedy_tokens"), static_cast<std::int64_t>(b)));
    }

    // Several rows with beams in one call (the reference's decoder variant cannot) give each row's
    // single-row result.
    void batchedBeamsEqualSingleRows()
    {
        Seq2seqGenerator gen;
        TensorMap in, out;
        FOLIO_REQUIRE_DATA(caseDir(QStringLiteral("hibrids_led_dec")) + QStringLiteral("/model.safetensors"));
        if (!loadCase(QStringLiteral("hibrids_led_dec"), &gen, &in, &out))
            QFAIL("the case does not load");
        const GenerationSettings s = fixtureBeam(caseDir("hibrids_led_dec"));
        const GenerationResult r = gen.generate(fixtureSources(in), s);
        QVERIFY2(r.ok, r.error.c_str());
        for (std::size_t b = 0; b < 2; ++b)
            QCOMPARE(r.rows.at(b).tokens, tensorRow(out.at("beam_tokens.row" + std::to_string(b)), 0));
    }

    void progressAndCancel()
    {
        Seq2seqGenerator gen;
        TensorMap in, out;
        FOLIO_REQUIRE_DATA(caseDir(QStringLiteral("hibrids_led_enc")) + QStringLiteral("/model.safetensors"));
        if (!loadCase(QStringLiteral("hibrids_led_enc"), &gen, &in, &out))
            QFAIL("the case does not load");
        GenerationSettings s = fixtureBeam(caseDir("hibrids_led_enc"));
        std::vector<int> steps;
        std::size_t lastPartial = 0;
        int maxSteps = 0;
        const GenerationResult r = gen.generate(fixtureSources(in), s, [&](const GenerationStep &st) {
            steps.push_back(st.step);
            lastPartial = st.partial.at(0).size();
            maxSteps = st.maxSteps;
            return st.step < 3;
        });
        QCOMPARE(maxSteps, 12);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.cancelled);
        QCOMPARE(r.steps, 3);
        QCOMPARE(steps, (std::vector<int>{1, 2, 3}));
        QCOMPARE(lastPartial, std::size_t(4)); // start token + 3
        QCOMPARE(r.rows.size(), std::size_t(2)); // still a (partial) sequence per row
    }

    void badInput()
    {
        Seq2seqGenerator gen;
        TensorMap in, out;
        FOLIO_REQUIRE_DATA(caseDir(QStringLiteral("hibrids_led_enc")) + QStringLiteral("/model.safetensors"));
        if (!loadCase(QStringLiteral("hibrids_led_enc"), &gen, &in, &out))
            QFAIL("the case does not load");
        GenerationSettings s;
        s.maxLength = 5;

        GenerationResult r = gen.generate({}, s);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("no source") != std::string::npos, r.error.c_str());

        auto src = fixtureSources(in);
        Seq2seqSource noLayout = src[0];
        noLayout.layout = {};
        r = gen.generate({noLayout}, s);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("one section per token") != std::string::npos, r.error.c_str());

        // Two top-level branches 10 levels deep: PathLen 20 is outside the reference's table.
        Seq2seqSource deep = src[0];
        std::vector<std::int64_t> parents = {-1};
        for (int i = 0; i < 10; ++i)
            parents.push_back(i == 0 ? -1 : static_cast<std::int64_t>(parents.size()) - 1);
        parents.push_back(-1);
        for (int i = 0; i < 9; ++i)
            parents.push_back(static_cast<std::int64_t>(parents.size()) - 1);
        deep.layout.sectionParent = parents;
        for (std::size_t i = 0; i < deep.layout.tokenToSection.size(); ++i)
            deep.layout.tokenToSection[i] = std::min<std::int64_t>(static_cast<std::int64_t>(i), parents.size() - 1);
        r = gen.generate({deep}, s);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("path length 20") != std::string::npos, r.error.c_str());

        Seq2seqSource bad = src[0];
        bad.globalTokens = {1000};
        r = gen.generate({bad}, s);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("global token 1000") != std::string::npos, r.error.c_str());

        // Longer than the 64 encoder positions: truncated with a warning, EOS kept.
        Seq2seqSource longer = src[0];
        while (longer.ids.size() < 100) {
            longer.ids.insert(longer.ids.end() - 1, 7);
            longer.layout.tokenToSection.insert(longer.layout.tokenToSection.end() - 1,
                                                longer.layout.tokenToSection[longer.ids.size() - 3]);
        }
        r = gen.generate({longer}, s);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.warnings.size(), std::size_t(1));
        QVERIFY2(r.warnings[0].find("100 tokens truncated") != std::string::npos, r.warnings[0].c_str());

        GenerationSettings tooLong;
        tooLong.maxLength = 33; // the decoder has 32 positions
        r = gen.generate({src[0]}, tooLong);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("exceeds the decoder") != std::string::npos, r.error.c_str());

        Seq2seqGenerator other;
        std::string error;
        QVERIFY(!other.load((QStringLiteral(FOLIO_SHARED_DIR "/fixtures/parity/") + "no_such_case").toStdString(), &error));
        QVERIFY(!error.empty());
        r = other.generate({src[0]}, s);
        QVERIFY(!r.ok);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestSeq2seq)
#include "tst_seq2seq.moc"
