// File > Import Dataset / Export Dataset (ui/training/datasetdialog, ui/workers/datasetjob): real FUNSD files into a
// real project through the dialog's widgets, off the GUI thread; a broken file among good ones
// names itself and writes nothing; Cancel stops a long import with nothing written; export writes
// the project back out (FUNSD and Label Studio) with the chosen status filter.
#include "document/formats/funsd.h"
#include "document/project/project.h"
#include "tests/common/testdata.h"
#include "ui/training/datasetdialog.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

class TestDatasetDialog : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QStringList m_funsd;

    QString newProject(const QString &name)
    {
        const QString path = m_dir.filePath(name);
        QString error;
        auto p = Project::create(path, &error);
        return p ? path : QString();
    }

    static int documents(const QString &path)
    {
        QString error;
        auto p = Project::open(path, &error, Project::Mode::ReadOnly);
        return p ? p->documentCount() : -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString funsd = test::sharedPath(QStringLiteral("data/funsd/dataset"));
        if (QDir(funsd).exists())
            m_funsd = funsdSplitFiles(funsd, QStringLiteral("train"));
    }

    void importsThroughTheDialog()
    {
        FOLIO_REQUIRE_DATA(test::sharedPath(QStringLiteral("data/funsd/dataset")));
        QVERIFY(m_funsd.size() > 100);
        const QString project = newProject(QStringLiteral("import.folio"));
        DatasetDialog dialog(DatasetDialog::Direction::Import, project);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *format = dialog.findChild<QComboBox *>(QStringLiteral("formatCombo"));
        QVERIFY(format && format->findData(QStringLiteral("funsd")) >= 0);
        QVERIFY2(format->findData(QStringLiteral("qs-markdown")) < 0, "an export-only format is offered for import");
        dialog.setFormat(QStringLiteral("funsd"));
        dialog.setFiles(m_funsd.mid(0, 3));
        QSignalSpy completed(&dialog, &DatasetDialog::completed);
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("runButton")), Qt::LeftButton);
        QVERIFY(completed.wait(30000));
        QVERIFY2(completed.first().first().toString().contains(QStringLiteral("3 document(s) added")),
                 qPrintable(completed.first().first().toString()));
        QCOMPARE(documents(project), 3);
        QString error;
        auto p = Project::open(project, &error, Project::Mode::ReadOnly);
        QVERIFY2(p, qPrintable(error));
        Annotations a;
        QVERIFY(p->loadAnnotations(p->documents().front().id, &a, &error));
        QVERIFY(!a.entities.empty() && !a.links.empty());
    }

    void aBrokenFileWritesNothing()
    {
        FOLIO_REQUIRE_DATA(test::sharedPath(QStringLiteral("data/funsd/dataset")));
        const QString project = newProject(QStringLiteral("broken.folio"));
        const QString broken = m_dir.filePath(QStringLiteral("broken.json"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"form\": [{\"id\": 0, \"label\": \"question\", \"box\": [1, 2, 3]}]}");
        f.close();
        DatasetDialog dialog(DatasetDialog::Direction::Import, project);
        dialog.setFormat(QStringLiteral("funsd"));
        dialog.setFiles({m_funsd[0], broken, m_funsd[1]});
        dialog.show();
        dialog.start();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isRunning() && !dialog.errorText().isEmpty(), 30000);
        QVERIFY2(dialog.errorText().contains(QStringLiteral("broken.json")), qPrintable(dialog.errorText()));
        QVERIFY(dialog.isVisible()); // stays open with the message
        QCOMPARE(documents(project), 0);
        // Fixing the list and running again works in the same dialog.
        QSignalSpy completed(&dialog, &DatasetDialog::completed);
        dialog.setFiles({m_funsd[0], m_funsd[1]});
        dialog.start();
        QVERIFY(completed.wait(30000));
        QCOMPARE(documents(project), 2);
    }

    void cancelWritesNothing()
    {
        FOLIO_REQUIRE_DATA(test::sharedPath(QStringLiteral("data/funsd/dataset")));
        const QString project = newProject(QStringLiteral("cancel.folio"));
        DatasetDialog dialog(DatasetDialog::Direction::Import, project);
        dialog.setFormat(QStringLiteral("funsd"));
        dialog.setFiles(m_funsd); // every training form: long enough to be cancelled while reading
        dialog.show();
        QSignalSpy completed(&dialog, &DatasetDialog::completed);
        dialog.start();
        QVERIFY(dialog.isRunning());
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("cancelButton")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isRunning(), 30000);
        QTest::qWait(50);
        QCOMPARE(completed.count(), 0);
        QVERIFY(dialog.isVisible()); // Cancel stops the job; a second Cancel (now Close) closes
        QVERIFY2(dialog.findChild<QLabel *>(QStringLiteral("stageLabel"))->text().contains(QStringLiteral("nothing was imported")),
                 qPrintable(dialog.findChild<QLabel *>(QStringLiteral("stageLabel"))->text()));
        QCOMPARE(documents(project), 0);
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("cancelButton")), Qt::LeftButton);
        QVERIFY(!dialog.isVisible());
    }

    void exportsTheProject_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("expectedFile");
        QTest::newRow("funsd") << QStringLiteral("funsd") << QStringLiteral("annotations");
        QTest::newRow("labelstudio") << QStringLiteral("labelstudio") << QStringLiteral("data.labelstudio.json");
    }

    void exportsTheProject()
    {
        QFETCH(QString, format);
        QFETCH(QString, expectedFile);
        const QString project = m_dir.filePath(QStringLiteral("import.folio"));
        if (documents(project) != 3)
            FOLIO_DATA_MISSING(QStringLiteral("needs the project importsThroughTheDialog filled (FUNSD data)"));
        const QString out = m_dir.filePath(QStringLiteral("out-") + format);
        DatasetDialog dialog(DatasetDialog::Direction::Export, project);
        dialog.setFormat(format);
        dialog.setOutputFolder(out);
        dialog.show();
        QSignalSpy completed(&dialog, &DatasetDialog::completed);
        dialog.start();
        QVERIFY(completed.wait(30000));
        QVERIFY2(completed.first().first().toString().contains(QStringLiteral("3 document(s)")),
                 qPrintable(completed.first().first().toString()));
        QVERIFY2(QFileInfo::exists(out + "/" + expectedFile), qPrintable(out));
        QCOMPARE(dialog.findChild<QProgressBar *>(QStringLiteral("progressBar"))->value(), 2);

        // Only documents marked done: none are.
        const QString none = m_dir.filePath(QStringLiteral("none-") + format);
        DatasetDialog filtered(DatasetDialog::Direction::Export, project);
        filtered.setFormat(format);
        filtered.setOutputFolder(none);
        auto *status = filtered.findChild<QComboBox *>(QStringLiteral("statusCombo"));
        status->setCurrentIndex(status->findData(QStringLiteral("done")));
        QSignalSpy done(&filtered, &DatasetDialog::completed);
        filtered.start();
        QVERIFY(done.wait(30000));
        QVERIFY2(done.first().first().toString().contains(QStringLiteral("0 document(s)")), qPrintable(done.first().first().toString()));
    }
};

FOLIO_TEST_MAIN(TestDatasetDialog)
#include "tst_datasetdialog.moc"
