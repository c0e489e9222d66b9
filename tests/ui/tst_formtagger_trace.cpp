// folio-formtagger in the Attention dock: the traced, ablatable Predictor path on a FUNSD test
// page with the shipped resources/models/funsd-layout (attention rows sum to 1, trace-off and
// trace-on predictions identical, bias ablation zeroes the term and still predicts), the
// AttentionRun bridge (units = words, labels per word, identity) and `folio-cli attention` on a
// Folio Document JSON (PNG + safetensors with attentions.N [heads, words, words]); the
// AttentionPanel runs it and shows the 1-D ablation's label diff (offscreen).
#include "document/documentjson.h"
#include "document/formats/funsd.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/formtagger/predictor.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "ui/attention/attentionpanel.h"
#include "pipeline/attentionrun.h"
#include "attention/attentionviewmodel.h"
#include "tests/common/funsdtestpage.h"
#include "tests/common/testdata.h"

#include <QCheckBox>
#include <QFile>
#include <QSignalSpy>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace folio;
namespace inf = folio::inference;

class TestFormTaggerTrace : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void traceRowsSumToOneAndPredictionUnchanged();
    void biasAblationZeroesTermsAndPredicts();
    void traceIsOffByDefault();
    void attentionRunOnDocument();
    void attentionRunRefusesPreparedInputs();
    void panelShowsAndAblates();
    void cliWritesPngAndSafetensors();

private:
    QString m_checkpoint;
    Document m_doc;
    inf::TaggerPage m_page;
    inf::Predictor m_predictor;
    QTemporaryDir m_tmp;
};

static float maxAbs(const inf::Tensor &t)
{
    float m = 0;
    const float *d = t.data<float>();
    for (std::int64_t i = 0; i < t.numel(); ++i)
        m = std::max(m, std::fabs(d[i]));
    return m;
}

void TestFormTaggerTrace::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    m_checkpoint = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout");
    std::string why;
    QVERIFY2(m_predictor.load(m_checkpoint.toStdString(), &why), why.c_str());
    FOLIO_FIRST_FUNSD_TEST_PAGE(&m_doc, &m_page);
}

void TestFormTaggerTrace::traceRowsSumToOneAndPredictionUnchanged()
{
    inf::PagePrediction plain, traced;
    std::string why;
    QVERIFY2(m_predictor.predict(m_page, &plain, &why), why.c_str());
    inf::RunOptions options;
    options.trace = true;
    std::vector<inf::PredictionTraceWindow> windows;
    QVERIFY2(m_predictor.predict(m_page, &traced, &why, true, &options, &windows), why.c_str());
    // Exactly the same prediction with the trace on.
    QCOMPARE(traced.tags, plain.tags);
    QCOMPARE(traced.confidences, plain.confidences);
    QCOMPARE(traced.entities.size(), plain.entities.size());

    const std::int64_t n = std::int64_t(m_page.words.size());
    QCOMPARE(windows.size(), std::size_t(1)); // a FUNSD page fits one window of 512 words
    const inf::PredictionTraceWindow &w = windows.front();
    QCOMPARE(w.firstWord, 0);
    QCOMPARE(std::int64_t(w.wordCount), n);
    int layers = 0;
    while (w.tensors.count("attentions." + std::to_string(layers)))
        ++layers;
    QCOMPARE(layers, 4);
    for (int l = 0; l < layers; ++l) {
        const inf::Tensor &a = w.tensors.at("attentions." + std::to_string(l));
        QCOMPARE(a.dtype, inf::DType::F32);
        QCOMPARE(a.shape, (std::vector<std::int64_t>{4, n, n}));
        const float *d = a.data<float>();
        for (std::int64_t r = 0; r < 4 * n; ++r) {
            double s = 0;
            for (std::int64_t c = 0; c < n; ++c) {
                QVERIFY(d[r * n + c] >= 0.f);
                s += d[r * n + c];
            }
            QVERIFY2(std::fabs(s - 1.0) < 1e-4, qPrintable(QStringLiteral("layer %1 row %2 sums to %3").arg(l).arg(r).arg(s)));
        }
    }
    for (const char *term : {"bias.1d", "bias.2d_x", "bias.2d_y"}) {
        QVERIFY2(w.tensors.count(term), term);
        const inf::Tensor &t = w.tensors.at(term);
        QCOMPARE(t.shape, (std::vector<std::int64_t>{4, n, n}));
        QVERIFY2(maxAbs(t) > 1e-3f, term); // trained tables: not all zero
    }
}

