// Bucket tables of MODELS.md §0 / §3.2 / §5.4 written out literally.
#include "inference/layers/buckets.h"
#include "inference/errors.h"
#include "tests/common/testdata.h"

#include <QtTest>

using namespace folio::inference;

namespace {
struct Run
{
    int from, to, bucket; // |r| in [from, to] -> bucket (to = -1: and beyond)
};
// MODELS.md §0, 1-D, nb=32, M=128
const Run k1d[] = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {4, 4, 4}, {5, 5, 5}, {6, 6, 6}, {7, 7, 7},
                   {8, 11, 8}, {12, 15, 9}, {16, 22, 10}, {23, 31, 11}, {32, 45, 12}, {46, 63, 13}, {64, 90, 14},
                   {91, -1, 15}};
// MODELS.md §0, 2-D, nb=64, M=256
const Run k2d[] = {{16, 19, 16},  {20, 22, 17},  {23, 26, 18},  {27, 31, 19},  {32, 38, 20},  {39, 45, 21},
                   {46, 53, 22},  {54, 63, 23},  {64, 76, 24},  {77, 90, 25},  {91, 107, 26}, {108, 127, 27},
                   {128, 152, 28}, {153, 181, 29}, {182, 215, 30}, {216, -1, 31}};
} // namespace

class TestBuckets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void t5OneD()
    {
        for (const Run &run : k1d) {
            const int to = run.to < 0 ? 2999 : run.to;
            for (int n = run.from; n <= to; ++n) {
                QCOMPARE(t5Bucket(-n, 32, 128), run.bucket);
                if (n > 0)
                    QCOMPARE(t5Bucket(n, 32, 128), run.bucket + 16);
            }
        }
    }
    void t5TwoD()
    {
        for (int n = 0; n < 16; ++n)
            QCOMPARE(t5Bucket(-n, 64, 256), n);
        for (const Run &run : k2d) {
            const int to = run.to < 0 ? 2999 : run.to;
            for (int n = run.from; n <= to; ++n) {
                QCOMPARE(t5Bucket(-n, 64, 256), run.bucket);
                QCOMPARE(t5Bucket(n, 64, 256), run.bucket + 32);
            }
        }
        // Bucket `half` is never produced.
        for (int r = -3000; r <= 3000; ++r)
            QVERIFY(t5Bucket(r, 64, 256) != 32);
    }
    void t5Lut()
    {
        const auto lut = t5BucketLut(32, 128, 128);
        QCOMPARE(lut.size(), std::size_t(257));
        QCOMPARE(lut[128], std::int64_t(0));
        QCOMPARE(lut[128 + 91], std::int64_t(31));
        QCOMPARE(lut[0], std::int64_t(15));
    }
    void debertaLog()
    {
        // MODELS.md §3.2 (mid 128, P 512).
        const std::pair<int, int> cases[] = {{5, 5}, {128, 128}, {129, 129}, {130, 130}, {131, 131}, {132, 131},
                                             {133, 132}, {511, 255}, {512, 256}, {1000, 317}, {2048, 383}};
        for (const auto &c : cases) {
            QCOMPARE(debertaLogBucket(c.first, 256, 512), std::int64_t(c.second));
            QCOMPARE(debertaLogBucket(-c.first, 256, 512), std::int64_t(-c.second));
        }
    }
    void hibridsOrder()
    {
        const auto &t = hibridsHier2Index();
        QCOMPARE(int(t.size()), 419);
        const std::pair<int, int> first[] = {{0, 0}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}, {2, 0},
                                             {-2, 0}, {2, 2}, {-2, 2}, {2, -2}, {-2, -2}, {3, 1}};
        for (int i = 0; i < 12; ++i)
            QCOMPARE(t[i], first[i]);
        QCOMPARE(t.back(), std::make_pair(-19, -19));
        QCOMPARE(hibridsIndexOf(20, 0), -1);
        QCOMPARE(hibridsIndexOf(2, 1), -1); // parity mismatch: not a valid pair
    }
    void hibridsSections()
    {
        // <s>, A, A.1, A.1.a, B, </s>
        const std::vector<std::int64_t> parents = {-1, -1, 1, 2, -1, -1};
        const auto idx = hibridsSectionIndex(parents);
        auto at = [&](int a, int b) { return hibridsHier2Index()[idx[a * 6 + b]]; };
        QCOMPARE(at(1, 1), std::make_pair(0, 0));
        QCOMPARE(at(1, 2), std::make_pair(1, 1));   // parent -> child
        QCOMPARE(at(2, 1), std::make_pair(-1, -1)); // child -> parent
        QCOMPARE(at(1, 4), std::make_pair(2, 0));   // top-level siblings through the virtual root
        QCOMPARE(at(3, 4), std::make_pair(4, -2));
        QCOMPARE(at(4, 3), std::make_pair(-4, 2));
        // Too deep: a chain nested to depth 18 reaches |PathLen| 20 from <s>.
        std::vector<std::int64_t> chain = {-1, -1};
        for (int d = 1; d <= 18; ++d)
            chain.push_back(static_cast<std::int64_t>(chain.size()) - 1);
        QVERIFY_THROWS_EXCEPTION(InferenceError, hibridsSectionIndex(chain));
        chain.pop_back();
        hibridsSectionIndex(chain); // depth 17 works
    }
};

FOLIO_TEST_GUILESS_MAIN(TestBuckets)
#include "tst_buckets.moc"
