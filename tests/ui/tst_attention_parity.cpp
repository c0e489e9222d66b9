// Label parity: a parity fixture checkpoint run through the attention view model; the exported
// matrices (safetensors, read back) must equal the fixture's `attentions.N` (atol 1e-5) for every
// batch row, layer and head, and the metadata must carry the identity. Also the headless
// `folio-cli attention` (PNG, SVG, safetensors) and its bad inputs.
#include "document/documentjson.h"
#include "inference/checkpoint/safetensors.h"
#include "ui/attention/attentionpanel.h"
#include "pipeline/attentionrun.h"
#include "attention/attentionviewmodel.h"
#include "attention/heatmaprender.h"
#include "tests/common/testdata.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <QCheckBox>

#include <cmath>

using namespace folio;
namespace inf = folio::inference;

class TestAttentionParity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void exportedMatricesEqualFixture_data();
    void exportedMatricesEqualFixture();
    void biasTermsAndAblation();
    void badInputs();
    void documentRunIsStitched();
    void panelRunsAndAblatesLive();
    void cliExportsPngSvgSafetensors();
    void cliBadInputs();

private:
    QString fixture(const QString &name) const { return m_parity + QLatin1Char('/') + name; }
    QString checkpointWithVocab();
    Document makeDocument(int words) const;
    QString m_parity;
    QTemporaryDir m_tmp;
};

void TestAttentionParity::initTestCase()
{
    // The first parity root ($FOLIO_PARITY_DIR, else the shared fixtures) holding the cases used here.
    const QStringList roots = folio::test::parityRoots();
    m_parity = roots.first();
    for (const QString &root : roots) {
        if (QFileInfo::exists(root + QStringLiteral("/layoutlmv3_tokcls/model.safetensors"))) {
            m_parity = root;
            break;
        }
    }
    FOLIO_REQUIRE_DATA(fixture(QStringLiteral("layoutlmv3_tokcls/model.safetensors")));
    QVERIFY(m_tmp.isValid());
}

void TestAttentionParity::exportedMatricesEqualFixture_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("layoutlmv3_tokcls") << QStringLiteral("layoutlmv3_tokcls");
    QTest::newRow("debertav2") << QStringLiteral("debertav2");
}

void TestAttentionParity::exportedMatricesEqualFixture()
{
    QFETCH(QString, name);
    const QString dir = fixture(name);
    const inf::TensorMap expected = inf::readSafetensors((dir + "/outputs.safetensors").toStdString());
    const inf::Tensor &a0 = expected.at("attentions.0");
    const int batch = int(a0.shape[0]), heads = int(a0.shape[1]), l = int(a0.shape[2]);
    int layers = 0;
    while (expected.count("attentions." + std::to_string(layers)))
        ++layers;
    QVERIFY(layers > 0);
    int compared = 0;
    float worst = 0;
    for (int b = 0; b < batch; ++b) {
        const AttentionRunResult run = runAttentionOnInputs(dir, dir + "/inputs.safetensors", b, 0);
        QVERIFY2(run.ok, qPrintable(run.error));
        AttentionViewModel vm;
        QString error;
        QVERIFY2(vm.setTrace(run.trace, &error), qPrintable(error));
        QCOMPARE(vm.layerCount(), layers);
        QCOMPARE(vm.headCount(), heads);
        for (int layer = 0; layer < layers; ++layer) {
            const inf::Tensor &want = expected.at("attentions." + std::to_string(layer));
            for (int h = 0; h < heads; ++h) {
                vm.setLayer(layer);
                vm.setHead(h);
                const QString out = m_tmp.filePath(QStringLiteral("%1_%2_%3_%4.safetensors").arg(name).arg(b).arg(layer).arg(h));
                QVERIFY2(writeAttentionSafetensors(vm.exportMatrices(), out, &error), qPrintable(error));
                const inf::SafetensorsFile file(out.toStdString());
                const inf::Tensor got = file.tensor("window.0");
                QCOMPARE(got.shape, (std::vector<std::int64_t>{l, l}));
                const float *w = want.data<float>() + ((std::size_t(b) * heads + h) * l) * l;
                for (int i = 0; i < l * l; ++i) {
                    const float d = std::fabs(got.data<float>()[i] - w[i]);
                    worst = std::max(worst, d);
                    if (d > 1e-5f)
                        QFAIL(qPrintable(QStringLiteral("%1 row %2 layer %3 head %4 cell %5: %6 vs %7")
                                             .arg(name).arg(b).arg(layer).arg(h).arg(i)
                                             .arg(got.data<float>()[i]).arg(w[i])));
                }
                // The token-level view (no document) is the same matrix.
                const inf::Tensor view = file.tensor("view");
                QCOMPARE(view.bytes, got.bytes);
                const auto &md = file.metadata();
                QCOMPARE(md.at("layer"), std::to_string(layer));
                QCOMPARE(md.at("head"), std::to_string(h));
                QCOMPARE(QString::fromStdString(md.at("model_type")), run.trace.modelType);
                QVERIFY(!md.at("checkpoint").empty());
                QVERIFY(QString::fromStdString(md.at("document")).endsWith("inputs.safetensors"));
                ++compared;
            }
        }
    }
    QCOMPARE(compared, batch * layers * heads);
    qInfo("%s: %d matrices, max |diff| %.3g", qPrintable(name), compared, double(worst));
}