void TestFormTaggerTrace::biasAblationZeroesTermsAndPredicts()
{
    inf::PagePrediction full;
    std::string why;
    QVERIFY2(m_predictor.predict(m_page, &full, &why), why.c_str());
    std::vector<inf::PredictionTraceWindow> fullTrace;
    inf::RunOptions on;
    on.trace = true;
    QVERIFY2(m_predictor.predict(m_page, &full, &why, true, &on, &fullTrace), why.c_str());
    const auto &labels = m_predictor.labels();
    for (std::uint32_t family : {std::uint32_t(inf::Bias1D), std::uint32_t(inf::Bias2D), std::uint32_t(inf::Bias1D | inf::Bias2D)}) {
        inf::RunOptions options;
        options.trace = true;
        options.disabledBiases = family;
        inf::PagePrediction ablated, ablatedPlain;
        std::vector<inf::PredictionTraceWindow> windows;
        QVERIFY2(m_predictor.predict(m_page, &ablated, &why, true, &options, &windows), why.c_str());
        QCOMPARE(ablated.tags.size(), m_page.words.size());
        for (const std::string &t : ablated.tags)
            QVERIFY(std::find(labels.begin(), labels.end(), t) != labels.end());
        for (double c : ablated.confidences)
            QVERIFY(c > 0 && c <= 1.0 + 1e-9);
        // The same ablation without the trace gives the same prediction.
        inf::RunOptions quiet;
        quiet.disabledBiases = family;
        QVERIFY2(m_predictor.predict(m_page, &ablatedPlain, &why, true, &quiet, nullptr), why.c_str());
        QCOMPARE(ablatedPlain.tags, ablated.tags);
        QCOMPARE(ablatedPlain.confidences, ablated.confidences);

        const auto &t = windows.front().tensors;
        QCOMPARE(maxAbs(t.at("bias.1d")) == 0.f, (family & inf::Bias1D) != 0);
        QCOMPARE(maxAbs(t.at("bias.2d_x")) == 0.f, (family & inf::Bias2D) != 0);
        QCOMPARE(maxAbs(t.at("bias.2d_y")) == 0.f, (family & inf::Bias2D) != 0);
        // The attention itself moves when a family is off.
        const inf::Tensor &a = t.at("attentions.0"), &b = fullTrace.front().tensors.at("attentions.0");
        double delta = 0;
        for (std::int64_t i = 0; i < a.numel(); ++i)
            delta = std::max(delta, double(std::fabs(a.data<float>()[i] - b.data<float>()[i])));
        QVERIFY2(delta > 1e-3, qPrintable(QStringLiteral("family %1: attention unchanged").arg(family)));
        int changed = 0;
        for (std::size_t i = 0; i < full.tags.size(); ++i)
            changed += full.tags[i] != ablated.tags[i];
        qInfo("bias family %u off: %d of %zu word tags change", family, changed, full.tags.size());
    }
}

