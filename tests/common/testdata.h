#pragma once
// Where tests find their data, and how a test that cannot run its data is reported.
//
//  - Shared material (../shared: data sets, parity fixtures) is found through $FOLIO_SHARED_DIR
//    at run time; without it, the compile-time default (../shared beside the checkout).
//  - Parity fixtures: $FOLIO_PARITY_DIR (one folder, or several separated by ':') when set, else
//    <shared>/fixtures/parity, parity-next, parity-new and finetune (the Trainer steps, issue 46).
//  - FOLIO_REQUIRE_DATA(path) skips the current test function when `path` is missing, or fails it
//    when CI=true (CI must never pass a run that checked nothing).
//  - FOLIO_TEST_MAIN / FOLIO_TEST_GUILESS_MAIN replace QTEST_MAIN / QTEST_GUILESS_MAIN: the
//    executable exits with kSkipReturnCode (CTest's SKIP_RETURN_CODE, set by folio_add_test) when
//    no test function passed or failed and at least one was skipped, so CTest reports "Skipped"
//    instead of "Passed".

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QtTest>

namespace folio::test {

constexpr int kSkipReturnCode = 77;

// $FOLIO_SHARED_DIR, else the compile-time default. Never empty.
QString sharedDir();
// sharedDir() + "/" + relative.
QString sharedPath(const QString &relative);
// True when the CI variable is "true", "1" or "yes" (any case).
bool isCi();
// $FOLIO_PARITY_DIR split at ':', else <shared>/fixtures/parity, fixtures/parity-next, fixtures/parity-new.
QStringList parityRoots();

// Empty when `path` exists; otherwise a message naming the path and the variable that moves it.
QString missingDataMessage(const QString &path);
// Records a miss (printed again in the run's summary). FOLIO_DATA_MISSING does it.
void recordMissingData(const QString &message);
// How many misses this process has recorded.
int missingDataCount();

// Writes `bytes` to `name` inside `dir` and returns the file's path; a file that cannot be written
// stops the test binary (qFatal): every test after it would check nothing.
QString writeTestFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes);

// Runs `exec` (the QTest main body) with an extra XML logger and maps an all-skipped run to
// kSkipReturnCode. A failure count of exactly kSkipReturnCode is reported as kSkipReturnCode + 1.
int runTests(int argc, char **argv, int (*exec)(int, char **));

} // namespace folio::test

// Missing data: records it, then skips the current test function locally and fails it under CI.
// `message` is a QString.
#define FOLIO_DATA_MISSING(message)                                                                    \
    do {                                                                                               \
        const QString folioMissingMessage_ = (message);                                                \
        folio::test::recordMissingData(folioMissingMessage_);                                          \
        if (folio::test::isCi())                                                                       \
            QFAIL(qPrintable(folioMissingMessage_ + QStringLiteral(" (CI=true: missing data fails)"))); \
        QSKIP(qPrintable(folioMissingMessage_));                                                       \
    } while (false)

// A case that does not apply here (another backend's case, a model type not built yet, an
// environment without the right to mount): skipped everywhere, CI included. Missing data is
// FOLIO_DATA_MISSING, never this. The only place a test may skip: tst_no_raw_qskip fails on a
// QSKIP written anywhere else under tests/.
#define FOLIO_SKIP_CASE(reason) QSKIP(reason)

// FOLIO_DATA_MISSING when `path` (a QString) does not exist.
#define FOLIO_REQUIRE_DATA(path)                                                                       \
    do {                                                                                               \
        const QString folioMissingPath_ = folio::test::missingDataMessage(path);                        \
        if (!folioMissingPath_.isEmpty())                                                              \
            FOLIO_DATA_MISSING(folioMissingPath_);                                                     \
    } while (false)

#define FOLIO_TEST_MAIN_WRAPPER(TestObject, ...)                                                       \
    int main(int argc, char *argv[])                                                                   \
    {                                                                                                  \
        return folio::test::runTests(argc, argv, [](int argc, char **argv) -> int {                    \
            QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                         \
            __VA_ARGS__                                                                                \
            TestObject tc;                                                                             \
            QTEST_SET_MAIN_SOURCE_PATH                                                                 \
            return QTest::qExec(&tc, argc, argv);                                                      \
        });                                                                                            \
    }

// QApplication / QGuiApplication / QCoreApplication as QTEST_MAIN picks it.
#define FOLIO_TEST_MAIN(TestObject) FOLIO_TEST_MAIN_WRAPPER(TestObject, QTEST_MAIN_SETUP())
#define FOLIO_TEST_GUILESS_MAIN(TestObject) FOLIO_TEST_MAIN_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