void TestAttentionParity::biasTermsAndAblation()
{
    const QString dir = fixture("layoutlmv3_tokcls");
    const AttentionRunResult run = runAttentionOnInputs(dir, dir + "/inputs.safetensors", 0, 0);
    QVERIFY2(run.ok, qPrintable(run.error));
    QVERIFY2(run.trace.biasTermNames().contains("bias.1d"), qPrintable(run.trace.biasTermNames().join(',')));
    QVERIFY(run.trace.biasFamiliesPresent() & AttnBias2D);
    AttentionViewModel vm;
    QString error;
    QVERIFY(vm.setTrace(run.trace, &error));
    vm.setMode(AttentionViewMode::BiasTerm, "bias.2d_x");
    QVERIFY(vm.matrix().diverging);
    QVERIFY(vm.matrix().maxValue > vm.matrix().minValue);
    // Ablation: the 2-D family switched off changes the attention.
    const AttentionRunResult ab = runAttentionOnInputs(dir, dir + "/inputs.safetensors", 0, AttnBias2D);
    QVERIFY2(ab.ok, qPrintable(ab.error));
    QVERIFY2(vm.setAblatedTrace(ab.trace, &error), qPrintable(error));
    vm.setMode(AttentionViewMode::AblationDelta);
    float biggest = 0;
    for (float v : vm.matrix().values)
        biggest = std::max(biggest, std::fabs(v));
    QVERIFY2(biggest > 1e-3f, "switching the 2-D bias off should change the attention");
    QCOMPARE(run.labels.size(), 24); // per token of row 0
}

void TestAttentionParity::badInputs()
{
    const QString dir = fixture("layoutlmv3_tokcls");
    AttentionRunResult r = runAttentionOnInputs(dir, dir + "/inputs.safetensors", 7, 0);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains("batch row 7"), qPrintable(r.error));
    r = runAttentionOnInputs(m_tmp.filePath("nowhere"), dir + "/inputs.safetensors", 0, 0);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains("nowhere"), qPrintable(r.error));
    r = runAttentionOnInputs(dir, dir + "/config.json", 0, 0);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains("config.json"), qPrintable(r.error));
    // A trace of one inputs file refused for a view showing another run (ablated, other file).
    const AttentionRunResult a = runAttentionOnInputs(dir, dir + "/inputs.safetensors", 0, 0);
    QVERIFY(a.ok);
    AttentionViewModel vm;
    QString error;
    QVERIFY(vm.setTrace(a.trace, &error));
    AttentionTrace other = a.trace;
    other.documentId = QStringLiteral("/elsewhere/inputs.safetensors");
    QVERIFY(!vm.setAblatedTrace(other, &error));
    // A window larger than the model's window (64 - 2 positions for this config).
    QCOMPARE(a.trace.modelWindow, 62);
    AttentionTrace tooLong = a.trace;
    tooLong.modelWindow = 16;
    QVERIFY(!vm.setTrace(tooLong, &error));
    QVERIFY2(error.contains("model's window"), qPrintable(error));
    // Nothing to export without a trace.
    AttentionViewModel empty;
    QVERIFY(!writeAttentionSafetensors(empty.exportMatrices(), m_tmp.filePath("x.safetensors"), &error));
}


