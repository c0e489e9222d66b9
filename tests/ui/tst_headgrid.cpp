// Every head at once and the image the model saw, in the GUI (issue 48):
//  - the Head Grid on a traced run of a small model (../shared/fixtures/parity-next/layoutlmv3_pipeline,
//    2 layers x 4 heads with its 1-D / 2-D bias terms): thumbnails = layers x heads + one row per
//    bias term, drawn off the GUI thread; a click opens that layer / head (or bias term) in the
//    Attention dock; PNG / SVG / HTML export read back;
//  - sorting on a hand-made trace (1 layer, 3 heads, 2 words) whose entropies, 2-D and tree
//    distances are worked out by hand below;
//  - a trace over the memory budget: its size said, a smaller window shown;
//  - Image Patches on the tiny LayoutLMv3 with an image branch (parity/layoutlmv3_visual given a
//    tokenizer and a 2-label head, as tst_hfprediction does): 4 x 4 patches after a visual [CLS],
//    the word's attention to them and a cell's attention back to the words equal to the trace's
//    entries; the text-only checkpoint: a clear message and the view unchanged.
// Screenshots under FOLIO_BINARY_DIR/screenshots/.
#include "attention/headgrid.h"
#include "attention/imagepatches.h"
#include "document/formats/datasetformat.h"
#include "inference/checkpoint/safetensors.h"
#include "pipeline/attentionrun.h"
#include "tests/common/layoutlmv2folder.h"
#include "tests/common/testdata.h"
#include "ui/attention/attentioninspectors.h"
#include "ui/attention/attentionpanel.h"
#include "ui/attention/headgridpanel.h"
#include "ui/attention/headgridview.h"
#include "ui/attention/imagepatchcanvas.h"
#include "ui/attention/imagepatchpanel.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QDockWidget>
#include <QMainWindow>
#include <QFile>
#include <QPainter>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace folio;
using nlohmann::json;

