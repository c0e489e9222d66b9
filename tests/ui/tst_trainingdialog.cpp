// Model > Train on Project started from a pretrained encoder (issue 16): the dialog's "Start from"
// folder reaches the trainer, the checkpoint records it and has the encoder's sizes; a folder that
// is no encoder fails with a message in the dialog's log and nothing is written there.
#include "document/formats/funsd.h"
#include "document/project/project.h"
#include "inference/formtagger/pretrain.h"
#include "pipeline/taggertraining.h"
#include "tests/common/testdata.h"
#include "ui/trainingdialog.h"

#include <QDialogButtonBox>
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

class TestTrainingDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void startsFromAPretrainedEncoder()
    {
        const QString funsd = test::sharedPath(QStringLiteral("data/funsd/dataset"));
        FOLIO_REQUIRE_DATA(funsd);
        QTemporaryDir dir;
        QString error;
        // A project of 4 labelled FUNSD training pages.
        auto project = Project::create(dir.filePath(QStringLiteral("p.folio")), &error);
        QVERIFY2(project, qPrintable(error));
        std::vector<inference::TrainPage> unlabelled;
        for (const QString &f : funsdSplitFiles(funsd, QStringLiteral("train")).mid(0, 4)) {
            Document doc;
            Annotations a;
            QVERIFY2(importFunsdFile(f, FunsdWordOrder::Reading, &doc, &a, &error), qPrintable(error));
            for (Entity &e : a.entities) {
                e.label = e.label.toUpper();
                e.state = ReviewState::Accepted;
            }
            QVERIFY(project->addDocument(doc, a, &error) > 0);
        }
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
            }, 120000);
            return (ended ? QString() : QStringLiteral("(no end after 120 s) ")) + log->toPlainText();
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
