// Attention runs from folio_pipeline without any widget: the shipped layout tagger on a
// two-page document built here, the trace stitched over its pages, ablation and bad input.
#include "attention/attentionviewmodel.h"
#include "pipeline/attentionrun.h"
#include "tests/common/testdata.h"

#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <QTest>

#ifdef QT_WIDGETS_LIB
#error "folio_pipeline must not bring QtWidgets into its users"
#endif

using namespace folio;

static const QString kModel = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading");

namespace {

// A small two-page form: "Name: John Smith / Date: 12 March" on each page, one blank word.
Document twoPageForm()
{
    Document doc;
    doc.sourcePath = QStringLiteral("form.pdf");
    doc.kind = SourceKind::Pdf;
    const QStringList texts{QStringLiteral("Name:"), QStringLiteral("John"), QStringLiteral("Smith"), QStringLiteral(" "),
                            QStringLiteral("Date:"), QStringLiteral("12"), QStringLiteral("March")};
    for (int page = 0; page < 2; ++page) {
        Page p;
        p.size = QSizeF(1000, 1000);
        doc.pages.push_back(p);
        for (int i = 0; i < texts.size(); ++i) {
            Word w;
            w.id = QStringLiteral("p%1/w%2").arg(page).arg(i);
            w.text = texts[i];
            w.page = page;
            const int row = i < 4 ? 0 : 1;
            const int col = i < 4 ? i : i - 4;
            w.box = QRectF(100 + col * 120, 100 + row * 60, 100, 30);
            w.norm = normaliseBox(w.box, p.size);
            doc.words.push_back(w);
        }
    }
    return doc;
}

} // namespace

class TestPipelineAttention : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void traceOverEveryPage()
    {
        const Document doc = twoPageForm();
        const AttentionRunResult r = runAttentionOnDocument(kModel, doc, 0);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.trace.modelType, QStringLiteral("folio-formtagger"));
        QCOMPARE(int(r.trace.windows.size()), 2); // one model page per Document page
        QCOMPARE(r.trace.layerCount, 4);
        // Units are the non-blank words, mapped back to Document word indices.
        QCOMPARE(int(r.trace.tokenWord.size()), 12);
        QVERIFY(std::find(r.trace.tokenWord.begin(), r.trace.tokenWord.end(), 3) == r.trace.tokenWord.end());
        QCOMPARE(r.trace.tokenWord.back(), 13);
        QCOMPARE(r.labels.size(), int(doc.words.size()));
        QCOMPARE(r.labels[3], QString());
        QVERIFY2(r.labels[0].endsWith(QStringLiteral("QUESTION")) || r.labels[0].endsWith(QStringLiteral("HEADER")),
                 qPrintable(r.labels.join(QLatin1Char(','))));
        AttentionViewModel vm;
        vm.setDocument(doc, nullptr);
        QString error;
        QVERIFY2(vm.setTrace(r.trace, &error), qPrintable(error));
        vm.setGranularity(AttentionGranularity::Words);
        const AttentionMatrixView &m = vm.matrix();
        QCOMPARE(m.rows, 14); // every Document word; the blank ones were not run
        QCOMPARE(m.cols, 14);
        auto at = [&](int row, int col) { return m.values[std::size_t(row * m.cols + col)]; };
        for (int row : {0, 1, 2, 4, 5, 6}) { // page 1's words attend within page 1's window only
            double sum = 0;
            for (int col = 0; col < 7; ++col)
                sum += std::isnan(at(row, col)) ? 0.0 : at(row, col);
            QVERIFY2(qAbs(sum - 1.0) < 1e-3, qPrintable(QString::number(sum)));
            QVERIFY(std::isnan(at(row, 3)));
            for (int col = 7; col < 14; ++col)
                QVERIFY(std::isnan(at(row, col)));
        }
    }

    void ablationChangesTheBias()
    {
        const Document doc = twoPageForm();
        const AttentionRunResult full = runAttentionOnDocument(kModel, doc, 0);
        const AttentionRunResult ablated = runAttentionOnDocument(kModel, doc, AttnBias2D);
        QVERIFY2(full.ok && ablated.ok, qPrintable(full.error + ablated.error));
        QCOMPARE(ablated.trace.disabledBiases, quint32(AttnBias2D));
        const std::vector<float> &on = full.trace.windows[0].biasTerms.at(QStringLiteral("bias.2d_x"));
        const std::vector<float> &off = ablated.trace.windows[0].biasTerms.at(QStringLiteral("bias.2d_x"));
        QVERIFY(std::any_of(on.begin(), on.end(), [](float v) { return v != 0.f; }));
        QVERIFY(std::all_of(off.begin(), off.end(), [](float v) { return v == 0.f; }));
    }

    void badInput()
    {
        QTemporaryDir dir;
        const AttentionRunResult none = runAttentionOnDocument(kModel, Document(), 0);
        QVERIFY(!none.ok);
        QVERIFY2(none.error.contains(QStringLiteral("no words")), qPrintable(none.error));
        const AttentionRunResult missing = runAttentionOnDocument(dir.filePath(QStringLiteral("nothing")), twoPageForm(), 0);
        QVERIFY(!missing.ok);
        QVERIFY2(missing.error.contains(QStringLiteral("nothing")), qPrintable(missing.error));
        const AttentionRunResult inputs = runAttentionOnInputs(kModel, kModel + QStringLiteral("/model.safetensors"), 0, 0);
        QVERIFY(!inputs.ok);
        QVERIFY2(inputs.error.contains(QStringLiteral("prepared inputs")), qPrintable(inputs.error));
        AttentionExport nothing;
        QString error;
        QVERIFY(!writeAttentionSafetensors(nothing, dir.filePath(QStringLiteral("x.safetensors")), &error));
        QVERIFY(error.contains(QStringLiteral("x.safetensors")));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestPipelineAttention)
#include "tst_pipelineattention.moc"