namespace {

QString pipelineCase() { return test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline")); }
QString visualCase() { return test::sharedPath(QStringLiteral("fixtures/parity/layoutlmv3_visual")); }

json readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return json();
    return json::parse(f.readAll().toStdString());
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

Document fixtureDocument(const QString &imagePath = QString())
{
    const json docs = readJson(pipelineCase() + QStringLiteral("/documents.json"));
    const json &doc = docs["documents"][0];
    QStringList texts;
    std::vector<NormBox> boxes;
    for (const auto &w : doc["words"])
        texts << QString::fromStdString(w.get<std::string>());
    for (const auto &b : doc["boxes"])
        boxes.push_back(NormBox{b[0].get<int>(), b[1].get<int>(), b[2].get<int>(), b[3].get<int>()});
    return formats::documentFromWords(QStringLiteral("fixture.json"), texts, boxes, QSizeF(1000, 1000), imagePath);
}

bool waitReady(HeadGridPanel &grid)
{
    return QTest::qWaitFor([&] { return !grid.isComputing() && grid.view()->thumbnailCount() == grid.expectedThumbnailCount(); }, 20000);
}

void screenshot(QWidget *w, const char *name)
{
    QDir().mkpath(QStringLiteral(FOLIO_BINARY_DIR "/screenshots"));
    w->grab().save(QStringLiteral(FOLIO_BINARY_DIR "/screenshots/%1").arg(QLatin1String(name)));
}

// 1 layer x 3 heads over 2 words (boxes centred at (50, 50) and (350, 450): 500 apart).
//   head 0: uniform            -> entropy ln 2 = 0.6931, distance 0.5 * 500 = 250
//   head 1: each looks at the other -> entropy 0,        distance 500
//   head 2: 0.9 self, 0.1 other     -> entropy -(0.9 ln 0.9 + 0.1 ln 0.1) = 0.3251, distance 50
Document handDocument()
{
    return formats::documentFromWords(QStringLiteral("hand.json"), {QStringLiteral("Name:"), QStringLiteral("Ada")},
                                      {NormBox{0, 0, 100, 100}, NormBox{300, 400, 400, 500}});
}

AttentionTrace handTrace(const Document &doc)
{
    AttentionTrace t;
    t.modelType = QStringLiteral("hand");
    t.checkpoint = QStringLiteral("hand");
    t.documentId = attentionDocumentId(doc);
    const std::vector<float> p{0.5f, 0.5f, 0.5f, 0.5f, /**/ 0.f, 1.f, 1.f, 0.f, /**/ 0.9f, 0.1f, 0.1f, 0.9f};
    QString error;
    if (!t.ingest(QStringLiteral("attentions.0"), {1, 3, 2, 2}, p.data(), {}, &error))
        qFatal("%s", qPrintable(error));
    t.tokenWord = {0, 1};
    t.tokenText = QStringList{QStringLiteral("Name:"), QStringLiteral("Ada")};
    if (!t.finish(&error))
        qFatal("%s", qPrintable(error));
    return t;
}

// The tiny LayoutLMv3 with an image branch, as a token-classification folder under `dir`.
bool makeVisualFolder(const QString &dir)
{
    for (const QString &from : {visualCase(), pipelineCase() + QStringLiteral("/checkpoint")}) {
        const QDir d(from);
        for (const QString &name : d.entryList(QDir::Files)) // the visual case's weights and config first: kept
            QFile::copy(d.filePath(name), QDir(dir).filePath(name));
    }
    json config = readJson(visualCase() + QStringLiteral("/config.json"));
    if (!config.value("visual_embed", false))
        return false;
    config["architectures"] = json::array({"LayoutLMv3ForTokenClassification"});
    config["id2label"] = json{{"0", "O"}, {"1", "B-FIELD"}};
    if (!writeFile(QDir(dir).filePath(QStringLiteral("config.json")), QByteArray::fromStdString(config.dump())))
        return false;
    const json vocab = readJson(pipelineCase() + QStringLiteral("/checkpoint/vocab.json"));
    json cut = json::object();
    for (auto it = vocab.begin(); it != vocab.end(); ++it)
        if (it.value().get<int>() < config["vocab_size"].get<int>())
            cut[it.key()] = it.value();
    if (!writeFile(QDir(dir).filePath(QStringLiteral("vocab.json")), QByteArray::fromStdString(cut.dump())))
        return false;
    inference::TensorMap weights = inference::readSafetensors(QDir(dir).filePath(QStringLiteral("model.safetensors")).toStdString());
    const int hidden = config["hidden_size"].get<int>();
    std::vector<float> w(std::size_t(2 * hidden));
    for (std::size_t i = 0; i < w.size(); ++i)
        w[i] = float(int(i % 7) - 3) * 0.05f;
    weights["classifier.weight"] = inference::Tensor::fromFloats({2, hidden}, w);
    weights["classifier.bias"] = inference::Tensor::fromFloats({2}, {0.f, 0.f});
    inference::writeSafetensors(QDir(dir).filePath(QStringLiteral("model.safetensors")).toStdString(), weights);
    return true;
}

} // namespace

class TestHeadGrid : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void gridOfASmallModelOpensHeadsAndExports()
    {
        FOLIO_REQUIRE_DATA(pipelineCase() + QStringLiteral("/checkpoint/model.safetensors"));
        const Document doc = fixtureDocument();
        AttentionRunResult run = runAttentionOnDocument(pipelineCase() + QStringLiteral("/checkpoint"), doc, 0);
        QVERIFY2(run.ok, qPrintable(run.error));
        const int layers = run.trace.layerCount, heads = run.trace.headCount;
        QCOMPARE(layers, 2);
        QCOMPARE(heads, 4);
        int biasRows = 0;
        for (const auto &kv : run.trace.windows.front().biasTerms)
            biasRows += kv.second.size() == std::size_t(heads) * std::size_t(run.trace.windows.front().length) *
                                                 std::size_t(run.trace.windows.front().length);
        QVERIFY2(biasRows >= 1, "the checkpoint's trace has no bias term to show as a row");

