// Bias modules in isolation (internal API, links torch): the fused kernels agree with the
// differentiable gathers, gradients reach the bias tables, ERNIE-Layout's paper form matches a
// literal loop, and the HIBRIDS banded form matches the full gather.
#include "inference/layers/buckets.h"
#include "inference/layers/detail/relbias.h"
#include "inference/layers/hibrids.h"
#include "tests/common/testdata.h"

#include <QtTest>

#include <algorithm>

using namespace folio::inference;
using namespace folio::inference::detail;

class TestModules : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { at::manual_seed(7); }

    void relativeFusedMatchesDense()
    {
        const int h = 3;
        RelativeBucketBias r1(at::randn({h, 32}), 32, 128);
        RelativeBucketBias rx(at::randn({h, 64}), 64, 256);
        RelativeBucketBias ry(at::randn({h, 64}), 64, 256);
        const at::Tensor pos = at::randint(0, 300, {2, 37}, at::kLong);
        const at::Tensor xs = at::randint(0, 1001, {2, 37}, at::kLong);
        const at::Tensor ys = at::randint(0, 1001, {2, 37}, at::kLong);
        const at::Tensor mask = at::zeros({2, 37});
        const at::Tensor fused = fusedRelativeBias({{r1.distanceTable(), pos, r1.range()},
                                                    {rx.distanceTable(), xs, rx.range()},
                                                    {ry.distanceTable(), ys, ry.range()}},
                                                   8.0, mask);
        const at::Tensor dense = (r1.dense(pos) + (rx.dense(xs) + ry.dense(ys))) / 8.0;
        QVERIFY(at::allclose(fused, dense, 1e-6, 1e-6));
        // Literal check of one entry against the bucket function.
        const auto p = pos.accessor<std::int64_t, 2>();
        const int b = 1, hh = 2, i = 5, j = 30;
        const float want = r1.weight()[hh][t5Bucket(p[b][j] - p[b][i], 32, 128)].item<float>();
        QCOMPARE(r1.dense(pos)[b][hh][i][j].item<float>(), want);
    }

    void relativeBiasIsDifferentiable()
    {
        at::Tensor w = at::randn({2, 32}).set_requires_grad(true);
        RelativeBucketBias r(w, 32, 128);
        const at::Tensor pos = at::arange(10, at::kLong).unsqueeze(0);
        r.dense(pos).sum().backward();
        QVERIFY(w.grad().defined());
        QVERIFY(w.grad().abs().sum().item<float>() > 0);
        // 10 positions -> distances -9..9: buckets 0..8 (|r| 8 and 9 share bucket 8) and 17..24: 17 rows
        // of the table get gradient, none of the far ones.
        QCOMPARE(w.grad()[0].ne(0).sum().item<std::int64_t>(), std::int64_t(17));
    }

    void disentangledFusedMatchesGather()
    {
        const std::int64_t k = 8, l = 21;
        std::vector<std::int64_t> lut(2 * (l - 1) + 1);
        for (std::int64_t r = -(l - 1); r <= l - 1; ++r)
            lut[r + l - 1] = std::clamp<std::int64_t>(debertaLogBucket(r, 2 * k, 64) + k, 0, 2 * k - 1);
        const at::Tensor c2p = at::randn({2, 3, l, 2 * k}), p2c = at::randn({2, 3, l, 2 * k});
        const at::Tensor pos = at::arange(l, at::kLong).unsqueeze(0).expand({2, l}).contiguous();
        for (bool transposed : {false, true}) {
            at::NoGradGuard g;
            const at::Tensor a = fusedDisentangled(c2p, p2c, pos, lut, l - 1, 2.5f, transposed);
            const at::Tensor b = gatherDisentangled(c2p, p2c, pos, lut, l - 1, 2.5f, transposed);
            QVERIFY(at::allclose(a, b, 1e-6, 1e-6));
        }
        // Literal: out[0,1,i,j] = c2p[0,1,i,idx(i-j)]/s + p2c[0,1,j,idx(i-j)]/s (shared index).
        const at::Tensor a = fusedDisentangled(c2p, p2c, pos, lut, l - 1, 2.5f, false);
        const int i = 3, j = 17;
        const auto idx = lut[i - j + l - 1];
        const float want = c2p[0][1][i][idx].item<float>() / 2.5f + p2c[0][1][j][idx].item<float>() / 2.5f;
        QVERIFY(std::fabs(a[0][1][i][j].item<float>() - want) < 1e-6);
    }

    void erniePaperForm()
    {
        const std::int64_t b = 1, h = 2, l = 6, d = 4, k = 3;
        const at::Tensor q = at::randn({b, h, l, d}), kk = at::randn({b, h, l, d});
        std::vector<at::Tensor> relQ, relK, pos;
        for (int t = 0; t < 3; ++t) {
            relQ.push_back(at::randn({h, 2 * k, d}));
            relK.push_back(at::randn({h, 2 * k, d}));
            pos.push_back(at::randint(0, 10, {b, l}, at::kLong));
        }
        at::Tensor s;
        {
            at::NoGradGuard g;
            s = ernieLayoutPaperScores(q, kk, relQ, relK, pos, k);
        }
        auto delta = [&](std::int64_t a, std::int64_t c) { return std::clamp<std::int64_t>(a - c + k, 0, 2 * k - 1); };
        for (int hh = 0; hh < h; ++hh)
            for (int i = 0; i < l; ++i)
                for (int j = 0; j < l; ++j) {
                    float acc = at::dot(q[0][hh][i], kk[0][hh][j]).item<float>();
                    for (int t = 0; t < 3; ++t) {
                        const auto pi = pos[t][0][i].item<std::int64_t>(), pj = pos[t][0][j].item<std::int64_t>();
                        acc += at::dot(q[0][hh][i], relK[t][hh][delta(pi, pj)]).item<float>();
                        acc += at::dot(kk[0][hh][j], relQ[t][hh][delta(pj, pi)]).item<float>();
                    }
                    acc /= std::sqrt(3.0f * d);
                    QVERIFY(std::fabs(s[0][hh][i][j].item<float>() - acc) < 1e-4);
                }
    }

    void hibridsBandedMatchesFull()
    {
        HibridsLayout lay;
        lay.sectionParent = {-1, -1, 1, 1, 2, -1, -1};
        for (std::int64_t s = 0; s < 7; ++s)
            for (int n = 0; n < 1 + s; ++n)
                lay.tokenToSection.push_back(s);
        hibridsPrepare(&lay);
        const auto l = static_cast<std::int64_t>(lay.tokenToSection.size());
        Tensor w = Tensor::zeros(DType::F32, {600, 2});
        for (std::int64_t i = 0; i < 1200; ++i)
            w.data<float>()[i] = static_cast<float>(i % 97) * 0.25f;
        std::string err;
        const Tensor full = hibridsEncoderBias(w, lay, {}, &err);
        QVERIFY2(err.empty(), err.c_str());
        const std::int64_t win = 4;
        const Tensor band = hibridsBandedBias(w, lay, win, &err);
        QVERIFY2(err.empty(), err.c_str());
        QCOMPARE(band.shape, (std::vector<std::int64_t>{l, 2, 2 * win + 1}));
        for (std::int64_t i = 0; i < l; ++i)
            for (std::int64_t hh = 0; hh < 2; ++hh)
                for (std::int64_t kx = 0; kx <= 2 * win; ++kx) {
                    const std::int64_t j = i + kx - win;
                    const float want = (j < 0 || j >= l) ? 0.f : full.data<float>()[(hh * l + i) * l + j];
                    QCOMPARE(band.data<float>()[(i * 2 + hh) * (2 * win + 1) + kx], want);
                }
        // Global token 0: no bias on its row or column.
        const Tensor g = hibridsEncoderBias(w, lay, {0}, &err);
        for (std::int64_t j = 0; j < l; ++j) {
            QCOMPARE(g.data<float>()[j], 0.f);
            QCOMPARE(g.data<float>()[j * l], 0.f);
        }
    }
};

FOLIO_TEST_GUILESS_MAIN(TestModules)
#include "tst_modules.moc"