void TestFormTaggerTrace::traceIsOffByDefault()
{
    // trace=false leaves the sink untouched and empty; a null sink with trace=true is fine too.
    std::vector<inf::PredictionTraceWindow> windows;
    inf::RunOptions off;
    inf::PagePrediction p;
    std::string why;
    QVERIFY2(m_predictor.predict(m_page, &p, &why, true, &off, &windows), why.c_str());
    QVERIFY(windows.empty());
    inf::RunOptions on;
    on.trace = true;
    QVERIFY2(m_predictor.predict(m_page, &p, &why, true, &on, nullptr), why.c_str());
    // Empty pages stay an error on the traced path.
    inf::TaggerPage empty;
    empty.id = "empty";
    QVERIFY(!m_predictor.predict(empty, &p, &why, true, &on, &windows));
    QVERIFY(QString::fromStdString(why).contains("empty"));
}

void TestFormTaggerTrace::attentionRunOnDocument()
{
    const AttentionRunResult run = runAttentionOnDocument(m_checkpoint, m_doc, 0);
    QVERIFY2(run.ok, qPrintable(run.error));
    QCOMPARE(run.trace.modelType, QStringLiteral("folio-formtagger"));
    QCOMPARE(run.trace.checkpoint, QFileInfo(m_checkpoint).absoluteFilePath());
    QCOMPARE(run.trace.documentId, attentionDocumentId(m_doc));
    QCOMPARE(run.trace.modelWindow, 512);
    QCOMPARE(run.trace.layerCount, 4);
    QCOMPARE(run.trace.headCount, 4);
    QVERIFY(run.trace.biasTermNames().contains(QStringLiteral("bias.2d_x")));
    // Units are words: one token per non-blank Document word, in order.
    std::vector<int> expected;
    for (std::size_t i = 0; i < m_doc.words.size(); ++i)
        if (!m_doc.words[i].text.trimmed().isEmpty())
            expected.push_back(int(i));
    QCOMPARE(run.trace.tokenWord, expected);
    QCOMPARE(run.trace.tokenText.size(), int(expected.size()));
    // Labels per Document word = the Predictor's tags.
    inf::PagePrediction pred;
    std::string why;
    QVERIFY2(m_predictor.predict(m_page, &pred, &why), why.c_str());
    QCOMPARE(run.labels.size(), int(m_doc.words.size()));
    for (std::size_t k = 0; k < expected.size(); ++k)
        QCOMPARE(run.labels.at(expected[k]), QString::fromStdString(pred.tags[k]));

    // Ablating 2-D: the identity says so, the 2-D terms are zero, labels still one per word.
    const AttentionRunResult ab = runAttentionOnDocument(m_checkpoint, m_doc, AttnBias2D);
    QVERIFY2(ab.ok, qPrintable(ab.error));
    QCOMPARE(ab.trace.disabledBiases, std::uint32_t(AttnBias2D));
    QCOMPARE(ab.labels.size(), run.labels.size());
    for (const float v : ab.trace.windows.front().biasTerms.at(QStringLiteral("bias.2d_y")))
        QCOMPARE(v, 0.f);
    int changed = 0;
    for (int w = 0; w < run.labels.size(); ++w)
        changed += run.labels.at(w) != ab.labels.at(w);
    qInfo("AttentionRun, 2-D bias off: %d of %d word labels change", changed, int(run.labels.size()));

    // A document with only blank words is refused with a message.
    Document blank = m_doc;
    for (Word &w : blank.words)
        w.text = QStringLiteral(" ");
    const AttentionRunResult none = runAttentionOnDocument(m_checkpoint, blank, 0);
    QVERIFY(!none.ok);
    QVERIFY2(none.error.contains(QLatin1String("blank")), qPrintable(none.error));
}

void TestFormTaggerTrace::attentionRunRefusesPreparedInputs()
{
    const AttentionRunResult r = runAttentionOnInputs(m_checkpoint, m_checkpoint + "/model.safetensors", 0, 0);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QLatin1String("folio-formtagger")), qPrintable(r.error));
}