// The LayoutLMv3 fixture checkpoint plus a WordPiece vocab.txt, so a Document can be encoded.
QString TestAttentionParity::checkpointWithVocab()
{
    const QString dir = m_tmp.filePath(QStringLiteral("ck"));
    if (QFileInfo::exists(dir + "/vocab.txt"))
        return dir;
    QDir().mkpath(dir);
    const QString src = fixture("layoutlmv3_tokcls");
    if (!QFile::copy(src + "/config.json", dir + "/config.json") || !QFile::copy(src + "/model.safetensors", dir + "/model.safetensors"))
        return QString();
    QFile vocab(dir + "/vocab.txt");
    if (!vocab.open(QIODevice::WriteOnly))
        return QString();
    vocab.write("[PAD]\n[UNK]\n[CLS]\n[SEP]\n");
    for (int i = 0; i < 100; ++i)
        vocab.write(QStringLiteral("w%1\n").arg(i).toUtf8());
    return dir;
}

Document TestAttentionParity::makeDocument(int words) const
{
    Document d;
    d.sourcePath = QStringLiteral("page.png");
    d.kind = SourceKind::Image;
    d.pages.push_back(Page{QSizeF(1000, 1000), QString(), 0});
    Node root;
    root.kind = NodeKind::Root;
    d.nodes.push_back(root);
    for (int i = 0; i < words; ++i) {
        Node n;
        n.kind = NodeKind::Word;
        n.id = QStringLiteral("w%1").arg(i);
        Word w;
        w.id = n.id;
        w.text = QStringLiteral("w%1").arg(i);
        w.box = QRectF(20 + 95 * (i % 10), 30 + 60 * (i / 10), 80, 30);
        w.node = d.addNode(n, 0);
        d.words.push_back(w);
    }
    d.normaliseWordBoxes();
    return d;
}

void TestAttentionParity::documentRunIsStitched()
{
    const QString ck = checkpointWithVocab();
    QVERIFY(!ck.isEmpty());
    const Document doc = makeDocument(40);
    // Window capped at 16 tokens (14 words + CLS/SEP): 3 windows.
    const AttentionRunResult r = runAttentionOnDocument(ck, doc, 0, 16);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(int(r.trace.windows.size()), 3);
    QCOMPARE(r.labels.size(), 40);
    AttentionViewModel vm;
    vm.setDocument(doc);
    QString error;
    QVERIFY2(vm.setTrace(r.trace, &error), qPrintable(error));
    QVERIFY(vm.windowNote().contains("3 windows"));
    vm.setGranularity(AttentionGranularity::Words);
    const AttentionMatrixView &m = vm.matrix();
    QCOMPARE(m.rows, 40);
    QVERIFY(std::isnan(m.values[0 * 40 + 39]));  // different windows
    QVERIFY(!std::isnan(m.values[0 * 40 + 13])); // same window
    // Each word row: sum over the words of its window <= 1 (specials take the rest).
    float row = 0;
    for (int k = 0; k < 14; ++k)
        row += m.values[std::size_t(k)];
    QVERIFY(row > 0.1f && row <= 1.0f + 1e-5f);
    // The whole document fits the model's own window (62): one window, nothing stitched.
    const AttentionRunResult one = runAttentionOnDocument(ck, doc, 0);
    QVERIFY2(one.ok, qPrintable(one.error));
    QCOMPARE(int(one.trace.windows.size()), 1);
    // The trace is refused for another document.
    AttentionViewModel other;
    other.setDocument(makeDocument(12));
    QVERIFY(!other.setTrace(one.trace, &error));
    // A document without words and a checkpoint without a tokenizer: messages.
    const AttentionRunResult none = runAttentionOnDocument(ck, Document(), 0);
    QVERIFY(!none.ok && !none.error.isEmpty());
    const AttentionRunResult noTok = runAttentionOnDocument(fixture("layoutlmv3_tokcls"), doc, 0);
    QVERIFY(!noTok.ok);
    QVERIFY2(noTok.error.contains("layoutlmv3_tokcls"), qPrintable(noTok.error));
}

