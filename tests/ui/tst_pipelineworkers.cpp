// The GUI's workers are thread plumbing over folio_pipeline: DocumentOpener (dispatch + OCR off the
// GUI thread), ModelWorker (page-by-page suggestions), TrainWorker (its refusals), all reporting
// through signals, failures as messages.
#include "tests/common/layoutlmv2folder.h"
#include "tests/pipeline/samplefiles.h"
#include "ui/documents/documentopener.h"
#include "ui/workers/modelworker.h"
#include "ui/workers/trainworker.h"
#include "tests/common/testdata.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

static const QString kModel = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading");

class TestPipelineWorkers : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Document open(const QString &path)
    {
        DocumentOpener opener;
        QSignalSpy opened(&opener, &DocumentOpener::opened);
        QSignalSpy failed(&opener, &DocumentOpener::failed);
        opener.open(path);
        if (!opened.wait(60000) || opened.isEmpty()) {
            qWarning("%s", qPrintable(failed.isEmpty() ? QStringLiteral("timeout") : failed.first().value(1).toString()));
            return Document();
        }
        return opened.first().value(1).value<Document>();
    }

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<Document>("folio::Document");
        qRegisterMetaType<Annotations>("folio::Annotations");
    }

    void opensAndSuggestsPageByPage()
    {
        const QString pdf = m_dir.filePath(QStringLiteral("two.pdf"));
        QVERIFY(test::writeSampleFormPdf(pdf, /*shiftSecondPage=*/false));
        const Document doc = open(pdf);
        QCOMPARE(int(doc.pages.size()), 2);
        QVERIFY(QFile::exists(doc.pages[1].imagePath)); // rendered for the page view
        ModelWorker worker;
        QSignalSpy predicted(&worker, &ModelWorker::predicted);
        QSignalSpy failed(&worker, &ModelWorker::failed);
        worker.predict(kModel, doc, Annotations());
        QVERIFY(predicted.wait(60000));
        QVERIFY(failed.isEmpty());
        const Annotations suggestions = predicted.first().first().value<Annotations>();
        int perPage[2] = {0, 0};
        for (const Entity &e : suggestions.entities) {
            QCOMPARE(int(e.state), int(ReviewState::Suggested));
            QCOMPARE(e.source.checkpoint, QStringLiteral("funsd-layout-reading"));
            ++perPage[doc.words[std::size_t(doc.wordIndex(e.wordIds.first()))].page];
        }
        QVERIFY(perPage[0] >= 10);
        QCOMPARE(perPage[1], perPage[0]);
    }

    // A LayoutLMv2 folder on pages without their images runs text + layout only: the suggestions
    // arrive with the model's warning saying so (the main window shows it in the status bar);
    // with the images, no warning.
    void warningsArriveWithSuggestions()
    {
        const QString folder = m_dir.filePath(QStringLiteral("layoutlmv2"));
        FOLIO_REQUIRE_DATA(test::sharedPath(QStringLiteral("fixtures/parity-new/layoutlmv2_visual")));
        QVERIFY(test::makeLayoutLMv2Folder(folder, QStringLiteral(FOLIO_SOURCE_DIR "/tests/data/tokenizers/layoutlmv2")));
        const QString pdf = m_dir.filePath(QStringLiteral("one.pdf"));
        QVERIFY(test::writeSampleFormPdf(pdf, false));
        Document doc = open(pdf);
        QVERIFY(!doc.words.empty());
        ModelWorker worker;
        QSignalSpy predicted(&worker, &ModelWorker::predicted);
        QSignalSpy failed(&worker, &ModelWorker::failed);
        worker.predict(folder, doc, Annotations());
        QVERIFY(predicted.wait(60000));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QVERIFY2(predicted.first().value(1).toStringList().isEmpty(), qPrintable(predicted.first().value(1).toStringList().join('|')));
        for (Page &page : doc.pages)
            page.imagePath.clear();
        worker.predict(folder, doc, Annotations());
        QVERIFY(predicted.wait(60000));
        QVERIFY(failed.isEmpty());
        const QStringList warnings = predicted.last().value(1).toStringList();
        QVERIFY2(!warnings.isEmpty() && warnings.join(' ').contains(QLatin1String("text + layout")), qPrintable(warnings.join('|')));
    }

    void failuresArriveAsMessages()
    {
        const QString bad = m_dir.filePath(QStringLiteral("bad.html.gz"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(test::gzipBytes("<html><body>text</body></html>").left(12) + QByteArray(16, 'Q'));
        }
        DocumentOpener opener;
        QSignalSpy failed(&opener, &DocumentOpener::failed);
        opener.open(bad);
        QVERIFY(failed.wait(20000));
        QVERIFY2(failed.first().value(1).toString().startsWith(bad + QStringLiteral(": corrupt gzip")),
                 qPrintable(failed.first().value(1).toString()));
        QVERIFY(DocumentOpener::fileDialogFilter().contains(QStringLiteral("*.html.gz")));

        ModelWorker worker;
        QSignalSpy modelFailed(&worker, &ModelWorker::failed);
        worker.predict(m_dir.filePath(QStringLiteral("no-model")), Document(), Annotations());
        QVERIFY(modelFailed.wait(20000));
        QVERIFY(modelFailed.first().first().toString().contains(QStringLiteral("no-model")));

        TrainWorker trainer;
        QSignalSpy finished(&trainer, &TrainWorker::finished);
        inference::TrainConfig config;
        config.outputDir = m_dir.filePath(QStringLiteral("out")).toStdString();
        trainer.start(config, {inference::TaggerPage{}});
        QVERIFY(finished.wait(20000));
        const TrainOutcome outcome = finished.first().first().value<TrainOutcome>();
        QVERIFY(!outcome.ok);
        QVERIFY2(outcome.error.contains(QStringLiteral("at least 2")), qPrintable(outcome.error));
    }
};

FOLIO_TEST_MAIN(TestPipelineWorkers)
#include "tst_pipelineworkers.moc"
