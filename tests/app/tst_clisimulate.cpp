// folio-cli simulate-labelling (issue 47): a tiny run on four FUNSD training pages (two held out),
// retraining every 2 pages with a few optimizer steps, whose edit counts are checked against fixes
// counted by hand from the FUNSD files (a page without suggestions needs one label per field and
// one link per FUNSD link); the shipped model's suggestions in uncertainty order; the plot; and the
// bad inputs: a project too small to hold pages out (and one large enough, held out automatically),
// a start model that has never seen the data's labels, a missing data folder, a broken XFUND file.
#include "document/formats/funsd.h"
#include "document/project/project.h"
#include "tests/app/clirunner.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QSet>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using folio::test::runCli;

namespace {

QString funsdRoot() { return folio::test::sharedPath(QStringLiteral("data/funsd/dataset")); }

// The fixes of a FUNSD page labelled from nothing, counted from its JSON: one per QUESTION /
// ANSWER / HEADER entity with a non-blank word, one per distinct link between two such entities.
int handCountedFixes(const QString &jsonPath)
{
    QFile f(jsonPath);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QJsonArray form = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("form")).toArray();
    QSet<int> kept;
    for (const QJsonValue &v : form) {
        const QJsonObject e = v.toObject();
        const QString label = e.value(QStringLiteral("label")).toString();
        if (label != QLatin1String("question") && label != QLatin1String("answer") && label != QLatin1String("header"))
            continue;
        for (const QJsonValue &w : e.value(QStringLiteral("words")).toArray())
            if (!w.toObject().value(QStringLiteral("text")).toString().trimmed().isEmpty()) {
                kept.insert(e.value(QStringLiteral("id")).toInt());
                break;
            }
    }
    QSet<QPair<int, int>> links;
    for (const QJsonValue &v : form)
        for (const QJsonValue &l : v.toObject().value(QStringLiteral("linking")).toArray()) {
            const int a = l.toArray().at(0).toInt(), b = l.toArray().at(1).toInt();
            if (a != b && kept.contains(a) && kept.contains(b))
                links.insert({a, b});
        }
    return int(kept.size() + links.size());
}

// A FUNSD-shaped folder with the first `train` training pages and `test` testing pages (the
// annotation files copied, the images linked).
bool makeSubset(const QString &dir, int train, int test, QStringList *trainFiles)
{
    for (const auto &[split, folder, count] : {std::tuple{QStringLiteral("train"), QStringLiteral("training_data"), train},
                                               std::tuple{QStringLiteral("test"), QStringLiteral("testing_data"), test}}) {
        const QStringList files = folio::funsdSplitFiles(funsdRoot(), split);
        if (files.size() < count)
            return false;
        QDir(dir).mkpath(folder + QStringLiteral("/annotations"));
        QDir(dir).mkpath(folder + QStringLiteral("/images"));
        for (int i = 0; i < count; ++i) {
            const QFileInfo json(files[i]);
            const QString to = QStringLiteral("%1/%2/annotations/%3").arg(dir, folder, json.fileName());
            const QString png = json.dir().filePath(QStringLiteral("../images/%1.png").arg(json.completeBaseName()));
            if (!QFile::copy(files[i], to)
                || !QFile::link(QFileInfo(png).absoluteFilePath(),
                                QStringLiteral("%1/%2/images/%3.png").arg(dir, folder, json.completeBaseName())))
                return false;
            if (split == QLatin1String("train"))
                *trainFiles << to;
        }
    }
    return true;
}

std::vector<QJsonObject> jsonLines(const QByteArray &out)
{
    std::vector<QJsonObject> lines;
    for (const QByteArray &line : out.split('\n'))
        if (!line.trimmed().isEmpty())
            lines.push_back(QJsonDocument::fromJson(line).object());
    return lines;
}