        AttentionPanel attention;
        attention.setDocument(doc);
        QVERIFY(attention.setTrace(run.trace, run.labels));
        HeadGridPanel grid;
        connectHeadGridToAttention(&grid, &attention);
        grid.resize(900, 600);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        QVERIFY(waitReady(grid));
        QCOMPARE(grid.view()->rowCount(), layers + biasRows);
        QCOMPARE(grid.view()->thumbnailCount(), layers * heads + biasRows * heads);
        QTRY_VERIFY(grid.view()->firstPaintMs() >= 0);
        const QImage wholeMatrix = grid.view()->thumbnail(0, 0);

        // The selected word: its row drawn on the page, another picture.
        grid.selectWord(4);
        QVERIFY(waitReady(grid));
        QCOMPARE(grid.view()->thumbnailCount(), layers * heads + biasRows * heads);
        QVERIFY(grid.statusText().contains(QStringLiteral("Tobacco")));
        QVERIFY(grid.view()->thumbnail(0, 0) != wholeMatrix);
        screenshot(&grid, "headgrid.png");

        // Sorted by entropy: each layer's columns ascend by the statistic.
        grid.setSort(HeadSort::Entropy);
        for (int l = 0; l < layers; ++l) {
            const std::vector<int> order = grid.headOrder(l);
            QCOMPARE(int(order.size()), heads);
            for (int c = 1; c < heads; ++c)
                QVERIFY(grid.statistics()[std::size_t(l * heads + order[std::size_t(c - 1)])].entropy <=
                        grid.statistics()[std::size_t(l * heads + order[std::size_t(c)])].entropy);
        }

        // A click on layer 1's third thumbnail opens that head in the Attention dock.
        const int head = grid.headOrder(1)[2];
        QTest::mouseClick(grid.view(), Qt::LeftButton, {}, grid.view()->cellRect(1, 2).center());
        QCOMPARE(attention.viewModel()->layer(), 1);
        QCOMPARE(attention.viewModel()->head(), head);
        QCOMPARE(attention.viewModel()->mode(), AttentionViewMode::Attention);
        // A bias row opens that term.
        const int biasRow = layers;
        QTest::mouseClick(grid.view(), Qt::LeftButton, {}, grid.view()->cellRect(biasRow, 3).center());
        QCOMPARE(attention.viewModel()->mode(), AttentionViewMode::BiasTerm);
        QVERIFY2(grid.rowBiasTerm(biasRow).startsWith(attention.viewModel()->biasTerm()),
                 qPrintable(grid.rowBiasTerm(biasRow) + " / " + attention.viewModel()->biasTerm()));
        QCOMPARE(attention.viewModel()->head(), 3);

