// The forward's malloc thresholds (inference/mallocenv.h, issue 32): which environments turn them off,
// and that with them a freed 12.6 MB buffer (a base-size [12, 512, 512] score matrix) is reused
// without faulting its pages in again.
#include "inference/mallocenv.h"
#include "tests/common/testdata.h"

#include <QTest>

#include <cstdlib>
#include <cstring>
#include <sys/resource.h>

using namespace folio::inference;

namespace {

long minorFaults()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

// Through volatile pointers, so that the compiler keeps every malloc / free pair.
void *(*volatile s_alloc)(std::size_t) = std::malloc;
void (*volatile s_free)(void *) = std::free;

// Faults of `rounds` rounds of two 12.6 MB buffers written through, then freed.
long faultsOfScoreBuffers(int rounds)
{
    const std::size_t n = std::size_t(12) * 512 * 512 * sizeof(float);
    const long before = minorFaults();
    for (int i = 0; i < rounds; ++i) {
        auto *a = static_cast<char *>(s_alloc(n));
        auto *b = static_cast<char *>(s_alloc(n + 4096));
        if (!a || !b)
            return -1;
        std::memset(a, i, n);
        std::memset(b, i, n);
        s_free(a);
        s_free(b);
    }
    return minorFaults() - before;
}

} // namespace

class TestMallocEnv : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void environmentTurnsItOff_data()
    {
        QTest::addColumn<QByteArray>("variable");
        QTest::addColumn<bool>("applied");
        QTest::newRow("nothing set") << QByteArray("PATH=/usr/bin") << true;
        QTest::newRow("FOLIO_MALLOC_DEFAULTS=1") << QByteArray("FOLIO_MALLOC_DEFAULTS=1") << false;
        QTest::newRow("FOLIO_MALLOC_DEFAULTS empty") << QByteArray("FOLIO_MALLOC_DEFAULTS=") << true;
        QTest::newRow("a longer name") << QByteArray("FOLIO_MALLOC_DEFAULTS_X=1") << true;
        QTest::newRow("user's mmap threshold") << QByteArray("MALLOC_MMAP_THRESHOLD_=131072") << false;
        QTest::newRow("user's trim threshold") << QByteArray("MALLOC_TRIM_THRESHOLD_=131072") << false;
        QTest::newRow("user's tunables") << QByteArray("GLIBC_TUNABLES=glibc.malloc.arena_max=1") << false;
    }
    void environmentTurnsItOff()
    {
#if !defined(__GLIBC__)
        FOLIO_SKIP_CASE("not glibc: configureInferenceMalloc does nothing");
#endif
        QFETCH(QByteArray, variable);
        QFETCH(bool, applied);
        char *envp[] = {variable.data(), nullptr};
        QCOMPARE(configureInferenceMalloc(envp), applied);
    }

    void freedBuffersAreReused()
    {
#if !defined(__GLIBC__)
        FOLIO_SKIP_CASE("not glibc: configureInferenceMalloc does nothing");
#endif
        char *empty[] = {nullptr};
        QVERIFY(configureInferenceMalloc(empty));
        faultsOfScoreBuffers(1); // the first round maps the pages
        const long faults = faultsOfScoreBuffers(10);
        const long pagesPerRound = 2 * 12 * 512 * 512 * 4 / 4096;
        qInfo("10 rounds of two 12.6 MB buffers: %ld minor faults (one round's pages: %ld)", faults, pagesPerRound);
        QVERIFY(faults >= 0);
        // glibc's defaults fault every page of every round (about 10 x 6144); kept, next to none.
        QVERIFY2(faults < pagesPerRound, qPrintable(QString::number(faults)));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestMallocEnv)
#include "tst_mallocenv.moc"
