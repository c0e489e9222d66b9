// Train on Project started from a Hugging Face token classifier (issue 46): the dialog's "Start
// from" takes a LayoutLMv3 folder (or a Hub cache checkpoint by repo id), fine-tunes it in the
// background worker on the project's pages less its held-out ones, then shows the regression guard
// (F1 per label of the old and the new model on the held-out pages); the new model is used only when
// accepted, and ModelHistory's one action goes back to the previous one. Refusals: too few labelled
// pages for the held-out set, a folder of a model type that cannot be fine-tuned. The engine is the
// real one on a tiny LayoutLMv3 (2 layers, hidden 32) from the parity fixtures, a couple of steps.
#include "document/formats/funsd.h"
#include "document/project/project.h"
#include "tests/common/testdata.h"
#include "ui/training/modelhistory.h"
#include "ui/training/trainingdialog.h"
#include "ui/workers/hffinetuneworker.h"

#include <QAction>
#include <QApplication>
#include <QPointer>
#include <QProgressBar>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace folio;

namespace {

const QString kTiny = test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline/checkpoint"));
const QString kFunsd = test::sharedPath(QStringLiteral("data/funsd/dataset"));

// A project of `count` labelled FUNSD training pages (accepted entities).
std::unique_ptr<Project> funsdProject(const QString &path, int count, QString *error)
{
    auto project = Project::create(path, error);
    if (!project)
        return nullptr;
    for (const QString &f : funsdSplitFiles(kFunsd, QStringLiteral("train")).mid(0, count)) {
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

QString logOf(TrainingDialog &dialog)
{
    return dialog.findChild<QPlainTextEdit *>()->toPlainText();
}

QString cellText(QTableWidget *t, const QString &label, int column)
{
    for (int r = 0; r < t->rowCount(); ++r)
        if (t->item(r, 0)->text() == label)
            return t->item(r, column)->text();
    return QStringLiteral("(no row %1)").arg(label);
}

} // namespace

class TestHfFineTuneGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void heldOutSplit()
    {
        std::vector<inference::TaggerPage> pages(12), train, held;
        for (int i = 0; i < 12; ++i)
            pages[std::size_t(i)].id = std::to_string(i);
        QString error;
        QVERIFY(projectHeldOutSplit(pages, &train, &held, &error));
        QCOMPARE(int(held.size()), 2); // max(2, 12 / 5)
        QCOMPARE(held.front().id, std::string("10")); // the last pages, the same every run
        QCOMPARE(int(train.size()), 10);
        pages.resize(30);
        QVERIFY(projectHeldOutSplit(pages, &train, &held, &error));
        QCOMPARE(int(held.size()), 6);
        pages.resize(2);
        QVERIFY(!projectHeldOutSplit(pages, &train, &held, &error));
        QVERIFY2(error.contains(QStringLiteral("holds out 2")) && error.contains(QStringLiteral("label 1 more")), qPrintable(error));
    }

    void fineTunesGuardsAcceptsAndGoesBack()
    {
        FOLIO_REQUIRE_DATA(kTiny + QStringLiteral("/model.safetensors"));
        FOLIO_REQUIRE_DATA(kFunsd + QStringLiteral("/training_data/annotations"));
        QTemporaryDir dir;
        QString error;
        auto project = funsdProject(dir.filePath(QStringLiteral("p.folio")), 3, &error);
        QVERIFY2(project, qPrintable(error));
        const QString out = dir.filePath(QStringLiteral("tuned"));

        TrainingDialog dialog(project.get());
        dialog.resize(760, 680);
        dialog.setStartFrom(TrainingDialog::HfFolder, kTiny);
        QCOMPARE(dialog.hfStartFolder(), kTiny);
        for (QLineEdit *e : dialog.findChildren<QLineEdit *>())
            if (e->objectName().isEmpty())
                e->setText(out); // the checkpoint folder
        dialog.findChild<QSpinBox *>()->setValue(1);
        dialog.setHfMaxSteps(2);
        dialog.show();
        QTest::qWait(50);
        QElapsedTimer clock;
        clock.start();
        dialog.startTraining();
        QVERIFY2(clock.elapsed() < 2000, "startTraining blocked the GUI thread"); // the worker trains
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
        ticker.start(20);
        QVERIFY2(QTest::qWaitFor([&] { return dialog.guardTable() || logOf(dialog).contains(QStringLiteral("Failed")); }, 300000),
                 qPrintable(logOf(dialog)));
        QVERIFY2(dialog.guardTable(), qPrintable(logOf(dialog)));
        const QString log = logOf(dialog);
        QVERIFY2(log.contains(QStringLiteral("on 1 pages; 2 held-out pages")) && log.contains(QStringLiteral("Done in"))
                     && log.contains(QStringLiteral("a new head")),
                 qPrintable(log));
        qInfo("GUI timer ticks while fine-tuning: %d", ticks);
        QVERIFY(ticks > 0);
        // The guard: QUESTION / ANSWER are the tiny model's labels (a score before), HEADER / OTHER are
        // the project's new ones ("–" before); the micro row last; every label has a score after.
        QTableWidget *t = dialog.guardTable();
        QVERIFY(t->isVisible());
        QCOMPARE(t->item(t->rowCount() - 1, 0)->text(), QStringLiteral("all (micro)"));
        QStringList rows;
        for (int r = 0; r < t->rowCount(); ++r)
            rows << QStringLiteral("%1 %2 %3 %4").arg(t->item(r, 0)->text(), t->item(r, 1)->text(), t->item(r, 2)->text(), t->item(r, 3)->text());
        qInfo("guard:\n%s", qPrintable(rows.join(QLatin1Char('\n'))));
        QVERIFY2(cellText(t, QStringLiteral("HEADER"), 1) == QStringLiteral("–"), qPrintable(rows.join(QLatin1Char('\n'))));
        bool ok = false;
        cellText(t, QStringLiteral("QUESTION"), 1).toDouble(&ok);
        QVERIFY2(ok, qPrintable(rows.join(QLatin1Char('\n'))));
        for (const QString &label : {QStringLiteral("QUESTION"), QStringLiteral("ANSWER"), QStringLiteral("HEADER"), QStringLiteral("all (micro)")}) {
            const double after = cellText(t, label, 2).toDouble(&ok);
            QVERIFY2(ok && after >= 0 && after <= 1, qPrintable(label));
        }
        QVERIFY(cellText(t, QStringLiteral("all (micro)"), 3).toInt() > 0);
        QFile config(out + QStringLiteral("/config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        const QJsonObject id2label = QJsonDocument::fromJson(config.readAll()).object().value(QStringLiteral("id2label")).toObject();
        QStringList names;
        for (auto it = id2label.begin(); it != id2label.end(); ++it)
            names << it.value().toString();
        QVERIFY2(names.contains(QStringLiteral("B-HEADER")) && names.contains(QStringLiteral("I-ANSWER")), qPrintable(names.join(QLatin1Char(' '))));
        QVERIFY(QFile::exists(out + QStringLiteral("/model.safetensors")));

        // The screenshot for review.
        const QString shots = QStringLiteral(FOLIO_BINARY_DIR "/screenshots");
        QDir().mkpath(shots);
        QTest::qWait(100);
        QVERIFY(dialog.grab().save(shots + QStringLiteral("/hffinetune_guard.png")));
        qInfo("screenshot: %s/hffinetune_guard.png", qPrintable(shots));

        // Keep the current model: nothing chosen. Use the new one: the dialog accepts with its folder.
        auto *keep = dialog.findChild<QPushButton *>(QStringLiteral("keepCurrentModel"));
        auto *use = dialog.findChild<QPushButton *>(QStringLiteral("useNewModel"));
        QVERIFY(keep && use);
        keep->click();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(dialog.checkpointDir().isEmpty());
        use->click();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.checkpointDir(), out);

        // Accepted: the model is replaced, and one click goes back (a second one forward again).
        QString current = kTiny;
        QObject owner;
        ModelHistory history(&owner, [&current] { return current; }, [&current](const QString &d) { current = d; });
        QVERIFY(!history.goBackAction()->isEnabled());
        history.replace(dialog.checkpointDir());
        QCOMPARE(current, out);
        QVERIFY(history.goBackAction()->isEnabled());
        history.goBackAction()->trigger();
        QCOMPARE(current, kTiny);
        history.goBackAction()->trigger();
        QCOMPARE(current, out);

        // With the fine-tuned model in use, the next run's "before" is that model (it knows HEADER),
        // not the folder the run starts from.
        TrainingDialog again(project.get());
        again.setCurrentModel(out);
        again.setStartFrom(TrainingDialog::HfFolder, kTiny);
        for (QLineEdit *e : again.findChildren<QLineEdit *>())
            if (e->objectName().isEmpty())
                e->setText(dir.filePath(QStringLiteral("tuned2")));
        again.findChild<QSpinBox *>()->setValue(1);
        again.setHfMaxSteps(1);
        again.startTraining();
        QVERIFY2(QTest::qWaitFor([&] { return again.guardTable() || logOf(again).contains(QStringLiteral("Failed")); }, 300000),
                 qPrintable(logOf(again)));
        QVERIFY2(again.guardTable(), qPrintable(logOf(again)));
        QVERIFY(again.guardTable()->horizontalHeaderItem(1)->text().contains(QStringLiteral("(tuned)")));
        QCOMPARE(cellText(again.guardTable(), QStringLiteral("HEADER"), 1), cellText(t, QStringLiteral("HEADER"), 2));
        QCOMPARE(cellText(again.guardTable(), QStringLiteral("all (micro)"), 1), cellText(t, QStringLiteral("all (micro)"), 2));
    }

    // Model > Train on Project opens the dialog beside the window, not modal: the window stays usable
    // while it trains; accepting hands the folder to the window, and the dialog goes.
    void opensBesideTheWindow()
    {
        FOLIO_REQUIRE_DATA(kTiny + QStringLiteral("/model.safetensors"));
        FOLIO_REQUIRE_DATA(kFunsd + QStringLiteral("/training_data/annotations"));
        QTemporaryDir dir;
        QString error;
        auto project = funsdProject(dir.filePath(QStringLiteral("p.folio")), 3, &error);
        QVERIFY2(project, qPrintable(error));
        QWidget window;
        window.show();
        QString accepted;
        QPointer<TrainingDialog> dialog =
            TrainingDialog::openBeside(project.get(), kTiny, nullptr, &window, [&accepted](const QString &d) { accepted = d; });
        QVERIFY(dialog && dialog->isVisible() && !dialog->isModal());
        QCOMPARE(QApplication::activeModalWidget(), nullptr);
        dialog->setStartFrom(TrainingDialog::HfFolder, kTiny);
        const QString out = dir.filePath(QStringLiteral("tuned"));
        for (QLineEdit *e : dialog->findChildren<QLineEdit *>())
            if (e->objectName().isEmpty())
                e->setText(out);
        dialog->findChild<QSpinBox *>()->setValue(1);
        dialog->setHfMaxSteps(1);
        dialog->startTraining();
        QVERIFY2(QTest::qWaitFor([&] { return dialog->guardTable() || logOf(*dialog).contains(QStringLiteral("Failed")); }, 300000),
                 qPrintable(logOf(*dialog)));
        dialog->findChild<QPushButton *>(QStringLiteral("useNewModel"))->click();
        QCOMPARE(accepted, out);
        QTRY_VERIFY(dialog.isNull()); // deleted when closed

        // A closed project: the dialog lets go of it and starts nothing more.
        dialog = TrainingDialog::openBeside(project.get(), QString(), nullptr, &window, {});
        dialog->forgetProject();
        dialog->startTraining();
        QVERIFY(logOf(*dialog).contains(QStringLiteral("The project was closed")));
        QVERIFY(!dialog->findChild<QProgressBar *>() || dialog->findChild<QProgressBar *>()->value() == 0);
        dialog->close();
    }

    // Cancel while the worker trains: it stops between steps, no guard, no model is offered.
    void cancelStopsTheRun()
    {
        FOLIO_REQUIRE_DATA(kTiny + QStringLiteral("/model.safetensors"));
        FOLIO_REQUIRE_DATA(kFunsd + QStringLiteral("/training_data/annotations"));
        QTemporaryDir dir;
        QString error;
        auto project = funsdProject(dir.filePath(QStringLiteral("p.folio")), 3, &error);
        QVERIFY2(project, qPrintable(error));
        TrainingDialog dialog(project.get());
        dialog.setStartFrom(TrainingDialog::HfFolder, kTiny);
        for (QLineEdit *e : dialog.findChildren<QLineEdit *>())
            if (e->objectName().isEmpty())
                e->setText(dir.filePath(QStringLiteral("tuned")));
        dialog.findChild<QSpinBox *>()->setValue(200);
        dialog.startTraining();
        QList<QLabel *> labels = dialog.findChildren<QLabel *>();
        QVERIFY(QTest::qWaitFor([&] {
            for (QLabel *l : labels)
                if (l->text().startsWith(QStringLiteral("Step ")))
                    return true;
            return false;
        }, 60000));
        dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel)->click();
        QVERIFY2(QTest::qWaitFor([&] { return logOf(dialog).contains(QStringLiteral("Cancelled.")) || logOf(dialog).contains(QStringLiteral("Done in")); }, 60000),
                 qPrintable(logOf(dialog)));
        QVERIFY2(logOf(dialog).contains(QStringLiteral("Cancelled.")), qPrintable(logOf(dialog)));
        QVERIFY(!dialog.guardTable());
        QVERIFY(dialog.checkpointDir().isEmpty());
    }

    void refusals()
    {
        FOLIO_REQUIRE_DATA(kTiny + QStringLiteral("/model.safetensors"));
        FOLIO_REQUIRE_DATA(kFunsd + QStringLiteral("/training_data/annotations"));
        QTemporaryDir dir;
        QString error;
        // 2 labelled pages: the held-out set takes both.
        auto two = funsdProject(dir.filePath(QStringLiteral("two.folio")), 2, &error);
        QVERIFY2(two, qPrintable(error));
        {
            TrainingDialog dialog(two.get());
            dialog.setStartFrom(TrainingDialog::HfFolder, kTiny);
            dialog.startTraining();
            QVERIFY2(logOf(dialog).contains(QStringLiteral("Failed: 2 labelled pages: the regression guard holds out 2")), qPrintable(logOf(dialog)));
            QVERIFY(!dialog.guardTable());
        }
        auto three = funsdProject(dir.filePath(QStringLiteral("three.folio")), 3, &error);
        QVERIFY2(three, qPrintable(error));
        // A Hugging Face folder of a type that cannot be fine-tuned (MarkupLM).
        const QString markuplm = test::sharedPath(QStringLiteral("fixtures/parity-new/markuplm_tokcls"));
        if (QFile::exists(markuplm + QStringLiteral("/config.json"))) {
            TrainingDialog dialog(three.get());
            dialog.setStartFrom(TrainingDialog::HfFolder, markuplm);
            dialog.startTraining();
            QVERIFY2(logOf(dialog).contains(QStringLiteral("model_type \"markuplm\" cannot be fine-tuned")), qPrintable(logOf(dialog)));
        }
        // Writing onto the folder training starts from.
        {
            TrainingDialog dialog(three.get());
            dialog.setStartFrom(TrainingDialog::HfFolder, kTiny);
            for (QLineEdit *e : dialog.findChildren<QLineEdit *>())
                if (e->objectName().isEmpty())
                    e->setText(kTiny);
            dialog.startTraining();
            QVERIFY2(logOf(dialog).contains(QStringLiteral("the folder training starts from")), qPrintable(logOf(dialog)));
        }
        // A checkpoint in the Hub cache (the layout huggingface_hub writes: snapshots/COMMIT, refs/main) is offered by repo id.
        {
            const QString commit = QStringLiteral("0123456789abcdef0123456789abcdef01234567");
            const QString repo = dir.filePath(QStringLiteral("cache/models--org--tiny-layoutlmv3"));
            const QString snapshot = repo + QStringLiteral("/snapshots/") + commit;
            QVERIFY(QDir().mkpath(snapshot) && QDir().mkpath(repo + QStringLiteral("/refs")));
            for (const QString &f : QDir(kTiny).entryList(QDir::Files))
                QVERIFY(QFile::copy(kTiny + QLatin1Char('/') + f, snapshot + QLatin1Char('/') + f));
            QFile ref(repo + QStringLiteral("/refs/main"));
            QVERIFY(ref.open(QIODevice::WriteOnly) && ref.write(commit.toLatin1()) == 40);
            ref.close();
            qputenv("HF_HUB_CACHE", dir.filePath(QStringLiteral("cache")).toUtf8());
            TrainingDialog dialog(three.get());
            qunsetenv("HF_HUB_CACHE");
            auto *cached = dialog.findChild<QComboBox *>(QStringLiteral("hubCheckpoint"));
            QCOMPARE(cached->count(), 1);
            QVERIFY2(cached->itemText(0).startsWith(QStringLiteral("org/tiny-layoutlmv3@main")), qPrintable(cached->itemText(0)));
            dialog.setStartFrom(TrainingDialog::HfCache, QStringLiteral("org/tiny-layoutlmv3"));
            QCOMPARE(QFileInfo(dialog.hfStartFolder()).canonicalFilePath(), QFileInfo(snapshot).canonicalFilePath());
        }
        // Nothing chosen in the Hub cache (an empty cache).
        {
            qputenv("HF_HUB_CACHE", dir.filePath(QStringLiteral("empty-cache")).toUtf8());
            TrainingDialog dialog(three.get());
            dialog.setStartFrom(TrainingDialog::HfCache, QStringLiteral("org/none"));
            QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("hubCheckpoint"))->count(), 0);
            dialog.startTraining();
            QVERIFY2(logOf(dialog).contains(QStringLiteral("choose a checkpoint of the Hugging Face cache")), qPrintable(logOf(dialog)));
            qunsetenv("HF_HUB_CACHE");
        }
    }
};

FOLIO_TEST_MAIN(TestHfFineTuneGui)
#include "tst_hffinetunegui.moc"
