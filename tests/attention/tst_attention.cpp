// Attention view model: ingest, roll-ups, averages, multi-selection, stitched windows, bias terms,
// export metadata and the bad inputs of issue 8 (empty selection, another document, a window
// larger than the model's).
#include "attention/attentionviewmodel.h"
#include "tests/common/testdata.h"

#include <QtTest>

#include <cmath>

using namespace folio;

namespace {

// A document of `n` words w0..w(n-1), one line each.
Document makeDocument(int n, const QString &source = QStringLiteral("test.png"))
{
    Document d;
    d.sourcePath = source;
    d.kind = SourceKind::Image;
    d.pages.push_back(Page{QSizeF(1000, 1000), QString(), 0});
    Node root;
    root.kind = NodeKind::Root;
    d.nodes.push_back(root);
    for (int i = 0; i < n; ++i) {
        Node line;
        line.kind = NodeKind::Line;
        line.id = QStringLiteral("l%1").arg(i / 2);
        int lineIndex = -1;
        for (std::size_t k = 0; k < d.nodes.size(); ++k)
            if (d.nodes[k].id == line.id)
                lineIndex = int(k);
        if (lineIndex < 0)
            lineIndex = d.addNode(line, 0);
        Node wn;
        wn.kind = NodeKind::Word;
        wn.id = QStringLiteral("w%1").arg(i);
        wn.text = QStringLiteral("word%1").arg(i);
        const int node = d.addNode(wn, lineIndex);
        Word w;
        w.id = wn.id;
        w.text = wn.text;
        w.box = QRectF(10 + 100 * i, 10, 80, 20);
        w.node = node;
        d.words.push_back(w);
    }
    d.normaliseWordBoxes();
    return d;
}

// Deterministic row-stochastic attention [B, H, L, L] for `layers` layers.
std::vector<float> makeProbs(int b, int h, int l, int seed)
{
    std::vector<float> v(std::size_t(b) * h * l * l);
    for (int r = 0; r < b * h * l; ++r) {
        double sum = 0;
        for (int k = 0; k < l; ++k) {
            const double x = 1.0 + std::sin(0.7 * (r + 1) * (k + 1) + seed);
            v[std::size_t(r) * l + k] = float(x);
            sum += x;
        }
        for (int k = 0; k < l; ++k)
            v[std::size_t(r) * l + k] = float(v[std::size_t(r) * l + k] / sum);
    }
    return v;
}

// One window of 6 tokens: [CLS] w0 w0 w1 w2 [SEP]; 2 layers x 2 heads.
AttentionTrace makeTrace(const Document &doc, std::vector<std::vector<float>> *layersOut = nullptr)
{
    AttentionTrace t;
    t.modelType = QStringLiteral("layoutlmv3");
    t.checkpoint = QStringLiteral("/ck/a");
    t.documentId = attentionDocumentId(doc);
    t.modelWindow = 8;
    QString error;
    for (int layer = 0; layer < 2; ++layer) {
        const std::vector<float> p = makeProbs(1, 2, 6, layer);
        if (layersOut)
            layersOut->push_back(p);
        if (!t.ingest(QStringLiteral("attentions.%1").arg(layer), {1, 2, 6, 6}, p.data(), {}, &error))
            qFatal("%s", qPrintable(error));
    }
    std::vector<float> bias(2 * 36);
    for (std::size_t i = 0; i < bias.size(); ++i)
        bias[i] = float(i % 7) - 3.0f;
    if (!t.ingest(QStringLiteral("bias.2d_x"), {1, 2, 6, 6}, bias.data(), {}, &error))
        qFatal("%s", qPrintable(error));
    t.tokenWord = {-1, 0, 0, 1, 2, -1};
    t.tokenText = QStringList{"[CLS]", "wo", "rd0", "word1", "word2", "[SEP]"};
    return t;
}

// Shows `doc` in `vm` with its makeTrace() trace; false (message in `error`) when refused.
bool showTrace(AttentionViewModel &vm, const Document &doc, std::vector<std::vector<float>> *layers = nullptr,
               QString *error = nullptr)
{
    vm.setDocument(doc);
    QString ignored;
    return vm.setTrace(makeTrace(doc, layers), error ? error : &ignored);
}

} // namespace

