// Model > Train on Project started from a pretrained encoder (issue 16): the dialog's "Start from"
// folder reaches the trainer, the checkpoint records it and has the encoder's sizes; a folder that
// is no encoder fails with a message in the dialog's log and nothing is written there.
#include "document/formats/funsd.h"
#include "document/project/project.h"
#include "inference/formtagger/pretrain.h"
#include "pipeline/taggertraining.h"
#include "tests/common/testdata.h"
#include "ui/training/trainingdialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

namespace {

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A project of `count` labelled FUNSD training pages from `first` on.
std::unique_ptr<Project> funsdProject(const QString &path, const QString &funsd, int first, int count, QString *error)
{
    auto project = Project::create(path, error);
    if (!project)
        return nullptr;
    for (const QString &f : funsdSplitFiles(funsd, QStringLiteral("train")).mid(first, count)) {
        Document doc;
        Annotations a;
        if (!importFunsdFile(f, FunsdWordOrder::Reading, &doc, &a, error))
            return nullptr;
        for (Entity &e : a.entities) {
            e.label = e.label.toUpper();
            e.state = ReviewState::Accepted;
        }
        if (project->addDocument(doc, a, error) <= 0)
            return nullptr;
    }
    return project;
}

QString runDialog(TrainingDialog &dialog, const QString &out)
{
    const QList<QLineEdit *> edits = dialog.findChildren<QLineEdit *>();
    for (QLineEdit *e : edits)
        if (e->objectName().isEmpty())
            e->setText(out); // the checkpoint folder
    for (QSpinBox *s : dialog.findChildren<QSpinBox *>())
        s->setValue(1);
    dialog.show();
    dialog.startTraining();
    auto *log = dialog.findChild<QPlainTextEdit *>();
    const bool ended = QTest::qWaitFor([&] {
        return log->toPlainText().contains(QStringLiteral("Done in")) || log->toPlainText().contains(QStringLiteral("Failed"));
    }, 300000);
    return (ended ? QString() : QStringLiteral("(no end after 300 s) ")) + log->toPlainText();
}

} // namespace

class TestTrainingDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void alsoTrainsOnAnotherProjectAndADataset()
    {
        const QString funsd = test::sharedPath(QStringLiteral("data/funsd/dataset"));
        FOLIO_REQUIRE_DATA(funsd);
        QTemporaryDir dir;
        QString error;
        auto project = funsdProject(dir.filePath(QStringLiteral("target.folio")), funsd, 0, 3, &error);
        QVERIFY2(project, qPrintable(error));
        {
            auto other = funsdProject(dir.filePath(QStringLiteral("other.folio")), funsd, 3, 2, &error);
            QVERIFY2(other, qPrintable(error));
        }
        // Two receipts in SROIE's layout: their fields bring their own labels.
        for (const char *id : {"000", "001"}) {
            QVERIFY(writeFile(dir.filePath(QStringLiteral("receipts/box/%1.csv").arg(QLatin1String(id))),
                              "10,10,300,10,300,40,10,40,SHOP ONE SDN BHD\n10,50,300,50,300,80,10,80,1 MAIN ROAD, KLANG\n"
                              "10,90,300,90,300,120,10,120,DATE 01/02/2019\n10,130,150,130,150,160,10,160,TOTAL 5.00\n"));
            QVERIFY(writeFile(dir.filePath(QStringLiteral("receipts/key/%1.json").arg(QLatin1String(id))),
                              R"({"company": "SHOP ONE SDN BHD", "address": "1 MAIN ROAD, KLANG", "date": "01/02/2019", "total": "5.00"})"));
        }
        TrainingDialog dialog(project.get());
        dialog.addExtraSource(dir.filePath(QStringLiteral("other.folio")));
        dialog.addExtraSource(dir.filePath(QStringLiteral("receipts")));
        dialog.addExtraSource(dir.filePath(QStringLiteral("receipts"))); // once only
        dialog.addExtraSource(project->path());                          // the target is not an extra
        QCOMPARE(dialog.extraSources().size(), 2);
        const QString out = dir.filePath(QStringLiteral("model"));
        const QString log = runDialog(dialog, out);
        QVERIFY2(log.contains(QStringLiteral("Done in")), qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("2 further sources")) && log.contains(QStringLiteral("other.folio: 2 pages of 2 documents"))
                     && log.contains(QStringLiteral("receipts: 2 pages (SROIE")),
                 qPrintable(log));
        QFile config(out + QStringLiteral("/config.json")), folio(out + QStringLiteral("/folio.json"));
        QVERIFY(config.open(QIODevice::ReadOnly) && folio.open(QIODevice::ReadOnly));
        const QJsonObject labels = QJsonDocument::fromJson(config.readAll()).object().value(QStringLiteral("id2label")).toObject();
        QStringList names;
        for (auto it = labels.begin(); it != labels.end(); ++it)
            names << it.value().toString();
        for (const char *label : {"B-QUESTION", "B-ANSWER", "B-COMPANY", "B-TOTAL"})
            QVERIFY2(names.contains(QLatin1String(label)), qPrintable(names.join(QLatin1Char(' '))));
        const QJsonObject record = QJsonDocument::fromJson(folio.readAll()).object();
        QVERIFY2(record.value(QStringLiteral("data")).toString().contains(QStringLiteral("other.folio")), qPrintable(record.value(QStringLiteral("data")).toString()));
        // Dev pages come from the target project alone (1 of its 3 pages).
        QCOMPARE(record.value(QStringLiteral("dev_pages")).toInt(), 1);

        TrainingDialog missing(project.get());
        missing.addExtraSource(dir.filePath(QStringLiteral("nowhere")));
        const QString badLog = runDialog(missing, dir.filePath(QStringLiteral("bad")));
        QVERIFY2(badLog.contains(QStringLiteral("Failed")) && badLog.contains(QStringLiteral("nowhere: no such file")), qPrintable(badLog));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("bad/model.safetensors"))));
    }

    void startsFromAPretrainedEncoder()
    {
        const QString funsd = test::sharedPath(QStringLiteral("data/funsd/dataset"));
        FOLIO_REQUIRE_DATA(funsd);
        QTemporaryDir dir;
        QString error;
        // A project of 4 labelled FUNSD training pages.
        auto project = funsdProject(dir.filePath(QStringLiteral("p.folio")), funsd, 0, 4, &error);
        QVERIFY2(project, qPrintable(error));
        std::vector<inference::TaggerPage> unlabelled;
        QVERIFY2(pipeline::loadFunsdSplit(funsd, QStringLiteral("dev"), FunsdWordOrder::Reading, &unlabelled, &error), qPrintable(error));
        for (auto &p : unlabelled)
            p.tags.clear();
        // A tiny pretrained encoder.
        inference::PretrainConfig pc;
        pc.outputDir = dir.filePath(QStringLiteral("encoder")).toStdString();
        pc.tokenizerDir = FOLIO_SOURCE_DIR "/resources/models/funsd-layout";
        pc.hidden = 32;
        pc.layers = 1;
        pc.heads = 2;
        pc.intermediate = 64;
        pc.steps = 3;
        pc.threads = 1;
        const inference::PretrainResult pr = inference::pretrain(pc, unlabelled);
        QVERIFY2(pr.ok, pr.error.c_str());

        const auto run = [&](const QString &startFrom, const QString &out) {
            TrainingDialog dialog(project.get());
            dialog.findChild<QLineEdit *>(QStringLiteral("startFrom"))->setText(startFrom);
            return runDialog(dialog, out);
        };
        const QString out = dir.filePath(QStringLiteral("model"));
        const QString log = run(QString::fromStdString(pc.outputDir), out);
        QVERIFY2(log.contains(QStringLiteral("Done in")), qPrintable(log));
        QFile folio(out + "/folio.json"), config(out + "/config.json");
        QVERIFY(folio.open(QIODevice::ReadOnly) && config.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(folio.readAll()).object().value(QStringLiteral("init")).toString(),
                 QString::fromStdString(pc.outputDir));
        QCOMPARE(QJsonDocument::fromJson(config.readAll()).object().value(QStringLiteral("hidden_size")).toInt(), 32);

        const QString bad = dir.filePath(QStringLiteral("bad"));
        const QString badLog = run(dir.path(), bad); // a folder that is no encoder
        QVERIFY2(badLog.contains(QStringLiteral("Failed")) && badLog.contains(QStringLiteral("config.json")), qPrintable(badLog));
        QVERIFY(!QFile::exists(bad + "/model.safetensors"));
    }
};

FOLIO_TEST_MAIN(TestTrainingDialog)
#include "tst_trainingdialog.moc"