void TestAttentionParity::panelRunsAndAblatesLive()
{
    const QString ck = checkpointWithVocab();
    QVERIFY(!ck.isEmpty());
    const Document doc = makeDocument(40);
    AttentionPanel panel;
    panel.resize(900, 600);
    panel.setDocument(doc);
    QSignalSpy done(&panel, &AttentionPanel::runFinished);
    QSignalSpy labels(&panel, &AttentionPanel::wordLabelsChanged);
    panel.runOn(ck);
    QVERIFY(done.wait(120000));
    QVERIFY2(done.last().at(0).toBool(), qPrintable(panel.statusText()));
    QVERIFY(panel.viewModel()->hasTrace());
    // Tick the 2-D family and re-run: the label diff is what changed between the runs.
    const QList<QCheckBox *> boxes = panel.findChildren<QCheckBox *>();
    QCheckBox *twoD = nullptr;
    for (QCheckBox *b : boxes)
        if (b->property("family").toUInt() == AttnBias2D)
            twoD = b;
    QVERIFY(twoD);
    twoD->setChecked(true);
    panel.runAblation();
    QVERIFY(done.wait(120000));
    QVERIFY2(done.last().at(0).toBool(), qPrintable(panel.statusText()));
    QVERIFY(panel.viewModel()->ablatedTrace());
    const AttentionRunResult full = runAttentionOnDocument(ck, doc, 0);
    const AttentionRunResult ab = runAttentionOnDocument(ck, doc, AttnBias2D);
    int changed = 0;
    for (int w = 0; w < 40; ++w)
        changed += full.labels.at(w) != ab.labels.at(w);
    QCOMPARE(panel.labelDiff().size(), changed);
    QVERIFY(labels.count() >= 1);
    const QHash<int, QString> diffLabels = labels.last().at(0).value<QHash<int, QString>>();
    QCOMPARE(diffLabels.size(), changed);
    // With nothing selected the page shows the diff.
    QCOMPARE(panel.wordColors().size(), changed);
    qInfo("2-D bias off: %d of 40 word labels change", changed);
}

#ifdef FOLIO_CLI_PATH
static int runCli(const QStringList &args, QByteArray *out, QByteArray *err)
{
    QProcess p;
    p.start(QStringLiteral(FOLIO_CLI_PATH), args);
    if (!p.waitForFinished(240000))
        return -1;
    *out = p.readAllStandardOutput();
    *err = p.readAllStandardError();
    return p.exitCode();
}
#endif