class TestAttention : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ingestRejectsBadShapes();
    void tokenLevelIsTheTraceItself();
    void headAndLayerAverages();
    void wordRollUpSumsKeysAndAveragesQueries();
    void rollUpsToSectionsAndDomNodes();
    void multiSelectionSums();
    void emptySelectionIsAllZero();
    void biasTermUsesMeanOverPairs();
    void stitchedWindowsLeaveCrossWindowPairsUncomputed();
    void rejectsTraceOfAnotherDocument();
    void rejectsWindowLargerThanModel();
    void ablationDelta();
    void exportCarriesIdentity();
    void tooManyUnitsForAMatrixSaysSo();
};

void TestAttention::ingestRejectsBadShapes()
{
    AttentionTrace t;
    QString error;
    const std::vector<float> p = makeProbs(1, 2, 4, 0);
    QVERIFY(t.ingest("attentions.0", {1, 2, 4, 4}, p.data(), {}, &error));
    QVERIFY(!t.ingest("attentions.1", {1, 3, 4, 4}, p.data(), {}, &error)); // head count changes
    QVERIFY2(error.contains("attentions.1"), qPrintable(error));
    QVERIFY(!t.ingest("attentions.1", {1, 2, 4, 5}, p.data(), {}, &error)); // not square
    QVERIFY(!t.ingest("attentions.1", {1, 2, 4, 4}, p.data(), {3}, &error)); // row out of range
    QVERIFY(t.ingest("logits", {1, 4, 7}, p.data(), {}, &error));             // ignored
    QVERIFY(t.ingest("attentions.0.t2t", {5, 2, 9}, p.data(), {}, &error));   // blockwise: skipped, listed
    QCOMPARE(t.skipped, QStringList{"attentions.0.t2t"});
    // Layer 1 missing while layer 2 exists: finish() says so.
    QVERIFY(t.ingest("attentions.2", {1, 2, 4, 4}, p.data(), {}, &error));
    QVERIFY(!t.finish(&error));
    QVERIFY2(error.contains("layer 1"), qPrintable(error));
}

void TestAttention::tokenLevelIsTheTraceItself()
{
    const Document doc = makeDocument(3);
    std::vector<std::vector<float>> layers;
    AttentionViewModel vm;
    QString error;
    QVERIFY2(showTrace(vm, doc, &layers, &error), qPrintable(error));
    vm.setLayer(1);
    vm.setHead(1);
    const AttentionMatrixView &m = vm.matrix();
    QCOMPARE(m.rows, 6);
    for (int q = 0; q < 6; ++q)
        for (int k = 0; k < 6; ++k)
            QCOMPARE(m.values[std::size_t(q) * 6 + k], layers[1][36 + std::size_t(q) * 6 + k]);
    QCOMPARE(m.rowLabels.at(0), QStringLiteral("[CLS]"));
}

void TestAttention::headAndLayerAverages()
{
    const Document doc = makeDocument(3);
    std::vector<std::vector<float>> layers;
    AttentionViewModel vm;
    QVERIFY(showTrace(vm, doc, &layers));
    vm.setLayer(-1);
    vm.setHead(-1);
    const std::vector<float> avg = vm.windowMatrix(0);
    for (std::size_t i = 0; i < 36; ++i) {
        const float want = (layers[0][i] + layers[0][36 + i] + layers[1][i] + layers[1][36 + i]) / 4;
        QVERIFY(std::fabs(avg[i] - want) < 1e-6f);
    }
    vm.setLayer(0);
    const std::vector<float> headAvg = vm.windowMatrix(0);
    QVERIFY(std::fabs(headAvg[7] - (layers[0][7] + layers[0][43]) / 2) < 1e-6f);
    vm.setLayer(99); // clamped
    QCOMPARE(vm.layer(), 1);
}