int kindSum(const QJsonObject &page)
{
    int sum = 0;
    const QJsonObject kinds = page.value(QStringLiteral("edit_kinds")).toObject();
    for (auto it = kinds.begin(); it != kinds.end(); ++it)
        sum += it.value().toInt();
    return sum;
}

QString shippedModel(const QString &name)
{
    return QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/") + name;
}

// A project with the first `n` FUNSD training pages, labelled (their gold labels accepted).
bool makeProject(const QString &path, int n)
{
    QString error;
    auto project = folio::Project::create(path, &error);
    if (!project)
        return false;
    const QStringList files = folio::funsdSplitFiles(funsdRoot(), QStringLiteral("train"));
    for (int i = 0; i < n; ++i) {
        folio::Document doc;
        folio::Annotations ann;
        if (!folio::importFunsdFile(files[i], folio::FunsdWordOrder::Annotation, &doc, &ann, &error)
            || project->addDocument(doc, ann, &error) < 0)
            return false;
    }
    return true;
}

} // namespace

class TestCliSimulate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tinyRunCountsHandCountedFixes()
    {
        FOLIO_REQUIRE_DATA(funsdRoot());
        QTemporaryDir dir;
        QStringList trainFiles;
        QVERIFY(makeSubset(dir.path(), 4, 2, &trainFiles));
        const QString jsonl = dir.filePath(QStringLiteral("run.jsonl")), svg = dir.filePath(QStringLiteral("run.svg"));
        const auto run = runCli({"simulate-labelling", "--data", dir.path(), "--start", "none", "--order", "document",
                                 "--retrain-every", "2", "--pages", "4", "--epochs", "1", "--max-steps", "2", "--hidden", "32",
                                 "--layers", "1", "--threads", "1", "--seed", "3", "--out", jsonl, "--plot", svg},
                                600000);
        QVERIFY2(run.code == 0, run.err.constData());
        const std::vector<QJsonObject> lines = jsonLines(run.out);
        QCOMPARE(int(lines.size()), 5);
        for (int i = 0; i < 4; ++i) {
            const QJsonObject &p = lines[size_t(i)];
            QCOMPARE(p.value("page").toInt(), i + 1);
            QCOMPARE(p.value("page_id").toString(), QFileInfo(trainFiles[i]).completeBaseName());
            const int hand = handCountedFixes(trainFiles[i]);
            QVERIFY(hand > 0);
            QCOMPARE(p.value("edits_without_model").toInt(), hand);
            QCOMPARE(p.value("edits").toInt(), kindSum(p));
            QVERIFY(p.value("entity_edits_without_model").toInt() > 0);
            QVERIFY(p.value("entity_edits_without_model").toInt() <= p.value("edits_without_model").toInt());
            QVERIFY(p.value("words").toInt() > 0);
            QCOMPARE(p.value("edits_per_word").toDouble(), p.value("edits").toDouble() / p.value("words").toDouble());
            if (i < 2) { // no model yet: nothing suggested, every field labelled and every link drawn
                QCOMPARE(p.value("suggestions").toInt(), 0);
                QCOMPARE(p.value("edits").toInt(), hand);
                QCOMPARE(p.value("entity_edits").toInt(), p.value("entity_edits_without_model").toInt());
                QVERIFY(!p.contains("uncertainty"));
            } else {
                QVERIFY(p.contains("uncertainty")); // the retrained model suggested (maybe nothing)
            }
            const bool retrains = i == 1 || i == 3;
            QCOMPARE(p.value("retrained").toBool(), retrains);
            if (retrains) {
                QVERIFY2(p.value("model_updated").toBool(), run.err.constData());
                QVERIFY(p.value("train_seconds").toDouble() > 0);
                const double f1 = p.value("test_f1").toDouble(-1);
                QVERIFY(f1 >= 0 && f1 <= 1);
            }
        }
        const QJsonObject &summary = lines[4];
        QVERIFY(summary.value("summary").toBool());
        QCOMPARE(summary.value("pages").toInt(), 4);
        QCOMPARE(summary.value("held_out_pages").toInt(), 2);
        QCOMPARE(summary.value("retrainings").toInt(), 2);
        int edits = 0;
        for (int i = 0; i < 4; ++i)
            edits += lines[size_t(i)].value("edits").toInt();
        QCOMPARE(summary.value("edits").toInt(), edits);
        QFile out(jsonl);
        QVERIFY(out.open(QIODevice::ReadOnly));
        QCOMPARE(out.readAll(), run.out);
        QFile plot(svg);
        QVERIFY(plot.open(QIODevice::ReadOnly));
        const QByteArray s = plot.readAll();
        QVERIFY(s.startsWith("<svg"));
        QCOMPARE(s.count("<polyline"), 2); // document order, and the no-model baseline
    }

    void shippedModelSuggestsMostUncertainFirst()
    {
        FOLIO_REQUIRE_DATA(funsdRoot());
        FOLIO_REQUIRE_DATA(shippedModel(QStringLiteral("forms-en-de")) + QStringLiteral("/config.json"));
        QTemporaryDir dir;
        QStringList trainFiles;
        QVERIFY(makeSubset(dir.path(), 4, 2, &trainFiles));
        const QString png = dir.filePath(QStringLiteral("run.png"));
        const auto run = runCli({"simulate-labelling", "--data", dir.path(), "--start", shippedModel(QStringLiteral("forms-en-de")),
                                 "--order", "uncertain", "--retrain-every", "0", "--pages", "4", "--plot", png});
        QVERIFY2(run.code == 0, run.err.constData());
        const std::vector<QJsonObject> lines = jsonLines(run.out);
        QCOMPARE(int(lines.size()), 5);
        int edits = 0, without = 0;
        for (int i = 0; i < 4; ++i) {
            const QJsonObject &p = lines[size_t(i)];
            QVERIFY(p.value("suggestions").toInt() > 0);
            if (i > 0) // the model does not change: its scores are read most uncertain first
                QVERIFY(p.value("uncertainty").toDouble() <= lines[size_t(i - 1)].value("uncertainty").toDouble());
            QVERIFY(!p.value("retrained").toBool());
            edits += p.value("edits").toInt();
            without += p.value("edits_without_model").toInt();
        }
        QVERIFY2(edits < without, qPrintable(QStringLiteral("%1 edits with suggestions, %2 without").arg(edits).arg(without)));
        QVERIFY(lines[4].value("start_test_f1").toDouble() > 0.3);
        const QImage image(png);
        QCOMPARE(image.size(), QSize(720, 420));
    }

    void projectHoldsOutPagesWhenItHasEnough()
    {
        FOLIO_REQUIRE_DATA(funsdRoot());
        QTemporaryDir dir;
        const QString small = dir.filePath(QStringLiteral("small.folio")), large = dir.filePath(QStringLiteral("large.folio"));
        QVERIFY(makeProject(small, 3));
        QVERIFY(makeProject(large, 5));
        auto run = runCli({"simulate-labelling", "--data", small, "--retrain-every", "0"});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains("3 labelled document(s)") && run.err.contains("at least 4") && run.err.contains("small.folio"),
                 run.err.constData());
        run = runCli({"simulate-labelling", "--data", large, "--retrain-every", "0", "--pages", "2"});
        QVERIFY2(run.code == 0, run.err.constData());
        QVERIFY2(run.err.contains("held out the last 2 of 5"), run.err.constData());
        const std::vector<QJsonObject> lines = jsonLines(run.out);
        QCOMPARE(int(lines.size()), 3);
        QCOMPARE(lines[2].value("held_out_pages").toInt(), 2);
        QCOMPARE(lines[0].value("edits").toInt(), lines[0].value("edits_without_model").toInt());
    }

    void startModelWithoutTheDataLabelsIsNamed()
    {
        FOLIO_REQUIRE_DATA(funsdRoot());
        FOLIO_REQUIRE_DATA(shippedModel(QStringLiteral("sroie-receipts")) + QStringLiteral("/config.json"));
        QTemporaryDir dir;
        QStringList trainFiles;
        QVERIFY(makeSubset(dir.path(), 2, 1, &trainFiles));
        const auto run = runCli({"simulate-labelling", "--data", dir.path(), "--start", shippedModel(QStringLiteral("sroie-receipts")),
                                 "--retrain-every", "0", "--pages", "1"});
        QVERIFY2(run.code == 0, run.err.constData());
        QVERIFY2(run.err.contains("has never seen the label(s)") && run.err.contains("QUESTION") && run.err.contains("head grows"),
                 run.err.constData());
        // What it suggested is wrong everywhere: every suggestion costs an edit on top of the fields.
        const QJsonObject page = jsonLines(run.out)[0];
        QVERIFY(page.value("edits").toInt() >= page.value("edits_without_model").toInt());
    }

    void xfundPagesAreNamedByTheirDocumentIds()
    {
        const QString dir = folio::test::sharedPath(QStringLiteral("data/xfund-de"));
        const QString train = QDir(dir).filePath(QStringLiteral("de.train.json"));
        const QString val = QDir(dir).filePath(QStringLiteral("de.val.json"));
        FOLIO_REQUIRE_DATA(train);
        FOLIO_REQUIRE_DATA(val);
        FOLIO_REQUIRE_DATA(shippedModel(QStringLiteral("funsd-layout")) + QStringLiteral("/config.json"));
        QFile f(train);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray docs = QJsonDocument::fromJson(f.readAll()).object().value("documents").toArray();
        QVERIFY(docs.size() >= 2);
        const auto run = runCli({"simulate-labelling", "--data", train, "--test", val, "--start",
                                 shippedModel(QStringLiteral("funsd-layout")), "--order", "document", "--retrain-every", "0",
                                 "--pages", "2"});
        QVERIFY2(run.code == 0, run.err.constData());
        const std::vector<QJsonObject> lines = jsonLines(run.out);
        QCOMPARE(int(lines.size()), 3);
        for (int i = 0; i < 2; ++i)
            QCOMPARE(lines[size_t(i)].value("page_id").toString(), docs[i].toObject().value("id").toString());
    }

    void badInputs()
    {
        QTemporaryDir dir;
        auto run = runCli({"simulate-labelling", "--data", dir.filePath(QStringLiteral("nowhere"))});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains("nowhere: no such file or folder"), run.err.constData());

        run = runCli({"simulate-labelling", "--data", dir.path()});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains("not a FUNSD dataset root"), run.err.constData());

        const QString broken = folio::test::writeTestFile(dir, QStringLiteral("de.train.json"), "{\"documents\": [ {\"id\": ");
        run = runCli({"simulate-labelling", "--data", broken, "--test", broken});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains("de.train.json"), run.err.constData());

        const QString xfund = folio::test::sharedPath(QStringLiteral("data/xfund-de"));
        if (QFileInfo(xfund).isDir()) {
            const QStringList files = QDir(xfund).entryList({QStringLiteral("*.json")}, QDir::Files);
            if (!files.isEmpty()) {
                run = runCli({"simulate-labelling", "--data", QDir(xfund).filePath(files.first())});
                QCOMPARE(run.code, 1);
                QVERIFY2(run.err.contains("--test"), run.err.constData());
            }
        }

        run = runCli({"simulate-labelling", "--data", dir.path(), "--order", "alphabetical"});
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains("alphabetical"), run.err.constData());
        run = runCli({"simulate-labelling", "--data", dir.path(), "--plot", dir.filePath(QStringLiteral("x.gif"))});
        QCOMPARE(run.code, 2);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestCliSimulate)
#include "tst_clisimulate.moc"
