// Show Attention for the Hugging Face architectures of issue 32 (LiLT, LayoutLMv2, MarkupLM):
//  - LiLT: the trace holds the shared BiACM attention (`attentions.N`) and, apart, the layout
//    flow's scores (`bias.layout_flow.N`); recomputed here from the case's weights and the model's
//    own traced states, s_t (text flow) + s_l (that term) + mask gives the attention exactly, and
//    the attention is the reference's (parity-new/lilt_tokcls). Ablating the family drops s_l.
//  - A LiLT folder (tests/common/liltfolder.h) on a Document: runAttentionOnDocument names the
//    term and its family, labels every word; the AttentionPanel offers the term and colours words.
//  - LayoutLMv2 (parity-new/layoutlmv2_visual, visual backbone): 1-D, 2-D x and 2-D y terms apart,
//    windows holding the 7x7 visual tokens after the text (named "visual N", no word); the
//    attention is the reference's; ablating 2-D moves it.
//  - MarkupLM (parity-new/markuplm_tokcls): plain attention over the nodes' tokens, no bias term;
//    a MarkupLM folder (tests/common/tinymarkuplm.h) on a web page: tokens on the nodes' words,
//    labels on the words, a DOM node selected colours the page; a QA folder is refused.
#include "attention/attentionviewmodel.h"
#include "document/formats/datasetformat.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/models/modelrunner.h"
#include "inference/tokenizers/hflayouttokenizer.h"
#include "pipeline/attentionrun.h"
#include "pipeline/documentsource.h"
#include "tests/common/layoutlmv2folder.h"
#include "tests/common/liltfolder.h"
#include "tests/common/testdata.h"
#include "tests/common/tinymarkuplm.h"
#include "ui/attention/attentionpanel.h"

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace folio;
namespace inf = folio::inference;

namespace {

QString caseDir(const char *name) { return test::sharedPath(QStringLiteral("fixtures/parity-new/%1").arg(QLatin1String(name))); }

const inf::Tensor &at(const inf::TensorMap &m, const std::string &name)
{
    static const inf::Tensor none;
    const auto it = m.find(name);
    return it == m.end() ? none : it->second;
}

// y[b, t, o] = x[b, t, :] . W[o, :] + bias[o]  (x [B, T, I], W [O, I]).
std::vector<float> linear(const inf::Tensor &x, const inf::Tensor &w, const inf::Tensor &bias)
{
    const auto rows = x.shape[0] * x.shape[1], in = x.shape[2], out = w.shape[0];
    std::vector<float> y(std::size_t(rows * out));
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t o = 0; o < out; ++o) {
            double s = bias.data<float>()[o];
            for (std::int64_t i = 0; i < in; ++i)
                s += double(x.data<float>()[r * in + i]) * w.data<float>()[o * in + i];
            y[std::size_t(r * out + o)] = float(s);
        }
    return y;
}

// Scaled per-head scores [B, H, T, T] of one flow: (q_h . k_h) / sqrt(scaleDim).
std::vector<float> scores(const inf::TensorMap &weights, const std::string &prefix, const inf::Tensor &x, int heads,
                          double scaleDim)
{
    const std::vector<float> q = linear(x, at(weights, prefix + "query.weight"), at(weights, prefix + "query.bias"));
    const std::vector<float> k = linear(x, at(weights, prefix + "key.weight"), at(weights, prefix + "key.bias"));
    const auto b = x.shape[0], t = x.shape[1], width = at(weights, prefix + "query.weight").shape[0];
    const auto dh = width / heads;
    std::vector<float> s(std::size_t(b * heads * t * t));
    for (std::int64_t bi = 0; bi < b; ++bi)
        for (std::int64_t h = 0; h < heads; ++h)
            for (std::int64_t i = 0; i < t; ++i)
                for (std::int64_t j = 0; j < t; ++j) {
                    double d = 0;
                    for (std::int64_t c = 0; c < dh; ++c)
                        d += double(q[std::size_t((bi * t + i) * width + h * dh + c)]) * k[std::size_t((bi * t + j) * width + h * dh + c)];
                    s[std::size_t(((bi * heads + h) * t + i) * t + j)] = float(d / std::sqrt(scaleDim));
                }
    return s;
}