void TestAttention::wordRollUpSumsKeysAndAveragesQueries()
{
    const Document doc = makeDocument(3);
    std::vector<std::vector<float>> layers;
    AttentionViewModel vm;
    QVERIFY(showTrace(vm, doc, &layers));
    vm.setLayer(0);
    vm.setHead(0);
    vm.setGranularity(AttentionGranularity::Words);
    const AttentionMatrixView &m = vm.matrix();
    QCOMPARE(m.rows, 3);
    const float *p = layers[0].data(); // head 0
    auto P = [&](int q, int k) { return p[q * 6 + k]; };
    // word0 (tokens 1, 2) -> word0 (tokens 1, 2): mean over the 2 queries of the sum over 2 keys.
    const float w00 = ((P(1, 1) + P(1, 2)) + (P(2, 1) + P(2, 2))) / 2;
    QVERIFY(std::fabs(m.values[0] - w00) < 1e-6f);
    // word1 (token 3) -> word0
    QVERIFY(std::fabs(m.values[3] - (P(3, 1) + P(3, 2))) < 1e-6f);
    // A row sums to what the words' tokens gave to word tokens (specials left out), <= 1.
    float row = 0;
    for (int k = 0; k < 3; ++k)
        row += m.values[std::size_t(k)];
    const float want = ((P(1, 1) + P(1, 2) + P(1, 3) + P(1, 4)) + (P(2, 1) + P(2, 2) + P(2, 3) + P(2, 4))) / 2;
    QVERIFY(std::fabs(row - want) < 1e-5f);
    QVERIFY(row <= 1.0f);
    QCOMPARE(m.rowLabels.at(1), QStringLiteral("word1"));
    QCOMPARE(vm.unitOfWord(2), 2);
}

void TestAttention::rollUpsToSectionsAndDomNodes()
{
    Document doc = makeDocument(3);
    Section s0;
    s0.title = QStringLiteral("Intro");
    s0.level = 1;
    s0.firstWord = 0;
    s0.endWord = 3;
    Section s1;
    s1.title = QStringLiteral("Detail");
    s1.level = 2;
    s1.parent = 0;
    s1.firstWord = 2;
    s1.endWord = 3;
    doc.sections = {s0, s1};
    AttentionViewModel vm;
    QString error;
    QVERIFY2(showTrace(vm, doc, nullptr, &error), qPrintable(error));
    vm.setGranularity(AttentionGranularity::Sections);
    QCOMPARE(vm.matrix().rows, 2);
    QCOMPARE(vm.unitOfWord(1), 0);
    QCOMPARE(vm.unitOfWord(2), 1); // the innermost section owns word 2
    // DOM nodes: words 0 and 1 share line l0, word 2 is on l1.
    vm.setGranularity(AttentionGranularity::DomNodes);
    QCOMPARE(vm.matrix().rows, 2);
    QCOMPARE(vm.unitOfWord(0), vm.unitOfWord(1));
    // Entities: only words in an entity form units.
    Annotations ann;
    Entity e;
    e.id = QStringLiteral("e1");
    e.label = QStringLiteral("QUESTION");
    e.wordIds = QStringList{"w1", "w2"};
    ann.entities.push_back(e);
    vm.setAnnotations(ann);
    vm.setGranularity(AttentionGranularity::Entities);
    QCOMPARE(vm.matrix().rows, 1);
    QCOMPARE(vm.unitOfWord(0), -1);
    QCOMPARE(vm.unitOfWord(2), 0);
    // Rows of a roll-up still sum to at most 1.
    QVERIFY(vm.matrix().values[0] <= 1.0f && vm.matrix().values[0] > 0.0f);
}

void TestAttention::multiSelectionSums()
{
    const Document doc = makeDocument(3);
    AttentionViewModel vm;
    QVERIFY(showTrace(vm, doc));
    vm.setGranularity(AttentionGranularity::Words);
    const AttentionMatrixView &m = vm.matrix();
    vm.setSelection({0, 2, 2, 17}); // duplicate and out-of-range dropped
    QCOMPARE(vm.selection().size(), std::size_t(2));
    const std::vector<float> out = vm.outgoing();
    const std::vector<float> in = vm.incoming();
    for (int v = 0; v < 3; ++v) {
        QVERIFY(std::fabs(out[std::size_t(v)] - (m.values[std::size_t(v)] + m.values[6 + std::size_t(v)])) < 1e-6f);
        QVERIFY(std::fabs(in[std::size_t(v)] - (m.values[std::size_t(v) * 3] + m.values[std::size_t(v) * 3 + 2])) < 1e-6f);
    }
    const std::vector<float> words = vm.perWord(out);
    QCOMPARE(words.size(), std::size_t(3));
    QCOMPARE(words[1], out[1]);
}