void TestAttentionParity::cliExportsPngSvgSafetensors()
{
#ifndef FOLIO_CLI_PATH
    FOLIO_DATA_MISSING(QStringLiteral("folio-cli is not built with the attention command"));
#else
    const QString dir = fixture("layoutlmv3_tokcls");
    QByteArray out, err;
    for (const QString &ext : {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("safetensors")}) {
        const QString path = m_tmp.filePath("cli." + ext);
        const int rc = runCli({"-q", "attention", "--checkpoint", dir, dir + "/inputs.safetensors", "--layer", "1", "--head", "2",
                               "--out", path},
                              &out, &err);
        QVERIFY2(rc == 0, err.constData());
        QVERIFY2(QFileInfo(path).size() > 100, qPrintable(path));
        QVERIFY(out.contains("\"layers\":2"));
    }
    QImage png(m_tmp.filePath("cli.png"));
    QCOMPARE(png.size(), QSize(900, 800));
    QFile svg(m_tmp.filePath("cli.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
    const inf::TensorMap expected = inf::readSafetensors((dir + "/outputs.safetensors").toStdString());
    const inf::SafetensorsFile file(m_tmp.filePath("cli.safetensors").toStdString());
    const inf::Tensor got = file.tensor("window.0");
    const float *w = expected.at("attentions.1").data<float>() + std::size_t(2) * 24 * 24;
    for (int i = 0; i < 24 * 24; ++i)
        QVERIFY(std::fabs(got.data<float>()[i] - w[i]) <= 1e-5f);
    QCOMPARE(file.metadata().at("layer"), std::string("1"));
    QCOMPARE(file.metadata().at("head"), std::string("2"));

    // A Document JSON: the checkpoint's tokenizer builds the inputs; words and stitched windows.
    const QString ck = checkpointWithVocab();
    QVERIFY(!ck.isEmpty());
    QFile json(m_tmp.filePath("page.json"));
    QVERIFY(json.open(QIODevice::WriteOnly));
    json.write(documentToJson(makeDocument(40)));
    json.close();
    const int rc = runCli({"-q", "attention", "--checkpoint", ck, json.fileName(), "--layer", "0", "--head", "-1", "--granularity",
                           "words", "--max-window", "16", "--out", m_tmp.filePath("doc.safetensors")},
                          &out, &err);
    QVERIFY2(rc == 0, err.constData());
    QVERIFY2(out.contains("\"windows\":3") && out.contains("\"units\":40") && out.contains("not computed"), out.constData());
    const inf::SafetensorsFile docFile(m_tmp.filePath("doc.safetensors").toStdString());
    QCOMPARE(docFile.tensor("view").shape, (std::vector<std::int64_t>{40, 40}));
    QCOMPARE(docFile.metadata().at("granularity"), std::string("words"));
    QVERIFY(docFile.metadata().count("note"));
#endif
}

void TestAttentionParity::cliBadInputs()
{
#ifndef FOLIO_CLI_PATH
    FOLIO_DATA_MISSING(QStringLiteral("folio-cli is not built with the attention command"));
#else
    const QString dir = fixture("layoutlmv3_tokcls");
    QByteArray out, err;
    int rc = runCli({"attention", "--checkpoint", dir, dir + "/inputs.safetensors", "--layer", "9", "--out", m_tmp.filePath("a.png")},
                    &out, &err);
    QCOMPARE(rc, 2);
    QVERIFY2(err.contains("--layer 9"), err.constData());
    rc = runCli({"attention", "--checkpoint", dir, dir + "/inputs.safetensors", "--out", m_tmp.filePath("a.gif")}, &out, &err);
    QCOMPARE(rc, 2);
    QVERIFY2(err.contains("a.gif"), err.constData());
    rc = runCli({"attention", "--checkpoint", dir, m_tmp.filePath("missing.safetensors"), "--out", m_tmp.filePath("a.png")}, &out,
                &err);
    QCOMPARE(rc, 1);
    QVERIFY2(err.contains("missing.safetensors"), err.constData());
    rc = runCli({"attention", "--checkpoint", dir, dir + "/inputs.safetensors", "--mode", "bias.graph", "--out", m_tmp.filePath("a.png")},
                &out, &err);
    QCOMPARE(rc, 2);
    QVERIFY2(err.contains("bias.graph"), err.constData());
#endif
}

FOLIO_TEST_MAIN(TestAttentionParity)
#include "tst_attention_parity.moc"
