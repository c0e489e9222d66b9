// folio-cli rank-swde: SWDE's unseen-site protocol with text-node rankers (train on one book site,
// score the other), its files, and its refusals.
#include "tests/app/clirunner.h"
#include "tests/common/testdata.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using folio::test::runCli;

class TstCliRankSwde : public QObject
{
    Q_OBJECT

    const QString m_data = folio::test::sharedPath("data/swde-book-subset");

private Q_SLOTS:
    void unseenSite()
    {
        FOLIO_REQUIRE_DATA(m_data + "/resources/datasets/swde-17477/groundtruth");
        QTemporaryDir out;
        const auto r = runCli({"rank-swde", "--data", m_data, "--test-site", "christianbook", "--out", out.path(),
                               "--max-pages-per-site", "20"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(report["training_pages"].toInt(), 20);
        QCOMPARE(report["test_pages"].toInt(), 20);
        const QJsonObject score = report["test_page_level"].toObject();
        const QJsonObject fields = score["fields"].toObject();
        for (const char *f : {"author", "isbn_13", "publication_date", "publisher", "title"}) {
            QVERIFY2(fields.contains(QLatin1String(f)), f);
            QVERIFY(QFile::exists(out.filePath(QLatin1String(f) + QStringLiteral("-ranker.json"))));
        }
        // an ISBN-13 looks the same on every site: the ranker must carry it over
        QVERIFY2(fields["isbn_13"].toObject()["f1"].toDouble() >= 0.9, r.out.constData());
        QVERIFY(score["f1"].toDouble() > 0 && score["f1"].toDouble() <= 1);
        QVERIFY(QJsonDocument::fromJson([&] {
                    QFile f(out.filePath("rank-swde.json"));
                    f.open(QIODevice::ReadOnly);
                    return f.readAll();
                }())
                    .object()
                    .contains("predictions"));
        QCOMPARE(report["l2"].toDouble(), 1e-4); // the plain fit by default
        // --l2: the penalty is named in the report and changes the rankers written
        QTemporaryDir penalisedOut;
        const auto p = runCli({"rank-swde", "--data", m_data, "--test-site", "christianbook", "--out", penalisedOut.path(),
                               "--max-pages-per-site", "20", "--l2", "1"});
        QVERIFY2(p.code == 0, p.err.constData());
        QCOMPARE(QJsonDocument::fromJson(p.out).object()["l2"].toDouble(), 1.0);
        const auto weights = [](const QString &path) {
            QFile f(path);
            f.open(QIODevice::ReadOnly);
            return QJsonDocument::fromJson(f.readAll()).object()["weights"].toArray();
        };
        const QJsonArray plainTitle = weights(out.filePath("title-ranker.json")), penalisedTitle = weights(penalisedOut.filePath("title-ranker.json"));
        QCOMPARE(plainTitle.size(), penalisedTitle.size());
        double plainNorm = 0, penalisedNorm = 0;
        for (int i = 0; i < plainTitle.size(); ++i) {
            plainNorm += plainTitle[i].toDouble() * plainTitle[i].toDouble();
            penalisedNorm += penalisedTitle[i].toDouble() * penalisedTitle[i].toDouble();
        }
        QVERIFY2(penalisedNorm < plainNorm, qPrintable(QStringLiteral("%1 vs %2").arg(penalisedNorm).arg(plainNorm)));
        // --site-texts: named in the report; the new feature gets a weight (it is 0 everywhere without it)
        QTemporaryDir siteOut;
        const auto st = runCli({"rank-swde", "--data", m_data, "--test-site", "christianbook", "--out", siteOut.path(),
                                "--max-pages-per-site", "20", "--site-texts"});
        QVERIFY2(st.code == 0, st.err.constData());
        QCOMPARE(QJsonDocument::fromJson(st.out).object()["site_texts"].toBool(), true);
        QCOMPARE(report["site_texts"].toBool(), false);
        QVERIFY(weights(siteOut.filePath("title-ranker.json")).last().toDouble() != 0);
        QCOMPARE(plainTitle.last().toDouble(), 0.0);
    }

    // The seen-site split: each site's own last pages are test; two training pages a site.
    void seenSitesFromTwoPagesEach()
    {
        FOLIO_REQUIRE_DATA(m_data + "/resources/datasets/swde-17477/groundtruth");
        const auto r = runCli({"rank-swde", "--data", m_data, "--train-pages-per-site", "2"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(r.out).object();
        QVERIFY(report["split"].toString().startsWith(QStringLiteral("seen sites")));
        QCOMPARE(report["training_pages"].toInt(), 4);
        QCOMPARE(report["test_pages"].toInt(), 30); // pages 0035-0049 of both sites
        const QJsonObject fields = report["test_page_level"].toObject()["fields"].toObject();
        QVERIFY2(fields["isbn_13"].toObject()["f1"].toDouble() >= 0.9, r.out.constData());
        QVERIFY2(fields["title"].toObject()["f1"].toDouble() >= 0.5, r.out.constData()); // a site's own title place is learnt
        // a random draw of the two pages: named in the report, the same draw for the same seed
        const auto drawn = runCli({"rank-swde", "--data", m_data, "--train-pages-per-site", "2", "--draw-seed", "3"});
        const auto again = runCli({"rank-swde", "--data", m_data, "--train-pages-per-site", "2", "--draw-seed", "3"});
        QVERIFY2(drawn.code == 0 && again.code == 0, drawn.err.constData());
        const QJsonObject a = QJsonDocument::fromJson(drawn.out).object(), b = QJsonDocument::fromJson(again.out).object();
        QCOMPARE(a["draw_seed"].toInt(), 3);
        QCOMPARE(a["training_pages"].toInt(), 4);
        QCOMPARE(a["test_page_level"].toObject(), b["test_page_level"].toObject());
    }

    void refusals()
    {
        const auto both = runCli({"rank-swde", "--data", m_data, "--test-site", "christianbook", "--train-pages-per-site", "2"});
        QVERIFY(both.code != 0);
        QVERIFY2(both.err.contains("seen-site"), both.err.constData());
        const auto seeded = runCli({"rank-swde", "--data", m_data, "--test-site", "christianbook", "--draw-seed", "2"});
        QVERIFY(seeded.code != 0);
        const auto negative = runCli({"rank-swde", "--data", m_data, "--test-site", "christianbook", "--l2", "-1"});
        QVERIFY(negative.code != 0);
        QVERIFY2(negative.err.contains("--l2"), negative.err.constData());
        auto r = runCli({"rank-swde", "--data", m_data, "--test-site", "nosuchsite"});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("nosuchsite"), r.err.constData());
        QTemporaryDir empty;
        r = runCli({"rank-swde", "--data", empty.path(), "--test-site", "christianbook"});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("no SWDE folder"), r.err.constData());
    }
};

FOLIO_TEST_GUILESS_MAIN(TstCliRankSwde)
#include "tst_clirankswde.moc"