void TestAttention::emptySelectionIsAllZero()
{
    const Document doc = makeDocument(3);
    AttentionViewModel vm;
    // No trace at all: everything empty, nothing crashes.
    QCOMPARE(vm.matrix().rows, 0);
    QVERIFY(vm.outgoing().empty());
    vm.setSelection({0});
    QVERIFY(vm.selection().empty());
    QVERIFY(showTrace(vm, doc));
    vm.setGranularity(AttentionGranularity::Words);
    vm.setSelection({});
    const std::vector<float> out = vm.outgoing();
    QCOMPARE(out.size(), std::size_t(3));
    for (float v : out)
        QCOMPARE(v, 0.0f);
}

void TestAttention::biasTermUsesMeanOverPairs()
{
    const Document doc = makeDocument(3);
    AttentionTrace t = makeTrace(doc);
    const std::vector<float> bias = t.windows[0].biasTerms.at("bias.2d_x");
    AttentionViewModel vm;
    vm.setDocument(doc);
    QString error;
    QVERIFY(vm.setTrace(t, &error));
    QCOMPARE(vm.trace().biasTermNames(), QStringList{"bias.2d_x"});
    QCOMPARE(vm.trace().biasFamiliesPresent(), std::uint32_t(AttnBias2D));
    vm.setHead(1);
    vm.setMode(AttentionViewMode::BiasTerm, QStringLiteral("bias.2d_x"));
    vm.setGranularity(AttentionGranularity::Words);
    const AttentionMatrixView &m = vm.matrix();
    QVERIFY(m.diverging);
    auto B = [&](int q, int k) { return bias[36 + std::size_t(q) * 6 + k]; };
    const float w00 = (B(1, 1) + B(1, 2) + B(2, 1) + B(2, 2)) / 4;
    QVERIFY(std::fabs(m.values[0] - w00) < 1e-6f);
    QVERIFY(m.title.contains("bias.2d_x"));
}

void TestAttention::stitchedWindowsLeaveCrossWindowPairsUncomputed()
{
    // 4 words in two windows of 4 tokens: [CLS] w0 w1 [SEP] | [CLS] w2 w3 [SEP], batch rows 0 and 1.
    const Document doc = makeDocument(4);
    AttentionTrace t;
    t.documentId = attentionDocumentId(doc);
    t.modelWindow = 4;
    QString error;
    const std::vector<float> p = makeProbs(2, 1, 4, 3);
    QVERIFY(t.ingest("attentions.0", {2, 1, 4, 4}, p.data(), {}, &error));
    t.tokenWord = {-1, 0, 1, -1, -1, 2, 3, -1};
    AttentionViewModel vm;
    vm.setDocument(doc);
    QVERIFY2(vm.setTrace(t, &error), qPrintable(error));
    QVERIFY(vm.trace().isStitched());
    QVERIFY(vm.windowNote().contains("2 windows"));
    QVERIFY(vm.describe().contains("not computed"));
    vm.setGranularity(AttentionGranularity::Words);
    const AttentionMatrixView &m = vm.matrix();
    QCOMPARE(m.rows, 4);
    QVERIFY(std::isnan(m.values[0 * 4 + 2]));  // w0 -> w2: different windows
    QVERIFY(!std::isnan(m.values[2 * 4 + 3])); // w2 -> w3: same window
    QCOMPARE(m.values[2 * 4 + 3], p[16 + 1 * 4 + 2]); // window 1, token 1 -> token 2
    vm.setSelection({0});
    const std::vector<float> out = vm.outgoing();
    QCOMPARE(out[2], 0.0f); // NaN counts as zero in sums
}

void TestAttention::rejectsTraceOfAnotherDocument()
{
    const Document doc = makeDocument(3);
    const Document other = makeDocument(3, QStringLiteral("other.png"));
    AttentionViewModel vm;
    vm.setDocument(doc);
    QString error;
    QVERIFY(!vm.setTrace(makeTrace(other), &error));
    QVERIFY2(error.contains("another document"), qPrintable(error));
    QVERIFY(!vm.hasTrace());
    // An ablated trace of another checkpoint is refused as well.
    QVERIFY(vm.setTrace(makeTrace(doc), &error));
    AttentionTrace ab = makeTrace(doc);
    ab.checkpoint = QStringLiteral("/ck/b");
    ab.disabledBiases = AttnBias2D;
    QVERIFY(!vm.setAblatedTrace(ab, &error));
    QVERIFY2(error.contains("checkpoint"), qPrintable(error));
    // Switching the document drops a trace that does not belong to it.
    vm.setDocument(other);
    QVERIFY(!vm.hasTrace());
}

