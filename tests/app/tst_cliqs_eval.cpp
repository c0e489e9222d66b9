// folio-cli qs eval on the first 2 QMSum test meetings with the shipped model: every metric of the
// model, of the shipped drafter and of both baselines is printed and lies in [0, 100]; the lead
// baseline has ROUGE overlap, and the drafter more of it than the lead.
#include "tests/common/testdata.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

static const QString kData = folio::test::sharedPath(QStringLiteral("data/qmsum"));

class TestCliQsEval : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void evalTwoMeetings()
    {
        FOLIO_REQUIRE_DATA(kData + QStringLiteral("/data/ALL/test"));
        QProcess p;
        p.start(QStringLiteral(FOLIO_CLI_PATH),
                {QStringLiteral("-q"), QStringLiteral("qs"), QStringLiteral("eval"), QStringLiteral("--checkpoint"),
                 QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/qmsum-qs"), QStringLiteral("--data"), kData,
                 QStringLiteral("--split"), QStringLiteral("test"), QStringLiteral("--limit"), QStringLiteral("2"),
                 QStringLiteral("--beams"), QStringLiteral("1"), QStringLiteral("--max-length"), QStringLiteral("128")});
        QVERIFY(p.waitForFinished(600000));
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QJsonObject o = QJsonDocument::fromJson(out).object();
        QCOMPARE(o.value("meetings").toInt(), 2);
        for (const char *system : {"model", "drafter", "lead", "oracle_shape"}) {
            const QJsonObject s = o.value(system).toObject();
            for (const char *metric : {"rouge1", "rouge2", "rougeLsum", "question_bleu4", "hierarchy_p", "hierarchy_r", "hierarchy_f1"}) {
                QVERIFY2(s.value(metric).isDouble(), qPrintable(QStringLiteral("%1.%2").arg(system, metric)));
                const double v = s.value(metric).toDouble();
                QVERIFY2(v >= 0 && v <= 100, qPrintable(QStringLiteral("%1.%2 = %3").arg(system, metric).arg(v)));
            }
        }
        QVERIFY(o.value("lead").toObject().value("rouge1").toDouble() > 5);
        QVERIFY(o.value("model").toObject().value("rouge1").toDouble() > 0);
        QVERIFY(o.value("model").toObject().value("parser_repairs").isDouble());
        QVERIFY(o.value("drafter").toObject().value("rouge1").toDouble() > o.value("lead").toObject().value("rouge1").toDouble());
        qInfo().noquote() << out;
    }

    // --int8 (issue 35): the model's scores come with "int8": true and its generation time (wall and
    // CPU); without a seq2seq checkpoint the option is refused by name (eval and generate).
    void int8Option()
    {
        FOLIO_REQUIRE_DATA(kData + QStringLiteral("/data/ALL/test"));
        QProcess p;
        p.start(QStringLiteral(FOLIO_CLI_PATH),
                {QStringLiteral("-q"), QStringLiteral("qs"), QStringLiteral("eval"), QStringLiteral("--checkpoint"),
                 QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/qmsum-qs"), QStringLiteral("--data"), kData,
                 QStringLiteral("--split"), QStringLiteral("test"), QStringLiteral("--limit"), QStringLiteral("1"),
                 QStringLiteral("--beams"), QStringLiteral("1"), QStringLiteral("--max-length"), QStringLiteral("64"),
                 QStringLiteral("--no-drafter"), QStringLiteral("--int8"), QStringLiteral("--threads"), QStringLiteral("1")});
        QVERIFY(p.waitForFinished(600000));
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QJsonObject model = QJsonDocument::fromJson(out).object().value("model").toObject();
        QVERIFY(model.value("int8").toBool());
        QVERIFY(model.value("seconds").toDouble() > 0);
        QVERIFY(model.value("cpu_seconds").toDouble() > 0);
        QVERIFY(model.value("rouge1").toDouble() > 0);
        const QList<QStringList> refused = {
            {QStringLiteral("qs"), QStringLiteral("eval"), QStringLiteral("--data"), kData, QStringLiteral("--int8")},
            {QStringLiteral("qs"), QStringLiteral("generate"), QStringLiteral("--int8"), QStringLiteral("no-such-file.pdf")}};
        for (const QStringList &args : refused) {
            QProcess r;
            r.start(QStringLiteral(FOLIO_CLI_PATH), args);
            QVERIFY(r.waitForFinished(120000));
            const QByteArray err = r.readAllStandardError();
            QVERIFY2(r.exitCode() != 0, qPrintable(args.join(' ')));
            QVERIFY2(err.contains("--int8 needs a seq2seq --checkpoint"), err.constData());
        }
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliQsEval)
#include "tst_cliqs_eval.moc"