        // Export: PNG, SVG and HTML read back; another suffix refused.
        QTemporaryDir dir;
        QString error;
        QVERIFY2(grid.exportTo(dir.filePath(QStringLiteral("g.png")), &error), qPrintable(error));
        const QImage png(dir.filePath(QStringLiteral("g.png")));
        QVERIFY(!png.isNull());
        QVERIFY(png.width() >= 100 && png.height() >= 100);
        QVERIFY2(grid.exportTo(dir.filePath(QStringLiteral("g.svg")), &error), qPrintable(error));
        QSvgRenderer svg(dir.filePath(QStringLiteral("g.svg")));
        QVERIFY(svg.isValid());
        QVERIFY2(grid.exportTo(dir.filePath(QStringLiteral("g.html")), &error), qPrintable(error));
        QFile f(dir.filePath(QStringLiteral("g.html")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(f.readAll());
        QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
        QVERIFY(html.trimmed().endsWith(QStringLiteral("</html>")));
        static const QRegularExpression img(QStringLiteral("<img class=\"head\"[^>]*src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\""));
        int images = 0;
        for (auto it = img.globalMatch(html); it.hasNext(); ++images) {
            const QRegularExpressionMatch m = it.next();
            if (images == 0)
                QVERIFY(!QImage::fromData(QByteArray::fromBase64(m.captured(1).toLatin1()), "PNG").isNull());
        }
        QCOMPARE(images, layers * heads + biasRows * heads);
        QVERIFY(html.contains(QStringLiteral("Tobacco")));
        QVERIFY(!grid.exportTo(dir.filePath(QStringLiteral("g.txt")), &error));
        QVERIFY(error.contains(QStringLiteral("g.txt")));
    }

    void sortsAsComputedByHand()
    {
        const Document doc = handDocument();
        const AttentionTrace t = handTrace(doc);
        const std::vector<QRectF> boxes = headGridTokenBoxes(t, &doc);
        std::vector<HeadStatistics> s = headStatistics(t, 0, boxes);
        QCOMPARE(int(s.size()), 3);
        QVERIFY(std::abs(s[0].entropy - std::log(2.0)) < 1e-6);
        QVERIFY(std::abs(s[1].entropy) < 1e-9);
        QVERIFY(std::abs(s[2].entropy - 0.325083) < 1e-5);
        QVERIFY(std::abs(s[0].meanDistance - 250) < 1e-3);
        QVERIFY(std::abs(s[1].meanDistance - 500) < 1e-3);
        QVERIFY(std::abs(s[2].meanDistance - 50) < 1e-3);
        QCOMPARE(sortedHeadOrder(s, 0, 3, HeadSort::Entropy), (std::vector<int>{1, 2, 0}));
        QCOMPARE(sortedHeadOrder(s, 0, 3, HeadSort::Distance), (std::vector<int>{2, 0, 1}));
        // A tree root -> {a, b}: the two words two edges apart. head 0: 0.5 * 2, head 1: 2, head 2: 0.1 * 2.
        addTreeDistances(&s, t, 0, {1, 2}, {-1, 0, 0});
        QVERIFY(std::abs(s[0].meanTreeDistance - 1.0) < 1e-6);
        QVERIFY(std::abs(s[1].meanTreeDistance - 2.0) < 1e-6);
        QVERIFY(std::abs(s[2].meanTreeDistance - 0.2) < 1e-6);
        QCOMPARE(sortedHeadOrder(s, 0, 3, HeadSort::TreeDistance), (std::vector<int>{2, 0, 1}));

        // The panel orders its columns the same way.
        AttentionViewModel model;
        model.setDocument(doc);
        QString error;
        QVERIFY2(model.setTrace(t, &error), qPrintable(error));
        HeadGridPanel grid;
        grid.setViewModel(&model);
        QVERIFY(waitReady(grid));
        QCOMPARE(grid.view()->thumbnailCount(), 3);
        QCOMPARE(grid.headOrder(0), (std::vector<int>{0, 1, 2}));
        grid.setSort(HeadSort::Entropy);
        QCOMPARE(grid.headOrder(0), (std::vector<int>{1, 2, 0}));
        // The thumbnails moved with their heads: column 0 now shows head 1.
        const QImage h1 = grid.view()->thumbnail(0, 0);
        grid.setSort(HeadSort::None);
        QCOMPARE(grid.view()->thumbnail(0, 1), h1);
        grid.setSort(HeadSort::Distance);
        QCOMPARE(grid.headOrder(0), (std::vector<int>{2, 0, 1}));
        // No DOM and no sections here: tree distance is not offered.
        QVERIFY(!grid.hasTreeDistance());
        {
            // With sections (word 0 in a section, word 1 in its subsection: one edge apart), the
            // section tree is: head 0 0.5, head 1 1, head 2 0.1.
            Document sectioned = doc;
            Section top, sub;
            top.title = QStringLiteral("Form");
            top.level = 1;
            top.firstWord = 0;
            top.endWord = 1;
            top.children = {1};
            sub.title = QStringLiteral("Name");
            sub.level = 2;
            sub.parent = 0;
            sub.firstWord = 1;
            sub.endWord = 2;
            sectioned.sections = {top, sub};
            AttentionViewModel m2;
            m2.setDocument(sectioned);
            QVERIFY2(m2.setTrace(t, &error), qPrintable(error));
            HeadGridPanel g2;
            g2.setViewModel(&m2);
            QVERIFY(waitReady(g2));
            QVERIFY(g2.hasTreeDistance());
            QCOMPARE(g2.treeName(), QStringLiteral("section-tree"));
            QVERIFY(std::abs(g2.statistics()[0].meanTreeDistance - 0.5) < 1e-6);
            QVERIFY(std::abs(g2.statistics()[1].meanTreeDistance - 1.0) < 1e-6);
            QVERIFY(std::abs(g2.statistics()[2].meanTreeDistance - 0.1) < 1e-6);
            g2.setSort(HeadSort::TreeDistance);
            QCOMPARE(g2.headOrder(0), (std::vector<int>{2, 0, 1}));
        }
        // A click on the first column opens head 2.
        QSignalSpy chosen(&grid, &HeadGridPanel::headChosen);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        QTest::mouseClick(grid.view(), Qt::LeftButton, {}, grid.view()->cellRect(0, 0).center());
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.at(0).at(0).toInt(), 0);
        QCOMPARE(chosen.at(0).at(1).toInt(), 2);
    }

