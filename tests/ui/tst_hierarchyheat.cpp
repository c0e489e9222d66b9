// Hierarchy heatmaps (issue 14): HIBRIDS' learned hierarchical bias of a real checkpoint (the
// hibrids_led_enc parity fixture, trained by the reference code) laid over a document's section
// tree as a sections x sections matrix in the Attention dock; picking a section colours the
// Sections tab and the page by the bias from it, also from pytorch_model.bin and fairseq
// checkpoint_best.pt folders (tests/data/seq2seq). Plus the per-section roll-up of word values.
#include "attention/sectionheat.h"
#include "inference/checkpoint/safetensors.h"
#include "pipeline/hibridsbias.h"
#include "tests/common/testdata.h"
#include "ui/attention/attentionpanel.h"
#include "ui/documents/sectionspanel.h"
#include "widgets/heatmapview.h"

#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace folio;

namespace {

// Sections "A" (words 0-1), "A.1" (2-3, under A), "B" (4-5).
Document threeSections()
{
    Document doc;
    doc.kind = SourceKind::Image;
    doc.pages.push_back(Page{QSizeF(1000, 1000), QString(), 0});
    Node root;
    root.id = QStringLiteral("root");
    doc.addNode(root, -1);
    for (int i = 0; i < 6; ++i) {
        Word w;
        w.id = QStringLiteral("w%1").arg(i);
        w.text = QStringLiteral("word%1").arg(i);
        w.box = QRectF(10, 10 + 40 * i, 80, 30);
        Node n;
        n.id = w.id;
        n.kind = NodeKind::Word;
        w.node = doc.addNode(n, 0);
        doc.words.push_back(w);
    }
    doc.normaliseWordBoxes();
    doc.sections = {Section{QStringLiteral("A"), 1, -1, {1}, -1, 0, 2}, Section{QStringLiteral("A.1"), 2, 0, {}, -1, 2, 4},
                    Section{QStringLiteral("B"), 1, -1, {}, -1, 4, 6}};
    return doc;
}

QString fixture()
{
    return test::sharedPath(QStringLiteral("fixtures/parity-next/hibrids_led_enc"));
}

} // namespace

