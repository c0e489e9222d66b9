// AttentionPanel offscreen: a click on a word box colours every other box by attention (and the
// reverse), heatmap clicks / hover / keyboard scrubbing, multi-selection, exports, and the bad
// inputs (no trace, a trace of another document, empty selection). Saves screenshots under
// FOLIO_BINARY_DIR/screenshots/.
#include "ui/attention/attentionpanel.h"
#include "widgets/heatmapview.h"
#include "widgets/pagecanvas.h"
#include "tests/common/testdata.h"

#include <QComboBox>
#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace folio;

namespace {

Document makeDocument(int n, const QString &source = QStringLiteral("scan.png"))
{
    Document d;
    d.sourcePath = source;
    d.kind = SourceKind::Image;
    d.pages.push_back(Page{QSizeF(800, 300), QString(), 0});
    Node root;
    root.kind = NodeKind::Root;
    d.nodes.push_back(root);
    for (int i = 0; i < n; ++i) {
        Node wn;
        wn.kind = NodeKind::Word;
        wn.id = QStringLiteral("w%1").arg(i);
        wn.text = QStringLiteral("word%1").arg(i);
        const int node = d.addNode(wn, 0);
        Word w;
        w.id = wn.id;
        w.text = wn.text;
        w.box = QRectF(20 + 125 * (i % 6), 40 + 80 * (i / 6), 110, 40);
        w.node = node;
        d.words.push_back(w);
    }
    d.normaliseWordBoxes();
    return d;
}

// [CLS] w0..w(n-1) [SEP], 2 layers x 3 heads, rows softmax-normalised.
AttentionTrace makeTrace(const Document &doc)
{
    const int n = int(doc.words.size()), l = n + 2, heads = 3;
    AttentionTrace t;
    t.modelType = QStringLiteral("layoutlmv3");
    t.checkpoint = QStringLiteral("/ck");
    t.documentId = attentionDocumentId(doc);
    t.modelWindow = 512;
    QString error;
    for (int layer = 0; layer < 2; ++layer) {
        std::vector<float> p(std::size_t(heads) * l * l);
        for (int h = 0; h < heads; ++h)
            for (int q = 0; q < l; ++q) {
                double sum = 0;
                for (int k = 0; k < l; ++k) {
                    const double x = std::exp(-std::abs(q - k - (h + layer - 1)) * 0.8);
                    p[(std::size_t(h) * l + q) * l + k] = float(x);
                    sum += x;
                }
                for (int k = 0; k < l; ++k)
                    p[(std::size_t(h) * l + q) * l + k] /= float(sum);
            }
        if (!t.ingest(QStringLiteral("attentions.%1").arg(layer), {1, heads, l, l}, p.data(), {}, &error))
            qFatal("%s", qPrintable(error));
    }
    t.tokenWord.push_back(-1);
    for (int w = 0; w < n; ++w)
        t.tokenWord.push_back(w);
    t.tokenWord.push_back(-1);
    return t;
}

} // namespace

class TestAttentionGui : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void clickingAWordColoursTheOthers();
    void heatmapClickHoverAndKeyboard();
    void exportsCurrentView();
    void badInputsGiveMessages();
    void domNodeSelectionColoursNodes();
};