    void traceOverTheBudgetIsShownAsASmallerWindow()
    {
        FOLIO_REQUIRE_DATA(pipelineCase() + QStringLiteral("/checkpoint/model.safetensors"));
        const Document doc = fixtureDocument();
        AttentionRunResult run = runAttentionOnDocument(pipelineCase() + QStringLiteral("/checkpoint"), doc, 0);
        QVERIFY2(run.ok, qPrintable(run.error));
        const int length = run.trace.windows.front().length;
        const qint64 bytes = attentionTraceBytes(run.trace);
        AttentionViewModel model;
        model.setDocument(doc);
        QString error;
        QVERIFY2(model.setTrace(run.trace, &error), qPrintable(error));
        HeadGridPanel grid;
        QSignalSpy messages(&grid, &HeadGridPanel::message);
        grid.setMemoryBudget(bytes / 4);
        grid.setViewModel(&model);
        QVERIFY(waitReady(grid));
        QVERIFY(!messages.isEmpty());
        const QString said = messages.last().at(0).toString();
        QVERIFY2(said.contains(QStringLiteral("MiB")) && said.contains(QStringLiteral("Tokens")), qPrintable(said));
        QVERIFY(grid.statusText().contains(QStringLiteral("smaller window")));
        const int shown = grid.shownTrace()->windows.front().length;
        QVERIFY2(shown < length && shown >= 2, qPrintable(QStringLiteral("%1 of %2").arg(shown).arg(length)));
        QVERIFY(attentionTraceBytes(*grid.shownTrace()) <= bytes / 4);
        QCOMPARE(grid.view()->thumbnailCount(), grid.view()->rowCount() * run.trace.headCount);
        // The cropped block is the top-left of the original.
        const float *orig = run.trace.layerData(0, 1), *crop = grid.shownTrace()->layerData(0, 1);
        QCOMPARE(crop[std::size_t(shown) + 1], orig[std::size_t(length) + 1]);
    }

