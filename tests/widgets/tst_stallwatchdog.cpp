// StallWatchdog (issue 34): a blocked GUI thread shows as a stall of about the time it was blocked,
// charged to the phase it began in; events carry process times; the report is written as JSON and
// a path that cannot be written says so.
#include "widgets/stallwatchdog.h"
#include "tests/common/testdata.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

using namespace folio;

class TestStallWatchdog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void measuresABlockedThread()
    {
        StallWatchdog dog;
        dog.setPhase(QStringLiteral("quiet"));
        dog.start();
        QTest::qWait(200);
        QVERIFY(dog.ticks() > 5);
        QVERIFY2(dog.longestStallMs() < 150, qPrintable(QString::number(dog.longestStallMs())));
        dog.setPhase(QStringLiteral("blocking"));
        QTimer::singleShot(0, this, [] { QThread::msleep(250); });
        QTest::qWait(200);
        dog.setPhase(QStringLiteral("after"));
        QTest::qWait(100);
        QVERIFY2(dog.longestStallMs() >= 230 && dog.longestStallMs() < 1000, qPrintable(QString::number(dog.longestStallMs())));
        QVERIFY2(dog.longestStallPhase().startsWith(QLatin1String("blocking")), qPrintable(dog.longestStallPhase()));
        QVERIFY(dog.longestStallMs(QStringLiteral("blocking")) >= 230);
        QVERIFY(dog.longestStallMs(QStringLiteral("after")) < 230);
        dog.stop();
    }

    void reportAndEvents()
    {
        StallWatchdog dog;
        const double before = StallWatchdog::processMs();
        QVERIFY(before > 0);
        dog.start();
        dog.mark(QStringLiteral("window usable"));
        QTest::qWait(50);
        QVERIFY(dog.eventMs(QStringLiteral("window")) >= before);
        QCOMPARE(dog.eventMs(QStringLiteral("nothing")), -1.0);
        const QJsonObject r = dog.report();
        QCOMPARE(r.value(QStringLiteral("intervalMs")).toInt(), 10);
        QVERIFY(r.value(QStringLiteral("ticks")).toInt() > 0);
        QVERIFY(r.value(QStringLiteral("events")).toArray().size() == 1);
        QTemporaryDir dir;
        QString error;
        QVERIFY(dog.writeReport(dir.filePath(QStringLiteral("r.json")), &error));
        QFile f(dir.filePath(QStringLiteral("r.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(QJsonDocument::fromJson(f.readAll()).object().contains(QStringLiteral("longestStallMs")));
        QVERIFY(!dog.writeReport(QStringLiteral("/nonexistent-dir/r.json"), &error));
        QVERIFY2(error.startsWith(QLatin1String("/nonexistent-dir/r.json: cannot write")), qPrintable(error));
    }
};

FOLIO_TEST_MAIN(TestStallWatchdog)
#include "tst_stallwatchdog.moc"