void TestAttentionGui::clickingAWordColoursTheOthers()
{
    const Document doc = makeDocument(12);
    AttentionPanel panel;
    panel.resize(900, 600);
    panel.show();
    PageCanvas canvas;
    canvas.resize(820, 320);
    canvas.setPage(doc, 0);
    canvas.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(QTest::qWaitForWindowExposed(&canvas));
    // What MainWindow wires up.
    connect(&canvas, &PageCanvas::boxClicked, &panel, &AttentionPanel::onBoxClicked);
    connect(&panel, &AttentionPanel::wordColorsChanged, &canvas, &PageCanvas::setBoxColors);
    panel.setDocument(doc);
    QVERIFY(panel.setTrace(makeTrace(doc)));
    QCOMPARE(panel.viewModel()->granularity(), AttentionGranularity::Words);
    QSignalSpy spy(&panel, &AttentionPanel::wordColorsChanged);
    const QPoint box4 = canvas.wordRectInWidget(4).center().toPoint();
    QCOMPARE(canvas.wordAt(box4), 4);
    QTest::mouseClick(&canvas, Qt::LeftButton, {}, box4); // a click on the 5th word box
    QCOMPARE(panel.viewModel()->selection(), std::vector<int>{4});
    QVERIFY(spy.count() >= 1);
    const QHash<int, QColor> colors = spy.last().at(0).value<QHash<int, QColor>>();
    QCOMPARE(colors.size(), 12);
    QCOMPARE(colors.value(4), QColor(255, 140, 0, 200)); // the selection
    // The most attended-to other word is the darkest; a far word is light.
    const std::vector<float> out = panel.viewModel()->outgoing();
    int best = -1;
    for (int w = 0; w < 12; ++w)
        if (w != 4 && (best < 0 || out[std::size_t(w)] > out[std::size_t(best)]))
            best = w;
    QCOMPARE(colors.value(best).alpha(), 220);
    QVERIFY(colors.value(11).alpha() < colors.value(best).alpha());
    QVERIFY(colors.value(best).alpha() > colors.value(0).alpha());
    // On the canvas: the darkest box is darker than a far one (pixels near the box corner).
    const QImage shot = canvas.grab().toImage();
    auto pixelIn = [&](int w) {
        const QRectF r = canvas.wordRectInWidget(w);
        return QColor(shot.pixel((r.topLeft() + QPointF(3, 3)).toPoint() * shot.devicePixelRatio()));
    };
    QVERIFY2(pixelIn(best).lightness() < pixelIn(11).lightness() - 20,
             qPrintable(QStringLiteral("%1 vs %2").arg(pixelIn(best).name(), pixelIn(11).name())));
    QDir().mkpath(QStringLiteral(FOLIO_BINARY_DIR "/screenshots"));
    QVERIFY(shot.save(QStringLiteral(FOLIO_BINARY_DIR "/screenshots/attention_page_click.png")));

    // The reverse: how much every word attends to the selection.
    auto *direction = panel.findChildren<QComboBox *>().at(2);
    QCOMPARE(direction->itemData(1).toInt(), 1);
    direction->setCurrentIndex(1);
    const QHash<int, QColor> reverse = panel.wordColors();
    const std::vector<float> in = panel.viewModel()->incoming();
    int bestIn = -1;
    for (int w = 0; w < 12; ++w)
        if (w != 4 && (bestIn < 0 || in[std::size_t(w)] > in[std::size_t(bestIn)]))
            bestIn = w;
    QCOMPARE(reverse.value(bestIn).alpha(), 220);

    // Multi-selection (Ctrl+click): the sums of both rows.
    direction->setCurrentIndex(0);
    QTest::mouseClick(&canvas, Qt::LeftButton, Qt::ControlModifier, canvas.wordRectInWidget(9).center().toPoint());
    QCOMPARE(panel.viewModel()->selection(), (std::vector<int>{4, 9}));
    QCOMPARE(panel.heatmap()->markedRows(), (std::vector<int>{4, 9})); // outlined in the heatmap
    QCOMPARE(panel.wordColors().value(9), QColor(255, 140, 0, 200));
    QVERIFY(panel.grab().save(QStringLiteral(FOLIO_BINARY_DIR "/screenshots/attention_panel.png")));

    // Empty selection clears the overlay.
    panel.clearSelection();
    QVERIFY(panel.wordColors().isEmpty());
    const QHash<int, QColor> cleared = spy.last().at(0).value<QHash<int, QColor>>();
    QVERIFY(cleared.isEmpty());
}

