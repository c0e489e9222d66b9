// Page-by-page prediction of folio_pipeline on a 2-page PDF made at test time from the bundled
// sample form (Qt's PDF writer; Poppler + Tesseract read it back), with the shipped model.
#include "pipeline/documentprediction.h"
#include "pipeline/documentsource.h"
#include "tests/pipeline/samplefiles.h"
#include "tests/common/testdata.h"

#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

static const QString kModel = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/funsd-layout-reading");

class TestDocumentPrediction : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_pdf;
    Document m_doc;
    pipeline::DocumentTagger m_tagger;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // Page 2 holds the lower two thirds of the form, moved to the top.
        m_pdf = m_dir.filePath(QStringLiteral("two-pages.pdf"));
        QVERIFY(test::writeSampleFormPdf(m_pdf, /*shiftSecondPage=*/true));

        pipeline::LoadOptions options;
        options.pdfDpi = 150;
        const pipeline::LoadedDocument loaded = pipeline::loadDocumentFile(m_pdf, options);
        QVERIFY2(loaded.ok, qPrintable(loaded.error));
        QCOMPARE(int(loaded.kind), int(pipeline::FileKind::Pdf));
        QCOMPARE(int(loaded.document.pages.size()), 2);
        m_doc = loaded.document;
        QString error;
        QVERIFY2(m_tagger.load(kModel, &error), qPrintable(error));
    }

    void predictsEachPage()
    {
        int calls = 0;
        pipeline::PredictOptions options;
        options.progress = [&](int done, int total) {
            ++calls;
            QCOMPARE(total, 2);
            QCOMPARE(done, calls);
        };
        const pipeline::DocumentPrediction p = m_tagger.predict(m_doc, options);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(calls, 2);
        QCOMPARE(int(p.pages.size()), 2);
        for (int page = 0; page < 2; ++page) {
            QCOMPARE(p.pages[std::size_t(page)].page, page);
            QVERIFY2(p.pages[std::size_t(page)].words > 20, qPrintable(QString::number(p.pages[std::size_t(page)].words)));
            QVERIFY2(p.pages[std::size_t(page)].entities >= 5, qPrintable(QString::number(p.pages[std::size_t(page)].entities)));
        }
        QVERIFY(p.pages[0].words > p.pages[1].words); // page 2 holds two thirds of the form
        QSet<QString> labels;
        int perPage[2] = {0, 0};
        for (const pipeline::PredictedSpan &span : p.entities) {
            QVERIFY(!span.words.empty());
            QVERIFY(span.confidence > 0 && span.confidence <= 1);
            for (int w : span.words) // an entity never crosses a page break
                QCOMPARE(m_doc.words[std::size_t(w)].page, span.page);
            ++perPage[span.page];
            labels << span.label;
        }
        QCOMPARE(perPage[0], p.pages[0].entities);
        QCOMPARE(perPage[1], p.pages[1].entities);
        QVERIFY2(labels.contains(QStringLiteral("QUESTION")) && labels.contains(QStringLiteral("ANSWER")),
                 qPrintable(QStringList(labels.values()).join(QLatin1Char(','))));
        // The first entity of the form is its header line, on page 1.
        const pipeline::PredictedSpan &first = p.entities.front();
        QCOMPARE(first.page, 0);
        QCOMPARE(m_doc.words[std::size_t(first.words.front())].text, QStringLiteral("NORTHWIND"));
        const NormBox box = pipeline::spanNormBox(first, m_doc);
        QVERIFY(box.x0 < box.x1 && box.y0 < box.y1 && box.y1 < 150);
    }

    void mergesBackAsSuggestions()
    {
        const pipeline::DocumentPrediction p = m_tagger.predict(m_doc);
        QVERIFY2(p.ok, qPrintable(p.error));
        Annotations annotations;
        Entity mine{QStringLiteral("m1"), QStringLiteral("HEADER"), {m_doc.words[0].id}, {}, 1.0, ReviewState::Accepted};
        annotations.entities.push_back(mine);
        pipeline::appendSuggestions(p, m_doc, m_tagger.checkpointName(), &annotations);
        QCOMPARE(int(annotations.entities.size()), int(p.entities.size()) + 1);
        QSet<QString> ids;
        for (std::size_t i = 1; i < annotations.entities.size(); ++i) {
            const Entity &e = annotations.entities[i];
            QCOMPARE(int(e.state), int(ReviewState::Suggested));
            QCOMPARE(int(e.source.kind), int(AnnotationSource::Model));
            QCOMPARE(e.source.checkpoint, QStringLiteral("funsd-layout-reading"));
            QCOMPARE(e.label, p.entities[i - 1].label);
            QCOMPARE(e.wordIds.size(), int(p.entities[i - 1].words.size()));
            QVERIFY(e.id != QStringLiteral("m1"));
            ids << e.id;
        }
        QCOMPARE(ids.size(), int(p.entities.size()));
    }

    void argmaxDecodingAlsoPageAware()
    {
        pipeline::PredictOptions options;
        options.viterbi = false;
        const pipeline::DocumentPrediction p = m_tagger.predict(m_doc, options);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(int(p.pages.size()), 2);
        QVERIFY(p.pages[1].entities > 0);
    }

    void badInput()
    {
        pipeline::DocumentTagger empty;
        const pipeline::DocumentPrediction none = empty.predict(m_doc);
        QVERIFY(!none.ok);
        QVERIFY2(none.error.contains(QStringLiteral("no checkpoint loaded")), qPrintable(none.error));

        QString error;
        const QString missing = m_dir.filePath(QStringLiteral("no-model"));
        QVERIFY(!empty.load(missing, &error));
        QVERIFY2(error.contains(QStringLiteral("no-model")), qPrintable(error));
        QVERIFY(!empty.isLoaded());

        Document blank = m_doc;
        for (Word &w : blank.words)
            w.text = QStringLiteral("  ");
        const pipeline::DocumentPrediction b = m_tagger.predict(blank);
        QVERIFY(!b.ok);
        QVERIFY2(b.error.startsWith(m_doc.sourcePath) && b.error.contains(QStringLiteral("empty document")), qPrintable(b.error));

        std::atomic_bool cancel{true};
        pipeline::PredictOptions options;
        options.cancel = &cancel;
        const pipeline::DocumentPrediction c = m_tagger.predict(m_doc, options);
        QVERIFY(!c.ok);
        QVERIFY(c.cancelled);
        QVERIFY(c.entities.empty());
    }

    void reloadsOnlyAnotherFolder()
    {
        QString error;
        QVERIFY(m_tagger.load(kModel + QStringLiteral("/"), &error)); // same folder: kept
        QCOMPARE(m_tagger.checkpointName(), QStringLiteral("funsd-layout-reading"));
        QVERIFY(m_tagger.labels().contains(QStringLiteral("B-QUESTION")));
    }
};

FOLIO_TEST_MAIN(TestDocumentPrediction)
#include "tst_documentprediction.moc"