// softmax over keys of s (+ s2 when given) with the key mask (0 = padding: finfo.min added).
std::vector<float> softmaxRows(const std::vector<float> &s, const std::vector<float> *s2, const inf::Tensor &mask, int heads,
                               std::int64_t t)
{
    std::vector<float> p(s.size());
    const std::int64_t rows = std::int64_t(s.size()) / t;
    for (std::int64_t r = 0; r < rows; ++r) {
        const std::int64_t b = r / (heads * t);
        std::vector<double> v(static_cast<std::size_t>(t));
        double mx = -std::numeric_limits<double>::infinity();
        for (std::int64_t j = 0; j < t; ++j) {
            double x = s[std::size_t(r * t + j)] + (s2 ? (*s2)[std::size_t(r * t + j)] : 0.0);
            if (mask.data<std::int64_t>()[b * t + j] == 0)
                x += double(std::numeric_limits<float>::lowest());
            v[std::size_t(j)] = x;
            mx = std::max(mx, x);
        }
        double sum = 0;
        for (double &x : v)
            sum += (x = std::exp(x - mx));
        for (std::int64_t j = 0; j < t; ++j)
            p[std::size_t(r * t + j)] = float(v[std::size_t(j)] / sum);
    }
    return p;
}

float maxDiff(const std::vector<float> &a, const inf::Tensor &b)
{
    if (!b.isValid() || std::int64_t(a.size()) != b.numel())
        return std::numeric_limits<float>::infinity();
    float m = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        m = std::max(m, std::fabs(a[i] - b.data<float>()[i]));
    return m;
}

std::vector<float> values(const inf::Tensor &t) { return std::vector<float>(t.data<float>(), t.data<float>() + t.numel()); }

Document formDocument(const QString &imagePath = QString(), int words = 10)
{
    static const char *const kTexts[] = {"Invoice", "number", "A-17", "Date:", "March", "12,", "2024", "Total", "$", "1,250.00"};
    QStringList texts;
    for (int i = 0; i < words; ++i)
        texts << QString::fromLatin1(kTexts[i % 10]);
    std::vector<NormBox> boxes;
    for (int i = 0; i < texts.size(); ++i) {
        const int x = 60 + (i % 3) * 280, y = 40 + (i / 3) * 45;
        boxes.push_back(NormBox{x, y, x + 200, y + 40});
    }
    return formats::documentFromWords(QStringLiteral("form.json"), texts, boxes, QSizeF(1000, 1000), imagePath);
}

} // namespace

class TestAttentionHfArch : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