    void imagePatchesOfALayoutLMv3WithAnImageBranch()
    {
        FOLIO_REQUIRE_DATA(visualCase() + QStringLiteral("/model.safetensors"));
        FOLIO_REQUIRE_DATA(pipelineCase() + QStringLiteral("/checkpoint"));
        QTemporaryDir dir;
        QVERIFY(makeVisualFolder(dir.path()));
        // A page image: a dark block top left, a light rest.
        QImage page(400, 400, QImage::Format_RGB32);
        page.fill(QColor(235, 235, 220));
        {
            QPainter p(&page);
            p.fillRect(QRect(0, 0, 200, 120), QColor(30, 30, 90));
        }
        const QString imagePath = dir.filePath(QStringLiteral("page.png"));
        QVERIFY(page.save(imagePath));
        const Document doc = fixtureDocument(imagePath);
        AttentionRunResult run = runAttentionOnDocument(dir.path(), doc, 0);
        QVERIFY2(run.ok, qPrintable(run.error));
        ImagePatchGrid g;
        QString why;
        QVERIFY2(imagePatchGrid(run.trace, 0, &g, &why), qPrintable(why));
        QCOMPARE(g.side, 4); // input_size 64 / patch 16
        QVERIFY(g.visualCls);

        AttentionPanel attention;
        attention.setDocument(doc);
        QVERIFY(attention.setTrace(run.trace, run.labels));
        attention.viewModel()->setLayer(1);
        attention.viewModel()->setHead(2);
        ImagePatchPanel patches;
        patches.setViewModel(attention.viewModel());
        patches.resize(420, 520);
        patches.show();
        QVERIFY(QTest::qWaitForWindowExposed(&patches));
        QVERIFY(patches.hasImageBranch());
        QVERIFY(patches.canvas()->hasPageImage());

        // Word 4's attention to the 16 patches: the trace's entries at layer 1, head 2.
        QVERIFY2(patches.selectWord(4), qPrintable(patches.lastMessage()));
        int token = -1, window = -1;
        QVERIFY(headGridTokenOfWord(run.trace, 4, &token, &window));
        const AttentionWindow &w = run.trace.windows[std::size_t(window)];
        const float *p = run.trace.layerData(window, 1);
        const std::size_t L = std::size_t(w.length);
        QCOMPARE(int(patches.patchValues().size()), 16);
        for (int c = 0; c < 16; ++c)
            QCOMPARE(patches.patchValues()[std::size_t(c)],
                     p[(2 * L + std::size_t(token - w.firstToken)) * L + std::size_t(w.length - 16 + c)]);
        screenshot(&patches, "imagepatches_word.png");

        // Cell (row 1, column 2) back to the words: per word the sum over its tokens.
        QSignalSpy colours(&patches, &ImagePatchPanel::wordColorsChanged);
        const int cell = 1 * 4 + 2;
        QTest::mouseClick(patches.canvas(), Qt::LeftButton, {}, patches.cellRect(cell).center());
        QCOMPARE(patches.selectedPatch(), cell);
        QCOMPARE(colours.count(), 1);
        const std::size_t q = std::size_t(w.length - 16 + cell);
        std::vector<double> want(doc.words.size(), 0.0);
        for (int k = 0; k < w.length; ++k) {
            const int word = run.trace.tokenWord[std::size_t(w.firstToken + k)];
            if (word >= 0)
                want[std::size_t(word)] += p[(2 * L + q) * L + std::size_t(k)];
        }
        for (std::size_t i = 0; i < want.size(); ++i)
            QVERIFY(std::abs(patches.wordValues()[i] - want[i]) < 1e-5);
        QVERIFY(!patches.wordColors().isEmpty());
        screenshot(&patches, "imagepatches_cell.png");

        // Averages: layer / head "avg" is the mean over every layer and head.
        attention.viewModel()->setLayer(-1);
        attention.viewModel()->setHead(-1);
        QVERIFY(patches.selectWord(4));
        double mean = 0;
        for (int l = 0; l < run.trace.layerCount; ++l)
            for (int h = 0; h < run.trace.headCount; ++h)
                mean += run.trace.layerData(window, l)[(std::size_t(h) * L + std::size_t(token - w.firstToken)) * L + std::size_t(w.length - 16)];
        mean /= run.trace.layerCount * run.trace.headCount;
        QVERIFY(std::abs(patches.patchValues()[0] - mean) < 1e-6);
        QVERIFY(!patches.selectPatch(16));
        QVERIFY(patches.lastMessage().contains(QStringLiteral("16 cells")));
    }

