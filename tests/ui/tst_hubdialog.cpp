// Model > Get Model from Hugging Face… and Choose Model's Hub rows (issue 46), offscreen, against
// the Hub-shaped server on 127.0.0.1 (tests/pipeline/hubserver.py): the download runs off the GUI
// thread (the event loop keeps turning), the dialog is accepted with the snapshot folder, Choose
// Model then lists the cached checkpoint by repo id and chooses its folder; a private repo without a
// token leaves the dialog open with a message naming HF_TOKEN; Cancel stops a download that keeps
// retrying, and the dialog stays usable.
#include "ui/training/hubdownloaddialog.h"
#include "ui/training/modelchooserdialog.h"
#include "tests/common/hubtestserver.h"
#include "tests/common/testdata.h"

#include <QPushButton>
#include <QTreeWidget>
#include <QtTest>

namespace {

const QString kCommit = QStringLiteral("00112233445566778899aabbccddeeff00112233");
const QString kRepo = QStringLiteral("folio-test/tiny-layoutlmv3");

QString checkpointDir()
{
    return folio::test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline/checkpoint"));
}

} // namespace

class TestHubDialog : public QObject
{
    Q_OBJECT

    folio::test::HubTestServer m_server;
    QJsonObject m_base;
    QTemporaryDir m_home;

private Q_SLOTS:
    void initTestCase()
    {
        FOLIO_REQUIRE_DATA(checkpointDir());
        const QJsonObject files = folio::test::tinyLayoutLMv3Files(checkpointDir());
        QJsonObject priv = folio::test::hubRepo(kCommit, files);
        priv[QStringLiteral("private")] = true;
        m_base = QJsonObject{{QStringLiteral("token"), QStringLiteral("hf_gui")},
                             {QStringLiteral("repos"), QJsonObject{{kRepo, folio::test::hubRepo(kCommit, files)},
                                                                   {QStringLiteral("folio-test/private"), priv}}}};
        QString why;
        QVERIFY2(m_server.start(m_base, &why), qPrintable(why));
        for (const char *v : {"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_TOKEN_PATH", "HF_HUB_OFFLINE"})
            qunsetenv(v);
        qputenv("HF_HOME", m_home.path().toUtf8());
        qputenv("HF_ENDPOINT", m_server.endpoint().toUtf8());
    }

    void init() { m_server.setConfig(m_base); }

    void downloadThenChoose()
    {
        folio::HubDownloadDialog dialog;
        dialog.show();
        dialog.setRepo(kRepo, QStringLiteral("main"));
        dialog.startDownload();
        QVERIFY(dialog.isDownloading());
        QTRY_COMPARE_WITH_TIMEOUT(dialog.result(), int(QDialog::Accepted), 60000);
        const QString snapshot = m_home.path() + QStringLiteral("/hub/models--folio-test--tiny-layoutlmv3/snapshots/") + kCommit;
        QCOMPARE(dialog.snapshotDir(), snapshot);
        QVERIFY(QFileInfo(snapshot + QStringLiteral("/model.safetensors")).isSymLink());

        // Choose Model lists it by repo id (the shipped taggers above it) and chooses its folder.
        folio::ModelChooserDialog chooser(QString(), nullptr);
        QVERIFY(chooser.selectModel(kRepo + QStringLiteral("@main")));
        auto *list = chooser.findChild<QTreeWidget *>(QStringLiteral("modelList"));
        QVERIFY(list && list->currentItem());
        QCOMPARE(list->currentItem()->text(2), QStringLiteral("Hugging Face cache"));
        QVERIFY(chooser.findChild<QPushButton *>(QStringLiteral("fromHubButton")));
        QMetaObject::invokeMethod(list, [list] { Q_EMIT list->itemDoubleClicked(list->currentItem(), 0); }, Qt::QueuedConnection);
        QTRY_COMPARE(chooser.result(), int(QDialog::Accepted));
        QCOMPARE(chooser.chosenDirectory(), snapshot);
    }

    void privateRepoNamesTheToken()
    {
        folio::HubDownloadDialog dialog;
        QSignalSpy failed(&dialog, &folio::HubDownloadDialog::downloadFailed);
        dialog.show();
        dialog.setRepo(QStringLiteral("folio-test/private"));
        dialog.startDownload();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY(dialog.isVisible());
        QVERIFY2(dialog.statusText().contains(QLatin1String("HF_TOKEN")) && dialog.statusText().contains(QLatin1String("private")),
                 qPrintable(dialog.statusText()));
        QVERIFY(!QFileInfo::exists(m_home.path() + QStringLiteral("/hub/models--folio-test--private")));
    }

    void cancelStopsRetries()
    {
        QJsonObject c = m_base;
        c[QStringLiteral("faults")] = QJsonArray{QJsonObject{{QStringLiteral("match"), QStringLiteral("/api/models/")}, {QStringLiteral("status"), 503}}};
        m_server.setConfig(c);
        folio::HubDownloadDialog dialog;
        QSignalSpy failed(&dialog, &folio::HubDownloadDialog::downloadFailed);
        dialog.show();
        dialog.setRepo(QStringLiteral("folio-test/other"));
        dialog.startDownload();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.statusText().contains(QLatin1String("retrying")), 20000);
        dialog.reject(); // Cancel while it waits to retry
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        QVERIFY2(failed.first().first().toString().contains(QLatin1String("cancelled")), qPrintable(failed.first().first().toString()));
        QVERIFY(dialog.isVisible());
        QVERIFY(!dialog.isDownloading());
    }
};

FOLIO_TEST_MAIN(TestHubDialog)
#include "tst_hubdialog.moc"
