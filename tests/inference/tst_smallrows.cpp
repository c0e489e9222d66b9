// The small-row Linear product (inference/layers/detail/smallrows.h, issue 35): agrees with at::linear
// to rounding for 1..8 rows, every tail of K and with or without bias, the batched form with at::bmm;
// the same on two threads as on one; LinearW takes it only without autograd; everything else is left
// to at::linear.
// The CPU it needs: x86-64 with AVX2 and FMA (Intel Haswell, AMD Excavator / Zen or later). Elsewhere
// the kernel is off and at::linear runs, so every case is skipped (CTest: Skipped) — except under
// CI=true on x86-64, where the kernel is the one an x86-64 build runs: there a CPU that cannot test it
// fails the run. A CPU that has AVX2 + FMA while the library leaves the kernel off fails everywhere.
#include "inference/layers/detail/layers.h"
#include "inference/layers/detail/smallrows.h"
#include "tests/common/testdata.h"

#include <ATen/Parallel.h>
#include <QTest>

namespace det = folio::inference::detail;

namespace {

// Whether this build ships the AVX2 + FMA kernel at all (inference/layers/smallrows.cpp's condition).
constexpr bool kKernelBuilt =
#if defined(__x86_64__) && defined(__GNUC__)
    true;
#else
    false;
#endif

bool cpuHas(const char *feature)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    return qstrcmp(feature, "avx2") == 0 ? __builtin_cpu_supports("avx2") : __builtin_cpu_supports("fma");
#else
    Q_UNUSED(feature);
    return false;
#endif
}

// Whether the library takes the kernel on this machine: an applicable product comes back defined.
bool libraryRunsKernel()
{
    at::NoGradGuard noGrad;
    return det::smallRowsLinear(at::ones({2, 16}), at::ones({3, 16}), at::Tensor()).defined();
}

// |got - want| within float rounding of a K-term dot product: 1e-6 relative to sum |x_i w_i| + |b|.
void expectClose(const at::Tensor &got, const at::Tensor &x, const at::Tensor &w, const at::Tensor &b)
{
    const at::Tensor xd = x.to(at::kDouble), wd = w.to(at::kDouble);
    const at::Tensor want = at::linear(xd, wd, b.defined() ? b.to(at::kDouble) : at::Tensor());
    const at::Tensor scale = at::linear(xd.abs(), wd.abs(), b.defined() ? b.to(at::kDouble).abs() : at::Tensor());
    QCOMPARE(got.sizes().vec(), want.sizes().vec());
    const double worst = ((got.to(at::kDouble) - want).abs() / (scale + 1e-30)).max().item<double>();
    QVERIFY2(worst < 1e-6, qPrintable(QString("relative error %1").arg(worst)));
}

} // namespace

