// Label parity: a parity fixture checkpoint run through the attention view model; the exported
// matrices (safetensors, read back) must equal the fixture's `attentions.N` (atol 1e-5) for every
// batch row, layer and head, and the metadata must carry the identity. Also the headless
// `folio-cli attention` (PNG, SVG, safetensors) and its bad inputs.
#include "inference/safetensors.h"
#include "ui/attentionrun.h"
#include "widgets/attentionviewmodel.h"
#include "widgets/heatmaprender.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

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
    void cliExportsPngSvgSafetensors();
    void cliBadInputs();

private:
    QString fixture(const QString &name) const { return m_parity + QLatin1Char('/') + name; }
    QString m_parity;
    QTemporaryDir m_tmp;
};

void TestAttentionParity::initTestCase()
{
    m_parity = qEnvironmentVariable("FOLIO_PARITY_DIR", QStringLiteral(FOLIO_SHARED_DIR "/fixtures/parity"));
    if (!QFileInfo::exists(fixture("layoutlmv3_tokcls/model.safetensors")))
        QFAIL(qPrintable("parity fixtures missing under " + m_parity));
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
    QSKIP("folio-cli is not built with the attention command");
#else
    const QString dir = fixture("layoutlmv3_tokcls");
    QByteArray out, err;
    for (const QString ext : {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("safetensors")}) {
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
#endif
}

void TestAttentionParity::cliBadInputs()
{
#ifndef FOLIO_CLI_PATH
    QSKIP("folio-cli is not built with the attention command");
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

QTEST_MAIN(TestAttentionParity)
#include "tst_attention_parity.moc"
