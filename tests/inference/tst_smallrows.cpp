// The small-row Linear product (inference/layers/detail/smallrows.h, issue 35): agrees with at::linear
// to rounding for 1..8 rows, every tail of K and with or without bias, the batched form with at::bmm;
// the same on two threads as on one; LinearW takes it only without autograd; everything else is left
// to at::linear.
#include "inference/layers/detail/layers.h"
#include "inference/layers/detail/smallrows.h"
#include "tests/common/testdata.h"

#include <ATen/Parallel.h>
#include <QTest>

namespace det = folio::inference::detail;

namespace {

bool cpuHasAvx2Fma()
{
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
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
    void init()
    {
        if (!cpuHasAvx2Fma())
            FOLIO_SKIP_CASE("this CPU has no AVX2 + FMA: the small-row product is off and at::linear runs");
        at::manual_seed(35);
    }

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

QTEST_GUILESS_MAIN(TestSmallRows)
#include "tst_smallrows.moc"