void TestAttentionGui::heatmapClickHoverAndKeyboard()
{
    const Document doc = makeDocument(12);
    AttentionPanel panel;
    panel.resize(900, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setDocument(doc);
    QVERIFY(panel.setTrace(makeTrace(doc)));
    HeatmapView *heat = panel.heatmap();
    const HeatmapLayout l = HeatmapLayout::compute(QRectF(heat->rect()), heat->matrix());
    QVERIFY(!l.grid.isEmpty());
    const double cellW = l.grid.width() / 12, cellH = l.grid.height() / 12; // cells fill the view, not square
    const QPoint row3col7 = QPointF(l.grid.left() + cellW * 7.5, l.grid.top() + cellH * 3.5).toPoint();
    QTest::mouseMove(heat, row3col7);
    QTRY_VERIFY(!heat->hoverText().isEmpty());
    QVERIFY2(heat->hoverText().startsWith("word3 → word7: "), qPrintable(heat->hoverText()));
    QTest::mouseClick(heat, Qt::LeftButton, {}, row3col7);
    QCOMPARE(panel.viewModel()->selection(), std::vector<int>{3});
    // Keyboard scrubbing: Right = next head, Down = next layer, H = average over heads.
    const int builds = heat->cellImageBuilds();
    QCOMPARE(panel.viewModel()->head(), 0);
    QTest::keyClick(heat, Qt::Key_Right);
    QCOMPARE(panel.viewModel()->head(), 1);
    QTest::keyClick(heat, Qt::Key_Down);
    QCOMPARE(panel.viewModel()->layer(), 1);
    QTest::keyClick(heat, Qt::Key_H);
    QCOMPARE(panel.viewModel()->head(), -1);
    QVERIFY2(heat->matrix().title.contains(QStringLiteral("head avg")), qPrintable(heat->matrix().title));
    QCOMPARE(heat->cellImageBuilds(), builds + 3); // one re-render per change, none for hover
    QTest::mouseMove(heat, row3col7 + QPoint(1, 1));
    QCOMPARE(heat->cellImageBuilds(), builds + 3);
    QVERIFY(heat->grab().save(QStringLiteral(FOLIO_BINARY_DIR "/screenshots/attention_heatmap.png")));
}

void TestAttentionGui::exportsCurrentView()
{
    const Document doc = makeDocument(6);
    AttentionPanel panel;
    panel.resize(700, 500);
    panel.setDocument(doc);
    QVERIFY(panel.setTrace(makeTrace(doc)));
    QTemporaryDir tmp;
    QString error;
    QVERIFY2(panel.exportPng(tmp.filePath("a.png"), &error), qPrintable(error));
    QVERIFY(!QImage(tmp.filePath("a.png")).isNull());
    QVERIFY2(panel.exportSvg(tmp.filePath("a.svg"), &error), qPrintable(error));
    QFile svg(tmp.filePath("a.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    QVERIFY(text.contains("<svg") && text.contains("word3"));
    QVERIFY2(panel.exportSafetensors(tmp.filePath("a.safetensors"), &error), qPrintable(error));
    QVERIFY(QFileInfo(tmp.filePath("a.safetensors")).size() > 6 * 6 * 4);
    QVERIFY(!panel.exportPng(tmp.filePath("no/such/dir/a.png"), &error));
    QVERIFY(error.contains("a.png"));
}

void TestAttentionGui::badInputsGiveMessages()
{
    const Document doc = makeDocument(6);
    AttentionPanel panel;
    QSignalSpy messages(&panel, &AttentionPanel::message);
    panel.setDocument(doc);
    panel.selectWord(2); // no trace yet
    QCOMPARE(messages.count(), 1);
    QVERIFY(panel.wordColors().isEmpty());
    // A trace of another document is refused with a message; nothing is shown.
    QVERIFY(!panel.setTrace(makeTrace(makeDocument(6, "other.png"))));
    QVERIFY(messages.last().at(0).toString().contains("another document"));
    QVERIFY(!panel.viewModel()->hasTrace());
    // Ablation without a checkpoint run: message, no crash.
    QVERIFY(panel.setTrace(makeTrace(doc)));
    panel.runAblation();
    QVERIFY(messages.last().at(0).toString().contains("Tick"));
    // An out-of-range click and a node without words.
    panel.selectWord(99);
    QVERIFY(panel.viewModel()->selection().empty());
    panel.selectNode(0); // the root: all words
    QCOMPARE(panel.viewModel()->selection().size(), std::size_t(6));
    panel.selectNode(-5);
    QVERIFY(panel.viewModel()->selection().empty());
    // runOn a folder that is no checkpoint: failure message from the worker.
    QSignalSpy done(&panel, &AttentionPanel::runFinished);
    panel.runOn(QStringLiteral("/nonexistent/checkpoint"));
    QVERIFY(done.wait(60000));
    QCOMPARE(done.last().at(0).toBool(), false);
    QVERIFY2(messages.last().at(0).toString().contains("/nonexistent/checkpoint"), qPrintable(messages.last().at(0).toString()));
}

void TestAttentionGui::domNodeSelectionColoursNodes()
{
    // A web page: <body> with three <p>, each holding a text node of two words.
    Document doc;
    doc.sourcePath = QStringLiteral("page.html");
    doc.kind = SourceKind::Html;
    doc.pages.push_back(Page{QSizeF(800, 600), QString(), 0});
    Node root;
    root.kind = NodeKind::Root;
    doc.nodes.push_back(root);
    Node body;
    body.kind = NodeKind::Element;
    body.tag = QStringLiteral("body");
    body.id = QStringLiteral("/html/body");
    const int bodyIndex = doc.addNode(body, 0);
    std::vector<int> paragraphs;
    for (int p = 0; p < 3; ++p) {
        Node para;
        para.kind = NodeKind::Element;
        para.tag = QStringLiteral("p");
        para.id = QStringLiteral("/html/body/p[%1]").arg(p + 1);
        const int pi = doc.addNode(para, bodyIndex);
        paragraphs.push_back(pi);
        Node text;
        text.kind = NodeKind::Text;
        text.id = para.id + QStringLiteral("/text()");
        const int ti = doc.addNode(text, pi);
        for (int k = 0; k < 2; ++k) {
            Word w;
            w.id = QStringLiteral("%1:%2").arg(text.id).arg(k);
            w.text = QStringLiteral("p%1w%2").arg(p).arg(k);
            w.box = QRectF(20 + 100 * k, 30 + 50 * p, 90, 30);
            w.node = ti;
            doc.words.push_back(w);
        }
    }
    doc.normaliseWordBoxes();
    AttentionPanel panel;
    panel.setDocument(doc);
    QCOMPARE(panel.viewModel()->granularity(), AttentionGranularity::DomNodes); // web pages start on nodes
    QVERIFY(panel.setTrace(makeTrace(doc)));
    QCOMPARE(panel.viewModel()->matrix().rows, 3); // one unit per <p>
    QSignalSpy nodes(&panel, &AttentionPanel::nodeColorsChanged);
    panel.selectNode(paragraphs[1]); // what DomTreePanel::nodeSelected sends
    QCOMPARE(panel.viewModel()->selection(), std::vector<int>{1});
    QVERIFY(nodes.count() >= 1);
    const QHash<int, QColor> colours = nodes.last().at(0).value<QHash<int, QColor>>();
    QCOMPARE(colours.size(), 3);
    QCOMPARE(colours.value(paragraphs[1]), QColor(255, 140, 0, 200));
    QVERIFY(colours.contains(paragraphs[0]) && colours.contains(paragraphs[2]));
    // <body> holds every word: selecting it selects all three paragraphs (multi-selection sums).
    panel.selectNode(bodyIndex);
    QCOMPARE(panel.viewModel()->selection().size(), std::size_t(3));
}

FOLIO_TEST_MAIN(TestAttentionGui)
#include "tst_attention_gui.moc"