class TestSmallRows : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        const bool avx2 = cpuHas("avx2"), fma = cpuHas("fma");
        const bool runs = libraryRunsKernel();
        if (runs)
            return;
        // The CPU could run the kernel but the library does not take it: the kernel is untested and
        // every decoding step silently slower.
        QVERIFY2(!(kKernelBuilt && avx2 && fma),
                 "this CPU has AVX2 + FMA but smallRowsLinear() declined an applicable product");
        const QByteArray reason =
            QByteArray("needs an x86-64 CPU with AVX2 and FMA (Intel Haswell, AMD Excavator/Zen or later); ")
            + (kKernelBuilt ? QByteArray("this CPU has AVX2 ") + (avx2 ? "yes" : "no") + ", FMA " + (fma ? "yes" : "no")
                            : QByteArray("this build is not x86-64, so the kernel is not built"))
            + ": the small-row product is off and at::linear runs";
        if (kKernelBuilt && folio::test::isCi())
            QFAIL((reason + " (CI=true: x86-64 builds run this kernel, so CI must run on a CPU that tests it)").constData());
        FOLIO_SKIP_CASE(reason.constData());
    }

    void init() { at::manual_seed(35); }

    void agreesWithLinear_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("n");
        QTest::addColumn<bool>("withBias");
        for (int rows : {1, 2, 3, 4, 5, 8})
            for (int k : {1, 7, 8, 16, 23, 768})
                QTest::addRow("%d rows, K %d", rows, k) << rows << k << (k == 768 ? 300 : 5) << (rows % 2 == 1);
    }
    void agreesWithLinear()
    {
        QFETCH(int, rows);
        QFETCH(int, k);
        QFETCH(int, n);
        QFETCH(bool, withBias);
        at::NoGradGuard noGrad;
        const at::Tensor x = at::randn({rows, 1, k}), w = at::randn({n, k});
        const at::Tensor b = withBias ? at::randn({n}) : at::Tensor();
        const at::Tensor y = det::smallRowsLinear(x, w, b);
        QVERIFY(y.defined());
        expectClose(y, x, w, b);
    }

    // The batched form (a step's attention: queries against each head's keys) against at::bmm.
    void batchedAgreesWithBmm()
    {
        at::NoGradGuard noGrad;
        for (int rows : {1, 4, 8}) {
            const at::Tensor x = at::randn({12, rows, 64}), w = at::randn({12, 1000, 64});
            const at::Tensor y = det::smallRowsBatchedProduct(x, w);
            QVERIFY(y.defined());
            const at::Tensor want = at::bmm(x.to(at::kDouble), w.to(at::kDouble).transpose(1, 2));
            const at::Tensor scale = at::bmm(x.to(at::kDouble).abs(), w.to(at::kDouble).abs().transpose(1, 2));
            QVERIFY(((y.to(at::kDouble) - want).abs() / scale).max().item<double>() < 1e-6);
        }
        QVERIFY(!det::smallRowsBatchedProduct(at::randn({2, 9, 8}), at::randn({2, 5, 8})).defined());
        QVERIFY(!det::smallRowsBatchedProduct(at::randn({2, 3, 8}), at::randn({3, 5, 8})).defined());
    }

    void sameOnTwoThreads()
    {
        at::NoGradGuard noGrad;
        const at::Tensor x = at::randn({4, 768}), w = at::randn({3000, 768}), b = at::randn({3000});
        const int before = at::get_num_threads();
        at::set_num_threads(1);
        const at::Tensor one = det::smallRowsLinear(x, w, b);
        at::set_num_threads(2);
        const at::Tensor two = det::smallRowsLinear(x, w, b);
        at::set_num_threads(before);
        QVERIFY(one.equal(two));
    }

    void leavesTheRestToLinear()
    {
        at::NoGradGuard noGrad;
        const at::Tensor w = at::randn({6, 16}), b = at::randn({6});
        QVERIFY(!det::smallRowsLinear(at::randn({det::kSmallRowsMax + 1, 16}), w, b).defined());
        QVERIFY(!det::smallRowsLinear(at::randn({2, 16}, at::kDouble), w.to(at::kDouble), b.to(at::kDouble)).defined());
        QVERIFY(!det::smallRowsLinear(at::randn({2, 15}), w, b).defined()); // K mismatch: at::linear reports it
        QVERIFY(!det::smallRowsLinear(at::randn({2, 16}), w, at::randn({5})).defined());
        QVERIFY(!det::smallRowsLinear(at::randn({0, 16}), w, b).defined());
        {
            at::AutoGradMode grad(true);
            QVERIFY(!det::smallRowsLinear(at::randn({2, 16}), w, b).defined());
        }
    }

    void linearLayerUsesItOnlyWithoutAutograd()
    {
        det::LinearW lin;
        lin.weight = at::randn({40, 24});
        lin.bias = at::randn({40});
        const at::Tensor x = at::randn({3, 24});
        at::Tensor inference, training;
        {
            at::NoGradGuard noGrad;
            inference = lin(x);
            QVERIFY(inference.equal(det::smallRowsLinear(x, lin.weight, lin.bias)));
        }
        lin.weight.set_requires_grad(true);
        training = lin(x);
        QVERIFY(training.requires_grad()); // the autograd path: at::linear, gradients flow
        training.sum().backward();
        QVERIFY(lin.weight.grad().defined());
        QVERIFY(at::allclose(training.detach(), inference, 1e-5, 1e-5));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestSmallRows)
#include "tst_smallrows.moc"