private Q_SLOTS:
    // LiLT's terms, checked against the model's own scores and the reference's attention.
    void liltLayoutFlowTerm()
    {
        FOLIO_REQUIRE_DATA(caseDir("lilt_tokcls") + "/model.safetensors");
        const std::string dir = caseDir("lilt_tokcls").toStdString();
        inf::ModelRunner runner;
        std::string why;
        QVERIFY2(runner.load(dir, &why), why.c_str());
        const inf::TensorMap weights = inf::readSafetensors(dir + "/model.safetensors");
        const inf::TensorMap inputs = inf::readSafetensors(dir + "/inputs.safetensors");
        const inf::TensorMap reference = inf::readSafetensors(dir + "/outputs.safetensors");
        const inf::Tensor &mask = at(inputs, "attention_mask");
        const int heads = 4;
        const std::int64_t t = mask.shape[1];
        const double textDim = 12, layoutDim = 12 / 4; // head size; the layout flow's: head size // ratio

        inf::RunOptions traced;
        traced.trace = true;
        const inf::RunResult run = runner.run(inputs, traced);
        QVERIFY2(run.ok, run.error.c_str());
        for (int layer = 0; layer < 2; ++layer) {
            const std::string n = std::to_string(layer), lp = "lilt.encoder.layer." + n + ".attention.self.";
            const inf::Tensor &term = at(run.outputs, "bias.layout_flow." + n);
            QVERIFY2(term.isValid(), "no bias.layout_flow term");
            QVERIFY(term.shape == (std::vector<std::int64_t>{2, heads, t, t}));
            // s_l from the layout flow's traced input to this layer, s_t from the text flow's.
            const inf::Tensor &layoutIn = at(run.outputs, layer == 0 ? "debug.layout_embeddings" : "debug.layout_hidden_states." + n);
            const std::vector<float> sl = scores(weights, lp + "layout_", layoutIn, heads, layoutDim);
            const std::vector<float> st = scores(weights, lp, at(run.outputs, "hidden_states." + n), heads, textDim);
            QVERIFY2(maxDiff(sl, term) < 1e-4f, qPrintable(QStringLiteral("layer %1: term vs s_l %2").arg(layer).arg(maxDiff(sl, term))));
            // The model adds exactly this term: softmax(s_t + term + mask) is its attention.
            const std::vector<float> termValues = values(term);
            const std::vector<float> p = softmaxRows(st, &termValues, mask, heads, t);
            QVERIFY2(maxDiff(p, at(run.outputs, "attentions." + n)) < 1e-5f, qPrintable(QString::number(maxDiff(p, at(run.outputs, "attentions." + n)))));
            QVERIFY(maxDiff(values(at(run.outputs, "attentions." + n)), at(reference, "attentions." + n)) < 1e-5f);
            // Without s_l the attention is visibly different (the term matters).
            QVERIFY(maxDiff(softmaxRows(st, nullptr, mask, heads, t), at(run.outputs, "attentions." + n)) > 1e-3f);
        }

        // Ablated: the term is zero and both flows attend by the text scores alone.
        inf::RunOptions ablated = traced;
        ablated.disabledBiases = inf::BiasLayoutFlow;
        const inf::RunResult off = runner.run(inputs, ablated);
        QVERIFY2(off.ok, off.error.c_str());
        const inf::Tensor &zero = at(off.outputs, "bias.layout_flow.0");
        QVERIFY(zero.isValid());
        QCOMPARE(maxDiff(std::vector<float>(std::size_t(zero.numel()), 0.0f), zero), 0.0f);
        const std::vector<float> st0 = scores(weights, "lilt.encoder.layer.0.attention.self.", at(off.outputs, "hidden_states.0"), heads, textDim);
        QVERIFY(maxDiff(softmaxRows(st0, nullptr, mask, heads, t), at(off.outputs, "attentions.0")) < 1e-5f);
        QVERIFY(maxDiff(values(at(off.outputs, "logits")), at(run.outputs, "logits")) > 1e-4f);

        // Without tracing nothing is kept.
        const inf::RunResult plain = runner.run(inputs);
        QVERIFY(plain.ok);
        QVERIFY(plain.outputs.find("bias.layout_flow.0") == plain.outputs.end());
        // The untraced forward fuses each flow's Q/K/V and adds the two score products into one buffer
        // (issue 32's speed work); the traced one keeps the step-by-step form that records s_l: the
        // same logits up to float rounding.
        QVERIFY(maxDiff(values(at(plain.outputs, "logits")), at(run.outputs, "logits")) < 1e-5f);
    }

    void liltFamilyNames()
    {
        QCOMPARE(biasFamilyOfTerm(QStringLiteral("bias.layout_flow.3")), std::uint32_t(AttnBiasLayoutFlow));
        QCOMPARE(biasFamilyOfTerm(QStringLiteral("bias.layout_flow")), std::uint32_t(AttnBiasLayoutFlow));
        QCOMPARE(attentionBiasFamilyName(AttnBiasLayoutFlow), QStringLiteral("layout flow"));
        QCOMPARE(std::uint32_t(AttnBiasLayoutFlow), std::uint32_t(inf::BiasLayoutFlow)); // same bits as the engine's
    }

    // A LiLT folder on a Document, as Show Attention runs it; the panel offers the term.
    void liltFolderOnDocument()
    {
        FOLIO_REQUIRE_DATA(test::liltCaseDir() + "/model.safetensors");
        FOLIO_REQUIRE_DATA(test::liltTokenizerDir() + "/vocab.json");
        QVERIFY(m_tmp.isValid());
        const QString folder = m_tmp.filePath(QStringLiteral("lilt"));
        QVERIFY(test::makeLiltFolder(folder, 1060));
        const Document doc = formDocument();
        const AttentionRunResult r = runAttentionOnDocument(folder, doc, AttnBiasNone);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.trace.modelType, QStringLiteral("lilt"));
        QCOMPARE(r.trace.layerCount, 2);
        QCOMPARE(r.trace.headCount, 4);
        QCOMPARE(r.trace.biasTermNames(), (QStringList{QStringLiteral("bias.layout_flow.0"), QStringLiteral("bias.layout_flow.1")}));
        QCOMPARE(r.trace.biasFamiliesPresent(), std::uint32_t(AttnBiasLayoutFlow));
        QCOMPARE(r.labels.size(), int(doc.words.size()));
        for (const QString &label : r.labels)
            QVERIFY(label.startsWith(QLatin1String("LABEL_")));
        for (int w = 0; w < int(doc.words.size()); ++w)
            QVERIFY(std::find(r.trace.tokenWord.begin(), r.trace.tokenWord.end(), w) != r.trace.tokenWord.end());

        AttentionPanel panel;
        panel.setDocument(doc);
        QVERIFY(panel.setTrace(r.trace, r.labels));
        auto *mode = panel.findChild<QComboBox *>();
        QVERIFY(mode);
        int termItem = -1;
        for (int i = 0; i < mode->count(); ++i)
            if (mode->itemData(i).toString() == QLatin1String("bias:bias.layout_flow"))
                termItem = i;
        QVERIFY2(termItem >= 0, "no layout flow term in the mode list");
        QVERIFY(mode->itemText(termItem).contains(QLatin1String("layout flow")));
        panel.selectWord(4);
        QVERIFY(!panel.wordColors().isEmpty());
        mode->setCurrentIndex(termItem);
        QCOMPARE(panel.viewModel()->mode(), AttentionViewMode::BiasTerm);
        QVERIFY(panel.viewModel()->matrix().diverging);

        // Ablated through the same path: the family is recorded, its term is zero.
        const AttentionRunResult off = runAttentionOnDocument(folder, doc, AttnBiasLayoutFlow);
        QVERIFY2(off.ok, qPrintable(off.error));
        QCOMPARE(off.trace.disabledBiases, std::uint32_t(AttnBiasLayoutFlow));
        for (const auto &[name, v] : off.trace.windows.front().biasTerms)
            QVERIFY2(std::all_of(v.begin(), v.end(), [](float x) { return x == 0.0f; }), qPrintable(name));
    }

    // A LiLT folder with lilt-infoxlm's XLM-R tokenizer (SentencePiece) goes the same way.
    void liltXlmRobertaFolderOnDocument()
    {
        FOLIO_REQUIRE_DATA(test::liltCaseDir() + "/model.safetensors");
        const QString xlm = QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizers/layoutxlm");
        FOLIO_REQUIRE_DATA(xlm + "/sentencepiece.bpe.model");
        const inf::HfLayoutTokenizer tokenizer = inf::HfLayoutTokenizer::fromDirectory(xlm.toStdString());
        const QString folder = m_tmp.filePath(QStringLiteral("lilt-xlmr"));
        QVERIFY(test::makeLiltFolder(folder, tokenizer.tokenizer().vocabSize(), xlm));
        const Document doc = formDocument();
        const AttentionRunResult r = runAttentionOnDocument(folder, doc, AttnBiasNone);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.trace.modelType, QStringLiteral("lilt"));
        QCOMPARE(r.trace.biasFamiliesPresent(), std::uint32_t(AttnBiasLayoutFlow));
        // HfTokenClassifier's window (64 positions less RoBERTa's pad + 1), not the config's 64 of
        // the prepared-tokenizer path.
        QCOMPARE(r.trace.modelWindow, 62);
        QCOMPARE(r.labels.size(), int(doc.words.size()));
        for (const QString &label : r.labels)
            QVERIFY(label.startsWith(QLatin1String("LABEL_")));
    }

    // LayoutLMv2 with its visual backbone: SASAM's terms apart, visual tokens after the text.
    void layoutlmv2Terms()
    {
        const QString dir = caseDir("layoutlmv2_visual");
        FOLIO_REQUIRE_DATA(dir + "/model.safetensors");
        const AttentionRunResult r = runAttentionOnInputs(dir, dir + "/inputs.safetensors", 0, AttnBiasNone);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.trace.modelType, QStringLiteral("layoutlmv2"));
        QCOMPARE(r.trace.biasTermNames(), (QStringList{QStringLiteral("bias.1d"), QStringLiteral("bias.2d_x"), QStringLiteral("bias.2d_y")}));
        QCOMPARE(r.trace.biasFamiliesPresent(), std::uint32_t(AttnBias1D | AttnBias2D));
        const inf::TensorMap inputs = inf::readSafetensors((dir + "/inputs.safetensors").toStdString());
        const int text = int(at(inputs, "input_ids").shape[1]);
        QCOMPARE(r.trace.windows.size(), std::size_t(1));
        QVERIFY2(r.trace.windows.front().length > text, "no visual tokens in the window");
        QCOMPARE(r.trace.tokenText.size(), r.trace.windows.front().length);
        QCOMPARE(r.trace.tokenText.at(text), QStringLiteral("visual 0"));
        // The trace's attention is the reference's (row 0).
        const inf::TensorMap reference = inf::readSafetensors((dir + "/outputs.safetensors").toStdString());
        const inf::Tensor &ref0 = at(reference, "attentions.0");
        if (ref0.isValid() && ref0.shape.size() == 4 && ref0.shape[2] == r.trace.windows.front().length) {
            const std::size_t block = std::size_t(ref0.shape[1] * ref0.shape[2] * ref0.shape[3]);
            const std::vector<float> &mine = r.trace.windows.front().layers[0];
            QCOMPARE(mine.size(), block);
            float m = 0;
            for (std::size_t i = 0; i < block; ++i)
                m = std::max(m, std::fabs(mine[i] - ref0.data<float>()[i]));
            QVERIFY2(m < 1e-4f, qPrintable(QString::number(m)));
        }
        // Ablating 2-D changes the attention (the terms are listed as the tables give them, as for LayoutLMv3).
        const AttentionRunResult off = runAttentionOnInputs(dir, dir + "/inputs.safetensors", 0, AttnBias2D);
        QVERIFY2(off.ok, qPrintable(off.error));
        QCOMPARE(off.trace.disabledBiases, std::uint32_t(AttnBias2D));
        const std::vector<float> &full = r.trace.windows.front().layers[0], &ablated = off.trace.windows.front().layers[0];
        QCOMPARE(ablated.size(), full.size());
        float moved = 0;
        for (std::size_t i = 0; i < full.size(); ++i)
            moved = std::max(moved, std::fabs(full[i] - ablated[i]));
        QVERIFY2(moved > 1e-4f, qPrintable(QString::number(moved)));
    }

    // A LayoutLMv2 token-classification folder (WordPiece vocab.txt) on a Document with its page
    // image: Show Attention runs it through HfTokenClassifier; each window holds the text tokens,
    // then the 7x7 visual tokens ("visual N", no word); SASAM's terms apart.
    void layoutlmv2FolderOnDocument()
    {
        FOLIO_REQUIRE_DATA(caseDir("layoutlmv2_visual") + "/model.safetensors");
        const QString folder = m_tmp.filePath(QStringLiteral("layoutlmv2"));
        QVERIFY(test::makeLayoutLMv2Folder(folder, QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizers/layoutlmv2")));
        QImage page(300, 300, QImage::Format_RGB32);
        page.fill(Qt::white);
        const QString image = m_tmp.filePath(QStringLiteral("page.png"));
        QVERIFY(page.save(image));
        // More words than one window of the case's 128 text positions: full windows + 49 visual
        // tokens must still fit the trace's model window.
        const Document doc = formDocument(image, 60);
        const AttentionRunResult r = runAttentionOnDocument(folder, doc, AttnBiasNone);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.trace.modelType, QStringLiteral("layoutlmv2"));
        QCOMPARE(r.trace.biasTermNames(), (QStringList{QStringLiteral("bias.1d"), QStringLiteral("bias.2d_x"), QStringLiteral("bias.2d_y")}));
        QVERIFY(r.trace.tokenText.contains(QStringLiteral("visual 48")));
        QVERIFY(!r.trace.tokenText.contains(QStringLiteral("visual 49")) || r.trace.windows.size() > 1);
        QCOMPARE(r.labels.size(), int(doc.words.size()));
        for (int w = 0; w < int(doc.words.size()); ++w)
            QVERIFY(std::find(r.trace.tokenWord.begin(), r.trace.tokenWord.end(), w) != r.trace.tokenWord.end());
        AttentionPanel panel;
        panel.setDocument(doc);
        QVERIFY2(r.trace.modelWindow >= r.trace.windows.front().length, qPrintable(QString::number(r.trace.modelWindow)));
        QVERIFY(panel.setTrace(r.trace, r.labels));
        panel.selectWord(2);
        QVERIFY(!panel.wordColors().isEmpty());
    }

    // MarkupLM: attention over the nodes' tokens, no bias terms.
    void markuplmPlainAttention()
    {
        const QString dir = caseDir("markuplm_tokcls");
        FOLIO_REQUIRE_DATA(dir + "/model.safetensors");
        const AttentionRunResult r = runAttentionOnInputs(dir, dir + "/inputs.safetensors", 0, AttnBiasNone);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.trace.modelType, QStringLiteral("markuplm"));
        QVERIFY(r.trace.biasTermNames().isEmpty());
        QVERIFY(r.trace.layerCount > 0);
        const std::vector<float> &l0 = r.trace.windows.front().layers[0];
        const int len = r.trace.windows.front().length;
        double row = 0;
        for (int j = 0; j < len; ++j)
            row += l0[std::size_t(j)];
        QVERIFY(std::fabs(row - 1.0) < 1e-4);
    }

    void markuplmOnWebPage()
    {
        FOLIO_REQUIRE_DATA(caseDir("markuplm_tokcls") + "/model.safetensors");
        FOLIO_REQUIRE_DATA(caseDir("markuplm_tokenizer") + "/tokenizer");
        const QString folder = test::makeTinyMarkupLM(m_tmp.filePath(QStringLiteral("markuplm")), false);
        QVERIFY(!folder.isEmpty());
        const QString path = m_tmp.filePath(QStringLiteral("mug.html"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("<html><head><title>Blue Mug</title></head><body><div><h1>Blue Mug</h1>"
                    "<p>Price: <b>$12.50</b> (incl. VAT)</p><ul><li>Ceramic</li><li>350 ml</li></ul></div></body></html>");
        }
        const pipeline::LoadedDocument loaded = pipeline::loadDocumentFile(path);
        QVERIFY2(loaded.ok, qPrintable(loaded.error));
        const Document &doc = loaded.document;
        QVERIFY(!doc.words.empty());
        const AttentionRunResult r = runAttentionOnDocument(folder, doc, AttnBiasNone);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.trace.modelType, QStringLiteral("markuplm"));
        QVERIFY(r.trace.biasTermNames().isEmpty());
        QCOMPARE(r.labels.size(), int(doc.words.size()));
        int wordOfPrice = -1;
        for (int w = 0; w < int(doc.words.size()); ++w)
            if (doc.words[std::size_t(w)].text == QLatin1String("$12.50"))
                wordOfPrice = w;
        QVERIFY(wordOfPrice >= 0);
        QVERIFY(std::find(r.trace.tokenWord.begin(), r.trace.tokenWord.end(), wordOfPrice) != r.trace.tokenWord.end());
        QVERIFY(!r.labels.at(wordOfPrice).isEmpty());

        AttentionPanel panel;
        panel.setDocument(doc);
        QVERIFY(panel.setTrace(r.trace, r.labels));
        panel.selectNode(doc.words[std::size_t(wordOfPrice)].node);
        QVERIFY(!panel.wordColors().isEmpty());

        const QString qa = test::makeTinyMarkupLM(m_tmp.filePath(QStringLiteral("markuplm-qa")), true);
        const AttentionRunResult refused = runAttentionOnDocument(qa, doc, AttnBiasNone);
        QVERIFY(!refused.ok);
        QVERIFY2(refused.error.contains(QLatin1String("question-answering")), qPrintable(refused.error));
    }
};

FOLIO_TEST_MAIN(TestAttentionHfArch)
#include "tst_attention_hfarch.moc"