void TestFormTaggerTrace::panelShowsAndAblates()
{
    // Model > Show Attention on the default model, then tick "1-D" and re-run: the label diff is
    // what changed between the two runs.
    AttentionPanel panel;
    panel.resize(900, 600);
    panel.setDocument(m_doc);
    QSignalSpy done(&panel, &AttentionPanel::runFinished);
    panel.runOn(m_checkpoint);
    QVERIFY(done.wait(60000));
    QVERIFY2(done.last().at(0).toBool(), qPrintable(panel.statusText()));
    QVERIFY(panel.viewModel()->hasTrace());
    QCheckBox *oneD = nullptr;
    for (QCheckBox *b : panel.findChildren<QCheckBox *>())
        if (b->property("family").toUInt() == AttnBias1D)
            oneD = b;
    QVERIFY(oneD);
    oneD->setChecked(true);
    panel.runAblation();
    QVERIFY(done.wait(60000));
    QVERIFY2(done.last().at(0).toBool(), qPrintable(panel.statusText()));
    const AttentionRunResult full = runAttentionOnDocument(m_checkpoint, m_doc, 0);
    const AttentionRunResult ab = runAttentionOnDocument(m_checkpoint, m_doc, AttnBias1D);
    int changed = 0;
    for (int w = 0; w < full.labels.size(); ++w)
        changed += full.labels.at(w) != ab.labels.at(w);
    QVERIFY(changed > 0); // 31 of the page's words on the shipped model
    QCOMPARE(panel.labelDiff().size(), changed);
}

void TestFormTaggerTrace::cliWritesPngAndSafetensors()
{
#ifdef FOLIO_CLI_PATH
    const QString docPath = m_tmp.filePath(QStringLiteral("page.json"));
    {
        QFile f(docPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(documentToJson(m_doc));
    }
    auto cli = [](const QStringList &args, QByteArray *err) {
        QProcess p;
        p.start(QStringLiteral(FOLIO_CLI_PATH), args);
        if (!p.waitForFinished(60000))
            return -1;
        *err = p.readAllStandardError();
        return p.exitCode();
    };
    QByteArray err;
    const QString png = m_tmp.filePath(QStringLiteral("heat.png"));
    QCOMPARE(cli({"-q", "attention", "--checkpoint", m_checkpoint, docPath, "--layer", "1", "--head", "2", "--out", png}, &err), 0);
    QFile pf(png);
    QVERIFY(pf.open(QIODevice::ReadOnly));
    QCOMPARE(pf.read(8), QByteArray("\x89PNG\r\n\x1a\n", 8));

    const QString st = m_tmp.filePath(QStringLiteral("heat.safetensors"));
    QVERIFY2(cli({"-q", "attention", "--checkpoint", m_checkpoint, docPath, "--layer", "3", "--head", "0", "--disable", "1d",
                  "--out", st}, &err) == 0, err.constData());
    const inf::SafetensorsFile file(st.toStdString());
    const std::int64_t n = std::int64_t(m_page.words.size());
    for (int l = 0; l < 4; ++l)
        QCOMPARE(file.tensor("attentions." + std::to_string(l)).shape, (std::vector<std::int64_t>{4, n, n}));
    QCOMPARE(maxAbs(file.tensor("bias.1d")), 0.f);
    QVERIFY(maxAbs(file.tensor("bias.2d_x")) > 0.f);
    QCOMPARE(file.metadata().at("model_type"), std::string("folio-formtagger"));

    // Prepared inputs with a folio-formtagger checkpoint: an error naming the model type.
    QVERIFY(cli({"-q", "attention", "--checkpoint", m_checkpoint, m_checkpoint + "/model.safetensors", "--out", st}, &err) != 0);
    QVERIFY2(err.contains("folio-formtagger"), err.constData());
#else
    FOLIO_DATA_MISSING(QStringLiteral("folio-cli is not built (no GUI build)"));
#endif
}

FOLIO_TEST_MAIN(TestFormTaggerTrace)
#include "tst_formtagger_trace.moc"