class TestHierarchyHeat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sectionMeansRollUp()
    {
        const Document doc = threeSections();
        const std::vector<float> means = sectionMeans(doc, {1, 3, 0, 0, 2});
        QCOMPARE(means[0], 2.0f);
        QCOMPARE(means[1], 0.0f);
        QCOMPARE(means[2], 1.0f); // word 5 is missing: counted as 0
        const QHash<int, QColor> colors = sectionColors(means, false);
        QCOMPARE(colors.size(), 3);
        QVERIFY(colors.value(0) != colors.value(1));
        QCOMPARE(wordColorsBySection(doc, means, false).size(), 6);
    }

    void biasTableLaidOverSections()
    {
        FOLIO_REQUIRE_DATA(fixture());
        const Document doc = threeSections();
        const pipeline::HibridsSectionBias b = pipeline::hibridsSectionBias(fixture(), doc);
        QVERIFY2(b.ok, qPrintable(b.error));
        QCOMPARE(b.layers, 2);
        QCOMPARE(b.heads, 4);
        QCOMPARE(b.sections, 3);
        // The reference's row order (hf_dataset.py's hier2index): (0,0) -> 0; (PathLen 1, LvlDiff 1)
        // -> 1 and its reverse (-1,-1) -> 4; siblings (2, 0) -> 5 and (-2, 0) -> 6; A.1 -> B is
        // two up and one down: (3, -1) -> 13.
        inference::SafetensorsFile st(QFile::encodeName(fixture() + QStringLiteral("/model.safetensors")).toStdString());
        for (int layer = 0; layer < 2; ++layer) {
            const inference::Tensor w = st.tensor("led.encoder.layers." + std::to_string(layer) +
                                                  ".self_attn.longformer_self_attn.relative_hierarchical_bias.weight");
            auto W = [&](int row, int head) { return w.data<float>()[row * 4 + head]; };
            for (int h = 0; h < 4; ++h) {
                QCOMPARE(b.at(layer, h, 0, 0), W(0, h));
                QCOMPARE(b.at(layer, h, 0, 1), W(1, h));
                QCOMPARE(b.at(layer, h, 1, 0), W(4, h));
                QCOMPARE(b.at(layer, h, 0, 2), W(5, h));
                QCOMPARE(b.at(layer, h, 2, 0), W(6, h));
                QCOMPARE(b.at(layer, h, 1, 2), W(13, h));
            }
        }
        const std::vector<float> mean = b.matrix(-1, -1);
        float expected = 0;
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 4; ++h)
                expected += b.at(l, h, 0, 2) / 8;
        QVERIFY(std::abs(mean[2] - expected) < 1e-6f);
    }

    // Folders as people have them (tests/data/seq2seq): pytorch_model.bin and HIBRIDS' fairseq
    // checkpoint_best.pt give the safetensors case's tables, value for value; the panel shows them.
    void biasFromBinAndFairseqFolders()
    {
        FOLIO_REQUIRE_DATA(fixture());
        const QString decoderCase = test::sharedPath(QStringLiteral("fixtures/parity-next/hibrids_led_dec"));
        FOLIO_REQUIRE_DATA(decoderCase);
        const QString data = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/seq2seq/");
        const Document doc = threeSections();
        const struct { QString safetensors, other; int layers, heads; } cases[] = {
            {fixture(), data + "hibrids_led_enc_bin", 2, 4}, // encoder tables, pytorch_model.bin
            {decoderCase, data + "hibrids_fairseq", 1, 1},   // the decoder's table, hf_led under hf_model.
        };
        for (const auto &c : cases) {
            const pipeline::HibridsSectionBias want = pipeline::hibridsSectionBias(c.safetensors, doc);
            const pipeline::HibridsSectionBias got = pipeline::hibridsSectionBias(c.other, doc);
            QVERIFY2(want.ok && got.ok, qPrintable(want.error + " / " + got.error));
            QCOMPARE(got.layers, c.layers);
            QCOMPARE(got.heads, c.heads);
            QCOMPARE(got.tableNames, want.tableNames);
            QVERIFY(got.values == want.values);
            const pipeline::HibridsSectionBias again = pipeline::hibridsSectionBias(c.other, doc); // the cached tables
            QVERIFY(again.ok && again.values == want.values);
        }
        const QString plain = data + "bart_seq2seq_bin"; // a BART without HIBRIDS tables: named with its file
        const pipeline::HibridsSectionBias none = pipeline::hibridsSectionBias(plain, doc);
        QVERIFY(!none.ok);
        QVERIFY2(none.error.startsWith(plain) && none.error.contains(QLatin1String("no HIBRIDS"))
                     && none.error.contains(QLatin1String("pytorch_model.bin")),
                 qPrintable(none.error));
        QTemporaryDir broken; // a truncated .bin: the reader's error, no table
        QFile bin(data + "hibrids_led_enc_bin/pytorch_model.bin");
        QVERIFY(bin.open(QIODevice::ReadOnly));
        const QByteArray whole = bin.readAll();
        QVERIFY(!folio::test::writeTestFile(broken, QStringLiteral("pytorch_model.bin"), whole.left(whole.size() / 2)).isEmpty());
        const pipeline::HibridsSectionBias truncated = pipeline::hibridsSectionBias(broken.path(), doc);
        QVERIFY2(!truncated.ok && truncated.error.contains(QLatin1String("pytorch_model.bin")), qPrintable(truncated.error));

        AttentionPanel panel;
        panel.setDocument(doc);
        QVERIFY(panel.showHierarchyBias(data + "hibrids_led_enc_bin"));
        QCOMPARE(panel.hierarchyHeatmap()->matrix().rows, 3);
        QVERIFY(panel.hierarchyHeatmap()->matrix().values == pipeline::hibridsSectionBias(fixture(), doc).matrix(-1, -1));
    }

    void biasRefusals()
    {
        Document none = threeSections();
        none.sections.clear();
        FOLIO_REQUIRE_DATA(fixture());
        pipeline::HibridsSectionBias b = pipeline::hibridsSectionBias(fixture(), none);
        QVERIFY(!b.ok);
        QVERIFY2(b.error.contains(QLatin1String("no sections")), qPrintable(b.error));
        const QString plain = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/qmsum-qs"); // a BART without HIBRIDS
        b = pipeline::hibridsSectionBias(plain, threeSections());
        QVERIFY(!b.ok);
        QVERIFY2(b.error.startsWith(plain) && b.error.contains(QLatin1String("no HIBRIDS")), qPrintable(b.error));
        b = pipeline::hibridsSectionBias(QStringLiteral("/nonexistent"), threeSections());
        QVERIFY(!b.ok && b.error.contains(QLatin1String("no model.safetensors")));
        // A chain of 25 nested sections reaches path lengths the table has no row for.
        Document deep = threeSections();
        deep.sections.clear();
        for (int i = 0; i < 25; ++i)
            deep.sections.push_back(Section{QStringLiteral("s%1").arg(i), i + 1, i - 1, {}, -1, 0, 0});
        b = pipeline::hibridsSectionBias(fixture(), deep);
        QVERIFY(!b.ok);
        QVERIFY(b.error.startsWith(fixture()));
    }

    void panelColoursSectionsAndPage()
    {
        FOLIO_REQUIRE_DATA(fixture());
        const Document doc = threeSections();
        AttentionPanel panel;
        SectionsPanel sections;
        sections.setDocument(doc);
        connect(&panel, &AttentionPanel::sectionColorsChanged, &sections, &SectionsPanel::setSectionColors);
        panel.setDocument(doc);
        panel.resize(700, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(!panel.hierarchyHeatmap()->isVisible());
        QVERIFY(panel.showHierarchyBias(fixture()));
        QVERIFY(panel.hierarchyHeatmap()->isVisible());
        const AttentionMatrixView &m = panel.hierarchyHeatmap()->matrix();
        QCOMPARE(m.rows, 3);
        QCOMPARE(m.rowLabels.at(1), QStringLiteral("2 A.1"));
        QVERIFY(m.diverging);
        QVERIFY(m.title.contains(QLatin1String("hierarchical bias")));
        // Without a trace the panel's layer and head are "avg": the mean over tables and heads.
        QVERIFY2(m.title.contains(QLatin1String("mean of 2 tables")) && m.title.contains(QLatin1String("mean of 4 heads")),
                 qPrintable(m.title));
        QVERIFY(m.values == panel.hierarchyBias().matrix(-1, -1));
        // Click the first row of the matrix: every section (tab and words on the page) coloured by
        // the bias from section A.
        panel.selectHierarchySection(0);
        QCOMPARE(panel.sectionColors().size(), 3);
        QVERIFY(sections.sectionColor(0).isValid());
        QVERIFY(sections.sectionColor(2).isValid());
        QCOMPARE(panel.wordColors().size(), 6);
        // Different biases, different colours (A->A.1 vs A->B differ in the fixture's table).
        const std::vector<float> mean = panel.hierarchyBias().matrix(-1, -1);
        if (std::abs(mean[1] - mean[2]) > 0.05f)
            QVERIFY(sections.sectionColor(1) != sections.sectionColor(2));
        // Another document: the picked section and its colours go away, the matrix follows.
        panel.selectHierarchySection(-1);
        QVERIFY(panel.sectionColors().isEmpty());
        Document two = doc;
        two.sections.pop_back();
        panel.setDocument(two); // re-read off the GUI thread (loadHierarchyBias): hidden until it arrives
        QVERIFY(!panel.hierarchyHeatmap()->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(panel.hierarchyHeatmap()->matrix().rows, 2, 20000);
        QVERIFY(panel.hierarchyHeatmap()->isVisible());
    }
};

FOLIO_TEST_MAIN(TestHierarchyHeat)
#include "tst_hierarchyheat.moc"