void TestAttention::rejectsWindowLargerThanModel()
{
    const Document doc = makeDocument(3);
    AttentionTrace t = makeTrace(doc);
    t.modelWindow = 4; // the window holds 6 tokens
    AttentionViewModel vm;
    vm.setDocument(doc);
    QString error;
    QVERIFY(!vm.setTrace(t, &error));
    QVERIFY2(error.contains("more than the model's window of 4"), qPrintable(error));
    // A token mapped past the document's words is refused too.
    AttentionTrace bad = makeTrace(doc);
    bad.tokenWord[3] = 40;
    QVERIFY(!vm.setTrace(bad, &error));
    QVERIFY2(error.contains("word 40"), qPrintable(error));
}

void TestAttention::ablationDelta()
{
    const Document doc = makeDocument(3);
    AttentionViewModel vm;
    QString error;
    std::vector<std::vector<float>> full, abl;
    QVERIFY(showTrace(vm, doc, &full, &error));
    AttentionTrace ab;
    ab.checkpoint = QStringLiteral("/ck/a");
    ab.documentId = attentionDocumentId(doc);
    ab.disabledBiases = AttnBias2D;
    for (int layer = 0; layer < 2; ++layer) {
        abl.push_back(makeProbs(1, 2, 6, 10 + layer));
        QVERIFY(ab.ingest(QStringLiteral("attentions.%1").arg(layer), {1, 2, 6, 6}, abl.back().data(), {}, &error));
    }
    ab.tokenWord = {-1, 0, 0, 1, 2, -1};
    QVERIFY2(vm.setAblatedTrace(ab, &error), qPrintable(error));
    vm.setLayer(1);
    vm.setHead(0);
    vm.setMode(AttentionViewMode::AblationDelta);
    const std::vector<float> d = vm.windowMatrix(0);
    QVERIFY(std::fabs(d[8] - (full[1][8] - abl[1][8])) < 1e-6f);
    QVERIFY(vm.matrix().diverging);
    QVERIFY(vm.describe().contains("2-D"));
}

void TestAttention::exportCarriesIdentity()
{
    const Document doc = makeDocument(3);
    std::vector<std::vector<float>> layers;
    AttentionViewModel vm;
    QVERIFY(showTrace(vm, doc, &layers));
    vm.setLayer(1);
    vm.setHead(0);
    const AttentionExport e = vm.exportMatrices();
    QCOMPARE(e.metadata.at("model_type"), std::string("layoutlmv3"));
    QCOMPARE(e.metadata.at("checkpoint"), std::string("/ck/a"));
    QCOMPARE(e.metadata.at("document"), attentionDocumentId(doc).toStdString());
    QCOMPARE(e.metadata.at("layer"), std::string("1"));
    QCOMPARE(e.metadata.at("head"), std::string("0"));
    QCOMPARE(e.matrices.size(), std::size_t(2));
    QCOMPARE(e.matrices[1].name, std::string("window.0"));
    QCOMPARE(e.matrices[1].values, std::vector<float>(layers[1].begin(), layers[1].begin() + 36));
}

void TestAttention::tooManyUnitsForAMatrixSaysSo()
{
    // 9 stitched windows of 512 tokens: 4608 tokens, over the matrix limit at token level.
    AttentionTrace t;
    QString error;
    const std::vector<float> p = makeProbs(9, 1, 512, 1);
    QVERIFY(t.ingest("attentions.0", {9, 1, 512, 512}, p.data(), {}, &error));
    for (int i = 0; i < 9 * 512; ++i)
        t.tokenWord.push_back(i % 512 == 0 || i % 512 == 511 ? -1 : i / 8);
    AttentionViewModel vm;
    QVERIFY2(vm.setTrace(t, &error), qPrintable(error));
    QCOMPARE(vm.matrix().rows, 0);
    QVERIFY2(vm.matrix().title.contains("too many"), qPrintable(vm.matrix().title));
    vm.setSelection({5});
    QVERIFY(vm.outgoing().empty()); // no matrix, no sums, no crash
    // Words (8 tokens each) fit.
    vm.setGranularity(AttentionGranularity::Words);
    QCOMPARE(vm.matrix().rows, 576);
    QVERIFY(vm.windowNote().contains("9 windows"));
}

FOLIO_TEST_GUILESS_MAIN(TestAttention)
#include "tst_attention.moc"
