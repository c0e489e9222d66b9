// Replays a fuzz target's corpus (tests/data/fuzz/<target>/: seeds, minimised finds, crashers)
// through the same LLVMFuzzerTestOneInput in the normal build, one row per file. A row fails when
// the input throws out of the target; a crash or a broken invariant (abort) fails the whole test.
// FOLIO_FUZZ_TARGET names the target; FOLIO_FUZZ_CORPUS=<folder> replays another folder.
#include "fuzzsupport.h"

#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QtTest>

#include <exception>

class TestFuzzReplay : public QObject
{
    Q_OBJECT

private:
    static QString corpusDir()
    {
        const QString given = qEnvironmentVariable("FOLIO_FUZZ_CORPUS");
        if (!given.isEmpty())
            return given;
        return QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/fuzz/" FOLIO_FUZZ_TARGET);
    }

private Q_SLOTS:
    void corpusIsThere()
    {
        const QDir dir(corpusDir());
        QVERIFY2(dir.exists(), qPrintable(dir.path() + QStringLiteral(": corpus folder missing")));
        const QStringList files = dir.entryList(QDir::Files);
        QVERIFY2(!files.isEmpty(), qPrintable(dir.path() + QStringLiteral(": corpus folder is empty")));
    }

    void replay_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(corpusDir());
        for (const QString &name : dir.entryList(QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(name)) << dir.filePath(name);
    }

    void replay()
    {
        QFETCH(QString, path);
        QFile file(path);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path + QStringLiteral(": cannot read")));
        const QByteArray bytes = file.readAll();
        int rc = 0;
        try {
            rc = LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                                        static_cast<std::size_t>(bytes.size()));
        } catch (const std::exception &e) {
            QFAIL(qPrintable(path + QStringLiteral(": exception left the parser: ") + QString::fromUtf8(e.what())));
        } catch (...) {
            QFAIL(qPrintable(path + QStringLiteral(": unknown exception left the parser")));
        }
        QCOMPARE(rc, 0);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestFuzzReplay)
#include "fuzzreplay.moc"