    // LayoutLMv2 (parity-new/layoutlmv2_visual as a token-classification folder): its 7 x 7 visual
    // tokens follow the text, no visual [CLS].
    void imagePatchesOfLayoutLMv2()
    {
        const QString v2 = test::sharedPath(QStringLiteral("fixtures/parity-new/layoutlmv2_visual"));
        FOLIO_REQUIRE_DATA(v2 + QStringLiteral("/model.safetensors"));
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("layoutlmv2"));
        QVERIFY(test::makeLayoutLMv2Folder(folder, QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizers/layoutlmv2")));
        QImage page(300, 300, QImage::Format_RGB32);
        page.fill(Qt::white);
        const QString image = dir.filePath(QStringLiteral("page.png"));
        QVERIFY(page.save(image));
        const Document doc = fixtureDocument(image);
        const AttentionRunResult run = runAttentionOnDocument(folder, doc, AttnBiasNone);
        QVERIFY2(run.ok, qPrintable(run.error));
        ImagePatchGrid g;
        QString why;
        QVERIFY2(imagePatchGrid(run.trace, 0, &g, &why), qPrintable(why));
        QCOMPARE(g.side, 7);
        QVERIFY(!g.visualCls);
        AttentionViewModel model;
        model.setDocument(doc);
        QVERIFY2(model.setTrace(run.trace, &why), qPrintable(why));
        ImagePatchPanel patches;
        patches.setViewModel(&model);
        QVERIFY2(patches.selectWord(2), qPrintable(patches.lastMessage()));
        QCOMPARE(int(patches.patchValues().size()), 49);
        double sum = 0;
        for (float v : patches.patchValues())
            sum += v;
        QVERIFY(sum > 0 && sum <= 1.0 + 1e-5);
        QVERIFY(patches.selectPatch(48));
    }

    void noImageBranchSaysSoAndLeavesTheView()
    {
        FOLIO_REQUIRE_DATA(pipelineCase() + QStringLiteral("/checkpoint/model.safetensors"));
        const Document doc = fixtureDocument();
        AttentionRunResult run = runAttentionOnDocument(pipelineCase() + QStringLiteral("/checkpoint"), doc, 0);
        QVERIFY2(run.ok, qPrintable(run.error));
        AttentionPanel attention;
        attention.setDocument(doc);
        QVERIFY(attention.setTrace(run.trace, run.labels));
        ImagePatchPanel patches;
        patches.setViewModel(attention.viewModel());
        patches.resize(420, 520);
        patches.show();
        QVERIFY(QTest::qWaitForWindowExposed(&patches));
        QVERIFY(!patches.hasImageBranch());
        const QImage before = patches.grab().toImage();
        QSignalSpy messages(&patches, &ImagePatchPanel::message);
        QVERIFY(!patches.selectWord(3));
        QCOMPARE(messages.count(), 1);
        const QString said = messages.at(0).at(0).toString();
        QVERIFY2(said.contains(QStringLiteral("no image branch")) && said.contains(QStringLiteral("layoutlmv3")), qPrintable(said));
        QVERIFY(!patches.selectPatch(0));
        QVERIFY(patches.patchValues().empty());
        QVERIFY(patches.wordColors().isEmpty());
        QCOMPARE(patches.grab().toImage(), before);
        screenshot(&patches, "imagepatches_no_branch.png");
    }

    void installedBesideTheAttentionDock()
    {
        QMainWindow window;
        auto *attention = new AttentionPanel(&window);
        auto *dock = new QDockWidget(QStringLiteral("Attention"), &window);
        dock->setWidget(attention);
        window.addDockWidget(Qt::BottomDockWidgetArea, dock);
        const AttentionInspectors in = installAttentionInspectors(&window, attention, dock, nullptr);
        QVERIFY(in.grid && in.patches);
        QCOMPARE(window.findChild<QDockWidget *>(QStringLiteral("headGridDock")), in.gridDock);
        QCOMPARE(window.findChild<QDockWidget *>(QStringLiteral("imagePatchDock")), in.patchDock);
        QVERIFY(in.gridDock->isHidden());
        // The grid follows the panel's trace; hidden, it draws nothing until shown.
        const Document doc = handDocument();
        attention->setDocument(doc);
        QVERIFY(attention->setTrace(handTrace(doc)));
        QTest::qWait(50);
        QCOMPARE(in.grid->view()->thumbnailCount(), 0);
        QVERIFY(!in.grid->isComputing());
        window.show();
        in.gridDock->show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(waitReady(*in.grid));
        QCOMPARE(in.grid->view()->thumbnailCount(), 3);
        Q_EMIT in.grid->headChosen(0, 1, QString());
        QCOMPARE(attention->viewModel()->head(), 1);
    }
};

FOLIO_TEST_MAIN(TestHeadGrid)
#include "tst_headgrid.moc"
