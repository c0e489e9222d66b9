// QS-hierarchy linearisation (inference/qs/qslinearize.h): the source side rebuilds the reference
// collate's token layout of the parity-next HIBRIDS cases (ids, chunk sizes, parents, token ->
// section map) from their section trees, and generating from it gives the reference's beam tokens;
// the target side on hand-written cases, both depth
// conventions, and a parser that never fails.
#include "inference/checkpoint/modelconfig.h"
#include "tests/common/testdata.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/errors.h"
#include "inference/qs/qslinearize.h"
#include "inference/qs/seq2seq.h"
#include "tensorcompare.h"

#include <QFileInfo>
#include <QtTest>

using namespace folio::inference;
using folio::inference::test::valueAt;

namespace {

std::vector<std::int64_t> values(const Tensor &t, std::int64_t from, std::int64_t count)
{
    std::vector<std::int64_t> v;
    for (std::int64_t i = 0; i < count; ++i)
        v.push_back(static_cast<std::int64_t>(valueAt(t, from + i)));
    return v;
}

} // namespace

class TestQsLinearize : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sourceMatchesReferenceCollate_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("encoder case") << "hibrids_led_enc";
        QTest::newRow("decoder case") << "hibrids_led_dec";
    }
    void sourceMatchesReferenceCollate()
    {
        QFETCH(QString, name);
        const QString dir = folio::test::sharedPath(QStringLiteral("fixtures/parity-next/") + name);
        FOLIO_REQUIRE_DATA(dir + QStringLiteral("/inputs.safetensors"));
        const TensorMap in = readSafetensors((dir + "/inputs.safetensors").toStdString());
        const ModelConfig cfg = ModelConfig::fromDirectory(dir.toStdString());
        const auto &trees = cfg.json()["hibrids"]["trees"];
        HibridsMarkers markers; // the fixture's stand-ins for the BART marker ids
        markers.depth = {489, 490, 491, 492, 493, 494, 495};
        markers.paragraphSeparator = 489;
        const std::int64_t width = in.at("input_ids").shape[1];
        for (std::size_t b = 0; b < trees.size(); ++b) {
            const auto &tree = trees[b];
            const std::int64_t length = tree["length"].get<std::int64_t>();
            // Rebuild the sections from the ids: [marker] + title + ([sep] + paragraph)...
            std::vector<HibridsSectionText> sections;
            std::int64_t pos = static_cast<std::int64_t>(b) * width + 1; // after <s>
            const auto parents = tree["parent_ids"].get<std::vector<std::int64_t>>();
            for (std::size_t s = 0; s < tree["sections_preorder_depth_title_paragraphs"].size(); ++s) {
                const auto &sec = tree["sections_preorder_depth_title_paragraphs"][s];
                HibridsSectionText t;
                t.depth = sec[0].get<int>();
                t.parent = parents[s + 1] < 0 ? -1 : parents[s + 1] - 1;
                pos += 1;
                t.title = values(in.at("input_ids"), pos, sec[1].get<std::int64_t>());
                pos += sec[1].get<std::int64_t>();
                for (const auto &plen : sec[2]) {
                    pos += 1;
                    t.paragraphs.push_back(values(in.at("input_ids"), pos, plen.get<std::int64_t>()));
                    pos += plen.get<std::int64_t>();
                }
                sections.push_back(std::move(t));
            }
            const HibridsSource src = linearizeHibridsSource(sections, {}, 1024, markers);
            QVERIFY(!src.truncated);
            QCOMPARE(src.ids, values(in.at("input_ids"), static_cast<std::int64_t>(b) * width, length));
            QCOMPARE(src.chunkSizes, tree["chunk_sizes"].get<std::vector<std::int64_t>>());
            QCOMPARE(src.sectionParent, parents);
            QCOMPARE(src.tokenToSection, values(in.at("token_to_section"), static_cast<std::int64_t>(b) * width, length));
            // Linearised document -> generator source -> the reference's beam tokens for this row.
            Seq2seqGenerator gen;
            std::string error;
            QVERIFY2(gen.load(dir.toStdString(), &error), error.c_str());
            const auto &bm = cfg.json()["hibrids"]["beam"];
            GenerationSettings settings;
            settings.numBeams = bm["num_beams"].get<int>();
            settings.maxLength = bm["max_length"].get<int>();
            settings.noRepeatNgramSize = bm["no_repeat_ngram_size"].get<int>();
            settings.earlyStopping = bm["early_stopping"].get<bool>();
            const GenerationResult r = gen.generate({seq2seqSource(src)}, settings);
            QVERIFY2(r.ok, r.error.c_str());
            const TensorMap out = readSafetensors((dir + "/outputs.safetensors").toStdString());
            const Tensor &beam = out.at("beam_tokens.row" + std::to_string(b));
            QCOMPARE(r.rows.at(0).tokens, values(beam, 0, beam.numel()));
        }
    }

    // Sections are kept whole or not at all (the reference's preprocess), with a question prefix.
    void sourceTruncationAndPrefix()
    {
        HibridsMarkers m;
        std::vector<HibridsSectionText> secs(3);
        secs[0] = {0, -1, {10, 11}, {{20, 21, 22}}};       // 1 + 2 + 4 = 7 tokens
        secs[1] = {1, 0, {12}, {{23}, {24, 25}}};          // 1 + 1 + 2 + 3 = 7
        secs[2] = {0, -1, {13}, {{26, 27, 28, 29, 30}}};   // 1 + 1 + 6 = 8
        // prefix [7, 8]: 1 + 2 = 3 counted; limit max - 2 = 18: 3 + 7 + 7 = 17 fits, + 8 does not.
        const HibridsSource s = linearizeHibridsSource(secs, {7, 8}, 20, m);
        QVERIFY(s.truncated);
        QCOMPARE(s.sectionsKept, 2);
        QCOMPARE(s.ids, (std::vector<std::int64_t>{0, 7, 8, 0, 48613, 10, 11, 48900, 20, 21, 22, 48983, 12, 48900, 23,
                                                   48900, 24, 25, 2}));
        QCOMPARE(s.chunkSizes, (std::vector<std::int64_t>{3, 1, 7, 7, 1}));
        QCOMPARE(s.sectionParent, (std::vector<std::int64_t>{-1, -1, -1, 2, -1}));
        QCOMPARE(s.tokenToSection.size(), s.ids.size());
        QCOMPARE(s.tokenToSection[3], std::int64_t(1));
        // Deep sections share the >= 5 marker; depth -1 uses the separator id.
        QCOMPARE(m.marker(7), std::int64_t(49216));
        QCOMPARE(m.marker(-1), std::int64_t(48900));
        // An empty section is its marker alone.
        const HibridsSource withEmpty = linearizeHibridsSource({{0, -1, {}, {}}}, {}, 20, m);
        QCOMPARE(withEmpty.chunkSizes, (std::vector<std::int64_t>{1, 1, 1}));
        // No sections at all: <s> </s>, two top-level sections.
        const HibridsSource empty = linearizeHibridsSource({}, {}, 20, m);
        QCOMPARE(empty.ids, (std::vector<std::int64_t>{0, 2}));
        QCOMPARE(empty.sectionParent, (std::vector<std::int64_t>{-1, -1}));
        // A parent that is not an earlier section.
        secs[0].parent = 2;
        QVERIFY_THROWS_EXCEPTION(InferenceError, linearizeHibridsSource(secs, {}, 20, m));
    }

    void targetBothConventions()
    {
        QsHierarchy t;
        t.rootSummary = "Root summary.";
        t.items = {{"Why a?", "Because a.", 1}, {"What b", "B {x}.", 2}, {"How c?", "C.", 2}, {"Who d?", "D.", 1}};
        QCOMPARE(QString::fromStdString(linearizeQsTarget(t)),
                 QString("Root summary. { Why a? Because a. { What b? B  x . | How c? C. } Who d? D."));
        QCOMPARE(QString::fromStdString(linearizeQsTarget(t, QsDepthConvention::Released)),
                 QString("Root summary. { Why a? Because a. {{ What b? B  x . {{ How c? C. { Who d? D."));
        QCOMPARE(t.parents(), (std::vector<int>{-1, 0, 0, -1}));

        // Intended: read back into the same tree.
        const QsParse back = parseQsTarget(linearizeQsTarget(t));
        QVERIFY(back.repairs.empty());
        QCOMPARE(back.tree.rootSummary, std::string("Root summary."));
        QCOMPARE(back.tree.items.size(), std::size_t(4));
        std::vector<int> depths;
        for (const auto &i : back.tree.items)
            depths.push_back(i.depth);
        QCOMPARE(depths, (std::vector<int>{1, 2, 2, 1}));
        QCOMPARE(back.tree.items[1].question, std::string("What b?"));
        QCOMPARE(back.tree.items[1].summary, std::string("B  x ."));

        // Released: the reference's own reading, each item a child of the previous one.
        const QsParse rel = parseQsTarget(normaliseQsActions(linearizeQsTarget(t, QsDepthConvention::Released)));
        depths.clear();
        for (const auto &i : rel.tree.items)
            depths.push_back(i.depth);
        QCOMPARE(depths, (std::vector<int>{1, 2, 3, 4}));

        QsHierarchy bad = t;
        bad.items[0].depth = 2;
        QVERIFY_THROWS_EXCEPTION(InferenceError, linearizeQsTarget(bad));
    }

    void normalise()
    {
        QCOMPARE(QString::fromStdString(normaliseQsActions("a {{ b |||| c }}} d")), QString("a { b | c } d"));
    }

    // Malformed generations still give a tree and say what was repaired.
    void parserNeverFails()
    {
        QsParse p = parseQsTarget("");
        QCOMPARE(p.tree.items.size(), std::size_t(0));
        QCOMPARE(p.repairs.size(), std::size_t(1)); // no root summary

        p = parseQsTarget("Only a summary, never closed {");
        QCOMPARE(p.tree.rootSummary, std::string("Only a summary, never closed"));
        QVERIFY(p.tree.items.empty());

        p = parseQsTarget("R { q? s } } } x? y { no question mark");
        QCOMPARE(p.tree.items.size(), std::size_t(3));
        QCOMPARE(p.tree.items[1].depth, 1); // after the unmatched '}' the root stays open
        QCOMPARE(p.tree.items[2].depth, 2);
        QCOMPARE(p.tree.items[2].question, std::string("no question mark"));
        QCOMPARE(p.tree.items[2].summary, std::string());
        QCOMPARE(p.repairs.size(), std::size_t(3)); // two unmatched '}' and the missing '?'

        p = parseQsTarget("{ q? s");
        QCOMPARE(p.tree.rootSummary, std::string());
        QCOMPARE(p.tree.items.size(), std::size_t(1));
        QCOMPARE(p.tree.items[0].summary, std::string("s"));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestQsLinearize)
#include "tst_qs_linearize.moc"
